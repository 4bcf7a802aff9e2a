"""`tav sim --jobs N` against `--jobs 1` on the same seeds, interleaved; the time is what
`tav sim --json` reports for the games (start-up excluded).

    python benchmarks/bench_jobs.py [--rounds 3] [--jobs 2]

Little Tavern 2,000 games and Cavern Tavern 300 games at 4 players (the issue's figures).
The results are the same for any number of jobs (tests/test_cli.py checks it); only the
time differs. On a machine whose cores are busy with other work the ratio says little.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = [("games/little_tavern.tav", 2000), ("games/cavern_tavern.tav", 300)]


def seconds(path: str, games: int, jobs: int) -> float:
    out = subprocess.run([sys.executable, "-m", "tavernlang.cli", "sim", path, "-p", "4", "--games", str(games),
                          "--seed", "1", "--jobs", str(jobs), "--json"], check=True, capture_output=True,
                         text=True, cwd=ROOT)
    return json.loads(out.stdout)["seconds"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    for path, games in RUNS:
        one, many = [], []
        for _ in range(a.rounds):
            one.append(seconds(path, games, 1))
            many.append(seconds(path, games, a.jobs))
        o, m = statistics.median(one), statistics.median(many)
        print(f"{path} x{games}: --jobs 1 {o:.2f} s, --jobs {a.jobs} {m:.2f} s: x{o / m:.2f}")


if __name__ == "__main__":
    main()
