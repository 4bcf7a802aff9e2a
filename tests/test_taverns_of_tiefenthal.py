"""The Taverns of Tiefenthal as whole games: 2 to 4 players, with and without Modules 3 and 5,
the original game and the online adaptation. (Its rulebook's rules are scenarios in
tests/scenarios/taverns_of_tiefenthal/; tests/test_games.py runs the generic checks.)"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import Match, compile_file, playout
from tavernlang.cli import main

GAME = Path(__file__).resolve().parent.parent / "games" / "taverns_of_tiefenthal.tav"
ONLINE = {"auto_dishwashers": True, "serve_early": True, "unlimited": True, "hidden_refill": True}
MODULES = [(False, False), (True, False), (False, True), (True, True)]


def _options(m3: bool, m5: bool, online: bool) -> dict:
    return {"reputation_module": m3, "guest_book": m5, **(ONLINE if online else {})}


def _id(n, m3, m5, online):
    mods = "+".join(x for x, on in (("M3", m3), ("M5", m5)) if on) or "base"
    return f"{n}p-{mods}-{'online' if online else 'original'}"


MODES = [
    pytest.param(n, _options(m3, m5, online), id=_id(n, m3, m5, online))
    for n in (2, 3, 4) for m3, m5 in MODULES for online in (False, True)
] + [
    pytest.param(n, {"place_all": False, "rearrange": False}, id=f"{n}p-rulings-off") for n in (2, 4)
]


@pytest.fixture(scope="module")
def game():
    return compile_file(GAME)


def _check_games(game, n, options, seeds):
    lengths = set()
    for seed in seeds:
        r = playout(game, n, seed, options)
        assert r["rounds"] == 8, f"seed {seed}: {r['rounds']} turns"
        assert len(r["scores"]) == n and r["winners"], f"seed {seed}: a ranked game has a winner"
        lengths.add((r["decisions"], tuple(r["scores"])))
    assert len(lengths) > 1, "random games should differ"


@pytest.mark.parametrize("n, options", MODES)
def test_every_count_and_module_plays_eight_turns(game, n, options):
    _check_games(game, n, options, range(3))


@pytest.mark.slow
@pytest.mark.parametrize("n, options", MODES)
def test_many_random_games_end(game, n, options):
    _check_games(game, n, options, range(3, 13))


def _cards_in_zones(m: Match) -> list[int]:
    seen = [0] * m.game.ncards
    for cards in m.st.zones:
        for c in cards:
            seen[c] += 1
    return seen


@pytest.mark.parametrize("n, options", [MODES[0], MODES[-1]])
def test_no_card_is_created_or_lost(game, n, options):
    m = Match(game, n, 11, options, log=False)
    rng = random.Random(11)
    while not m.over:
        assert _cards_in_zones(m) == [1] * game.ncards, "a card was created, lost or duplicated"
        m.apply(rng.randrange(len(m.pending.options)))
    assert _cards_in_zones(m) == [1] * game.ncards


@pytest.mark.parametrize("n, options", [MODES[2], MODES[-3]])
def test_same_seed_same_game_and_save_resumes(game, n, options, save_resume):
    from tavernlang.engine.runner import play_bots
    bots = Match(game, n, 5, options)
    play_bots(bots)
    r = playout(game, n, 5, options)  # the fast path plays the same game
    assert r["decisions"] == len(bots.choices) and r["scores"] == bots.result["scores"]
    save_resume(game, GAME, n, 5, options)


def test_hidden_decks_stay_hidden(game):
    """Nobody sees into another player's deck or the Guest deck; a card put on your own deck
    is known to you (and to no one else) until your deck is shuffled."""
    m = Match(game, 3, 2, {"reputation_module": True})
    rng = random.Random(2)
    own_known = 0
    while not m.over:
        for p in range(3):
            v = m.view(p)
            assert all(c == "?" for c in v["zones"]["guest_deck"])
            for q in range(3):
                deck = v["zones"][f"deck of P{q + 1}"]
                if q != p:
                    assert all(c == "?" for c in deck), (p, q, deck)
                else:
                    own_known += sum(c != "?" for c in deck)
        m.apply(rng.randrange(len(m.pending.options)))
    assert own_known > 0, "a player knows the cards they put on their own deck"


@pytest.mark.parametrize("args", [["-p", "2"], ["-p", "4", "-o", "reputation_module=true", "-o", "guest_book=true"],
                                  ["-p", "3", "-o", "serve_early=true", "-o", "auto_dishwashers=true"]])
def test_tav_run_finishes(args):
    r = CliRunner().invoke(main, ["run", str(GAME), "--seed", "3", *args])
    assert r.exit_code == 0, r.output
    assert "8 rounds" in r.output


def test_tav_info_lists_the_modules_and_online_options():
    r = CliRunner().invoke(main, ["info", str(GAME)])
    assert r.exit_code == 0, r.output
    for name in ("reputation_module", "guest_book", "auto_dishwashers", "serve_early", "unlimited", "hidden_refill"):
        assert name in r.output
    assert "2 to 4 players" in r.output


def test_each_tile_says_what_it_yields_before_what_its_upgrade_costs(game):
    st = game.new_state(2, 1)
    texts = {game.card_name[c]: game.card_text(c, st) for c in range(game.ncards) if game.card_kind[c] == "Tile"}
    assert texts["Cashbox"].startswith("An action space for any die: 1 Thaler for each die removed (upgraded: 3).")
    assert texts["Safe"].startswith("Keep up to 2 Thalers")
    assert all(t.index("Upgrade (") > 0 for t in texts.values())  # (the cost after what it does)
