"""Phases played at the same time (`simultaneous [if C]`, `pass final`) and trading in them
(`show CARDS to P`, `choose [up to] N`, a choice `by p`), with `has_word` and `text`, `setup at
random` in scenarios, and decisions with one option taken without asking."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavernlang import Match, TavError, compile_file, playout
from tavernlang.engine.runner import play_bots
from tavernlang.engine.scenario import run_scenario

GAME = '''
game "Market Day"
players 1..4
kind Dish { points: int = 1 }
card "Stew" x6: Dish { points: 2 }
card "Aged Cheese" x4: Dish
card "Pie" x2: Dish { points: 3 }
zone deck: shared hidden
zone hand: per player private
zone pile: shared public
zone table: per player public
counter gold per player = 3
counter offers per player = 0
option together: bool = true
action buy "buy" { require me.gold >= 1  choose c in hand of me "buy" { move c to table of me  lose 1 gold } }
action grab "take from the pile" { choose c in pile "take" { move c to hand of me } }
action offer "offer a trade" {
  require me.offers < 1
  choose p in others "trade with" {
    gain 1 offers
    show hand of p to me
    choose up to 2 mine in hand of me "give" {
      choose up to 1 theirs in hand of p "ask for" {
        choose "accept?" by p {
          option "accept" { move mine to hand of p  move theirs to hand of me }
          option "decline" { }
        }
      }
    }
  }
}
effect limit(p: player) { choose (size(hand of p) - 2) cs in hand of p "discard" by p { move cs to pile } }
setup {
  move cards to deck
  shuffle deck
  for p in players { move first(3, deck) to hand of p }
  move first(2, deck) to pile
}
rounds 3 {
  phase day "Day" turns from player(1).left simultaneous if together { actions buy, grab, offer pass final }
  phase tidy "Tidy" { for p in players { set p.offers = 0  do limit(p) } }
}
winner: highest sum(c.points for c in table of me)
'''


@pytest.fixture
def game(tmp_path):
    f = tmp_path / "market.tav"
    f.write_text(GAME)
    return compile_file(f)


def scen(tmp_path, body: str):
    f = tmp_path / "s.tav"
    f.write_text(GAME + body)
    g = compile_file(f)
    return [run_scenario(g, sc) for sc in g.scenarios]


def test_picks_are_hidden_until_they_resolve(game):
    m = Match(game, 3, 4)
    # the first pick of the Day is P2's (the phase starts from P2); then P3, then P1
    assert m.to_act() == 1 and m.pending.prompt == "at the same time: choose an action"
    seen = []
    while m.to_act() != 2:  # answer P2's pick (and its first choice) until P3 is asked
        m.apply(0)
        seen.append(len(m.st.log))
    before = m.log_lines(2)
    # nothing of P2's pick is in the log P3 sees while P3 picks
    assert not any(line.startswith("P2") for line in before[-3:])
    assert "-- round 1: Day --" == before[-1]


def test_picks_resolve_in_order_and_a_taken_card_is_no_longer_possible(tmp_path):
    r = scen(tmp_path, '''
scenario "two take the one card of the pile" players 3 {
  given { move pile to deck  move named("Pie")[1] to pile }
  answers "take from the pile", "take from the pile", "pass", "pass", "pass"
  run { do day }
  expect named("Pie")[1].zone == hand of player(2) "P2 resolves first (the phase starts from P2)"
  expect size(hand of player(3)) == 3
}
''')
    assert r[0].passed, r[0].transcript()
    t = r[0].transcript()
    assert "P3: take from the pile is no longer possible" in t
    # both picks were made before either resolved
    asked = t.index("P3 is asked 'at the same time")
    assert asked < t.index("P2: take from the pile")


def test_one_player_at_a_time_when_the_condition_is_false(tmp_path):
    r = scen(tmp_path, '''
scenario "one at a time" players 2 {
  option together = false
  given { move pile to deck  move named("Pie")[1] to pile }
  answers "take from the pile", "pass", "pass"
  run { do day }
  expect named("Pie")[1].zone == hand of player(2)
  expect offered("at the same time: choose an action") == [] "no simultaneous picks"
}
''')
    assert r[0].passed, r[0].transcript()
    t = r[0].transcript()
    # P2 plays the whole Day (taking, then passing) before P1 is asked anything
    assert t.index("P2 passes") < t.index("P1 is asked")


def test_random_bots_play_and_trade_to_the_end(game):
    traded = 0
    for seed in range(40):
        for n in (1, 2, 3, 4):
            r = playout(game, n, seed)
            assert len(r["scores"]) == n
        m = Match(game, 3, seed)
        play_bots(m)
        traded += sum(1 for line in m.log_lines(None) if "(accept?)" in line and "'accept'" in line)
    assert traded > 0, "random bots never completed a trade"


def test_a_shown_hand_is_hidden_from_the_others(game):
    for seed in range(30):
        m = Match(game, 3, seed)
        play_bots(m)
        for i, (text, hidden, data) in enumerate(m.st.log):
            if data.get("type") == "show":
                to = data["to"]
                views = {p: m.log_lines(p)[i] for p in range(3)}
                assert views[to] == text
                outsiders = [p for p in range(3) if not hidden[0] >> p & 1]
                for p in outsiders:
                    assert "card(s)" in views[p] and not any(n in views[p] for n in ("Stew", "Cheese", "Pie"))
                return
    pytest.fail("no hand was shown in 30 games")


def test_choose_n_has_no_cap_and_takes_one_at_a_time(tmp_path):
    f = tmp_path / "big.tav"
    f.write_text('''
game "Big hand"
players 2..2
kind Chip
card "chip" x300: Chip
zone hand: per player private
zone discard: shared public
effect limit { choose (size(hand of me) - 5) cs in hand of me "discard" { move cs to discard } }
scenario "discard down to 5 from 300" players 2 {
  given { move cards to hand of me }
  answers ''' + ", ".join(['"chip"'] * 295) + '''
  run { do limit }
  expect size(hand of me) == 5 and size(discard) == 295
  expect size(offered("discard", 1)) == 300 and size(offered("discard", 295)) == 6
}
scenario "nothing to discard" players 2 {
  given { move filter(c in cards where c.zone != hand of player(2))[1] to hand of me }
  run { do limit }
  expect size(hand of me) == 1
}
''')
    g = compile_file(f)
    for sc in g.scenarios:
        r = run_scenario(g, sc)
        assert r.passed, r.transcript()


def test_up_to_offers_done(tmp_path):
    r = scen(tmp_path, '''
scenario "offer one card, not two; ask for one" players 2 {
  given {
    move hand of player(1) to deck  move hand of player(2) to deck  move pile to deck
    move named("Pie") to hand of player(2)
    move named("Stew")[1] to hand of player(1)  move named("Aged Cheese")[1] to hand of player(1)
  }
  answers "Pie", "done", "Stew", "accept"
  run { do offer as player(2) }
  expect named("Stew")[1].zone == hand of player(2) and named("Aged Cheese")[1].zone == hand of player(1)
  expect size(hand of player(2)) == 2 and size(hand of player(1)) == 2
  expect offered("give") == ["Pie", "done"] "after one Pie: the other, or done"
  expect offered("ask for") == ["Stew", "Aged Cheese", "done"] "P2 was shown P1's hand"
}
''')
    assert r[0].passed, r[0].transcript()


@pytest.mark.parametrize(("text", "word", "hit"), [
    ("Aged Cheese Wheel", "cheese", True), ("Cheesecake", "Cheese", False), ("Ale", "ale", True),
    ("Pale Ale", "Ale", True), ("Female", "ale", False), ("Any Drink", "any drink", True),
    ("A Drink", "Any Drink", False), ("Mead-hall", "mead", True), ("", "x", False), ("x", "", False),
])
def test_has_word(tmp_path, text, word, hit):
    f = tmp_path / "w.tav"
    f.write_text(f'''
game "Words"
players 2..2
enum Drink {{ Ale, Mead }}
scenario "w" players 2 {{
  expect has_word("{text}", "{word}") == {"true" if hit else "false"}
  expect text(Ale) == "Ale" and text(12) == "12" and text(player(2)) == "P2" and text(true) == "true"
}}
''')
    g = compile_file(f)
    r = run_scenario(g, g.scenarios[0])
    assert r.passed, r.transcript()


def test_setup_at_random_answers_nothing_and_follows_the_seed(tmp_path):
    f = tmp_path / "draft.tav"
    f.write_text('''
game "Draft"
players 2..2
kind Dish
card "Stew" x2: Dish
card "Pie" x2: Dish
zone hand: per player private
zone deck: shared hidden
setup {
  move cards to deck
  for p in players { choose c in deck "keep" by p { move c to hand of p } }
}
scenario "random setup" players 2 seed 3 {
  setup at random
  expect size(hand of player(1)) == 1 and size(hand of player(2)) == 1
}
scenario "answered setup" players 2 {
  answers "face-down card", "face-down card"
  expect size(hand of player(1)) == 1
}
''')
    g = compile_file(f)
    a = run_scenario(g, g.scenarios[0])
    assert a.passed, a.transcript()
    assert a.transcript() == run_scenario(g, g.scenarios[0]).transcript()  # the seed fixes it
    b = run_scenario(g, g.scenarios[1])
    assert b.passed, b.transcript()


def test_a_decision_with_one_option_is_not_asked_nor_saved(tmp_path):
    f = tmp_path / "one.tav"
    f.write_text('''
game "One option"
players 2..2
kind Dish
card "Stew": Dish
zone hand: per player private
zone pile: shared public
counter coins per player = 0
action take "take" { choose c in pile "take" { move c to hand of me } }
action work "work" { gain 1 coins }
setup { move cards to pile }
rounds 1 { phase p "Play" turns from player(1) once_each { actions take, work } }
winner: highest coins
''')
    g = compile_file(f)
    m = Match(g, 2, 1)
    assert m.pending.prompt == "your turn: choose an action" and m.legal() == ["take", "work"]
    m.apply(0)  # take: the only card is taken without asking
    assert "P1 chooses Stew (take)" in m.log_lines(None)
    assert m.legal() == ["work"] or m.over  # P2: 'take' is not offered (the pile is empty)
    assert m.over, "P2's one option, 'work', was taken without asking"
    assert m.choices == [0]
    data = json.loads(json.dumps(m.save(str(f))))
    assert Match.load(g, data).st.snapshot() == m.st.snapshot()


def test_check_errors_for_the_new_constructs(tmp_path):
    f = tmp_path / "bad.tav"
    f.write_text('''
game "Bad"
players 2..2
zone hand: per player private
effect a { choose ("x") cs in hand of me "discard" { } }
effect b { show 3 to me }
effect c { show hand of me to 4 }
def d = has_word(1, "x")
rounds 1 { phase day "Day" turns from player(1) once_each simultaneous if 3 { actions e pass final } }
action e "e" { }
''')
    with pytest.raises(TavError) as info:
        compile_file(f)
    msgs = [d.message for d in info.value.diagnostics]
    assert "how many to choose should be int, not str" in msgs
    assert "can only show cards, not int" in msgs
    assert "the player shown to should be player, not int" in msgs
    assert "argument of 'has_word' should be str, not int" in msgs
    assert "'simultaneous' condition should be bool, not int" in msgs
    assert any("a simultaneous phase has no 'once_each'" in x for x in msgs)


def test_offered_starts_after_a_random_setup_and_players_n(tmp_path):
    f = tmp_path / "o.tav"
    f.write_text('''
game "Offered in setup"
players 2
kind Gem
card "Ruby": Gem
card "Opal": Gem
zone bag: shared public
zone kept: per player private
setup {
  move cards to bag
  choose c in bag "keep" by player(1) { move c to kept of player(1) }
  choose c in bag "keep" by player(2) { move c to kept of player(2) }
}
rounds 1 { phase p "P" { } }
scenario "the setup fell at random: nothing of it was offered" players 2 {
  setup at random
  expect offered("keep") == []
}
scenario "an answered setup: both picks were offered, the second with one option" players 2 {
  answers "Opal"
  expect offered("keep", 1) == ["Ruby", "Opal"] and offered("keep", 2) == ["Ruby"]
}
''')
    g = compile_file(f)
    assert (g.min_players, g.max_players) == (2, 2)  # `players 2` is `players 2..2`
    for sc in g.scenarios:
        r = run_scenario(g, sc)
        assert r.passed, r.transcript()
