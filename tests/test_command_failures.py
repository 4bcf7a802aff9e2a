"""How every `tav` command fails: an interrupt, the time of --timeout, an error in a rules file,
a run-time error, rules nested too deeply and a bug of tav give the same exit code and the same
message whichever command met them (check, run, lint, mutate)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tavernlang.cli import main
from tavernlang.errors import GameError, Span
from tavernlang import guard
from tavernlang.guard import Timeout

GAME = ('game "G"\nplayers 2\ncounter c per player = 0\naction a "a" { gain 1 c }\n'
        'rounds 1 { phase p "P" turns from player(1) once_each { actions a } }\nwinner: highest c\n')

COMMANDS = {"check": ["check"], "run": ["run", "-p", "2"], "lint": ["lint"], "mutate": ["mutate"]}


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.tav").write_text(GAME)
    return "g.tav"


def _invoke(command, path, *more):
    args = COMMANDS[command]
    return CliRunner().invoke(main, [args[0], path, *args[1:], *more], catch_exceptions=False)


def _loading_raises(monkeypatch, exc):
    """Make loading a rules file raise `exc`, in every command (mutate imports the loader's
    `load` by name)."""
    def load(*a, **kw):
        raise exc
    import tavernlang.loader
    import tavernlang.mutate.run
    monkeypatch.setattr(tavernlang.loader, "load", load)
    monkeypatch.setattr(tavernlang.mutate.run, "load", load)


FAILURES = [
    pytest.param(KeyboardInterrupt(), 130, "interrupted\n", id="interrupt"),
    pytest.param(Timeout(7), 1, "error: tav stopped: the command's time is up (tav --timeout 7)\n", id="timeout"),
    pytest.param(RecursionError(), 1, "error: the rules nest too deeply to run\n", id="recursion"),
    pytest.param(GameError("no such thing", Span("g.tav", 3, 5)), 1, "g.tav:3:5: error: no such thing\n",
                 id="game-error"),
    pytest.param(RuntimeError("boom"), 1, "internal error: RuntimeError: boom (set TAV_DEBUG=1 for details)\n",
                 id="bug"),
]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("exc,code,message", FAILURES)
def test_every_command_turns_a_failure_into_the_same_exit_code_and_message(game, monkeypatch, command, exc, code,
                                                                          message):
    monkeypatch.delenv("TAV_DEBUG", raising=False)
    monkeypatch.setattr(guard, "SOURCES", {})  # (no game's text left from another test)
    _loading_raises(monkeypatch, exc)
    r = _invoke(command, game)
    assert (r.exit_code, r.output) == (code, message)


@pytest.mark.parametrize("command", ["run", "mutate"])
def test_with_json_a_failure_is_one_json_object_on_standard_output(game, monkeypatch, command):
    _loading_raises(monkeypatch, Timeout(7))
    r = _invoke(command, game, "--json")
    assert r.exit_code == 1
    assert json.loads(r.stdout)["errors"][0]["message"] == "tav stopped: the command's time is up (tav --timeout 7)"


def test_a_rules_file_that_does_not_load_reads_the_same_in_mutate_as_in_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.tav").write_text('game "B"\nplayers 2\ncounter c per player = \n')
    ran, mutated = _invoke("run", "bad.tav"), _invoke("mutate", "bad.tav")
    assert ran.exit_code == mutated.exit_code == 1
    assert mutated.output == ran.output and mutated.output.startswith("bad.tav:3:23: error: unexpected end of file")
    ran, mutated = _invoke("run", "bad.tav", "--json"), _invoke("mutate", "bad.tav", "--json")
    assert mutated.stdout == ran.stdout and json.loads(mutated.stdout)["errors"][0]["line"] == 3


def test_lint_reports_a_file_that_does_not_load_at_the_same_place_as_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.tav").write_text('game "B"\nplayers 2\ncounter c per player = \n')
    ran, linted = _invoke("run", "bad.tav"), _invoke("lint", "bad.tav")
    assert ran.exit_code == linted.exit_code == 1
    head = ran.output.splitlines()[0]  # bad.tav:3:23: error: ...
    assert linted.output.splitlines()[0] == head.replace(": error: ", ": TAV000 error: ", 1)


def test_the_time_of_timeout_stops_a_lint_simulation_at_the_rules_that_were_running(tmp_path, monkeypatch):
    from tavernlang.engine import budget
    monkeypatch.setattr(budget, "LIMITS", dict(budget.LIMITS))
    monkeypatch.setenv("TAV_MAX_STEPS", str(budget.LIMITS["steps"]))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "slow.tav").write_text(GAME.replace(
        "{ gain 1 c }", "{ for i in range(1, 100000) { for j in range(1, 100000) { set c of me = 1 } } }"))
    r = CliRunner().invoke(main, ["--max-steps", "10000000000", "--timeout", "1", "lint", "--simulate", "1",
                                  "slow.tav"], catch_exceptions=False)
    assert r.exit_code == 1, r.output
    assert "slow.tav:4:" in r.output and "error: tav stopped here: the command's time is up (tav --timeout 1)" \
        in r.output, r.output
    assert "    action a " in r.output  # the rules line, with its caret
