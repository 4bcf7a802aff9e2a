"""Random playouts/s of Little Tavern at 4 players: tavernlang vs a hand-written Python version.

    python benchmarks/bench_little_tavern.py [--seconds 2] [--players 4] [--rounds 5] [--cpu]

Both play uniformly random legal moves, measured alternately --rounds times in one process (so
both see the same load); the medians and their ratio (tavernlang / hand-written) are printed,
for tavernlang in the exact layout (`tav run`'s games) and in the fast layout (`tav sim`'s,
docs/engine.md: the center kept in card order).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.reference.little_tavern_ref import play_game  # noqa: E402
from tavernlang import compile_file, playout  # noqa: E402


def measure(fn, seconds: float, clock=time.perf_counter) -> tuple[float, float]:
    t0 = clock()
    games = decisions = 0
    seed = 0
    while clock() - t0 < seconds:
        r = fn(seed)
        decisions += r["decisions"]
        games += 1
        seed += 1
    el = clock() - t0
    return games / el, decisions / el


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="count CPU time, not wall time (a shared machine)")
    a = ap.parse_args()
    clock = time.process_time if a.cpu else time.perf_counter
    exact = compile_file(ROOT / "games" / "little_tavern.tav")
    fast = compile_file(ROOT / "games" / "little_tavern.tav", fast=True)
    n = a.players
    runs: dict = {"exact": [], "fast": [], "ref": []}
    for _ in range(a.rounds):
        runs["exact"].append(measure(lambda s: playout(exact, n, s), a.seconds, clock))
        runs["fast"].append(measure(lambda s: playout(fast, n, s), a.seconds, clock))
        runs["ref"].append(measure(lambda s: play_game(n, s), a.seconds, clock))
    med = {k: (statistics.median(t[0] for t in v), statistics.median(t[1] for t in v)) for k, v in runs.items()}
    ref = med["ref"]
    print(f"Little Tavern, {n} players, random playouts, {a.seconds:g} s each, median of {a.rounds} interleaved")
    print(f"  tavernlang, exact layout: {med['exact'][0]:8.1f} playouts/s  {med['exact'][1]:10.0f} decisions/s")
    print(f"  tavernlang, fast layout:  {med['fast'][0]:8.1f} playouts/s  {med['fast'][1]:10.0f} decisions/s")
    print(f"  hand-written:             {ref[0]:8.1f} playouts/s  {ref[1]:10.0f} decisions/s")
    print(f"  ratio tavernlang / hand-written: {med['exact'][0] / ref[0]:.2f} exact, {med['fast'][0] / ref[0]:.2f} fast")


if __name__ == "__main__":
    main()
