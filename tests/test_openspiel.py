"""tavernlang.openspiel: any rules file as an OpenSpiel game (skipped without open-spiel)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from tavernlang import compile_file  # noqa: E402
from tavernlang.engine.runner import bot_pick, bot_rng  # noqa: E402
from tavernlang.openspiel import DEFAULT_SEEDS, load_game  # noqa: E402
from peek import PEEK  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIMULTANEOUS = "at the same time: choose an action"  # the prompt of a pick in a phase played at once

CARDS = ("Ace", "King", "Queen", "Jack", "Ten")


def game_path(name: str) -> str:
    return str(ROOT / "games" / f"{name}.tav")


@pytest.fixture
def peek(tmp_path):
    p = tmp_path / "peek.tav"
    p.write_text(PEEK)
    return str(p)


def started(game, outcome: int = 0):
    s = game.new_initial_state()
    if s.is_chance_node():
        s.apply_action(outcome)
    return s


# ---------------------------------------------------------------- OpenSpiel's own test
@pytest.mark.parametrize("name,players,sims", [
    ("little_tavern", 2, 2), ("little_tavern", 4, 1),
    ("cavern_tavern", 2, 1), ("cavern_tavern", 1, 1),
    ("tavern_masters", 2, 1), ("tavern_masters", 3, 1),
    ("taverns_of_tiefenthal", 2, 1), ("taverns_of_tiefenthal", 3, 1),
])
def test_random_sim_test(name, players, sims):
    """OpenSpiel's random simulation test: clones, serialization (the game loaded again from
    its string), legal actions and their masks, chance outcomes, strings, tensors, returns
    within the utility's range, at two player counts of each seed game."""
    game = load_game(game_path(name), players=players, seeds=100)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_random_sim_test_without_chance(peek):
    game = load_game(peek, players=2, seeds=1, reward="zero_sum")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


# ---------------------------------------------------------------- what the game says it is
def test_the_game_type_tells_the_truth():
    T = pyspiel.GameType
    g = load_game(game_path("little_tavern"), players=3)
    t = g.get_type()
    assert t.dynamics == T.Dynamics.SEQUENTIAL
    assert t.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == T.Information.IMPERFECT_INFORMATION
    assert t.reward_model == T.RewardModel.TERMINAL
    assert t.utility == T.Utility.GENERAL_SUM  # a shared win gives every winner 1
    assert (t.min_num_players, t.max_num_players) == (2, 5)
    assert (g.min_utility(), g.max_utility()) == (0.0, 1.0)
    assert g.num_players() == 3
    assert g.max_chance_outcomes() == DEFAULT_SEEDS
    assert g.num_distinct_actions() == 58  # the bound read from the rules: its 58 cards
    assert not t.provides_information_state_tensor and t.provides_observation_tensor
    z = load_game(game_path("little_tavern"), players=3, reward="zero_sum")
    assert z.get_type().utility == T.Utility.ZERO_SUM
    assert (z.min_utility(), z.max_utility(), z.utility_sum()) == (-1.0, 2.0, 0.0)


def test_a_cooperative_game_is_identical_utility(tmp_path):
    rules = PEEK.replace("winner: highest points", "winner: everyone if sum(points of p for p in players) >= 6")
    f = tmp_path / "coop.tav"
    f.write_text(rules)
    g = load_game(str(f), players=2)
    assert g.get_type().utility == pyspiel.GameType.Utility.IDENTICAL


def test_score_range_from_a_bounded_counter(tmp_path):
    f = tmp_path / "bounded.tav"
    f.write_text(PEEK.replace("counter points per player = 0", "counter points per player = 0 in 0..9"))
    g = load_game(str(f), players=2, reward="score")
    assert (g.min_utility(), g.max_utility()) == (0.0, 9.0)
    g = load_game(game_path("little_tavern"), players=2, reward="score")  # coins have no declared range
    assert (g.min_utility(), g.max_utility()) == (-float("inf"), float("inf"))


def test_chance_outcomes_are_the_seeds():
    g = load_game(game_path("little_tavern"), players=2, seeds=4, first_seed=10)
    s = g.new_initial_state()
    assert s.is_chance_node()
    assert s.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    assert [s.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in range(4)] == [f"seed {10 + a}" for a in range(4)]
    firsts = set()
    for a in range(4):
        c = s.child(a)
        assert c.current_player() >= 0 and not c.is_chance_node()
        firsts.add(str(c))
    assert len(firsts) == 4  # each seed another game


def test_returns(peek):
    for reward, want in (("win", {(1.0, 0.0), (0.0, 1.0)}), ("zero_sum", {(1.0, -1.0), (-1.0, 1.0)})):
        g = load_game(peek, players=2, reward=reward)
        got = set()
        for seed in range(6):
            s = started(g, seed)
            assert s.returns() == [0.0, 0.0]
            while not s.is_terminal():
                s.apply_action(s.legal_actions()[0])
            got.add(tuple(s.returns()))
        assert got <= want and len(got) == 2, (reward, got)
    g = load_game(peek, players=2, reward="score")
    s = started(g)
    while not s.is_terminal():
        s.apply_action(0)
    assert s.returns() == [float(x) for x in s._play.match.result["scores"]]


# ---------------------------------------------------------------- the engine's game
def test_the_same_seed_plays_the_same_game_as_tav_run():
    """Chance outcome i is game seed first_seed + i; with the random bots' choices (action i is
    the engine's option i) the game is the one `tav run --seed S` plays, event for event."""
    seed = 3
    out = subprocess.run([sys.executable, "-m", "tavernlang", "run", game_path("little_tavern"), "-p", "2",
                          "--seed", str(seed), "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    run = json.loads(out.stdout)
    g = load_game(game_path("little_tavern"), players=2, first_seed=1)
    s = g.new_initial_state()
    s.apply_action(seed - 1)
    rng = bot_rng(seed)
    decisions = 0
    while not s.is_terminal():
        s.apply_action(bot_pick(rng, len(s.legal_actions())))
        decisions += 1
    m = s._play.tracked()
    assert decisions == run["decisions"]
    assert m.events() == [{k: v for k, v in e.items() if k != "at"} for e in run["log"]]  # (tav run adds places)
    assert [int(p) + 1 for p in m.result["winners"]] == run["winners"] and m.result["scores"] == run["scores"]
    assert s.returns() == [1.0 if p + 1 in run["winners"] else 0.0 for p in range(2)]


def test_actions_are_the_engines_options():
    s = started(load_game(game_path("little_tavern"), players=2), 5)
    labels = s._play.match.legal()
    p = s.current_player()
    assert s.legal_actions() == list(range(len(labels)))
    assert [s.action_to_string(p, a) for a in s.legal_actions()] == [f"{i}: {lab}" for i, lab in enumerate(labels)]
    assert s.legal_actions(1 - p) == []
    mask = s.legal_actions_mask(p)
    assert len(mask) == 58 and sum(mask) == len(labels)


def test_too_few_actions_says_what_to_pass():
    from tavernlang.errors import GameError
    g = load_game(game_path("little_tavern"), players=2, max_actions=2)
    s = started(g)
    with pytest.raises(GameError, match=r"max_actions=\d+ or more"):
        for _ in range(2000):
            s.apply_action(random.Random(0).choice(s.legal_actions()))


def test_options_reach_the_game_and_its_string():
    g = load_game(game_path("cavern_tavern"), players=1, options={"solo_mode": "Story", "secret_chamber": True})
    assert g.spec.options == {"solo_mode": "Story", "secret_chamber": True}
    again = pyspiel.load_game(str(g))
    assert str(again) == str(g) and again.spec.options == g.spec.options
    plain = load_game(game_path("cavern_tavern"), players=1)
    a, b = started(g), started(plain)
    while not (a.is_terminal() or b.is_terminal()) and str(a).split("\n", 1)[1] == str(b).split("\n", 1)[1]:
        a.apply_action(0)
        b.apply_action(0)
    assert str(a) != str(b)


def test_bad_arguments(peek, tmp_path):
    from tavernlang.errors import GameError, TavError
    bad = tmp_path / "bad.tav"
    bad.write_text('game "Bad"\nplayers 2\nzone z: shared publik\n')
    with pytest.raises(TavError, match="did you mean 'public'"):
        load_game(str(bad))
    with pytest.raises(ValueError, match="for 2 to 2 players"):
        load_game(peek, players=3)
    with pytest.raises(ValueError, match="reward"):
        load_game(peek, players=2, reward="money")
    with pytest.raises(ValueError, match="has no option 'nope'"):
        load_game(peek, players=2, options={"nope": 1})
    with pytest.raises(ValueError, match="seeds must be 1 or more"):
        load_game(peek, players=2, seeds=0)
    with pytest.raises(ValueError, match="true or false"):
        load_game(game_path("cavern_tavern"), players=1, options={"secret_chamber": "yes"})
    with pytest.raises(GameError, match="outside its range 1..500"):
        load_game(game_path("cavern_tavern"), players=1, options={"solo_goal": 501})
    s = started(load_game(peek, players=2))
    with pytest.raises(ValueError, match="not legal"):
        s.apply_action(7)


def test_clones_and_serialized_states_are_independent():
    g = load_game(game_path("tavern_masters"), players=2)
    s = started(g, 2)
    rng = random.Random(0)
    for _ in range(15):
        s.apply_action(rng.choice(s.legal_actions()))
    before = str(s)
    c = s.clone()
    for _ in range(10):
        c.apply_action(rng.choice(c.legal_actions()))
    assert str(s) == before and str(c) != before
    assert s.history() == c.history()[:len(s.history())]
    back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(g, c))[1]
    assert str(back) == str(c) and back.information_state_string(0) == c.information_state_string(0)
    s.apply_action(s.legal_actions()[-1])  # the original goes its own way: the copy is unchanged
    assert str(back) == str(c)


# ---------------------------------------------------------------- secrecy
def _history_and_now(info: str) -> tuple[list[str], str]:
    head, now = info.split("\n-- now --\n")
    return head.split("\n")[1:], now


def test_information_states_do_not_tell_apart_what_the_seat_cannot_see(peek):
    """Peek: two deals with the same hand of P1 and another hand of P2 give P1 the same
    information state and observation at its decision (the seed is hidden as well), and P2
    different ones; P1's strings name no card of P2's hand."""
    g = load_game(peek, players=2, seeds=200)
    root = g.new_initial_state()
    by_hand: dict = {}
    pairs = 0
    for outcome in range(200):
        s = root.child(outcome)
        full = s._play.view(None)["zones"]
        mine, theirs = tuple(full["hand of P1"]), tuple(sorted(full["hand of P2"]))
        strings = (s.information_state_string(0), s.observation_string(0), s.information_state_string(1))
        for name in theirs:
            assert name not in strings[0] and name not in strings[1]
        for other, seen in by_hand.get(mine, {}).items():
            if other != theirs:
                assert seen[:2] == strings[:2]
                assert seen[2] != strings[2]
                pairs += 1
        by_hand.setdefault(mine, {})[theirs] = strings
    assert pairs > 10
    # after both played, P2's card left in hand is still unnamed to P1
    s = root.child(0)
    s.apply_action(0)
    s.apply_action(0)
    assert s.is_terminal()
    left = s._play.view(None)["zones"]["hand of P2"]
    assert left and left[0] not in s.information_state_string(0) and left[0] in s.information_state_string(1)


def test_a_simultaneous_pick_is_hidden_until_it_is_resolved():
    """Tavern Masters' Day: the seats pick at the same time, asked one by one. Whatever the
    first seat picks, the next seat's information state at its own pick is the same."""
    g = load_game(game_path("tavern_masters"), players=3)
    s = started(g, 0)
    rng = random.Random(2)
    checked = 0
    while not s.is_terminal() and checked < 3:
        p = s.current_player()
        acts = s.legal_actions()
        if s._play.view(p).get("prompt") == SIMULTANEOUS and len(acts) > 1:
            seen = {}
            logged = len(s._play.tracked().log_lines())
            for a in acts:
                c = s.child(a)
                while not c.is_terminal() and c.current_player() == p:
                    c.apply_action(c.legal_actions()[0])  # its pick's first choice, if any
                q = c.current_player()
                # the next seat picks in the same step: nothing was resolved (nor logged) since
                if q >= 0 and len(c._play.tracked().log_lines()) == logged:
                    assert c._play.view(q).get("prompt") == SIMULTANEOUS
                    seen[a] = (q, c.information_state_string(q), c.observation_string(q))
            if len(seen) > 1:
                assert len(set(seen.values())) == 1, f"seat {p}'s pick shows in the next seat's strings"
                checked += 1
        s.apply_action(rng.choice(acts))
    assert checked == 3


@pytest.mark.parametrize("name,players", [("little_tavern", 3), ("tavern_masters", 3), ("cavern_tavern", 2),
                                          ("taverns_of_tiefenthal", 2)])
def test_no_string_of_a_seat_names_a_card_it_may_not_see(name, players):
    """At every decision of a random game, for every seat: what it sees now and its own choices
    name no card it may not see (the secrecy oracle of test_secrecy), and the rest of its
    information state is the log as the engine gives that seat to read (which test_secrecy
    checks line by line as it is written); its observation string names nothing it may not see."""
    from test_secrecy import Watch
    g = load_game(game_path(name), players=players, seeds=50)
    s = started(g, 7)
    m = s._play.tracked()
    w = Watch(m.game, m.st)
    rng = random.Random(7)
    k = 0
    while not s.is_terminal():
        m = s._play.match
        w.st = m.st
        w.learn()
        k += 1
        if k % 7 == 1:
            for p in range(players):
                history, now = _history_and_now(s.information_state_string(p))
                own = [line for line in history if line.startswith(">> ")]
                assert all(line.startswith(f">> P{p + 1} chose ") for line in own)
                assert [line for line in history if not line.startswith(">> ")] == m.log_lines(p)
                w.check(p, now, "the information state's view")
                for line in own:
                    w.check(p, line, "the seat's own choice")
                w.check(p, s.observation_string(p), "the observation string")
        s.apply_action(rng.choice(s.legal_actions()))
    assert w.problems == []


def test_the_observation_tensor_is_the_pettingzoo_encoding_of_the_seats_view():
    from tavernlang.adapters import _Encoding
    g = load_game(game_path("tavern_masters"), players=3)
    s = started(g, 1)
    rng = random.Random(1)
    for _ in range(12):
        s.apply_action(rng.choice(s.legal_actions()))
    m = s._play.match
    enc = _Encoding(m.game, 3, type(m)(m.game, 3, g.spec.first_seed, {}, log=False).view(None))
    for p in range(3):
        assert np.array_equal(np.array(s.observation_tensor(p), dtype=np.float32), enc.encode(m.view(p), p))
    lay = g.observation_layout()
    assert lay["size"] == len(s.observation_tensor(0))
    # another seat's private hand: the cards the seat may not see are only counted, as hidden
    feats = lay["zone_features"]
    block = np.array(s.observation_tensor(0))[lay["zones"]["hand of P2"]]
    seen = m.view(0)["zones"]["hand of P2"]
    hidden, names = seen.count("?"), len({cd.name for cd in m.game.model.cards})  # (names come first)
    assert hidden > 0 and block[feats.index("hidden")] == hidden
    assert block[:names].sum() == len(seen) - hidden


# ---------------------------------------------------------------- OpenSpiel's algorithms
def test_mcts_plays_little_tavern():
    from open_spiel.python.algorithms import mcts
    g = load_game(game_path("little_tavern"), players=2, seeds=10)
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(g, uct_c=2.0, max_simulations=12, evaluator=mcts.RandomRolloutEvaluator(1, rs),
                       random_state=rs, solve=False)
    s = started(g, 3)
    for _ in range(5):
        p = s.current_player()
        a = bot.step(s)
        assert a in s.legal_actions(), (a, s.legal_actions())
        s.apply_action(a)
        assert len(s.history()) >= 2 and s.current_player() != pyspiel.PlayerId.INVALID
    assert p >= 0 and len(s.history()) == 6



def test_a_compiled_game_is_accepted():
    game = compile_file(game_path("little_tavern"))
    g = load_game(game, players=2)
    assert g.compiled is game and str(game.model.path).endswith("little_tavern.tav")
    assert str(g).endswith(f"rules={Path(game_path('little_tavern')).resolve()},seeds=1000)")


def test_cfr_learns_peek(peek):
    """CFR reads the whole tree (the seeds' chance node, every seat's information states): on
    Peek, each seat learns to play its higher card, and the average policy's exploitability
    falls."""
    from open_spiel.python.algorithms import cfr, exploitability
    g = load_game(peek, players=2, seeds=12, reward="zero_sum")
    solver = cfr.CFRSolver(g)
    before = exploitability.exploitability(g, solver.average_policy())
    for _ in range(10):
        solver.evaluate_and_update_policy()
    after = exploitability.exploitability(g, solver.average_policy())
    assert after < before / 4, (before, after)
    s = g.new_initial_state().child(0)
    hand = s._play.view(0)["zones"]["hand of P1"]
    best = max(range(2), key=lambda i: CARDS[::-1].index(hand[i]))
    assert solver.average_policy().action_probabilities(s)[best] > 0.9


def test_an_information_state_begins_with_every_earlier_one():
    """A seat's record only grows: at every later state it begins with the record it had."""
    g = load_game(game_path("tavern_masters"), players=2)
    s = started(g, 4)
    rng = random.Random(4)
    before = [[], []]
    for _ in range(60):
        for p in range(2):
            history, _ = _history_and_now(s.information_state_string(p))
            assert history[:len(before[p])] == before[p]
            before[p] = history
        s.apply_action(rng.choice(s.legal_actions()))
    assert all(len(h) > 20 for h in before)
