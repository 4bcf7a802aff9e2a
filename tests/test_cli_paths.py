"""Paths on the command line, alike in every command: a path that does not exist or cannot
be read as rules (a FIFO, a folder where one game is played) is a usage error, exit 2, on every
command; folders and `-` (standard input) are accepted where several rules files are (check,
test, lint, fmt; `-` also for run and info); a file that declares nothing is an error; a variant
changing one thing twice is an error; a failed `expect` shows what it found; a file or folder
without scenarios says so."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "dice_tavern.tav"
COMMANDS = {  # each command with F where its rules file goes
    "check": ["check", "F"], "info": ["info", "F"], "run": ["run", "F", "-p", "2"],
    "sim": ["sim", "F", "-p", "2", "-g", "2"], "test": ["test", "F"], "lint": ["lint", "F"],
    "fmt": ["fmt", "--check", "F"], "mutate": ["mutate", "F"], "play": ["play", "F", "-p", "2"],
    "diff": ["diff", str(GAME), "F"], "compare": ["compare", str(GAME), "F", "-p", "2", "-g", "2"],
    "report": ["report", "F", "-p", "2", "-g", "2", "--skill-games", "0"], "rules": ["rules", "F"],
}
FOLDERS = {"check", "test", "lint", "fmt"}
STDIN = {"check", "test", "lint", "fmt", "run", "info"}


def invoke(args, input=None):
    return CliRunner().invoke(main, args, input=input)


def _args(cmd, path):
    return [path if a == "F" else a for a in COMMANDS[cmd]]


@pytest.fixture
def where(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    shutil.copy(GAME, tmp_path / "folder" / "dice_tavern.tav")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.tav")
    return tmp_path


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_a_missing_path_is_a_usage_error(where, cmd):
    r = invoke(_args(cmd, "missing.tav"))
    assert r.exit_code == 2 and "'missing.tav' does not exist" in r.output, r.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_a_fifo_is_a_usage_error_and_never_opened(where, cmd):
    """A FIFO given as a rules file is a usage error of every command, `tav fmt` too, and is never opened."""
    r = invoke(_args(cmd, "fifo.tav"))
    assert r.exit_code == 2 and "cannot read 'fifo.tav': not a regular file" in r.output, r.output


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_a_folder_is_taken_where_files_are_and_refused_where_one_game_is(where, cmd):
    r = invoke(_args(cmd, "folder"))
    if cmd in FOLDERS:
        assert r.exit_code == (5 if cmd == "test" else 0), r.output  # (tav test: no scenario in it, exit 5)
    else:
        assert r.exit_code == 2 and "'folder' is a folder: give a rules file" in r.output, r.output


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_standard_input(where, cmd):
    r = invoke(_args(cmd, "-"), input=GAME.read_text())
    if cmd in STDIN:
        assert r.exit_code == (5 if cmd == "test" else 0), r.output  # (tav test: no scenario in it, exit 5)
    else:
        assert r.exit_code == 2 and "not standard input" in r.output, r.output


def test_check_of_standard_input_places_its_errors_in_stdin(where):
    bad = 'game "x"\nplayers 2\naction a { gain 1 coin }\n'
    r = invoke(["check", "-"], input=bad)
    assert r.exit_code == 1 and "<stdin>:3:19: error: unknown counter 'coin'" in r.output, r.output
    r = invoke(["check", "--json", "-"], input=bad)
    e = json.loads(r.stdout)["errors"][0]
    assert (e["file"], e["line"], e["col"]) == ("<stdin>", 3, 19)
    r = invoke(["lint", "-"], input=bad)
    assert r.exit_code == 1 and "<stdin>:3:19: TAV000" in r.output
    r = invoke(["test", "-"], input=GAME.read_text())
    assert "<stdin>: no scenarios in this file" in r.output


def test_standard_input_includes_stay_in_the_sandbox(where):
    r = invoke(["check", "-"], input='include "../../../../etc/passwd"\ngame "x"\nplayers 2\n')
    assert r.exit_code == 1 and "cannot include" in r.output and "root:" not in r.output
    r = invoke(["check", "-"], input='include "stdlib/dice.tav"\ngame "x"\nplayers 2\n')
    assert r.exit_code == 0, r.output


def test_fmt_of_standard_input_writes_standard_output(where):
    r = invoke(["fmt", "-"], input='game   "x"\nplayers 2\n')
    assert r.exit_code == 0 and r.output == 'game "x"\nplayers 2\n'
    r = invoke(["fmt", "--check", "-"], input='game   "x"\nplayers 2\n')
    assert r.exit_code == 1 and "<stdin>" in r.output
    r = invoke(["fmt", "--check", "-"], input='game "x"\nplayers 2\n')
    assert r.exit_code == 0 and r.output == ""


@pytest.mark.parametrize("text", ["", "# nothing yet\n", "\n\n"])
def test_a_file_that_declares_nothing_is_an_error(where, text):
    """An empty file passed `tav check`, then `tav run` found no game."""
    (where / "empty.tav").write_text(text)
    r = invoke(["check", "empty.tav"])
    assert r.exit_code == 1 and "empty.tav:1:1: error: this file is empty: it declares nothing" in r.output


def test_a_variant_changing_one_thing_twice_is_an_error(where):
    shutil.copy(GAME, where / "base.tav")
    (where / "hr.tav").write_text('extends "base.tav"\n'
                                  'replace rounds 3\nreplace rounds 4\n'
                                  'replace winner: highest beer\nreplace winner: highest fame\n'
                                  'replace players 2..3\nreplace players 2..4\n'
                                  'replace counter points per player = 1\nreplace counter points per player = 2\n')
    r = invoke(["check", "hr.tav"])
    assert r.exit_code == 1
    for line, what in ((3, "the rounds block"), (5, "the winner rule"), (7, "the 'players' line"), (9, "counter 'points'")):
        assert f"hr.tav:{line}:1: error: {what} is changed twice in this variant: only the last change would count" \
            in r.output, r.output


def test_a_failed_expect_shows_what_it_found(where):
    (where / "e.tav").write_text(
        'game "E"\nplayers 2\ncounter c per player = 0\nkind K { v: int = 1 }\ncard "k" x2: K\n'
        'zone z: shared public\nsetup { move cards to z }\ndef big(p: player): bool = p.c > 5\n'
        'action a "a" { gain 1 c }\nrounds 1 { phase p "P" turns from player(1) once_each { actions a } }\n'
        'winner: highest c\nscenario "s" players 2 {\n  run { do a }\n'
        '  expect me.c == 2\n  expect big(me)\n  expect size(z) > 3 or me.c > 1\n  expect not (me.c == 1)\n}\n')
    r = invoke(["test", "e.tav"])
    assert r.exit_code == 1
    assert "e.tav:14:10: expected me.c == 2 (me.c is 1)" in r.output
    assert "e.tav:15:10: expected big(me) (big(me) is false)" in r.output
    assert "e.tav:16:10: expected size(z) > 3 or me.c > 1 (size(z) is 2, me.c is 1)" in r.output
    assert "e.tav:17:10: expected not (me.c == 1) (me.c is 1)" in r.output, r.output


def test_files_and_folders_without_scenarios_say_so(where):
    r = invoke(["test", "folder"])  # (no scenario ran: exit 5, as pytest's "no tests collected")
    assert r.exit_code == 5 and "folder: no rules file in this folder has scenarios" in r.output
    r = invoke(["test", "folder/dice_tavern.tav"])
    assert r.exit_code == 5 and "folder/dice_tavern.tav: no scenarios in this file" in r.output
