"""Whole games of every seed game: they end, conserve components, repeat by seed,
and save/load mid-game without changing what happens."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tavernlang import Match, compile_file, playout

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.tav"))
# random games per player count, and games stepped decision by decision for conservation;
# a long game gets fewer (its options are covered by its own test module)
BUDGET = {"little_tavern": (200, 15), "cavern_tavern": (12, 2)}


@pytest.fixture(scope="module", params=GAMES, ids=lambda p: p.stem)
def game(request):
    g = compile_file(request.param)
    g.test_budget = BUDGET.get(request.param.stem, (30, 3))
    return g


def _counts(game):
    return range(game.min_players, game.max_players + 1)


def test_random_games_at_every_player_count_end_with_winners(game):
    games = game.test_budget[0]
    for n in _counts(game):
        lengths = set()
        for seed in range(games):
            r = playout(game, n, seed)
            # a ranked game always has a winner; a goal (solo, cooperative) may be missed
            assert r["winners"] or game.guarded_winners or game.winner_everyone, f"{n} players, seed {seed}: no winner"
            assert len(r["scores"]) == n
            lengths.add((r["decisions"], tuple(r["scores"])))
        assert len(lengths) > games // 2, "random games should differ"


def _check_conservation(match: Match, total: int):
    st = match.st
    seen = [0] * total
    for z, cards in enumerate(st.zones):
        cap = st.cap[z]
        assert cap is None or len(cards) <= cap, f"zone {z} holds {len(cards)} > capacity {cap}"
        for c in cards:
            assert st.loc[c] == z
            seen[c] += 1
    assert seen == [1] * total, "a card was created, lost or duplicated"


def test_no_component_is_created_or_lost(game):
    total = game.ncards
    for n in _counts(game):
        for seed in range(game.test_budget[1]):
            m = Match(game, n, seed, log=False)
            rng = random.Random(seed)
            steps = 0
            while not m.over:
                _check_conservation(m, total)
                m.apply(rng.randrange(len(m.pending.options)))
                steps += 1
            _check_conservation(m, total)
            assert steps > 0


def test_same_seed_same_game(game):
    n = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    for seed in (1, 7, 123):
        a = Match(game, n, seed)
        b = Match(game, n, seed)
        from tavernlang.engine.runner import play_bots
        play_bots(a)
        play_bots(b)
        assert a.log_lines() == b.log_lines()
        assert a.result == b.result
        # the fast path plays the very same game
        r = playout(game, n, seed)
        assert r["scores"] == a.result["scores"] and r["winners"] == a.result["winners"]
        assert r["decisions"] == len(a.choices)
    assert playout(game, n, 1)["decisions"] != playout(game, n, 2)["decisions"] or \
        playout(game, n, 1)["scores"] != playout(game, n, 2)["scores"]


def test_save_and_load_mid_game_round_trips(game, tmp_path):
    n = game.min_players
    for seed in (3, 4):
        rng = random.Random(seed)
        full = Match(game, n, seed)
        picks = []
        while not full.over:
            i = rng.randrange(len(full.pending.options))
            picks.append(i)
            full.apply(i)
        cut = len(picks) // 2
        part = Match(game, n, seed)
        for i in picks[:cut]:
            part.apply(i)
        path = tmp_path / "save.json"
        path.write_text(json.dumps(part.save("rules.tav")))
        resumed = Match.load(game, json.loads(path.read_text()))
        assert resumed.legal() == part.legal()
        assert resumed.to_act() == part.to_act()
        assert resumed.view(0) == part.view(0)
        for i in picks[cut:]:
            resumed.apply(i)
        assert resumed.over
        assert resumed.log_lines() == full.log_lines()
        assert resumed.result == full.result


def test_a_players_view_hides_what_they_may_not_see(game):
    m = Match(game, game.min_players, 5)
    from tavernlang.engine.runner import play_bots  # noqa: F401
    # every hidden zone, shared ("deck") or one of a player's ("deck of P2")
    hidden_zones = [game._zone_label(z, m.st.n) for z in range(len(m.st.zones))
                    if game.zone_vis[m.st.zfamily[z]] == "hidden"]
    v = m.view(0)
    for z, cards in enumerate(m.st.zones):
        name = game._zone_label(z, m.st.n)
        if name in hidden_zones:  # only what P1 was shown (a revealed card still on its pile) is seen
            shown = [c for c in v["zones"][name] if c != "?"]
            assert len(shown) == sum(1 for c in cards if m.st.seen[c] & 1)
    omni = m.view(None)
    for name in hidden_zones:
        assert any(c != "?" for c in omni["zones"][name]) or not omni["zones"][name]
