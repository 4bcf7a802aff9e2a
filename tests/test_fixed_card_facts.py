"""Fixed facts of cards, worked out once when the game is compiled (engine/expressions.py):
- `card_mask`: a condition over the cards of a zone that starts with a fact of the card alone
  (its printed attributes, its kind, constants, defs of those) is worked out for every card; the
  generated loop tests it with one look-up in a table by card number before the rest of the
  condition (`any` and `every` of a zone with nothing else to test: one call of a frozenset's
  `isdisjoint`/`issuperset`);
- `_kdef_values`: a kind's derived value that reads only the card's printed attributes is a
  table by card number, not a call for each card.
The same games, with the same steps of work, as without; a fact or value that faults for some
card is left to be worked out where the rules ask, so the fault stays where they put it."""
from __future__ import annotations

import re
from pathlib import Path

from seeded import games
from tavernlang import compile_file
from tavernlang.engine import expressions

ROOT = Path(__file__).resolve().parent.parent
MASKED = re.compile(r"for (_\w+) in .*:\n\s+if _k\d+\[\1\]:")  # (a loop testing a fixed fact first)

GAME = '''game "Masks"
players 2..3
kind Gem { worth: int, colour: str, var shine: int = 0, def gleam: int = 10 * worth {gleam}, def glow: int = worth + shine }
kind Rock { worth: int }
card "Ruby" x3: Gem { worth: 3, colour: "red" }
card "Opal" x2: Gem { worth: 1, colour: "white" }
card "Dull" x2: Gem { worth: 0, colour: "grey" }
card "Pebble" x3: Rock { worth: 1 }
counter score per player = 0
zone pile: shared public
zone hand: per player public
setup { move cards to pile }
action take "take a bright Gem" {
  require any(x in pile where x is Gem and x.worth >= 1) "no bright Gem is left"
  choose c in pile where c is Gem and c.worth {fact} "take" {
    move c to hand of me
    gain count(x in hand of me where x is Gem and x.colour == "red") score
    gain count(x in hand of me where x is Gem and x.shine < me.score) score
    gain sum(x.gleam + x.glow for x in hand of me where x is Gem) score
    set c.shine = c.shine + 1
  }
}
action dig "dig for a Rock" {
  require any(x in pile where x is Rock) "no Rock is left"
  choose c in pile where c is Rock "dig" {
    move c to hand of me
    if every(x in hand of me where x.worth >= 1) { gain 2 score }
    choose w in [1, 3] "worth" {
      gain count(x in pile where x is Gem and x.worth == w) score
      if any(x in hand of me where x.worth == w) { gain 1 score }
      gain size(filter(x in pile where x.worth == w)) score
    }
  }
}
rounds 4 {
  phase play "Play" turns from player(1) once_each {
    actions take, dig
  }
}
winner: highest score
'''


def _write(tmp_path, fact=">= 0", gleam="+ 1"):
    p = tmp_path / "masks.tav"
    p.write_text(GAME.replace("{fact}", fact).replace("{gleam}", gleam))
    return p


def _games(g):
    return games(g, seeds=range(40))


def _without_masks(monkeypatch, path):
    monkeypatch.setattr(expressions.ExpressionCompiler, "card_mask", lambda self, cond, k, coll: None)
    monkeypatch.setattr(expressions.ExpressionCompiler, "_kdef_values", lambda self, name: None)
    g = compile_file(path)
    g.playouts()  # (both flavours compiled without)
    monkeypatch.undo()
    return g


def test_fixed_facts_of_cards_are_looked_up_and_play_the_same_games_with_the_same_work(tmp_path, monkeypatch):
    p = _write(tmp_path)
    g = compile_file(p)
    src = "\n".join(g.playouts().gen_source)
    assert ".isdisjoint(" in src and ".issuperset(" in src and MASKED.search(src)
    plain = _without_masks(monkeypatch, p)
    plain_src = "\n".join(plain.playouts().gen_source)
    assert ".isdisjoint(" not in plain_src
    assert len(MASKED.findall(src)) > len(MASKED.findall(plain_src))
    got, want = _games(g), _games(plain)
    assert got == want  # (winners, scores, decisions, rounds and steps)
    assert any(r["decisions"] for r in got)


def test_a_condition_reading_the_state_after_its_fixed_fact_is_tested_only_for_the_cards_picked(tmp_path):
    g = compile_file(_write(tmp_path)).playouts()
    src = "\n".join(g.gen_source)
    # `x is Gem and x.shine < me.score`: the kind looked up, then the var attribute tested
    assert re.search(r"for (_\w+) in .*:\n\s+if _k\d+\[\1\]:\n.*st\.cvars", src)


def test_a_fact_that_faults_for_some_card_stays_a_loop_and_faults_where_the_rules_say(tmp_path, monkeypatch):
    # worth / worth: the Dull Gems (worth 0) divide by zero, but only when the rules ask about them
    p = _write(tmp_path, fact="/ c.worth >= 1")
    g = compile_file(p)
    got, want = _games(g), _games(_without_masks(monkeypatch, p))
    assert got == want
    faults = [r for r in got if isinstance(r, tuple)]
    assert faults and all("zero" in msg for msg, _ in faults), faults[:3]


def test_the_seed_games_pick_cards_by_fixed_facts():
    for name in ("tavern_masters", "taverns_of_tiefenthal"):
        src = "\n".join(compile_file(ROOT / "games" / f"{name}.tav", fast=True).playouts().gen_source)
        assert MASKED.search(src) or ".isdisjoint(" in src, name


def test_a_kind_value_of_printed_attributes_is_a_table_and_one_of_a_var_is_worked_out(tmp_path, monkeypatch):
    p = _write(tmp_path)
    src = "\n".join(compile_file(p).playouts().gen_source)
    assert "kdef" not in src
    assert src.count("[0](st, [") == 1  # (glow reads shine: still a call; gleam: a look-up)
    plain = _without_masks(monkeypatch, p)
    assert "\n".join(plain.playouts().gen_source).count("[0](st, [") == 2
    assert _games(compile_file(p)) == _games(plain)


def test_a_kind_value_that_faults_for_some_card_faults_where_the_rules_ask_for_it(tmp_path, monkeypatch):
    p = _write(tmp_path, gleam="/ worth")  # the Dull Gems (worth 0) divide by zero
    got, want = _games(compile_file(p)), _games(_without_masks(monkeypatch, p))
    assert got == want
    assert any(isinstance(r, tuple) and "zero" in r[0] for r in got)
