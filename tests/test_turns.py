"""Turns: `once required`, `once pass`, `until ... at once`, and `taken(A)` (also in a phase of
one action a turn)."""
from __future__ import annotations


TURNS = '''
game "Turns"
players 2..2
counter dice per player = 2
counter coins per player = 0
counter tips per player = 0
action place_die "Place Dice" { require me.dice > 0  lose 1 dice  gain 1 coins }
action tip "take a tip" { require me.tips < 1  gain 1 tips }
action look "look" { require taken(place_die) and me.seat == 1 and me.coins < 5  gain 10 coins }
rounds 1 {
  phase work "Work" turns from player(1) until every(p in players where p.dice == 0) at once {
    actions tip, place_die once required, look once pass
  }
}
winner: highest coins
scenario "required, once, pass, at once" players 2 {
  answers "Place Dice", "look", "pass", "take a tip", "Place Dice", "take a tip"
  run { do work }
  expect offered("your turn: choose an action", 1) == ["take a tip", "Place Dice"] "no pass before Place Dice"
  expect offered("your turn: choose an action", 2) == ["take a tip", "look", "pass"] "taken(place_die)"
  expect offered("your turn: choose an action", 3) == ["take a tip", "pass"]
  expect offered("your turn: choose an action", 4) == ["take a tip", "Place Dice"]
  expect offered("your turn: choose an action", 5) == ["Place Dice"] "after the tip, no pass before Place Dice"
  expect offered("your turn: choose an action", 6) == ["take a tip", "Place Dice"] "P2's turn ended without a question"
  expect offered("your turn: choose an action", 7) == ["take a tip", "pass"]
  expect offered("your turn: choose an action", 8) == ["Place Dice"] "P1's turn ended without a question"
  expect offered("your turn: choose an action", 9) == [] "the last die ends the phase at once"
  expect player(1).coins == 12 and player(2).coins == 2 and player(1).tips == 1 and player(2).tips == 1
}
'''


def test_turns_required_once_pass_and_at_once(rules_file, scenarios):
    r = scenarios(rules_file("turns.tav", TURNS))["required, once, pass, at once"]
    assert r.passed, r.transcript()
    assert r.transcript().count("passes") == 1  # the other turns ended without a question


def test_taken_in_a_turn_of_one_action(rules_file, passing_scenarios):
    """taken(A) holds inside A in a phase of one action a turn, as in a phase of several."""
    passing_scenarios(rules_file("t.tav", '''
game "taken() in a turn of one action"
players 2..2
counter coins per player = 0
effect reward { require taken(work)  gain 1 coins }
action work "work" { do reward }
rounds 1 {
  phase single "One action a turn" turns from player(1) once_each { actions work }
  phase multi "Several actions a turn" turns from player(1) once_each { actions work once pass }
}
scenario "one action a turn" players 2 {
  run { do single }
  expect player(1).coins == 1 and player(2).coins == 1
}
scenario "several actions a turn" players 2 {
  answers "work", "work"
  run { do multi }
  expect player(1).coins == 1 and player(2).coins == 1
}
'''))
