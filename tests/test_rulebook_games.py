"""`tav rules` on each seed game, against statements taken from the game's rules: for each
game, sentences its page must say (each under its heading, or anywhere) and sentences it must
not (such as "once a turn" said of an action of a phase played at the same time)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tavernlang.loader import load
from tavernlang.rulebook import rulebook

ROOT = Path(__file__).resolve().parent.parent

# game: (heading (None: the whole page), sentences it says, sentences it does not say)
STATEMENTS = {
    "games/little_tavern.tav": [
        ("### 1. Play", ["Players take turns, starting with starter, until *round over*.",
                         "On a turn, a player does one of these actions: “draw a Character”; “draw an Event”."],
         ["several actions long", "once a turn"]),
        ("### draw a Character", ["t's owner takes the next turn."], []),  # "the player who received ... takes a turn"
        ("### Types", ["- **Clan**: Elf, Witch, Dwarf, Noble, Romantic, Adventurer, Goblin."], []),
        ("## End of the game and the winner",
         ["In case of tie, tied players share the victory.",
          "The player with the most coins wins; players still tied share the victory."], []),
        ("## Setup", ["- Move all the cards to the center of the table."], ["you", "You"]),
    ],
    "games/tavern_masters.tav": [
        # "Players play cards and make actions at the same time during each phase."
        ("### 2. Day Phase", ["All players play this phase at the same time, when *at the same time*.",
                              "The actions: “purchase Goods”; “hire Staff”; “offer a trade”."],
         ["On a turn", "once a turn"]),
        # the Rat Catcher, "once each Night"
        ("### 4. Night Phase", ["“take a Patron from the Patron discard pile” (at most once in this phase for each "
                                "player)"], ["once a turn", "On a turn"]),
        # "Flip to the next Round Marker": nobody gains the Round Marker
        ("### Counting the Till", ["- Round Marker goes up by 1."], ["You gain"]),
        ("### Types", ["- **Npc**: NoNpc, Soldier, Thug, Mage, Wench, Entertainer, Sailor, Craftsman, Hunter.",
                       "- **GoodsType**: NoGoods, Drink, Food, Game.", "- **CardType**: Staff, Goods."], []),
        ("### draw tavern (n, p)", ["> Drawing. Rulings: a deck that runs out is made again from its own discard"],
         []),
        ("### offer a trade", ['> "During the Day Phase of each round, players may offer to trade Tavern cards'], []),
        ("## End of the game and the winner",
         ["If two or more players are tied for the most Gold, all players continue",
          "- if *competitive* and *most gold* is at least *target gold* and the number of *leaders* is 1.",
          "- if not *competitive* and Round Marker is at least *chart rounds*.",
          '> "When the game ends, each player counts up their total Gold. (Competitive Play) The player'], []),
        (None, [], ["once a turn", "You gain 1 Round Marker"]),
    ],
    "games/taverns_of_tiefenthal.tav": [
        # "After you have placed all of your dice in Planning Phase [E]": a player places all their dice in one turn
        ("### 5. Plan Your Actions",
         ["Each player takes one turn, in seat order starting with starter, until *serve_early*.",
          "a player takes all their actions of this phase in their one turn, one after another, and the next "
          "player's turn begins only when theirs is over."], ["does one of these actions"]),
        # "As soon as you cannot or do not want to perform any more actions, your Serving Phase ends."
        ("### 8. Serve the Guests!",
         ["Each player takes one turn, in seat order starting with starter.",
          "a player takes all their actions of this phase in their one turn",
          "“buy a Table” (at most once in this phase)", "“recruit a Guest” (at most once in this phase)"],
         ["does one of these actions", "once a turn"]),
        ("### new evening", ["- The Moon (Turn Track) goes up by 1."], ["You gain"]),
        ("### end your Serving Phase", ['> "As soon as you cannot or do not want to perform any more actions'], []),
        ("### Types", ["- **Job**: Server, Dishwasher, Barback, Brewer, Bard."], []),
        ("## End of the game and the winner",
         ["The game ends at once during “closing time”:", "- if the Moon (Turn Track) is *last turn*.",
          "if tied, the one with the most *nobles of*(that player)"], ["(you)"]),
    ],
    "games/cavern_tavern.tav": [
        # "each player takes a turn in clockwise order ... you must perform Place Dice during your turn"
        ("### 4. Running a Round",
         ["A turn is several actions long",
          "“Place Dice” (at most once a turn, and must be taken when allowed)"], ["does one of these"]),
        ("## A round", ['> "Cavern Tavern is played over 10 rounds."'], []),
        ("### the round ends", ["- The Clock goes up by 1."], ["You gain 1 the Clock"]),
        # "If there is a tie, the player who lost fewer points from their Nasty track wins."
        ("## End of the game and the winner",
         ["if tied, the one with the fewest *nasty points*(that player's nasty); if tied, the one with the most "
          "served Orders"], ["(the fewest)", "your"]),
        ("### Types", ["- **Ingredient**: Fruit, Herbs, Syrup, Rocks, Mead, Nectar, Wine, Elixir, Ambrosia, Beer, "
                       "Liqueur, Spirits, Potion."], []),
    ],
}


def _section(page: str, heading: str | None) -> str:
    if heading is None:
        return page
    assert "\n" + heading + "\n" in page, f"no heading {heading!r}"
    rest = page.split("\n" + heading + "\n", 1)[1]
    level = heading.split(" ")[0]
    ends = [i for i in (rest.find("\n" + "#" * n + " ") for n in range(1, len(level) + 1)) if i >= 0]
    return rest[:min(ends)] if ends else rest


@pytest.mark.parametrize("rel", list(STATEMENTS))
def test_the_page_says_what_the_rules_say(rel):
    m = load(ROOT / rel)
    page = rulebook(m, source=rel)
    for heading, says, not_says in STATEMENTS[rel]:
        text = _section(page, heading)
        for s in says:
            assert s in text, f"{rel}, {heading}: missing {s!r}"
        for s in not_says:
            assert s not in text, f"{rel}, {heading}: says {s!r}"
