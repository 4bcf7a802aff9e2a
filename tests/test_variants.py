"""House rules: variants that extend a game, `tav diff`, `tav compare`, and the
errors a broken variant gets (in the variant file, with a note at the base)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import TavError, compile_file, load, playout
from tavernlang.cli import main
from tavernlang.diff import diff_games, render

ROOT = Path(__file__).resolve().parent.parent
BASE = "games/little_tavern.tav"
EXAMPLES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "examples").rglob("*.tav"))
VARIANTS = [e for e in EXAMPLES if (ROOT / e).read_text().lstrip().split("\n")[0].startswith("#")
            and "extends" in (ROOT / e).read_text()]
BROKEN = ["tests/variants/unknown_name.tav", "tests/variants/removal_still_used.tav",
          "tests/variants/type_mismatch.tav", "tests/variants/redefined.tav"]


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # file names in messages are relative to the working directory


@pytest.mark.parametrize("path", EXAMPLES)
def test_every_example_checks_and_plays(path):
    text = (ROOT / path).read_text()
    assert text.startswith("#"), "an example starts with a one-line comment saying what it is"
    game = compile_file(path)
    for n in (game.min_players, game.max_players):
        for seed in range(10):
            r = playout(game, n, seed)
            # a goal (Cavern Tavern solo) may be missed
            assert r["winners"] or game.guarded_winners or game.winner_everyone


def test_there_are_house_rules_for_little_tavern():
    lt = [v for v in VARIANTS if "little_tavern" in v]
    assert len(lt) >= 3


@pytest.mark.parametrize("path", VARIANTS)
def test_diff_of_each_example(path, snapshot):
    folder = Path(path).parent.name  # examples/GAME/variant.tav varies games/GAME.tav
    base = f"games/{folder}.tav" if (ROOT / "games" / f"{folder}.tav").exists() else BASE
    changes = diff_games(load(base), load(path))
    assert changes, "a house rule changes something"
    assert all(c["variant"] is None or c["variant"]["file"] == path for c in changes)
    assert render(changes) == snapshot


def test_diff_json(snapshot):
    r = CliRunner().invoke(main, ["diff", BASE, "examples/little_tavern/thirty_coins.tav", "--json"])
    assert r.exit_code == 1  # (the games differ)
    data = json.loads(r.output)
    assert data["changes"] == [
        {"change": "changed", "kind": "option", "name": "win_coins",
         "summary": "option 'win_coins': default 25 -> 30",
         "base": {"file": BASE, "line": 8, "col": 1, "text": data["changes"][0]["base"]["text"]},
         "variant": {"file": "examples/little_tavern/thirty_coins.tav", "line": 4, "col": 1,
                     "text": "set win_coins = 30"}}]
    assert r.output == snapshot


def test_no_differences_between_a_game_and_itself():
    assert diff_games(load(BASE), load(BASE)) == []


def test_a_variant_can_itself_be_extended():
    model = load("tests/variants/variant_of_variant.tav")
    rules = [(c.op, c.name) for c in model.changes if c.kind != "scenario"]
    assert rules == [("set", "win_coins"), ("replace", "goblin_tips")]
    assert not model.scenarios, "a variant does not inherit the scenarios of its base"
    changes = diff_games(load(BASE), model)
    assert sorted(c["name"] for c in changes) == ["goblin_tips", "win_coins"]
    game = compile_file("tests/variants/variant_of_variant.tav")
    st = game.new_state(3, 1)
    assert st.opt[game.model.options["win_coins"].slot] == 30


@pytest.mark.parametrize("path", BROKEN)
def test_broken_variants_are_reported_in_the_variant(path, snapshot):
    with pytest.raises(TavError) as e:
        load(path)
    for d in e.value.diagnostics:
        assert d.span.file == path, "the error is placed in the house-rules file"
    if "unknown_name" not in path:
        assert any(n.span.file.startswith("games/") for d in e.value.diagnostics for n in d.notes), \
            "a note points at the base definition"
    assert e.value.render() == snapshot


def test_cli_check_of_a_broken_variant_exits_1():
    r = CliRunner().invoke(main, ["check", "tests/variants/removal_still_used.tav"])
    assert r.exit_code == 1
    assert "tests/variants/removal_still_used.tav:4:1: error: cannot remove effect 'hello'" in r.output


def test_compare_shows_that_30_coins_lengthen_the_game():
    r = CliRunner().invoke(main, ["compare", BASE, "examples/little_tavern/thirty_coins.tav",
                                  "--players", "4", "--games", "200", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    lo, hi = rep["difference"]["rounds"]["ci95"]
    assert lo > 0, "30 coins take more rounds, beyond noise"
    assert rep["variant"]["rounds"]["mean"] > rep["base"]["rounds"]["mean"]
    lo, hi = rep["difference"]["mean_score"]["ci95"]
    assert lo > 0
    assert len(rep["base"]["win_rate_by_seat"]) == 4
    assert abs(sum(s["mean"] for s in rep["base"]["win_rate_by_seat"]) - 1) < 1e-9


def test_compare_of_a_game_with_itself_shows_no_difference():
    r = CliRunner().invoke(main, ["compare", BASE, BASE, "-p", "3", "-g", "30", "--json"])
    rep = json.loads(r.output)
    assert rep["difference"]["rounds"]["mean"] == 0 and rep["difference"]["rounds"]["ci95"] == [0, 0]


def test_compare_text_output():
    r = CliRunner().invoke(main, ["compare", BASE, "examples/little_tavern/goblins_tip_one.tav", "-p", "3", "-g", "40"])
    assert r.exit_code == 0
    assert "P1 win rate" in r.output and "rounds" in r.output and "[" in r.output


def test_one_change_of_each_name_per_variant(tmp_path):
    (tmp_path / "base.tav").write_text('game "Base"\noption goal: int = 5\ndef bonus: int = 1\n')
    f = tmp_path / "v.tav"
    f.write_text('extends "base.tav"\nset goal = 6\nset goal = 7\nreplace def bonus: int = 2\nreplace def bonus: int = 3\n')
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 1
    assert "v.tav:3:1: error: option 'goal' is changed twice in this variant" in r.output
    assert "v.tav:5:1: error: def 'bonus' is changed twice in this variant" in r.output
    assert "note: first changed here" in r.output
