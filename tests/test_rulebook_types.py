"""`tav rules` lists the kinds of values the rules name (enums) with their values and the
comments above them; an option's values are listed with the option instead."""
from __future__ import annotations

from tavernlang.loader import load
from tavernlang.rulebook import rulebook

GAME = '''game "Types"
players 2..3
# "Every dish has a taste."
enum Taste { Sweet, Sour, Bitter }
enum Mood { Calm, Busy }
option mood: Mood = Calm "how busy the tavern is"
counter coins per player = 0 "coins"
kind Dish { taste: Taste }
card "Pie" x2: Dish { taste: Sweet }
action dig "dig" { gain 1 coins }
rounds 2 { phase work "Work" turns from player(1) { actions dig } }
winner: highest coins
'''


def test_the_components_list_the_types_of_values_with_their_quotes(tmp_path):
    f = tmp_path / "types.tav"
    f.write_text(GAME, encoding="utf-8")
    page = rulebook(load(f))
    types = page.split("### Types\n")[1].split("\n### ")[0]
    assert "- **Taste**: Sweet, Sour, Bitter.\n  > \"Every dish has a taste.\"" in types
    assert "Mood" not in types  # an option's: listed with the option
    assert "one of Calm, Busy" in page.split("## Options and modes")[1]
