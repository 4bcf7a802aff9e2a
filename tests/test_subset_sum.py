"""The subset-sum fast path of `any(subset S ... where sum(x.A for x in S) == V)` answers as
trying every subset does (the `+ 0` twins in tests/subset_sums.tav defeat the fast path).

The tests call the game's definitions on a state of their own, made when each test starts:
a state's budget of time runs from when it is made, and the suite may have run longer than
that budget before a test starts."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as s

from tavernlang import Match, compile_file
from tavernlang.engine import budget


@pytest.fixture(scope="module")
def game():
    return compile_file(Path(__file__).resolve().parent / "subset_sums.tav")


def _pool(game):
    """A state after the setup (the seven dice in the pool), and the dice, top die last."""
    st = Match(game, 2, 1).st
    return st, list(st.zones[st.zbase[game.model.zones["pool"].slot]])


@pytest.fixture
def pool(game):
    return _pool(game)


def _value(game):
    return game.model.attrs_by_name["value"].slot


def call(game, st, name, *args):
    frame = game.model.defs[name].frame
    env = [None, *args] + [None] * max(0, frame - 1 - len(args))
    return game.def_cells[name][0](st, env)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=s.lists(s.integers(0, 6), min_size=0, max_size=7), v=s.integers(-3, 45),
       lo=s.integers(-1, 8), hi=s.integers(-1, 8))
def test_fast_subset_sums_agree_with_trying_subsets(game, pool, values, v, lo, hi):
    st, dice = pool  # (shared by the examples: each sets the dice it reads)
    for d, x in zip(reversed(dice), values):  # first(n, pool) reads the top n dice
        st.cvars[_value(game)][d] = x
    n = len(values)
    assert call(game, st, "fast", n, v, lo, hi) == call(game, st, "slow", n, v, lo, hi)
    assert call(game, st, "fast_any", n, v) == call(game, st, "slow_any", n, v)


def test_the_fast_path_is_taken_and_none_adds_nothing(game, pool):
    st, dice = pool
    fast, slow = game.def_cells["fast"][0].__name__, game.def_cells["slow"][0].__name__
    src = {name: text for text in game.gen_source for name in (fast, slow) if text.startswith(f"def {name}(")}
    assert "_subset_sum(" in src[fast]
    assert "_subset_sum(" not in src[slow]
    assert "_any_subset(" in src[slow]
    # a die showing none adds nothing (as in a sum)
    for d in dice:
        st.cvars[_value(game)][d] = None
    st.cvars[_value(game)][dice[-1]] = 4  # the top die
    assert call(game, st, "fast", 3, 4, 1, 3) and call(game, st, "slow", 3, 4, 1, 3)


def test_a_state_made_when_its_test_starts_has_its_budget_of_time_after_a_slow_suite(game, monkeypatch):
    """The clock has run on past a whole budget of time since the module was imported: a state
    made now still runs a definition that checks its time (it ran out when the state was made
    at import)."""
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real() + 2 * budget.LIMITS["seconds"])
    st, _ = _pool(game)
    st.steps = st.step_limit  # the next step checks the budget of time
    assert call(game, st, "slow", 7, 1000, 0, 7) is False
