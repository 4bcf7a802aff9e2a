"""`State.copy()` (engine/state.py): every slot is either copied, shared or fresh in a copy, and a
copy plays on apart from the state it was taken from."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.engine.state import State

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/little_tavern.tav", "games/cavern_tavern.tav", "games/taverns_of_tiefenthal.tav",
         "examples/dice_tavern.tav"]


def test_every_slot_of_a_state_is_copied_shared_or_fresh_in_a_copy_and_only_one():
    groups = State.COPIED + State.SHARED + State.FRESH
    assert len(groups) == len(set(groups))
    assert set(groups) == set(State.__slots__)


def _mid_game(path: str, decisions: int, seed: int = 3):
    """A state of the interactive flavour after this many random decisions (the game suspended)."""
    game = compile_file(ROOT / path)
    st = game.new_state(game.min_players if game.min_players > 1 else 2, seed)
    gen = game.flow(st)
    rng = random.Random(seed)
    d = next(gen)
    for _ in range(decisions):
        d = gen.send(int(rng.random() * len(d.options)))
    return game, st, gen, d


def _lists(v, out):
    if isinstance(v, list):
        out.append(v)
        for x in v:
            _lists(x, out)
    return out


@pytest.mark.parametrize("path", GAMES)
def test_a_copy_shares_no_list_that_play_changes(path):
    _, st, _, _ = _mid_game(path, 40)
    c = st.copy()
    for name in State.COPIED:
        mine = {id(x) for x in _lists(getattr(st, name), [])}
        assert not mine & {id(x) for x in _lists(getattr(c, name), [])}, name
    assert c.rng is not st.rng and c.rng.getstate() == st.rng.getstate()
    assert c.snapshot() == st.snapshot()
    for name in State.SHARED:
        assert getattr(c, name) is getattr(st, name), name


@pytest.mark.parametrize("path", GAMES)
def test_a_copy_has_no_log_agent_or_counts_of_its_own_run(path):
    _, st, _, _ = _mid_game(path, 10)
    st.log, st.fired, st.agent, st.on_phase = [], {}, (lambda p, o: 0), (lambda at: None)
    c = st.copy()
    assert c.log is None and c.fired is None and c.agent is None and c.on_phase is None
    assert c.why == {} and c.offered is None and c.views is None and c.bot_random is None


@pytest.mark.parametrize("path", GAMES)
def test_changing_a_copy_leaves_the_state_it_was_taken_from_as_it_was(path):
    _, st, _, _ = _mid_game(path, 40)
    before = st.snapshot()
    c = st.copy()
    for row in c.vars + c.counters + c.cvars + c.zones:
        for i in range(len(row)):
            row[i] = None
    c.loc[:] = [-1] * len(c.loc)
    c.rng.random()
    c.round += 1
    assert st.snapshot() == before
