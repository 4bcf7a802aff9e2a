"""`tav rules` gives "you" only to a player who acts: a shared counter goes up or down (it is
nobody's), and where no player acts (setup, at game end) or a phase of steps runs, `me` is not
"you"."""
from __future__ import annotations

from tavernlang.loader import load
from tavernlang.rulebook import rulebook

GAME = '''game "Who"
players 2..3
counter coins per player = 3 "coins"
counter clock = 0 "the Clock"
counter supply = 9 "the supply"
action dig "dig" { gain 1 coins  lose 1 supply }
setup { gain 1 clock }
rounds 2 {
  phase work "Work" turns from player(1) { actions dig }
  phase tick "Tick" { gain 1 clock }
  phase pay "Pay" { gain 1 coins }
}
at game end { gain 2 clock  for p in players { gain 1 coins to p } }
winner: highest coins
'''


def _page(tmp_path) -> str:
    f = tmp_path / "who.tav"
    f.write_text(GAME, encoding="utf-8")
    return rulebook(load(f))


def _section(page: str, heading: str) -> str:
    return page.split(heading + "\n")[1].split("\n#")[0]


def test_a_shared_counter_goes_up_or_down_and_is_given_to_no_one(tmp_path):
    page = _page(tmp_path)
    assert "- The Clock goes up by 1." in _section(page, "### 2. Tick")
    assert "- The supply goes down by 1." in _section(page, "### dig")
    assert "gain 1 the Clock" not in page.lower() and "lose 1 the supply" not in page.lower()


def test_nothing_is_given_to_you_in_setup_or_at_game_end(tmp_path):
    page = _page(tmp_path)
    setup = _section(page, "## Setup")
    assert "- The Clock goes up by 1." in setup and "you" not in setup.lower()
    end = page.split("When the game ends, before the winner is known:")[1]
    assert "- The Clock goes up by 2." in end and "you" not in end.lower()


def test_me_in_a_phase_of_steps_is_the_current_player_not_you(tmp_path):
    pay = _section(_page(tmp_path), "### 3. Pay")
    assert "- The current player gains 1 coins." in pay and "you" not in pay.lower()


def test_an_action_still_speaks_to_you(tmp_path):
    assert "- You gain 1 coins." in _section(_page(tmp_path), "### dig")
