"""Why a number is what it is: each gain's amount term by term, each term's value
from the game's own evaluator and its place in the rules; the winner decision key by key; what
a seat may not see stays out of its explanation; explaining changes nothing in the game."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import compile_file
from tavernlang.cli import main
from tavernlang.engine.explain import summary, tree
from tavernlang.engine.runner import Match, play_bots

ROOT = Path(__file__).resolve().parent.parent

GAMES = ["little_tavern.tav", "cavern_tavern.tav", "tavern_masters.tav", "taverns_of_tiefenthal.tav"]


@pytest.fixture(scope="module")
def lt():
    return compile_file(ROOT / "games" / "little_tavern.tav")


def _played(game, players, seed, explain=True):
    m = Match(game, players, seed, {}, explain=explain)
    play_bots(m)
    return m


def _def_line(game, name):
    return game.model.defs[name].decl.span.line


def test_tips_are_broken_down_card_by_card_with_the_rule_of_each_clan(lt):
    seen = 0
    for seed in (1, 2, 3):
        m = _played(lt, 3, seed)
        for i, line in enumerate(m.log_lines()):
            d = m.st.explain.found.get(i)
            if d is None or not d["text"].startswith("sum(tip(c)"):
                continue
            amount = int(re.match(r"P\d gains (\d+) coins?", line).group(1))
            parts = d["parts"]
            assert sum(p["value"] * p.get("times", 1) for p in parts) == amount  # the terms add up
            assert sum(p.get("times", 1) for p in parts) <= 4  # (a Table seats at most 4 Characters)
            for p in parts:
                clan = p["parts"][0]["text"].split("_tips(")[0]  # tip(X) -> the clan's def it reached
                assert p["text"].startswith("tip(") and p["because"].startswith("c.clan is ")
                assert p["because"] == f"c.clan is {clan.capitalize()}"
                line_no = _def_line(lt, f"{clan}_tips")
                assert f"little_tavern.tav:{line_no})" in summary(d)
            seen += 1
    assert seen >= 6


def test_one_tips_line_as_a_person_reads_it(lt):
    m = _played(lt, 3, 1)
    lines = m.log_lines()
    i = lines.index("P2 gains 12 coins (now 15)")
    assert summary(m.st.explain.found[i]) == (
        f"tip(Elf) 1 (little_tavern.tav:{_def_line(lt, 'elf_tips')}), "
        f"tip(Adventurer (3)) 3 (little_tavern.tav:{_def_line(lt, 'adventurer_tips')}), "
        f"tip(Witch) 3 (little_tavern.tav:{_def_line(lt, 'witch_tips')}), "
        f"tip(Noble) 5 (little_tavern.tav:{_def_line(lt, 'noble_tips')})")
    t = "\n".join(tree(m.st.explain.found[i]))
    assert "count(x in c.zone where x.clan == Elf) = 1: Elf" in t  # down to the cards counted
    assert "2 + count(x in tavern where x.clan == Witch and x != c) = 3" in t


@pytest.mark.parametrize("name", GAMES)
def test_explaining_changes_nothing_in_the_game(name):
    g = compile_file(ROOT / "games" / name)
    for seed in (1, 2):
        a, b = _played(g, 3, seed, explain=False), _played(g, 3, seed, explain=True)
        assert a.log_lines() == b.log_lines() and a.result == b.result and a.st.steps == b.st.steps
        assert a.st.explain is None and b.st.explain.found  # off unless asked for
        for i, d in b.st.explain.found.items():  # every term's value is a number (or a label), every place a line
            assert i in b.st.why or b.st.log[i][2]["type"] == "end"


def test_no_log_no_explanation(lt):
    m = Match(lt, 3, 1, {}, log=False, explain=True)  # a playout: nothing logged, nothing explained
    play_bots(m)
    assert m.st.explain is None


def test_a_secret_tasks_reward_is_explained_to_its_owner_only():
    g = compile_file(ROOT / "games" / "cavern_tavern.tav")
    for seed in range(1, 40):
        m = _played(g, 2, seed)
        for i, d in m.st.explain.found.items():
            if d is not None and d["text"].startswith("reward of "):
                owner = m.st.log[i][2]["player"]
                task = d["text"][len("reward of "):]
                assert task in summary(d, owner)
                assert task not in summary(d, 1 - owner) and "may not see" in summary(d, 1 - owner)
                assert all(task not in ln for ln in tree(d, 1 - owner))
                return
    pytest.fail("no Secret Task was met in 40 games")


def test_the_winner_decision_key_by_key():
    g = compile_file(ROOT / "games" / "cavern_tavern.tav")
    m = _played(g, 3, 1)
    t = tree(m.st.explain.found[len(m.st.log) - 1])
    keys = m.result["keys"]
    assert "winner: highest points then highest -nasty_points(me.nasty)" in t[0]
    assert t[1].endswith(", ".join(f"P{p + 1} {k[0]}" for p, k in enumerate(keys)))
    assert t[2].endswith(", ".join(f"P{p + 1} {k[1]}" for p, k in enumerate(keys)))
    assert t[-1].strip() == "winner" + ("s" if len(m.result["winners"]) > 1 else "") + ": " + \
        ", ".join(f"P{p + 1}" for p in m.result["winners"])


def test_run_explain_and_json_carry_the_terms():
    path = str(ROOT / "games" / "little_tavern.tav")
    out = CliRunner().invoke(main, ["run", path, "-p", "3", "--seed", "1", "--explain"]).output
    assert "    = tip(Elf) 1 (little_tavern.tav:" in out
    assert "    decided by little_tavern.tav:" in out
    data = json.loads(CliRunner().invoke(main, ["run", path, "-p", "3", "--seed", "1", "--json", "--explain"]).output)
    tips = [e for e in data["log"] if e["type"] == "gain" and "why" in e]
    assert tips and all(sum(p["value"] * p.get("times", 1) for p in e["why"]["parts"]) == e["amount"] for e in tips)
    assert "mask" not in json.dumps(data["log"])
    assert data["log"][-1]["why"]["keys"][0]["text"] == "coins"
    plain = json.loads(CliRunner().invoke(main, ["run", path, "-p", "3", "--seed", "1", "--json"]).output)
    assert not any("why" in e for e in plain["log"])  # only when asked for


def test_tav_plays_log_reads_zones_by_title_and_tips_term_by_term(lt):
    from tavernlang.play import _log_lines
    m = _played(lt, 3, 1)
    lines = _log_lines(m, 0)
    assert "  reveal Elf" not in lines and any(ln.endswith(" -> P2's Table") for ln in lines)  # not "table of P2"
    assert not any(" -> table of " in ln for ln in lines)
    assert any(ln.startswith("P1 chooses your Table (") or ln.startswith("P1 chooses P2's Table (") for ln in lines)
    i = lines.index("P2 gains 12 coins (now 15)")
    assert lines[i + 1].startswith("    (= tip(Elf) 1 (little_tavern.tav:")
    assert m.log_lines(0)[0] == "58 cards -> center"  # (the rules' own log keeps the rules' names)
