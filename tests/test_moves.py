"""`move` of nothing: a card that is none is a located error (in a scenario and in a game), a
draw from an empty zone moves nothing, and `move none` is a check error.

The error corpus (tests/errors/check_move_nothing.tav) pins the check errors with their places."""
from __future__ import annotations

import pytest

from tavernlang import GameError, compile_file, playout

HEAD = '''
game "Moves"
players 2..3
counter coins per player = 0
zone deck: shared hidden
zone hand: per player private
kind Order { points: int = 1 }
card "Stew": Order
'''


MOVES = HEAD + '''
var saved: card
def stew: Order = named("Stew")[1]
'''


@pytest.mark.parametrize(("what", "col"), [
    ("saved", 9), ('named("Stew")[2]', 9), ("if empty(deck) then saved else stew", 9)])
def test_moving_a_card_that_is_none_is_a_located_error(what, col, rules_file, scenarios, line_of):
    f = rules_file("m.tav", MOVES + f'''
scenario "nothing" players 2 {{
  run {{ move {what} to hand of me }}
  expect true
}}
''')
    r = scenarios(f)["nothing"]
    assert not r.passed
    (span, msg), = r.failures
    assert "move of nothing: the card is none" in msg and (span.line, span.col) == (line_of(f, "run {"), col)


def test_drawing_from_an_empty_zone_moves_nothing(rules_file, scenarios):
    f = rules_file("m.tav", MOVES + '''
scenario "empty deck" players 2 {
  run {
    move top(deck) to hand of me
    move [top(deck), stew, saved] to hand of me
    move filter(c in deck) to hand of me
  }
  expect size(hand of me) == 1 and top(hand of me) == stew
}
''')
    r = scenarios(f)["empty deck"]
    assert r.passed, r.transcript()


def test_move_of_nothing_in_a_game_is_located(tav, rules_file, line_of):
    f = rules_file("g.tav", MOVES + '''
action keep "keep the saved card" { move saved to hand of me }
rounds 1 { phase p "P" turns from player(1) once_each { actions keep } }
winner: highest coins
''')
    with pytest.raises(GameError) as info:
        playout(compile_file(f), 2, 1)
    assert "move of nothing: the card is none" in str(info.value)
    line = line_of(f, "action keep")
    assert (info.value.span.line, info.value.span.col) == (line, 37)
    r = tav("run", f, "-p", "2")
    assert r.exit_code == 1 and f"{f}:{line}:37: error: move of nothing: the card is none" in r.output
    assert "Traceback" not in r.output


def test_move_none_is_a_check_error(tav, rules_file, line_of):
    f = rules_file("m.tav", MOVES + 'action tidy "tidy" { move none to deck }\n')
    r = tav("check", f)
    assert r.exit_code == 1
    assert f"{f}:{line_of(f, 'action tidy')}:27: error: move of nothing: this is always none, never a card" in r.output


SETUP_MOVES = """
game "Setup lines"
players 2
kind Chip
card "red chip" x3: Chip
card "blue chip": Chip
zone box: shared public
zone bag: shared hidden
zone tray: per player public
setup {
  move cards to box
  for c in box where c.name == "red chip" { move c to tray of player(1) }
  for c in box where c.name == "blue chip" { move c to tray of player(1) }
}
rounds { phase p "Play" { for c in tray of player(1) { move c to tray of player(2) } } }
end when round >= 1
winner: highest 0
"""


def test_setup_moves_one_after_another_the_same_way_share_one_log_line(tmp_path):
    from tavernlang import compile_file
    from tavernlang.engine.runner import Match
    f = tmp_path / "setup.tav"
    f.write_text(SETUP_MOVES)
    lines = Match(compile_file(f), 2, 1).log_lines()
    assert lines[:2] == ["4 cards -> box", "red chip ×3, blue chip: box -> tray of P1"]
    # in a round, each move keeps its own line
    assert sum(1 for ln in lines if ln.endswith(": tray of P1 -> tray of P2")) == 4
