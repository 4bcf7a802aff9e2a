"""tavernlang.pettingzoo: any rules file as a PettingZoo AEC environment."""
from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # (the test extra brings pettingzoo: no skipping)

from tavernlang.engine.runner import Match, bot_pick, bot_rng, play_bots
from tavernlang.errors import GameError
from tavernlang.pettingzoo import env
from peek import PEEK  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = {  # a short set-up of each seed game, so the whole file runs in seconds
    "little_tavern": 2,
    "cavern_tavern": 2,
    "tavern_masters": 2,
    "taverns_of_tiefenthal": 2,
}



def game_path(name: str) -> str:
    return str(ROOT / "games" / f"{name}.tav")


@pytest.fixture(scope="module")
def envs():
    """One env per seed game (loading and compiling once), re-used through fork-free resets."""
    return {name: env(game_path(name), players=n, seed=1) for name, n in GAMES.items()}


@pytest.fixture(scope="module")
def full_envs(envs):
    """The seed games' envs with the full observation layout (one block per zone of the view)."""
    return {name: env(e.game, players=e.players, seed=1, observation="full") for name, e in envs.items()}


@pytest.fixture
def peek(tmp_path):
    p = tmp_path / "peek.tav"
    p.write_text(PEEK)
    return str(p)


def random_agent(e, rng):
    obs, _, term, trunc, _ = e.last()
    if term or trunc:
        return None
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize("name", list(GAMES))
def test_api_test(name, envs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on dict observations is only advice
        api_test(envs[name], num_cycles=1000)


@pytest.mark.parametrize("name", list(GAMES))
def test_seed_test(name, envs):
    game = envs[name].game
    seed_test(lambda: env(game, GAMES[name], seed=1), num_cycles=300)


def test_seeds_matter(envs):
    """seed_test would pass for an env that ignores its seed: the seed must change the game."""
    e = envs["tavern_masters"]
    firsts = set()
    for s in (1, 2, 3):
        e.reset(seed=s)
        firsts.add(e.observe(e.agent_selection)["observation"].tobytes())
    assert len(firsts) > 1


@pytest.mark.parametrize("name", list(GAMES))
def test_the_env_plays_the_engines_game(name, envs):
    """Action i is the engine's legal option i: the bots' choices played through the env give
    the same game as `tav run` (play_bots), and the rewards follow its winners."""
    e = envs[name]
    seed = 4
    m = Match(e.game, e.players, seed, log=False)
    play_bots(m)
    e.reset(seed=seed)
    rng = bot_rng(seed)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        k = int(obs["action_mask"].sum())
        assert k == len(e.legal_labels()) and obs["action_mask"][:k].all()
        e.step(bot_pick(rng, k))
        steps += 1
    assert steps == len(m.choices)
    assert e.match.result["scores"] == m.result["scores"]
    assert not e.agents
    winners = {f"player_{p + 1}" for p in m.result["winners"]}
    # rewards reach each agent through last() at its final step: replay and collect them
    e.reset(seed=seed)
    rng = bot_rng(seed)
    got = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            got[agent] = reward
            assert set(info["winners"]) == winners
            e.step(None)
        else:
            e.step(bot_pick(rng, int(obs["action_mask"].sum())))
    assert got == {a: (1 if a in winners else 0) for a in e.possible_agents}


def test_score_rewards(peek):
    e = env(peek, players=2, seed=3, reward="score")
    e.reset()
    got = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            got[agent] = reward
            e.step(None)
        else:
            e.step(0)
    assert got == {"player_1": e.match.result["scores"][0], "player_2": e.match.result["scores"][1]}
    assert sorted(got.values()) != [0, 0]


@pytest.mark.parametrize("observation", ["compact", "full"])
def test_observation_hides_what_the_agent_may_not_see(peek, observation):
    """Two games that differ only in cards hidden from player 1 (player 2's hand, the deck)
    give player 1 the same observation, and player 2 different ones, in either layout."""
    e = env(peek, players=2, observation=observation)
    by_hand: dict = {}
    for s in range(1, 300):
        e.reset(seed=s)
        full = e.match.view(None)["zones"]
        key = tuple(sorted(full["hand of P1"]))
        other = tuple(sorted(full["hand of P2"]))
        o1 = e.observe("player_1")["observation"]
        o2 = e.observe("player_2")["observation"]
        for other2, (p1, p2) in by_hand.get(key, {}).items():
            if other2 != other:
                assert np.array_equal(p1, o1), f"seed {s}: player_1 sees a difference in cards hidden from it"
                assert not np.array_equal(p2, o2)
                break
        else:
            by_hand.setdefault(key, {})[other] = (o1, o2)
            continue
        break
    else:
        pytest.fail("no two deals with the same hand of P1 and different hands of P2")
    # and it does see its own hand: another hand of P1 changes its observation
    hands = list(by_hand)
    if len(hands) > 1:
        a, b = (next(iter(by_hand[h].values()))[0] for h in hands[:2])
        assert not np.array_equal(a, b)


def test_no_names_of_cards_in_another_players_hand(full_envs):
    """Tavern Masters' hands are private: player 1's observation of P2's hand counts only hidden
    cards, as many as P2 holds, and names none; P2's own observation names them."""
    e = full_envs["tavern_masters"]
    e.reset(seed=2)
    lay = e.observation_layout()
    feats = lay["zone_features"]
    hidden = feats.index("hidden")
    block = lay["zones"]["hand of P2"]
    held = len(e.match.view(None)["zones"]["hand of P2"])
    assert held > 0
    mine = e.observe("player_1")["observation"][block]
    assert mine[hidden] == held and not mine[:hidden].any()
    theirs = e.observe("player_2")["observation"][block]
    assert theirs[hidden] == 0 and theirs[:len(lay["zone_features"]) - 2].sum() > 0


def test_observation_layout_reads_the_view(full_envs):
    e = full_envs["little_tavern"]
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(10):
        e.step(random_agent(e, rng))
    lay = e.observation_layout()
    obs = e.observe("player_2")["observation"]
    view = e.match.view(1)
    assert list(obs[lay["counters"]["coins"]]) == view["counters"]["coins"]
    assert lay["per_player_counters"] == ["coins"]
    assert obs[lay["me"]].tolist() == [0, 1]
    assert obs[lay["round"]] == view["round"]
    names = lay["zone_features"]
    for zone, cards in view["zones"].items():
        block = obs[lay["zones"][zone]]
        for label in set(cards):
            name = label.split(" (")[0] if label not in names else label
            if label != "?":
                assert block[names.index(name)] >= cards.count(label)
        assert block[names.index("hidden")] == cards.count("?")
    assert e.observation_space("player_2")["observation"].shape == obs.shape


def test_die_faces_are_summed(full_envs):
    """A var attribute a label shows (a die's face) is summed per zone."""
    e = full_envs["taverns_of_tiefenthal"]
    e.reset(seed=1)
    lay = e.observation_layout()
    if "value" not in lay["zone_features"]:
        pytest.skip("no die values in this game's labels")
    i = lay["zone_features"].index("value")
    view = e.match.view(0)
    obs = e.observe("player_1")["observation"]
    summed = 0
    for zone, cards in view["zones"].items():
        want = sum(int(c.split("value ")[1].split(",")[0].rstrip(")")) for c in cards if "(value " in c)
        if zone in lay["zones"]:
            assert obs[lay["zones"][zone]][i] == want
            summed += want
    assert summed > 0


def test_the_action_space_is_a_bound_read_from_the_rules(peek, envs):
    """Peek's one decision is a choice among a hand's cards: at most its 5 cards. Little Tavern's
    decisions are all bounded too (its 58 cards); a game whose decisions are all played at 5
    players within that bound (the env stops at one that is not)."""
    assert env(peek, players=2).max_actions == 5
    lt = env(envs["little_tavern"].game, players=5, seed=1)
    assert lt.action_bound == lt.max_actions == 58 and lt.bound_reasons == []
    rng = np.random.default_rng(0)
    for s in (1, 2):
        lt.reset(seed=s)
        for _ in lt.agent_iter():
            lt.step(random_agent(lt, rng))


def test_the_action_space_is_capped_where_no_bound_is_read(envs):
    from tavernlang.pettingzoo import DEFAULT_MAX_ACTIONS
    tm = envs["tavern_masters"]
    assert tm.action_bound is None and tm.max_actions == DEFAULT_MAX_ACTIONS
    assert any("choose number" in r and "tavern_masters.tav:" in r for r in tm.bound_reasons)


def test_too_small_an_action_space_says_what_to_pass(envs):
    e = env(envs["little_tavern"].game, players=2, seed=1, max_actions=2)
    with pytest.raises(GameError, match=r"max_actions=\d+ or more"):
        e.reset()
        rng = np.random.default_rng(0)
        for _ in e.agent_iter(2000):
            e.step(random_agent(e, rng))


def test_illegal_actions_and_bad_arguments(envs, peek):
    e = env(peek, players=2, seed=1)
    e.reset()
    with pytest.raises(ValueError, match="not legal"):
        e.step(4)
    with pytest.raises(ValueError, match="observation must be one of compact, full"):
        env(peek, players=2, observation="tiny")
    with pytest.raises(ValueError, match="illegal_reward must be a number"):
        env(peek, players=2, illegal_reward="lose")
    with pytest.raises(ValueError, match="for 2 to 2 players"):
        env(peek, players=3)
    with pytest.raises(ValueError, match="reward"):
        env(peek, players=2, reward="money")
    with pytest.raises(ValueError, match="has no option 'nope'"):
        env(peek, players=2, options={"nope": 1})
    ct = envs["cavern_tavern"].game
    with pytest.raises(ValueError, match="one of .*Story"):
        env(ct, players=1, options={"solo_mode": "story"})
    with pytest.raises(ValueError, match="true or false"):
        env(ct, players=1, options={"secret_chamber": "yes"})
    with pytest.raises(GameError, match="outside its range 1..500"):
        env(ct, players=1, options={"solo_goal": 501})


def test_options_change_the_game(envs):
    plain = env(game_path("cavern_tavern"), players=1, seed=1)
    story = env(game_path("cavern_tavern"), players=1, seed=1, options={"solo_mode": "Story"})
    assert plain.observation_space("player_1") == story.observation_space("player_1")  # same layout
    games = []
    for e in (plain, story):
        e.reset()
        rng = bot_rng(1)
        for _ in e.agent_iter():
            obs, _, term, _, _ = e.last()
            e.step(None if term else bot_pick(rng, int(obs["action_mask"].sum())))
        games.append((e.match.options, len(e.match.choices), e.match.result))
    assert games[0][0] == {} and games[1][0] == {"solo_mode": "Story"}
    assert games[0][1:] != games[1][1:]


def test_render_ansi(peek):
    e = env(peek, players=2, seed=1, render_mode="ansi")
    e.reset()
    text = e.render()
    assert "player_1 to choose (play)" in text and "0: " in text
    e.step(0)
    text = e.render()
    assert "P1 chooses" in text  # the log since the last render
    with pytest.warns(UserWarning, match="render_mode"):
        assert env(peek, players=2).render() is None  # no render mode: a warning, no text


def test_fork_is_independent(envs):
    e = envs["little_tavern"]
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(5):
        e.step(random_agent(e, rng))
    f = e.fork()
    before = e.observe(e.agent_selection)["observation"].copy()
    assert np.array_equal(f.observe(f.agent_selection)["observation"], before)
    f.step(random_agent(f, rng))
    assert np.array_equal(e.observe(e.agent_selection)["observation"], before)
    assert len(f.match.choices) == len(e.match.choices) + 1


def test_state_is_the_whole_table_in_the_full_layout(full_envs):
    """state(): every card counted by name, none as hidden (Tavern Masters' hands and decks
    included), no seat marked as `me`; each agent's full observation of the same moment hides
    some."""
    from pettingzoo.test.state_test import test_state_space
    e = full_envs["tavern_masters"]
    assert e.state_layout() == e.observation_layout()
    with pytest.raises(AssertionError, match="reset"):
        env(e.game, players=2).state()
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(8):
        e.step(random_agent(e, rng))
    lay = e.observation_layout()
    state = e.state()
    assert e.state_space.contains(state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (advice on unbounded counters is only advice)
        test_state_space(e)
    assert not state[lay["me"]].any()
    feats = lay["zone_features"]
    hidden, names = feats.index("hidden"), len({cd.name for cd in e.game.model.cards})  # (names come first)
    full = e.match.view(None)["zones"]
    for zone, block in lay["zones"].items():
        cards = full.get(zone, [])
        assert state[block][hidden] == 0
        assert state[block][:names].sum() == len(cards), zone
    assert sum(len(c) for c in full.values()) > 0
    for agent in e.possible_agents:
        obs = e.observe(agent)["observation"]
        assert not np.array_equal(obs, state)
        assert sum(obs[block][hidden] for block in lay["zones"].values()) > 0
    assert np.array_equal(e.fork().state(), state)



def test_example_runs():
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "pettingzoo_agents.py"), "--games", "2"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "greedy" in out.stdout and "random" in out.stdout


def _shipped_games():
    files = sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "examples").rglob("*.tav"))
    return [str(f.relative_to(ROOT)) for f in files]


@pytest.mark.slow
@pytest.mark.parametrize("rel", _shipped_games())
def test_every_shipped_game_passes_api_test(rel):
    """Every game and house rule shipped, at its smallest and largest player count, for the
    first 60 rounds of turns (any rules file, no game-specific code)."""
    from tavernlang import compile_file
    game = compile_file(str(ROOT / rel))
    if game.model.rounds is None:
        pytest.skip("no rounds: nothing to play")
    for n in sorted({game.min_players, game.max_players}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env(game, players=n, seed=1), num_cycles=60)
