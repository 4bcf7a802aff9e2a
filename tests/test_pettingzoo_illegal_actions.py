"""tavernlang.pettingzoo's answer to an action it cannot play, as PettingZoo's own wrappers
(OrderEnforcingWrapper, AssertOutOfBoundsWrapper, TerminateIllegalWrapper) answer it."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper, TerminateIllegalWrapper

from tavernlang.pettingzoo import env

ROOT = Path(__file__).resolve().parent.parent
LITTLE = str(ROOT / "games" / "little_tavern.tav")


@pytest.fixture(scope="module")
def game():
    from tavernlang import compile_file
    return compile_file(LITTLE)


def an_illegal_action(e) -> int:
    """An action inside the action space that the mask rules out."""
    mask = e.observe(e.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def play_out(e, seed: int) -> list[tuple]:
    """Each agent's last() along the game, to its end (random legal actions)."""
    rng = np.random.default_rng(seed)
    seen = []
    for agent in e.agent_iter(5000):
        obs, reward, term, trunc, _ = e.last()
        seen.append((agent, reward, term, trunc))
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize("call", ["step", "observe", "state"])
def test_step_and_observe_before_reset_raise_as_order_enforcing_does(game, call):
    do = {"step": lambda e: e.step(0), "observe": lambda e: e.observe("player_1"), "state": lambda e: e.state()}[call]
    for e in (env(game, players=2), OrderEnforcingWrapper(env(game, players=2))):
        with pytest.raises(AssertionError, match=rf"reset\(\) needs to be called before {call}"):
            do(e)


@pytest.mark.parametrize("action", [-1, 58, 1000, None, 1.5, True, "0"])
def test_an_action_outside_the_action_space_raises_as_assert_out_of_bounds_does(game, action):
    e = env(game, players=2, seed=1)
    e.reset()
    with pytest.raises(AssertionError, match="action is not in action space"):
        e.step(action)
    w = AssertOutOfBoundsWrapper(env(game, players=2, seed=1))
    w.reset()
    with pytest.raises(AssertionError, match="action is not in action space"):
        w.step(action)
    assert e.match.choices == [] and not any(e.terminations.values())


def test_a_whole_number_of_numpy_is_an_action(game):
    e = env(game, players=2, seed=1)
    e.reset()
    e.step(np.int64(0))
    assert len(e.match.choices) == 1


def test_a_masked_out_action_raises_and_leaves_the_game_as_it_was(game):
    e = env(game, players=2, seed=1)
    e.reset()
    before, agent = list(e.match.choices), e.agent_selection
    with pytest.raises(ValueError, match="not legal for player_1 here"):
        e.step(an_illegal_action(e))
    assert e.match.choices == before and e.agent_selection == agent and not any(e.terminations.values())


def test_with_illegal_reward_a_masked_out_action_ends_the_game_as_terminate_illegal_does(game):
    """The env's own illegal_reward and PettingZoo's TerminateIllegalWrapper around an env
    without it end the game alike: a warning, the offender rewarded illegal_reward, the others
    0, every agent terminated and truncated, then each removed by a None step."""
    own = env(game, players=2, seed=1, illegal_reward=-1)
    own.reset()
    wrapped = TerminateIllegalWrapper(env(game, players=2, seed=1), illegal_reward=-1)
    wrapped.reset()
    results = []
    for e in (own, wrapped):
        e.step(0)
        offender = e.agent_selection
        EnvLogger.flush()
        e.step(an_illegal_action(e))
        assert any("Illegal move made" in str(m) for m in EnvLogger.mqueue)
        results.append(play_out(e, seed=1))
        assert e.agents == []
    assert results[0] == results[1]
    assert sorted(r[:2] for r in results[0]) == sorted((a, -1 if a == offender else 0) for a in own.possible_agents)
    assert all(term and trunc for _, _, term, trunc in results[0])
    assert not own.match.over  # (the game ended by the rule of the env, not of the rules file)
    assert not own.observe("player_1")["action_mask"].any() and own.legal_count() == 0


def test_after_the_end_only_none_steps_and_then_steps_only_warn(game):
    e = env(game, players=2, seed=1)
    e.reset()
    rng = np.random.default_rng(1)
    while not e.match.over:
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert all(e.terminations.values())
    with pytest.raises(ValueError, match="the only valid action is None"):
        e.step(0)
    while e.agents:
        e.step(None)
    EnvLogger.flush()
    e.step(None)
    assert any("step() called after all agents are terminated" in str(m) for m in EnvLogger.mqueue)


def test_a_finished_agent_observes_the_last_table_with_nothing_to_do(game):
    """At the end, and after an agent is removed, it still observes the final table (the same
    numbers as at the end), with an all-zero action mask."""
    e = env(game, players=2, seed=2)
    e.reset()
    rng = np.random.default_rng(2)
    while not e.match.over:
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    at_end = {a: e.observe(a) for a in e.possible_agents}
    while e.agents:
        e.step(None)
    for a, obs in at_end.items():
        assert not obs["action_mask"].any()
        after = e.observe(a)
        assert np.array_equal(after["observation"], obs["observation"]) and not after["action_mask"].any()


def test_the_env_in_pettingzoos_three_wrappers_passes_api_test(game):
    e = OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(
        env(game, players=2, seed=1), illegal_reward=-1)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on dict observations is only advice
        api_test(e, num_cycles=200)
