"""--json errors: every command that offers --json reports an error in the rules, or a
game that stops, as one JSON object on stdout, {"errors": [{file, line, col, message, ...}]},
exit 1; `tav check --json` too (an empty list when clean)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tavernlang.cli import main

BAD = 'game "G"\nplayers 2\ncounter c = 0\naction a "a" { gain 1 nope }\n'
RUNAWAY = ('game "R"\nplayers 2\ncounter c per player = 1\naction a "a" { for i in range(1, 1000000000) { gain 1 c } }\n'
           'rounds 1 { phase p "P" turns from player(1) once_each { actions a } }\nwinner: highest c\n')


def _json(r):
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("cmd", [["check"], ["info"], ["run", "-p", "2"], ["sim", "-p", "2", "-g", "2"],
                                 ["mutate"]])
def test_a_rules_error_is_json(tmp_path, cmd):
    f = tmp_path / "x.tav"
    f.write_text(BAD)
    r = CliRunner().invoke(main, cmd[:1] + [str(f)] + cmd[1:] + ["--json"])
    assert r.exit_code == 1, r.output
    errs = _json(r)["errors"]
    assert errs[0]["line"] == 4 and errs[0]["col"] == 23 and "unknown counter 'nope'" in errs[0]["message"]
    assert errs[0]["file"].endswith("x.tav")


def test_a_game_that_stops_is_json(tmp_path):
    f = tmp_path / "x.tav"
    f.write_text(RUNAWAY)
    r = CliRunner().invoke(main, ["run", str(f), "-p", "2", "--json"])
    assert r.exit_code == 1
    e = _json(r)["errors"][0]
    assert (e["line"], e["col"]) == (4, 25) and "a list holds at most" in e["message"]


def test_check_json_of_a_clean_file_is_an_empty_list():
    r = CliRunner().invoke(main, ["check", "games/little_tavern.tav", "--json"])
    assert r.exit_code == 0 and _json(r) == {"errors": []}
