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
