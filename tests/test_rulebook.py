"""`tav rules`: a rulebook in plain words from the checked rules. Each seed game's page (and a
house rule's) is pinned by a snapshot; the tests below assert what a player must find in it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavernlang.loader import load
from tavernlang.rulebook import rulebook

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/little_tavern.tav", "games/tavern_masters.tav", "games/taverns_of_tiefenthal.tav",
         "games/cavern_tavern.tav"]
VARIANTS = ["examples/little_tavern/no_mystery.tav"]


def _page(rel: str) -> str:
    m = load(ROOT / rel)
    base = load(m.base_path) if m.base_path else None
    return rulebook(m, base, source=rel)


@pytest.mark.parametrize("rel", GAMES + VARIANTS)
def test_rulebook_snapshot(rel, snapshot):
    assert _page(rel) == snapshot


def test_little_tavern_rulebook_says_what_the_printed_one_does():
    page = _page("games/little_tavern.tav")
    # components with counts, from the components list, and the cards with their text
    assert "- 10 Elves (Character: clan Elf)" in page
    assert "- 8 Goblins (Character: clan Goblin)" in page
    assert "- 14 Event cards (Event) — *stand-in*" in page
    assert "- **Elf** ×10: Each Elf tips 1 coin per Elf at their Table, including themself." in page
    assert "- **Adventurer (3)** ×2: Each Adventurer tips as many coins as shown on her card: 3." in page
    # an action under its title, with its requirements (and their messages) and what it does
    action = page.split("### draw an Event")[1].split("\n### ")[0]
    assert "- you have at least *event_cost* coins (“you need at least 1 coin in front of you”)" in action
    assert "- every Table is not empty (“every Table needs at least 1 Character”)" in action
    assert "Give *event_cost* of your coins to p." in action
    # the round's phases, in order, and the end
    assert page.index("### 1. Play") < page.index("### 2. End of the Round") < page.index("### 3. New Round")
    assert "Players take turns, starting with starter, until *round over*." in page
    assert "- **round over**: every Table is full." in page
    assert "the game ends if there is a player p in the players where p has at least *win_coins* coins" in page
    assert "The player with the most coins wins; players still tied share the victory." in page
    # options, and the comments above declarations carried along
    assert "- **win_coins** (a number, from 1 to 1000; 25 unless chosen otherwise)" in page
    assert "> Nobles — Each Noble tips 5 coins, minus 1 coin per other Noble in the Tavern." in page
    assert "- **noble tips** of c: 5 minus the number of cards x in *tavern* where x's clan is Noble and x is not c." in page
    assert "tav: equivalent" not in page  # tool markers are not rules


def test_a_house_rule_page_says_what_it_changes_against_its_base():
    page = _page("examples/little_tavern/no_mystery.tav")
    head = page.split("## What this house rule changes")[1].split("\n## ")[0]
    assert "This is a house rule of `../../games/little_tavern.tav`." in head
    assert '- removed: card "Mystery Customer" is gone' in head
    assert "- added: phase 'pure_tables' is new" in head
    cards = page.split("### The cards")[1].split("## On the table")[0]
    assert "**Reserved Seat** ×2" in cards and "Mystery Customer" not in cards  # the card is gone from the cards


def test_tav_rules_writes_the_page_with_out(tmp_path):
    out = tmp_path / "rules.md"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "tavernlang", "rules", "games/little_tavern.tav", "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8") == _page("games/little_tavern.tav")
    r = subprocess.run([sys.executable, "-m", "tavernlang", "rules", "games/little_tavern.tav", "--out",
                        str(tmp_path / "no" / "such" / "dir.md")], cwd=ROOT, capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 1 and r.stderr.startswith("error: cannot write") and "Traceback" not in r.stderr
