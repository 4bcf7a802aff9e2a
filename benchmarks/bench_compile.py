"""Compile time of every seed game (check and generate, both flavours, as `tav sim` needs them),
optionally side by side with another checkout of tavernlang (interleaved, so both see the same
load).

    python benchmarks/bench_compile.py [--rounds 5] [--games little_tavern ...]
                                       [--against /path/to/other/checkout]

Each measurement is a fresh process that loads the rules once (parse and check, untimed) and
then compiles the checked game --repeat times in each flavour, counting CPU time; the median
of --rounds such processes is printed in ms per compile, with the ratio here ÷ there.
No test asserts a duration: this is where compile time is measured.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["little_tavern", "cavern_tavern", "tavern_masters", "taverns_of_tiefenthal"]

_ONE = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from tavernlang.loader import load
from tavernlang.engine.compile import CompiledGame
model = load(sys.argv[2])
repeat = int(sys.argv[3])
CompiledGame(model)  # warm up (imports, caches of the process)
t0 = time.process_time()
for _ in range(repeat):
    CompiledGame(model).playouts()
print(json.dumps({"ms": 1000 * (time.process_time() - t0) / repeat}))
'''


def measure(checkout: Path, game: str, repeat: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", _ONE, str(checkout), str(checkout / "games" / f"{game}.tav"),
                          str(repeat)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["ms"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=5, help="compiles per process")
    ap.add_argument("--games", nargs="*", default=GAMES)
    ap.add_argument("--against", type=Path, default=None)
    a = ap.parse_args()
    print(f"{'game':24} {'here ms':>9}" + (f" {'there ms':>9} {'here/there':>10}" if a.against else ""))
    for game in a.games:
        here, there = [], []
        for _ in range(a.rounds):
            here.append(measure(ROOT, game, a.repeat))
            if a.against:
                there.append(measure(a.against.resolve(), game, a.repeat))
        h = statistics.median(here)
        line = f"{game:24} {h:9.1f}"
        if a.against:
            t = statistics.median(there)
            line += f" {t:9.1f} {h / t:10.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
