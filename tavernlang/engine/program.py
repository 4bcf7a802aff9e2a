"""What compiling a game's rules makes: the functions and tables a `CompiledGame` runs.

`_Compiler.compile_all` (engine/compile.py) fills a `Program` field by field; `CompiledGame`
holds it as `game.program` and reads each field as an attribute of the game (`game.phases`),
as tools and the generated code do. Each function is generated code: an expression is
`f(st, env) -> value`, a block `f(st, env)` (a generator function when it can ask a player).
"""
from __future__ import annotations

from typing import Any, Callable

import attrs

Fn = Callable[..., Any]


@attrs.define
class Program:
    """The compiled rules of one game, in one flavour (interactive or playout) and layout."""

    option_default: list = attrs.field(factory=list)  # each option's default value, by option slot
    card_fields: list = attrs.field(factory=list)  # each card's initial attribute values: [(slot, fn)]
    attr_rows: dict = attrs.field(factory=dict)  # attribute slot -> its value for every card, when all are constants
    counter_init: list = attrs.field(factory=list)  # each counter's initial value, by counter slot
    counter_info: list = attrs.field(factory=list)  # each counter's checked model (CounterInfo), by slot
    var_init: list = attrs.field(factory=list)  # each variable's initial value (None: its type's default)
    var_default: list = attrs.field(factory=list)  # each variable's type's default value (0, false, "")
    zone_cap: list = attrs.field(factory=list)  # each zone family's capacity (None: none; a zone on cards: kind -> fn)
    zone_drop: list = attrs.field(factory=list)  # each zone family on cards: kind -> its `drop to` zone
    kdef_cells: dict = attrs.field(factory=dict)  # a kind's derived attribute -> [its function]
    def_frames: dict = attrs.field(factory=dict)  # a `def` -> the size of its frame of locals
    actions: dict = attrs.field(factory=dict)  # an action's name -> its _Action (legality, body, first choice)
    setup: Fn | None = None  # `setup:`'s block (None: the rules have none)
    setup_frame: int = 1  # the size of `setup:`'s frame of locals
    game_end: Fn | None = None  # `at game end:`'s block (None: the rules have none)
    game_end_frame: int = 1  # the size of `at game end:`'s frame of locals
    rounds_count: Fn | None = None  # `rounds N`'s N (None: the game ends only by `end when` / `end game`)
    phases: list = attrs.field(factory=list)  # each phase of a round, in order (_Phase)
    end_conds: list = attrs.field(factory=list)  # each `end when` condition, checked at the end of a round
    flow: Fn | None = None  # the whole game: a generator function of the state (yields Decisions)
    winner_keys: list = attrs.field(factory=list)  # the ranking keys of the winner rule without `when`
    winner_everyone: Fn | None = None  # its `everyone wins if` condition (None: ranked by the keys)
    guarded_winners: list = attrs.field(factory=list)  # each `winner when C`: (C, its keys, its `everyone wins if`)
    scenarios: list = attrs.field(factory=list)  # each scenario of the rules, compiled (engine/scenario.py runs them)
