"""The typed syntax tree: frozen attrs nodes, each with the span it came from.

Children are tuples; optional parts are ``None``. The tree holds syntax only:
names are resolved by :mod:`tavernlang.check`, never here.
"""
from __future__ import annotations

from typing import Any, Iterator, TypeVar, cast, dataclass_transform

import attrs

from ..errors import Span

_N = TypeVar("_N")


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def frozen(cls: type[_N]) -> type[_N]:
    """A node class: frozen attrs, with identity equality (side tables key on nodes)."""
    return attrs.frozen(eq=False)(cls)


@frozen
class Node:
    span: Span


# ---------------------------------------------------------------- expressions
@frozen
class Expr(Node):
    pass


@frozen
class Lit(Expr):
    value: Any  # int, str, bool or None


@frozen
class Name(Expr):
    name: str


@frozen
class ListLit(Expr):
    items: tuple[Expr, ...]


@frozen
class Attr(Expr):
    obj: Expr
    name: str


@frozen
class Index(Expr):
    obj: Expr  # a list
    index: Expr  # 1-based; outside the list gives none


@frozen
class Of(Expr):
    name: str
    name_span: Span
    obj: Expr


@frozen
class Call(Expr):
    name: str
    args: tuple[Expr, ...]


@frozen
class AllZone(Expr):
    """``all table``: the cards in every zone of a per-player zone family."""

    zone: str


@frozen
class EveryZone(Expr):
    """``every table``: the zones of a per-player zone family, as a list."""

    zone: str


@frozen
class Quant(Expr):
    """``count/any/every(x in C where cond)``."""

    op: str
    var: str
    coll: Expr
    cond: Expr | None


@frozen
class AnySubset(Expr):
    """``any(subset s of C size a..b where cond)``: some subset of C meets cond."""

    var: str
    coll: Expr
    low: Expr | None
    high: Expr | None
    cond: Expr | None


@frozen
class Aggregate(Expr):
    """``sum/min/max/distinct(e for x in C where cond)``."""

    op: str
    value: Expr
    var: str
    coll: Expr
    cond: Expr | None


@frozen
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@frozen
class Not(Expr):
    operand: Expr


@frozen
class Neg(Expr):
    operand: Expr


@frozen
class IsKind(Expr):
    obj: Expr
    kind: str


@frozen
class Cond(Expr):
    test: Expr
    then: Expr
    orelse: Expr


@frozen
class MatchCase(Node):
    patterns: tuple[Any, ...]  # values; empty tuple = else
    value: Expr


@frozen
class Match(Expr):
    subject: Expr
    cases: tuple[MatchCase, ...]


# ----------------------------------------------------------------- statements
@frozen
class Stmt(Node):
    pass


@frozen
class Block(Node):
    stmts: tuple[Stmt, ...]


@frozen
class Move(Stmt):
    what: Expr
    dest: Expr
    position: str | None  # "top" | "bottom" | None (top)
    face: str | None  # "facedown" | "faceup" | None (zone default)


@frozen
class Shuffle(Stmt):
    zone: Expr


@frozen
class Reveal(Stmt):
    what: Expr


@frozen
class Look(Stmt):
    what: Expr


@frozen
class Gain(Stmt):
    """gain/lose/give/take: ``op`` names which."""

    op: str
    amount: Expr
    counter: str
    counter_span: Span
    other: Expr | None


@frozen
class Set(Stmt):
    target: Expr
    value: Expr


@frozen
class Swap(Stmt):
    a: Expr
    b: Expr


@frozen
class NextTurn(Stmt):
    player: Expr


@frozen
class Eliminate(Stmt):
    """`eliminate P`: P is out of the game for good (turns and phases pass them by; they rank
    below every player still in, in the order they went out)."""

    player: Expr


@frozen
class Chooser(Node):
    random: bool
    player: Expr | None


@frozen
class Choose(Stmt):
    var: str
    coll: Expr
    cond: Expr | None
    prompt: str | None
    chooser: Chooser | None
    body: Block


@frozen
class ChoiceOption(Node):
    label: str
    cond: Expr | None
    body: Block


@frozen
class ChooseOne(Stmt):
    prompt: str | None
    chooser: Chooser | None
    options: tuple[ChoiceOption, ...]


@frozen
class ChooseNumber(Stmt):
    var: str
    low: Expr
    high: Expr
    prompt: str | None
    chooser: Chooser | None
    body: Block


@frozen
class ChooseSubset(Stmt):
    var: str
    coll: Expr
    cond: Expr | None
    low: Expr | None
    high: Expr | None
    test: Expr | None  # a condition on the whole subset
    prompt: str | None
    chooser: Chooser | None
    body: Block


@frozen
class For(Stmt):
    var: str
    coll: Expr
    cond: Expr | None
    body: Block


@frozen
class ChooseN(Stmt):
    """`choose [up to] N NAME in LIST ...`: N single choices, one after another; NAME is the list picked."""

    up_to: bool
    count: Expr
    var: str
    coll: Expr
    cond: Expr | None
    prompt: str | None
    chooser: Chooser | None
    body: Block


@frozen
class Show(Stmt):
    """`show CARDS to P`: me shows cards to one player only."""

    what: Expr
    to: Expr


@frozen
class SimulChoice(Node):
    """A choice after the first of a `simultaneously`: `choose NAME in LIST [where C] ["PROMPT"]`."""

    var: str
    coll: Expr
    cond: Expr | None
    prompt: str | None


@frozen
class Simultaneous(Stmt):
    pvar: str
    players: Expr
    var: str
    coll: Expr
    cond: Expr | None
    prompt: str | None
    body: Block
    more: tuple[SimulChoice, ...] = ()  # the choices each player makes after the first, sealed with it


@frozen
class Repeat(Stmt):
    """`repeat while C { ... }`."""

    cond: Expr
    body: Block


@frozen
class If(Stmt):
    test: Expr
    then: Block
    orelse: Block | None


@frozen
class Do(Stmt):
    effect: Expr
    as_player: Expr | None


@frozen
class Let(Stmt):
    var: str
    value: Expr


@frozen
class Emit(Stmt):
    event: str
    args: tuple[Expr, ...]


@frozen
class EndGame(Stmt):
    pass


@frozen
class Require(Stmt):
    cond: Expr
    message: str | None


@frozen
class Log(Stmt):
    text: str


# --------------------------------------------------------------- declarations
@frozen
class Decl(Node):
    pass


@frozen
class TypeRef(Node):
    name: str
    list: bool = False  # `list of NAME`


@frozen
class Param(Node):
    name: str
    type: TypeRef


@frozen
class GameDecl(Decl):
    title: str


@frozen
class PlayersDecl(Decl):
    low: int
    high: int


@frozen
class Include(Decl):
    path: str


@frozen
class OptionDecl(Decl):
    name: str
    type: TypeRef
    default: Expr
    low: Expr | None
    high: Expr | None
    doc: str | None


@frozen
class EnumDecl(Decl):
    name: str
    values: tuple[str, ...]
    value_spans: tuple[Span, ...] = ()


@frozen
class AttrDecl(Node):
    name: str
    type: TypeRef
    default: Expr | None
    mutable: bool
    unlabelled: bool = False  # kept out of option labels


@frozen
class KindZone(Node):
    """`zone NAME: PROPS` in a kind: a zone on each card of the kind."""

    name: str
    visibility: str = "public"
    capacity: Expr | None = None
    drop: Expr | None = None  # `drop to Z`: where its cards go when the card moves


@frozen
class KindDef(Node):
    """`def NAME: TYPE = EXPR` in a kind: a value worked out from the card's own attributes."""

    name: str
    type: TypeRef
    body: Expr


@frozen
class CardText(Node):
    """A card's text: a template of literal text and `{attribute}` holes, read by people (never
    by the rules). `parts` alternate literal text and (attribute name, its span) holes."""

    parts: tuple = ()


@frozen
class KindDecl(Decl):
    name: str
    attrs: tuple[AttrDecl, ...]
    zones: tuple[KindZone, ...] = ()
    defs: tuple[KindDef, ...] = ()
    text: "CardText | None" = None  # how its cards read: `kind Order "needs {needs}" { ... }`
    unit: tuple[str, str | None] | None = None  # what the log calls one card of it and several: `unit "die" "dice"`
    unit_span: Span | None = None


@frozen
class Field(Node):
    name: str
    value: Expr


@frozen
class CardDecl(Decl):
    name: str
    copies: int
    kind: str
    kind_span: Span
    fields: tuple[Field, ...]
    text: "CardText | None" = None  # how this card reads (its kind's text if none)
    name_span: Span | None = None  # a card of a run: where its name is written (the template, or its name in the list)


@frozen
class CardRunError(Decl):
    """A run of numbered cards that cannot be expanded (an empty run, a wrong count of names): the
    checker reports `message` at its place."""

    message: str


@frozen
class ComponentEntry(Node):
    """`48 Card`, `6 "Gold coin"`, `10 Piece { colour: Red } "Red pieces"`: a line of the box's
    component list: how many cards of a kind (or of one name), those with the given attribute
    values, and the rulebook's words for them."""

    count: int
    count_span: Span
    kind: str | None  # a kind's cards ...
    card: str | None  # ... or the copies of one card, by name
    target_span: Span
    fields: tuple[Field, ...] = ()  # only the cards with these attribute values
    label: str | None = None


@frozen
class ComponentsDecl(Decl):
    """`components ["TITLE"] { ENTRY ... }`: the box's contents, as the rulebook lists them."""

    title: str | None
    entries: tuple[ComponentEntry, ...]


@frozen
class CounterDecl(Decl):
    name: str
    per_player: bool
    initial: Expr | None
    low: Expr | None
    high: Expr | None
    wrap: bool
    title: str | None = None  # how people read it: `counter heat per player in 0..12 "Heat track"`
    unit: "tuple[str, str | None] | None" = None  # what the log calls one and several: `unit "coin" "coins"`
    unit_span: Span | None = None


@frozen
class VarDecl(Decl):
    name: str
    type: TypeRef
    per_player: bool
    initial: Expr | None


@frozen
class ZoneDecl(Decl):
    name: str
    per_player: bool
    visibility: str
    capacity: Expr | None
    title: str | None = None  # how people read it: `zone table: per player public "Table"`


@frozen
class DefDecl(Decl):
    name: str
    params: tuple[Param, ...]
    type: TypeRef | None
    body: Expr


@frozen
class EffectDecl(Decl):
    name: str
    params: tuple[Param, ...]
    title: str | None
    body: Block


@frozen
class ActionDecl(Decl):
    name: str
    title: str | None
    body: Block


@frozen
class ViewGroup(Node):
    """`"Title" [if C]: a, b` (shared zones and counters) or `per player [if C]: a, b`."""

    title: str | None
    per_player: bool
    cond: Expr | None
    names: tuple[tuple[str, Span], ...]


@frozen
class ViewDecl(Decl):
    """`view { GROUP ... }`: what `tav play` shows of the table, grouped and in order."""

    groups: tuple[ViewGroup, ...]


@frozen
class SetupDecl(Decl):
    body: Block


@frozen
class GameEndDecl(Decl):
    """`at game end { ... }`: final scoring, run once when the game ends, before the ranking."""

    body: Block


@frozen
class ActionRef(Node):
    name: str
    once: bool
    required: bool = False  # `pass` is not offered while it is allowed and not yet taken


@frozen
class Phase(Node):
    name: str
    title: str | None
    body: Block | None  # a phase of steps
    start: Expr | None = None  # a phase of turns
    once_each: bool = False
    until: Expr | None = None
    until_at_once: bool = False  # `until C at once`: also checked after every action
    actions: tuple[ActionRef, ...] = ()
    can_pass: bool = False
    pass_cond: Expr | None = None
    each_player: bool = False  # `for each player [from P]`: the steps once for each player, in turn
    each_from: Expr | None = None
    simultaneous: bool = False  # `simultaneous [if C]`: everyone picks at once
    simul_cond: Expr | None = None  # when false, the phase is played one player at a time
    pass_final: bool = False


@frozen
class RoundsDecl(Decl):
    count: Expr | None
    phases: tuple[Phase, ...]


@frozen
class EndDecl(Decl):
    cond: Expr


@frozen
class WinnerDecl(Decl):
    keys: tuple[Expr, ...]  # "highest" keys, in tie-break order
    everyone_if: Expr | None
    guard: Expr | None = None  # `winner when C: ...` decides only the games where C holds


@frozen
class ReachDecl(Decl):
    """``when COUNTER of P reaches N { ... }``"""

    counter: str
    counter_span: Span
    pvar: str
    value: Expr
    body: Block


@frozen
class OnDecl(Decl):
    event: str
    params: tuple[Param, ...]
    body: Block


@frozen
class ScenarioDecl(Decl):
    title: str
    players: int
    seed: int
    options: tuple[tuple[str, Expr, Span], ...]
    given: Block | None
    answers: tuple[str, ...]
    run: Block | None
    expects: tuple[tuple[Expr, str | None], ...]
    random_setup: bool = False  # `setup at random`: the setup's decisions fall at random from the seed
    repeated: tuple[tuple[str, Span, Span], ...] = ()  # a second `given`/`run` block: (word, its span, the first one's)


@frozen
class Extends(Decl):
    path: str


@frozen
class Replace(Decl):
    decl: Any  # a declaration, or a Phase


@frozen
class Remove(Decl):
    kind: str  # "effect", "card", ... or "end" (every end condition)
    name: str | None
    name_span: Span | None


@frozen
class SetOption(Decl):
    name: str
    name_span: Span
    value: Expr


@frozen
class AddPhase(Decl):
    phase: Phase
    where: str | None  # "before" | "after" | None (at the end)
    anchor: str | None
    anchor_span: Span | None


@frozen
class File(Node):
    decls: tuple[Decl, ...]
    source: str


_FIELDS: dict[type, tuple[str, ...]] = {}  # a node class -> the names of its fields but `span`


def _fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cast("type[attrs.AttrsInstance]", cls))
                                     if f.name != "span")  # (every node class is attrs)
    return names


def named_children(node: Node) -> Iterator[tuple[str, Node]]:
    """(field name, child) of every child node, in order (a field of tuples names each of theirs)."""
    for name in _FIELDS.get(type(node)) or _fields(type(node)):
        v = getattr(node, name)
        if isinstance(v, Node):
            yield name, v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, Node):
                    yield name, x
                elif isinstance(x, tuple):
                    for y in x:
                        if isinstance(y, Node):
                            yield name, y


def children(node: Node) -> Iterator[Node]:
    """Every child node, for generic walks (lint, checks)."""
    for _, c in named_children(node):
        yield c


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))


def rebuilt(node: _N, name: str, value: Any) -> _N:
    """A fresh copy of `node` (every node in it new: side tables key on nodes) where each
    name `name` reads as the literal `value`, at the name's place."""
    if isinstance(node, Name) and node.name == name:
        return cast(_N, Lit(node.span, value))
    if isinstance(node, tuple):
        return cast(_N, tuple(rebuilt(x, name, value) for x in node))
    if not isinstance(node, Node):
        return node
    changes: dict[str, Any] = {}
    for f in _FIELDS.get(type(node)) or _fields(type(node)):
        v = getattr(node, f)
        if isinstance(v, Node):
            changes[f] = rebuilt(v, name, value)
        elif isinstance(v, tuple):
            changes[f] = tuple(rebuilt(x, name, value) if isinstance(x, (Node, tuple)) else x for x in v)
    return cast(_N, attrs.evolve(cast(Any, node), **changes))


def text_of(e) -> str:
    """An expression written back as rules text (for names of rules that have no name, such
    as a `winner when` rule's condition): the same text for the same expression, wherever it is."""
    t = text_of
    if isinstance(e, Lit):
        v = e.value
        return "none" if v is None else ("true" if v else "false") if isinstance(v, bool) else \
            f'"{v}"' if isinstance(v, str) else str(v)
    if isinstance(e, Name):
        return e.name
    if isinstance(e, Attr):
        return f"{t(e.obj)}.{e.name}"
    if isinstance(e, Of):
        return f"{e.name} of {t(e.obj)}"
    if isinstance(e, Index):
        return f"{t(e.obj)}[{t(e.index)}]"
    if isinstance(e, Call):
        return f"{e.name}({', '.join(t(a) for a in e.args)})"
    if isinstance(e, ListLit):
        return "[" + ", ".join(t(x) for x in e.items) + "]"
    if isinstance(e, BinOp):
        def side(x):
            return f"({t(x)})" if isinstance(x, (BinOp, Cond)) else t(x)
        return f"{side(e.left)} {e.op} {side(e.right)}"
    if isinstance(e, Not):
        return f"not ({t(e.operand)})" if isinstance(e.operand, (BinOp, Cond)) else f"not {t(e.operand)}"
    if isinstance(e, Neg):
        return f"-({t(e.operand)})" if isinstance(e.operand, (BinOp, Cond)) else f"-{t(e.operand)}"
    if isinstance(e, IsKind):
        return f"{t(e.obj)} is {e.kind}"
    if isinstance(e, Cond):
        return f"if {t(e.test)} then {t(e.then)} else {t(e.orelse)}"
    if isinstance(e, (AllZone, EveryZone)):
        return f"{'all' if isinstance(e, AllZone) else 'every'} {e.zone}"
    # quantifiers, aggregates, match: their parts, in order
    def part(v):
        if isinstance(v, Node):
            return t(v)
        if isinstance(v, tuple):
            return "(" + ", ".join(part(x) for x in v) + ")"
        return "" if isinstance(v, Span) else repr(v)
    parts = [part(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span"]
    return f"{type(e).__name__.lower()}(" + ", ".join(parts) + ")"
