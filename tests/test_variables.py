"""Variables declared without an initial value: int, bool and str ones start at 0, false and "";
any other type, and a `var` attribute of a kind without a default, start as none (as
docs/language.md says)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


HEAD = '''
game "Variables"
players 2..3
enum Clan { Elf, Orc }
kind Order { points: int = 1 }
'''


def test_variables_without_an_initial_value(rules_file, scenarios):
    # int / bool / str variables start at 0 / false / ""; any other type, and a `var` attribute
    # of a kind without a default (whatever its type), start as none -- as docs/language.md says
    f = rules_file("v.tav", HEAD + '''
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
