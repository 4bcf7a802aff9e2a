"""Rulebook examples as scenarios in rules text, run and pinned by snapshots.

Every `scenario` block in tests/scenarios/**/*.tav and examples/**/*.tav is a
test: it must pass its own `expect` lines (so it fails when the rule breaks),
and its event log in canonical text must match the stored snapshot.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.engine.scenario import run_scenario

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "tests" / "scenarios").rglob("*.tav")) + sorted((ROOT / "examples").rglob("*.tav"))

_games = {}


def _game(path: Path):
    if path not in _games:
        _games[path] = compile_file(path)
    return _games[path]


def _cases():
    for f in FILES:
        game = _game(f)
        for i, sc in enumerate(game.scenarios):
            rel = f.relative_to(ROOT).as_posix()
            yield pytest.param(f, i, id=f"{rel}::{sc['decl'].title}")


@pytest.mark.parametrize(("path", "index"), list(_cases()))
def test_scenario(path, index, snapshot):
    game = _game(path)
    result = run_scenario(game, game.scenarios[index])
    assert result.passed, result.transcript()
    assert result.transcript() == snapshot


def test_scenarios_exist():
    assert sum(len(_game(f).scenarios) for f in FILES) >= 1


def test_an_expect_over_several_lines_is_quoted_whole(tmp_path):
    p = tmp_path / "multi.tav"
    p.write_text('game "Multi"\nplayers 2\ncounter coins per player = 3\n'
                 'rounds 1 { phase a "A" { log "x" } }\nwinner: highest coins\n'
                 'scenario "two lines" players 2 {\n  expect coins of player(1) == 3\n'
                 '    and coins of player(2) == 3\n  expect coins of player(1) == 3\n    and coins of player(2) == 4\n}\n')
    game = compile_file(p)
    result = run_scenario(game, game.scenarios[0])
    assert "expect coins of player(1) == 3 and coins of player(2) == 3: ok" in result.log
    assert "expect coins of player(1) == 3 and coins of player(2) == 4: FAILED" in result.log
