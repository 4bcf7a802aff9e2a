"""The project file, as ruff and pytest read theirs: `[tool.tav]` in the nearest `pyproject.toml`
(walking up from the current folder) or a `tav.toml` (which wins beside one) gives the lint
selection, the default players and bots, and the budgets; flags on the command line win; a bad
key or value is a usage error (exit 2) at its place in the file."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tavernlang.engine import budget

ROOT = Path(__file__).resolve().parent.parent
GAME = "dice_tavern.tav"  # (2 to 4 players, lint-clean)


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A project folder with a game in it, the current folder; the budgets a command sets are
    undone after the test."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "dice_tavern.tav", tmp_path / GAME)
    monkeypatch.setattr(budget, "LIMITS", dict(budget.LIMITS))
    for name in ("TAV_MAX_STEPS", "TAV_MAX_LOG", "TAV_MAX_SECONDS", "TAV_MAX_MEMORY"):
        monkeypatch.setenv(name, os.environ.get(name, str(budget.LIMITS[name[8:].lower()])))
    return tmp_path


def _players(r) -> int:
    assert r.exit_code == 0, r.output
    return json.loads(r.output)["players"]


def test_pyproject_tool_tav_players_is_the_default_of_players(tav, here):
    (here / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.tav]\nplayers = 3\n')
    assert _players(tav("run", GAME, "--json")) == 3
    assert _players(tav("sim", GAME, "-g", 2, "--json")) == 3


def test_players_on_the_command_line_wins_over_the_file(tav, here):
    (here / "pyproject.toml").write_text("[tool.tav]\nplayers = 3\n")
    assert _players(tav("run", GAME, "-p", 2, "--json")) == 2


def test_tav_toml_wins_over_pyproject_toml_in_the_same_folder(tav, here):
    (here / "pyproject.toml").write_text("[tool.tav]\nplayers = 3\n")
    (here / "tav.toml").write_text("players = 4\n")
    assert _players(tav("run", GAME, "--json")) == 4


def test_the_nearest_project_file_is_found_walking_up(tav, here, monkeypatch):
    (here / "tav.toml").write_text("players = 4\n")
    deep = here / "rules" / "house"
    deep.mkdir(parents=True)
    (here / "rules" / "pyproject.toml").write_text('[project]\nname = "x"\n')  # (no [tool.tav]: passed over)
    monkeypatch.chdir(deep)
    assert _players(tav("run", "../../" + GAME, "--json")) == 4


def test_a_nearer_pyproject_with_tool_tav_wins_over_a_tav_toml_above(tav, here, monkeypatch):
    (here / "tav.toml").write_text("players = 4\n")
    (here / "rules").mkdir()
    (here / "rules" / "pyproject.toml").write_text("[tool.tav]\nplayers = 2\n")
    monkeypatch.chdir(here / "rules")
    assert _players(tav("run", "../" + GAME, "--json")) == 2


def test_isolated_reads_no_project_file_and_config_names_one(tav, here):
    (here / "tav.toml").write_text("players = 4\n")
    (here / "ci.toml").write_text("players = 2\n")
    (here / "sub").mkdir()
    (here / "sub" / "pyproject.toml").write_text("[tool.tav]\nplayers = 3\n")
    r = tav("--isolated", "run", GAME, "--json")
    assert r.exit_code == 2 and "Missing option '--players'" in r.output
    assert _players(tav("--config", "ci.toml", "run", GAME, "--json")) == 2  # (read as a tav.toml)
    assert _players(tav("--config", "sub/pyproject.toml", "run", GAME, "--json")) == 3  # ([tool.tav])
    r = tav("--isolated", "--config", "ci.toml", "check", GAME)
    assert r.exit_code == 2 and "--config and --isolated exclude each other" in r.output


def test_bots_in_the_file_are_the_default_of_bots(tav, here):
    (here / "tav.toml").write_text('players = 2\nbots = "greedy"\n')
    r = tav("sim", GAME, "-g", 2, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["bots"] == "greedy,greedy"
    r = tav("sim", GAME, "-g", 2, "--json", "--bots", "random")
    assert "bots" not in json.loads(r.output)


def test_a_budget_in_the_file_bounds_the_game_unless_the_command_line_says_otherwise(tav, here):
    (here / "tav.toml").write_text("players = 2\nmax-steps = 50\n")
    r = tav("run", GAME, "-q")
    assert r.exit_code == 1 and "ran out of its budget of 50 steps" in r.output, r.output
    r = tav("--max-steps", 1_000_000, "run", GAME, "-q")
    assert r.exit_code == 0, r.output


def test_lint_select_and_ignore_come_from_the_file(tav, here):
    (here / "bad.tav").write_text('game "G"\nplayers 2..3\ncounter unused per player = 0\n'
                                  'rounds 1 { phase p "P" { } }\n')
    r = tav("lint", "bad.tav", "--format", "json")
    codes = {f["code"] for f in json.loads(r.output)["findings"]}
    assert r.exit_code == 1 and codes, r.output
    code = sorted(codes)[0]
    (here / "tav.toml").write_text(f'[lint]\nignore = ["{code}"]\n')
    r = tav("lint", "bad.tav", "--format", "json")
    assert code not in {f["code"] for f in json.loads(r.output)["findings"]}
    (here / "tav.toml").write_text(f'[lint]\nselect = ["{code}"]\n')
    r = tav("lint", "bad.tav", "--format", "json")
    assert {f["code"] for f in json.loads(r.output)["findings"]} == {code}
    r = tav("lint", "bad.tav", "--format", "json", "--select", "TAV8")  # (the command line wins)
    assert code not in {f["code"] for f in json.loads(r.output)["findings"]}


def test_lint_without_simulate_leaves_the_files_players_and_bots_alone(tav, here):
    (here / "pyproject.toml").write_text('[tool.tav]\nplayers = 3\nbots = "greedy"\n')
    r = tav("lint", GAME)
    assert r.exit_code == 0, r.output
    r = tav("lint", GAME, "--simulate", 1)
    assert r.exit_code == 0 and "simulated 1 game" in r.output, r.output


@pytest.mark.parametrize("text, place, message", [
    ("[tool.tav]\nplayer = 3\n", "2:1", "unknown key 'player' in [tool.tav] (did you mean 'players'?)"),
    ('[tool.tav]\nbots = "greedy"\nplayers = "three"\n', "3:1",
     "'players' must be a whole number of players, at least 1, not \"three\""),
    ("[tool.tav]\nplayers = true\n", "2:1", "'players' must be a whole number of players"),
    ("[tool.tav]\nmax-memory = -1\n", "2:1", "'max-memory' must be a whole number of MB (0: no limit), not -1"),
    ('[tool.tav.lint]\nselect = "TAV1"\n', "2:1", "'select' must be a list of lint codes"),
    ('[tool.tav]\nplayers = 2\n  lint.selct = ["TAV1"]\n', "3:8", "unknown key 'selct' in [tool.tav.lint]"),
    ("[tool.tav]\nplayers = \n", "2:11", "not valid TOML: invalid value"),
])
def test_a_bad_key_or_value_is_a_usage_error_at_its_place(tav, here, text, place, message):
    (here / "pyproject.toml").write_text(text)
    r = tav("check", GAME)
    assert r.exit_code == 2
    assert r.output.startswith(f"pyproject.toml:{place}: error: {message}"), r.output


def test_a_bad_key_in_tav_toml_names_tav_toml(tav, here):
    (here / "tav.toml").write_text("players = 2\n\n[lint]\nselect = []\nignor = []\n")
    r = tav("check", GAME)
    assert r.exit_code == 2
    assert r.output.startswith("tav.toml:5:1: error: unknown key 'ignor' in [lint] (did you mean 'ignore'?)")


def test_players_the_game_cannot_seat_is_an_error_of_the_file(tav, here):
    (here / "tav.toml").write_text("bots = 'random'\nplayers = 6\n")
    r = tav("run", GAME)
    assert r.exit_code == 2
    assert r.output.startswith("tav.toml:2:1: error: Dice Tavern is for 2 to 4 players, not 6 "
                               "(players = 6 in tav.toml; give --players"), r.output
    assert tav("run", GAME, "-p", 2, "-q").exit_code == 0


def test_bots_and_lint_codes_that_do_not_exist_are_errors_of_the_file(tav, here):
    (here / "tav.toml").write_text("players = 2\nbots = 'genius'\n")
    r = tav("run", GAME)
    assert r.exit_code == 2 and r.output.startswith("tav.toml:2:1: error: unknown bot 'genius'"), r.output
    (here / "tav.toml").write_text("[lint]\nignore = ['XYZ1']\n")
    r = tav("lint", GAME)
    assert r.exit_code == 2
    assert r.output.startswith("tav.toml:2:1: error: no rule has a code starting with 'XYZ1'"), r.output


def test_a_missing_config_file_is_a_usage_error(tav, here):
    r = tav("--config", "nope.toml", "check", GAME)
    assert r.exit_code == 2 and r.output.startswith("nope.toml:1:1: error: no such project file")


def _tav_modules(cwd: Path) -> set[str]:
    code = ("import sys\nfrom tavernlang.cli import main\n"
            "try:\n    main(['check', 'dice_tavern.tav'])\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('tavernlang'))))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_check_with_a_project_file_loads_no_more_of_tav_than_without(here):
    without = _tav_modules(here)
    (here / "tav.toml").write_text("players = 2\nmax-steps = 100000\n[lint]\nselect = ['TAV1']\n")
    assert _tav_modules(here) - without <= {"tavernlang.project"}
    assert "tavernlang.engine.compile" not in without and "tavernlang.lint" not in without


def test_the_project_files_of_docs_cli_md_are_read_without_error(tmp_path):
    import re

    from tavernlang import project
    blocks = re.findall(r"```toml\n# (\S+)\n(.*?)```", (ROOT / "docs" / "cli.md").read_text(), re.S)
    assert sorted(name for name, _ in blocks) == ["pyproject.toml", "tav.toml"]
    for name, text in blocks:
        (tmp_path / name).write_text(text)
        proj = project.load(tmp_path / name)
        assert proj.values["players"] == 4 and "lint.ignore" in proj.values
