"""The components list (`components { ... }`) against the declared cards, in the seed games and
in variants (the error corpus, tests/errors/check_components.tav, has every kind of mismatch)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tavernlang.errors import TavError
from tavernlang.loader import load
from tavernlang.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.tav"))


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_every_seed_game_declares_its_box_and_it_checks_clean(game):
    m = load(game)
    lists = [d for d in m.decls if isinstance(d, A.ComponentsDecl)]
    assert lists, f"{game.name} has no components list"
    assert sum(len(cl.entries) for cl in lists) >= 5


def _errors(path: Path, old: str, new: str, overlay_extra: dict | None = None) -> list:
    text = path.read_text()
    assert old in text
    overlay = {path.resolve(): text.replace(old, new, 1)}
    overlay.update(overlay_extra or {})
    with pytest.raises(TavError) as e:
        load(ROOT / "games" / "little_tavern.tav", overlay=overlay)
    return e.value.diagnostics


def test_a_card_count_off_by_one_is_reported_at_the_list_with_a_note_at_the_card():
    cards = ROOT / "games" / "little_tavern" / "cards.tav"
    diags = _errors(cards, 'card "Elf" x10:', 'card "Elf" x9:')
    assert [d.message for d in diags] == ["the components list has 10 Character { clan: Elf }, the rules declare 9"]
    (d,) = diags
    text = cards.read_text().split("\n")
    assert text[d.span.line - 1].strip().startswith("10 Character { clan: Elf }")
    assert [n.message for n in d.notes] == ["9 copies declared here"]
    assert text[d.notes[0].span.line - 1].startswith('card "Elf" x10:')  # (the file as it is, before the change)


def test_a_card_the_list_does_not_count_is_reported_at_the_card():
    cards = ROOT / "games" / "little_tavern" / "cards.tav"
    extra = 'card "Innkeeper": Marker\nkind Marker\n'
    diags = _errors(cards, "enum Clan", extra + "enum Clan")
    assert [d.message for d in diags] == ["card \"Innkeeper\" (1 copy) is in no components list: add a line such as '1 \"Innkeeper\"'"]
    assert diags[0].notes[0].message == "the components list is here"


def test_a_variant_leaving_cards_out_plays_from_the_same_box(tmp_path):
    # examples/little_tavern/no_mystery.tav removes the two Mystery Customers: the base's list
    # (14 Event) is not held against the variant's cards
    m = load(ROOT / "examples" / "little_tavern" / "no_mystery.tav")
    assert sum(cd.copies for cd in m.cards if cd.kind == "Event") == 12


def test_a_variant_giving_its_own_list_is_checked_against_its_cards(tmp_path):
    (tmp_path / ".tavroot").write_text("")
    base = tmp_path / "base.tav"
    base.write_text('game "B"\nkind K\ncard "A" x2: K\ncard "C": K\ncomponents { 3 K }\n')
    good = tmp_path / "good.tav"
    good.write_text('extends "base.tav"\nremove card "C"\nreplace components { 2 K }\n')
    assert sum(cd.copies for cd in load(good).cards) == 2
    bad = tmp_path / "bad.tav"
    bad.write_text('extends "base.tav"\nreplace card "A" x4: K\nreplace components { 3 K }\n')
    with pytest.raises(TavError) as e:
        load(bad)
    (d,) = e.value.diagnostics
    assert d.span.file.endswith("bad.tav") and d.span.line == 3
    assert "the components list has 3 K, the rules declare 5" in d.message


def _check_text(tmp_path, text: str) -> list:
    (tmp_path / ".tavroot").write_text("")
    f = tmp_path / "box.tav"
    f.write_text(text)
    try:
        load(f)
    except TavError as e:
        return e.diagnostics
    return []


def test_a_card_value_given_by_a_constant_def_counts_as_that_value(tmp_path):
    # "points: four" and "points: 4" are the same value on the card: both count for { points: 4 }
    diags = _check_text(tmp_path, 'game "B"\ndef four: int = 4\nkind Dish { points: int = 1 }\n'
                                  'card "Stew" x2: Dish { points: 4 }\ncard "Pie" x3: Dish { points: four }\n'
                                  'components { 5 Dish { points: 4 } }\n')
    assert [d.message for d in diags] == []


def test_a_card_value_the_rules_work_out_is_not_compared_by_its_name(tmp_path):
    # an option is not a constant of the rules: neither a card's value nor a line may name it
    diags = _check_text(tmp_path, 'game "B"\noption bonus: int = 4 in 0..9 "bonus"\nkind Dish { points: int = 1 }\n'
                                  'card "Stew" x2: Dish { points: bonus }\ncard "Pie" x3: Dish { points: 4 }\n'
                                  'components {\n  5 Dish { points: 4 }\n  2 Dish { points: bonus }\n}\n')
    msgs = [d.message for d in diags]
    assert any("card \"Stew\"'s 'points' is worked out by the rules" in m and d.span.line == 7
               for m, d in zip(msgs, diags)), msgs
    assert any("a components line names its cards by constants" in m and d.span.line == 8
               for m, d in zip(msgs, diags)), msgs


def test_a_variant_s_list_missing_base_cards_is_reported_at_its_list(tmp_path):
    # the variant's own list leaves out a base card: the error is at the variant's list (the
    # change that causes it), with notes at the card in the base game
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "base.tav").write_text('game "B"\nkind K\nkind M\ncard "A" x2: K\ncard "T": M\ncomponents { 2 K  1 M }\n')
    v = tmp_path / "v.tav"
    v.write_text('extends "base.tav"\nreplace components {\n  2 K\n}\n')
    with pytest.raises(TavError) as e:
        load(v)
    (d,) = e.value.diagnostics
    assert d.span.file.endswith("v.tav") and d.span.line == 2, d
    assert 'card "T" (1 copy) is in no components list' in d.message
    assert any(n.span.file.endswith("base.tav") and n.span.line == 5 for n in d.notes), d.notes


def test_removing_a_list_the_base_lacks_says_so_plainly(tmp_path):
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "base.tav").write_text('game "B"\nkind K\ncard "A" x2: K\n')
    v = tmp_path / "v.tav"
    v.write_text('extends "base.tav"\nremove components\n')
    with pytest.raises(TavError) as e:
        load(v)
    assert [d.message for d in e.value.diagnostics] == ["there is no components list in the base game to remove"]
