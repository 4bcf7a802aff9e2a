"""`tav rules` carries the comments above the rules (the rulebook's own words in the shipped
games) as quotes: whole, from their first sentence, and under the rule they belong to; a file's
section headers are layout and are left out."""
from __future__ import annotations

from tavernlang.loader import load
from tavernlang.rulebook import rulebook

HEAD = 'game "Quotes"\nplayers 2..3\ncounter coins per player = 3 "coins"\n'
TAIL = 'rounds 2 {\n  phase work "Work" turns from player(1) { actions dig }\n}\nwinner: highest coins\n'


def _page(tmp_path, body: str) -> str:
    f = tmp_path / "quotes.tav"
    f.write_text(HEAD + body + TAIL, encoding="utf-8")
    return rulebook(load(f))


def _section(page: str, heading: str) -> str:
    return page.split(heading + "\n")[1].split("\n#")[0]


def test_a_ruling_that_begins_on_a_line_of_dashes_is_quoted_from_its_first_sentence(tmp_path):
    page = _page(tmp_path, '# ---- Digging. Rulings: a player digs one coin at a time, however many they\n'
                           '# hold (the rulebook is silent).\n'
                           'action dig "dig" { gain 1 coins }\n')
    dig = _section(page, "### dig")
    assert "> Digging. Rulings: a player digs one coin at a time, however many they" in dig
    assert "> hold (the rulebook is silent)." in dig


def test_a_section_header_of_dashes_or_equals_signs_is_not_quoted(tmp_path):
    page = _page(tmp_path, '# ================================================================ Digging\n'
                           '# "Dig for a coin."\n'
                           'action dig "dig" { gain 1 coins }\n'
                           '# ---- Setup (the table)\n'
                           'setup { }\n')
    assert '> "Dig for a coin."' in _section(page, "### dig")
    assert "Digging" not in page and "Setup (the table)" not in page


def test_a_quote_above_the_definitions_of_an_action_is_quoted_under_the_action(tmp_path):
    page = _page(tmp_path, '\n# "Dig for a coin if you have fewer than 5."\n'
                           'def poor(n: int): bool = n < 5\n'
                           'action dig "dig" { require poor(me.coins)  gain 1 coins }\n')
    assert '> "Dig for a coin if you have fewer than 5."' in _section(page, "### dig")
    assert "Dig for a coin" not in page.split("## How things are worked out")[1]


def test_a_quote_above_the_definitions_of_the_winner_is_quoted_with_the_winner(tmp_path):
    f = tmp_path / "win.tav"
    f.write_text(HEAD + 'action dig "dig" { gain 1 coins }\n' + TAIL.replace("winner: highest coins\n", "")
                 + '\n# "The richest player wins."\ndef rich(p: player): int = p.coins\nwinner: highest coins\n',
                 encoding="utf-8")
    page = rulebook(load(f))
    assert '> "The richest player wins."' in page.split("## End of the game and the winner")[1]
    assert "richest" not in page.split("## How things are worked out")[1].split("\n## ")[0]


def test_a_quote_stays_with_its_definition_when_the_rule_below_has_its_own(tmp_path):
    page = _page(tmp_path, '\n# "Poor: fewer than 5 coins."\n'
                           'def poor(n: int): bool = n < 5\n'
                           '# "Dig for a coin."\n'
                           'action dig "dig" { require poor(me.coins)  gain 1 coins }\n')
    dig = _section(page, "### dig")
    assert '> "Dig for a coin."' in dig and "Poor" not in dig
    assert '> "Poor: fewer than 5 coins."' in page.split("## How things are worked out")[1]


def test_a_quote_inside_a_paragraph_stays_with_the_declaration_below_it(tmp_path):
    page = _page(tmp_path, '\ndef rich(n: int): bool = n > 5\n'
                           '# "Poor: fewer than 5 coins."\n'
                           'def poor(n: int): bool = n < 5\n'
                           'action dig "dig" { require poor(me.coins)  gain 1 coins }\n')
    assert "Poor" not in _section(page, "### dig")
    assert '> "Poor: fewer than 5 coins."\n\n- **poor**' in page


def test_a_quote_above_the_types_of_a_kind_of_card_is_quoted_with_the_kind(tmp_path):
    page = _page(tmp_path, '\n# "A dish shows its taste."\n'
                           'enum Taste { Sweet, Sour }\n'
                           'kind Dish { taste: Taste }\n'
                           'card "Pie" x2: Dish { taste: Sweet }\n'
                           'action dig "dig" { gain 1 coins }\n')
    assert '> "A dish shows its taste."' in page.split("#### Dish (2 cards)\n")[1].split("\n#")[0]
    assert "- **Taste**: Sweet, Sour.\n\n" in page
