"""`tav test` takes pytest's options: `--junitxml FILE` writes JUnit XML, `-k EXPR` picks scenarios
by the words of their titles (with `and`, `or`, `not`), `-x` stops at the first failure; and it
exits 5 when no scenario ran, as pytest does when it collected no test."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

GAME = '''game "E"
players 2
counter c per player = 0
action a "a" { gain 1 c }
rounds 1 { phase p "P" turns from player(1) once_each { actions a } }
winner: highest c
'''
SCENARIOS = GAME + '''scenario "one gain" players 2 {
  run { do a }
  expect me.c == 1
}
scenario "two gains, wrongly" players 2 {
  run { do a }
  expect me.c == 2
}
scenario "no gain, wrongly" players 2 {
  expect me.c == 5
}
scenario "no gain" players 2 {
  expect me.c == 0
}
'''


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sc.tav").write_text(SCENARIOS)
    (tmp_path / "game.tav").write_text(GAME)
    return tmp_path


def _ran(output: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in output.splitlines() if line.startswith(("ok ", "FAIL "))]


def test_junitxml_writes_each_scenario_as_a_testcase(tav, here):
    r = tav("test", "sc.tav", "--junitxml", "out.xml")
    assert r.exit_code == 1
    root = ET.parse(here / "out.xml").getroot()
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "2", "0")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["one gain", "two gains, wrongly", "no gain, wrongly", "no gain"]
    assert {c.get("classname") for c in cases} == {"sc.tav"} and cases[1].get("line") == "11"
    assert cases[0].find("failure") is None
    failure = cases[1].find("failure")
    assert failure.get("message") == "sc.tav:13:10: expected me.c == 2 (me.c is 1)"
    assert "scenario: two gains, wrongly" in failure.text


def test_junitxml_gives_a_file_that_does_not_load_as_an_error(tav, here):
    (here / "bad.tav").write_text(GAME + "scenario \"s\" players 2 { expect me.coins == 0 }\n")
    r = tav("test", "bad.tav", "sc.tav", "--junitxml", "out.xml")
    assert r.exit_code == 1
    suite = ET.parse(here / "out.xml").getroot().find("testsuite")
    assert suite.get("errors") == "1" and suite.get("tests") == "5"
    error = suite.find("testcase").find("error")
    assert error.get("message") == "bad.tav:7:33: error: player has no 'coins'"


def test_k_runs_the_scenarios_whose_titles_hold_the_word(tav, here):
    r = tav("test", "sc.tav", "-k", "wrongly")
    assert _ran(r.output) == ["two gains, wrongly", "no gain, wrongly"]
    assert r.exit_code == 1 and r.output.endswith("0 passed, 2 failed, 2 deselected\n")


def test_k_takes_and_or_not_and_parentheses_ignoring_case(tav, here):
    r = tav("test", "sc.tav", "-k", "GAIN and not wrongly")
    assert r.exit_code == 0 and _ran(r.output) == ["one gain", "no gain"]
    r = tav("test", "sc.tav", "-k", "one or (no and not wrongly)")
    assert _ran(r.output) == ["one gain", "no gain"]
    r = tav("test", "sc.tav", "-k", "not gain")
    assert _ran(r.output) == []


@pytest.mark.parametrize("expr", ["", "a and", "(a", "and a", "a b"])
def test_a_k_expression_that_cannot_be_read_is_a_usage_error(tav, here, expr):
    r = tav("test", "sc.tav", "-k", expr)
    assert r.exit_code == 2 and "Invalid value for -k" in r.output, r.output


def test_x_stops_at_the_first_failure(tav, here):
    r = tav("test", "sc.tav", "-x")
    assert r.exit_code == 1
    assert _ran(r.output) == ["one gain", "two gains, wrongly"]
    assert "stopping at the first failure (-x)" in r.output and r.output.endswith("1 passed, 1 failed\n")


def test_x_stops_at_a_file_that_does_not_load(tav, here):
    (here / "bad.tav").write_text(GAME + "scenario \"s\" players 2 { expect me.coins == 0 }\n")
    r = tav("test", "bad.tav", "sc.tav", "-x")
    assert r.exit_code == 1 and _ran(r.output) == []


def test_no_scenario_in_the_files_exits_5(tav, here):
    r = tav("test", "game.tav")
    assert r.exit_code == 5 and "game.tav: no scenarios in this file" in r.output


def test_every_scenario_deselected_exits_5(tav, here):
    r = tav("test", "sc.tav", "-k", "nothing_like_this")
    assert r.exit_code == 5 and r.output.endswith("0 passed, 0 failed, 4 deselected\n")


def test_scenarios_that_pass_exit_0(tav, here):
    r = tav("test", "sc.tav", "game.tav", "-k", "not wrongly")
    assert r.exit_code == 0, r.output
