"""The subset-sum fast path of `any(subset S ... where sum(x.A for x in S) == V)` answers as
trying every subset does (the `+ 0` twins in tests/subset_sums.tav defeat the fast path)."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as s

from tavernlang import Match, compile_file

GAME = compile_file(Path(__file__).resolve().parent / "subset_sums.tav")
ST = Match(GAME, 2, 1).st  # after the setup: the seven dice in the pool
DICE = list(ST.zones[ST.zbase[GAME.model.zones["pool"].slot]])
VALUE = GAME.model.attrs_by_name["value"].slot


def call(name, *args):
    frame = GAME.model.defs[name].frame
    env = [None, *args] + [None] * max(0, frame - 1 - len(args))
    return GAME.def_cells[name][0](ST, env)


@settings(max_examples=300, deadline=None)
@given(values=s.lists(s.integers(0, 6), min_size=0, max_size=7), v=s.integers(-3, 45),
       lo=s.integers(-1, 8), hi=s.integers(-1, 8))
def test_fast_subset_sums_agree_with_trying_subsets(values, v, lo, hi):
    for d, x in zip(reversed(DICE), values):  # first(n, pool) reads the top n dice
        ST.cvars[VALUE][d] = x
    n = len(values)
    assert call("fast", n, v, lo, hi) == call("slow", n, v, lo, hi)
    assert call("fast_any", n, v) == call("slow_any", n, v)


def test_the_fast_path_is_taken_and_none_adds_nothing():
    src = {fn.__name__: text for text in GAME.gen_source for fn in [GAME.def_cells["fast"][0], GAME.def_cells["slow"][0]]
           if text.startswith(f"def {fn.__name__}(")}
    assert "_subset_sum(" in src[GAME.def_cells["fast"][0].__name__]
    assert "_subset_sum(" not in src[GAME.def_cells["slow"][0].__name__]
    assert "_any_subset(" in src[GAME.def_cells["slow"][0].__name__]
    # a die showing none adds nothing (as in a sum)
    for d in DICE:
        ST.cvars[VALUE][d] = None
    ST.cvars[VALUE][DICE[-1]] = 4  # the top die
    assert call("fast", 3, 4, 1, 3) and call("slow", 3, 4, 1, 3)
