"""tavernlang.pettingzoo's observations: the compact layout (the default) and the full one,
what each number means, and that neither shows a card the seat may not see."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavernlang import compile_file
from tavernlang.pettingzoo import env

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def games():
    return {name: compile_file(str(ROOT / "games" / f"{name}.tav"))
            for name in ("little_tavern", "tavern_masters", "taverns_of_tiefenthal", "cavern_tavern")}


def play(e, steps: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    for _ in range(steps):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_the_compact_layout_is_the_default_and_smaller_where_cards_hold_zones(games):
    """Tiefenthal's and Cavern Tavern's cards each hold zones: the compact layout counts those
    together, so it is far smaller than the full one; a game whose cards hold none is the same
    size either way."""
    for name, at_most in (("taverns_of_tiefenthal", 0.15), ("cavern_tavern", 0.6)):
        compact, full = env(games[name], players=2), env(games[name], players=2, observation="full")
        assert compact.observation_kind == "compact"
        c = compact.observation_space("player_1")["observation"].shape[0]
        f = full.observation_space("player_1")["observation"].shape[0]
        assert c < at_most * f, (name, c, f)
    lt = games["little_tavern"]
    assert (env(lt, players=2).observation_space("player_1")["observation"].shape
            == env(lt, players=2, observation="full").observation_space("player_1")["observation"].shape)


@pytest.mark.parametrize("observation", ["compact", "full"])
def test_every_number_of_the_observation_has_a_name(games, observation):
    e = env(games["taverns_of_tiefenthal"], players=2, observation=observation)
    names = e.observation_features()
    assert len(names) == e.observation_space("player_1")["observation"].shape[0]
    assert len(set(names)) == len(names) and all(names)
    assert names[:2] == ["me=P1", "me=P2"] and "round" in names
    assert "points[P2]" in names and "display: hidden" in names
    assert "display: Table" in names and "display: kind Table" in names  # (a card named as its kind)


def test_the_features_read_the_view(games):
    """Each named number of a compact observation is what the seat's view shows: its seat,
    the round, counters, and per zone the cards by name and kind and the hidden ones."""
    e = env(games["little_tavern"], players=2, seed=1)
    play(e, 12, seed=1)
    view = e.match.view(1)
    obs = dict(zip(e.observation_features(), e.observe("player_2")["observation"].tolist()))
    assert obs["me=P2"] == 1 and obs["me=P1"] == 0
    assert obs["round"] == view["round"]
    assert [obs["coins[P1]"], obs["coins[P2]"]] == view["counters"]["coins"]
    kind_of = {cd.name: cd.kind for cd in e.game.model.cards}
    for zone, cards in view["zones"].items():
        assert obs[f"{zone}: hidden"] == cards.count("?")
        for name in {c for c in cards if c != "?"}:
            assert obs[f"{zone}: {name}"] == cards.count(name)
        for kind in set(kind_of.values()):
            assert obs[f"{zone}: kind {kind}"] == sum(1 for c in cards if kind_of.get(c) == kind)


def test_the_zones_cards_hold_are_counted_together(games):
    """Tiefenthal's `dice of <card>` zones (one per card) make one block, `dice of cards`, that
    counts every die any card holds; the full layout keeps a block per card."""
    e = env(games["taverns_of_tiefenthal"], players=2, seed=3)
    play(e, 60, seed=3)
    lay = e.observation_layout()
    assert "dice of cards" in lay["zones"] and not any(z.startswith("dice of ") and z != "dice of cards"
                                                       for z in lay["zones"])
    feats = lay["zone_features"]
    kinds = [k for k in e.game.model.kinds if k in feats]
    for agent in e.possible_agents:
        p = e.agent_name_mapping[agent]
        view = e.match.view(p)
        for family in ("dice", "guests", "removed", "signatures"):
            held = sum(len(c) for z, c in view["zones"].items() if z.startswith(f"{family} of "))
            block = e.observe(agent)["observation"][lay["zones"][f"{family} of cards"]]
            assert sum(block[feats.index(k)] for k in kinds) + block[feats.index("hidden")] == held, family
    full = env(e.game, players=2, observation="full")
    assert sum(z.startswith("dice of ") for z in full.observation_layout()["zones"]) > 1


def test_compact_observations_name_no_card_in_another_players_hand(games):
    """Tavern Masters' hands are private: player 1's compact observation of P2's hand counts as
    many hidden cards as P2 holds and names none; P2's own names them and hides none."""
    e = env(games["tavern_masters"], players=2, seed=2)
    e.reset(seed=2)
    lay = e.observation_layout()
    feats = lay["zone_features"]
    hidden = feats.index("hidden")
    held = len(e.match.view(None)["zones"]["hand of P2"])
    assert held > 0
    mine = e.observe("player_1")["observation"][lay["zones"]["hand of P2"]]
    assert mine[hidden] == held and not mine[:hidden].any() and not mine[hidden + 1:].any()
    theirs = e.observe("player_2")["observation"][lay["zones"]["hand of P2"]]
    assert theirs[hidden] == 0 and theirs[:hidden].sum() > 0


@pytest.mark.parametrize("observation", ["compact", "full"])
@pytest.mark.parametrize("name", ["little_tavern", "tavern_masters", "taverns_of_tiefenthal", "cavern_tavern"])
def test_observations_are_the_views_and_nothing_more(games, name, observation):
    """Along a played game of every seed game, in either layout, what a seat observes depends
    only on its view: cards the view shows as hidden add only to `hidden`, never to a name or a
    kind. (What a view may show is the secrecy oracle's: test_secrecy.py.)"""
    e = env(games[name], players=2, seed=4, observation=observation)
    play(e, 0, seed=4)
    rng = np.random.default_rng(4)
    feats = e.observation_layout()["zone_features"]
    hidden = feats.index("hidden")
    enc = e._enc
    for _ in range(40):
        for agent in e.possible_agents:
            p = e.agent_name_mapping[agent]
            view = e.match.view(p)
            got = e.observe(agent)["observation"]
            assert np.array_equal(got, enc.encode(view, p))
            blank = {**view, "zones": {z: ["?"] * len(c) for z, c in view["zones"].items()}}
            only_hidden = enc.encode(blank, p)
            for block in e.observation_layout()["zones"].values():
                b = only_hidden[block]
                assert not b[:hidden].any() and not b[hidden + 1:].any()
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
