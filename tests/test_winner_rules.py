"""`winner when C:` rules: the first whose condition holds decides and gives the score; one
rule without `when` is needed; errors in winner keys and guards are located (and a lint
finding under --simulate); `tav diff` and `replace winner when` name the rules in words."""
from __future__ import annotations

from click.testing import CliRunner

from tavernlang import compile_file, load, playout
from tavernlang.diff import diff_games
from tavernlang.lint.command import lint

WINNERS = '''
game "Winner rules"
players 1..3
counter coins per player = 0
counter gems per player = 0
action earn "earn" { gain 1 coins  gain 2 gems }
rounds 2 { phase work "Work" turns from player(1) once_each { actions earn } }
winner when player_count == 1: everyone if player(1).coins >= 2
winner when player_count >= 2: highest gems then highest coins
winner when true: highest 0 - coins
winner: highest coins
'''


def test_winner_when_first_that_holds_decides_and_gives_the_score(rules_file):
    g = compile_file(rules_file("w.tav", WINNERS))
    solo = playout(g, 1, 1)
    assert solo["winners"] == [0] and solo["scores"] == [2] and solo["rule"] == 0
    two = playout(g, 2, 1)
    assert two["rule"] == 1 and two["scores"] == [4, 4] and two["winners"] == [0, 1]


def test_winner_when_needs_a_rule_without_when(tav, rules_file):
    f = rules_file("w.tav", WINNERS.replace("winner: highest coins\n", ""))
    r = tav("check", f)
    assert r.exit_code == 1 and "needs one winner rule without 'when' too" in r.output


NONE_KEY = '''
game "Winner key none"
players 2..3
counter coins per player = 0
var starter: player
action earn "earn" { gain 1 coins }
rounds 1 { phase work "Work" turns from player(1) once_each { actions earn } }
winner: highest starter.seat
'''


def test_error_in_a_winner_key_is_located(tav, rules_file):
    """An error in a winner key (none read at the end) is a located error, not an internal one."""
    f = rules_file("k.tav", NONE_KEY)
    r = tav("run", f, "--players", "2")
    assert r.exit_code == 1
    assert "internal error" not in r.output and f"{f}:8:" in r.output


def test_error_in_a_winner_key_is_a_lint_finding(rules_file):
    """Under `tav lint --simulate` an error in a winner key is a TAV714 finding."""
    f = rules_file("k.tav", NONE_KEY)
    r = CliRunner().invoke(lint, [str(f), "--simulate", "3"])
    assert "internal error" not in r.output and "TAV714" in r.output


def test_me_in_a_winner_guard(tav, rules_file):
    """`me` in a `winner when` condition is none at the end: a located error."""
    f = rules_file("g.tav", NONE_KEY.replace("winner: highest starter.seat",
                                                  "winner when me.coins > 0: everyone if true\nwinner: highest coins"))
    r = tav("run", f, "--players", "2")
    assert "internal error" not in r.output and f"{f}:8:" in r.output and "error:" in r.output


def test_diff_of_identical_files_with_winner_when(rules_file):
    """Two identical files with `winner when` rules have no difference (rules are keyed by what
    they say, not where)."""
    a = rules_file("a.tav", WINNERS)
    b = rules_file("b.tav", WINNERS)
    assert diff_games(load(a), load(b)) == []


def test_diff_names_an_added_winner_when_rule_in_words(tmp_path, rules_file):
    """`tav diff` names an added `winner when` rule in words, not by an internal key."""
    rules_file("base.tav", WINNERS)
    v = rules_file("v.tav", 'extends "base.tav"\nwinner when player_count == 3: highest 0 - gems\n')
    changes = diff_games(load(tmp_path / "base.tav"), load(v))
    assert len(changes) == 1 and changes[0]["change"] == "added"
    assert "when@" not in changes[0]["summary"]


def test_replace_a_winner_when_rule(tav, tmp_path, rules_file):
    """`replace winner when C: ...` replaces the base's rule of the same condition."""
    rules_file("base.tav", WINNERS)
    v = rules_file("v.tav", 'extends "base.tav"\n'
                                 "replace winner when player_count == 1: everyone if player(1).coins >= 1\n")
    r = tav("check", v)
    assert r.exit_code == 0 and "when@" not in r.output
    changes = diff_games(load(tmp_path / "base.tav"), load(v))
    assert [c["change"] for c in changes] == ["changed"]


def test_winner_when_keys_keep_parentheses(tav, tmp_path, rules_file):
    rules_file("base.tav", '''
game "Winner keys"
players 1..3
counter coins per player = 0
def solo: bool = player_count == 1
def rich: bool = player(1).coins > 1
action earn "earn" { gain 1 coins }
rounds 2 { phase work "Work" turns from player(1) once_each { actions earn } }
winner when not (solo and rich): highest coins
winner: highest 0 - coins
''')
    v = rules_file("v.tav", 'extends "base.tav"\nwinner when not solo and rich: everyone if false\n')
    r = tav("check", v)
    assert r.exit_code == 0, r.output
    assert [c["change"] for c in diff_games(load(tmp_path / "base.tav"), load(v))] == ["added"]
