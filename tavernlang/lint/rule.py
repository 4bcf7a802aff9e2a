"""Findings and rules: the data every lint rule produces and is described by."""
from __future__ import annotations

from typing import Callable, Iterable

import attrs

from ..errors import Note, Span


@attrs.frozen
class Finding:
    """One thing a rule found: a stable code, a place, a message stating the reason
    in numbers or names, and notes pointing at the other places involved."""

    code: str
    span: Span
    message: str
    notes: tuple[Note, ...] = ()
    rule: str = ""
    data: dict | None = attrs.field(default=None, eq=False)  # extra JSON (coverage)

    def render(self) -> str:
        out = [f"{self.span}: {self.code} {self.message}"]
        for n in self.notes:
            out.append(f"    {n.span}: note: {n.message}")
        return "\n".join(out)

    def to_json(self) -> dict:
        sp = self.span
        out = {
            "code": self.code, "rule": self.rule, "file": sp.file, "line": sp.line, "col": sp.col,
            "end_line": sp.end_line or sp.line, "end_col": sp.end_col or sp.col, "message": self.message,
            "notes": [{"file": n.span.file, "line": n.span.line, "col": n.span.col, "message": n.message}
                      for n in self.notes],
        }
        if self.data:
            out.update(self.data)
        return out

    def sort_key(self):
        return (self.span.file, self.span.line, self.span.col, self.code, self.message)


@attrs.frozen
class Rule:
    """A lint rule: its code, a short kebab-case name, a one-line summary, and the
    function that finds it (given a lint context, yields findings)."""

    code: str
    name: str
    summary: str
    check: Callable = attrs.field(repr=False)

    def __call__(self, ctx) -> Iterable[Finding]:
        for f in self.check(ctx) or ():
            yield attrs.evolve(f, rule=self.name) if f.rule != self.name else f


def rule(code: str, name: str, summary: str):
    """Make a function a :class:`Rule`."""
    def deco(fn):
        return Rule(code, name, summary, fn)
    return deco


def finding(code: str, node_or_span, message: str, notes=()) -> Finding:
    span = node_or_span if isinstance(node_or_span, Span) else node_or_span.span
    return Finding(code, span, message, tuple(notes))
