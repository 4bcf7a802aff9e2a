"""What a rules file may declare and do is bounded, and each bound is a located error:
number literals, copies of a card, rounds, the numbers of one `choose number`."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from tavernlang.cli import main


def run(tmp_path, text, *args):
    f = tmp_path / "x.tav"
    f.write_text(text)
    return CliRunner().invoke(main, [a if a != "FILE" else str(f) for a in args])


@pytest.mark.parametrize(("text", "where", "message"), [
    ('game "N"\ndef big = 1' + "0" * 5000 + "\n", "x.tav:2:11:", "a number of 5001 digits is too large"),
    ('game "C"\nkind K\ncard "c" x1000000000: K\n', "x.tav:3:1:", "too many copies of one card (at most 10000)"),
    ('game "C"\nkind K\ncard "c" x' + "9" * 5000 + ": K\n", "x.tav:3:10:", "digits of copies is too many"),
])
def test_check_bounds(tmp_path, text, where, message):
    r = run(tmp_path, text, "check", "FILE")
    assert r.exit_code == 1 and where in r.output and message in r.output, r.output


def test_run_bounds_are_located(tmp_path):
    r = run(tmp_path, 'game "R"\nplayers 2\naction a "a" { }\n'
            'rounds 1000000000 { phase p "P" turns from player(1) once_each { actions a } }\n', "run", "FILE", "-p", "2")
    # (a number written in the rules: tav check says so)
    assert r.exit_code == 1 and "x.tav:4:8: error: a game has at most 10000 rounds, not 1000000000" in r.output
    r = run(tmp_path, 'game "R"\nplayers 2\noption n: int = 1000000000 in 1..2000000000\naction a "a" { }\n'
            'rounds n { phase p "P" turns from player(1) once_each { actions a } }\n', "run", "FILE", "-p", "2")
    assert r.exit_code == 1 and "x.tav:5:8: error: the game has 1000000000 rounds: a game may have at most 10000" in r.output
    r = run(tmp_path, 'game "N"\nplayers 2\ncounter c per player = 0\n'
            'effect e { choose number n in 1..1000000000 "n" { gain n c } }\n'
            'scenario "s" players 2 { run { do e } expect true }\n', "test", "FILE")
    assert r.exit_code == 1 and "x.tav:4:12: 'choose number' from 1 to 1000000000: more than 100000" in r.output


def test_expect_failures_show_what_was_found_and_files_without_scenarios_say_so(tmp_path):
    r = run(tmp_path, 'game "G"\nplayers 2\ncounter coins per player = 3\n'
            'scenario "w" players 2 { run { gain 2 coins } expect me.coins == 4 and player(2).coins < 10 }\n',
            "test", "FILE")
    assert r.exit_code == 1 and "expected me.coins == 4 and player(2).coins < 10 (me.coins is 5)" in r.output
    r = run(tmp_path, 'game "G"\nplayers 2\n', "test", "FILE")
    assert r.exit_code == 5 and "no scenarios in this file" in r.output  # (no scenario ran: as pytest, 5)


def test_paths_a_missing_one_is_a_usage_error_and_a_folder_is_checked(tmp_path):
    for cmd in (["check"], ["info"], ["run", "-p", "2"], ["sim", "-p", "2"], ["lint"], ["test"]):
        r = CliRunner().invoke(main, cmd + [str(tmp_path / "nowhere.tav")])
        assert r.exit_code == 2 and "does not exist" in r.output, (cmd, r.output)
    (tmp_path / "cards.tav").write_text('kind Gem\ncard "Ruby": Gem\n')
    (tmp_path / "game.tav").write_text('game "G"\ninclude "cards.tav"\n')
    r = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert r.exit_code == 0, r.output  # cards.tav is checked through game.tav
    (tmp_path / "broken.tav").write_text('game "B"\ninclude "nope.tav"\n')
    r = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert r.exit_code == 1 and "broken.tav:2:1: error: cannot include 'nope.tav'" in r.output


def test_sim_goes_on_past_a_game_that_stops_and_reports_it(tmp_path):
    text = ('game "Sometimes"\nplayers 2\ncounter c per player = 0\nvar w: player\naction a "a" { gain 1 c }\n'
            'action b "boom" { next turn w }\nrounds 3 { phase p "P" turns from player(1) once_each { actions a, b } }\n'
            'winner: highest c\n')
    for jobs in ("1", "2"):
        r = run(tmp_path, text, "sim", "FILE", "-p", "2", "--games", "20", "--jobs", jobs)
        assert r.exit_code == 1
        assert "seat  win rate" in r.output  # the summary of the games that ended
        assert "19 of 20 games stopped with an error" in r.output
        assert "x.tav:6:19: error: next turn of nobody" in r.output and "replay: tav run" in r.output
    r = run(tmp_path, text, "sim", "FILE", "-p", "2", "--games", "20", "--json")
    import json
    data = json.loads(r.output.splitlines()[0])
    assert r.exit_code == 1 and len(data["failed"]) == 19 and data["failed"][0]["line"] == 6
