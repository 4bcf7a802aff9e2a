"""Pictures need the [plot] extra: without matplotlib, the flag that asked for them is a usage
error (exit 2) that names that flag and the extra to install, before any game is played."""
from __future__ import annotations

import sys

import pytest

GAME = "examples/dice_tavern.tav"


@pytest.fixture
def no_matplotlib(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the [plot] extra were not installed


def test_report_out_without_matplotlib_names_out_and_the_plot_extra(tav, tmp_path, no_matplotlib):
    r = tav("report", GAME, "-p", 2, "-g", 2, "--skill-games", 0, "--out", tmp_path / "rep")
    assert r.exit_code == 2, r.output
    assert "Invalid value for --out: pictures need matplotlib: pip install 'tavernlang[plot]'" in r.output
    assert "--plot" not in r.output.replace("[plot]", "")
    assert not (tmp_path / "rep").exists()


def test_sim_plot_without_matplotlib_names_plot_and_the_plot_extra(tav, tmp_path, no_matplotlib):
    r = tav("sim", GAME, "-p", 2, "-g", 2, "--plot", tmp_path / "p.png")
    assert r.exit_code == 2, r.output
    assert "Invalid value for --plot: pictures need matplotlib: pip install 'tavernlang[plot]'" in r.output
