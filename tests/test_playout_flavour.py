"""The playout flavour (CompiledGame.playouts(): runner.playout, tav sim) is the same generator's
code without log lines, coverage counts and what each player knows; it must play the same games
as the interactive flavour, with the same errors at the same places. Each test here pins a case
where the two differed once (the comment says how), or a rule of the store the generator writes
out in both."""
from __future__ import annotations

from pathlib import Path

import pytest

from tavernlang import GameError, Match, compile_file, playout
from tavernlang.engine.runner import play_bots


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def outcome(game, n: int, seed: int, interactive: bool):
    """A playout's result, or its error and place: `fired` set plays the interactive flavour."""
    try:
        r = playout(game, n, seed, fired={} if interactive else None)
        return "result", r["winners"], r["scores"]
    except GameError as e:
        return "error", str(e), e.span.line, e.span.col


def same_in_both(game, n: int = 2, seeds=range(3)):
    for seed in seeds:
        a, b = outcome(game, n, seed, False), outcome(game, n, seed, True)
        assert a == b, f"seed {seed}: playout flavour {a}, interactive flavour {b}"
    return a


# A give to oneself on an unbounded counter: the interactive flavour (s_Gain) adds to the
# receiver first and checks that number, so a count past the largest whole number stops the
# game at the give; the playout flavour's written-out give checked the number only after
# taking it back from the giver (the same player), so it never stopped.
GIVE_SELF = '''game "Give to self"
players 2
counter big per player = 0
counter points per player = 0
rounds 1 {
  phase work "Work" {
    set me.big = 500000000000000000 * 10
    give me.big big to me
    gain 1 points
  }
}
winner: highest points
'''


def test_a_give_to_oneself_past_the_largest_number_stops_in_both_flavours(tmp_path):
    game = compile_file(write(tmp_path, "give_self.tav", GIVE_SELF))
    got = same_in_both(game)
    assert got[0] == "error" and "out of range" in got[1] and got[2] == 8, got


# A card's `var` list of cards that holds the card itself: the interactive flavour's log line
# for the set (and every label of the card) named the card with its vars, the list's cards
# each with their vars, the card again... without end: `tav run`/`tav play` stopped with a
# "calls nested about 2 deep" error at the set, while the playout flavour (no log) played on.
SELF_LIST = '''game "A card that lists itself"
players 2
counter points per player = 0
kind Mug { var value: int = 1, var with: list of Mug = [] }
card "Mug" x2: Mug
zone table: shared public
setup { move cards to table }
action note "note" {
  choose m in table "mug" {
    set m.with = table
    set m.value = m.value + size(m.with)
    gain m.value points
  }
}
rounds 2 { phase work "Work" turns from player(1) once_each { actions note } }
winner: highest points
'''


def test_a_card_whose_list_holds_itself_is_logged(tmp_path):
    game = compile_file(write(tmp_path, "self_list.tav", SELF_LIST))
    got = same_in_both(game)
    assert got[0] == "result", got
    m = Match(game, 2, 0)
    play_bots(m)
    assert m.result["scores"] == playout(game, 2, 0)["scores"]
    lines = [text for text, *_ in m.st.log]
    # (inside a card's label, the cards of its list read by their names, as a card attribute's do)
    assert "Mug: with = {Mug (value 1, with {Mug, Mug}), Mug (value 1, with {})}" in lines, lines
    assert "P1 chooses Mug (value 3, with {Mug, Mug}) (mug)" in lines, lines


# Faces after moves between hidden, private and public zones (the store's rule, written out by
# the generator with each destination's visibility known where its family is): into a hidden
# zone a card turns face down; out of a hidden zone face up; between open zones it keeps its
# face (a card placed face down stays so in a hand); `facedown` forces it.
FACES = """game "Faces"
players 2
kind Chip
card "A": Chip
card "B": Chip
card "C": Chip
card "D": Chip
zone pile: shared hidden
zone hand: per player private
zone table: shared public
counter down per player = 0
counter up per player = 0
setup {
  move cards to pile
  move named("A") to hand of player(1)
  move named("B") to table
  move named("C") to table facedown
  move named("D") to hand of player(2)
  move named("D") to pile
  gain count(x in cards where x.facedown) down to player(1)
  choose t in every hand "a hand" at random { move named("C") to t }
  move named("A") to table
  gain count(x in cards where not x.facedown) up to player(1)
  move named("B") to pile
  gain count(x in cards where x.facedown) down to player(2)
  gain count(x in table where x.facedown) up to player(2)
}
rounds 1 { phase p "P" { end game } }
winner: highest up
"""


def test_faces_after_moves_between_zones_of_every_visibility(tmp_path):
    game = compile_file(write(tmp_path, "faces.tav", FACES))
    for seed in range(3):
        assert playout(game, 2, seed)["keys"] == [[2], [0]]  # face up after: A, B; face down on the table: none
        assert playout(game, 2, seed, fired={})["keys"] == [[2], [0]]
        m = Match(game, 2, seed)
        assert m.st.counters == [[2, 3], [2, 0]]  # face down: C, D; then B, C, D


# `every Z` (a loop over it, and its list as a value) gives each player's zone of the family in
# seat order, at one player and at the most players a game may have, after other families'
# zones and beside zones on cards (the playout and interactive flavours read the state's
# st.zfam, built with the zones: a wrong family or order moves the marker to another zone).
SEATS = """game "Seats"
players 1..100
kind Space { zone dice: public }
kind Marker
card "S" x3: Space
card "M": Marker
zone spaces: shared public
zone hand: per player public
zone bag: per player hidden
counter k = 0
counter seat per player = 0
counter listed per player = 0
setup {
  move filter(x in cards where x is Space) to spaces
  for z in every bag {
    gain 1 k
    move named("M") to z
    for p in players where size(bag of p) > 0 { gain k seat to p }
  }
  let zs = every hand
  for i in range(1, size(zs)) {
    move named("M") to zs[i]
    for p in players where size(hand of p) > 0 { gain i listed to p }
  }
}
rounds 1 { phase p "P" { end game } }
winner: highest seat then highest listed
"""


@pytest.mark.parametrize("n", [1, 2, 100])
def test_every_zone_is_each_players_zone_in_seat_order(tmp_path, n):
    game = compile_file(write(tmp_path, "seats.tav", SEATS))
    want = [[p + 1, p + 1] for p in range(n)]  # P1's zones first, then P2's...
    assert playout(game, n, 0)["keys"] == want
    assert playout(game, n, 0, fired={})["keys"] == want
    m = Match(game, n, 0)
    assert m.over and m.result["keys"] == want


# The uniform bot is written into the playout flavour (statements.bot_pick); the interactive
# flavour and a simultaneous phase's picks (turns._simultaneous_turns) ask st.agent. Both count
# against runner.MAX_DECISIONS (here patched): a game of exactly 12 decisions ends at a bound of
# 12 and stops at each lower bound at the decision past it, the same place in both flavours.
TWELVE = """game "Twelve decisions"
players 2
counter c per player = 0
action a "a" { choose number n in 1..2 "n" { gain n c } }
action b "b" { choose 2 x in range(1, 3) "two" { gain 1 c } }
rounds 1 {
  phase one "One" turns from player(1) once_each { actions a }
  phase two "Two" turns from player(1) once_each { actions b }
  phase three "Three" { simultaneously for p in players choose n in range(1, 2) "n" { gain n c to p } }
  phase four "Four" turns from player(1) simultaneous { actions a once pass final }
}
winner: highest c
"""


def test_the_bound_of_decisions_is_exact_in_both_flavours(tmp_path, monkeypatch):
    from tavernlang.engine import runner
    game = compile_file(write(tmp_path, "twelve.tav", TWELVE))
    # the decision past each bound, by its place: choose number (one), choose 2 (two), the
    # simultaneous statement (three), the simultaneous phase's picks, each with the choice at
    # its action's head (four)
    places = [(4, 16), (4, 16), (5, 16), (5, 16), (5, 16), (5, 16), (9, 25), (9, 25), (10, 3), (4, 16), (10, 3),
              (4, 16)]
    for bound, place in enumerate(places):
        monkeypatch.setattr(runner, "MAX_DECISIONS", bound)
        for fired in (None, {}):
            with pytest.raises(GameError) as e:
                playout(game, 2, 0, fired=fired)
            assert str(e.value) == f"the game did not end after {bound} decisions (the last one asked here) (seed 0, 2 players)"
            assert (e.value.span.line, e.value.span.col) == place, (bound, fired)
    monkeypatch.setattr(runner, "MAX_DECISIONS", len(places))
    assert playout(game, 2, 0)["decisions"] == playout(game, 2, 0, fired={})["decisions"] == len(places)


def test_the_bound_of_decisions_holds_for_search_bots_too(tmp_path, monkeypatch):
    """bots.play with a greedy bot (bots.drive) and bots.watch (tav report) read the bound when
    they play (before: the value runner.MAX_DECISIONS had when bots.py was imported)."""
    from tavernlang import bots
    from tavernlang.engine import runner
    game = compile_file(write(tmp_path, "twelve.tav", TWELVE))
    monkeypatch.setattr(runner, "MAX_DECISIONS", 5)
    for run in (lambda: bots.play(game, 2, 0, None, [("greedy", 0), ("random", 0)]),
                lambda: bots.watch(game, 2, 0, None, [("random", 0), ("random", 0)])):
        with pytest.raises(GameError) as e:
            run()
        assert "did not end after 5 decisions" in str(e.value)
    monkeypatch.setattr(runner, "MAX_DECISIONS", 1000)
    assert bots.play(game, 2, 0, None, [("greedy", 0), ("random", 0)])["decisions"] > 5
