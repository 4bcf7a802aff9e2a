"""The `tav` command: outputs, JSON shapes and exit codes (0 ok, 1 rules/game error, 2 usage)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path



ROOT = Path(__file__).resolve().parent.parent
LT = str(ROOT / "games" / "little_tavern.tav")


def test_check_is_silent_when_clean(tav):
    r = tav("check", LT, str(ROOT / "examples" / "dice_tavern.tav"))
    assert r.exit_code == 0
    assert r.output == ""


def test_check_reports_errors_with_places(tav, tmp_path):
    f = tmp_path / "bad.tav"
    f.write_text('game "x"\ncounter coins per player\naction a { gain 1 coin }\n')
    r = tav("check", str(f))
    assert r.exit_code == 1
    assert f"{f}:3:19: error: unknown counter 'coin' (did you mean 'coins'?)" in r.output
    assert "^" in r.output


def test_info_json(tav):
    r = tav("info", LT, "--json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data["name"] == "Little Tavern"
    assert data["players"] == {"min": 2, "max": 5}
    assert data["options"]["win_coins"]["default"] == 25
    assert data["options"]["win_coins"]["min"] == 1


def test_run_prints_a_log_and_result(tav):
    r = tav("run", LT, "--players", "3", "--seed", "1")
    assert r.exit_code == 0
    assert "-- round 1: Play --" in r.output
    assert "(winner)" in r.output


def test_run_json_and_determinism(tav):
    a = json.loads(tav("run", LT, "--players", "4", "--seed", "9", "--json").output)
    b = json.loads(tav("run", LT, "--players", "4", "--seed", "9", "--json").output)
    assert a == b
    for key in ("winners", "scores", "seed", "decisions"):
        assert key in a
    assert a["seed"] == 9 and len(a["scores"]) == 4


def test_run_with_an_option_changes_the_game(tav):
    short = json.loads(tav("run", LT, "-p", "3", "--seed", "2", "--option", "win_coins=5", "--json").output)
    assert short["rounds"] == 1
    assert max(short["scores"]) >= 5


def test_usage_errors_exit_2(tav):
    assert tav("run", LT, "--players", "9").exit_code == 2
    assert tav("run", LT, "--players", "3", "--option", "nope=1").exit_code == 2
    assert tav("run", LT, "--players", "3", "--option", "win_coins=lots").exit_code == 2
    assert tav("run", LT, "--players", "3", "--option", "win_coins=0").exit_code == 2
    assert tav("sim", LT).exit_code == 2
    assert tav("frobnicate").exit_code == 2


def test_sim_json(tav):
    r = tav("sim", LT, "--players", "4", "--games", "20", "--seed", "1", "--json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    for key in ("games", "seconds", "playouts_per_s", "decisions", "decisions_per_s", "wins_by_seat"):
        assert key in data
    assert data["games"] == 20
    assert abs(sum(data["wins_by_seat"]) - 20) < 1e-6


def test_sim_on_two_processes_reports_what_one_does(tav):
    one = json.loads(tav("sim", LT, "--players", "3", "--games", "24", "--json").output)
    two = json.loads(tav("sim", LT, "--players", "3", "--games", "24", "--jobs", "2", "--json").output)
    for key in ("decisions", "mean_rounds", "wins_by_seat", "mean_score_by_seat"):
        assert one[key] == two[key], key
    assert two["jobs"] == 2


def test_compare_on_two_processes_reports_what_one_does(tav):
    base, variant = LT, str(ROOT / "examples" / "little_tavern" / "thirty_coins.tav")
    one = json.loads(tav("compare", base, variant, "-p", "3", "-g", "12", "--json").output)
    two = json.loads(tav("compare", base, variant, "-p", "3", "-g", "12", "-j", "2", "--json").output)
    assert one["difference"] == two["difference"] and one["variant"] == two["variant"]


def test_a_rules_error_on_a_worker_process_keeps_its_place(tav, tmp_path):
    f = tmp_path / "boom.tav"
    f.write_text('game "boom"\nplayers 2..2\nvar who: player\ncounter c per player = 0\n'
                 'rounds 2 { phase a { gain 1 c to who } }\n')
    r = tav("sim", str(f), "-p", "2", "-g", "4", "-j", "2")
    assert r.exit_code == 1 and f"{f}:5:22: error: a value here is none" in r.output


def test_sim_text(tav):
    r = tav("sim", LT, "--players", "2", "--games", "5")
    assert r.exit_code == 0
    assert "playouts/s" in r.output and "win rate" in r.output


def test_test_command_runs_scenarios(tav):
    r = tav("test", str(ROOT / "tests" / "scenarios" / "little_tavern" / "counting_tips.tav"))
    assert r.exit_code == 0
    assert "1 passed, 0 failed" in r.output


def test_test_command_fails_on_a_broken_expectation(tav, tmp_path):
    import shutil
    shutil.copy(ROOT / "games" / "little_tavern.tav", tmp_path / "little_tavern.tav")  # includes stay in the tree
    shutil.copytree(ROOT / "games" / "little_tavern", tmp_path / "little_tavern")
    f = tmp_path / "wrong.tav"
    f.write_text('include "little_tavern.tav"\n'
                 'scenario "wrong" players 2 { run { do count_tips } expect player(1).coins == 99 }\n')
    r = tav("test", str(f))
    assert r.exit_code == 1
    assert "0 passed, 1 failed" in r.output
    assert "expected player(1).coins == 99 (player(1).coins is " in r.output  # and what it found


def test_play_save_and_resume(tav, tmp_path):
    save = tmp_path / "g.json"
    r = tav("play", LT, "--players", "3", "--seat", "2", "--seed", "5", "--save-to", str(save), input="1\n1\ns\nq\n")
    assert r.exit_code == 0, r.output
    assert save.exists()
    data = json.loads(save.read_text())
    assert data["seat"] == 2 and data["choices"]
    r2 = tav("play", LT, "--players", "3", "--load", str(save), input="q\n")
    assert r2.exit_code == 0
    assert f"resumed Little Tavern after {len(data['choices'])} decisions" in r2.output


def test_play_shows_only_the_seats_view(tav):
    # hidden center: the player sees face-down cards only as a count
    r = tav("play", LT, "--players", "2", "--seat", "1", "--seed", "3", input="v\nq\n")
    assert "center: 58 face-down card(s)" in r.output or "face-down cards" in r.output


def test_python_dash_m_and_no_traceback_on_garbage(tmp_path):
    f = tmp_path / "garbage.tav"
    f.write_bytes(b"\xff\xfe\x00 junk {{{")
    p = subprocess.run([sys.executable, "-m", "tavernlang", "check", str(f)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert f"{f}:1:1: error:" in p.stderr


def test_a_run_time_fault_in_the_rules_is_placed(tav, tmp_path):
    f = tmp_path / "bad.tav"
    f.write_text('game "Bad"\nplayers 2..2\ncounter coins per player = 0\nvar who: player\n'
                 'rounds 1 {\n  phase a { gain 1 coins to who }\n}\nwinner: highest coins\n')
    for cmd in (["run", str(f), "-p", "2"], ["sim", str(f), "-p", "2", "-g", "2"]):
        r = tav(*cmd)
        assert r.exit_code == 1
        assert f"{f}:6:13: error: a value here is none" in r.output
        assert "Traceback" not in r.output


def test_final_scoring_runs_once_when_the_game_ends(tav, tmp_path):
    f = tmp_path / "final.tav"
    f.write_text('game "Final"\nplayers 2..2\ncounter points per player = 0\ncounter gems per player = 0\n'
                 'action dig "dig a gem" { gain 1 gems }\n'
                 'rounds 3 { phase play "Play" turns from player(1) once_each { actions dig } }\n'
                 'at game end { for p in players { gain 2 * p.gems points to p } }\n'
                 'winner: highest points\n')
    data = json.loads(tav("run", str(f), "-p", "2", "--json").output)
    assert data["scores"] == [6, 6], "3 gems each, worth 2 points each, counted once"
    assert sum(1 for e in data["log"] if e.get("phase") == "game end") == 1
