"""The checked game: every definition by name with a slot, plus side tables of
resolutions and types keyed by syntax node. Built by :mod:`.checker`, read by
the engine's compiler and the tools. Nothing here runs a game.

Resolutions: ``GameModel.refs`` maps each name, property, call, `all Z` and list join
the checker resolved to one record below (a :data:`Ref`). Every record is a
``NamedTuple`` of its fields alone; it equals, and hashes like, only a record of its own
class with the same fields (``DefRef("x") != BuiltinRef("x")``). Match on the class and
read the fields by name (``case CounterRef(whose="player", slot=s):``). The column
"checker" names the ``Checker`` method (``checker.py``) that writes the record.

| record | fields | what the node is | checker |
| --- | --- | --- | --- |
| LocalRef | slot | a parameter, `let`, or loop/quantifier binder: frame slot `slot` | `_name` |
| OptionRef | slot | an option of the game | `_name` |
| CounterRef | slot; whose: shared, me (a bare per-player counter where `me` is implied), player (`p.c`, `c of p`) | a counter | `_name`, `_prop` |
| VarRef | slot; whose: shared, player | a variable | `_name`, `_prop` |
| ZoneRef | slot (zone family); whose: shared, player (`p.z`), card (a zone on a card: `z of c`) | a zone | `_name`, `_prop` |
| ZoneFamilyRef | slot | `all Z` / `every Z` over a per-player zone family | `_expr` |
| CardAttrRef | slot; mutable | a card's attribute, `c.a` | `_prop` |
| SelfAttrRef | this (slot of the card); slot; mutable | in a kind's def, its card's attribute by bare name | `_name` |
| SelfZoneRef | this; slot | in a kind's def, its card's zone by bare name | `_name` |
| SelfDefRef | this; name | in a kind's def, another def of the kind by bare name | `_name` |
| KindDefRef | name | a kind's def read on a card, `c.d` | `_prop` |
| PropRef | on (Type of the object); name | a builtin property (`p.seat`, `c.zone`, `z.size`) | `_prop` |
| ConstRef | name | an enum value | `_name` |
| BuiltinRef | name | a builtin name (`players`, `round`) or builtin function call | `_name`, `_call` |
| DefRef | name | a def, by name or called | `_name`, `_call` |
| EffectRef | name; is_action | an effect or action, named or called | `_name`, `_call` |
| PhaseRef | name | a phase, named (as in `do PHASE`) | `_name` |
| ValuesRef | enum | `values(ENUM)` | `_call` |
| JoinRef | (none) | `a + b` joining two lists (or zones) | `_expr` |

DefRef, EffectRef and PhaseRef also say the ``kind`` of declaration they run ("def",
"effect", "action", "phase").

Types: a :class:`Type` is a ``str`` (``"int"``, ``"enum:Suit"``, ``"list:card"``) so that it
compares and hashes as today's type strings; ask it questions (``t.is_list``, ``t.elem``,
``t.enum``, ``t.show()``) instead of slicing it. Every type the checker stores (in
``GameModel.types`` and the infos' ``type`` fields) is a :class:`Type`.
"""
from __future__ import annotations

from typing import Any, Literal, NamedTuple, Union

import attrs

from ..errors import SourceCache, Span
from ..syntax import ast as A


class Type(str):
    """A type: "int", "bool", "str", "player", "card", "zone", "effect", "none", "any",
    "enum:NAME" or "list:T". Equal to, and hashed like, its string."""

    __slots__ = ()

    @classmethod
    def list_of(cls, t: str) -> Type:
        return cls("list:" + t)

    @classmethod
    def enum_named(cls, name: str) -> Type:
        """The type of the values of enum NAME."""
        return cls("enum:" + name)

    @property
    def is_list(self) -> bool:
        return self.startswith("list:")

    @property
    def list_elem(self) -> Type | None:
        """A list's item type (None for anything else, a zone included)."""
        return Type(self[5:]) if self.startswith("list:") else None

    @property
    def elem(self) -> Type | None:
        """What iterating gives: a list's item type, a zone's cards (any for any); None if it
        cannot be iterated."""
        if self.startswith("list:"):
            return Type(self[5:])
        if self == ZONE:
            return CARD
        if self == ANY:
            return ANY
        return None

    @property
    def enum(self) -> str | None:
        """The enum's name, for an enum type."""
        return self[5:] if self.startswith("enum:") else None

    @property
    def list_enum(self) -> str | None:
        """The enum's name, for a list of an enum's values."""
        return self[10:] if self.startswith("list:enum:") else None

    @property
    def holds_cards(self) -> bool:
        """A zone or a list of cards."""
        return self == ZONE or self == "list:card"

    def show(self) -> str:
        """As the errors and tools write it: "list of Suit"."""
        if self.startswith("list:"):
            return f"list of {Type(self[5:]).show()}"
        if self.startswith("enum:"):
            return self[5:]
        return str(self)


def as_type(t: str) -> Type:
    """The string t as a Type (itself when it is one)."""
    return t if isinstance(t, Type) else Type(t)


INT, BOOL, STR, PLAYER, CARD, ZONE, EFFECT, NONE, ANY = map(Type, (
    "int", "bool", "str", "player", "card", "zone", "effect", "none", "any"))
BASIC_TYPES = (INT, BOOL, STR, PLAYER, CARD, ZONE, EFFECT)


def list_of(t: str) -> Type:
    return Type.list_of(t)


def elem(t: str) -> Type | None:
    return as_type(t).elem


def show(t: str) -> str:
    return as_type(t).show()


# ---------------------------------------------------------------- resolutions (the table above)

class LocalRef(NamedTuple):
    """A parameter, `let`, or binder: the frame's slot."""
    slot: int


class OptionRef(NamedTuple):
    slot: int


class CounterRef(NamedTuple):
    """A counter: shared, the implied `me`'s (a bare per-player counter), a player's (`p.c`)."""
    slot: int
    whose: Literal["shared", "me", "player"]


class VarRef(NamedTuple):
    """A variable: shared or a player's."""
    slot: int
    whose: Literal["shared", "player"]


class ZoneRef(NamedTuple):
    """A zone: shared, a player's (`p.z`) or a card's (`z of c`); slot is the family."""
    slot: int
    whose: Literal["shared", "player", "card"]


class ZoneFamilyRef(NamedTuple):
    """`all Z` / `every Z`: every player's zone of the family."""
    slot: int


class CardAttrRef(NamedTuple):
    """A card's attribute, `c.a`: fixed or mutable."""
    slot: int
    mutable: bool


class SelfAttrRef(NamedTuple):
    """In a kind's def, the card's own attribute by bare name; `this` is the card's slot."""
    this: int
    slot: int
    mutable: bool


class SelfZoneRef(NamedTuple):
    """In a kind's def, the card's own zone by bare name."""
    this: int
    slot: int


class SelfDefRef(NamedTuple):
    """In a kind's def, another def of the kind by bare name."""
    this: int
    name: str


class KindDefRef(NamedTuple):
    """A kind's def read on a card, `c.d`."""
    name: str


class PropRef(NamedTuple):
    """A builtin property of a player, card or zone (`on`)."""
    on: Type
    name: str


class ConstRef(NamedTuple):
    """An enum value."""
    name: str


class BuiltinRef(NamedTuple):
    """A builtin name, or a call of a builtin function."""
    name: str


class DefRef(NamedTuple):
    name: str

    @property
    def kind(self) -> Literal["def"]:
        """The kind of declaration it runs (as the lint's units name them)."""
        return "def"


class EffectRef(NamedTuple):
    """An effect or action, named or called."""
    name: str
    is_action: bool

    @property
    def kind(self) -> Literal["effect", "action"]:
        """The kind of declaration it runs (as the lint's units name them)."""
        return "action" if self.is_action else "effect"


class PhaseRef(NamedTuple):
    name: str

    @property
    def kind(self) -> Literal["phase"]:
        """The kind of declaration it runs (as the lint's units name them)."""
        return "phase"


class ValuesRef(NamedTuple):
    """`values(ENUM)`."""
    enum: str


class JoinRef(NamedTuple):
    """`a + b` joining lists."""


Ref = Union[LocalRef, OptionRef, CounterRef, VarRef, ZoneRef, ZoneFamilyRef, CardAttrRef, SelfAttrRef,
            SelfZoneRef, SelfDefRef, KindDefRef, PropRef, ConstRef, BuiltinRef, DefRef, EffectRef, PhaseRef,
            ValuesRef, JoinRef]
REF_CLASSES: tuple[type, ...] = Ref.__args__  # type: ignore[attr-defined]


def _same_record(self: tuple, other: object) -> bool:
    return type(other) is type(self) and tuple.__eq__(self, other) is True


def _other_record(self: tuple, other: object) -> bool:
    return not _same_record(self, other)


def _record_hash(self: tuple) -> int:
    return hash((type(self).__name__, *self))


# a record equals (and hashes like) only a record of its own class with the same fields:
# DefRef("x") is not BuiltinRef("x"), nor the tuple ("x",)
for _cls in REF_CLASSES:
    setattr(_cls, "__eq__", _same_record)
    setattr(_cls, "__ne__", _other_record)
    setattr(_cls, "__hash__", _record_hash)

JOIN = JoinRef()


def is_builtin(ref: Ref | None, *names: str) -> bool:
    """Is ref the builtin named one of names (`players`, `cards`, `top`...)?"""
    return isinstance(ref, BuiltinRef) and ref.name in names


def declared_as(ref: Ref) -> tuple[str, ...]:
    """The kinds of declaration a resolved name names: () for none (a builtin property,
    `values(...)`, a list join)."""
    match ref:
        case LocalRef():
            return ("local", "parameter")
        case OptionRef():
            return ("option",)
        case CounterRef():
            return ("counter",)
        case VarRef():
            return ("var",)
        case ZoneRef(whose="card") | SelfZoneRef():
            return ("card zone",)
        case ZoneRef() | ZoneFamilyRef():
            return ("zone",)
        case CardAttrRef() | SelfAttrRef():
            return ("attribute",)
        case KindDefRef() | SelfDefRef():
            return ("kind def",)
        case ConstRef():
            return ("enum value",)
        case BuiltinRef():
            return ("builtin",)
        case DefRef():
            return ("def",)
        case EffectRef():
            return ("action",) if ref.is_action else ("effect",)
        case PhaseRef():
            return ("phase",)
    return ()


@attrs.define
class OptionInfo:
    name: str
    slot: int
    type: Type = attrs.field(converter=as_type)
    decl: A.OptionDecl


@attrs.define
class AttrInfo:
    name: str
    type: Type = attrs.field(converter=as_type)
    mutable: bool
    slot: int
    decl: A.AttrDecl
    kinds: list[str] = attrs.field(factory=list)


@attrs.define
class KindInfo:
    name: str
    decl: A.KindDecl
    attrs: dict[str, AttrInfo] = attrs.field(factory=dict)


@attrs.define
class CounterInfo:
    name: str
    slot: int
    decl: A.CounterDecl
    triggers: list[A.ReachDecl] = attrs.field(factory=list)


@attrs.define
class VarInfo:
    name: str
    slot: int
    type: Type = attrs.field(converter=as_type)
    decl: A.VarDecl


@attrs.define
class ZoneInfo:
    name: str
    slot: int  # family index
    decl: A.ZoneDecl


@attrs.define
class CardZoneInfo:
    """`zone NAME: ...` declared in kinds: one zone on each card of those kinds."""

    name: str
    slot: int  # family index (after the top-level zones)
    decl: A.KindZone
    kinds: list[str] = attrs.field(factory=list)
    decls: dict = attrs.field(factory=dict)  # kind -> its own declaration (capacity, drop)


def _typed_params(ps: list[tuple[str, str]]) -> list[tuple[str, Type]]:
    return [(n, as_type(t)) for n, t in ps]


@attrs.define
class Callable:
    """A def, effect or action: parameters, body and its frame size."""

    name: str
    decl: Any
    params: list[tuple[str, Type]] = attrs.field(converter=_typed_params)
    type: Type = attrs.field(default=ANY, converter=as_type)
    frame: int = 1
    requires: list[A.Require] = attrs.field(factory=list)
    kinds: list[str] = attrs.field(factory=list)  # a kind's def: the kinds that declare it


@attrs.define
class PhaseInfo:
    name: str
    decl: A.Phase
    frame: int = 1


@attrs.define
class ScenarioInfo:
    decl: A.ScenarioDecl
    frame: int = 1


@attrs.define
class GameModel:
    title: str = "untitled"
    title_span: Span | None = None
    min_players: int = 2
    max_players: int = 4
    options: dict[str, OptionInfo] = attrs.field(factory=dict)
    enums: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    enum_of: dict[str, str] = attrs.field(factory=dict)  # value -> enum name
    kinds: dict[str, KindInfo] = attrs.field(factory=dict)
    attrs_by_name: dict[str, AttrInfo] = attrs.field(factory=dict)
    cards: list[A.CardDecl] = attrs.field(factory=list)
    counters: dict[str, CounterInfo] = attrs.field(factory=dict)
    vars: dict[str, VarInfo] = attrs.field(factory=dict)
    zones: dict[str, ZoneInfo] = attrs.field(factory=dict)
    card_zones: dict[str, CardZoneInfo] = attrs.field(factory=dict)  # zones on cards, by name
    kind_defs: dict[str, Callable] = attrs.field(factory=dict)  # kinds' derived values, by name
    defs: dict[str, Callable] = attrs.field(factory=dict)
    effects: dict[str, Callable] = attrs.field(factory=dict)
    actions: dict[str, Callable] = attrs.field(factory=dict)
    setup: Callable | None = None
    game_end: Callable | None = None  # `at game end { ... }`
    eliminates: bool = False  # some rule says `eliminate P`: turns and phases pass by players who are out
    rounds: A.RoundsDecl | None = None
    phases: list[PhaseInfo] = attrs.field(factory=list)
    end_conds: list[A.EndDecl] = attrs.field(factory=list)
    view: "A.ViewDecl | None" = None  # what tav play's view shows, when the designer says
    winner: A.WinnerDecl | None = None  # the rule without `when`
    guarded_winners: list = attrs.field(factory=list)  # `winner when C: ...`, tried first, in order
    reach: list[tuple[A.ReachDecl, int]] = attrs.field(factory=list)  # (decl, frame)
    handlers: dict[str, list[tuple[A.OnDecl, int]]] = attrs.field(factory=dict)
    scenarios: list[ScenarioInfo] = attrs.field(factory=list)
    # side tables, keyed by node identity
    refs: dict[A.Node, Ref] = attrs.field(factory=dict)  # what each name resolved to (the table above)
    types: dict[A.Node, Type] = attrs.field(factory=dict)
    # binders -> local slot; a simultaneous choice binds two: (its player's slot, its choice's)
    slots: dict[A.Node, int | tuple[int, int]] = attrs.field(factory=dict)
    files: list[str] = attrs.field(factory=list)
    sources: SourceCache = attrs.field(factory=SourceCache)
    path: str = ""
    max_frame: int = 2  # the largest frame any body needs
    # a choice whose prompt has holes ("discard (Hand Size {hand_size})") -> the prompt's literal
    # text and, for each hole, (its expression, its type), in order (Presentation.prompt_text)
    prompt_holes: dict[A.Node, tuple] = attrs.field(factory=dict)
    changes: list = attrs.field(factory=list)  # a variant's changes (check/variants.py Change records)
    base_path: str | None = None  # the game a variant extends
    decls: list = attrs.field(factory=list)  # every declaration, includes spliced, variant changes applied

    def slot(self, binder: A.Node) -> int:
        """The local slot a binder binds (every binder but a simultaneous choice binds one)."""
        k = self.slots[binder]
        assert isinstance(k, int), binder
        return k

    def slot_pair(self, binder: A.Node) -> tuple[int, int]:
        """A simultaneous choice's slots: (its player's, its choice's)."""
        ks = self.slots[binder]
        assert isinstance(ks, tuple), binder
        return ks
