"""Random playouts/s of Cavern Tavern, by player count and mode.

    python benchmarks/bench_cavern_tavern.py [--seconds 3] [--players 1 2 3 4 5 6] [--profile]

Uniformly random bots (as `tav sim`), seeds from 0. With --profile, a cProfile of 4 players
(the closures' self time) and the `def`s called most, by name: where the rules spend their time.
"""
from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tavernlang import compile_file, playout  # noqa: E402

MODES = {"base": {}, "secret chamber": {"secret_chamber": True}}


def measure(game, n: int, options: dict, seconds: float) -> tuple[float, float]:
    t0 = time.perf_counter()
    games = decisions = 0
    while time.perf_counter() - t0 < seconds:
        decisions += playout(game, n, games, options)["decisions"]
        games += 1
    el = time.perf_counter() - t0
    return games / el, decisions / el


def profile(game) -> None:
    calls: collections.Counter = collections.Counter()
    for name, cell in game.def_cells.items():  # count the defs that are still called (not inlined)
        f = cell[0]

        def counted(st, env, f=f, name=name):
            calls[name] += 1
            return f(st, env)
        cell[0] = counted
    prof = cProfile.Profile()
    prof.enable()
    for s in range(10):
        playout(game, 4, s)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    print("defs called (10 games, 4 players):", ", ".join(f"{n} {c}" for n, c in calls.most_common(10)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--players", type=int, nargs="*", default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    game = compile_file(ROOT / "games" / "cavern_tavern.tav")
    if a.profile:
        profile(game)
        return
    print(f"Cavern Tavern, random playouts, {a.seconds:.0f} s each")
    for mode, options in MODES.items():
        for n in a.players:
            pps, dps = measure(game, n, options, a.seconds)
            print(f"  {n} player{'s' if n > 1 else ' '} {mode:15s} {pps:7.1f} playouts/s  {dps:9.0f} decisions/s")


if __name__ == "__main__":
    main()
