"""`w` (Presentation.missing_actions): why an action is not offered, in the words the rules give."""
from __future__ import annotations

from tavernlang import compile_file

RULES = """
game "Why"
players 2
counter coins per player = 1
counter gold per player = 0
kind Good { cost: int }
card "Ham": Good { cost: 5 }
zone hand: per player public
action spend "spend" {
  require me.coins >= 1 and me.gold >= 2 and me.coins < 9
  gain 1 coins
}
action told "told" {
  require me.gold >= 2 "you need 2 gold"
  gain 1 coins
}
action buy "buy" {
  choose c in hand of me where c.cost <= me.gold "Goods to buy" { gain 1 coins }
}
action wait "wait" { gain 1 coins }
setup { move cards to hand of player(1) }
rounds {
  phase play "Play" turns from player(1) once_each { actions spend, told, buy, wait }
}
end when round > 1
winner: highest coins
"""


def _missing(tmp_path):
    f = tmp_path / "why.tav"
    f.write_text(RULES)
    g = compile_file(f)
    st = g.new_state(2, 1)
    return dict(g.missing_actions(["wait"], st, 0))


def test_a_requirement_without_a_message_names_only_the_part_of_its_condition_that_is_false(tmp_path):
    why = _missing(tmp_path)["spend"]
    assert why.startswith("it requires me.gold >= 2 (")
    assert "coins" not in why


def test_a_requirement_with_a_message_reads_its_message(tmp_path):
    assert _missing(tmp_path)["told"] == "you need 2 gold"


def test_an_action_with_nothing_to_choose_names_the_choice_it_would_ask(tmp_path):
    assert _missing(tmp_path)["buy"] == 'nothing to choose for it now: no option is open for "Goods to buy"'


OPTIONS = """
game "Expansion"
players 2
option expansion: bool = false "play with the expansion"
counter coins per player
action extra "use the expansion" {
  require expansion "only with the expansion"
  gain 1 coins
}
action wait "wait" { gain 1 coins }
rounds {
  phase play "Play" turns from player(1) once_each { actions extra, wait }
}
end when round > 1
winner: highest coins
"""


def test_an_action_the_games_options_rule_out_is_not_listed(tmp_path):
    f = tmp_path / "expansion.tav"
    f.write_text(OPTIONS)
    g = compile_file(f)
    assert "use the expansion" not in dict(g.missing_actions(["wait"], g.new_state(2, 1), 0))
    on = g.new_state(2, 1, {"expansion": True})  # (on, its requirement holds: it is listed for another reason)
    assert "use the expansion" in dict(g.missing_actions(["wait"], on, 0))
