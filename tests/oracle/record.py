"""Record the oracle the engine is held to: for every seed game, every player count and every
option value (one option changed at a time from the defaults), the result of seeded random
playouts (winners, scores, decisions, rounds), plus, for a few seeds, a digest of the whole
log of the same game played as a Match (the interactive path: logs, decisions handed out).

    python tests/oracle/record.py [--seeds 200] [--logged 3] [--games little_tavern ...]

The files written (tests/oracle/<game>.json) are what tests/test_oracle.py compares against;
record them again only when a change of the rules or of the engine is meant to change games,
and say so in the commit that does.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tavernlang import Match, compile_file, playout  # noqa: E402
from tavernlang.engine.runner import play_bots  # noqa: E402

GAMES = ["little_tavern", "cavern_tavern", "tavern_masters", "taverns_of_tiefenthal"]


def settings(game) -> list[dict]:
    """The defaults, then each other value of each option, one option at a time."""
    out = [{}]
    m = game.model
    for o in m.options.values():
        d = o.decl
        if o.type == "bool":
            vals = [True, False]
        elif o.type.startswith("enum:"):
            vals = list(m.enums[o.type[5:]])
        elif d.low is not None:
            vals = [game.compiler_expr_value(d.low, game.new_state(game.min_players, 0))]
        else:
            vals = []
        default = game.compiler_expr_value(d.default, game.new_state(game.min_players, 0))
        out += [{o.name: v} for v in vals if v != default]
    return out


def result_line(r: dict) -> str:
    return f"{','.join(map(str, r['winners']))}|{','.join(map(str, r['scores']))}|{r['decisions']}|{r['rounds']}"


def log_digest(game, n: int, seed: int, options: dict) -> str:
    m = Match(game, n, seed, options)
    play_bots(m)
    h = hashlib.sha256()
    for line in m.st.log:
        h.update(repr(line).encode())
    h.update(repr(m.result).encode())
    return h.hexdigest()[:16]


def record(name: str, seeds: int, logged: int) -> dict:
    game = compile_file(ROOT / "games" / f"{name}.tav")
    out = {"game": name, "seeds": seeds, "runs": []}
    for opts in settings(game):
        for n in range(game.min_players, game.max_players + 1):
            try:
                res = [result_line(playout(game, n, s, opts)) for s in range(seeds)]
                logs = [log_digest(game, n, s, opts) for s in range(logged)]
            except Exception as e:  # a setting some player count refuses: recorded as such
                res, logs = [f"error: {e}"], []
            out["runs"].append({"options": opts, "players": n, "results": res, "logs": logs})
            print(name, opts, n, res[:1], file=sys.stderr)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--logged", type=int, default=3)
    ap.add_argument("--games", nargs="*", default=GAMES)
    a = ap.parse_args()
    for name in a.games:
        data = record(name, a.seeds, a.logged)
        (ROOT / "tests" / "oracle" / f"{name}.json").write_text(json.dumps(data, indent=0) + "\n")


if __name__ == "__main__":
    main()
