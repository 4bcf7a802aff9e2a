"""Fixes of issue 9, section 6 (each test failed before its fix):

* a second `given` or `run` block in a scenario silently replaced the first;
* an attribute read on a card whose kind lacks it was accepted by the checker and failed at run
  time as "a value here is none" at the outermost statement;
* docs/language.md said a variable without an initial value is none, while the engine gives
  0 / false / "" for int / bool / str (the docs now say what the engine does);
* `move none` silently did nothing.

The error corpus (tests/errors/check_scenario_blocks.tav, check_attribute_kinds.tav,
check_move_nothing.tav) pins the check errors with their places; these tests pin the rest.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import GameError, TavError, compile_file, load, playout
from tavernlang.cli import main
from tavernlang.engine.scenario import run_scenario

ROOT = Path(__file__).resolve().parent.parent


def tav(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().split("\n"), 1) if needle in ln)


def scenarios(path: Path) -> dict:
    game = compile_file(path)
    return {sc["decl"].title: run_scenario(game, sc) for sc in game.scenarios}


HEAD = '''
game "Fixes"
players 2..3
counter coins per player = 0
zone deck: shared hidden
zone hand: per player private
enum Clan { Elf, Orc }
kind Order { points: int = 1 }
kind Guest { clan: Clan = Elf, points: int = 2 }
card "Stew": Order
card "Elf": Guest { points: 2 }
'''


# ====================================================================== one `given`, one `run`

def test_a_second_given_or_run_block_is_an_error_at_it(tmp_path):
    f = write(tmp_path, "s.tav", HEAD + '''
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


def test_answers_and_expects_may_still_repeat(tmp_path):
    f = write(tmp_path, "s.tav", HEAD + '''
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


# ====================================================================== attributes of a known kind

def test_an_attribute_the_kind_lacks_is_a_check_error_at_the_read(tmp_path):
    # before: checked clean, then failed at run time as "a value here is none" at the `gain`
    f = write(tmp_path, "k.tav", HEAD + '''
def clan_bonus(o: Order): int = if o.clan == Elf then 1 else 0
action score "score" { for c in hand of me where c is Order { gain clan_bonus(c) coins } }
''')
    r = tav("check", f)
    assert r.exit_code == 1, r.output
    assert f"{f}:{line_of(f, 'def clan_bonus')}:36: error: kind 'Order' has no attribute 'clan'" in r.output
    assert "^" in r.output and "Traceback" not in r.output


def test_attributes_of_several_kinds_and_unknown_kinds_keep_working(tmp_path):
    f = write(tmp_path, "k.tav", HEAD + '''
def pts(o: Order): int = o.points
def total: int = sum(x.points for x in cards where x is Order or x is Guest)
def elves: int = count(x in cards where x.clan == Elf)
def guest: Guest = named("Elf")[1]
scenario "reads" players 2 {
  given { move cards to deck }
  expect pts(named("Stew")[1]) == 1 and total == 3 and elves == 1 and guest.clan == Elf
  expect top(deck).clan == Elf or top(deck).clan == none
}
''')
    for r in scenarios(f).values():
        assert r.passed, r.transcript()


# fixed: engine/compile.py compile_all gave a card the default of the first kind declaring a
#   shared attribute (AttrInfo.decl), not its own kind's
def test_an_attribute_of_two_kinds_keeps_each_kinds_default(tmp_path):
    f = write(tmp_path, "k.tav", HEAD.replace('card "Elf": Guest { points: 2 }', 'card "Elf": Guest') + '''
scenario "defaults" players 2 { expect named("Elf")[1].points == 2 and named("Stew")[1].points == 1 }
''')
    r = scenarios(f)["defaults"]
    assert r.passed, r.transcript()


def test_every_game_and_example_still_checks():
    files = sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "examples").rglob("*.tav")) \
        + sorted((ROOT / "tests" / "scenarios").rglob("*.tav"))
    assert files
    for f in files:
        load(f)  # raises TavError with the places if a valid file now fails


# ====================================================================== variables without a value

def test_variables_without_an_initial_value(tmp_path):
    # int / bool / str variables start at 0 / false / ""; any other type, and a `var` attribute
    # of a kind without a default (whatever its type), start as none -- as docs/language.md says
    f = write(tmp_path, "v.tav", HEAD + '''
var n: int
var b: bool per player
var s: str
var c: Clan
var p: player
var k: card
var o: Order
var l: list of int
kind Die { var face: int, var lit: bool }
card "D6": Die
scenario "defaults" players 2 {
  expect n == 0 and me.b == false and player(2).b == false and s == ""
  expect c == none and p == none and k == none and o == none and l == none
  expect named("D6")[1].face == none and named("D6")[1].lit == none
}
''')
    r = scenarios(f)["defaults"]
    assert r.passed, r.transcript()
    doc = (ROOT / "docs" / "language.md").read_text("utf-8")
    assert "Without an initial value a variable is `none`" not in doc
    assert "Without an initial value an `int` variable starts at\n`0`" in doc


# ====================================================================== move of nothing

MOVES = HEAD + '''
var saved: card
def stew: Order = named("Stew")[1]
'''


@pytest.mark.parametrize(("what", "col"), [
    ("saved", 9), ('named("Stew")[2]', 9), ("if empty(deck) then saved else stew", 9)])
def test_moving_a_card_that_is_none_is_a_located_error(tmp_path, what, col):
    f = write(tmp_path, "m.tav", MOVES + f'''
scenario "nothing" players 2 {{
  run {{ move {what} to hand of me }}
  expect true
}}
''')
    r = scenarios(f)["nothing"]
    assert not r.passed
    (span, msg), = r.failures
    assert "move of nothing: the card is none" in msg and (span.line, span.col) == (line_of(f, "run {"), col)


def test_drawing_from_an_empty_zone_moves_nothing(tmp_path):
    f = write(tmp_path, "m.tav", MOVES + '''
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


def test_move_of_nothing_in_a_game_is_located(tmp_path):
    f = write(tmp_path, "g.tav", MOVES + '''
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


def test_move_none_is_a_check_error(tmp_path):
    f = write(tmp_path, "m.tav", MOVES + 'action tidy "tidy" { move none to deck }\n')
    r = tav("check", f)
    assert r.exit_code == 1
    assert f"{f}:{line_of(f, 'action tidy')}:27: error: move of nothing: this is always none, never a card" in r.output
