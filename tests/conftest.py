"""Shared by the tests.

Tests marked `slow` (long simulations, whole oracles, long fuzzing) run only when asked:
`pytest -m slow` (or any -m expression naming slow), or TAV_SLOW=1.

The tests load, compile and play rules in this process as the `tav` command does, so the
session starts as the command does: with Python's recursion limit raised for deep rules.
"""
from __future__ import annotations

import os

import pytest

from tavernlang.loader import allow_deep_rules

allow_deep_rules()


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("-m") or "") or os.environ.get("TAV_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def tav():
    """The `tav` command in this process: tav("run", path, "-p", 2) -> click's Result (the
    arguments as text; `input`: standard input). Exceptions are not caught: every failure of a
    command is a message and an exit code (tavernlang/guard.py), anything else fails the test."""
    from click.testing import CliRunner

    from tavernlang.cli import main

    def run(*args, input=None):
        return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return run


@pytest.fixture
def save_resume(tmp_path):
    """The save/resume round trip: save_resume(game, rules_path, players, seed, options) plays a
    game with random picks (seeded), plays half of the same picks on a second match, saves it
    to a JSON file, loads it and plays the rest: the resumed game offers the same decisions and
    ends with the same log and result as the game played through."""
    import json
    import random

    from tavernlang import Match

    def check(game, rules_path, players: int, seed: int, options: dict | None = None) -> None:
        a, b = Match(game, players, seed, options), Match(game, players, seed, options)
        rng = random.Random(seed)
        picks = []
        while not a.over:
            i = rng.randrange(len(a.pending.options))
            picks.append(i)
            a.apply(i)
        for i in picks[: len(picks) // 2]:
            b.apply(i)
        path = tmp_path / "save.json"
        path.write_text(json.dumps(b.save(str(rules_path))))
        resumed = Match.load(game, json.loads(path.read_text()))
        assert resumed.legal() == b.legal() and resumed.to_act() == b.to_act()
        for i in picks[len(picks) // 2:]:
            resumed.apply(i)
        assert resumed.log_lines() == a.log_lines()
        assert resumed.result == a.result
    return check


@pytest.fixture
def rules_file(tmp_path):
    """rules_file(name, text): the text written as a rules file in the test's own folder -> its
    path."""
    def write(name: str, text: str):
        p = tmp_path / name
        p.write_text(text)
        return p
    return write


@pytest.fixture
def scenarios():
    """scenarios(path): every scenario of a rules file, run -> {title: ScenarioResult}."""
    from tavernlang import compile_file
    from tavernlang.engine.scenario import run_scenario

    def run(path) -> dict:
        game = compile_file(path)
        return {sc["decl"].title: run_scenario(game, sc) for sc in game.scenarios}
    return run


@pytest.fixture
def passing_scenarios(scenarios):
    """passing_scenarios(path): every scenario of a rules file run, each asserted to pass (the
    transcript of one that fails is the assertion's message)."""
    def run(path) -> None:
        for r in scenarios(path).values():
            assert r.passed, r.transcript()
    return run


@pytest.fixture
def line_of():
    """line_of(path, needle): the number of the first line of a file that holds `needle`."""
    def find(path, needle: str) -> int:
        return next(i for i, ln in enumerate(path.read_text().split("\n"), 1) if needle in ln)
    return find
