"""The mutants of a game: small changes to its checked syntax tree, never to its text.

Each :class:`Mutant` names the node it changes by a :data:`Key` (the node's type and
span, and which of the nodes of that type and span it is), so that it can be applied
to any parse of the same files: a scenario file that includes the game parses the
game's files afresh. :func:`mutants` lists them for the declarations of the given
files (the game's own files: its entry file and the data files it includes, never
the standard library, never scenarios).

The operators on values: numbers ±1 and to 0 (in rules and in card data, a card's
copies ±1), comparisons (`<`↔`<=`, `>`↔`>=`, `==`↔`!=`), `and`↔`or`, a dropped
`not`, a removed `require`, a removed statement, `then`/`else` swapped, an enum
constant replaced by the next of its enum, `highest`↔`lowest`, tie-breaks
reordered, a `match` arm given the next arm's value, a `where` condition dropped.

The operators on rules (:data:`RULE_OPERATORS`): a zone for the next zone of the same
kind of owner, a player for another (`.left`↔`.right`, `others`↔`players`, `by P` →
`by me`), a boolean option or definition in a condition for the next one, an action
removed from a phase's list or moved to another phase of turns, two adjacent statements
swapped, a trigger's counter, event or threshold changed, an `if` branch dropped.
"""
from __future__ import annotations

from typing import Iterable

import attrs

from ..check.model import BOOL, PLAYER, ZONE, BuiltinRef, ConstRef, DefRef, KindDefRef, OptionRef, ZoneRef
from ..errors import Span
from ..syntax import ast as A

#: (type name, file, line, col, end line, end col, occurrence)
Key = tuple


@attrs.frozen
class Mutant:
    key: Key  # the node changed
    op: str  # the operator: one of VALUE_OPERATORS or RULE_OPERATORS
    arg: object  # what the operator needs (the new value, operator, index...)
    span: Span  # where it is reported
    change: str  # what was changed, in words

    @property
    def line(self) -> tuple[str, int]:
        return self.span.file, self.span.line


#: The operators on values (numbers, comparisons, constants, single statements).
VALUE_OPERATORS = ("num", "copies", "cmp", "logic", "not", "require", "stmt", "branches", "enum", "lowest",
                   "ties", "arm", "where")
#: The operators on rules: zones, players, conditions, phases' actions, statements' order,
#: triggers and `if` branches.
RULE_OPERATORS = ("zone", "player", "cond", "action", "swap", "trigger", "if")
OPERATORS = VALUE_OPERATORS + RULE_OPERATORS


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
    ctx = _Context(model)
    shown: set = set()  # a view only groups what `tav play` shows: no rule reads it
    for d in model.decls:
        if isinstance(d, A.ViewDecl):
            shown.update(id(n) for n in A.walk(d))
    for key, n in keyed(model.decls, files):
        if id(n) in in_scenario:
            continue
        out.extend(_of_node(model, src, key, n))
        if id(n) not in shown:
            out.extend(_of_rule(model, ctx, src, key, n))
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


class _Context:
    """What the operators on rules choose their replacements from: the zones by kind of owner,
    the boolean options and definitions, the per-player counters, the events, the
    declaration each node lies in."""

    def __init__(self, model):
        zs = model.zones
        self.player_zones = [z for z, i in zs.items() if i.decl.per_player]
        self.shared_zones = [z for z, i in zs.items() if not i.decl.per_player]
        self.card_zones = model.card_zones
        self.conds = [o for o, i in model.options.items() if i.type == BOOL]
        self.conds += [d for d, c in model.defs.items() if not c.params and c.type == BOOL]
        self.counters = [c for c, i in model.counters.items() if i.decl.per_player]
        self.events: dict[str, int] = {}  # an event -> the number of its arguments
        self.owner: dict[int, str] = {}  # id(node) -> the name of the definition it lies in
        self.no_one: set[int] = set()  # ids of the nodes of the setup and `at game end`, where `me` is none
        self.types = model.types
        self.refs = model.refs
        self.defs = model.defs
        self.effects = {**model.effects, **model.actions}
        self.triggered = {c: bool(i.triggers) for c, i in model.counters.items()}
        self.unbounded = {c: i.decl.low is None and i.decl.high is None for c, i in model.counters.items()}
        for d in model.decls:
            name = getattr(d, "name", None) if isinstance(d, A.DefDecl) else None
            no_one = isinstance(d, (A.SetupDecl, A.GameEndDecl))
            for n in A.walk(d):
                if name is not None:
                    self.owner[id(n)] = name
                if no_one:
                    self.no_one.add(id(n))
                if isinstance(n, A.Emit):
                    self.events.setdefault(n.event, len(n.args))
                elif isinstance(n, A.OnDecl):
                    self.events.setdefault(n.event, len(n.params))


def _next(values: list, v):
    """The value after `v` in `values` (the last goes to the first), or None when there is no other."""
    if v not in values or len(values) < 2:
        return None
    return values[(values.index(v) + 1) % len(values)]


def _fixed_player(ctx: _Context, e) -> bool:
    """Whether a player expression names the same player whatever a statement does: a local,
    `me`, their neighbours, the owner of a zone of such a player or of a local zone."""
    if isinstance(e, A.Name):
        ref = ctx.refs.get(e)
        return not isinstance(ref, (BuiltinRef, OptionRef, DefRef)) or e.name == "me"
    if isinstance(e, A.Attr) and e.name in ("left", "right"):
        return _fixed_player(ctx, e.obj)
    if isinstance(e, A.Attr) and e.name == "owner" and ctx.types.get(e.obj) == ZONE:
        o = e.obj
        return (isinstance(o, A.Name) and not isinstance(ctx.refs.get(o), ZoneRef)) or (
            isinstance(o, A.Of) and _fixed_player(ctx, o.obj))
    return False


_TURN = (A.NextTurn, A.Do, A.Emit, A.EndGame)
_CARDS = "cards"  # what a move, shuffle, reveal... changes, and what reading a zone or a card reads
_MOVES = (A.Move, A.Shuffle, A.Reveal, A.Look, A.Show, A.Swap)


def _reads(ctx: _Context, e, seen: set) -> set:
    """The names an expression reads (counters, variables, attributes, definitions with what
    their bodies read), and `cards` when it reads a zone or a card's place."""
    out: set = set()
    for n in A.walk(e):
        if isinstance(n, (A.Name, A.Of, A.Attr, A.Call)):
            out.add(n.name)
            ref = ctx.refs.get(n)
            if ctx.types.get(n) == ZONE or isinstance(ref, (ZoneRef, KindDefRef)) or (
                    isinstance(n, A.Attr) and n.name in ("zone", "owner", "holder", "facedown", "size")):
                out.add(_CARDS)  # where a card is, what a zone holds
            if isinstance(ref, DefRef) and n.name not in seen and n.name in ctx.defs:
                seen.add(n.name)
                out |= _reads(ctx, ctx.defs[n.name].decl.body, seen)
            elif isinstance(n, A.Call) and not isinstance(ref, DefRef):
                out.add(_CARDS)  # a builtin or a kind's value: it may read any card
        elif isinstance(n, (A.AllZone, A.EveryZone)):
            out.add(_CARDS)
    return out


def _effects(ctx: _Context, s) -> tuple[set, set] | None:
    """(what a statement writes, what it reads), or None when it cannot be told (an effect
    run, a decision asked, a counter with a trigger gained...)."""
    if isinstance(s, A.Gain):
        if ctx.triggered.get(s.counter):
            return None
        r = _reads(ctx, s.amount, set()) | (_reads(ctx, s.other, set()) if s.other is not None else set())
        if s.op in ("gain", "lose") and ctx.unbounded.get(s.counter):
            return {("+", s.counter)}, r  # an addition to a counter without bounds: additions commute
        return {s.counter}, r
    if isinstance(s, A.Set):
        t = s.target
        name = t.name if isinstance(t, (A.Name, A.Attr, A.Of)) else None
        if name is None or ctx.triggered.get(name):
            return None
        obj = t.obj if isinstance(t, (A.Attr, A.Of)) else None
        return {name}, _reads(ctx, s.value, set()) | (_reads(ctx, obj, set()) if obj is not None else set())
    if isinstance(s, _MOVES):
        r: set = {_CARDS}
        for c in A.children(s):
            r |= _reads(ctx, c, set())
        return {_CARDS}, r
    if isinstance(s, (A.If, A.For)):
        w: set = set()
        r = set()
        for part in (s.test if isinstance(s, A.If) else s.coll,) + ((s.cond,) if isinstance(s, A.For) and s.cond else ()):
            r |= _reads(ctx, part, set())
        for b in (s.then, s.orelse) if isinstance(s, A.If) else (s.body,):
            for x in (b.stmts if b is not None else ()):
                got = _effects(ctx, x)
                if got is None:
                    return None
                w |= got[0]
                r |= got[1]
        return w, r
    return None


def _cases(e) -> tuple[str, set] | None:
    """(X, values) of a test `X == V` or `X == V or X == W ...` with literal values, else None."""
    if isinstance(e, A.BinOp) and e.op == "or":
        x, y = _cases(e.left), _cases(e.right)
        return (x[0], x[1] | y[1]) if x is not None and y is not None and x[0] == y[0] else None
    if isinstance(e, A.BinOp) and e.op == "==" and isinstance(e.right, A.Lit):
        return A.text_of(e.left), {e.right.value}
    return None


def _writes_name(ctx: _Context, s, name: str, seen: set) -> bool:
    """Whether a statement may change `name` (a counter or variable), following the effects it
    runs; an effect it cannot name (a card's) may change anything."""
    for n in A.walk(s):
        if (isinstance(n, A.Gain) and n.counter == name) or (isinstance(n, A.Set) and A.text_of(n.target) == name):
            return True
        if isinstance(n, A.Do):
            e = n.effect
            callee = e.name if isinstance(e, (A.Name, A.Call)) else None
            if callee is None or callee not in ctx.effects:
                return True
            if callee not in seen:
                seen.add(callee)
                if _writes_name(ctx, ctx.effects[callee].decl.body, name, seen):
                    return True
    return False


def _exclusive(ctx: _Context, a, b) -> bool:
    """Two `if`s without `else` whose tests compare one name to different values (`if moon == 2`
    and `if moon == 3`), neither of which changes that name: at most one of them runs."""
    if not (isinstance(a, A.If) and isinstance(b, A.If) and a.orelse is None and b.orelse is None):
        return False
    x, y = _cases(a.test), _cases(b.test)
    return x is not None and y is not None and x[0] == y[0] and not (x[1] & y[1]) \
        and not _writes_name(ctx, a.then, x[0], set()) and not _writes_name(ctx, b.then, x[0], set())


def _commute(ctx: _Context, a, b) -> bool:
    """Whether two statements give the same in either order by construction: a `next turn` of
    a fixed player (it only names who plays after the action) beside a statement that neither
    hands the turn over, nor runs an effect, nor reads `next_player`; or two statements of
    which neither writes what the other reads or writes (a counter, a variable, an attribute;
    the cards, for a move), with no decision, no effect run, no trigger between them."""
    for x, y in ((a, b), (b, a)):
        if isinstance(x, A.NextTurn) and _fixed_player(ctx, x.player) and not any(
                isinstance(n, _TURN) or (isinstance(n, A.Name) and n.name == "next_player") for n in A.walk(y)):
            return True
    if _exclusive(ctx, a, b):
        return True
    ea, eb = _effects(ctx, a), _effects(ctx, b)
    if ea is None or eb is None:
        return False
    (wa, ra), (wb, rb) = ea, eb
    plain = lambda w: {x[1] if isinstance(x, tuple) else x for x in w}  # noqa: E731
    added = {x for x in wa & wb if isinstance(x, tuple)}  # both add to the same counter: that commutes
    return not (plain(wa) & rb) and not (plain(wb) & ra) and not (plain(wa - added) & plain(wb)) \
        and not (plain(wb - added) & plain(wa))


def _turn_phase(p: A.Phase) -> bool:
    return p.body is None


def _of_rule(model, ctx: _Context, src, key, n) -> Iterable[Mutant]:
    """The mutants of the operators on rules (RULE_OPERATORS) of one node."""
    t = lambda x: _short(_text(src, x))  # noqa: E731
    ref = model.refs.get(n) if isinstance(n, (A.Name, A.Of)) else None
    # a zone for the next zone of the same kind of owner
    if isinstance(ref, ZoneRef):
        if ref.whose == "player":
            other = _next(ctx.player_zones, n.name)
        elif ref.whose == "shared":
            other = _next(ctx.shared_zones, n.name)
        else:
            kinds = set(ctx.card_zones[n.name].kinds) if n.name in ctx.card_zones else set()
            other = _next([z for z, i in ctx.card_zones.items() if z == n.name or kinds & set(i.kinds)], n.name)
        if other is not None:
            what = f"{n.name} of ..." if isinstance(n, A.Of) else n.name
            yield Mutant(key, "zone", other, n.span, f"zone `{what}` changed to `{other}` in `{t(n)}`")
    elif isinstance(n, (A.AllZone, A.EveryZone)):
        other = _next(ctx.player_zones, n.zone)
        if other is not None:
            yield Mutant(key, "zone", other, n.span, f"zone `{t(n)}` changed to `{other}`")
    # a player for another
    if isinstance(n, A.Attr) and n.name in ("left", "right") and model.types.get(n.obj) == PLAYER:
        other = "right" if n.name == "left" else "left"
        yield Mutant(key, "player", other, n.span, f"`.{n.name}` changed to `.{other}` in `{t(n)}`")
    elif isinstance(n, A.Name) and n.name in ("others", "players") and isinstance(model.refs.get(n), BuiltinRef) \
            and id(n) not in ctx.no_one:  # where no one acts, `others` is every player
        other = "players" if n.name == "others" else "others"
        yield Mutant(key, "player", other, n.span, f"`{n.name}` changed to `{other}`")
    elif isinstance(n, A.Chooser) and n.player is not None and not (
            isinstance(n.player, A.Name) and n.player.name == "me"):
        yield Mutant(key, "player", "me", n.span, f"`by {t(n.player)}` changed to `by me`")
    # a boolean option or definition in a condition for the next one
    if isinstance(n, A.Name) and isinstance(ref, (OptionRef, DefRef)) and n.name in ctx.conds:
        others = [c for c in ctx.conds if c == n.name or c != ctx.owner.get(id(n))]
        other = _next(others, n.name)
        if other is not None:
            yield Mutant(key, "cond", other, n.span, f"`{n.name}` changed to `{other}`")
    # an action removed from a phase's list, or moved to another phase of turns
    if isinstance(n, A.Phase):
        for i, a in enumerate(n.actions):
            yield Mutant(key, "action", i, a.span, f"action `{a.name}` removed from phase `{n.name}`")
    elif isinstance(n, A.RoundsDecl):
        for i, p in enumerate(n.phases):
            for k, a in enumerate(p.actions):
                for j, q in enumerate(n.phases):
                    if j != i and _turn_phase(q) and all(b.name != a.name for b in q.actions):
                        yield Mutant(key, "action", (i, k, j), a.span,
                                     f"action `{a.name}` moved from phase `{p.name}` to phase `{q.name}`")
    # two adjacent statements swapped
    if isinstance(n, A.Block):
        for i in range(len(n.stmts) - 1):
            a, b = n.stmts[i], n.stmts[i + 1]
            if isinstance(a, A.Log) or isinstance(b, A.Log) or (isinstance(a, A.Require) and isinstance(b, A.Require)):
                continue
            if _text(src, a) == _text(src, b) or _commute(ctx, a, b):
                continue
            sp = Span(a.span.file, a.span.line, a.span.col, b.span.end_line, b.span.end_col)
            yield Mutant(key, "swap", i, sp, f"`{t(a)}` and `{t(b)}` swapped")
    # a trigger's counter, event or threshold changed
    if isinstance(n, A.ReachDecl):
        other = _next(ctx.counters, n.counter)
        if other is not None:
            yield Mutant(key, "trigger", ("counter", other), n.span,
                         f"trigger `when {n.counter} of {n.pvar} reaches` changed to `when {other} of {n.pvar} reaches`")
        if not isinstance(n.value, A.Lit):  # a number is changed by `num`
            for d in (1, -1):
                yield Mutant(key, "trigger", ("value", d), n.value.span,
                             f"threshold `{t(n.value)}` changed to `{t(n.value)} {'+' if d > 0 else '-'} 1`")
    elif isinstance(n, A.OnDecl):
        same = [e for e, k in ctx.events.items() if k == len(n.params)]
        other = _next(same, n.event)
        if other is not None:
            yield Mutant(key, "trigger", ("event", other), n.span, f"trigger `on {n.event}` changed to `on {other}`")
    # an `if` branch dropped
    if isinstance(n, A.If):
        if n.orelse is None:
            yield Mutant(key, "if", "test", n.span, f"`if {t(n.test)}` dropped: its block always runs")
        else:
            yield Mutant(key, "if", "then", n.span, f"the then block of `if {t(n.test)}` dropped")
            yield Mutant(key, "if", "else", n.orelse.span, f"the else block of `if {t(n.test)}` dropped")


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
    if m.op == "zone":
        return ev(n, zone=m.arg) if isinstance(n, (A.AllZone, A.EveryZone)) else ev(n, name=m.arg)
    if m.op == "player":
        if isinstance(n, A.Chooser):
            return ev(n, player=A.Name(n.player.span, "me"))
        return ev(n, name=m.arg)
    if m.op == "cond":
        return ev(n, name=m.arg)
    if m.op == "action":
        if isinstance(n, A.Phase):
            return ev(n, actions=n.actions[: m.arg] + n.actions[m.arg + 1:])
        i, k, j = m.arg
        phases = list(n.phases)
        a = phases[i].actions[k]
        phases[i] = ev(phases[i], actions=phases[i].actions[:k] + phases[i].actions[k + 1:])
        phases[j] = ev(phases[j], actions=phases[j].actions + (a,))
        return ev(n, phases=tuple(phases))
    if m.op == "swap":
        stmts = list(n.stmts)
        stmts[m.arg], stmts[m.arg + 1] = stmts[m.arg + 1], stmts[m.arg]
        return ev(n, stmts=tuple(stmts))
    if m.op == "trigger":
        what, v = m.arg
        if what == "counter":
            return ev(n, counter=v)
        if what == "event":
            return ev(n, event=v)
        return ev(n, value=A.BinOp(n.value.span, "+" if v > 0 else "-", n.value, A.Lit(n.value.span, 1)))
    if m.op == "if":
        if m.arg == "test":
            return ev(n, test=A.Lit(n.test.span, True))
        if m.arg == "then":
            return ev(n, then=A.Block(n.then.span, ()))
        return ev(n, orelse=None)
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
