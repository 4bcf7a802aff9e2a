"""`tav diff BASE VARIANT` exits as `diff` does: 0 when the games are the same, 1 when they
differ, 2 when a file cannot be loaded; its output is the same either way."""
from __future__ import annotations

import json

BASE = "games/little_tavern.tav"
HOUSE_RULE = "examples/little_tavern/thirty_coins.tav"


def test_a_game_and_itself_exit_0(tav):
    r = tav("diff", BASE, BASE)
    assert r.exit_code == 0 and r.output == "no differences\n", r.output


def test_games_that_differ_exit_1_with_their_differences(tav):
    r = tav("diff", BASE, HOUSE_RULE)
    assert r.exit_code == 1, r.output
    assert "option 'win_coins': default 25 -> 30" in r.output and r.output.endswith("1 difference\n")


def test_json_of_games_that_differ_exits_1_with_the_changes(tav):
    r = tav("diff", BASE, HOUSE_RULE, "--json")
    assert r.exit_code == 1
    assert [c["name"] for c in json.loads(r.output)["changes"]] == ["win_coins"]


def test_a_file_that_does_not_load_exits_2_with_its_error(tav, rules_file):
    bad = rules_file("bad.tav", 'game "x"\nfoo\n')
    r = tav("diff", BASE, bad)
    assert r.exit_code == 2
    assert f"{bad}:2:1: error: unexpected 'foo'" in r.output


def test_a_file_that_does_not_load_exits_2_with_json_errors(tav, rules_file):
    bad = rules_file("bad.tav", 'game "x"\nfoo\n')
    r = tav("diff", bad, BASE, "--json")
    assert r.exit_code == 2
    assert json.loads(r.output)["errors"][0]["line"] == 2
