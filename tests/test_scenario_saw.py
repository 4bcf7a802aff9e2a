"""`saw(PLAYER, CARD, PROMPT[, N])` in a scenario's `expect`: what a player could see, at a
decision. Each rule about who sees a card (reveal, look at, show, a face-down card, a private
zone) reads true or false as the players' views do, and a scenario that asserts it fails when
the rule is broken."""
from __future__ import annotations

from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.engine.scenario import run_scenario
from tavernlang.errors import TavError

GAME = """\
game "Peek"
players 2..3
kind Gem { worth: int = 1 }
card "Ruby": Gem
card "Opal" x2: Gem
zone bag: shared hidden
zone hand: per player private
zone table: per player public
var mark: card
setup { move cards to bag }
effect draw(how: int) "draw" {
  choose c in bag where c.name == "Ruby" "draw" at random {
    if how == 1 { reveal c }
    if how == 2 { look at c }
    choose t in every table "place it at" { move c to t facedown }
  }
}
effect offer "offer" {
  choose c in hand of me "card to show" {
    show c to player(2)
    choose "take it?" by player(2) { option "yes" { move c to hand of player(2) }  option "no" { } }
  }
}
effect twice "twice" {
  choose t in every table "first" { }
  reveal filter(c in bag where c.name == "Ruby")
  choose t in every table "first" { }
}
"""


def _run(tmp_path: Path, scenario: str, game: str = GAME):
    (tmp_path / "peek.tav").write_text(game + scenario)
    g = compile_file(tmp_path / "peek.tav")
    return [run_scenario(g, sc) for sc in g.scenarios]


RUBY = 'given { set mark = filter(c in bag where c.name == "Ruby")[1] }'


@pytest.mark.parametrize(("how", "p1", "p2"), [(0, False, False), (1, True, True), (2, True, False)])
def test_reveal_and_look_at(tmp_path, how, p1, p2):
    sc = f"""
scenario "draw" players 2 {{
  {RUBY}
  answers "table of P2"
  run {{ do draw({how}) }}
  expect saw(player(1), mark, "place it at") == {str(p1).lower()}
  expect saw(player(2), mark, "place it at") == {str(p2).lower()}
}}
"""
    [r] = _run(tmp_path, sc)
    assert r.passed, r.transcript()


def test_an_assertion_of_saw_fails_when_the_rule_is_broken(tmp_path):
    sc = f"""
scenario "revealed" players 2 {{
  {RUBY}
  answers "table of P2"
  run {{ do draw(2) }}
  expect saw(player(2), mark, "place it at") "everyone sees it"
}}
"""
    [r] = _run(tmp_path, sc)
    assert not r.passed
    assert "everyone sees it" in r.failures[0][1]


def test_show_to_one_player(tmp_path):
    sc = """
scenario "shown" players 3 {
  given {
    move first(1, filter(c in bag where c.name == "Opal")) to hand of player(1)
    move filter(c in bag where c.name == "Ruby") to hand of player(1)
    set mark = filter(c in hand of player(1) where c.name == "Opal")[1]
  }
  answers "Opal", "no"
  run { do offer }
  expect saw(player(2), mark, "take it?") and saw(player(1), mark, "take it?")
  expect not saw(player(3), mark, "take it?")
  expect not saw(player(2), mark, "card to show") "before it is shown, P2 does not see P1's Hand"
}
"""
    [r] = _run(tmp_path, sc)
    assert r.passed, r.transcript()


def test_the_nth_time_and_a_forced_decision(tmp_path):
    # 'first' is asked twice (two Tables: two options); the Ruby is revealed in between
    sc = f"""
scenario "twice" players 2 {{
  {RUBY}
  answers "table of P1", "table of P1"
  run {{ do twice }}
  expect not saw(player(2), mark, "first", 1) and saw(player(2), mark, "first", 2)
  expect saw(player(2), mark, "first") "the last time"
}}
scenario "forced" players 2 {{
  given {{
    move filter(c in bag where c.name == "Opal") to hand of player(1)
    move first(1, hand of player(1)) to bag
    set mark = first(1, hand of player(1))[1]
  }}
  answers "no"
  run {{ do offer }}
  expect saw(player(2), mark, "take it?") and not saw(player(2), mark, "card to show")
    "one card to show: not asked, but it counts"
}}
"""
    rs = _run(tmp_path, sc)
    assert all(r.passed for r in rs), [r.transcript() for r in rs]


def test_a_decision_that_was_not_asked_is_an_error_not_false(tmp_path):
    sc = f"""
scenario "never" players 2 {{
  {RUBY}
  answers "table of P2"
  run {{ do draw(0) }}
  expect not saw(player(2), mark, "no such prompt")
  expect not saw(player(2), mark, "place it at", 2)
}}
"""
    [r] = _run(tmp_path, sc)
    msgs = [m for _, m in r.failures]
    assert len(msgs) == 2, msgs
    assert "the decision 'no such prompt' was not asked at all" in msgs[0]
    assert "the decision 'place it at' was asked 1 time(s), so there is no time 2" in msgs[1]


def test_saw_outside_an_expect_is_an_error(tmp_path):
    (tmp_path / "bad.tav").write_text(GAME + 'def peeked: bool = saw(player(1), mark, "draw")\n')
    with pytest.raises(TavError) as e:
        compile_file(tmp_path / "bad.tav")
    assert "saw(...) is for a scenario's 'expect' lines" in e.value.render()
