"""Fuzzing from the grammar itself: hypothesis's `from_lark` draws text from
tavernlang/syntax/grammar.lark — whole files of declarations, and expressions and statements
set into a small game — and each file goes through `tav check`, `tav run` and `tav test`
(tests/test_fuzz.py's `_run_all`): exit 0, 1 or 2 only (`tav test` without scenarios: 5), no
internal error, every error placed, every run ending within its budget.

Every terminal is drawn followed by a space (so that two keywords never run together) and names,
numbers and texts from a few that the small game declares, so that the drawn text parses (see
`test_the_drawn_text_parses`) and much of it also checks and runs. The default suite draws a
few of each; `pytest -m slow tests/test_grammar_fuzz.py` draws TAV_FUZZ_EXAMPLES (1500)."""
from __future__ import annotations

import os
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from lark.grammar import Terminal

from tavernlang.syntax.parser import parse
from test_fuzz import _fuzz_game as _fuzz

GRAMMAR = Lark(resources.files("tavernlang.syntax").joinpath("grammar.lark").read_text("utf-8"), parser="lalr",
               start=["start", "expr", "stmt"])
# (no keyword: `count of 0` or `gain 1 top` would not lex the keyword as a name)
NAMES = ["c", "k", "v", "z", "y", "e", "a", "d", "n", "x", "p", "K", "me", "cards", "round", "size", "lesser"]
TERMINALS = {
    "NAME": st.sampled_from(NAMES),
    "INT": st.sampled_from(["0", "1", "2", "3", "7", "100", "100000", "1000000000", "999999999999999999"]),
    "STRING": st.sampled_from(['"s"', '"k"', '"a b"']),
    "COPIES": st.sampled_from(["x1", "x3", "x20", "x10000"]),
    "CMP": st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]),
    "ADDOP": st.sampled_from(["+", "-"]),
    "MULOP": st.sampled_from(["*", "/", "%"]),
    "WS": st.just(" "),
    "COMMENT": st.just("# c\n"),
}
FAST = 12
SLOW = int(os.environ.get("TAV_FUZZ_EXAMPLES", "1500"))


def _reached(start: str) -> set:
    rules: dict = {}
    for r in GRAMMAR.rules:
        rules.setdefault(r.origin.name, []).append(r.expansion)
    seen, terms, work = set(), set(), [start]
    while work:
        n = work.pop()
        if n in seen:
            continue
        seen.add(n)
        for exp in rules.get(n, ()):
            for s in exp:
                if isinstance(s, Terminal):
                    terms.add(s.name)
                else:
                    work.append(s.name)
    return terms


def drawn(start: str):
    """Text of the grammar from `start`, every terminal followed by a space."""
    used = _reached(start) | {"WS", "COMMENT"}
    explicit = {t.name: (TERMINALS[t.name] if t.name in TERMINALS else st.just(t.pattern.value)).map(lambda x: x + " ")
                for t in GRAMMAR.terminals if t.name in used}
    return from_lark(GRAMMAR, start=start, explicit=explicit)


def game(stmt: str, effect: str, expr: str, expect: str) -> str:
    return ('game "G"\nplayers 2\ncounter c per player = 1\ncounter k = 0\nkind K { var v: int = 1 }\n'
            'card "k" x3: K\nzone z: shared public\nzone y: per player private\nsetup { move cards to z }\n'
            f'def d: int = {expr}\n'
            f'effect e(n: int) {{ {effect} }}\n'
            f'action a "a" {{ {stmt} }}\n'
            'rounds 3 { phase p "P" turns from player(1) once_each { actions a } }\nwinner: highest c\n'
            f'scenario "s" players 2 {{ run {{ do a }} expect {expect} }}\n')


# one part drawn at a time (four drawn at once rarely all stay within hypothesis's depth of drawing)
_STMT, _EXPR = drawn("stmt"), drawn("expr")
_PLAIN = ("gain 1 c", "if n > 0 { gain n c  do e(n - 1) }", "count(x in z where x.v > 0)", "me.c > 0")
GAMES = st.one_of(st.builds(game, _STMT, st.just(_PLAIN[1]), st.just(_PLAIN[2]), st.just(_PLAIN[3])),
                  st.builds(game, st.just(_PLAIN[0] + "  do e(3)"), _STMT, st.just(_PLAIN[2]), st.just(_PLAIN[3])),
                  st.builds(game, st.just(_PLAIN[0] + "  gain d c"), st.just(_PLAIN[1]), _EXPR, st.just(_PLAIN[3])),
                  st.builds(game, st.just(_PLAIN[0]), st.just(_PLAIN[1]), st.just(_PLAIN[2]), _EXPR))
FILES = drawn("start")

_FAST = settings(max_examples=FAST, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))
_SLOW = settings(max_examples=SLOW, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@_FAST
@given(text=FILES)
def test_files_of_declarations_from_the_grammar(tmp_path, monkeypatch, text):
    _fuzz(tmp_path, monkeypatch, text)


@_FAST
@given(text=GAMES)
def test_statements_and_expressions_from_the_grammar(tmp_path, monkeypatch, text):
    _fuzz(tmp_path, monkeypatch, text)


@settings(max_examples=100, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(text=st.one_of(FILES, GAMES))
def test_the_drawn_text_parses(text):
    """What is drawn is syntactically valid, so the fuzzing gets past the parser."""
    parse(text.encode("utf-8"), "gen.tav")


@pytest.mark.slow
@_SLOW
@given(text=FILES)
def test_files_of_declarations_from_the_grammar_long(tmp_path, monkeypatch, text):
    _fuzz(tmp_path, monkeypatch, text)


@pytest.mark.slow
@_SLOW
@given(text=GAMES)
def test_statements_and_expressions_from_the_grammar_long(tmp_path, monkeypatch, text):
    _fuzz(tmp_path, monkeypatch, text)
