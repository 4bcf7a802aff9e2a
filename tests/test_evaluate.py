"""Evaluating an expression of the rules from a tool: game.function_of and game.evaluate."""
from __future__ import annotations

from pathlib import Path

from tavernlang import compile_file
from tavernlang.check.model import ZONE, ZoneRef

GAME = Path(__file__).resolve().parent.parent / "games" / "little_tavern.tav"


def test_evaluate_gives_an_expressions_value_in_a_state_for_a_player():
    game = compile_file(GAME)
    st = game.new_state(3, 0)
    key = game.model.winner.keys[0]  # (`highest coins`: each player's coins)
    st.counters[game.counter_slots["coins"]] = [3, 5, 8]
    pad = [None] * game.model.max_frame
    assert [game.evaluate(key, st, [p] + pad) for p in range(3)] == [3, 5, 8]


def test_evaluate_without_a_frame_reads_the_rules_with_me_none():
    game = compile_file(GAME)
    st = game.new_state(2, 0)
    cond = game.model.end_conds[0].cond  # (`any(p in players where p.coins >= win_coins)`)
    assert game.evaluate(cond, st) is False
    st.counters[game.counter_slots["coins"]][1] = 99
    assert game.evaluate(cond, st) is True


def test_function_of_is_made_once_per_expression_and_shape():
    game = compile_file(GAME)
    cond = game.model.end_conds[0].cond
    assert game.function_of(cond) is game.function_of(cond)
    assert game.function_of(cond, "cards") is not game.function_of(cond)


def _shared_zone(ref) -> bool:
    return isinstance(ref, ZoneRef) and ref.whose == "shared"


def test_a_zone_gives_its_own_list_as_a_collection_and_a_copy_as_cards():
    game = compile_file(GAME)
    st = game.new_state(2, 0)
    zone = next(n for n, t in game.model.types.items() if t == ZONE and _shared_zone(game.model.refs.get(n)))
    env = [None] * (game.model.max_frame + 1)
    own = game.function_of(zone, "collection")(st, env)
    cards = game.function_of(zone, "cards")(st, env)
    assert own is st.zones[st.zbase[game.model.refs[zone].slot]] and cards == own and cards is not own
