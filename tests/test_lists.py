"""Lists: `list of T` values and attributes, `L[i]` (1-based, none outside), `L + M`, `values(E)`,
`empty(L)`, `filter`, their check errors; a zone given where a list of cards is wanted keeps its
cards; a list attribute of cards shows no private card in labels."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavernlang import Match, TavError, compile_file
from tavernlang.engine.scenario import run_scenario

ROOT = Path(__file__).resolve().parent.parent


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


def test_lists_index_values_join_empty(rules_file, passing_scenarios):
    passing_scenarios(rules_file("lists.tav", LISTS))


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
def test_list_errors_are_located(tav, line, message, rules_file):
    f = rules_file("bad.tav", LISTS.split("scenario")[0] + line + "\n")
    r = tav("check", f)
    assert r.exit_code == 1
    assert f"{f}:" in r.output and f"error: {message}" in r.output and "^" in r.output
    assert "Traceback" not in r.output and "internal error" not in r.output


def test_filter_where_empty_of_a_list(rules_file, passing_scenarios):
    """`filter(xs in L where empty(xs))` over a list of lists tests each list, not a zone."""
    passing_scenarios(rules_file("f.tav", '''
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


def test_zone_passed_for_a_list_of_cards(rules_file):
    """A zone given for a `list of card` parameter passes its cards (or is refused by the checker)."""
    f = rules_file("z.tav", '''
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


def test_a_list_parameter_keeps_the_cards_it_was_given(rules_file, passing_scenarios):
    passing_scenarios(rules_file("a.tav", ZONE_AS_LIST + '''
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


def test_emit_gives_a_zones_cards_to_a_list_parameter(rules_file, passing_scenarios):
    passing_scenarios(rules_file("e.tav", ZONE_AS_LIST + '''
scenario "an event handler gets the zone's cards" players 2 {
  given { move named("Mug") to deck }
  run { emit cleared(deck) }
  expect me.coins == 3
}
'''))


def test_a_zone_stored_as_a_list_of_cards(rules_file, passing_scenarios):
    passing_scenarios(rules_file("s.tav", ZONE_AS_LIST + '''
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


def test_docs_do_not_forbid_list_declarations():
    text = (ROOT / "docs" / "language.md").read_text()
    assert "A list type cannot be written in a" not in text


def test_a_label_does_not_show_a_private_card(rules_file):
    f = rules_file("leak.tav", '''
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
