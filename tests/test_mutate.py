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
    # the score leaves the marked mutants out: killed over those neither marked nor stand-in
    assert rep.score == rep.killed / (rep.mutants - rep.equivalent)
    # each marked mutant is listed with its marker's reason, on the standard output and in JSON
    r = _run("mini.tav")
    assert "mini.tav:20:17: equivalent: `highest vp` changed to `lowest vp`: no scenario plays to the end" \
        in r.stdout.splitlines()
    assert f"score {rep.score:.1%} ({rep.killed} of {rep.mutants - rep.equivalent})" in r.stderr
    data = json.loads(_run("mini.tav", "--json").stdout)
    assert len(data["equivalents"]) == rep.equivalent
    assert {"line": 12, "reason": "no scenario is at 3 points", "operator": "require"} in \
        [{k: e[k] for k in ("line", "reason", "operator")} for e in data["equivalents"]]
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
    # measured: all 209 of the 221 mutants that are neither stand-ins nor marked equivalent (the
    # twelve others) killed (docs/mutate.md; tests/test_mutation_scores.py keeps every seed
    # game's floor)
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    rep = mutate("games/little_tavern.tav", jobs=2)
    assert rep.left_out == []
    assert rep.score >= 0.98, [r.mutant.change for r in rep.survivors]


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


# ------------------------------------------------------------------ stand-in data
STAND_IN_GAME = """\
game "Gems"
players 2..3
enum Colour { Red, Blue, Green }
kind Gem { colour: Colour, worth: int = 0 }
include "gems/box.tav"
card "Ruby": Gem { colour: Red }
# tav: stand-in the rulebook gives no Sapphire's worth
# (a comment between the marker and the card)
card "Sapphire" x2: Gem {
  colour: Blue,
  worth: 4
}
card "Emerald": Gem { colour: Green, worth: 7 }  # tav: stand-in an invented worth
counter vp per player = 0
zone bag: shared hidden
zone hand: per player private
setup { move cards to bag }
action work "work" {
  require me.vp < 3
  gain 2 vp
}
action pick "pick a red gem" {
  choose g in bag where g.colour == Red "gem" { move g to hand of me }
}
rounds 2 { phase p "P" turns from player(1) once_each { actions work, pick } }
winner: highest vp
"""

STAND_IN_BOX = """\
# The box's odd gems.
# tav: stand-in file the rulebook prints none of these gems
card "Opal" x2: Gem { colour: Blue, worth: 5 }
card "Jade": Gem { colour: Green }
"""

STAND_IN_SCENARIOS = """\
include "../games/gems.tav"
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
def gems(tmp_path, monkeypatch):
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "games" / "gems").mkdir(parents=True)
    (tmp_path / "games" / "gems.tav").write_text(STAND_IN_GAME)
    (tmp_path / "games" / "gems" / "box.tav").write_text(STAND_IN_BOX)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "gems.tav").write_text(STAND_IN_SCENARIOS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _by_place(rep):
    return {(os.path.basename(r.mutant.span.file), r.mutant.span.line, r.mutant.change): r for r in rep.results
            if r.status != "invalid"}


def test_stand_in_mutants_are_run_but_not_scored(gems):
    rep = mutate("games/gems.tav")
    assert not rep.unused_markers and not rep.bad_markers, rep.problems
    got = _by_place(rep)
    stand = {k for k, r in got.items() if r.stand_in}
    # the declaration below a marker on a line of its own, to its end (lines 9-12)
    assert {("gems.tav", 9, "card 'Sapphire' x2 changed to x3"), ("gems.tav", 9, "card 'Sapphire' x2 changed to x1"),
            ("gems.tav", 10, "Blue changed to Green"), ("gems.tav", 11, "4 changed to 5"),
            ("gems.tav", 11, "4 changed to 3"), ("gems.tav", 11, "4 changed to 0")} <= stand
    # a marker at the end of a line: that line
    assert {("gems.tav", 13, "7 changed to 8"), ("gems.tav", 13, "Green changed to Red")} <= stand
    # a file's marker: the whole file
    assert {("box.tav", 3, "5 changed to 6"), ("box.tav", 4, "Green changed to Red")} <= stand
    # nothing else: the Ruby, the kind's default and the rules are scored
    assert {f for f, line, _ in stand} == {"gems.tav", "box.tav"}
    assert all(f == "box.tav" or 9 <= line <= 13 for f, line, _ in stand)
    assert not any(r.stand_in for k, r in got.items() if k[0] == "gems.tav" and (k[1] < 9 or k[1] > 13))
    assert got[("gems.tav", 6, "Red changed to Blue")].stand_in is None
    # a stand-in mutant is still run: the Emerald made red is noticed (two red gems to pick from)
    assert got[("gems.tav", 13, "Green changed to Red")].status == "killed"
    assert got[("gems.tav", 11, "4 changed to 5")].status == "survived"
    # the counts and the score's arithmetic
    n_stand = len(stand)
    assert rep.stand_in == n_stand
    assert rep.scored == rep.mutants - n_stand
    killed_scored = sum(1 for r in got.values() if r.status in ("killed", "timeout") and not r.stand_in)
    assert rep.scored_killed == killed_scored
    assert rep.score == killed_scored / (rep.mutants - n_stand)
    assert rep.mutants == rep.killed + rep.equivalent + len(rep.survivors) + len(rep.stand_in_survivors)
    assert all(not r.stand_in for r in rep.survivors)
    # without the markers, the same mutants are all scored
    for f, text in (("games/gems.tav", STAND_IN_GAME), ("games/gems/box.tav", STAND_IN_BOX)):
        Path(f).write_text("\n".join(x.split("# tav:")[0].rstrip() for x in text.split("\n")))
    plain = mutate("games/gems.tav")
    assert plain.mutants == rep.mutants and plain.killed == rep.killed and plain.stand_in == 0
    assert plain.score == plain.killed / plain.mutants < rep.score


def test_stand_in_text_and_json_reports(gems):
    r = _run("games/gems.tav")
    assert r.exit_code == 1  # the rules' own survivors (the requirement) remain
    rep = mutate("games/gems.tav")
    summary = r.stderr.strip().splitlines()[-1]
    assert f"score {rep.score:.1%} ({rep.scored_killed} of {rep.judged}); " \
           f"{rep.stand_in} mutants of stand-in data not scored, {len(rep.stand_in_survivors)} of them survived" \
        in summary
    assert "stand-in, not scored" not in r.stdout
    r2 = _run("games/gems.tav", "--stand-ins")
    assert "games/gems.tav:11:10: survived (stand-in, not scored): 4 changed to 5".replace("/", os.sep) in r2.stdout
    data = json.loads(_run("games/gems.tav", "--json").stdout)
    assert data["stand_in"] == rep.stand_in > 0
    assert len(data["stand_in_survived"]) == len(rep.stand_in_survivors) > 0
    s = next(x for x in data["stand_in_survived"] if x["change"] == "4 changed to 5")
    assert (s["line"], s["reason"]) == (11, "the rulebook gives no Sapphire's worth")
    assert data["mutants"] == data["killed"] + data["equivalent"] + len(data["survived"]) \
        + len(data["stand_in_survived"])
    assert data["score"] == round(data["scored_killed"] / (data["scored"] - data["equivalent"]), 4)
    assert data["judged"] == data["scored"] - data["equivalent"]
    assert data["scored"] == data["mutants"] - data["stand_in"]


def test_a_game_whose_survivors_are_all_stand_ins_passes(tmp_path, monkeypatch):
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "tiny.tav").write_text(
        'game "Tiny"\nplayers 2..2\ncounter vp per player = 0\n'
        'effect score "score" { gain 2 vp }\n'
        'effect bonus "bonus" { gain 3 vp }  # tav: stand-in the rulebook gives no bonus\n'
        'scenario "score" players 2 { run { do score }  expect me.vp == 2 }\n')
    monkeypatch.chdir(tmp_path)
    r = _run("tiny.tav", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0, r.stdout
    assert data["survived"] == [] and data["score"] == 1.0
    assert data["stand_in"] == len(data["stand_in_survived"]) == 4  # 3 to 4, 2, 0, removed


def test_stand_in_markers_that_mark_nothing_are_reported(gems):
    text = STAND_IN_GAME.replace('zone bag: shared hidden',
                                 '# tav: stand-in the bag is invented\nzone bag: shared hidden')
    text = text.replace('card "Ruby": Gem { colour: Red }', 'card "Ruby": Gem { colour: Red }  # tav: stand-in')
    text = text.replace('counter vp per player = 0', '# tav: stand-in file too late for a file\ncounter vp per player = 0')
    Path("games/gems.tav").write_text(text)
    lines = text.split("\n")
    bag = lines.index("# tav: stand-in the bag is invented") + 1
    ruby = next(i for i, x in enumerate(lines, 1) if x.startswith('card "Ruby"'))
    late = lines.index("# tav: stand-in file too late for a file") + 1
    rep = mutate("games/gems.tav")
    assert [(sp.line, sp.col) for sp in rep.unused_markers] == [(bag, 1)]
    assert [(sp.line, sp.col) for sp in rep.bad_markers] == [(ruby, 35), (late, 1)]
    # the reasonless marker marks nothing: the Ruby's mutants are scored
    assert not any(r.stand_in for r in rep.results if r.mutant.span.line == ruby)
    r = _run("games/gems.tav")
    assert r.exit_code == 1
    out = r.stdout.replace(os.sep, "/")
    assert f"games/gems.tav:{bag}:1: error: marked stand-in, but no mutant lies in the declaration on the next line" in out
    assert f"games/gems.tav:{ruby}:35: error: a stand-in mark must say what is invented" in out
    assert f"games/gems.tav:{late}:1: error: a file's stand-in mark stands on a line of its own before" in out
    data = json.loads(_run("games/gems.tav", "--json").stdout)
    assert [m["line"] for m in data["unused_markers"]] == [bag]
    assert [m["line"] for m in data["markers_without_reason"]] == [ruby, late]


# ------------------------------------------------------------------ --only
def test_only_makes_the_mutants_of_a_file_or_its_lines(gems):
    every = mutate("games/gems.tav")
    places = lambda rep: sorted((r.mutant.span.file, r.mutant.span.line, r.mutant.change)  # noqa: E731
                                for r in rep.results)
    # a path from here, and as the game includes it: the same file
    box = os.path.join("games", "gems", "box.tav")
    for p in (box, "gems/box.tav"):
        rep = mutate("games/gems.tav", only=[(p, None, None)])
        assert places(rep) == [x for x in places(every) if x[0] == box] != []
    # a line range of the entry file: the mutants starting on those lines, and their results
    rep = mutate("games/gems.tav", only=[("games/gems.tav", 18, 20)])
    got = places(rep)
    assert got == [x for x in places(every) if x[0] == os.path.join("games", "gems.tav") and 18 <= x[1] <= 20]
    assert {x[1] for x in got} == {19, 20}  # the action's requirement and its gain
    status = {(r.mutant.span.line, r.mutant.change): r.status for r in rep.results}
    assert status[(20, "2 changed to 3")] == "killed" and status[(19, "removed `require me.vp < 3`")] == "survived"
    # markers outside the selection are not reported as marking nothing
    assert not rep.unused_markers
    # two places
    two = mutate("games/gems.tav", only=[("games/gems.tav", 19, 19), ("gems/box.tav", 4, 4)])
    assert {(os.path.basename(f), line) for f, line, _ in places(two)} == {("gems.tav", 19), ("box.tav", 4)}


def test_only_on_the_command_line(gems):
    r = _run("games/gems.tav", "--only", "games/gems.tav:20", "--json")
    data = json.loads(r.stdout)
    assert data["mutants"] == data["killed"] == 4  # 2 to 3, 1, 0; the gain removed
    for bad in ("nowhere.tav", "tests/gems.tav", "games/gems.tav:9-3", "games/gems.tav:0"):
        r = _run("games/gems.tav", "--only", bad)
        assert r.exit_code == 2, (bad, r.output)
        assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("tav mutate: error: --only "), r.stderr
        assert "Traceback" not in r.output
    assert "no file of the game" in _run("games/gems.tav", "--only", "tests/gems.tav").stderr


# ------------------------------------------------------------------ the operators on rules
RULES = """\
game "Rules"
players 2..3
option generous: bool = false
enum Colour { Red, Blue }
kind Gem { colour: Colour }
card "Ruby" x3: Gem { colour: Red }
counter vp per player = 0
counter gold per player = 0
zone bag: shared hidden
zone pile: shared public
zone hand: per player private
zone table: per player public
def early: bool = round == 1
def goal: int = 3
setup { move cards to bag }
action work "work" {
  gain 1 vp
  gain 1 gold
}
action give "give" {
  choose p in others "to" { gain 1 vp to p }
}
action pick "pick" {
  choose g in hand of me.left "gem" by me.left { move g to table of me }
}
action play "play" {
  if generous { gain 2 vp } else { gain 1 vp }
}
when vp of p reaches goal { gain 5 gold to p }
rounds 2 {
  phase day "Day" turns from player(1) once_each { actions work, give, pick }
  phase night "Night" turns from player(1) once_each { actions play }
}
winner: highest vp
at game end { for p in players { gain 1 vp to p } }
action hand_over "hand over" {
  gain 1 gold
  next turn me.left
}
action tidy "tidy" {
  gain 1 gold
  move cards to pile
  shuffle pile
  gain 2 score
  lose 1 score
  set gold of me = 2
  set gold of me = 3
}
counter score per player = 0
view { "Bags" if generous: bag, pile }
effect weather(n: int) {
  if n == 1 { gain 1 gold }
  if n == 2 or n == 3 { gain 1 vp }
}
var stage: int = 1
effect advance {
  if stage == 1 { set stage = 2 }
  if stage == 2 { gain 1 gold }
}
"""

RULE_SCENARIOS = """\
include "../rules.tav"
scenario "a point is given to another player" players 2 seed 1 {
  run { do give }
  expect player(2).vp == 1 and player(1).vp == 0
}
scenario "the player on the left picks from their own private hand" players 3 seed 1 {
  given { move first(2, bag) to hand of player(2) }
  answers "Ruby"
  run { do pick }
  expect size(table of player(1)) == 1
  expect offered("gem") == ["Ruby", "Ruby"] "P2 sees their own hand"
}
"""


@pytest.fixture
def rules(tmp_path, monkeypatch):
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "rules.tav").write_text(RULES)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "rules_scenarios.tav").write_text(RULE_SCENARIOS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _rule_changes():
    from tavernlang.mutate.operators import RULE_OPERATORS
    model = load("rules.tav")
    return model, [m for m in mutants(model, game_files(model)) if m.op in RULE_OPERATORS]


def test_the_operators_on_rules_change_zones_players_conditions_phases_order_triggers_and_ifs(rules):
    _, ms = _rule_changes()
    got = {(m.op, m.span.line, m.change) for m in ms}
    assert {
        ("zone", 15, "zone `bag` changed to `pile` in `bag`"),  # a shared zone for the next shared one
        ("zone", 24, "zone `hand of ...` changed to `table` in `hand of me.left`"),  # per player for per player
        ("player", 21, "`others` changed to `players`"),
        ("player", 24, "`by me.left` changed to `by me`"),
        ("player", 24, "`.left` changed to `.right` in `me.left`"),
        ("cond", 27, "`generous` changed to `early`"),  # a boolean option for a boolean definition
        ("action", 31, "action `work` removed from phase `day`"),
        ("action", 32, "action `play` moved from phase `night` to phase `day`"),
        ("action", 31, "action `pick` moved from phase `day` to phase `night`"),
        ("swap", 17, "`gain 1 vp` and `gain 1 gold` swapped"),
        ("trigger", 29, "trigger `when vp of p reaches` changed to `when gold of p reaches`"),
        ("trigger", 29, "threshold `goal` changed to `goal + 1`"),
        ("trigger", 29, "threshold `goal` changed to `goal - 1`"),
        ("if", 27, "the then block of `if generous` dropped"),
        ("if", 27, "the else block of `if generous` dropped"),
    } <= got
    # a zone is never changed for one of another kind of owner, nor an integer definition for a condition
    assert not any(m.op == "zone" and "bag" in m.change and "hand" in m.change for m in ms)
    assert not any(m.op == "cond" and "goal" in m.change for m in ms)
    # where no one acts (`at game end`), `others` is every player: no mutant
    assert not any(m.op == "player" and m.span.line == 35 for m in ms)
    # `next turn` of a fixed player only names who plays next: swapped with a gain, the same
    assert not any(m.op == "swap" and m.span.line == 37 for m in ms)
    # two statements that neither read nor write what the other writes (Gold, the cards): the same
    # in either order; a move and a shuffle of the same cards are not (nor a gain with a trigger)
    # a view only groups what `tav play` shows: its condition is no rule
    assert [m.change for m in ms if m.op == "cond"] == ["`generous` changed to `early`"]
    swaps = {m.change for m in ms if m.op == "swap"}
    assert "`gain 1 gold` and `move cards to pile` swapped" not in swaps
    assert {"`move cards to pile` and `shuffle pile` swapped", "`gain 1 vp` and `gain 1 gold` swapped"} <= swaps
    # additions to a counter without bounds commute; two settings of one counter do not
    assert "`gain 2 score` and `lose 1 score` swapped" not in swaps
    assert "`set gold of me = 2` and `set gold of me = 3` swapped" in swaps
    # two ifs on different values of one name: at most one runs, unless the first changes it
    assert not any("if n == 1" in c for c in swaps)
    assert any("if stage == 1" in c for c in swaps)


def test_every_mutant_of_the_operators_on_rules_checks(rules):
    model, ms = _rule_changes()
    index = Index(list(model.decls))
    for m in ms:
        new = build("rules.tav", index.apply(m), model.sources)  # TavError if a mutant were ill-typed
        assert new is not None
    # applied: the action moved is in the other phase, and no longer in its own
    m = next(x for x in ms if x.change == "action `play` moved from phase `night` to phase `day`")
    phases = {p.name: [a.name for a in p.actions] for p in build("rules.tav", index.apply(m), model.sources).rounds.phases}
    assert phases == {"day": ["work", "give", "pick", "play"], "night": []}


def test_scenarios_kill_the_rule_mutants_they_pin(rules):
    rep = mutate("rules.tav", operators={"player", "zone"})
    status = {r.mutant.change: r.status for r in rep.results if r.mutant.span.line < 30}  # the rules the scenarios run
    assert status["`others` changed to `players`"] == "killed"  # P1 is offered too: an answer is missing
    assert status["`by me.left` changed to `by me`"] == "killed"  # P1 sees face-down cards
    assert status["`.left` changed to `.right` in `me.left`"] == "killed"  # in 3 players, P3's empty hand
    assert status["zone `hand of ...` changed to `table` in `hand of me.left`"] == "killed"
    assert status["zone `table of ...` changed to `hand` in `table of me`"] == "killed"
    assert status["zone `bag` changed to `pile` in `bag`"] == "killed"  # the setup puts the gems in the pile
    assert {r.mutant.op for r in rep.results} == {"player", "zone"}


def test_operator_option_selects_the_mutants_and_json_counts_them_by_operator(rules):
    r = _run("rules.tav", "--operator", "rules", "--json")
    data = json.loads(r.stdout)
    ops = data["operators"]
    assert set(ops) == {"zone", "player", "cond", "action", "swap", "trigger", "if"}
    assert sum(c["mutants"] for c in ops.values()) == data["mutants"]
    assert sum(c["killed"] for c in ops.values()) == data["killed"]
    assert sum(c["survived"] for c in ops.values()) == len(data["survived"])
    assert data["unused_markers"] == []
    r = _run("rules.tav", "--operator", "cmp", "--operator", "swap", "--json")
    assert set(json.loads(r.stdout)["operators"]) == {"cmp", "swap"}
    r = _run("rules.tav", "--operator", "nothing")
    assert r.exit_code == 2 and "Traceback" not in r.output
