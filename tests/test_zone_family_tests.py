"""`full(t)`, `empty(t)` and their `not` for each zone of a family (`every(t in every table
where full(t))`, the options of `choose t in every table where not full(t)`) are tested in C
(engine/expressions.py, `_zone_tests`): the same games, with the same steps of work, as the
loop they stand for."""
from __future__ import annotations

from tavernlang import GameError, compile_file, playout
from tavernlang.engine import expressions

GAME = '''game "Shelves"
players 2..4
kind Jar { size: int }
card "jar" x14: Jar { size: 1 }
counter points per player = 0
zone shelf: per player public capacity 3 "shelf"
zone pantry: shared public
setup { move cards to pantry }
action stock "put a jar on a shelf" {
  require not empty(pantry) "no jar is left"
  choose t in every shelf where not full(t) "shelf" {
    move top(pantry) to t
    gain count(s in every shelf where empty(s)) points
    if any(s in every shelf where full(s)) { gain 1 points }
  }
}
action take "take a jar back" {
  require any(s in every shelf where not empty(s)) "every shelf is empty"
  choose t in filter(s in every shelf where not empty(s)) "shelf" {
    move top(t) to pantry
    gain count(s in every shelf where not empty(s)) points
  }
}
rounds 30 {
  phase play "Play" turns from player(1) until every(s in every shelf where full(s)) {
    actions stock, take
  }
}
winner: highest points
'''


def _games(g, seeds=range(40), players=(2, 3, 4)):
    out = []
    for n in players:
        for s in seeds:
            try:
                out.append(playout(g, n, s))
            except GameError as e:
                out.append((str(e), e.span))
    return out


def test_full_and_empty_of_each_zone_of_a_family_are_tested_in_c_and_play_the_same_games(tmp_path, monkeypatch):
    p = tmp_path / "shelves.tav"
    p.write_text(GAME)
    g = compile_file(p)
    src = "\n".join(g.playouts().gen_source)
    for form in ("map(_lt, ", "map(_ge, ", "map(_not, ", "map(_truth, ", "any(map(st.zones.__getitem__"):
        assert form in src, form
    monkeypatch.setattr(expressions.ExpressionCompiler, "_zone_tests", lambda self, cond, k, coll: None)
    plain = compile_file(p)
    plain.playouts()
    monkeypatch.undo()
    assert "map(_lt, " not in "\n".join(plain.playouts().gen_source)
    got = _games(g)
    assert got == _games(plain)  # (winners, scores, decisions, rounds and steps)
    assert all(not isinstance(r, tuple) for r in got) and any(r["decisions"] for r in got)
