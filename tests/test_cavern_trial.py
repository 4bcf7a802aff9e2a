"""The Cavern Tavern trial behind docs/games/cavern_tavern_plan.md keeps checking and passing its
scenarios, so the plan's "checked" sketches stay true until games/cavern_tavern.tav replaces it."""
from __future__ import annotations

from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.engine.scenario import run_scenario

TRIAL = Path(__file__).resolve().parent.parent / "docs" / "games" / "cavern_tavern_trial"
FILES = ["scen_rules.tav", "scen_sc.tav", "scen_solo.tav"]  # each includes scen_round.tav and the game


@pytest.mark.parametrize("name", FILES)
def test_trial_scenarios_pass(name):
    game = compile_file(TRIAL / name)
    results = [run_scenario(game, sc) for sc in game.scenarios]
    assert results, "the trial has scenarios"
    failed = [r.transcript() for r in results if not r.passed]
    assert not failed, failed[0]
