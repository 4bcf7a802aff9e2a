"""`tav report`'s skill and strategy sections: a search bot against random bots, what it chose
beside them and which rules fired after its decisions, counted from the games played."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from tavernlang import compile_file
from tavernlang.bots import describe, drive, parse_bots, rotate
from tavernlang.engine.runner import Match
from tavernlang.report import default_skill_games, skill_verdict
from tavernlang.strategy import compare, observe, rule_name

# Taking a coin always scores (Gold 3, Lead 1); idling never does: a search should take, and take Gold
CHOICES = """game "Choices"
players 2
kind Coin { worth: int }
card "Gold" x4: Coin { worth: 3 }
card "Lead" x4: Coin { worth: 1 }
zone market: shared public
zone purse: per player public
counter points per player = 0
setup { move cards to market }
effect score(n: int) { gain n points }
action take "take a coin" {
  choose c in market "coin" {
    move c to purse of me
    do score(c.worth)
  }
}
action idle "idle" { lose 0 points }
rounds 3 { phase p "P" turns from player(1) once_each { actions take, idle } }
winner: highest points
"""


@pytest.fixture
def choices(tmp_path):
    path = tmp_path / "choices.tav"
    path.write_text(CHOICES)
    return str(path)


def _report(tav, path, *extra):
    r = tav("report", path, "-p", "2", "-g", "4", "--skill-games", "16", "--skill-bot", "mcts:30", *extra)
    assert r.exit_code == 0, r.output
    return r


def test_the_search_bot_takes_what_scores_more_often_than_random_bots(tav, choices):
    s = json.loads(_report(tav, choices, "--json").output)["strategy"]
    assert s["strong"] == "mcts:30" and s["weak"] == "random" and s["seats"] == {"mcts:30": 16, "random": 16}
    actions = {x["name"]: x for x in s["actions"]}
    assert set(actions) == {"take a coin", "idle"}
    assert actions["idle"]["strong"] < actions["idle"]["weak"]
    assert abs(actions["idle"]["strong"] + actions["take a coin"]["strong"] - 1) < 1e-9
    cards = {x["name"]: x for x in s["cards"]}
    assert cards["Gold"]["strong"] > cards["Gold"]["weak"] + 0.1
    assert cards["Gold"]["difference"] == pytest.approx(cards["Gold"]["strong"] - cards["Gold"]["weak"])
    rules = {x["name"]: x for x in s["rules"]}
    assert rules["idle"]["strong"] < rules["idle"]["weak"]  # the action fires as often as it is chosen
    assert rules["idle"]["strong_count"] == actions["idle"]["strong_count"]


def test_the_strategy_counts_are_those_of_the_games_played_again_directly(tav, choices):
    """Each skill game played again from its seed with the bots' choices: the actions and coins in
    its log, and what fired (as `tav lint --simulate` counts it), side by side with the report's counts."""
    s = json.loads(_report(tav, choices, "--json").output)["strategy"]
    game = compile_file(choices)
    title = {"take": "take a coin", "idle": "idle"}
    acted = {"mcts:30": Counter(), "random": Counter()}
    took = {"mcts:30": Counter(), "random": Counter()}
    fired: Counter = Counter()
    field = parse_bots("mcts:30", 1) + [("random", 0)]
    for i in range(16):
        bots = rotate(field, i)
        counts: dict = {}
        _, history, _ = drive(game, 2, 1 + i, None, bots, counts)
        fired.update({rule_name(k): n for k, n in counts.items() if rule_name(k)})
        m = Match(game, 2, 1 + i)
        for c in history:
            m.apply(c)
        assert m.over
        for e in m.events():  # (players numbered from 1)
            if e.get("type") == "action":
                acted[describe([bots[e["player"] - 1]])][title[e["action"]]] += 1
            elif e.get("type") == "choice" and e["prompt"] == "coin":
                took[describe([bots[e["player"] - 1]])][e["choice"]] += 1
    for table, seen in (("actions", acted), ("cards", took)):
        for x in s[table]:
            assert (x["strong_count"], x["weak_count"]) == (seen["mcts:30"][x["name"]], seen["random"][x["name"]])
    before = Counter()
    for i in range(16):  # what fired before the first decision of each game is no seat's
        before.update(observe(game, 2, 1 + i, None, rotate(field, i))["fired_before"])
    assert before["phase p"] == 16
    assert Counter({x["name"]: x["strong_count"] + x["weak_count"] for x in s["rules"]}) + before == fired


def test_observed_games_are_the_games_the_bots_play():
    from tavernlang.bots import play
    game = compile_file("games/little_tavern.tav")
    bots = rotate(parse_bots("mcts:3", 1) + [("random", 0)] * 2, 1)
    r, p = observe(game, 3, 7, None, bots), play(game, 3, 7, None, bots)
    assert (r["winners"], r["scores"], r["decisions"], r["rounds"]) == \
        (p["winners"], p["scores"], p["decisions"], p["rounds"])
    assert sum(x["decisions"] for x in r["strategy"]) == r["decisions"]


def test_compare_sets_the_strong_seats_against_the_random_seats():
    games = [{"bots": ["s", "random"], "strategy": [
        {"decisions": 4, "choices": {("action", "", "a"): 3, ("action", "", "b"): 1, ("card", "", "X"): 2},
         "fired": {"a": 3}},
        {"decisions": 4, "choices": {("action", "", "a"): 1, ("action", "", "b"): 3,
                                     ("choice", "how many: at most", "2"): 2}, "fired": {"a": 1, "phase p": 2}}]}]
    c = compare(games, "s")
    a = {x["name"]: x for x in c["actions"]}
    assert (a["a"]["strong"], a["a"]["weak"], a["a"]["difference"]) == (0.75, 0.25, 0.5)
    assert [x["name"] for x in c["cards"]] == ["X"] and c["cards"][0]["weak"] == 0.0
    assert c["choices"][0] == dict(c["choices"][0], name="how many: at most: 2", strong=0.0, weak=1.0)
    r = {x["name"]: x for x in c["rules"]}
    assert (r["a"]["strong"], r["a"]["weak"], r["phase p"]["strong"]) == (3.0, 1.0, 0.0)
    assert c["seats"] == {"s": 1, "random": 1} and c["decisions"] == {"s": 4, "random": 4}


def test_the_skill_and_strategy_sections_are_in_the_text_and_the_page(tav, choices, tmp_path):
    out = _report(tav, choices).output
    skill = out[out.index("skill: mcts:30"):out.index("findings:")]
    assert "skill matters: mcts:30 wins" in skill and "where chance is 50.0%" in skill
    for part in ("strategy: what mcts:30 does beside the random bots in the 16 skill games",
                 "actions chosen", "cards chosen", "rules fired after each side's decisions"):
        assert part in skill, part
    pytest.importorskip("matplotlib")
    _report(tav, choices, "--out", str(tmp_path / "md"))
    page = (tmp_path / "md" / "report.md").read_text()
    assert "## Skill" in page and "## Strategy" in page and "| Gold |" in page
    _report(tav, choices, "--out", str(tmp_path / "h"), "--format", "html")
    assert "<h2>Strategy</h2>" in (tmp_path / "h" / "report.html").read_text()


def test_no_skill_games_no_strategy(tav, choices):
    j = json.loads(tav("report", choices, "-p", "2", "-g", "4", "--skill-games", "0", "--json").output)
    assert j["skill"] is None and j["strategy"] is None


def test_the_default_skill_games_are_whole_rotations_fewer_for_longer_games():
    assert default_skill_games(4, {"n": 200, "mean": 1200.0}) == 8
    assert default_skill_games(4, {"n": 200, "mean": 400.0}) == 24
    assert default_skill_games(4, {"n": 200, "mean": 30.0}) == 100
    assert default_skill_games(3, {"n": 0, "mean": 0.0}) == 6
    assert default_skill_games(2, {"n": 9, "mean": 600.0}) == 8


def test_the_default_skill_games_follow_the_balance_games_length(tav, choices):
    j = json.loads(tav("report", choices, "-p", "2", "-g", "4", "--skill-bot", "mcts:2", "--json").output)
    assert j["skill"]["games"] == default_skill_games(2, j["balance"]["decisions"]) == 50


def test_the_skill_verdict_is_stated_against_chance():
    v = skill_verdict({"seats_played": 40, "rate": 0.6, "ci95": [0.45, 0.73]}, 4)
    assert v["outcome"] == "skill" and v["chance"] == 0.25
    v = skill_verdict({"seats_played": 8, "rate": 0.375, "ci95": [0.14, 0.69]}, 4)
    assert v["outcome"] == "unresolved" and v["edge"] == 0.125 and v["games_needed"] > 8
    assert skill_verdict({"seats_played": 40, "rate": 0.05, "ci95": [0.01, 0.16]}, 4)["outcome"] == "worse"
    assert skill_verdict(None, 4) is None


@pytest.mark.parametrize("args,hint", [
    (["--skill-bot", "random"], "search bot"),
    (["--skill-bot", "mcts:0"], "--skill-bot"),
    (["--skill-bot", "nobody"], "unknown bot 'nobody'"),
    (["--skill-games", "-1"], "--skill-games"),
    (["--skill-games", "x"], "--skill-games"),
])
def test_skill_options_are_checked(tav, choices, args, hint):
    r = tav("report", choices, "-p", "2", "-g", "2", *args)
    assert r.exit_code == 2 and "error:" in r.output.lower() and hint in r.output and "Traceback" not in r.output


# a division by zero in round 3 of some games only (a random draw decides which)
FAILING = ('game "S"\nplayers 2\ncounter c per player = 0\n'
           'action a "a" { gain 1 c  if random(1, 4) == 1 and round == 3 { gain 1 / (me.c - me.c) c } }\n'
           'action b "b" { gain 2 c }\n'
           'rounds 5 { phase p "P" turns from player(1) once_each { actions a, b } }\nwinner: highest c\n')


def test_skill_games_that_stop_with_an_error_are_listed_and_left_out(tav, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.tav").write_text(FAILING)
    r = tav("report", "x.tav", "-p", "2", "-g", "2", "--skill-games", "12", "--skill-bot", "mcts:2", "--json")
    assert r.exit_code == 1
    j = json.loads(r.output)
    bad = [f for f in j["failed"] if f.get("part") == "skill"]
    assert bad and all((f["line"], f["col"], f["message"]) == (4, 69, "division by zero") for f in bad)
    played = 12 - len(bad)
    assert j["skill"]["by_bot"]["mcts:2"]["seats_played"] == played
    assert j["strategy"]["seats"] == {"mcts:2": played, "random": played}
