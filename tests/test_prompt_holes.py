"""A prompt's holes: `{NAME}` (or `{NAME.ATTR}`) in a prompt is filled in with that value where
and when the choice is asked, as card text is, so a prompt can say what a house rule changed
or restate a deal."""
from __future__ import annotations

import pytest

from tavernlang import compile_file
from tavernlang.engine.runner import Match
from tavernlang.errors import TavError

RULES = """
game "Holes"
players 2
option hand_size: int = 5 in 1..9 "hand size"
counter coins per player = 3
kind Food
card "Ham": Food
card "Egg": Food
zone hand: per player public
setup {
  move cards to hand of player(2)
  for p in players where p == player(2) {
    choose c in hand of p "card to discard (Hand Size {hand_size}, {p.coins} coins, {{braces}})" by p {
      move c to hand of player(1)
      choose "keep {c}?" by p { option "yes" { } option "no" { } }
    }
  }
}
end when true
winner: highest coins
"""


def _game(tmp_path, text=RULES):
    f = tmp_path / "holes.tav"
    f.write_text(text)
    return compile_file(f)


def test_the_player_is_asked_the_prompt_with_its_holes_filled_in(tmp_path):
    m = Match(_game(tmp_path), 2, 1, {"hand_size": 7})
    assert m.pending.prompt == "card to discard (Hand Size 7, 3 coins, {braces})"
    assert m.view(1)["prompt"] == "card to discard (Hand Size 7, 3 coins, {braces})"


def test_a_hole_may_name_a_local_of_the_choice(tmp_path):
    m = Match(_game(tmp_path), 2, 1)
    m.apply(0)
    assert m.pending.prompt == "keep Ham?"


def test_the_log_says_the_prompt_as_it_was_asked(tmp_path):
    m = Match(_game(tmp_path), 2, 1, {"hand_size": 7})
    m.apply(0)
    assert "P2 chooses Ham (card to discard (Hand Size 7, 3 coins, {braces}))" in m.log_lines(1)


def test_a_hole_naming_no_value_is_an_error_at_its_statement(tmp_path):
    with pytest.raises(TavError) as e:
        _game(tmp_path, RULES.replace("{hand_size}", "{hand_sizee}"))
    d = e.value.diagnostics[0]
    assert "hand_sizee" in d.message
    assert d.span.file.endswith("holes.tav")
    assert d.span.line == next(i for i, ln in enumerate(RULES.split("\n"), 1) if "choose c in" in ln)


def test_a_brace_that_closes_no_hole_is_an_error(tmp_path):
    with pytest.raises(TavError) as e:
        _game(tmp_path, RULES.replace("{{braces}}", "braces}"))
    assert "closes no '{'" in str(e.value)


HIDDEN = """
game "Hidden holes"
players 2
kind Food
card "Ham": Food
card "Egg": Food
zone hand: per player hidden
setup {
  move cards to hand of player(2)
  for c in hand of player(2) where c.name == "Ham" {
    choose "pass {c} on?" by player(2) { option "yes" { } option "no" { } }
  }
}
end when true
winner: highest 0
"""


def test_a_card_hole_names_a_card_only_everyone_may_see(tmp_path):
    # (the prompt is in the log every player reads)
    m = Match(_game(tmp_path, HIDDEN), 2, 1)
    assert m.pending.prompt == "pass a face-down card on?"


SIMULTANEOUS = """
game "Holes at once"
players 2
option price: int = 2 in 1..9 "price"
counter coins per player = 5
kind Food
card "Ham": Food
card "Egg": Food
zone market: shared public
zone table: per player public
action buy "buy a dish" {
  choose c in market "dish to buy for {price} coins" {
    move c to table of me
    lose price coins
  }
}
setup { move cards to market }
rounds 1 {
  phase day "Day" turns from player(1) simultaneous { actions buy once pass final }
}
end when round > 1
winner: highest coins
"""


def test_the_first_choice_picked_with_an_action_at_once_fills_its_holes(tmp_path):
    m = Match(_game(tmp_path, SIMULTANEOUS), 2, 1, {"price": 3})
    m.apply(m.legal().index("buy a dish"))
    assert m.pending.prompt == "dish to buy for 3 coins"


SHOWN = """
game "Shown holes"
players 3
kind Food
card "Ham": Food
card "Egg": Food
zone hand: per player private
setup {
  move cards to hand of player(1)
  for c in hand of player(1) where c.name == "Ham" {
    show c to player(2)
    choose "accept {c} for your turn?" by player(2) { option "yes" { } option "no" { } }
  }
}
end when true
winner: highest 0
"""


def test_the_chooser_is_asked_with_a_card_shown_to_them_by_name(tmp_path):
    m = Match(_game(tmp_path, SHOWN), 3, 1)
    assert m.pending.player == 1
    assert m.pending.prompt == "accept Ham for your turn?"


def test_the_log_names_in_a_prompt_only_a_card_everyone_may_see(tmp_path):
    m = Match(_game(tmp_path, SHOWN), 3, 1)
    m.apply(0)
    assert "P2 chooses 'yes' (accept a face-down card for their turn?)" in m.log_lines(2)
    assert not any("Ham" in line for line in m.log_lines(2))
