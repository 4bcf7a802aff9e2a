"""`tav rules` on the end of the game and the winner: where the rules end the game at once
(`end game`, with the quote of the rule it is in, such as a tie rule), and the winner's keys,
the most or the fewest of each, read for each player."""
from __future__ import annotations

from tavernlang.loader import load
from tavernlang.rulebook import rulebook

GAME = '''game "Ends"
players 2..3
counter coins per player = 0 "coins"
counter debts per player = 0 "debts"
var extra: bool = false
def richest: int = max(p.coins for p in players)
def leaders = filter(p in players where p.coins == richest)
def goods(p: player): int = p.coins + p.debts
action dig "dig" { gain 1 coins }
effect tally "Tally" {
  # "If a player has 10 coins, the game ends. Tied players play one more round."
  if extra { end game }
  if richest >= 10 {
    if size(leaders) == 1 { end game } else { set extra = true }
  }
}
rounds {
  phase work "Work" turns from player(1) { actions dig }
  phase tally "Tally" { do tally }
}
winner: highest coins then highest -debts then highest goods(me)
'''


def _end(tmp_path) -> str:
    f = tmp_path / "ends.tav"
    f.write_text(GAME, encoding="utf-8")
    return rulebook(load(f)).split("## End of the game and the winner\n")[1]


def test_the_winner_section_says_where_the_rules_end_the_game_with_the_tie_rule(tmp_path):
    end = _end(tmp_path)
    assert "The game ends at once during “Tally”:" in end
    assert '> "If a player has 10 coins, the game ends. Tied players play one more round."' in end
    assert "- if extra." in end
    assert "- if *richest* is at least 10 and the number of *leaders* is 1." in end
    assert end.count("Tied players play one more round") == 1  # the quote once, for both ends in its rule


def test_the_winners_keys_read_the_most_or_the_fewest_for_each_player(tmp_path):
    end = _end(tmp_path)
    assert ("The player with the most coins wins; if tied, the one with the fewest debts; if tied, the one with "
            "the most *goods*(that player); players still tied share the victory.") in end
    assert "(the fewest)" not in end and "(you)" not in end
