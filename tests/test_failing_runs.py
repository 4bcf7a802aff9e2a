"""Runs of many games where some stop with an error: `tav sim`, `tav compare` and
`tav report` go on, leave those games out of the numbers, and report each error once at its
place with its seeds and the command that replays one; `--fail-fast` stops at the first with a
summary. Exit 1 when any game stopped."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tavernlang.cli import main

# a division by zero in round 3 of some games only (a random draw decides which)
GAME = ('game "S"\nplayers 2\ncounter c per player = 0\noption hard: bool = false\n'
        'action a "a" { gain 1 c  if random(1, 4) == 1 and round == 3 { gain 1 / (me.c - me.c) c } }\n'
        'action b "b" { gain 2 c }\n'
        'rounds 5 { phase p "P" turns from player(1) once_each { actions a, b } }\nwinner: highest c\n')
PLACE = "x.tav:5:69: error: division by zero"


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.tav").write_text(GAME)
    return "x.tav"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def failing_seeds(n: int) -> list[int]:
    return [s for s in range(1, n + 1) if invoke("run", "x.tav", "-p", 2, "--seed", s, "-q").exit_code == 1]


def test_sim_goes_on_and_reports_each_failing_seed_with_its_replay(game):
    bad = failing_seeds(20)
    assert 0 < len(bad) < 20
    r = invoke("sim", game, "-p", 2, "-g", 20)
    assert r.exit_code == 1
    assert f"{len(bad)} of 20 games stopped with an error (left out above)" in r.output
    assert PLACE in r.output
    assert f"in {len(bad)} game(s), seeds {', '.join(map(str, bad))}; replay: tav run x.tav -p 2 --seed {bad[0]}" \
        in r.output, r.output
    assert "mean rounds per game: 5.0" in r.output  # the games that ended are counted
    data = json.loads(invoke("sim", game, "-p", 2, "-g", 20, "--json").stdout)
    assert [f["seed"] for f in data["failed"]] == bad
    f = data["failed"][0]
    assert (f["file"], f["line"], f["col"], f["message"]) == ("x.tav", 5, 69, "division by zero")
    assert f["replay"] == f"tav run x.tav -p 2 --seed {bad[0]}" and data["stopped"] is False


def test_the_replay_command_replays_the_failure(game):
    data = json.loads(invoke("sim", game, "-p", 2, "-g", 10, "-o", "hard=true", "--json").stdout)
    cmd = data["failed"][0]["replay"].split()
    assert cmd[:2] == ["tav", "run"] and cmd[-2:] == ["-o", "hard=true"]
    r = invoke(*cmd[1:])
    assert r.exit_code == 1 and PLACE in r.output


def test_sim_fail_fast_stops_at_the_first_with_a_summary(game):
    first = failing_seeds(20)[0]
    r = invoke("sim", game, "-p", 2, "-g", 20, "--fail-fast")
    assert r.exit_code == 1
    assert f"S: {first} games, 2 players, seeds 1..{first}" in r.output, r.output
    assert f"stopped at the first game that stopped with an error (--fail-fast), after {first} games" in r.output
    assert f"replay: tav run x.tav -p 2 --seed {first}" in r.output


def test_compare_goes_on_and_leaves_the_failing_seeds_out_of_both_sides(game):
    bad = failing_seeds(10)
    r = invoke("compare", game, game, "-p", 2, "-g", 10, "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert sorted({(f["part"], f["seed"]) for f in data["failed"]}) == sorted(
        [("base", s) for s in bad] + [("variant", s) for s in bad])
    assert data["games"] == 10 and data["difference"]["rounds"]["mean"] == 0.0
    r = invoke("compare", game, game, "-p", 2, "-g", 10)
    assert f"{2 * len(bad)} of 20 games stopped with an error" in r.output
    assert f"in {len(bad)} variant game(s), seeds {', '.join(map(str, bad))}" in r.output, r.output
    r = invoke("compare", game, game, "-p", 2, "-g", 10, "--fail-fast", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["stopped"] is True and data["games"] == bad[0]


def test_report_goes_on_and_names_the_part_of_each_failure(game):
    bad = failing_seeds(10)
    r = invoke("report", game, "-p", 2, "-g", 10, "--skill-games", 0, "--vary", "hard")
    assert r.exit_code == 1, r.output
    assert "findings:" in r.output  # the report is made, of the games that ended
    assert f"in {len(bad)} game(s), seeds {', '.join(map(str, bad))}; replay: tav run x.tav -p 2 --seed {bad[0]}\n" \
        in r.output, r.output
    assert f"in {len(bad)} vary hard=true game(s)" in r.output and "-o hard=true" in r.output
    data = json.loads(invoke("report", game, "-p", 2, "-g", 10, "--skill-games", 0, "--json").stdout)
    assert [f["seed"] for f in data["failed"]] == bad and data["balance"]["games"] == 10 - len(bad)


def test_report_fail_fast(game):
    first = failing_seeds(10)[0]
    r = invoke("report", game, "-p", 2, "-g", 10, "--fail-fast")
    assert r.exit_code == 1
    assert f"S: the report stopped after {first} of " in r.output and PLACE in r.output, r.output
    data = json.loads(invoke("report", game, "-p", 2, "-g", 10, "--fail-fast", "--json").stdout)
    assert data["stopped"] is True and data["games_played"] == first and data["failed"][0]["seed"] == first


def test_a_run_of_games_that_all_end_exits_0(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.tav").write_text(GAME.replace("random(1, 4) == 1", "random(1, 4) == 9"))
    for args in (["sim", "x.tav", "-p", 2, "-g", 5], ["compare", "x.tav", "x.tav", "-p", 2, "-g", 5],
                 ["report", "x.tav", "-p", 2, "-g", 5, "--skill-games", 0]):
        r = invoke(*args)
        assert r.exit_code == 0 and "stopped with an error" not in r.output, (args, r.output)
