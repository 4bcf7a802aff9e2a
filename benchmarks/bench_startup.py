"""Cold start: `tav check FILE` as a whole process against `python3 -c pass`, interleaved.

    python benchmarks/bench_startup.py [--rounds 7] [--file games/little_tavern.tav]

Each round runs both once; the medians and their difference are printed (the issue's goal:
at most 0.2 s more than Python's own start). The Lark grammar is cached in the user's cache
directory after the first run (TAV_NO_CACHE=1 turns the cache off), so the first round is
dropped.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--file", default="games/little_tavern.tav")
    a = ap.parse_args()
    check = [sys.executable, "-m", "tavernlang.cli", "check", a.file]
    timed(check)  # fills the grammar cache
    py, tav = [], []
    for _ in range(a.rounds):
        py.append(timed([sys.executable, "-c", "pass"]))
        tav.append(timed(check))
    p, t = statistics.median(py), statistics.median(tav)
    print(f"python -c pass  {p:.3f} s")
    print(f"tav check       {t:.3f} s   ({a.file})")
    print(f"difference      {t - p:.3f} s   (median of {a.rounds})")


if __name__ == "__main__":
    main()
