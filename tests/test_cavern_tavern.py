"""Cavern Tavern as whole games, under every mode: 1 to 6 players, with and without the
Secret Chamber, solo Standard and Story. (Its rulebook examples are scenarios in
tests/scenarios/cavern_tavern/; tests/test_games.py runs the base game's generic checks.)"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import Match, compile_file, playout
from tavernlang.cli import main

GAME = Path(__file__).resolve().parent.parent / "games" / "cavern_tavern.tav"
MODES = [
    pytest.param(n, {"secret_chamber": sc}, id=f"{n}p-{'chamber' if sc else 'base'}")
    for n in range(2, 7) for sc in (False, True)
] + [
    pytest.param(1, {"secret_chamber": sc, "solo_mode": mode}, id=f"solo-{mode}-{'chamber' if sc else 'base'}")
    for mode in ("Standard", "Story") for sc in (False, True)
]


@pytest.fixture(scope="module")
def game():
    return compile_file(GAME)


def _total_cards(m: Match) -> int:
    return sum(len(z) for z in m.st.zones)


@pytest.mark.parametrize("n, options", MODES)
def test_random_games_end_after_ten_rounds(game, n, options):
    lengths = set()
    for seed in range(4):
        r = playout(game, n, seed, options)
        assert r["rounds"] == 10, f"seed {seed}: {r['rounds']} rounds"
        assert len(r["scores"]) == n
        lengths.add(r["decisions"])
        if n > 1:
            assert r["winners"], f"seed {seed}: a ranked game has a winner"
    assert len(lengths) > 1, "random games should differ"


@pytest.mark.parametrize("n, options", [MODES[3], MODES[-1]])
def test_nothing_is_created_or_lost(game, n, options):
    m = Match(game, n, 11, options, log=False)
    rng = random.Random(11)
    total = game.ncards
    while not m.over:
        st = m.st
        seen = [0] * total
        for z, cards in enumerate(st.zones):
            assert st.cap[z] is None or len(cards) <= st.cap[z], game.zone_name(z, st)
            for c in cards:
                seen[c] += 1
        assert seen == [1] * total, "a card was created, lost or duplicated"
        m.apply(rng.randrange(len(m.pending.options)))


@pytest.mark.parametrize("n, options", [MODES[5], MODES[-2]])
def test_same_seed_same_game_and_save_resumes(game, n, options, save_resume):
    from tavernlang.engine.runner import play_bots
    bots = Match(game, n, 5, options)
    play_bots(bots)
    r = playout(game, n, 5, options)  # the fast path plays the same game as the decision-by-decision one
    assert r["decisions"] == len(bots.choices) and r["scores"] == bots.result["scores"]
    save_resume(game, GAME, n, 5, options)


def test_solo_goal_decides_standard_mode(game):
    # a solo game is won exactly when the points reach the goal
    won = 0
    for seed in range(12):
        r = playout(game, 1, seed, {"solo_goal": 1})
        assert r.get("rule") == 0, "the solo rule decides"
        assert (r["winners"] == [0]) == (r["scores"][0] >= 1), (seed, r)
        won += r["winners"] == [0]
        assert playout(game, 1, seed, {"solo_goal": 500})["winners"] == []
    assert 0 < won < 12


def test_secret_information_stays_secret(game):
    m = Match(game, 3, 2, {"secret_chamber": True})
    while m.st.round < 2 and not m.over:
        m.apply(0)
    v = m.view(0)
    for other in (1, 2):
        for zone in (f"secret of P{other + 1}", f"items of P{other + 1}"):
            assert all(c == "?" for c in v["zones"].get(zone, [])), zone
    assert all(c == "?" for c in v["zones"]["order_deck"])


@pytest.mark.parametrize("args", [["-p", "4"], ["-p", "1", "-o", "solo_mode=Story"], ["-p", "6", "-o", "secret_chamber=true"]])
def test_tav_run_finishes(args):
    r = CliRunner().invoke(main, ["run", str(GAME), "--seed", "2", *args])
    assert r.exit_code == 0, r.output
    assert "10 rounds" in r.output


@pytest.mark.parametrize("n", [2, 5])
def test_no_turn_ends_while_a_die_could_still_be_placed(game, n):
    """In random games: whenever Place Dice is offered, ending the turn ("pass") is not; and
    once a player has placed this turn, Place Dice is not offered again in that turn."""
    rng = random.Random(n)
    m = Match(game, n, n, {"secret_chamber": True})
    offered = passed = 0
    while not m.over:
        d = m.pending
        labels = d.labels()
        if d.prompt == "your turn: choose an action":
            if "Place Dice" in labels:
                assert "pass" not in labels, labels
                assert "place_dice" not in m.st.turn_used, "a second Place Dice in one turn"
                offered += 1
            if "pass" in labels:
                passed += 1
        m.apply(rng.randrange(len(labels)))
    assert offered > 20 and passed > 5


def test_a_save_with_its_rules_text_resumes_identically_and_keeps_hands_hidden(game):
    """A game saved with its rules text after 150 decisions resumes offering the same decisions
    to the same end; another player's Items, Secret Task and drawn cards stay hidden in views."""
    text = game.model.sources.all_text()
    m = Match(game, 3, 4, {"secret_chamber": True})
    r = random.Random(4)
    while len(m.choices) < 150:
        m.apply(r.randrange(len(m.pending.options)))
    m2 = Match.load(game, json.loads(json.dumps(m.save("x", text))), rules_text=text)
    r1, r2 = random.Random(9), random.Random(9)
    while not m.over:
        assert m.legal() == m2.legal()
        m.apply(r1.randrange(len(m.pending.options)))
        m2.apply(r2.randrange(len(m2.pending.options)))
    assert m2.over and m.result == m2.result and m.log_lines() == m2.log_lines()
    for p in range(3):
        for z, cards in m.view(p)["zones"].items():
            if z.startswith(("items of", "secret of", "looking of")) and not z.endswith(f"P{p + 1}"):
                assert set(cards) <= {"?"}, (p, z, cards)


def test_a_space_says_what_it_gives_not_its_own_name_again(game):
    st = game.new_state(2, 1)
    talk = game.card_name.index("Talk to Nasty")
    text = game.card_text(talk, st)
    assert "Talk to Nasty" not in text and "Nasty track" in text


def test_a_cellar_space_takes_dice_of_a_total_not_one_die_of_a_value(game):
    st = game.new_state(2, 1)
    text = game.card_text(game.card_name.index("Liqueur or Spirits"), st)
    assert text.startswith("Place dice of total value 6 (one die or more)")
