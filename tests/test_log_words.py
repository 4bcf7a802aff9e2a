"""The log in plain words: a counter's amount in its unit, one or several; cards moved together
counted in their kinds' units."""
from __future__ import annotations

import pytest

from tavernlang import compile_file
from tavernlang.engine.runner import Match
from tavernlang.errors import TavError

RULES = """
game "Words"
players 2
counter coins per player = 3
counter glass per player
counter heat per player = 0 in 0..9 unit "space on the Heat track" "spaces on the Heat track"
counter tokens per player unit "Modifier token"
effect all_of_it {
  gain 1 coins gain 2 coins give 1 coins to player(2) give 2 coins to player(2)
  gain 1 glass gain 2 glass gain 1 heat gain 3 heat lose 1 heat gain 1 tokens gain 2 tokens
}
setup { do all_of_it as player(1) }
end when true
winner: highest coins
"""


def test_amounts_read_in_the_counters_words(tmp_path):
    f = tmp_path / "words.tav"
    f.write_text(RULES)
    m = Match(compile_file(f), 2, 1)
    got = [ln.split(" (now")[0] for ln in m.log_lines() if " gains " in ln or " loses " in ln or " gives " in ln]
    assert got == ["P1 gains 1 coin", "P1 gains 2 coins", "P1 gives 1 coin to P2", "P1 gives 2 coins to P2",
                   "P1 gains 1 glass", "P1 gains 2 glass", "P1 gains 1 space on the Heat track",
                   "P1 gains 3 spaces on the Heat track", "P1 loses 1 space on the Heat track",
                   "P1 gains 1 Modifier token", "P1 gains 2 Modifier tokens"]


BOUNDED = """
game "Bounds"
players 2
counter heat per player = 0 in 0..9 unit "space on the Heat track" "spaces on the Heat track"
effect push {
  lose 1 heat
  gain 7 heat
  gain 5 heat
  lose 2 heat
}
setup { do push as player(1) }
end when true
winner: highest heat
"""


def test_a_counter_stopped_by_its_bound_logs_what_moved_and_why(tmp_path):
    f = tmp_path / "bounds.tav"
    f.write_text(BOUNDED)
    m = Match(compile_file(f), 2, 1)
    got = [ln for ln in m.log_lines() if " gains " in ln or " loses " in ln]
    assert got == ["P1 loses no space on the Heat track (stays at 0, its lowest)",
                   "P1 gains 7 spaces on the Heat track (now 7)",
                   "P1 gains 2 spaces on the Heat track (not 5: now 9, its highest)",
                   "P1 loses 2 spaces on the Heat track (now 7)"]
    assert [e["amount"] for e in m.events() if e.get("type") in ("gain", "lose")] == [0, 7, 2, 2]


RANDOM = """
game "Draws"
players 3
counter coins per player
setup {
  choose p in players where p == player(2) "gets the die" at random { gain 1 coins to p }
  choose p in players where p != player(2) "starts" at random { gain 1 coins to p }
}
end when true
winner: highest coins
"""


def test_a_pick_at_random_among_one_option_is_no_draw(tmp_path):
    f = tmp_path / "draws.tav"
    f.write_text(RANDOM)
    lines = Match(compile_file(f), 3, 1).log_lines()
    assert "the only one: P2 (gets the die)" in lines
    assert any(ln.startswith("at random: P") and ln.endswith("(starts)") for ln in lines)


KINDS = """
game "Units"
players 2
kind Die unit "die" "dice" { var value: int = 1 }
kind Meeple unit "worker"
kind Food
card "white die" x5: Die
card "meeple" x4: Meeple
card "Ham" x6: Food
zone box: shared hidden
zone tray: shared public
zone bag: shared hidden
setup {
  move cards to box
  move filter(c in box where c is Die) to tray
  move filter(c in box where c is Meeple) + filter(c in box where c is Food) to tray
  move filter(c in tray where c is Die) to bag
}
end when true
winner: highest 0
"""


def test_cards_moved_together_are_counted_in_their_kinds_units(tmp_path):
    f = tmp_path / "units.tav"
    f.write_text(KINDS)
    lines = Match(compile_file(f), 2, 1).log_lines()
    assert lines[:4] == [
        "5 dice, 4 workers, 6 cards -> box",  # (the game's cards: every player knows what they are)
        "5 dice -> tray",
        "4 workers, 6 cards -> tray",
        "5 cards -> bag",  # (face down now: nothing says what they are)
    ]


def test_a_kinds_unit_is_words_on_one_line(tmp_path):
    f = tmp_path / "units.tav"
    f.write_text(KINDS.replace('unit "worker"', 'unit " worker"'))
    with pytest.raises(TavError) as e:
        compile_file(f)
    assert "a kind's unit is a word or a few on one line" in str(e.value)
