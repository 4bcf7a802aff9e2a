"""Edges of statements the generator writes out, where the closures it
replaced behaved in a way a game could see: each test here failed on a divergence found by
comparing the two (the commit before 4999eda against it, game by game and on small hostile files)."""
from __future__ import annotations

import pytest

from tavernlang import GameError, Match, compile_file, playout

BIG = "999999999999999999 * 9 + 223372036854775815"  # 2^63 - 2: one below the largest whole number

HEAD = """game "Edges"
players 2
counter coins per player = 0
counter watched per player = 0
counter wide per player = 0 in 0..(999999999999999999 * 999999999999999999)
when watched of p reaches 5 { gain 1 coins to p }
"""


def game(tmp_path, body: str):
    f = tmp_path / "edges.tav"
    f.write_text(HEAD + 'action go "go" {\n' + body + '\n}\n'
                 'rounds 1 {\n  phase play "Play" turns from player(1) once_each { actions go }\n}\n'
                 "winner: highest coins\n")
    return compile_file(f)


def errors(g):
    """The error a Match and a playout stop with (message, line), or None."""
    out = []
    for run in (lambda: Match(g, 2, 1), lambda: playout(g, 2, 1)):
        try:
            run()
            out.append(None)
        except GameError as e:
            out.append((str(e).split(" (seed")[0], e.span.line if e.span else None))
    return out


@pytest.mark.parametrize("op", ["gain 2 watched", "lose 2 watched", "gain 2 coins", "lose 2 coins"])
def test_a_counter_without_range_stays_a_whole_number_in_range(tmp_path, op):
    """A counter without a range, `set` next to the largest whole number: a gain or loss of a
    small number that takes it past it stops the game at the gain, in both flavours; it is never
    stored out of range. `watched` is watched by a `when ... reaches` (checked as its closure
    did); `coins` by nothing (before: stored out of range, unchecked, as the closures did)."""
    counter = op.split()[-1]
    sign = "0 - " if op.startswith("lose") else ""
    g = game(tmp_path, f"  set me.{counter} = {sign}({BIG})\n  {op}")
    got = errors(g)
    assert got[0] == got[1] and got[0] is not None, got
    msg, line = got[0]
    assert msg.startswith("a whole number out of range here: ") and line == 9, got


def test_a_counter_with_a_range_beyond_the_whole_numbers_stays_in_range(tmp_path):
    """A gain within a range whose high end lies past the largest whole number: the value is
    checked when stored (docs/security.md: 'a value stored by set or gain'), in both flavours."""
    g = game(tmp_path, f"  set me.wide = {BIG}\n  gain 5 wide")
    got = errors(g)
    assert got == [("a whole number out of range here: 9223372036854775811 (numbers are at most "
                    "9223372036854775807 either way)", 9)] * 2, got


def test_a_watched_counter_in_range_fires_and_logs_as_before(tmp_path):
    g = game(tmp_path, "  gain 3 watched\n  gain 4 watched\n  lose 9 watched")
    m = Match(g, 2, 1)
    assert m.over
    lines = [t for t, _, _ in m.st.log]
    assert "P1 gains 4 watched (now 7)" in lines and "P1's watched reaches 5" in lines
    assert "P1 loses 9 watched (now -2)" in lines
    assert m.result["scores"] == [1, 1]
    assert playout(g, 2, 1)["scores"] == [1, 1]


SAME_LABELS = """game "Same labels"
players 2
kind Ev { effect: effect }
effect e1 { choose "pick" { option "a" { gain 1 coins } option "b" { gain 3 coins } } }
effect e2 { choose "pick" { option "a" { gain 3 coins } option "b" { lose 2 coins } } }
card "E1" x2: Ev { effect: e1 }
card "E2" x2: Ev { effect: e2 }
counter coins per player = 0
zone deck: shared hidden
setup { move cards to deck }
action draw "draw an event" { choose c in deck "event" at random { do c.effect } }
action rest "rest" { gain 1 coins }
rounds 4 {
  phase play "Play" turns from player(1) once_each { actions draw, rest }
}
winner: highest coins
"""


def test_options_of_two_choices_with_the_same_labels_are_not_the_same_option(tmp_path):
    """Two `choose { option ... }` statements whose options read the same are different
    decisions: a search bot (bots._key: MCTS's tree below the root is keyed by the options
    themselves) keeps them apart, as it did when each option held its own compiled body, so
    sampled worlds that draw different events do not pool what they learnt of "a" and "b"."""
    f = tmp_path / "same.tav"
    f.write_text(SAME_LABELS)
    g = compile_file(f)
    seen = {}
    for seed in range(1, 40):
        m = Match(g, 2, seed)
        while not m.over:
            d = m.pending
            if d.prompt == "pick":
                which = next(t for t, _, _ in reversed(m.st.log) if t.startswith("at random: "))
                seen.setdefault(which, set()).add(tuple(d.options))
            m.apply(0 if d.prompt != "your turn: choose an action" else seed % 2)
    assert set(seen) == {"at random: E1 (event)", "at random: E2 (event)"}, seen
    (e1,), (e2,) = seen["at random: E1 (event)"], seen["at random: E2 (event)"]
    assert [o[0] for o in e1] == [o[0] for o in e2] == ["a", "b"]
    assert not set(e1) & set(e2), (e1, e2)  # (equal options would be one edge of the tree)


SHUFFLE_AT_RANDOM = """game "Shuffle a random hand"
players 2
kind K { v: int = 0 }
card "X" x6: K
counter coins per player = 0
zone hand: per player public
zone deck: shared public
setup { move cards to deck  move first(3, deck) to hand of player(1)  move deck to hand of player(2) }
action go "go" {
  shuffle hand of player(random(1, 2))
  gain random(1, 100) coins
}
rounds 2 {
  phase play "Play" turns from player(1) once_each { actions go }
}
winner: highest coins
"""


def test_a_shuffle_works_out_its_zone_once(tmp_path):
    """`shuffle Z` works Z out once: a zone drawn at random is the one shuffled and the one the
    log names, and a logged game is the game a playout plays. (The closure of 4999eda's parent
    worked Z out again for its log line, drawing from the RNG twice where a playout drew once:
    a Match and a playout of the same seed played different games.)"""
    f = tmp_path / "shuffle.tav"
    f.write_text(SHUFFLE_AT_RANDOM)
    g = compile_file(f)
    for seed in range(6):
        m = Match(g, 2, seed)
        assert m.over
        assert m.result["scores"] == playout(g, 2, seed)["scores"], seed
        assert sum(t.startswith("shuffle hand of P") for t, _, _ in m.st.log) == 4


STEPS = """game "Steps"
players 2
kind K { v: int = 0 }
card "X" x7: K { v: 1 }
card "Y" x3: K
counter coins per player = 0
zone hand: per player private
setup { move cards to hand of player(1) }
action go "go" {
  require me == player(1)
  choose up to 2 cs in hand of me WHERE "give" { gain size(cs) coins }
}
rounds 1 {
  phase play "Play" turns from player(1) once_each { actions go }
}
winner: highest coins
"""


def test_a_choose_n_where_counts_the_cards_it_looks_through(tmp_path):
    """`choose N x in ZONE where C` spends a step of the budget for each card of the zone its
    condition looks at, as the filter of its closure did before 4999eda (budget steps, and so
    where a budget stops a game, are part of what a change of the engine must keep)."""
    steps = {}
    for where in ("", "where cs.v == 1"):
        f = tmp_path / f"steps{len(where)}.tav"
        f.write_text(STEPS.replace("WHERE", where))
        m = Match(compile_file(f), 2, 1)
        while not m.over:
            m.apply(0)
        steps[where] = m.st.steps
    assert steps["where cs.v == 1"] - steps[""] == 10, steps  # the ten cards of the hand, looked at once
