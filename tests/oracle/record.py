"""Record the oracle the engine is held to: for every seed game, every player count and every
option value (one option changed at a time from the defaults), the result of seeded random
playouts (winners, scores, decisions, rounds), for the first seeds the steps of work each took
(the budget's count: a change that plays the same games with more or less work shows there), plus,
for a few seeds, a digest of the whole log of the same game played as a Match (the interactive
path: logs, decisions handed out).

    python tests/oracle/record.py [--seeds 200] [--steps 20] [--logged 3] [--games little_tavern ...]
    python tests/oracle/record.py --add-steps [--steps 20] [--games ...]   (steps into the files as they are,
                                                      after checking those seeds' results are as recorded)

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
            vals = [game.evaluate(d.low, game.new_state(game.min_players, 0))]
        else:
            vals = []
        default = game.evaluate(d.default, game.new_state(game.min_players, 0))
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


def record(name: str, seeds: int, logged: int, steps: int) -> dict:
    game = compile_file(ROOT / "games" / f"{name}.tav")
    out = {"game": name, "seeds": seeds, "runs": []}
    for opts in settings(game):
        for n in range(game.min_players, game.max_players + 1):
            try:
                rs = [playout(game, n, s, opts) for s in range(seeds)]
                res = [result_line(r) for r in rs]
                work = [r["steps"] for r in rs[:steps]]
                logs = [log_digest(game, n, s, opts) for s in range(logged)]
            except Exception as e:  # a setting some player count refuses: recorded as such
                res, logs, work = [f"error: {e}"], [], []
            out["runs"].append({"options": opts, "players": n, "results": res, "steps": work, "logs": logs})
            print(name, opts, n, res[:1], file=sys.stderr)
    return out


def add_steps(name: str, steps: int) -> dict:
    """The steps of the first seeds added to a recorded file, its results left as they are (and
    checked: a seed whose result is not as recorded stops it)."""
    game = compile_file(ROOT / "games" / f"{name}.tav")
    data = json.loads((ROOT / "tests" / "oracle" / f"{name}.json").read_text())
    for run in data["runs"]:
        want = run["results"]
        work = []
        if not (want and want[0].startswith("error:")):
            for s, w in enumerate(want[:steps]):
                r = playout(game, run["players"], s, run["options"])
                if result_line(r) != w:
                    sys.exit(f"{name} {run['options']} {run['players']}p seed {s}: not as recorded; record again")
                work.append(r["steps"])
        run["steps"] = work
        for k in ("logs",):  # (the keys in the order record() writes them)
            run[k] = run.pop(k)
        print(name, run["options"], run["players"], work[:3], file=sys.stderr)
    return data


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--logged", type=int, default=3)
    ap.add_argument("--steps", type=int, default=20, help="the seeds whose steps of work are recorded")
    ap.add_argument("--add-steps", action="store_true", help="add the steps to the files as they are")
    ap.add_argument("--games", nargs="*", default=GAMES)
    a = ap.parse_args()
    for name in a.games:
        data = add_steps(name, a.steps) if a.add_steps else record(name, a.seeds, a.logged, a.steps)
        (ROOT / "tests" / "oracle" / f"{name}.json").write_text(json.dumps(data, indent=0) + "\n")


if __name__ == "__main__":
    main()
