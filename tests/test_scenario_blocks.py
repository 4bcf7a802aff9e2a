"""The blocks and lines of a scenario: one `given` and one `run` (a second is an error at it),
repeated `answers` and `expect` lines, `end game` in `run` and in `given` running `at game end`,
bare-name answers, `offered(...)`, a folded long setup, and a runaway definition in an `expect`
failing its scenario at its place.

The error corpus (tests/errors/check_scenario_blocks.tav) pins the check errors with their places."""
from __future__ import annotations

import pytest

from tavernlang import TavError, compile_file, load
from tavernlang.engine.scenario import run_scenario

HEAD = '''
game "Scenario blocks"
players 2..3
counter coins per player = 0
kind Order { points: int = 1 }
kind Guest { points: int = 2 }
card "Stew": Order
card "Elf": Guest
'''


def test_a_second_given_or_run_block_is_an_error_at_it(tav, rules_file, line_of):
    f = rules_file("s.tav", HEAD + '''
scenario "twice" players 2 {
  given { gain 1 coins to me }
  run { gain 2 coins to me }
  given { gain 10 coins to me }
  run { gain 20 coins to me }
  expect me.coins == 3
}
''')
    with pytest.raises(TavError) as info:
        load(f)
    ds = info.value.diagnostics
    g1, r1, g2, r2 = (line_of(f, x) for x in ("1 coins", "2 coins", "10 coins", "20 coins"))
    assert [(d.span.line, d.span.col, d.message) for d in ds] == [
        (g2, 3, "a scenario has one 'given' block"), (r2, 3, "a scenario has one 'run' block")]
    assert [(n.span.line, n.message) for d in ds for n in d.notes] == [
        (g1, "the first one is here"), (r1, "the first one is here")]
    r = tav("check", f)
    assert r.exit_code == 1 and f"{f}:{g2}:3: error: a scenario has one 'given' block" in r.output
    assert "^" in r.output and "Traceback" not in r.output


def test_answers_and_expects_may_still_repeat(rules_file, scenarios):
    f = rules_file("s.tav", HEAD + '''
scenario "repeated lines" players 2 {
  given { gain 1 coins to me }
  answers "Stew"
  answers "Elf"
  run { for i in [1, 2] { choose c in cards "pick" { gain c.points coins } } }
  expect me.coins >= 1
  expect me.coins == 4
}
''')
    for r in scenarios(f).values():
        assert r.passed, r.transcript()


SCEN = '''
game "Scenario features"
players 2..3
counter coins per player = 0
counter finals = 0
kind Die { var value: int = 1, var used: int = 0 unlabelled }
card "die" x3: Die
zone pool: shared public
action stop "stop" { end game }
rounds 3 { phase work "Work" turns from player(1) once_each { actions stop } }
at game end { gain 1 finals }
winner: highest coins
scenario "end game in run runs game end once" players 2 {
  run { gain 1 coins  end game }
  expect finals == 1
}
scenario "a bare name answers when every option of that name reads the same" players 2 {
  given { move cards to pool  for d in pool { set d.used = 3 } }
  answers "die"
  run { choose d in pool "pick" { set d.value = 4 } }
  expect offered("pick") == ["die (value 1)", "die (value 1)", "die (value 1)"] "used is unlabelled"
  expect count(d in pool where d.value == 4) == 1
}
scenario "offered N-th" players 2 {
  answers "1", "2"
  run {
    choose number n in 1..2 "how many" { gain n coins }
    choose number n in 1..3 "how many" { gain n coins }
  }
  expect offered("how many", 1) == ["1", "2"] and offered("how many") == ["1", "2", "3"]
  expect offered("how many", 3) == [] and offered("how many", 0) == [] and offered("nope") == []
}
scenario "a bare name is refused when the options read differently" players 2 {
  given { move cards to pool  set top(pool).value = 2 }
  answers "die"
  run { choose d in pool "pick" { set d.value = 4 } }
}
'''


def test_scenario_features(rules_file, scenarios):
    rs = scenarios(rules_file("scen.tav", SCEN))
    for title in ("end game in run runs game end once", "offered N-th",
                  "a bare name answers when every option of that name reads the same"):
        assert rs[title].passed, rs[title].transcript()
    bad = rs["a bare name is refused when the options read differently"]
    assert not bad.passed and "names different options" in bad.failures[0][1]


def test_long_setup_is_folded(rules_file, scenarios):
    text = '''
game "Setup"
players 2..2
kind Mug
card "Mug" x30: Mug
zone a: shared public
zone b: shared public
setup { for c in cards { move c to a } }
scenario "folded" players 2 { expect size(a) == 30 }
'''
    r = scenarios(rules_file("s.tav", text))["folded"]
    assert r.passed
    assert "-- setup: 30 events, not shown --" in r.log and r.log[1] == "-- given --"


def test_runaway_def_in_an_expect_fails_the_scenario(rules_file):
    """A definition that recurses without end in an `expect` fails that scenario, at its place
    (the other scenarios still run)."""
    f = rules_file("r.tav", '''
game "Runaway"
players 2..3
def loop(n: int): int = loop(n)
scenario "runaway" players 2 { expect loop(1) == 1 }
''')
    game = compile_file(f)
    r = run_scenario(game, game.scenarios[0])
    assert not r.passed and "r.tav" in str(r.failures[0][0])


def test_end_game_in_given_runs_game_end(rules_file, passing_scenarios):
    """`end game` in a scenario's `given` runs `at game end`, as in `run` and in a game."""
    f = rules_file("e.tav", SCEN.split("scenario")[0] +
              'scenario "end game in given" players 2 { given { end game } expect finals == 1 }\n')
    passing_scenarios(f)


def test_bare_name_answer_must_name_a_card(rules_file, scenarios):
    """A bare-name answer names a card whole: 'Adventurer' is no answer for 'Adventurer (3)'."""
    f = rules_file("b.tav", '''
game "Bare name prefix"
players 2..3
kind Character { tips: int = 0 }
card "Adventurer (3)" x2: Character { tips: 3 }
card "Elf": Character
zone table: shared public
scenario "an answer that names no card" players 2 {
  given { move cards to table }
  answers "Adventurer"
  run { choose c in table "pick" { move c to table bottom } }
}
''')
    r = scenarios(f)["an answer that names no card"]
    assert not r.passed and "answer 'Adventurer' is not an option of 'pick'" in r.failures[0][1]
