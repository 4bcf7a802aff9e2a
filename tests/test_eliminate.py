"""`eliminate P`: a player out of the game (docs/language.md, "`eliminate`"). Turns, phases for
each player and phases played at the same time pass them by without asking them or reporting
that they "can do nothing"; `P.eliminated` and `players_in` say who is out; they rank below
every player still in, the last one out first; lint's simulation does not count them as stuck."""
from __future__ import annotations

import json
from pathlib import Path

from tavernlang import compile_file

ROOT = Path(__file__).resolve().parent.parent

GAME = '''
game "Out"
players 2..4
counter pts per player = 0
action score "score" { gain 1 pts }
action knock "knock out" { choose t in players_in where t != me "knock out" { eliminate t } }
action give_turn "give the turn" { choose t in others "give the turn to" { next turn t } }
'''


def test_a_phase_of_turns_passes_an_eliminated_player_by_without_a_word(rules_file, scenarios):
    r = scenarios(rules_file("t.tav", GAME + '''
rounds 1 { phase play "Play" turns from player(1) once_each { actions score } }
winner: highest pts
scenario "turns" players 3 {
  given { eliminate player(2) }
  run { do play }
  expect player(1).pts == 1 and player(2).pts == 0 and player(3).pts == 1
}
'''))["turns"]
    assert r.passed, r.transcript()
    assert "P2 is out of the game" in r.log
    assert not any("can do nothing" in ln or "P2 has" in ln or "P2 is asked" in ln for ln in r.log), r.transcript()
    assert [ln.split(" ")[0] for ln in r.log if "gains 1 pt" in ln] == ["P1", "P3"]


def test_next_turn_to_an_eliminated_player_goes_to_the_next_player_still_in(rules_file, scenarios):
    r = scenarios(rules_file("t.tav", GAME + '''
rounds 1 { phase play "Play" turns from player(1) { actions score once, give_turn once  pass } }
winner: highest pts
scenario "next turn" players 4 {
  given { eliminate player(3) }
  answers "give the turn", "P3", "score", "score", "pass", "pass", "pass", "pass"
  run { do play }
  expect player(4).pts == 1 and player(3).pts == 0
}
'''))["next turn"]
    assert r.passed, r.transcript()
    asked = [ln.split(" is asked")[0] for ln in r.log if " is asked 'your turn" in ln]
    assert asked == ["P1", "P1", "P4", "P4", "P1", "P2", "P4"], r.transcript()


def test_a_phase_for_each_player_leaves_an_eliminated_player_out(rules_file, passing_scenarios):
    passing_scenarios(rules_file("t.tav", GAME + '''
rounds 1 { phase each "Each" for each player { gain 1 pts } }
winner: highest pts
scenario "each" players 3 {
  given { eliminate player(1) }
  run { do each }
  expect player(1).pts == 0 and player(2).pts == 1 and player(3).pts == 1
}
'''))


def test_a_simultaneous_phase_asks_only_players_still_in_and_voids_the_pick_of_one_put_out(rules_file, scenarios):
    r = scenarios(rules_file("t.tav", GAME + '''
rounds 1 { phase both "Both" turns from player(1) simultaneous { actions score once, knock once  pass } }
winner: highest pts
scenario "simultaneous" players 4 {
  given { eliminate player(4) }
  answers "knock out", "P2", "score", "score", "pass", "pass"
  run { do both }
  expect player(2).eliminated and player(2).pts == 0 and player(3).pts == 1 and player(1).pts == 0
}
'''))["simultaneous"]
    assert r.passed, r.transcript()
    asked = [ln.split(" is asked")[0] for ln in r.log if " is asked 'at the same time" in ln]
    assert asked == ["P1", "P2", "P3", "P1", "P3"], r.transcript()


def test_the_eliminated_rank_below_those_still_in_the_last_one_out_first(rules_file):
    p = rules_file("t.tav", GAME + '''
rounds 1 { phase p "P" { log "nothing" } }
winner: highest pts
''')
    game = compile_file(p)
    st = game.new_state(4, 1)
    st.counters[game.counter_slots["pts"]][:] = [9, 8, 1, 0]
    st.out[:] = [0, 1]  # P1 out first, then P2
    r = game.result(st)
    assert r["winners"] == [2] and r["scores"] == [9, 8, 1, 0] and r["out"] == [0, 1]
    ranked = sorted(range(4), key=lambda q: r["keys"][q], reverse=True)
    assert ranked == [2, 3, 1, 0]


def test_everyone_wins_leaves_out_the_eliminated(rules_file):
    game = compile_file(rules_file("t.tav", GAME + '''
rounds 1 { phase p "P" { log "nothing" } }
winner: everyone if true
'''))
    st = game.new_state(3, 1)
    st.out[:] = [1]
    assert game.result(st)["winners"] == [0, 2]


def test_eliminating_twice_changes_nothing_and_nobody_is_a_located_error(rules_file, scenarios):
    rs = scenarios(rules_file("t.tav", GAME + '''
var nobody: player
rounds 1 { phase p "P" { log "nothing" } }
winner: highest pts
scenario "twice" players 3 { run { eliminate player(3)  eliminate player(2)  eliminate player(3) }
  expect players_in == [player(1)] and not player(1).eliminated }
scenario "nobody" players 3 { run { eliminate nobody } }
'''))
    assert rs["twice"].passed and rs["twice"].log.count("P3 is out of the game") == 1, rs["twice"].transcript()
    bad = rs["nobody"]
    assert not bad.passed and "eliminate nobody (the player is none)" in bad.failures[0][1]
    assert bad.failures[0][0].line == GAME.count("\n") + 7


def test_eliminate_takes_a_player(rules_file, tav):
    p = rules_file("t.tav", GAME + 'setup { eliminate 3 }\nwinner: highest pts\n')
    r = tav("check", p)
    assert r.exit_code == 1 and f"t.tav:{GAME.count(chr(10)) + 1}:19: error: eliminated player should be player, not int" \
        in r.output, r.output


def test_a_game_without_eliminate_generates_no_test_for_players_out(rules_file):
    game = compile_file(rules_file("t.tav", GAME.replace("eliminate t", "gain 1 pts to t").replace("players_in", "players") + '''
rounds 1 { phase play "Play" turns from player(1) { actions score, knock } phase e "E" for each player { gain 1 pts } }
winner: highest pts
'''))
    assert not game.model.eliminates and "st.out" not in "\\n".join(game.gen_source)


def test_lint_does_not_count_an_eliminated_player_as_stuck(rules_file, tav):
    """An eliminated player has no legal action left; their turns pass them by, so the
    simulation reports no TAV712 (a player to act without a legal option)."""
    p = rules_file("stuck.tav", '''
game "Stuck"
players 3..3
counter hp per player = 1 in 0..1
action hit "hit" {
  require not me.eliminated
  choose t in players_in where t != me "hit" { lose 1 hp from t  eliminate t }
}
rounds { phase play "Play" turns from player(1) once_each { actions hit } }
end when size(players_in) < 2
winner: highest hp
''')
    r = tav("lint", "--simulate", "6", p)
    assert r.exit_code == 0 and "TAV712" not in r.output, r.output


def test_the_example_game_checks_lints_and_passes_its_scenarios(tav):
    ex = ROOT / "examples" / "last_one_standing.tav"
    r = tav("lint", ex)
    assert r.exit_code == 0 and "TAV" not in r.output, r.output
    r = tav("test", ex)
    assert r.exit_code == 0 and "3 passed, 0 failed" in r.output, r.output


def test_game_over_says_who_went_out_first_out_first(tav):
    ex = ROOT / "examples" / "last_one_standing.tav"
    d = json.loads(tav("run", ex, "-p", "4", "--seed", "3", "--json").output)
    assert d["winners"] == [1] and d["log"][-1]["out"] == [2, 1, 3]
    assert "game over: P1 2, P2 0, P3 0, P4 0; winner P1; out of the game, first out first: P3, P2, P4" \
        in tav("run", ex, "-p", "4", "--seed", "3").output
