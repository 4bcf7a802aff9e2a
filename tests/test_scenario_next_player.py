"""`next_player` in a scenario: the scenario plays as in a turn of P1's, so who plays next is
P1's left neighbour until a `next turn` (in the setup, the `given` or the `run`) says otherwise,
as docs/language.md's builtin table and Scenarios section say."""
from __future__ import annotations

GAME = '''
game "Next"
players 1..4
counter pts per player = 0
action hand_over "hand over" { choose p in others "to" { next turn p } }
action score "score" { gain 1 pts }
rounds 2 { phase play "Play" turns from player(1) { actions score once, hand_over once  pass } }
winner: highest pts
'''


def test_without_next_turn_next_player_is_the_left_neighbour_of_p1(rules_file, passing_scenarios):
    passing_scenarios(rules_file("n.tav", GAME + '''
scenario "three players" players 3 { expect next_player == player(2) }
scenario "two players" players 2 { expect next_player == player(2) }
scenario "one player plays again" players 1 { expect next_player == player(1) }
scenario "an action that says nothing of turns leaves it" players 4 { run { do score } expect next_player == player(2) }
'''))


def test_a_next_turn_of_the_given_or_run_is_who_plays_next(rules_file, passing_scenarios):
    passing_scenarios(rules_file("n.tav", GAME + '''
scenario "given" players 4 { given { next turn player(4) } expect next_player == player(4) }
scenario "run" players 4 { answers "P3" run { do hand_over } expect next_player == player(3) }
'''))


def test_a_next_turn_of_the_setup_stands_in_the_scenario(rules_file, passing_scenarios):
    passing_scenarios(rules_file("n.tav", GAME + '''
setup { next turn player(3) }
scenario "setup" players 4 { expect next_player == player(3) }
'''))


def test_an_expect_of_the_left_neighbour_fails_when_the_turn_was_handed_to_another(rules_file, scenarios):
    rs = scenarios(rules_file("n.tav", GAME + '''
scenario "handed over" players 3 { answers "P3" run { do hand_over } expect next_player == player(2) }
'''))
    r = rs["handed over"]
    assert not r.passed and "next_player is P3" in r.failures[0][1], r.transcript()


def test_the_docs_example_of_final_scoring_in_a_scenario_passes(rules_file, passing_scenarios):
    """`run { end game }` runs `at game end` and the `expect` lines read the final state."""
    passing_scenarios(rules_file("e.tav", GAME + '''
at game end { for p in players { gain 2 * p.pts pts to p } }
scenario "final scoring" players 2 {
  given { set player(2).pts = 3 }
  run { end game  gain 100 pts }
  expect player(2).pts == 9 and player(1).pts == 0 and winners == [player(2)]
}
'''))
