"""Random playouts/s of any rules file, this checkout's engine against another's, in CPU time:
interleaved runs in fresh interpreters (each imports its own tavernlang), medians.

    python benchmarks/bench_against.py OTHER_CHECKOUT FILE.tav [--players 4] [--games 400] [--rounds 5]

Both play the same rules file (the one given) and the same seeds in the fast layout, as
`tav sim` does. Where `bench_games.py --against` covers the seed games at every player count,
this takes any file (the peer games of benchmarks/peers/, a house rule). No test asserts a
duration: this is where speed is measured.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_ONE = '''
import gc, sys, time
sys.setrecursionlimit(10000)
from tavernlang import compile_file, playout
path, n, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
g = compile_file(path, fast=True).playouts()
for s in range(5):
    playout(g, n, 10**6 + s)
gc.collect()
gc.freeze()
t = time.process_time()
for s in range(games):
    playout(g, n, s)
print(games / (time.process_time() - t))
'''


def _one(root: Path, path: Path, n: int, games: int) -> float:
    out = subprocess.run([sys.executable, "-c", _ONE, str(path), str(n), str(games)], cwd=root,
                         env=dict(os.environ, PYTHONPATH=str(root)), capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"playing in {root} failed:\n{out.stderr}")
    return float(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("other", type=Path)
    ap.add_argument("file", type=Path)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400, help="playouts a measurement")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    path = a.file.resolve()
    here, there = [], []
    for _ in range(a.rounds):
        here.append(_one(ROOT, path, a.players, a.games))
        there.append(_one(a.other.resolve(), path, a.players, a.games))
    h, t = statistics.median(here), statistics.median(there)
    print(f"{a.file} {a.players}p: here {h:.0f}, there {t:.0f} playouts/s of CPU time: x{h / t:.3f}")


if __name__ == "__main__":
    main()
