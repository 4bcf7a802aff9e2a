"""Bytecodes executed per decision of random playouts, for each seed game: a measure of speed that
holds on a loaded machine (CPython 3.11's time per game is close to proportional to it).

    python benchmarks/bench_bytecodes.py [--seeds 20] [--players 2,4] [--games LT,CT,TM,TOT]
                                         [--exact] [--against DIR] [--json] [--top N]
                                         [--by-rule N]
    python benchmarks/bench_bytecodes.py --games PIG,GOOF,LD --players 2    (the peer games)

Each playout (`tavernlang.playout`: a new state, the whole game by uniformly random bots, its
result) runs under `sys.settrace` with opcode events on; every opcode executed in any frame is
counted, the tracer's own frames aside. The figure is bytecodes / decisions over the seeds, where a
decision is one with more than one option (the count `tav sim` reports). `--against DIR`
counts the same rules files (this checkout's) with the engine of the checkout in DIR as well (a
subprocess with DIR first on the path) and prints both and their ratio. `--top N` prints, for
each game, the N generated lines (and run-time functions) that execute the most bytecodes per
decision: where the work goes. `--by-rule N` prints the N lines of the rules file whose code executes
the most bytecodes per decision, as `tav profile` counts them (tavernlang/profile.py). Three games of other seeds are played untraced first, so that
what a long simulation keeps warm (the generated module's caches of card texts and def values)
is warm. Deterministic: the same checkout gives the same figures on any load.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAMES = {
    "LT": "games/little_tavern.tav",
    "CT": "games/cavern_tavern.tav",
    "TM": "games/tavern_masters.tav",
    "TOT": "games/taverns_of_tiefenthal.tav",
    # the peer games (benchmarks/peers/: OpenSpiel's Pig, Goofspiel and Liar's Dice), 2 players only
    "PIG": "benchmarks/peers/pig.tav",
    "GOOF": "benchmarks/peers/goofspiel.tav",
    "LD": "benchmarks/peers/liars_dice.tav",
}
SEED_GAMES = "LT,CT,TM,TOT"


def count(game, players: int, seeds: range, top: int = 0, by_rule: int = 0) -> dict:
    from collections import Counter

    from tavernlang import playout

    for seed in range(10**6, 10**6 + 3):  # (warm-up, untraced)
        playout(game, players, seed)
    if by_rule:  # (the checkout's `tav profile` counting, by rules line)
        try:
            from tavernlang.profile import count as by_rules_line, rows
        except ImportError:
            sys.exit("--by-rule needs tavernlang/profile.py (tav profile) in the checkout counted")
        c = by_rules_line(game, players, seeds, by_generated_line=bool(top))
        ops, decisions, games, where = c["bytecodes"], c["decisions"], c["games"], c.get("generated_lines", Counter())
    else:
        ops, decisions, games, where = _count(game, players, seeds, top)
    out = {"bytecodes": ops, "decisions": decisions, "games": games,
           "per_decision": ops / max(decisions, 1), "per_game": ops / games}
    if top:
        lines = {s.split("(")[0][4:]: s.splitlines() for s in game.gen_source if s.startswith("def ")}
        out["top"] = [(k / max(decisions, 1), f"{name}:{ln}  {lines[name][ln - 1].strip()[:110]}"
                       if ln and name in lines and ln <= len(lines[name]) else f"{name}:{ln or ''}")
                      for (name, ln), k in where.most_common(top)]
    if by_rule:
        out["by_rule"] = [(r["per_decision"], (f"{Path(r['file']).name}:{r['line']}  " if r["file"] else "")
                           + r["text"][:100]) for r in rows(c)[:by_rule]]
    return out


def _count(game, players: int, seeds: range, top: int):
    """(bytecodes, decisions, games, bytecodes by generated line when `top`) of playouts of `seeds`."""
    from collections import Counter

    from tavernlang import playout

    ops = 0
    where: Counter = Counter()

    def tracer(frame, event, arg):
        nonlocal ops
        frame.f_trace_opcodes = True
        if event == "opcode":
            ops += 1
            if top:
                code = frame.f_code
                if code.co_filename.startswith("<tav generated"):
                    where[(code.co_name, frame.f_lineno)] += 1
                else:
                    where[(f"{Path(code.co_filename).name}:{code.co_name}", 0)] += 1
        return tracer

    decisions = games = 0
    for seed in seeds:
        sys.settrace(tracer)
        try:
            r = playout(game, players, seed)
        finally:
            sys.settrace(None)
        decisions += r["decisions"]
        games += 1
    return ops, decisions, games, where


def measure(names: list[str], players: list[int], seeds: int, exact: bool, top: int = 0,
            by_rule: int = 0) -> dict:
    sys.path.insert(0, str(Path.cwd()))
    from tavernlang import compile_file

    sys.setrecursionlimit(10000)
    out = {}
    for name in names:
        game = compile_file(ROOT / GAMES[name], fast=not exact).playouts()  # (this checkout's rules files)
        lo, hi = game.model.min_players, game.model.max_players
        for n in players:
            if lo <= n <= hi:
                out[f"{name} {n}p"] = count(game, n, range(seeds), top, by_rule)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", default=SEED_GAMES, help=f"any of {','.join(GAMES)} (default: the seed games)")
    ap.add_argument("--exact", action="store_true", help="the exact layout (default: the fast one, as tav sim)")
    ap.add_argument("--against", metavar="DIR", help="another checkout to count the same games in")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--top", type=int, default=0, metavar="N", help="the N lines that execute the most bytecodes")
    ap.add_argument("--by-rule", type=int, default=0, metavar="N",
                    help="the N lines of the rules whose code executes the most bytecodes")
    a = ap.parse_args()
    names = [g.strip().upper() for g in a.games.split(",")]
    players = [int(p) for p in a.players.split(",")]
    if a.json:
        os.chdir(ROOT if not os.environ.get("TAV_BENCH_ROOT") else os.environ["TAV_BENCH_ROOT"])
        print(json.dumps(measure(names, players, a.seeds, a.exact, a.top, a.by_rule)))
        return
    runs = {"this": _run(ROOT, a)}
    if a.against:
        runs["against"] = _run(Path(a.against).resolve(), a)
    layout = "exact" if a.exact else "fast"
    print(f"bytecodes per decision, random playouts, {layout} layout, seeds 0..{a.seeds - 1}")
    head = f"{'game':10} {'this':>9} {'per game':>10}"
    if a.against:
        head += f" {'against':>9} {'ratio':>6}"
    print(head)
    for key, r in runs["this"].items():
        line = f"{key:10} {r['per_decision']:9.1f} {r['per_game']:10.0f}"
        if a.against and key in runs["against"]:
            b = runs["against"][key]
            line += f" {b['per_decision']:9.1f} {r['per_decision'] / b['per_decision']:6.2f}"
        print(line)
        for per, what in r.get("top", []):
            print(f"    {per:8.1f}  {what}")
        if r.get("by_rule"):
            print("    by line of the rules:")
        for per, what in r.get("by_rule", []):
            print(f"    {per:8.1f}  {what}")


def _run(root: Path, a) -> dict:
    """The figures of the checkout at `root`, counted in a fresh interpreter that imports it."""
    env = dict(os.environ, PYTHONPATH=str(root), TAV_BENCH_ROOT=str(root))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--json", "--seeds", str(a.seeds),
           "--players", a.players, "--games", a.games, "--top", str(a.top), "--by-rule", str(a.by_rule)] + (["--exact"] if a.exact else [])
    out = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"counting in {root} failed:\n{out.stderr}")
    return json.loads(out.stdout)


if __name__ == "__main__":
    main()
