"""Decisions with one option are taken without asking: they are not in `decisions` (what a
player or bot chose among two or more options) and are counted apart as `forced`, the same in
both flavours, in `tav run --json`, `tav sim --json` and `--games-out`."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tavernlang import compile_file, playout
from tavernlang.cli import main
from tavernlang.engine.runner import Match, play_bots

ROOT = Path(__file__).resolve().parent.parent
LT = ROOT / "games" / "little_tavern.tav"
TM = ROOT / "games" / "tavern_masters.tav"

ONE_WAY = '''game "One Way"
players 2
counter steps per player = 0
action walk "walk" {
  choose "way" {
    option "on" { gain 1 steps }
  }
}
rounds 3 {
  phase go "Go" turns from player(1) once_each { actions walk }
}
winner: highest steps
'''


def test_both_flavours_count_the_same_forced_decisions():
    for path, n in ((LT, 3), (TM, 2)):
        game = compile_file(path)
        for seed in range(3):
            r = playout(game, n, seed)
            m = Match(game, n, seed)
            play_bots(m)
            assert (r["decisions"], r["forced"]) == (len(m.choices), len(m.st.forced)), (path.name, seed)
            assert r["forced"] > 0


def test_a_game_of_one_option_decisions_has_none_but_forced_ones(tmp_path):
    p = tmp_path / "one_way.tav"
    p.write_text(ONE_WAY)
    r = playout(compile_file(p), 2, 1)
    assert r["decisions"] == 0
    assert r["forced"] == 12  # (3 rounds, 2 players: the turn's one action and its one way, each)


def test_sim_and_run_report_forced_decisions_apart(tmp_path):
    out = tmp_path / "games.jsonl"
    res = CliRunner().invoke(main, ["sim", str(LT), "-p", "2", "--games", "4", "--json", "--games-out", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert data["forced"] == sum(r["forced"] for r in records) > 0
    assert data["decisions"] == sum(r["decisions"] for r in records)
    res = CliRunner().invoke(main, ["run", str(LT), "-p", "2", "--seed", "1", "--json"])
    run = json.loads(res.output)
    assert run["forced"] > 0 and run["decisions"] > 0
    res = CliRunner().invoke(main, ["run", str(LT), "-p", "2", "--seed", "1", "-q"])
    assert f"{run['decisions']} decisions (and {run['forced']} with one option)" in res.output
