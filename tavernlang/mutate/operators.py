"""The mutants of a game: small changes to its checked syntax tree, never to its text.

Each :class:`Mutant` names the node it changes by a :data:`Key` (the node's type and
span, and which of the nodes of that type and span it is), so that it can be applied
to any parse of the same files: a scenario file that includes the game parses the
game's files afresh. :func:`mutants` lists them for the declarations of the given
files (the game's own files: its entry file and the data files it includes, never
the standard library, never scenarios).

The operators: numbers ±1 and to 0 (in rules and in card data, a card's
copies ±1), comparisons (`<`↔`<=`, `>`↔`>=`, `==`↔`!=`), `and`↔`or`, a dropped
`not`, a removed `require`, a removed statement, `then`/`else` swapped, an enum
constant replaced by the next of its enum, `highest`↔`lowest`, tie-breaks
reordered, a `match` arm given the next arm's value, a `where` condition dropped.
"""
from __future__ import annotations

from typing import Iterable

import attrs

from ..check.model import ConstRef
from ..errors import Span
from ..syntax import ast as A

#: (type name, file, line, col, end line, end col, occurrence)
Key = tuple


@attrs.frozen
class Mutant:
    key: Key  # the node changed
    op: str  # the operator: num, copies, cmp, logic, not, require, stmt, branches, enum, lowest, ties, arm, where
    arg: object  # what the operator needs (the new value, operator, index...)
    span: Span  # where it is reported
    change: str  # what was changed, in words

    @property
    def line(self) -> tuple[str, int]:
        return self.span.file, self.span.line


def node_key(n: A.Node, k: int) -> Key:
    s = n.span
    return (type(n).__name__, s.file, s.line, s.col, s.end_line, s.end_col, k)


def keyed(decls: Iterable[A.Node], files: set[str] | None = None) -> Iterable[tuple[Key, A.Node]]:
    """Every node of the declarations (of `files` only, if given) with its key."""
    seen: dict = {}
    for d in decls:
        if files is not None and d.span.file not in files:
            continue
        for n in A.walk(d):
            s = n.span
            base = (type(n).__name__, s.file, s.line, s.col, s.end_line, s.end_col)
            k = seen.get(base, 0)
            seen[base] = k + 1
            yield base + (k,), n


_CMP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
_LOGIC = {"and": "or", "or": "and"}
_WHERE = (A.Quant, A.Aggregate, A.AnySubset, A.Choose, A.For, A.ChooseSubset, A.ChooseN, A.Simultaneous)


def _text(sources, node) -> str:
    """The rules text of a node: its source when it is on one line, else as written back."""
    sp = node.span
    line = sources.line(sp.file, sp.line) if sources is not None else None
    if line is not None and sp.end_line == sp.line and sp.end_col > sp.col:
        return line[sp.col - 1: sp.end_col - 1].strip()
    if isinstance(node, A.Expr):
        return A.text_of(node)
    if line is not None:
        return line[sp.col - 1:].strip() + " ..."
    return type(node).__name__


def _short(s: str, n: int = 60) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


def mutants(model, files: set[str]) -> list[Mutant]:
    """The mutants of the declarations of `files` in a checked model, in the order of the files."""
    src = model.sources
    out: list[Mutant] = []
    in_scenario: set = set()  # scenarios are tests; an option's range only bounds what -o accepts
    for d in model.decls:
        if isinstance(d, (A.ScenarioDecl, A.ComponentsDecl)):  # a components list is the box, not a rule
            in_scenario.update(id(n) for n in A.walk(d))
        elif isinstance(d, A.OptionDecl):
            in_scenario.update(id(n) for b in (d.low, d.high) if b is not None for n in A.walk(b))
    for key, n in keyed(model.decls, files):
        if id(n) in in_scenario:
            continue
        out.extend(_of_node(model, src, key, n))
    out.sort(key=lambda m: (m.span.file, m.span.line, m.span.col))
    return out


def _of_node(model, src, key, n) -> Iterable[Mutant]:
    t = lambda x: _short(_text(src, x))  # noqa: E731
    if isinstance(n, A.Lit) and isinstance(n.value, int) and not isinstance(n.value, bool):
        v = n.value
        for w in dict.fromkeys((v + 1, v - 1, 0)):
            if w != v:
                yield Mutant(key, "num", w, n.span, f"{v} changed to {w}")
    elif isinstance(n, A.CardDecl):
        for w in (n.copies + 1, n.copies - 1):
            if w >= 1:
                yield Mutant(key, "copies", w, n.span, f"card '{n.name}' x{n.copies} changed to x{w}")
    elif isinstance(n, A.BinOp) and n.op in _CMP:
        yield Mutant(key, "cmp", _CMP[n.op], n.span, f"`{n.op}` changed to `{_CMP[n.op]}` in `{t(n)}`")
    elif isinstance(n, A.BinOp) and n.op in _LOGIC:
        yield Mutant(key, "logic", _LOGIC[n.op], n.span, f"`{n.op}` changed to `{_LOGIC[n.op]}` in `{t(n)}`")
    elif isinstance(n, A.Not):
        yield Mutant(key, "not", None, n.span, f"`not` dropped from `{t(n)}`")
    elif isinstance(n, A.Require):
        yield Mutant(key, "require", None, n.span, f"removed `{t(n)}`")
    elif isinstance(n, A.Stmt) and not isinstance(n, (A.Let, A.Log)):
        yield Mutant(key, "stmt", None, n.span, f"removed `{t(n)}`")
    if isinstance(n, A.If):
        what = "then and else swapped" if n.orelse is not None else "the block moved to an empty else"
        yield Mutant(key, "branches", None, n.span, f"{what} in `if {t(n.test)}`")
    elif isinstance(n, A.Cond):
        yield Mutant(key, "branches", None, n.span, f"then and else swapped in `{t(n)}`")
    elif isinstance(n, A.Name) and isinstance(model.refs.get(n), ConstRef):
        enum = model.enum_of.get(n.name)
        values = list(model.enums.get(enum, ())) if enum is not None else []
        if len(values) > 1:
            nxt = values[(values.index(n.name) + 1) % len(values)]
            yield Mutant(key, "enum", nxt, n.span, f"{n.name} changed to {nxt}")
    elif isinstance(n, A.WinnerDecl):
        for i, k in enumerate(n.keys):
            yield Mutant(key, "lowest", i, k.span, f"`highest {t(k)}` changed to `lowest {t(k)}`")
        for i in range(len(n.keys) - 1):
            a, b = n.keys[i], n.keys[i + 1]
            yield Mutant(key, "ties", i, b.span, f"tie-breaks reordered: `highest {t(b)}` before `highest {t(a)}`")
    elif isinstance(n, A.Match):
        for i in range(len(n.cases) - 1):
            a, b = n.cases[i], n.cases[i + 1]
            if A.text_of(a.value) != A.text_of(b.value):
                yield Mutant(key, "arm", i, a.span, f"match arm `{t(a)}` given the next arm's value `{t(b.value)}`")
    if isinstance(n, _WHERE) and getattr(n, "cond", None) is not None:
        yield Mutant(key, "where", None, n.cond.span, f"`where {t(n.cond)}` dropped")
    elif isinstance(n, A.ChoiceOption) and n.cond is not None:
        yield Mutant(key, "where", None, n.cond.span, f"`if {t(n.cond)}` dropped from option \"{n.label}\"")


REMOVE = object()  # the replacement of a removed statement


def replacement(m: Mutant, n: A.Node):
    """The node that takes `n`'s place in mutant `m` (REMOVE: none)."""
    ev = attrs.evolve
    if m.op == "num":
        return ev(n, value=m.arg)
    if m.op == "copies":
        return ev(n, copies=m.arg)
    if m.op in ("cmp", "logic"):
        return ev(n, op=m.arg)
    if m.op == "not":
        return n.operand
    if m.op in ("require", "stmt"):
        return REMOVE
    if m.op == "branches":
        if isinstance(n, A.Cond):
            return ev(n, then=n.orelse, orelse=n.then)
        if n.orelse is None:
            return ev(n, then=A.Block(n.then.span, ()), orelse=n.then)
        return ev(n, then=n.orelse, orelse=n.then)
    if m.op == "enum":
        return ev(n, name=m.arg)
    if m.op == "lowest":
        keys = list(n.keys)
        keys[m.arg] = A.Neg(keys[m.arg].span, keys[m.arg])
        return ev(n, keys=tuple(keys))
    if m.op == "ties":
        keys = list(n.keys)
        keys[m.arg], keys[m.arg + 1] = keys[m.arg + 1], keys[m.arg]
        return ev(n, keys=tuple(keys))
    if m.op == "arm":
        cases = list(n.cases)
        cases[m.arg] = ev(cases[m.arg], value=cases[m.arg + 1].value)
        return ev(n, cases=tuple(cases))
    if m.op == "where":
        return ev(n, cond=None)
    raise AssertionError(m.op)  # pragma: no cover


class Index:
    """The nodes of one parse of a list of declarations, by key, with their parents: what
    applying a mutant to that parse needs."""

    def __init__(self, decls: list):
        self.decls = decls
        self.by_key: dict[Key, A.Node] = {}
        self.parent: dict[int, A.Node] = {}
        self.top: dict[int, int] = {}  # id(declaration) -> its index in decls
        for i, d in enumerate(decls):
            self.top[id(d)] = i
        for key, n in keyed(decls):
            self.by_key[key] = n
            for c in A.children(n):
                self.parent[id(c)] = n

    def apply(self, m: Mutant) -> list | None:
        """The declarations with mutant `m` applied, or None when its node is not in them."""
        n = self.by_key.get(m.key)
        if n is None:
            return None
        new = replacement(m, n)
        old = n
        while id(old) not in self.top:
            p = self.parent.get(id(old))
            if p is None:
                return None
            new = _replace_child(p, old, new)
            old = p
        out = list(self.decls)
        i = self.top[id(old)]
        if new is REMOVE:
            del out[i]
        else:
            out[i] = new
        return out


def _replace_child(p: A.Node, old: A.Node, new) -> A.Node:
    for f in attrs.fields(type(p)):
        v = getattr(p, f.name)
        if v is old:
            return attrs.evolve(p, **{f.name: None if new is REMOVE else new})
        if isinstance(v, tuple):
            for i, x in enumerate(v):
                if x is old:
                    items = list(v)
                    if new is REMOVE:
                        del items[i]
                    else:
                        items[i] = new
                    return attrs.evolve(p, **{f.name: tuple(items)})
                if isinstance(x, tuple) and any(y is old for y in x):
                    inner = tuple((new if y is old else y) for y in x if not (y is old and new is REMOVE))
                    items = list(v)
                    items[i] = inner
                    return attrs.evolve(p, **{f.name: tuple(items)})
    raise AssertionError("child not found")  # pragma: no cover
