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
