"""`tav mutate`: the mutants of a small game, which its scenarios kill and which survive,
equivalent markers, the text and JSON reports, exit codes, and the same results on two
processes as on one. The seed games' scores are measured by hand (docs/mutate.md)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang.cli import main
from tavernlang.loader import load
from tavernlang.mutate import mutate, mutants
from tavernlang.mutate.operators import Index
from tavernlang.mutate.run import build, game_files

GAME = """\
game "Mini"
players 2..3
enum Colour { Red, Blue, Green }
kind Gem { colour: Colour }
card "Ruby": Gem { colour: Red }
card "Sapphire" x2: Gem { colour: Blue }
counter vp per player = 0
zone bag: shared hidden
zone hand: per player private
setup { move cards to bag }
action work "work" {
  require me.vp < 3
  gain 2 vp
}
action rest "rest" { gain 1 vp }
action pick "pick a red gem" {
  choose g in bag where g.colour == Red "gem" { move g to hand of me }
}
rounds 2 { phase p "P" turns from player(1) once_each { actions work, rest, pick } }
winner: highest vp
"""

SCENARIOS = """\
include "../mini.tav"
scenario "work gives 2 points" players 2 seed 1 {
  run { do work }
  expect player(1).vp == 2 "work gives 2"
}
scenario "the red gem is picked" players 2 seed 1 {
  run { do pick }
  expect size(hand of player(1)) == 1
}
"""


@pytest.fixture
def mini(tmp_path, monkeypatch):
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "mini.tav").write_text(GAME)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "mini_scenarios.tav").write_text(SCENARIOS)
    (tmp_path / "tests" / "unrelated.tav").write_text('game "Other"\nscenario "x" players 2 { expect 1 == 2 }\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(*args):
    return CliRunner().invoke(main, ["mutate", *map(str, args)], catch_exceptions=False)


def _survivors(rep):
    return {(r.mutant.span.line, r.mutant.change) for r in rep.survivors}


def test_the_scenarios_kill_what_they_assert_and_the_rest_survives(mini):
    rep = mutate("mini.tav")
    assert [t.path for t in rep.targets] == [os.path.join("tests", "mini_scenarios.tav")]  # not unrelated.tav
    killed = {(r.mutant.span.line, r.mutant.change) for r in rep.results if r.status == "killed"}
    surv = _survivors(rep)
    # "work gives 2" pins the amount: 2 -> 3, 1, 0 and removing the gain are noticed
    assert {(13, "2 changed to 3"), (13, "2 changed to 1"), (13, "2 changed to 0"),
            (13, "removed `gain 2 vp`")} <= killed
    # ... but not the requirement, which holds at 0 points either way
    assert (12, "removed `require me.vp < 3`") in surv
    assert (12, "`<` changed to `<=` in `me.vp < 3`") in surv
    # nothing runs 'rest'
    assert (15, "1 changed to 2") in surv
    # the red gem: its colour, the filter and the move are pinned by the second scenario
    # (without the filter the three gems are offered: the scenario has no answer for that choice)
    assert (17, "`where g.colour == Red` dropped") in killed
    assert (17, "removed `move g to hand of me`") in killed
    assert (5, "Red changed to Blue") in killed
    assert rep.mutants == rep.killed + len(rep.survivors) + rep.equivalent
    assert 0 < rep.score < 1
    assert not rep.ok


def test_mutants_are_made_on_the_checked_tree_not_the_text(mini):
    model = load("mini.tav")
    ms = mutants(model, game_files(model))
    ops = {m.op for m in ms}
    assert {"num", "copies", "cmp", "require", "stmt", "enum", "where", "lowest"} <= ops
    index = Index(list(model.decls))
    for m in ms:
        decls = index.apply(m)
        assert decls is not None
        assert decls != list(model.decls)  # a new tree, the model's own untouched
    # a mutant applies to another parse of the same file (a scenario file's include)
    other = Index(list(load("tests/mini_scenarios.tav").decls))
    assert all(other.apply(m) is not None for m in ms)
    # applied, the number is changed in the tree the checker sees
    m = next(x for x in ms if x.change == "2 changed to 3")
    new = build("mini.tav", index.apply(m), model.sources)
    assert new.actions["work"].decl.body.stmts[1].amount.value == 3
    assert model.actions["work"].decl.body.stmts[1].amount.value == 2


def test_text_report_gives_each_survivor_a_place_and_a_caret(mini):
    r = _run("mini.tav")
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    i = lines.index("mini.tav:12:3: survived: removed `require me.vp < 3`")
    assert lines[i + 1] == "      require me.vp < 3"
    assert lines[i + 2] == "      ^~~~~~~~~~~~~~~~~"
    assert "score" in r.stderr and "mutants" in r.stderr


def test_json_report(mini):
    r = _run("mini.tav", "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["mutants"] == data["killed"] + data["equivalent"] + len(data["survived"])
    assert data["equivalent"] == 0
    s = next(x for x in data["survived"] if x["change"] == "removed `require me.vp < 3`")
    assert (s["file"], s["line"], s["col"]) == ("mini.tav", 12, 3)


def test_equivalent_markers_with_reasons_silence_their_line(mini):
    text = GAME.replace("  require me.vp < 3\n", "  require me.vp < 3  # tav: equivalent no scenario is at 3 points\n")
    text = text.replace('action rest "rest" { gain 1 vp }',
                        'action rest "rest" { gain 1 vp }  # tav: equivalent nothing rests in a scenario')
    text = text.replace('  choose g in bag where g.colour == Red "gem" { move g to hand of me }',
                        '  choose g in bag where g.colour == Red "gem" { move g to hand of me }  # tav: equivalent x')
    text = text.replace("winner: highest vp", "winner: highest vp  # tav: equivalent no scenario plays to the end")
    text = text.replace('card "Sapphire" x2', 'card "Sapphire" x2')
    (mini / "mini.tav").write_text(text)
    rep = mutate("mini.tav")
    left = _survivors(rep)
    assert all(line not in (12, 15, 17, 20) for line, _ in left)
    assert rep.equivalent >= 4
    assert rep.mutants == rep.killed + len(rep.survivors) + rep.equivalent
    # a marker without a reason marks nothing and is reported; so is one on a line where all die
    text2 = text.replace("# tav: equivalent no scenario is at 3 points", "# tav: equivalent")
    text2 = text2.replace("  gain 2 vp\n", "  gain 2 vp  # tav: equivalent wrongly\n")
    (mini / "mini.tav").write_text(text2)
    r = _run("mini.tav")
    assert r.exit_code == 1
    assert "mini.tav:12:22: error: an equivalent mark must say why" in r.stdout
    assert "mini.tav:13:14: error: marked equivalent, but no mutant of this line survives" in r.stdout
    assert "mini.tav:12:3: survived: removed `require me.vp < 3`" in r.stdout


def test_exit_0_when_every_survivor_is_marked(tmp_path, monkeypatch):
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "tiny.tav").write_text(
        'game "Tiny"\nplayers 2..2\ncounter vp per player = 0\n'
        'effect score "score" { gain 2 vp }\n'
        'scenario "score" players 2 { run { do score }  expect me.vp == 2 }\n')
    monkeypatch.chdir(tmp_path)
    r = _run("tiny.tav", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0, r.stdout
    assert data["survived"] == [] and data["killed"] == data["mutants"] == 6  # 3, 1, 0, removed; the start 0 to 1 or -1


def test_tests_option_and_no_scenario_is_a_place(mini):
    (mini / "elsewhere").mkdir()
    r = _run("mini.tav", "--tests", "elsewhere")
    assert r.exit_code == 1
    assert r.stderr.startswith("mini.tav:1:1: error: no passing scenario includes or extends this game")
    assert "Traceback" not in r.output
    r = _run("mini.tav", "--tests", "tests/mini_scenarios.tav", "--json")
    assert json.loads(r.stdout)["scenario_files"] == [os.path.join("tests", "mini_scenarios.tav")]


def test_usage_errors_exit_2(mini):
    assert _run("missing.tav").exit_code == 2
    assert _run("mini.tav", "--jobs", "0").exit_code == 2


def test_a_scenario_failing_unmutated_is_left_out_with_a_warning(mini):
    (mini / "tests" / "broken.tav").write_text(
        'include "../mini.tav"\nscenario "wrong" players 2 { run { do rest }  expect player(1).vp == 5 }\n')
    rep = mutate("mini.tav")
    assert [(sp.line, title) for sp, title, _ in rep.left_out] == [(2, "wrong")]
    r = _run("mini.tav")
    assert "tests/broken.tav:2:1: warning: scenario 'wrong' fails without any mutant" in r.stderr.replace(os.sep, "/")


def test_a_mutant_that_loops_is_stopped_and_counted_killed(mini, monkeypatch):
    import time

    import tavernlang.mutate.run as run

    def forever(*a, **kw):  # the scenarios of every mutant never end
        time.sleep(60)
    monkeypatch.setattr(run, "run_target", forever)
    rep = mutate("mini.tav", time_limit=0.02)
    assert rep.results and all(r.status == "timeout" for r in rep.results if r.status != "invalid")
    assert rep.timeouts == rep.killed == rep.mutants


def test_the_engine_stops_a_loop_a_mutant_makes_endless(tmp_path, monkeypatch):
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "loop.tav").write_text(
        'game "Loop"\nplayers 2..2\ncounter vp per player = 0\n'
        'effect fill "fill" { repeat while me.vp < 3 { gain 1 vp } }\n'
        'scenario "fill" players 2 { run { do fill }  expect me.vp == 3 }\n')
    monkeypatch.chdir(tmp_path)
    rep = mutate("loop.tav")
    by_change = {r.mutant.change: r.status for r in rep.results}
    assert by_change["removed `gain 1 vp`"] in ("killed", "timeout")
    # starting at 1 instead of 0 still fills up to 3: a survivor
    assert by_change["0 changed to 1"] == "survived"


def test_two_processes_give_what_one_gives(mini):
    one = mutate("mini.tav", jobs=1)
    two = mutate("mini.tav", jobs=2)
    assert [(r.mutant.change, r.mutant.span, r.status) for r in one.results] == \
        [(r.mutant.change, r.mutant.span, r.status) for r in two.results]


@pytest.mark.slow
def test_little_tavern_score_does_not_fall(monkeypatch):
    # measured: 203 of 216 mutants killed (docs/mutate.md); the survivors left are the end
    # of the game and of a round (which no scenario can run), reveals and shuffles
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    rep = mutate("games/little_tavern.tav", jobs=2)
    assert rep.left_out == []
    assert rep.score >= 0.93, [r.mutant.change for r in rep.survivors]


def test_scenario_files_run_together_give_what_each_gives_alone(mini, monkeypatch):
    import tavernlang.mutate.run as run

    # a second file of scenarios (merged with the first), and one whose helper clashes with
    # the first's name (run alone)
    (mini / "tests" / "more.tav").write_text(
        'include "../mini.tav"\nscenario "rest gives 1" players 2 { run { do rest }  expect player(1).vp == 1 }\n')
    (mini / "tests" / "clash.tav").write_text(
        'include "../mini.tav"\ndef bonus = 2\n'
        'scenario "two works" players 2 { run { do work  do work }  expect player(1).vp == 2 * bonus }\n')
    (mini / "tests" / "mini_scenarios.tav").write_text(SCENARIOS + "def bonus = 1\n")
    together = mutate("mini.tav")
    # clash.tav and mini_scenarios.tav cannot run together (two 'bonus'); more.tav joins one
    assert sorted(len(g.scenarios) for g in together.groups) == [2, 2]
    monkeypatch.setattr(run, "merge", lambda targets, transcripts: list(targets))
    alone = mutate("mini.tav")
    assert len(alone.groups) == 3
    assert [(r.mutant.change, r.status) for r in together.results] == [(r.mutant.change, r.status) for r in alone.results]
    # the second file kills what the first did not: the rest's gain
    assert ("1 changed to 2", "killed") in [(r.mutant.change, r.status) for r in together.results
                                            if r.mutant.span.line == 15]


def test_a_file_that_does_not_load_is_a_place(mini):
    (mini / "bad.tav").write_text('game "Bad"\nplayers 2..2\ncounter vp per player = \n')
    r = _run("bad.tav")
    assert r.exit_code == 1
    assert r.stderr.startswith("bad.tav:3:")
    assert "^" in r.stderr and "Traceback" not in r.output
