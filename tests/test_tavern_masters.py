"""Tavern Masters as whole games, in every mode: competitive 2 to 5 players, cooperative 2 to
5, solo; Day and Night at the same time or one player at a time. (The rules' cases are
scenarios in tests/scenarios/tavern_masters/; tests/test_games.py runs the generic checks at
the default options.)"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import Match, compile_file, playout
from tavernlang.cli import main
from tavernlang.engine.runner import play_bots

GAME = Path(__file__).resolve().parent.parent / "games" / "tavern_masters.tav"
CHART = {"Buzzed": 6, "Tipsy": 5, "Sloshed": 4, "Hammered": 3, "Wasted": 2}
MODES = (
    [pytest.param(n, {}, id=f"{n}p-competitive") for n in range(2, 6)]
    + [pytest.param(n, {"cooperative": True}, id=f"{n}p-cooperative") for n in range(2, 6)]
    + [pytest.param(1, {}, id="solo")]
    + [pytest.param(n, {"timing": "OneAtATime"}, id=f"{n}p-one-at-a-time") for n in (2, 4)]
    + [pytest.param(3, {"cooperative": True, "timing": "OneAtATime"}, id="3p-cooperative-one-at-a-time")]
    + [pytest.param(3, {"still_tied": "PlayOn", "mulligans": 3, "offers_per_day": 3}, id="3p-play-on")]
)


@pytest.fixture(scope="module")
def game():
    return compile_file(GAME)


def _competitive(n, options):
    return n > 1 and not options.get("cooperative")


def _var(m: Match, name: str):
    return m.st.vars[m.game.var_slots[name]][0]


@pytest.mark.parametrize("n, options", MODES)
def test_random_games_end(game, n, options):
    lengths = set()
    for seed in range(6):
        r = playout(game, n, seed, options)
        lengths.add(r["decisions"])
        assert len(r["scores"]) == n
        if _competitive(n, options):
            assert r["winners"], f"seed {seed}: a competitive game has a winner"
        else:
            assert r["rounds"] == CHART["Buzzed"], f"seed {seed}: {r['rounds']} rounds"
            assert (r["winners"] == list(range(n))) == (min(r["scores"]) >= 20), r
    assert len(lengths) > 1, "random games should differ"


@pytest.mark.parametrize("level", sorted(CHART))
def test_the_challenge_chart_sets_the_rounds(game, level):
    for n, options in ((1, {}), (3, {"cooperative": True})):
        r = playout(game, n, 2, {**options, "challenge": level})
        assert r["rounds"] == CHART[level]


def test_competitive_games_end_at_20_gold_or_after_the_one_more_round(game):
    ties = 0
    for seed in range(30):
        m = Match(game, 3, seed, log=False)
        play_bots(m)
        scores = m.result["scores"]
        best = max(scores)
        assert m.result["winners"] == [p for p, s in enumerate(scores) if s == best]
        if _var(m, "one_more_round"):
            ties += 1  # ended after the one more round (the Gold may have been spent meanwhile)
        else:
            assert best >= 20 and scores.count(best) == 1, (seed, scores)
    assert ties < 30


def test_random_bots_trade(game):
    m = Match(game, 4, 3)
    play_bots(m)
    lines = m.log_lines()
    assert any("chooses 'accept'" in line for line in lines), "some trade is accepted"
    assert any("chooses 'decline'" in line for line in lines), "some trade is declined"


@pytest.mark.parametrize("n, options", [(4, {}), (3, {"cooperative": True, "timing": "OneAtATime"}), (1, {})])
def test_nothing_is_created_or_lost(game, n, options):
    m = Match(game, n, 11, options, log=False)
    rng = random.Random(11)
    total = game.ncards
    while not m.over:
        seen = [0] * total
        for cards in m.st.zones:
            for c in cards:
                seen[c] += 1
        assert seen == [1] * total, "a card was created, lost or duplicated"
        m.apply(rng.randrange(len(m.pending.options)))


@pytest.mark.parametrize("n, options", [(3, {}), (2, {"timing": "OneAtATime"})])
def test_same_seed_same_game_and_save_resumes(game, n, options, save_resume):
    bots = Match(game, n, 5, options)
    play_bots(bots)
    r = playout(game, n, 5, options)  # the fast path plays the same game as the decision-by-decision one
    assert r["decisions"] == len(bots.choices) and r["scores"] == bots.result["scores"]
    again = Match(game, n, 5, options)
    play_bots(again)
    assert again.log_lines() == bots.log_lines()
    save_resume(game, GAME, n, 5, options)


def test_the_two_timings_play_differently(game):
    same = [playout(game, 3, s)["decisions"] == playout(game, 3, s, {"timing": "OneAtATime"})["decisions"]
            for s in range(6)]
    assert not all(same)


def _step_until(m: Match, header: str) -> None:
    while not m.over and header not in m.log_lines():
        m.apply(0)


@pytest.mark.parametrize("timing", ["AtTheSameTime", "OneAtATime"])
def test_hidden_hands_stay_hidden(game, timing):
    """The cards the Server deals come face down from the decks: only their owner sees them
    (a card a player passed in the draft or was shown in a trade is known to them, as at the
    table)."""
    m = Match(game, 3, 4, {"timing": timing})
    for header, deck in (("-- round 2: Day Phase --", "tavern_deck"), ("-- round 2: Night Phase --", "patron_deck")):
        _step_until(m, header)
        assert not m.over
        for viewer in range(3):
            v = m.view(viewer)["zones"]
            for other in range(3):
                dealt = v[f"hand of P{other + 1}"][-3:]
                if other != viewer:
                    assert dealt == ["?"] * 3, (header, viewer, other, dealt)
                else:
                    assert "?" not in v[f"hand of P{other + 1}"]
            assert all(c == "?" for c in v["tavern_deck"]) and all(c == "?" for c in v["patron_deck"])
            assert all(c != "?" for c in v["tavern of P1"] + v["tavern_discard"] + v["patron_discard"])


def test_shown_cards_are_seen_only_by_the_player_shown(game):
    """A trade's `show` of cards of the partner's Hand: the player shown sees the cards; everyone
    else reads only how many."""
    for seed in range(20):
        m = Match(game, 3, seed)
        play_bots(m)
        log = m.st.log
        shows = [(text, hidden, data) for i, (text, hidden, data) in enumerate(log)
                 if data.get("type") == "show" and log[i - 1][2].get("prompt") == "cards to show"]
        if not shows:
            continue
        text, hidden, data = shows[0]
        shower, seer = int(text.split()[0][1:]) - 1, data["to"]  # "P2 shows …": the cards' owner
        assert shower != seer
        third = ({0, 1, 2} - {shower, seer}).pop()
        assert text in m.log_lines(shower) and text in m.log_lines(seer)
        assert text not in m.log_lines(third) and hidden[1] in m.log_lines(third)
        assert not any(name in hidden[1] for name in data["cards"])
        return
    raise AssertionError("no cards were shown in 20 games")


@pytest.mark.parametrize("args", [["-p", "4"], ["-p", "1", "-o", "challenge=Wasted"],
                                  ["-p", "5", "-o", "cooperative=true", "-o", "timing=OneAtATime"]])
def test_tav_run_finishes(args):
    r = CliRunner().invoke(main, ["run", str(GAME), "--seed", "2", *args])
    assert r.exit_code == 0, r.output
    assert "rounds" in r.output


@pytest.mark.slow
@pytest.mark.parametrize("n, options", MODES)
def test_a_thousand_random_games_end(game, n, options, request):
    """No game of 1,000 stalls, at every player count and mode (about a
    minute each; run with `pytest -m slow`)."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a long simulation: run with -m slow")
    for seed in range(1, 1001):
        playout(game, n, seed, options)


def test_a_card_offered_from_the_hand_is_shown_to_the_partner_only(game):
    """A trade's offered card from the offerer's Hand (`show c to p`): the partner sees it; a
    third player who could not see it before the offer still cannot, and reads the offer without
    its name."""
    checked = 0
    for seed in range(30):
        m = Match(game, 4, seed)
        rng = random.Random(seed)
        while not m.over and checked < 3:
            d = m.pending
            i = rng.randrange(len(d.options))
            if d.prompt != "card you offer" or not isinstance(d.options[i], int):
                m.apply(i)
                continue
            offerer, c = d.player, d.options[i]
            before = [m.st.visible(c, q) for q in range(4)]
            start = len(m.st.log)
            m.apply(i)
            show = next((k for k in range(start, len(m.st.log)) if m.st.log[k][2].get("type") == "show"), None)
            if show is None:  # (from the Tavern: in play, seen by all, nothing shown)
                continue
            partner = m.st.log[show][2]["to"]
            assert m.st.visible(c, partner) and m.st.visible(c, offerer)
            name = game.card_name[c]
            for q in set(range(4)) - {offerer, partner}:
                if before[q]:
                    continue
                checked += 1
                assert not m.st.visible(c, q), (seed, q, name)
                read = m.log_lines(q)[start:show + 1]  # (the choice of the card, and its show)
                assert not any(name in line for line in read), (seed, q, read)
        if checked >= 3:
            return
    raise AssertionError(f"only {checked} offers from a Hand to look at in 30 games")
