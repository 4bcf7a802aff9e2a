"""The checked game: every definition by name with a slot, plus side tables of
resolutions and types keyed by syntax node. Built by :mod:`.checker`, read by
the engine's compiler. Nothing here runs a game."""
from __future__ import annotations

from typing import Any

import attrs

from ..errors import SourceCache, Span
from ..syntax import ast as A

# Types are small strings: "int", "bool", "str", "player", "card", "zone",
# "effect", "none", "any", "enum:NAME", "list:T".
INT, BOOL, STR, PLAYER, CARD, ZONE, EFFECT, NONE, ANY = (
    "int", "bool", "str", "player", "card", "zone", "effect", "none", "any")
BASIC_TYPES = (INT, BOOL, STR, PLAYER, CARD, ZONE, EFFECT)


def list_of(t: str) -> str:
    return "list:" + t


def elem(t: str) -> str | None:
    if t.startswith("list:"):
        return t[5:]
    if t == ZONE:
        return CARD
    if t == ANY:
        return ANY
    return None


def show(t: str) -> str:
    if t.startswith("list:"):
        return f"list of {show(t[5:])}"
    if t.startswith("enum:"):
        return t[5:]
    return t


@attrs.define
class OptionInfo:
    name: str
    slot: int
    type: str
    decl: A.OptionDecl


@attrs.define
class AttrInfo:
    name: str
    type: str
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
    type: str
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


@attrs.define
class Callable:
    """A def, effect or action: parameters, body and its frame size."""

    name: str
    decl: Any
    params: list[tuple[str, str]]
    type: str = ANY
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
    refs: dict[A.Node, tuple] = attrs.field(factory=dict)
    types: dict[A.Node, str] = attrs.field(factory=dict)
    slots: dict[A.Node, int] = attrs.field(factory=dict)  # binders -> local slot
    files: list[str] = attrs.field(factory=list)
    sources: SourceCache = attrs.field(factory=SourceCache)
    path: str = ""
    max_frame: int = 2  # the largest frame any body needs
    changes: list = attrs.field(factory=list)  # a variant's changes (check/variants.py Change records)
    base_path: str | None = None  # the game a variant extends
    decls: list = attrs.field(factory=list)  # every declaration, includes spliced, variant changes applied
