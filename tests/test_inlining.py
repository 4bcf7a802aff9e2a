"""Definitions inlined at their call (engine/expressions.py `_inline`) play as called ones: every
argument evaluated, once; the work of inlining stays in proportion to the definitions; Cavern
Tavern plays the same games with inlining and without."""
from __future__ import annotations

from pathlib import Path

from tavernlang import compile_file, playout
from tavernlang.engine.scenario import run_scenario

ROOT = Path(__file__).resolve().parent.parent


CT = ROOT / "games" / "cavern_tavern.tav"


def test_inlining_changes_no_cavern_tavern_game(monkeypatch):
    from tavernlang.engine import expressions as X
    inlined = compile_file(CT)
    monkeypatch.setattr(X.ExpressionCompiler, "_inline", lambda self, e, name: None)
    called = compile_file(CT)
    for n, seed, opts in [(1, 3, {"solo_mode": "Story"}), (3, 5, {"secret_chamber": True}), (4, 2, {"finish_turn": True})]:
        assert playout(inlined, n, seed, opts) == playout(called, n, seed, opts)


def test_inlined_def_evaluates_its_argument_once(rules_file, passing_scenarios):
    """An inlined definition evaluates an argument once, however often it reads it: twice(roll)
    rolls one die."""
    f = rules_file("r.tav", '''
game "Inline random"
players 2..2
def roll = random(1, 6)
def twice(x: int): int = x + x
def pick(a: int, b: int): int = a
scenario "x + x is even whatever x is" players 2 {
  expect every(i in range(1, 40) where twice(roll) % 2 == 0)
}
''')
    passing_scenarios(f)


def test_inlined_def_evaluates_every_argument(rules_file, scenarios):
    """An inlined definition evaluates an argument it does not read, as a called one does (1 / 0
    fails both)."""
    f = rules_file("z.tav", '''
game "Inline lazy"
players 2..2
def pick(a: int, b: int): int = a
def pick_called(a: int, b: int): int = a + count(i in [] where true)
scenario "inlined" players 2 { expect pick(1, 1 / 0) == 1 }
scenario "called" players 2 { expect pick_called(1, 1 / 0) == 1 }
''')
    rs = scenarios(f)
    assert rs["inlined"].passed == rs["called"].passed


def test_inlining_does_not_blow_up(rules_file):
    """A definition calling a definition twice, many deep, is not inlined 2^depth times."""
    from tavernlang.engine.expressions import ExpressionCompiler
    real = ExpressionCompiler._inline
    calls = [0]

    def counting(self, e, name):
        calls[0] += 1
        return real(self, e, name)

    def attempts(n: int) -> int:
        lines = ['game "Blowup"', "players 2..2", "def d0(x: int): int = x"]
        lines += [f"def d{i}(x: int): int = d{i - 1}(x) + d{i - 1}(x)" for i in range(1, n + 1)]
        lines.append(f'scenario "sum" players 2 {{ expect d{n}(1) == {2 ** n} }}')
        f = rules_file(f"b{n}.tav", "\n".join(lines) + "\n")
        calls[0] = 0
        ExpressionCompiler._inline = counting
        try:
            g = compile_file(f)
        finally:
            ExpressionCompiler._inline = real
        r = run_scenario(g, g.scenarios[0])
        assert r.passed, r.transcript()
        return calls[0]
    # twice the defs, about twice the inlining work (2^14 times more would be the blow-up); how
    # long compiling takes is not asserted: no test asserts a duration
    # (a run within the default step budget: d20(1) works out 2^20 leaves)
    assert attempts(20) < 3 * attempts(10)


def test_inlined_and_called_defs_agree_on_a_failing_argument(rules_file, scenarios):
    rs = scenarios(rules_file("l.tav", '''
game "Inlined vs called: an argument that fails"
players 2..2
var nobody: player
def keep_a(a: int, b: int): int = a
def keep_a_called(a: int, b: int): int = a + count(i in [] where true)
scenario "inlined" players 2 { expect keep_a(1, nobody.seat) == 1 }
scenario "called" players 2 { expect keep_a_called(1, nobody.seat) == 1 }
'''))
    assert rs["inlined"].passed == rs["called"].passed
