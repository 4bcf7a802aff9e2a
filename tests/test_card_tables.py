"""Values of cards kept in tables (engine/expressions.py, `_card_table`): a value that only the
one or two cards bound to names decide (their printed attributes, constants, defs and has_word
reading nothing else) is looked up by card numbers, each entry worked out the first time it is
asked for. The same games with and without the tables; a fault is the same fault at the same
place; a value that reads anything that changes (a `var` attribute, a counter) is not kept."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from seeded import games as _games
from tavernlang import compile_file
from tavernlang.engine import expressions

ROOT = Path(__file__).resolve().parent.parent
TM = ROOT / "games" / "tavern_masters.tav"

GAME = '''game "Tables"
players 2..3
kind Gem {{ worth: int, label: str, var shine: int = 0 }}
card "Ruby" x3: Gem {{ worth: 3, label: "red x" }}
card "Opal" x2: Gem {{ worth: 1, label: "white" }}
card "Dull" x2: Gem {{ worth: 0, label: "grey x" }}
counter score per player = 0
zone pile: shared public
zone hand: per player public
def pair(a: card, b: card): int = if has_word(a.label, "x") and has_word(b.label, "x") then {pair} else 0
def shiny(c: card): int = if has_word(c.label, "x") then {shiny} else 0
setup {{ move cards to pile }}
action take "take" {{
  choose c in pile "take" {{
    move c to hand of me
    gain sum(pair(c, d) for d in hand of me where d != c) score
    gain shiny(c) score
    set c.shine = c.shine + 1
  }}
}}
action polish "polish" {{
  require not empty(hand of me) "nothing to polish"
  choose c in hand of me "polish" {{
    set c.shine = c.shine + 2
    gain shiny(c) score
  }}
}}
rounds 6 {{
  phase play "Play" turns from player(1) once_each {{
    actions take, polish
  }}
}}
winner: highest score
'''


def _write(tmp_path, pair="a.worth + b.worth", shiny="c.worth"):
    p = tmp_path / "tables.tav"
    p.write_text(GAME.format(pair=pair, shiny=shiny))
    return p


def _tables(game) -> int:
    """The tables of the playout flavour: each is filled by a generated function of the cards alone."""
    return sum(1 for src in game.playouts().gen_source if re.search(r"^def \w+\(_a0(, _a1)?\):", src, re.M))


def _without_tables(monkeypatch, path):
    monkeypatch.setattr(expressions, "_TABLE_MOST", 0)  # (no value is small enough to keep)
    g = compile_file(path)
    g.playouts()  # (both flavours compiled without)
    monkeypatch.undo()
    assert _tables(g) == 0
    return g


def test_tavern_masters_keeps_its_name_rule_in_tables_and_plays_the_same_games(monkeypatch):
    g = compile_file(TM)
    assert _tables(g) >= 4  # (counts_as of two cards, among others)
    src = "\n".join(g.playouts().gen_source)
    assert "is _UNSET" in src
    plain = _without_tables(monkeypatch, TM)
    assert _games(g, range(8), (2, 4)) == _games(plain, range(8), (2, 4))


def test_a_value_of_two_cards_is_kept_and_the_games_are_the_same(tmp_path, monkeypatch):
    p = _write(tmp_path)
    g = compile_file(p)
    assert _tables(g) >= 2
    assert _games(g) == _games(_without_tables(monkeypatch, p))


def test_a_fault_of_a_kept_value_is_the_same_fault_at_the_same_place(tmp_path, monkeypatch):
    p = _write(tmp_path, pair="a.worth / b.worth")  # a Dull card is worth 0: a division by zero
    g = compile_file(p)
    assert _tables(g) >= 1
    got, want = _games(g), _games(_without_tables(monkeypatch, p))
    assert got == want
    faults = [r for r in got if isinstance(r, tuple)]
    assert faults and all("zero" in msg and sp.line == 10 for msg, sp in faults), faults[:3]


@pytest.mark.parametrize("shiny", ["c.shine", "c.worth + c.shine", "c.worth + score of player(1)"])
def test_a_value_that_reads_what_changes_is_not_kept(tmp_path, monkeypatch, shiny):
    p = _write(tmp_path, shiny=shiny)
    g = compile_file(p)
    got, want = _games(g), _games(_without_tables(monkeypatch, p))
    assert got == want
    # (and it changes during these games: a kept value would have scored otherwise)
    assert _games(g) != _games(compile_file(_write(tmp_path, shiny="c.worth")))
