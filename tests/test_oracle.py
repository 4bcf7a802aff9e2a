"""The engine is held to a recorded oracle (tests/oracle/<game>.json, made by
tests/oracle/record.py): for every seed game, player count and option value, the winners,
scores, decisions and rounds of seeded random playouts, the steps of work of the first seeds
(the budget's count), and digests of whole logged games.
A change of the engine that is meant to play the same games must leave them all as recorded.
The default run checks the first seeds of each setting; `-m slow` checks all of them."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tavernlang import compile_file, playout


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "oracle"))
from record import log_digest, result_line  # noqa: E402
ORACLE = ROOT / "tests" / "oracle"
GAMES = sorted(p.stem for p in ORACLE.glob("*.json"))
_compiled: dict = {}


def game(name):
    if name not in _compiled:
        _compiled[name] = compile_file(ROOT / "games" / f"{name}.tav")
    return _compiled[name]


def check(name: str, seeds: int | None, logged: int | None) -> None:
    data = json.loads((ORACLE / f"{name}.json").read_text())
    g = game(name)
    wrong = []
    for run in data["runs"]:
        opts, n = run["options"], run["players"]
        want = run["results"]
        if want and want[0].startswith("error:"):
            with pytest.raises(Exception):
                playout(g, n, 0, opts)
            continue
        work = run.get("steps", [])
        for s, w in enumerate(want[:seeds]):
            r = playout(g, n, s, opts)
            got = result_line(r)
            if got != w:
                wrong.append(f"{name} {opts} {n}p seed {s}: {got} (recorded {w})")
            elif s < len(work) and r["steps"] != work[s]:  # the same game, with more or less work
                wrong.append(f"{name} {opts} {n}p seed {s}: {r['steps']} steps of work (recorded {work[s]})")
        for s, w in enumerate(run["logs"][:logged]):
            got = log_digest(g, n, s, opts)
            if got != w:
                wrong.append(f"{name} {opts} {n}p seed {s}: the log differs from the recorded one")
    assert not wrong, "\n".join(wrong[:20])


def test_the_oracle_covers_every_seed_game():
    assert set(GAMES) == {p.stem for p in (ROOT / "games").glob("*.tav")}


@pytest.mark.parametrize("name", GAMES)
def test_games_play_as_recorded(name):
    check(name, seeds=3, logged=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_games_play_as_recorded_every_seed(name):
    check(name, seeds=None, logged=None)
