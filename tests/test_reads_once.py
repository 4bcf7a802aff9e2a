"""A function that only reads the state (an expression's: options, requirements, defs, filters)
reads the game's options and shared vars once, at its start, into locals
(engine/expressions.py, `_read_once`): a filter over many cards then does not read the standing
bid again for each card. The same games, with the same steps of work, as without."""
from __future__ import annotations

import re

from seeded import games as _games
from tavernlang import compile_file
from tavernlang.engine import expressions

GAME = '''game "Bids"
players 2..3
kind Bid { rank: int }
card "bid" x12: Bid { rank: 1 }
option step: int = 1 in 1..3
var standing: int = 0
counter made per player = 0
zone board: shared public
zone spent: shared public
setup { move cards to board }
def higher(b: Bid): bool = b.rank * made_total + step > standing
def made_total: int = 1 + sum(p.made for p in players)
action bid "bid" {
  require any(c in board where higher(c)) "no higher bid"
  choose c in board where higher(c) and standing < 30 "bid" {
    move c to spent
    set standing = standing + step
    gain 1 made
  }
}
rounds 5 {
  phase play "Play" turns from player(1) once_each { actions bid }
}
winner: highest made
'''


def test_options_and_shared_vars_are_read_once_by_a_function_that_only_reads(tmp_path, monkeypatch):
    p = tmp_path / "bids.tav"
    p.write_text(GAME)
    g = compile_file(p)
    src = g.playouts().gen_source
    loops = [f for f in src if re.search(r"^\s+for ", f, re.M) and "_gv0" in f]
    assert loops, "a filter reads the standing bid"
    for f in loops:
        head, _, rest = f.partition("\n    _gv0 = st.vars[0][0]\n")
        assert rest and "st.vars[0][0]" not in rest, f  # (read once, before any loop)
    bodies = [f for f in src if "st.vars[0][0] = " in f]
    assert bodies and all("_gv0" not in f for f in bodies)  # (a body that sets it reads it where it is)
    monkeypatch.setattr(expressions.ExpressionCompiler, "_read_once", lambda self, name, source: source)
    plain = compile_file(p)
    plain.playouts()
    monkeypatch.undo()
    assert not any("_gv0" in f for f in plain.playouts().gen_source)
    got = _games(g)
    assert got == _games(plain)  # (winners, scores, decisions, rounds and steps)
    assert any(not isinstance(r, tuple) and r["decisions"] for r in got)
