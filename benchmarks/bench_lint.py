"""The linter's own speed: static lint of every seed game, and `--simulate`.

    python benchmarks/bench_lint.py [--repeat 20] [--simulate 200]
    python benchmarks/bench_lint.py --scaling [--repeat 5]

--scaling lints the synthetic file of benchmarks/synthetic_lint.py at 250 cards and
25 effects, then doubling both up to 2,000 and 200: lint alone (load apart), best of
--repeat, and the factor per doubling (linear is about 2).

Static: each file of games/ and examples/ is loaded (parsed and checked) and
linted; the time of the whole pass (load + lint) and of the lint alone are the
best of --repeat runs. The first load of a process also builds the grammar,
reported apart. Simulate: Little Tavern's playouts with the fire counting of
--simulate on, against plain playouts (the engine's hot path when nobody counts).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tavernlang import CompiledGame, playout  # noqa: E402
from tavernlang.lint import apply_suppressions, lint_model, make_context  # noqa: E402
from tavernlang.lint.coverage import simulate  # noqa: E402
from tavernlang.loader import load  # noqa: E402

FILES = sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "examples").glob("*.tav"))


def best(fn, repeat: int) -> float:
    out = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def scaling(repeat: int) -> None:
    import tempfile

    from benchmarks.synthetic_lint import synthetic

    print(f"static lint of the synthetic file (benchmarks/synthetic_lint.py), lint alone, best of {repeat}")
    prev = None
    with tempfile.TemporaryDirectory() as d:
        for cards, effects in ((250, 25), (500, 50), (1000, 100), (2000, 200)):
            p = Path(d) / f"synthetic_{cards}.tav"
            p.write_text(synthetic(cards, effects))
            m = load(p)
            t = best(lambda: lint_model(m), repeat)
            factor = f"  x{t / prev:.2f}" if prev else ""
            print(f"  {cards:5d} cards, {effects:4d} effects: {t * 1000:8.1f} ms{factor}")
            prev = t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--simulate", type=int, default=200)
    ap.add_argument("--scaling", action="store_true", help="lint the synthetic file at four sizes")
    a = ap.parse_args()
    if a.scaling:
        scaling(a.repeat or 5)
        return
    a.repeat = a.repeat or 20

    t0 = time.perf_counter()
    load(FILES[0])
    first = time.perf_counter() - t0
    models = {f: load(f) for f in FILES}

    def whole():
        for f in FILES:
            m = load(f)
            apply_suppressions(m, lint_model(m))

    def lint_only():
        for m in models.values():
            lint_model(m)

    names = ", ".join(str(f.relative_to(ROOT)) for f in FILES)
    print(f"static lint of {len(FILES)} files ({names}), best of {a.repeat}")
    print(f"  first load of the process (builds the grammar): {first * 1000:8.1f} ms")
    print(f"  load + lint, every file:                        {best(whole, a.repeat) * 1000:8.1f} ms")
    print(f"  lint alone, every file:                         {best(lint_only, a.repeat) * 1000:8.1f} ms")
    for f, m in models.items():
        print(f"    {f.relative_to(ROOT)}: {best(lambda: lint_model(m), a.repeat) * 1000:6.2f} ms")

    lt = ROOT / "games" / "little_tavern.tav"
    model = load(lt)
    game = CompiledGame(model)
    ctx = make_context(model)
    n = a.simulate
    t0 = time.perf_counter()
    simulate(ctx, game, n, 1)
    sim = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(n):
        playout(game, game.min_players + i % (game.max_players - game.min_players + 1), 1 + i)
    plain = time.perf_counter() - t0
    print(f"--simulate {n} on Little Tavern: {sim:6.2f} s ({n / sim:7.1f} games/s); "
          f"plain playouts: {plain:6.2f} s ({n / plain:7.1f} games/s)")


if __name__ == "__main__":
    main()
