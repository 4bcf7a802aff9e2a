"""Where a game's work goes (`tav profile`): the Python bytecodes its generated code executes in
random playouts, summed by line of the rules.

Every opcode CPython executes while a playout runs (sys.settrace with opcode events) is counted
at the rules line of the nearest frame whose line was written for one: the code of a statement,
a choice's options or a def compiled as a function of its own counts at that line; a def written
into the code that uses it, a run-time helper, and a function written without rules lines (an
action's requirements) count at the line that runs them. What runs outside any rule (the
playout's new state, the seeding of its generators, the flow of rounds, the result) is counted
apart. The figure is deterministic (the same rules and seeds give the same counts on
any load) and CPU time is close to proportional to it, so a designer can tell which rules make
simulation slow, and whether a rewriting of a rule made it cheaper."""
from __future__ import annotations

import linecache
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from .engine.common import SPANS
from .engine.runner import playout

WARM = 2  # the first seeds played untraced first, so that what a simulation keeps warm is warm


def count(game, players: int, seeds, options: dict[str, Any] | None = None,
          by_generated_line: bool = False) -> dict:
    """Bytecodes executed by playouts of `seeds`: in all, by rules line ((file, line), or None
    for the engine's own work), and optionally by generated (function, line); with the
    decisions (of two options or more) and forced ones the playouts made."""
    pg = game.playouts()
    seeds = list(seeds)
    for seed in seeds[:WARM]:  # (warm-up, untraced: a fault is reported at a seed asked for)
        playout(pg, players, seed, options)
    ops = 0
    by_rule: Counter = Counter()  # rules span (or None: no rule) -> bytecodes
    gen_lines: Counter = Counter()
    spans: dict = {}  # generated function's file name -> the rules span of each of its lines (or None)

    def caller_line(frame):
        """The rules span of the nearest frame at or above `frame` whose line has one, or None."""
        while frame is not None:
            name = frame.f_code.co_filename
            if name not in spans and name.startswith("<tav generated"):
                table = frame.f_globals.get(SPANS)
                spans[name] = table.get(name) if table is not None else None
            table = spans.get(name)
            if table:
                i = frame.f_lineno - 2 if frame.f_lineno is not None else -1  # (line 1 is the def)
                if 0 <= i < len(table) and table[i] is not None:
                    return table[i]
            frame = frame.f_back
        return None

    def tracer(frame, event, arg):
        nonlocal ops
        frame.f_trace_opcodes = True
        if event == "opcode":
            ops += 1
            by_rule[caller_line(frame)] += 1
            if by_generated_line:
                code = frame.f_code
                if code.co_filename.startswith("<tav generated"):
                    gen_lines[(code.co_name, frame.f_lineno)] += 1
                else:
                    gen_lines[(f"{Path(code.co_filename).name}:{code.co_name}", 0)] += 1
        return tracer

    decisions = forced = games = 0
    before = sys.gettrace()  # (a debugger's or a coverage tool's, put back after each game)
    for seed in seeds:
        sys.settrace(tracer)
        try:
            r = playout(pg, players, seed, options)
        finally:
            sys.settrace(before)
        decisions += r["decisions"]
        forced += r["forced"]
        games += 1
    lines: Counter = Counter()
    for sp, k in by_rule.items():
        lines[(sp.file, sp.line) if sp is not None else None] += k
    out = {"bytecodes": ops, "decisions": decisions, "forced": forced, "games": games, "lines": lines}
    if by_generated_line:
        out["generated_lines"] = gen_lines
    return out


def rows(counted: dict) -> list[dict]:
    """The rules lines of `count`'s result, the costliest first: place, text, bytecodes, per
    decision and share of the whole."""
    total = max(counted["bytecodes"], 1)
    per = max(counted["decisions"], 1)
    out = []
    for place, k in counted["lines"].most_common():
        if place is None:
            row = {"file": None, "line": None, "text": "(the engine's own: a new state, seeding, the flow of rounds, the result)"}
        else:
            row = {"file": place[0], "line": place[1], "text": _code(linecache.getline(place[0], place[1]))}
        row.update(bytecodes=k, per_decision=round(k / per, 1), share=round(k / total, 4))
        out.append(row)
    return out


def _code(line: str) -> str:
    """A rules line without its comment (a `#` outside a string starts one)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i].strip()
    return line.strip()
