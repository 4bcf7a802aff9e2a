"""An experiment, not the product: Little Tavern's playout flavour against the same with a patch
of its generated code, A/B in one process (docs/engine.md, "Tried, measured, and not kept").

    python benchmarks/experiments/patch_ab.py benchmarks/experiments/layout_patch.py [GAMES] [PLAYERS]

The patch is executed in the generated module's namespace (with the few builtins it needs) and
may define `_patch(game, ns)`. Prints whether 400 seeds play the same games (else the mean
rounds and decisions of both), then playouts/s of CPU time, median and best of 7 interleaved runs.
"""
import builtins
import gc
import statistics as S
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tavernlang import compile_file, playout  # noqa: E402


def load(patch):
    g = compile_file(ROOT / "games" / "little_tavern.tav").playouts()
    ns = g.namespace
    if patch:
        import bisect
        import re
        ns.update(re=re, _bisect_left=bisect.bisect_left, bool=bool, print=print, sorted=sorted,
                  exec=builtins.exec, compile=builtins.compile)
        exec(compile(Path(patch).read_text(), patch, "exec"), ns)
        if "_patch" in ns:
            ns["_patch"](g, ns)
    return g


def main():
    patch = sys.argv[1]
    N = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    A, B = load(None), load(patch)
    ra = [playout(A, n, s) for s in range(400)]
    rb = [playout(B, n, s) for s in range(400)]
    print("the same games" if ra == rb else "other games:",
          "" if ra == rb else f"rounds {S.mean(r['rounds'] for r in ra):.3f} / {S.mean(r['rounds'] for r in rb):.3f}, "
          f"decisions {S.mean(r['decisions'] for r in ra):.1f} / {S.mean(r['decisions'] for r in rb):.1f}")
    gc.collect()
    gc.freeze()
    ta, tb = [], []
    for _ in range(7):
        for g, acc in ((A, ta), (B, tb)):
            t = time.process_time()
            for s in range(N):
                playout(g, n, s)
            acc.append(N / (time.process_time() - t))
    ta.sort()
    tb.sort()
    print(f"median {ta[3]:.0f} / {tb[3]:.0f} playouts/s: x{tb[3] / ta[3]:.3f}; best {ta[-1]:.0f} / {tb[-1]:.0f}: x{tb[-1] / ta[-1]:.3f}")


if __name__ == "__main__":
    main()
