"""Attributes of a known kind: reading an attribute the card's kind lacks is a check error at the
read; attributes shared by several kinds, and reads on cards of unknown kind, keep working, each
kind with its own default.

The error corpus (tests/errors/check_attribute_kinds.tav) pins the check errors with their places."""
from __future__ import annotations

from pathlib import Path

from tavernlang import load

ROOT = Path(__file__).resolve().parent.parent


HEAD = '''
game "Attribute kinds"
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


def test_an_attribute_the_kind_lacks_is_a_check_error_at_the_read(tav, rules_file, line_of):
    # before: checked clean, then failed at run time as "a value here is none" at the `gain`
    f = rules_file("k.tav", HEAD + '''
def clan_bonus(o: Order): int = if o.clan == Elf then 1 else 0
action score "score" { for c in hand of me where c is Order { gain clan_bonus(c) coins } }
''')
    r = tav("check", f)
    assert r.exit_code == 1, r.output
    assert f"{f}:{line_of(f, 'def clan_bonus')}:36: error: kind 'Order' has no attribute 'clan'" in r.output
    assert "^" in r.output and "Traceback" not in r.output


def test_attributes_of_several_kinds_and_unknown_kinds_keep_working(rules_file, scenarios):
    f = rules_file("k.tav", HEAD + '''
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


def test_an_attribute_of_two_kinds_keeps_each_kinds_default(rules_file, scenarios):
    """A card takes the default of its own kind for an attribute that several kinds declare
    (not the first declaring kind's)."""
    f = rules_file("k.tav", HEAD.replace('card "Elf": Guest { points: 2 }', 'card "Elf": Guest') + '''
scenario "defaults" players 2 { expect named("Elf")[1].points == 2 and named("Stew")[1].points == 1 }
''')
    r = scenarios(f)["defaults"]
    assert r.passed, r.transcript()


def test_every_game_and_example_still_checks():
    """Every game, example and scenario file of the repository checks under the attribute rules."""
    files = sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "examples").rglob("*.tav")) \
        + sorted((ROOT / "tests" / "scenarios").rglob("*.tav"))
    assert files
    for f in files:
        load(f)  # raises TavError with the places if a valid file now fails
