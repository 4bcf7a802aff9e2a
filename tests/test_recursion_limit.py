"""Python's recursion limit: loading or formatting rules leaves it alone; the `tav` command and
`tavernlang.compile_file` raise it once for deep rules (never lower it)."""
from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

import tavernlang
from tavernlang.cli import main
from tavernlang.fmt import format_text
from tavernlang.loader import DEEP_RULES, load

GAME = ('game "G"\nplayers 2\ncounter c per player = 0\naction a "a" { gain 1 c }\n'
        'rounds 1 { phase p "P" turns from player(1) once_each { actions a } }\nwinner: highest c\n')


@pytest.fixture
def low_limit():
    """Python's default limit for the test, the session's limit again after it."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(before)


def test_loading_and_formatting_rules_leave_the_recursion_limit_alone(tmp_path, low_limit):
    f = tmp_path / "g.tav"
    f.write_text(GAME)
    load(f)
    format_text(GAME)
    assert sys.getrecursionlimit() == 1000


def test_compile_file_raises_the_limit_for_deep_rules(tmp_path, low_limit):
    f = tmp_path / "g.tav"
    f.write_text(GAME)
    tavernlang.compile_file(str(f))
    assert sys.getrecursionlimit() == DEEP_RULES


def test_the_tav_command_raises_the_limit_before_any_command(tmp_path, low_limit):
    f = tmp_path / "g.tav"
    f.write_text(GAME)
    r = CliRunner().invoke(main, ["check", str(f)], catch_exceptions=False)
    assert r.exit_code == 0 and sys.getrecursionlimit() == DEEP_RULES


def test_a_higher_limit_is_never_lowered(tmp_path):
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(DEEP_RULES + 1000)
    try:
        f = tmp_path / "g.tav"
        f.write_text(GAME)
        tavernlang.compile_file(str(f))
        assert sys.getrecursionlimit() == DEEP_RULES + 1000
    finally:
        sys.setrecursionlimit(before)
