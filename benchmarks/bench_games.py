"""Random playouts/s and µs per decision of every seed game at every player count, optionally
side by side with another checkout of tavernlang (interleaved, so both see the same load).

    python benchmarks/bench_games.py [--seconds 2] [--games little_tavern cavern_tavern ...]
                                     [--against /path/to/other/checkout] [--rounds 3] [--cpu]

Each measurement plays seeds from 0 with uniformly random bots (as `tav sim`, in the fast layout
where the game and the checkout have one; --exact: the exact layout) for --seconds;
with --against, each (game, player count) is measured alternately here and there --rounds times
and the medians are printed, with their ratio. The other checkout runs in a subprocess with its
own tavernlang on PYTHONPATH. --cpu counts the process's CPU time instead of the wall clock:
on a machine shared with other work, the figure that moves least with the load. No test asserts
a duration: this is where speed is measured.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["little_tavern", "cavern_tavern", "tavern_masters", "taverns_of_tiefenthal"]

_ONE = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from tavernlang import compile_file, playout
try:  # (as tav sim plays it: the fast layout, where this checkout has one)
    game = compile_file(sys.argv[2], fast=sys.argv[6] == "fast")
except TypeError:
    game = compile_file(sys.argv[2])
n, seconds = int(sys.argv[3]), float(sys.argv[4])
clock = time.process_time if sys.argv[5] == "cpu" else time.perf_counter
playout(game, n, 0)  # warm up
t0 = clock(); games = decisions = 0
while clock() - t0 < seconds:
    decisions += playout(game, n, games)["decisions"]; games += 1
el = clock() - t0
print(json.dumps({"pps": games / el, "us": 1e6 * el / max(1, decisions)}))
'''


def measure(checkout: Path, game: str, n: int, seconds: float, cpu: bool = False, exact: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", _ONE, str(checkout), str(checkout / "games" / f"{game}.tav"),
                          str(n), str(seconds), "cpu" if cpu else "wall", "exact" if exact else "fast"],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def counts(checkout: Path, game: str) -> range:
    sys.path.insert(0, str(checkout))
    from tavernlang import compile_file
    g = compile_file(checkout / "games" / f"{game}.tav")
    sys.path.pop(0)
    return range(g.min_players, g.max_players + 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games", nargs="*", default=GAMES)
    ap.add_argument("--against", type=Path, default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", action="store_true", help="count CPU time, not wall time")
    ap.add_argument("--exact", action="store_true", help="the exact layout (tav sim --exact), not the fast one")
    a = ap.parse_args()
    print(f"random playouts, {a.seconds:g} s {'of CPU time' if a.cpu else ''} a measurement" +
          (f", median of {a.rounds}, here vs {a.against}" if a.against else ""))
    for game in a.games:
        for n in counts(ROOT, game):
            if a.against is None:
                r = measure(ROOT, game, n, a.seconds, a.cpu, a.exact)
                print(f"  {game:22s} {n}p  {r['pps']:8.1f} playouts/s  {r['us']:6.1f} µs/decision")
                continue
            if not (a.against / "games" / f"{game}.tav").exists():
                continue
            here, there = [], []
            for i in range(a.rounds):  # (in turn, the first of each pair changing: both see the same load)
                pair = [(here, ROOT), (there, a.against)]
                for out, where in (pair if i % 2 == 0 else pair[::-1]):
                    out.append(measure(where, game, n, a.seconds, a.cpu, a.exact))
            h, t = (statistics.median(r["pps"] for r in here), statistics.median(r["pps"] for r in there))
            hu, tu = (statistics.median(r["us"] for r in here), statistics.median(r["us"] for r in there))
            print(f"  {game:22s} {n}p  here {h:8.1f}  there {t:8.1f} playouts/s  x{h / t:4.2f}"
                  f"   {hu:6.1f} vs {tu:6.1f} µs/decision")
        sys.stdout.flush()


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"({time.perf_counter() - t0:.0f} s)")
