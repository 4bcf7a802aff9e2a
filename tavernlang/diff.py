"""`tav diff`: what a variant changes in a game, definition by definition.

Two games are compared by their declarations (includes spliced, variant changes
applied), keyed by kind and name; each key is added, removed or changed, with
its place in both files and, where it helps, a summary in a designer's words
("option 'target': default 10 -> 12", "card \\"Ruby\\": x3 -> x2").
"""
from __future__ import annotations

import re

from .check.model import GameModel
from .check.variants import describe, key_of
from .errors import Span
from .syntax import ast as A


def _text(model: GameModel, span: Span) -> str:
    src = model.sources
    lines = []
    for ln in range(span.line, (span.end_line or span.line) + 1):
        line = src.line(span.file, ln) or ""
        if ln == (span.end_line or span.line) and span.end_col:
            line = line[: span.end_col - 1]
        if ln == span.line:
            line = line[span.col - 1:]
        lines.append(_strip_comment(line))
    return " ".join(" ".join(lines).split())


def _strip_comment(line: str) -> str:
    out, in_str = [], False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_str = not in_str
        if ch == "#" and not in_str:
            break
        out.append(ch)
    return "".join(out)


def _entries(model: GameModel) -> dict:
    out: dict = {}
    for d in model.decls:
        if isinstance(d, (A.Extends, A.Include, A.ScenarioDecl)):  # scenarios are tests, not rules
            continue
        k = key_of(d)
        if isinstance(d, A.RoundsDecl):
            out[k] = d
            for p in d.phases:
                out[("phase", p.name)] = p
        elif k in out:  # several end conditions or handlers: one entry
            prev = out[k]
            out[k] = (prev if isinstance(prev, tuple) else (prev,)) + (d,)
        else:
            out[k] = d
    return out


def _decl_text(model, d) -> str:
    if isinstance(d, tuple):
        return " | ".join(_decl_text(model, x) for x in d)
    if isinstance(d, A.RoundsDecl):
        return "rounds " + (_text(model, d.count.span) if d.count is not None else "(until the game ends)")
    return _text(model, d.span)


def _span_of(d) -> Span:
    return d[0].span if isinstance(d, tuple) else d.span


def _summary(kind, name, bm, b, vm, v) -> str:
    what = describe(kind, name)
    if isinstance(b, A.OptionDecl) and isinstance(v, A.OptionDecl):
        bd, vd = _text(bm, b.default.span), _text(vm, v.default.span)
        if bd != vd and b.type.name == v.type.name:
            return f"{what}: default {bd} -> {vd}"
    if isinstance(b, A.CardDecl) and isinstance(v, A.CardDecl):
        parts = []
        if b.copies != v.copies:
            parts.append(f"x{b.copies} -> x{v.copies}")
        if b.kind != v.kind:
            parts.append(f"kind {b.kind} -> {v.kind}")
        bf = {f.name: _text(bm, f.value.span) for f in b.fields}
        vf = {f.name: _text(vm, f.value.span) for f in v.fields}
        for f in sorted(set(bf) | set(vf)):
            if bf.get(f) != vf.get(f):
                parts.append(f"{f} {bf.get(f, '(default)')} -> {vf.get(f, '(default)')}")
        bt, vt = (_text(bm, b.text.span) if b.text else "(its kind's)"), (_text(vm, v.text.span) if v.text else "(its kind's)")
        if bt != vt:
            parts.append(f"text {bt} -> {vt}")
        if parts:
            return f"{what}: " + ", ".join(parts)
    if isinstance(b, A.PlayersDecl) and isinstance(v, A.PlayersDecl):
        return f"players: {b.low}..{b.high} -> {v.low}..{v.high}"
    if isinstance(b, A.RoundsDecl) and isinstance(v, A.RoundsDecl):
        return f"rounds: {_decl_text(bm, b)[7:]} -> {_decl_text(vm, v)[7:]}"
    if isinstance(b, A.DefDecl) and isinstance(v, A.DefDecl):
        return f"{what}: {_text(bm, b.body.span)}  ->  {_text(vm, v.body.span)}"
    if isinstance(b, A.ZoneDecl) and isinstance(v, A.ZoneDecl):
        parts = []
        if b.per_player != v.per_player:
            parts.append("per player" if v.per_player else "shared")
        if b.visibility != v.visibility:
            parts.append(f"{b.visibility} -> {v.visibility}")
        bc = _text(bm, b.capacity.span) if b.capacity else "unlimited"
        vc = _text(vm, v.capacity.span) if v.capacity else "unlimited"
        if bc != vc:
            parts.append(f"capacity {bc} -> {vc}")
        if parts:
            return f"{what}: " + ", ".join(parts)
    if isinstance(b, A.CounterDecl) and isinstance(v, A.CounterDecl):
        bi = _text(bm, b.initial.span) if b.initial else "0"
        vi = _text(vm, v.initial.span) if v.initial else "0"
        if bi != vi:
            return f"{what}: starts at {bi} -> {vi}"
    return f"{what}: its rules changed"


def _place(model, d) -> dict:
    sp = _span_of(d)
    return {"file": sp.file, "line": sp.line, "col": sp.col, "text": _decl_text(model, d)}


def diff_games(base: GameModel, variant: GameModel) -> list[dict]:
    be, ve = _entries(base), _entries(variant)
    out = []
    order = list(be) + [k for k in ve if k not in be]
    for k in order:
        kind, name = k
        b, v = be.get(k), ve.get(k)
        if b is None:
            out.append({"change": "added", "kind": kind, "name": name, "summary": f"{describe(kind, name)} is new",
                        "base": None, "variant": _place(variant, v)})
        elif v is None:
            out.append({"change": "removed", "kind": kind, "name": name, "summary": f"{describe(kind, name)} is gone",
                        "base": _place(base, b), "variant": None})
        else:
            if isinstance(b, A.RoundsDecl) or isinstance(v, A.RoundsDecl):
                same = _decl_text(base, b) == _decl_text(variant, v)
            elif isinstance(b, A.OptionDecl) and isinstance(v, A.OptionDecl):  # `set` keeps all but the default
                parts = lambda m, d: (d.type.name, _text(m, d.default.span), d.doc,  # noqa: E731
                                      d.low and _text(m, d.low.span), d.high and _text(m, d.high.span))
                same = parts(base, b) == parts(variant, v)
            else:
                same = _decl_text(base, b) == _decl_text(variant, v) and _span_of(b).file == _span_of(v).file
                if not same and re.sub(r"\s", "", _decl_text(base, b)) == re.sub(r"\s", "", _decl_text(variant, v)):
                    same = True
            if not same:
                out.append({"change": "changed", "kind": kind, "name": name,
                            "summary": _summary(kind, name, base, b, variant, v),
                            "base": _place(base, b), "variant": _place(variant, v)})
    return out


def render(changes: list[dict]) -> str:
    if not changes:
        return "no differences"
    lines = []
    for c in changes:
        lines.append(f"{c['change']:<8} {c['summary']}")
        for side in ("base", "variant"):
            p = c[side]
            if p is not None:
                text = p["text"] if len(p["text"]) <= 100 else p["text"][:97] + "..."
                lines.append(f"           {side + ':':<8} {p['file']}:{p['line']}:{p['col']}  {text}")
    n = len(changes)
    lines.append(f"{n} difference{'s' if n != 1 else ''}")
    return "\n".join(lines)
