"""QA of the constructs added for Cavern Tavern (2026-11-30): `list of T`, `L[i]`, `L + M`, `values(E)`, `empty(list)`;
turns with `once required`, `pass if`, `until ... at once`, `taken(A)`; `winner when` rules and
`tav diff` on them; `unlabelled`, bare-name answers, `offered(...)`, `end game` in scenarios,
folded setups; def inlining (engine/expressions.py `_inline`); `tav lint --simulate` option
variation.

The tests under "bugs found" each pin a bug a QA pass found in these constructs (and that was
then fixed): the comment above each says what went wrong.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import GameError, Match, TavError, compile_file, load, playout
from tavernlang.cli import main
from tavernlang.diff import diff_games
from tavernlang.engine.runner import play_bots
from tavernlang.engine.scenario import run_scenario
from tavernlang.lint.command import lint

ROOT = Path(__file__).resolve().parent.parent
CT = ROOT / "games" / "cavern_tavern.tav"


def tav(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def scenarios(path: Path) -> dict:
    """Run every scenario of a file: title -> ScenarioResult."""
    game = compile_file(path)
    return {sc["decl"].title: run_scenario(game, sc) for sc in game.scenarios}


def assert_all_pass(path: Path) -> None:
    for title, r in scenarios(path).items():
        assert r.passed, r.transcript()


# ====================================================================== lists (passing pins)

LISTS = '''
game "Lists"
players 2..3
enum Ing { Fruit, Beer, Mead }
kind Order { needs: list of Ing, late: list of int = [], var extra: list of int = [] }
card "Gnome": Order { needs: [Beer, Beer, Mead], late: [22, 15, 10] }
card "Empty": Order { needs: [] }
zone deck: shared public
zone hand: per player public
def gnome: Order = named("Gnome")[1]
def nothing: Order = named("Empty")[1]
def total(xs: list of int): int = sum(x for x in xs)
def head(xs: list of int): int = xs[1]
def both(a: list of int, b: list of int): list of int = a + b
scenario "indexing is 1-based, none outside" players 2 {
  expect gnome.late[1] == 22 and gnome.late[3] == 10
  expect gnome.late[0] == none and gnome.late[-1] == none and gnome.late[4] == none
  expect head([]) == none and head(gnome.late) == 22 and total(gnome.late) == 47
}
scenario "values, joins, empty" players 2 {
  given { move cards to deck }
  expect values(Ing) == [Fruit, Beer, Mead] and values(Ing)[3] == Mead and values(Ing)[4] == none
  expect both([1], [2, 3]) == [1, 2, 3] and size(both([], [])) == 0
  expect size(deck + hand of me) == 2 and size(hand of me + deck) == 2
  expect empty(nothing.needs) and not empty(gnome.needs) and empty(nothing.late) and empty([])
  expect count(x in gnome.needs where x == Beer) == 2
}
scenario "a var list attribute is set whole" players 2 {
  run { set gnome.extra = gnome.extra + [4] + [5] }
  expect gnome.extra == [4, 5] and gnome.extra[2] == 5 and nothing.extra == []
}
'''


def test_lists_index_values_join_empty(tmp_path):
    assert_all_pass(write(tmp_path, "lists.tav", LISTS))


@pytest.mark.parametrize(("line", "message"), [
    ('card "Bad": Order { needs: [Beer, 3] }', "list item should be Ing, not int"),
    ('card "Bad": Order { needs: [Beer], late: Fruit }', "attribute 'late' should be list of int, not Ing"),
    ("def a = [1] + 2", "cannot join list of int and int"),
    ("def a = deck + [1]", "cannot join zone and list of int"),
    ("def a = 5[1]", "only a list or a zone can be indexed, not int"),
    ('def a = [1, 2]["x"]', "index should be int, not str"),
    ("def a = values(Beer)", "values(...) takes the name of an enum"),
    ("def a = empty(3)", "argument of 'empty' should be a list or a zone, not int"),
])
def test_list_errors_are_located(tmp_path, line, message):
    f = write(tmp_path, "bad.tav", LISTS.split("scenario")[0] + line + "\n")
    r = tav("check", f)
    assert r.exit_code == 1
    assert f"{f}:" in r.output and f"error: {message}" in r.output and "^" in r.output
    assert "Traceback" not in r.output and "internal error" not in r.output


# ====================================================================== turns (passing pins)

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


def test_turns_required_once_pass_and_at_once(tmp_path):
    r = scenarios(write(tmp_path, "turns.tav", TURNS))["required, once, pass, at once"]
    assert r.passed, r.transcript()
    assert r.transcript().count("passes") == 1  # the other turns ended without a question


# ====================================================================== winner when (passing pins)

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


def test_winner_when_first_that_holds_decides_and_gives_the_score(tmp_path):
    g = compile_file(write(tmp_path, "w.tav", WINNERS))
    solo = playout(g, 1, 1)
    assert solo["winners"] == [0] and solo["scores"] == [2] and solo["rule"] == 0
    two = playout(g, 2, 1)
    assert two["rule"] == 1 and two["scores"] == [4, 4] and two["winners"] == [0, 1]


def test_winner_when_needs_a_rule_without_when(tmp_path):
    f = write(tmp_path, "w.tav", WINNERS.replace("winner: highest coins\n", ""))
    r = tav("check", f)
    assert r.exit_code == 1 and "needs one winner rule without 'when' too" in r.output


# ====================================================================== scenarios (passing pins)

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


def test_scenario_features(tmp_path):
    rs = scenarios(write(tmp_path, "scen.tav", SCEN))
    for title in ("end game in run runs game end once", "offered N-th",
                  "a bare name answers when every option of that name reads the same"):
        assert rs[title].passed, rs[title].transcript()
    bad = rs["a bare name is refused when the options read differently"]
    assert not bad.passed and "names different options" in bad.failures[0][1]


def test_long_setup_is_folded(tmp_path):
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
    r = scenarios(write(tmp_path, "s.tav", text))["folded"]
    assert r.passed
    assert "-- setup: 30 events, not shown --" in r.log and r.log[1] == "-- given --"


# ====================================================================== inlining agrees on real games

def test_inlining_changes_no_cavern_tavern_game(monkeypatch):
    from tavernlang.engine import expressions as X
    inlined = compile_file(CT)
    monkeypatch.setattr(X.ExpressionCompiler, "_inline", lambda self, e, name: None)
    called = compile_file(CT)
    for n, seed, opts in [(1, 3, {"solo_mode": "Story"}), (3, 5, {"secret_chamber": True}), (4, 2, {"finish_turn": True})]:
        assert playout(inlined, n, seed, opts) == playout(called, n, seed, opts)


def test_cavern_tavern_save_load_resumes_identically():
    g = compile_file(CT)
    text = g.model.sources.all_text()
    m = Match(g, 3, 4, {"secret_chamber": True})
    r = random.Random(4)
    while len(m.choices) < 150:
        m.apply(r.randrange(len(m.pending.options)))
    m2 = Match.load(g, json.loads(json.dumps(m.save("x", text))), rules_text=text)
    r1, r2 = random.Random(9), random.Random(9)
    while not m.over:
        assert m.legal() == m2.legal()
        m.apply(r1.randrange(len(m.pending.options)))
        m2.apply(r2.randrange(len(m2.pending.options)))
    assert m2.over and m.result == m2.result and m.log_lines() == m2.log_lines()
    for p in range(3):  # another player's Items, Secret Task and drawn cards stay hidden
        for z, cards in m.view(p)["zones"].items():
            if z.startswith(("items of", "secret of", "looking of")) and not z.endswith(f"P{p + 1}"):
                assert set(cards) <= {"?"}, (p, z, cards)


# ====================================================================== lint --simulate options

LINT_VARY = '''
game "Lint vary"
players 2..3
enum Mode { Calm, Wild, Crazy }
option wild: bool = false "a wild game"
option mode: Mode = Calm "the mode"
counter coins per player = 0
action earn "earn" { gain 1 coins }
action boom "boom" { require wild and mode == Crazy  gain 1 / (coins of me - coins of me) coins }
rounds 2 { phase work "Work" turns from player(1) once_each { actions earn, boom } }
winner: highest coins
'''


def test_lint_simulate_varies_options(tmp_path):
    f = write(tmp_path, "v.tav", LINT_VARY)
    r = CliRunner().invoke(lint, [str(f), "--simulate", "12"])
    assert "varying wild, mode" in r.output and "TAV714" in r.output
    assert "-o wild=true -o mode=Crazy shows it" in r.output
    r = CliRunner().invoke(lint, [str(f), "--simulate", "12", "--no-vary-options"])
    assert "varying" not in r.output and "TAV701 action 'boom' was never taken" in r.output


# ====================================================================== bugs found
# Each test below failed on the tree as it was at the start of the session; the engine was
# fixed in the working tree while this QA ran, so they now pin the fixed behaviour. The

# fixed during the session; the bug was: an inlined def evaluates a cheap argument at each use:
#   twice(roll) rolls twice (expressions.py _inline, ('fn', closure))
def test_inlined_def_evaluates_its_argument_once(tmp_path):
    f = write(tmp_path, "r.tav", '''
game "Inline random"
players 2..2
def roll = random(1, 6)
def twice(x: int): int = x + x
def pick(a: int, b: int): int = a
scenario "x + x is even whatever x is" players 2 {
  expect every(i in range(1, 40) where twice(roll) % 2 == 0)
}
''')
    assert_all_pass(f)


# fixed during the session; the bug was: an inlined def does not evaluate an unused argument:
#   first(1, 1 / 0) is 1 inlined, a division by zero when called
def test_inlined_def_evaluates_every_argument(tmp_path):
    f = write(tmp_path, "z.tav", '''
game "Inline lazy"
players 2..2
def pick(a: int, b: int): int = a
def pick_called(a: int, b: int): int = a + count(i in [] where true)
scenario "inlined" players 2 { expect pick(1, 1 / 0) == 1 }
scenario "called" players 2 { expect pick_called(1, 1 / 0) == 1 }
''')
    rs = scenarios(f)
    assert rs["inlined"].passed == rs["called"].passed


# fixed during the session; the bug was: inlining has no size limit: a def calling a def twice, 14
#   deep, is inlined 2^14 times at compile time
def test_inlining_does_not_blow_up(tmp_path):
    from tavernlang.engine.expressions import ExpressionCompiler
    real = ExpressionCompiler._inline
    calls = [0]

    def counting(self, e, name):
        calls[0] += 1
        return real(self, e, name)

    def attempts(n: int) -> int:
        lines = ['game "Blowup"', "players 2..2", "def d0(x: int): int = x"]
        lines += [f"def d{i}(x: int): int = d{i - 1}(x) + d{i - 1}(x)" for i in range(1, n + 1)]
        lines.append(f'scenario "sum" players 2 {{ expect d{n}(1) == {2 ** n} }}')
        f = write(tmp_path, f"b{n}.tav", "\n".join(lines) + "\n")
        calls[0] = 0
        ExpressionCompiler._inline = counting
        try:
            g = compile_file(f)
        finally:
            ExpressionCompiler._inline = real
        r = run_scenario(g, g.scenarios[0])
        assert r.passed, r.transcript()
        return calls[0]
    # twice the defs, about twice the inlining work (2^14 times more would be the blow-up); how
    # long compiling takes is not asserted: no test asserts a duration
    # (a run within the default step budget: d20(1) works out 2^20 leaves)
    assert attempts(20) < 3 * attempts(10)


# fixed during the session; the bug was: filter()'s fast path for `where empty(x)` treats x as a
#   zone even when it is a list (expressions.py ExpressionCompiler.filter)
def test_filter_where_empty_of_a_list(tmp_path):
    assert_all_pass(write(tmp_path, "f.tav", '''
game "Filter on empty(list)"
players 2..3
kind Order { late: list of int = [] }
card "Gnome": Order { late: [22, 15, 10] }
card "Imp": Order
def tables = [named("Gnome")[1].late, named("Imp")[1].late]
effect pick { choose xs in tables where not empty(xs) "table" { log "picked" } }
scenario "filter lists by empty()" players 2 {
  run { do pick }
  expect size(filter(xs in tables where empty(xs))) == 1
  expect size(filter(xs in tables where not empty(xs))) == 1
}
'''))


# fixed during the session; the bug was: the checker accepts a zone for a `list of card` parameter,
#   but the engine then treats the zone's number as the list (checker.compatible)
def test_zone_passed_for_a_list_of_cards(tmp_path):
    f = write(tmp_path, "z.tav", '''
game "A zone passed as a list of cards"
players 2..3
kind Mug
card "Mug" x3: Mug
zone deck: shared public
zone discard: shared public
def none_in(xs: list of card): bool = empty(xs)
def how_many(xs: list of card): int = size(xs)
effect each(xs: list of card) { for x in xs { log "a mug" } }
scenario "a zone for a list of cards" players 2 {
  given { move cards to deck }
  run { do each(deck) }
  expect not none_in(deck) and none_in(discard) and how_many(deck) == 3
}
''')
    try:
        game = compile_file(f)
    except TavError:
        return  # refusing it is a fix too
    for sc in game.scenarios:
        r = run_scenario(game, sc)
        assert r.passed, r.transcript()


NONE_KEY = '''
game "Winner key none"
players 2..3
counter coins per player = 0
var starter: player
action earn "earn" { gain 1 coins }
rounds 1 { phase work "Work" turns from player(1) once_each { actions earn } }
winner: highest starter.seat
'''


# fixed during the session; the bug was: an error in a winner key is an 'internal error' without a
#   place (runner.Match._step and playout call game.result outside their error handling)
def test_error_in_a_winner_key_is_located(tmp_path):
    f = write(tmp_path, "k.tav", NONE_KEY)
    r = tav("run", f, "--players", "2")
    assert r.exit_code == 1
    assert "internal error" not in r.output and f"{f}:8:" in r.output


# fixed during the session; the bug was: an error in a winner key crashes `tav lint --simulate`
#   instead of a TAV714 finding (coverage.simulate)
def test_error_in_a_winner_key_is_a_lint_finding(tmp_path):
    f = write(tmp_path, "k.tav", NONE_KEY)
    r = CliRunner().invoke(lint, [str(f), "--simulate", "3"])
    assert "internal error" not in r.output and "TAV714" in r.output


# fixed during the session; the bug was: `me` in a `winner when` condition is accepted by the
#   checker and is none at run time: an internal error
def test_me_in_a_winner_guard(tmp_path):
    f = write(tmp_path, "g.tav", NONE_KEY.replace("winner: highest starter.seat",
                                                  "winner when me.coins > 0: everyone if true\nwinner: highest coins"))
    r = tav("run", f, "--players", "2")
    assert "internal error" not in r.output and f"{f}:8:" in r.output and "error:" in r.output


# fixed during the session; the bug was: `tav diff` keys a `winner when` rule by its file and line:
#   two identical files differ (check/variants.py key_of)
def test_diff_of_identical_files_with_winner_when(tmp_path):
    a = write(tmp_path, "a.tav", WINNERS)
    b = write(tmp_path, "b.tav", WINNERS)
    assert diff_games(load(a), load(b)) == []


# fixed during the session; the bug was: `tav diff` names an added `winner when` rule by its
#   internal key ('when@FILE:LINE:COL')
def test_diff_names_an_added_winner_when_rule_in_words(tmp_path):
    write(tmp_path, "base.tav", WINNERS)
    v = write(tmp_path, "v.tav", 'extends "base.tav"\nwinner when player_count == 3: highest 0 - gems\n')
    changes = diff_games(load(tmp_path / "base.tav"), load(v))
    assert len(changes) == 1 and changes[0]["change"] == "added"
    assert "when@" not in changes[0]["summary"]


# fixed during the session; the bug was: `replace winner when C: ...` can never match the base's
#   rule, and the error shows internal keys ('when@FILE:LINE:COL')
def test_replace_a_winner_when_rule(tmp_path):
    write(tmp_path, "base.tav", WINNERS)
    v = write(tmp_path, "v.tav", 'extends "base.tav"\n'
                                 "replace winner when player_count == 1: everyone if player(1).coins >= 1\n")
    r = tav("check", v)
    assert r.exit_code == 0 and "when@" not in r.output
    changes = diff_games(load(tmp_path / "base.tav"), load(v))
    assert [c["change"] for c in changes] == ["changed"]


# fixed during the session; the bug was: a RecursionError in an `expect` escapes run_scenario: `tav
#   test` prints 'error: the rules nest too deeply to run' without a place and stops
def test_runaway_def_in_an_expect_fails_the_scenario(tmp_path):
    f = write(tmp_path, "r.tav", '''
game "Runaway"
players 2..3
def loop(n: int): int = loop(n)
scenario "runaway" players 2 { expect loop(1) == 1 }
''')
    game = compile_file(f)
    r = run_scenario(game, game.scenarios[0])
    assert not r.passed and "r.tav" in str(r.failures[0][0])


# fixed during the session; the bug was: `end game` in a scenario's `given` (or setup) skips `at
#   game end`, unlike in `run` and in a game (scenario.py script())
def test_end_game_in_given_runs_game_end(tmp_path):
    f = write(tmp_path, "e.tav", SCEN.split("scenario")[0] +
              'scenario "end game in given" players 2 { given { end game } expect finals == 1 }\n')
    assert_all_pass(f)


# fixed during the session; the bug was: a bare-name answer is matched as a label prefix:
#   'Adventurer' answers for the card 'Adventurer (3)' (scenario.py)
def test_bare_name_answer_must_name_a_card(tmp_path):
    f = write(tmp_path, "b.tav", '''
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


# fixed during the session; the bug was: lint --simulate's replay hint leaves out the options fixed
#   with -o (coverage.findings opts_of): the command it suggests does not show the error
def test_lint_replay_hint_includes_fixed_options(tmp_path):
    f = write(tmp_path, "v.tav", LINT_VARY)
    r = CliRunner().invoke(lint, [str(f), "--simulate", "12", "-o", "wild=true"])
    assert "TAV714" in r.output
    hint = r.output.split("TAV714", 1)[1].splitlines()[0]
    assert "wild=true" in hint


# fixed during the session; the bug was: taken(A) is never true in a phase of one action per turn,
#   even inside A itself (compile.py: the single-action turn loop never records st.turn_used)
def test_taken_in_a_turn_of_one_action(tmp_path):
    assert_all_pass(write(tmp_path, "t.tav", '''
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


# fixed during the session; the bug was: a counter's range bound with a quantifier indexes past its
#   1-slot env (statements.py counter_change: env = [p])
def test_counter_range_bound_with_a_quantifier(tmp_path):
    assert_all_pass(write(tmp_path, "c.tav", '''
game "Range with a quantifier"
players 2..3
kind Mug
card "Mug" x3: Mug
counter ale per player = 0 in 0..count(c in cards where c is Mug or true)
scenario "the bound counts the mugs" players 2 { run { gain 5 ale } expect me.ale == 3 }
'''))


# ---------------------------------------------------------------------- found in a second QA round

ZONE_AS_LIST = '''
game "A zone given where a list of cards is wanted"
players 2..3
kind Mug { var held: list of card = [] }
card "Mug" x3: Mug
card "Cup": Mug
counter coins per player = 0
zone deck: shared public
zone discard: shared public
var pile: list of card
def same(xs: list of card): list of card = xs
def deck_cards: list of card = deck
effect clear(xs: list of card) { move xs to discard  gain size(xs) coins }
on cleared(xs: list of card) { gain size(xs) coins }
'''


def test_a_list_parameter_keeps_the_cards_it_was_given(tmp_path):
    assert_all_pass(write(tmp_path, "a.tav", ZONE_AS_LIST + '''
scenario "an effect keeps the cards it was given" players 2 {
  given { move named("Mug") to deck }
  run { do clear(deck) }
  expect size(discard) == 3 and me.coins == 3 "3 mugs were given, and moved"
}
scenario "a let keeps the cards a def gave" players 2 {
  given { move named("Mug") to deck }
  run { let before = same(deck)  move deck to discard  gain size(before) coins }
  expect me.coins == 3
}
'''))


def test_emit_gives_a_zones_cards_to_a_list_parameter(tmp_path):
    assert_all_pass(write(tmp_path, "e.tav", ZONE_AS_LIST + '''
scenario "an event handler gets the zone's cards" players 2 {
  given { move named("Mug") to deck }
  run { emit cleared(deck) }
  expect me.coins == 3
}
'''))


def test_a_zone_stored_as_a_list_of_cards(tmp_path):
    assert_all_pass(write(tmp_path, "s.tav", ZONE_AS_LIST + '''
scenario "a def's result" players 2 {
  given { move named("Mug") to deck }
  expect size(deck_cards) == 3
}
scenario "a var" players 2 {
  given { move named("Mug") to deck }
  run { set pile = deck }
  expect size(pile) == 3
}
scenario "a card's list attribute" players 2 {
  given { move named("Mug") to deck }
  run { set named("Cup")[1].held = deck }
  expect size(named("Cup")[1].held) == 3
}
'''))


def test_inlined_and_called_defs_agree_on_a_failing_argument(tmp_path):
    rs = scenarios(write(tmp_path, "l.tav", '''
game "Inlined vs called: an argument that fails"
players 2..2
var nobody: player
def keep_a(a: int, b: int): int = a
def keep_a_called(a: int, b: int): int = a + count(i in [] where true)
scenario "inlined" players 2 { expect keep_a(1, nobody.seat) == 1 }
scenario "called" players 2 { expect keep_a_called(1, nobody.seat) == 1 }
'''))
    assert rs["inlined"].passed == rs["called"].passed


def test_docs_do_not_forbid_list_declarations():
    text = (ROOT / "docs" / "language.md").read_text()
    assert "A list type cannot be written in a" not in text


def test_a_label_does_not_show_a_private_card(tmp_path):
    f = write(tmp_path, "leak.tav", '''
game "A public card remembers a private one"
players 2..2
kind Dish
kind Token { var noted: card, var notes: list of card = [] }
card "Secret Recipe": Dish
card "Stew" x3: Dish
card "Ledger": Token
zone hand: per player private
zone table: shared public
zone deck: shared hidden
setup {
  move filter(c in cards where c is Dish) to deck
  move named("Ledger") to table
  move named("Secret Recipe") to hand of player(1)
  for t in table { set t.noted = top(hand of player(1))  set t.notes = filter(c in hand of player(1)) }
}
action wait "wait" { log "waits" }
rounds 1 { phase p "P" turns from player(1) once_each { actions wait } }
''')
    m = Match(compile_file(f), 2, 1)
    assert m.view(1)["zones"]["hand of P1"] == ["?"]
    assert "Secret Recipe" not in json.dumps(m.view(1)) and not any("Secret Recipe" in x for x in m.log_lines(1))


def test_winner_when_keys_keep_parentheses(tmp_path):
    write(tmp_path, "base.tav", '''
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
    v = write(tmp_path, "v.tav", 'extends "base.tav"\nwinner when not solo and rich: everyone if false\n')
    r = tav("check", v)
    assert r.exit_code == 0, r.output
    assert [c["change"] for c in diff_games(load(tmp_path / "base.tav"), load(v))] == ["added"]
