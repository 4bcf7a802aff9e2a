"""`tav report`: the balance report, as text, JSON and a page with pictures."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.bots import parse_bots, play
from tavernlang.engine.runner import playout
from tavernlang.report import lead_stats, traced

ROOT = Path(__file__).resolve().parent.parent
LITTLE = str(ROOT / "games" / "little_tavern.tav")
THIRTY = str(ROOT / "examples" / "little_tavern" / "thirty_coins.tav")


def test_traced_games_are_the_games_sim_plays():
    g = compile_file(LITTLE)
    for s in (1, 2):
        t = traced(g, 3, s, None, None)
        r = playout(g, 3, s)
        assert (t["winners"], t["scores"], t["decisions"], t["rounds"]) == \
            (r["winners"], r["scores"], r["decisions"], r["rounds"])
        assert len(t["branching"]) == t["decisions"] and min(t["branching"]) >= 2
        assert t["leaders"][-1] == tuple(t["winners"])
    bots = parse_bots("greedy,random,random", 3)
    t, r = traced(g, 3, 5, None, bots), play(g, 3, 5, None, bots)
    assert (t["winners"], t["scores"], t["decisions"]) == (r["winners"], r["scores"], r["decisions"])


def test_lead_stats():
    rs = [{"winners": [0], "leaders": [(1,), (0,), (0,)]},  # 1 change; the winner leads from the middle
          {"winners": [1], "leaders": [(1,), (1,), (1,)]}]  # none: leads throughout
    s = lead_stats(rs)
    assert s["lead_changes"]["mean"] == 0.5
    assert s["winner_leads_from"]["min"] == 0.0 and s["winner_leads_from"]["max"] == 0.5
    assert s["winner_led_at_half"][0] == 1.0


def test_report_text_and_json(tav):
    r = tav("report", LITTLE, "-p", "3", "-g", "20", "--skill-games", "3", "--skill-bot", "mcts:3",
            "--vary", "event_cost=0,2")
    assert r.exit_code == 0, r.output
    for part in ("win rate by seat", "shared wins", "winning margin", "branching", "lead changes",
                 "skill: mcts:3", "--vary event_cost", "findings:"):
        assert part in r.output, part
    j = json.loads(tav("report", LITTLE, "-p", "3", "-g", "20", "--skill-games", "0", "--json").output)
    rates = j["balance"]["win_rate_by_seat"]
    assert abs(sum(x["rate"] for x in rates) - 1) < 1e-9
    assert all(0 <= x["ci95"][0] <= x["rate"] <= x["ci95"][1] <= 1 for x in rates)
    assert j["skill"] is None and j["balance"]["rounds"]["n"] == 20


def test_report_with_a_variant_writes_a_page_with_pictures(tav, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "rep"
    r = tav("report", LITTLE, THIRTY, "-p", "3", "-g", "10", "--skill-games", "2", "--skill-bot", "greedy",
            "--out", str(out), "--games-out", str(tmp_path / "g.jsonl"))
    assert r.exit_code == 0, r.output
    assert "variant, on the same seeds" in r.output
    page = (out / "report.md").read_text()
    for fn in ("games.png", "skill.png", "variant.png"):
        assert f"]({fn})" in page and (out / fn).stat().st_size > 1000
    sides = [json.loads(x)["side"] for x in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert sides.count("game") == 10 and sides.count("variant") == 10 and sides.count("skill") == 2
    r = tav("report", LITTLE, "-p", "3", "-g", "4", "--skill-games", "0", "--out", str(tmp_path / "h"),
            "--format", "html")
    html = (tmp_path / "h" / "report.html").read_text()
    assert r.exit_code == 0 and html.count("data:image/png;base64,") == 1


@pytest.mark.parametrize("args,hint", [
    (["--vary", "nonsense"], "unknown option 'nonsense'"),
    (["--vary", "win_coins=x"], "whole number"),
    (["--skill-bot", "random"], "search bot"),
    (["--skill-bot", "mcts:z"], "--skill-bot"),
    (["-V", "win_coins=3"], "VARIANT"),
    (["--bots", "nope"], "--bots"),
])
def test_report_usage_errors(tav, args, hint):
    r = tav("report", LITTLE, "-p", "3", "-g", "4", *args)
    assert r.exit_code == 2, r.output
    assert hint in r.output and "Traceback" not in r.output


def test_report_on_two_processes_is_the_same(tav):
    args = ["report", LITTLE, "-p", "3", "-g", "12", "--skill-games", "2", "--skill-bot", "mcts:2", "--json"]
    one, two = json.loads(tav(*args).output), json.loads(tav(*args, "-j", "2").output)
    one.pop("seconds"), two.pop("seconds")
    assert one == two
