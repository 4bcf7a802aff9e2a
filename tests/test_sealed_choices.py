"""Sealed choices in a phase played at the same time: every choice at the head of a picked
action (a `choose x in`, `choose number`, `choose subset`, `choose [up to] N`, `choose { option
... }`, and the choices that begin their bodies) is made with the pick, before any pick of the
step is shown; it is checked again as the pick resolves; the choices after the action's first
other statement are asked as it resolves (docs/language.md, "Sealed choices")."""
from __future__ import annotations

import random

import pytest

from tavernlang import Match, TavError, compile_file, playout
from tavernlang.engine.runner import play_bots
from tavernlang.engine.scenario import run_scenario
from test_simultaneous_secrecy import interference

# every choice of an action of the phase is at its head: the whole of each seat's part of a
# step is its pick
HEADS = '''
game "Heads"
players 2..4
kind Dish { points: int = 1 }
card "Stew" x6: Dish { points: 2 }
card "Pie" x6: Dish { points: 3 }
zone deck: shared hidden
zone hand: per player private
zone pile: shared public
zone table: per player public
counter coins per player = 5
counter bid per player = 0
action offer "make an offer" {
  choose c in hand of me "dish" {
    choose number n in 0..me.coins "coins" {
      choose up to 2 xs in pile "from the pile" {
        choose "how" {
          option "keep" { choose subset ys of hand of me size 0..1 "also keep" { move ys to table of me } }
          option "sell" { gain 1 coins }
        }
        gain n bid
        move c to table of me
        move xs to hand of me
      }
    }
  }
}
action grab "take from the pile" {
  choose c in pile "take" { choose number k in 0..1 "and coins" { move c to hand of me  gain k coins } }
}
setup {
  move cards to deck
  shuffle deck
  for p in players { move first(3, deck) to hand of p }
  move first(3, deck) to pile
}
rounds 3 {
  phase day "Day" turns from player(1) simultaneous { actions offer, grab pass final }
}
winner: highest sum(c.points for c in table of me)
'''

# a choice after an effect: asked as the action resolves, after the earlier seats' actions
LATER = '''
game "Later"
players 2..3
counter coins per player = 3
counter paid per player = 0
action pay "pay" {
  gain 1 paid
  choose number n in 0..me.coins "how much" { lose n coins }
}
rounds 1 {
  phase day "Day" turns from player(1) simultaneous { actions pay once }
}
winner: highest coins
'''


@pytest.fixture(scope="module")
def heads(tmp_path_factory):
    f = tmp_path_factory.mktemp("heads") / "heads.tav"
    f.write_text(HEADS)
    return f


def _scenarios(tmp_path, game: str, body: str):
    f = tmp_path / "s.tav"
    f.write_text(game + body)
    g = compile_file(f)
    return [run_scenario(g, sc) for sc in g.scenarios]


def in_step(m: Match):
    """The step of a phase played at the same time the pending decision is made in, picks and
    resolutions alike (the round, the phase's running interpreter and its count of steps); None:
    none."""
    g = m._gen
    while g is not None:
        f = g.gi_frame
        if f is not None and f.f_code.co_name == "_simultaneous_turns":
            return (m.st.round, id(f), f.f_locals.get("steps")), None, 0
        g = g.gi_yieldfrom
    return None


@pytest.mark.parametrize(("game", "players"), [("examples/sealed_bids.tav", 3), ("examples/sealed_bids.tav", 4),
                                               ("heads", 3), ("heads", 2)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_decision_of_a_step_reads_the_other_seats_choices_of_that_step(heads, game, players, seed):
    """In games whose simultaneous actions have only choices at their heads, every decision a
    seat makes during a step is part of its pick: none reads what another seat chose in the
    step (its log, view and options are the same when that choice is made otherwise)."""
    path = str(heads) if game == "heads" else game
    assert interference(path, players, seed, checks=8, step=in_step) == []


def test_the_secrecy_check_finds_a_choice_asked_after_the_earlier_seats_resolved(tmp_path):
    """The property can fail: a choice after an effect is asked as its action resolves, when
    the earlier seats' choices are in the log."""
    f = tmp_path / "later.tav"
    f.write_text(LATER)
    problems = interference(str(f), 2, 1, checks=8, step=in_step)
    assert problems and "reads P1's pick" in problems[0][4], problems


def test_a_bid_is_asked_of_every_seat_before_any_bid_is_shown():
    m = Match(compile_file("examples/sealed_bids.tav"), 3, 1)
    asked = []
    for bid in (5, 4, 3):
        d = m.pending
        assert d.prompt == "your bid"
        asked.append(d.player)
        assert not any("chooses" in line or "gains" in line for line in m.log_lines(d.player)), m.log_lines(d.player)
        m.apply(bid)
    assert asked == [0, 1, 2]
    log = m.log_lines(None)
    assert log.index("P1 chooses 5 (their bid)") < log.index("P2 chooses 4 (their bid)") < log.index("P3 chooses 3 (their bid)")


def test_every_choice_at_the_head_is_made_with_the_pick_in_order(heads):
    """P1's pick asks the whole head of its action (a card, a number, up to 2 cards, an option,
    the option's subset) before P2 is asked anything; then both resolve."""
    m = Match(compile_file(heads), 2, 3)
    prompts = []
    answers = {"at the same time: choose an action": 0, "how": 0}
    while m.pending.player == 0:
        prompts.append(m.pending.prompt)
        m.apply(answers.get(m.pending.prompt, 0) if m.pending.prompt != "from the pile" else len(m.pending.options) - 1)
    assert prompts == ["at the same time: choose an action", "dish", "coins", "from the pile", "how", "also keep"]
    assert not any(line.startswith("P1") for line in m.log_lines(1)), m.log_lines(1)
    assert m.pending.prompt == "at the same time: choose an action"


def test_a_sealed_choice_is_taken_as_it_was_made_when_it_resolves(tmp_path):
    r = _scenarios(tmp_path, HEADS, '''
scenario "the head's picks are what the action does" players 2 {
  given {
    move hand of player(1) to deck  move hand of player(2) to deck  move pile to deck
    move named("Stew")[1] to hand of player(1)  move named("Pie")[1] to pile  move named("Pie")[2] to pile
  }
  # P1's one dish is not asked; its two picks from the pile take all there is
  answers "make an offer", "2", "Pie", "Pie", "keep", "{}", "pass", "pass"
  run { do day }
  expect player(1).bid == 2 and named("Stew")[1].zone == table of player(1)
  expect named("Pie")[1].zone == hand of player(1) and named("Pie")[2].zone == hand of player(1)
  expect offered("coins", 1) == ["0", "1", "2", "3", "4", "5"]
}
''')
    assert r[0].passed, r[0].transcript()
    t = r[0].transcript()
    # P2 (who passes) is asked its pick after P1 made all of its choices, before any resolved
    assert t.index("P1 chooses 'keep'") > t.index("P2 is asked")


def test_a_sealed_pick_taken_by_an_earlier_seat_is_no_longer_possible(tmp_path):
    """A card P2 chose deep in the head of its action (up to 2 from the pile) was taken by P1,
    who resolves first: P2's action is refused, nothing of it done (its bid is not paid)."""
    r = _scenarios(tmp_path, HEADS, '''
scenario "two want the one Pie of the pile" players 2 {
  given {
    move hand of player(1) to deck  move hand of player(2) to deck  move pile to deck
    move named("Pie")[1] to pile  move named("Stew")[1] to hand of player(2)
  }
  # (one option is not asked: P1's Pie, P2's Stew)
  answers "take from the pile", "1", "make an offer", "2", "Pie", "sell", "pass", "pass"
  run { do day }
  expect named("Pie")[1].zone == hand of player(1)
  expect player(2).bid == 0 and player(1).coins == 6
}
''')
    assert r[0].passed, r[0].transcript()
    assert "P2: make an offer is no longer possible" in r[0].transcript()


def test_a_choice_after_an_effect_is_asked_as_its_action_resolves(tmp_path):
    """The head ends at the first statement that is not a choice: a choice after it is asked
    when the action resolves, after the earlier seats' actions (a trade's later choices)."""
    r = _scenarios(tmp_path, LATER, '''
scenario "P2 chooses after P1 has paid" players 2 {
  answers "2", "1"
  run { do day }
  expect player(1).coins == 1 and player(2).coins == 2
}
''')
    assert r[0].passed, r[0].transcript()
    t = r[0].transcript()
    assert t.index("P1 chooses 2") < t.index("P2 is asked 'how much'")


def test_random_bots_and_playouts_play_games_with_sealed_heads_to_the_end(heads):
    g, fast = compile_file(heads), compile_file(heads, fast=True)
    for seed in range(12):
        for n in (2, 3, 4):
            assert len(playout(g, n, seed)["scores"]) == n
            assert len(playout(fast, n, seed)["scores"]) == n
        m = Match(g, 3, seed)
        play_bots(m)
        assert m.over


def test_a_search_bot_plays_sealed_bids():
    from tavernlang.bots import play
    r = play(compile_file("examples/sealed_bids.tav"), 3, 1, None, [("mcts", 20)] * 3)
    assert len(r["scores"]) == 3


POT = '''
game "Pot"
players 2..3
counter pot = 5
counter coins per player = 0
action claim "claim coins from the pot" {
  choose number n in 0..pot "coins to claim" { lose n pot  gain n coins to me }
}
rounds 1 {
  phase day "Day" turns from player(1) simultaneous { actions claim once }
}
winner: highest coins
'''


def test_a_sealed_number_is_offered_before_the_earlier_claims_resolve_and_checked_as_it_resolves(tmp_path):
    """P2 is offered the whole pot (P1's claim of 3 has not resolved); its claim of 4 is then no
    longer possible, and it claims again in the next step from what is left."""
    r = _scenarios(tmp_path, POT, '''
scenario "two claims on one pot" players 2 {
  answers "3", "4", "2"
  run { do day }
  expect player(1).coins == 3 and player(2).coins == 2 and pot == 0
  expect offered("coins to claim", 2) == ["0", "1", "2", "3", "4", "5"]
  expect offered("coins to claim", 3) == ["0", "1", "2"]
}
''')
    assert r[0].passed, r[0].transcript()
    assert "P2: claim coins from the pot is no longer possible" in r[0].transcript()


def test_several_choices_of_a_simultaneously_are_made_before_any_is_shown(tmp_path):
    game = '''
game "Two Cards"
players 2..3
kind Dish { points: int = 1 }
card "Stew" x6: Dish { points: 2 }
card "Pie" x6: Dish { points: 3 }
zone deck: shared hidden
zone hand: per player private
zone table: per player public
zone pile: shared public
counter coins per player = 3
setup {
  move cards to deck
  shuffle deck
  for p in players { move first(2, deck) to hand of p }
}
rounds 1 {
  phase play "Play" {
    simultaneously for p in players
        choose c in hand of p "card to play"
        choose d in hand of p where d != c "card to give away"
        choose n in range(0, p.coins) "coins to bid" {
      move c to table of p
      move d to pile
      lose n coins from p
    }
  }
}
winner: highest coins
'''
    f = tmp_path / "two.tav"
    f.write_text(game + '''
scenario "three choices each" players 2 {
  given {
    move hand of player(1) to deck  move hand of player(2) to deck
    move named("Stew")[1] to hand of player(1)  move named("Pie")[1] to hand of player(1)
    move named("Stew")[2] to hand of player(2)  move named("Pie")[2] to hand of player(2)
  }
  answers "Pie", "1", "Stew", "3"
  run { do play }
  expect named("Pie")[1].zone == table of player(1) and named("Stew")[1].zone == pile
  expect named("Stew")[2].zone == table of player(2) and named("Pie")[2].zone == pile
  expect player(1).coins == 2 and player(2).coins == 0
  expect offered("card to give away", 1) == ["Stew"] "the second choice reads the first"
}
''')
    g = compile_file(f)
    r = run_scenario(g, g.scenarios[0])
    assert r.passed, r.transcript()
    t = r.transcript()
    # P2 is asked all three of its choices before any of P1's is shown
    assert t.index("P2 is asked 'coins to bid'") < t.index("all choose at once (card to play):")
    m = Match(g, 3, 1)
    seen = []
    while not m.over:
        seen.append((m.pending.player, m.pending.prompt))
        assert not any("chose" in line for line in m.log_lines(m.pending.player))
        m.apply(0)
    # (the card to give away is the one left: not asked)
    assert seen == [(p, q) for p in range(3) for q in ("card to play", "coins to bid")]
    # every choice is sealed: the step-secrecy check over random games finds nothing
    assert interference(str(f), 3, 2, checks=6) == []


def test_a_choice_named_twice_in_a_simultaneously_is_an_error(tmp_path):
    f = tmp_path / "twice.tav"
    f.write_text('''game "Twice"
players 2
kind Dish { points: int = 1 }
card "Stew" x4: Dish
zone hand: per player private
effect e {
  simultaneously for p in players choose c in hand of p choose p in hand of p { move c to hand of p }
}
''')
    with pytest.raises(TavError) as e:
        compile_file(f)
    text = e.value.render()
    assert f"{f}:7:57: error: 'p' is already the player of this 'simultaneously'" in text, text


def test_a_choose_number_in_a_simultaneously_is_an_error_that_says_how_to_write_it(tmp_path):
    f = tmp_path / "number.tav"
    f.write_text('''game "Number"
players 2
counter coins per player = 3
effect e {
  simultaneously for p in players choose number n in 0..3 { lose n coins from p }
}
''')
    with pytest.raises(TavError) as e:
        compile_file(f)
    text = e.value.render()
    assert f"{f}:5:49: error: a 'simultaneously' has no 'choose number'" in text, text
    assert "'choose n in range(A, B)'" in text and "the head of an action" in text


PAIRS = '''
game "Pairs"
players 2
kind Dish { points: int = 1 }
card "Stew" x4: Dish
card "Pie" x4: Dish
zone hand: per player private
zone pile: shared public
zone box: shared hidden
action drop "drop a dish" { choose c in hand of me "drop" { move c to pile } }
action pair "take two from the pile" {
  choose c in pile "first" { choose x in pile where x != c "second" { move c to hand of me  move x to hand of me } }
}
setup { move cards to box }
rounds 1 {
  phase day "Day" turns from player(1) simultaneous { actions drop, pair pass final }
}
winner: highest size(hand of me)
'''


def test_a_head_choice_that_had_no_options_at_the_pick_and_has_some_as_it_resolves_refuses_the_pick(tmp_path):
    """P2 picks the one card of the pile (its second choice has no options then); P1's drop,
    resolved first, gives that choice an option: P2's pick is no longer what it chose, and is
    refused rather than asked in the open."""
    r = _scenarios(tmp_path, PAIRS, '''
scenario "the pile grew before P2's pick resolved" players 2 {
  given { move named("Stew")[1] to hand of player(1)  move named("Pie")[1] to pile }
  answers "drop a dish", "take two from the pile", "pass", "take two from the pile", "Pie", "pass"
  run { do day }
  expect size(hand of player(2)) == 2
}
''')
    assert r[0].passed, r[0].transcript()
    t = r[0].transcript()
    assert "P2: take two from the pile is no longer possible" in t
    assert t.index("P2 is asked 'first'") > t.index("P2: take two from the pile is no longer possible")
