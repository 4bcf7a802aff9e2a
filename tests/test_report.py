"""`tav report`: the balance report, as text, JSON and a page with pictures."""
from __future__ import annotations

import json
import math
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


BALANCE = ROOT / "tests" / "balance"
LOTS = str(BALANCE / "lots.tav")  # every seat wins with the same chance
HEAD_START = str(BALANCE / "head_start.tav")  # the first seat wins 2 in n + 1, every other 1 in n + 1


def _report(path: str, players: int, games: int, seed: int, **kw) -> dict:
    from tavernlang.report import build
    return build(compile_file(path), path, players, games, seed, {}, None, 0, "mcts:1", [], **kw)


def _findings(rep: dict) -> list[str]:
    from tavernlang.report import findings
    return findings(rep)


def _seat_findings(rep: dict) -> list[str]:
    return [x for x in _findings(rep) if x.startswith("P") and " wins " in x]


@pytest.mark.parametrize("players", [4, 6])
def test_a_report_on_fair_seats_finds_no_seat_at_most_seeds(players):
    # 40 reports of 200 games on disjoint seeds: Holm holds the chance of any false seat finding in
    # a report at 5% (uncorrected, 7 of these 40 reports at 4 players and 10 at 6 found a seat)
    found = []
    for k in range(40):
        rep = _report(LOTS, players, 200, 1 + 200 * k)
        seats = [t for t in rep["statistics"]["tests"] if t["part"] == "seat"]
        assert len(seats) == players and rep["statistics"]["comparisons"] == players
        if _seat_findings(rep):
            found.append(k)
        else:
            assert any(x.startswith("No seat's win rate differs") for x in _findings(rep))
    assert len(found) <= 3, found


def test_a_report_on_a_seat_that_wins_more_by_construction_finds_it_at_every_seed():
    for k in range(10):
        rep = _report(HEAD_START, 4, 200, 1 + 200 * k)
        said = _seat_findings(rep)
        assert said and said[0].startswith("P1 wins more often than an even share"), said
        assert "in 200 games" in said[0] and "adjusted p" in said[0]
        assert not any(x.startswith(("P2", "P3", "P4")) and "more often" in x for x in said)


def test_an_unresolved_report_says_how_many_games_would_resolve_the_effect(tav):
    r = tav("report", LOTS, "-p", "4", "-g", "200", "--skill-games", "0")
    assert r.exit_code == 0, r.output
    assert "No seat's win rate differs from an even share (25.0%) beyond chance in 200 games" in r.output
    assert "A seat 2 points off an even share takes about 5,228 games to detect" in r.output
    j = json.loads(tav("report", LOTS, "-p", "4", "-g", "200", "--skill-games", "0", "--effect", "5", "--json").output)
    ss = j["statistics"]["sample_size"]
    assert ss["effect"] == 0.05 and ss["games"] == math.ceil(((2.497705 + 0.841621) ** 2) * 0.1875 / 0.0025)
    assert j["statistics"]["method"] == "holm" and any("5 points off" in x for x in j["findings"])


def test_the_skill_and_the_variant_are_corrected_with_the_seats():
    from tavernlang.report import build
    g, h = compile_file(LOTS), compile_file(HEAD_START)
    rep = build(g, LOTS, 4, 200, 1, {}, None, 8, "greedy", [], h, HEAD_START, {})
    fam = rep["statistics"]
    assert fam["comparisons"] == 4 + 1 + (2 * 4 + 3)
    assert [t["part"] for t in fam["tests"]].count("variant") == 11
    p1 = rep["variant"]["difference"]["win_rate_by_seat"][0]
    assert p1["significant"] and p1["ci_corrected"][0] > 0 and p1["p_holm"] <= 0.05
    assert any(x.startswith("The variant changes P1 win rate: +") for x in _findings(rep))


def test_until_ci_plays_until_the_intervals_are_as_narrow_as_asked():
    rep = _report(LOTS, 2, 20, 1, until_ci=0.10)
    u = rep["until_ci"]
    assert u["reached"] and u["widest"] <= 0.10 and rep["games"] > 20
    assert rep["balance"]["games"] == rep["games"]
    widths = [t["ci"][1] - t["ci"][0] for t in rep["statistics"]["tests"]]
    assert max(widths) <= 0.10
    # decided by the games alone: the same run again, and on two processes
    again = _report(LOTS, 2, 20, 1, until_ci=0.10, jobs=2)
    assert again["games"] == rep["games"] and again["balance"] == rep["balance"]


def test_until_ci_stops_at_the_cap(tav):
    rep = _report(LOTS, 2, 20, 1, until_ci=0.01, max_games=300)
    assert rep["games"] == 300 and not rep["until_ci"]["reached"] and rep["until_ci"]["widest"] > 0.01
    assert any("stopped at the cap of 300 games" in x for x in _findings(rep))
    r = tav("report", LOTS, "-p", "2", "-g", "20", "--skill-games", "0", "--until-ci", "1", "--max-games", "300", "--json")
    j = json.loads(r.output)
    assert r.exit_code == 0 and j["games"] == 300 and j["until_ci"]["max_games"] == 300
