"""Bots (tavernlang/bots.py): `--bots` parsing, random bots unchanged, seeded search bots, and
search that does not peek at what its seat cannot see."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import compile_file
from tavernlang.bots import (BotSpecError, Root, Searcher, describe, determinize, drive, parse_bot, parse_bots,
                             play, play_match, remap_options, rotate, watch)
from tavernlang.cli import main
from tavernlang.engine.runner import Match, playout

ROOT = Path(__file__).resolve().parent.parent
LITTLE = str(ROOT / "games" / "little_tavern.tav")
CAVERN = str(ROOT / "games" / "cavern_tavern.tav")
BLIND = str(ROOT / "tests" / "bots" / "blind_draw.tav")


@pytest.fixture(scope="module")
def little():
    return compile_file(LITTLE)


@pytest.fixture(scope="module")
def blind():
    return compile_file(BLIND)


def test_parse_bots():
    assert parse_bots(None, 3) == [("random", 0)] * 3
    assert parse_bots("greedy", 2) == [("greedy", 0)] * 2
    assert parse_bots("mcts", 1) == [("mcts", 100)]
    assert parse_bots("mcts:200, random,Greedy", 3) == [("mcts", 200), ("random", 0), ("greedy", 0)]
    for bad in ("minimax", "mcts:x", "mcts:0", "random:3", "random,random"):
        with pytest.raises(BotSpecError):
            parse_bots(bad, 3)
    assert rotate([1, 2, 3], 1) == [3, 1, 2] and rotate([1, 2, 3], 3) == [1, 2, 3]


def test_a_search_bot_names_its_rollouts_depth_and_horizon():
    b = parse_bot("mcts:200:rollout=greedy")
    assert (b[0], b[1], b.rollout, b.depth) == ("mcts", 200, "greedy", None)
    b = parse_bot("MCTS:depth=30:rollout=mast")  # the settings in any order; the iterations default
    assert tuple(b) == ("mcts", 100) and (b.rollout, b.depth) == ("mast", 30)
    assert str(b) == "mcts:100:rollout=mast:depth=30" and parse_bot(str(b)) == b
    assert b != ("mcts", 100) and parse_bot("mcts:100:rollout=random") == ("mcts", 100)
    la = parse_bot("lookahead")
    assert tuple(la) == ("lookahead", 4) and la.until == "round" and str(la) == "lookahead:4"
    assert str(parse_bot("lookahead:8:until=phase")) == "lookahead:8:until=phase"
    assert describe(parse_bots("mcts:50:rollout=mast,random", 2)) == "mcts:50:rollout=mast,random"
    import pickle  # (sent whole to the worker processes of --jobs)
    assert pickle.loads(pickle.dumps(b)) == b and pickle.loads(pickle.dumps(b)).depth == 30
    for bad, says in (("mcts:5:rollout=smart", "rollout is one of random, mast, greedy"),
                      ("mcts:5:depth=0", "depth is 1 to"), ("mcts:5:depth=x", "depth is a whole number"),
                      ("mcts:5:width=3", "mcts has no setting 'width'"),
                      ("mcts:5:rollout=mast:rollout=random", "'rollout' is given twice"),
                      ("mcts:rollout=mast:5", "come first"), ("lookahead:0", "samples is 1 to"),
                      ("lookahead:3:until=turn", "until is one of round, phase, end"),
                      ("lookahead:3:rollout=mast", "lookahead has no setting 'rollout'"),
                      ("greedy:rollout=mast", "greedy takes no ':' argument")):
        with pytest.raises(BotSpecError, match=re.escape(says)):
            parse_bot(bad)


@pytest.mark.parametrize("spec,says", [("mcts:5:rollout=smart", "rollout is one of"),
                                       ("lookahead:2:until=ever", "until is one of"),
                                       ("mcts:5:depth=-1", "depth")])
def test_a_bad_search_setting_is_a_usage_error(tav, spec, says):
    for cmd in (["run", LITTLE, "-p", "3"], ["sim", LITTLE, "-p", "3", "-g", "2"]):
        r = tav(*cmd, "--bots", spec)
        assert r.exit_code == 2, r.output
        assert "--bots" in r.output and says in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("args", [["--bots", "chess"], ["--bots", "mcts:-1"], ["--bots", "random,random"]])
def test_bad_bots_are_usage_errors(tav, args):
    for cmd in (["run", LITTLE, "-p", "3"], ["sim", LITTLE, "-p", "3", "-g", "2"]):
        r = tav(*cmd, *args)
        assert r.exit_code == 2, r.output
        assert "--bots" in r.output and "Traceback" not in r.output


def test_random_bots_play_exactly_the_games_of_today(tav, little):
    plain = json.loads(tav("run", LITTLE, "-p", "3", "--seed", "7", "--json").output)
    rnd = json.loads(tav("run", LITTLE, "-p", "3", "--seed", "7", "--json", "--bots", "random").output)
    listed = json.loads(tav("run", LITTLE, "-p", "3", "--seed", "7", "--json", "--bots", "random,random,random").output)
    assert plain == rnd == listed
    a = json.loads(tav("sim", LITTLE, "-p", "4", "-g", "20", "--json").output)
    b = json.loads(tav("sim", LITTLE, "-p", "4", "-g", "20", "--json", "--bots", "random").output)
    for d in (a, b):
        d.pop("seconds"), d.pop("playouts_per_s"), d.pop("decisions_per_s")
    assert a == b
    # the library path too: all-random bots are the engine's playout
    assert play(little, 4, 3, None, parse_bots("random", 4)) == playout(little, 4, 3)



def test_a_game_with_search_bots_gives_the_fields_of_a_playout(little):
    """`bots.play` is "one whole game, as runner.playout reports it (plus the bots' work)": the
    same fields, the steps of work among them (3514f85 gave a playout its steps; a game with a
    search bot had none), and the steps are the game's own, whichever way it is played."""
    bots = parse_bots("greedy,random", 2)
    for seed in range(3):
        r = play(little, 2, seed, None, bots)
        assert set(r) - {"search"} == set(playout(little, 2, seed))
        assert r["steps"] == watch(little, 2, seed, None, bots)["steps"] > 0  # (tav report watches the same game)
        assert watch(little, 2, seed, None, None)["steps"] == playout(little, 2, seed)["steps"]


def test_search_bots_are_seeded(tav, little):
    bots = parse_bots("mcts:8,greedy,random", 3)
    one = play(little, 3, 11, None, bots)
    two = play(little, 3, 11, None, bots)
    for r in (one, two):
        for s in r["search"].values():
            s.pop("seconds")
    assert one == two
    a = tav("run", LITTLE, "-p", "3", "--seed", "5", "--bots", "mcts:5,greedy,random", "--json")
    b = tav("run", LITTLE, "-p", "3", "--seed", "5", "--bots", "mcts:5,greedy,random", "--json")
    assert a.exit_code == 0, a.output
    assert a.output == b.output


def _blind_roots(game):
    """Two Blind Draw games at P1's choice that differ only in the order of the face-down coins."""
    by_gold = {}
    for seed in range(1, 50):
        m = Match(game, 2, seed, log=False)
        gold = [game.card_name[c] for c in m.pending.options].index("Gold")
        by_gold.setdefault(gold, m)
        if len(by_gold) == 2:
            return by_gold[0], by_gold[1]
    raise AssertionError("no two seeds deal the coins differently")


@pytest.mark.parametrize("kind,iterations", [("mcts", 16), ("greedy", 0), ("lookahead", 3)])
def test_a_search_does_not_peek(blind, kind, iterations):
    a, b = _blind_roots(blind)
    assert a.view(0) == b.view(0)  # P1 sees the same table in both
    assert a.st.zones != b.st.zones  # ... which is not the same

    def choices(m, peek=False):
        return [Searcher(kind, iterations, random.Random(k), peek=peek).choose(Root.of(m)) for k in range(40)]
    # the same choices for the same bot seeds: the same distribution, whatever lies face down
    ca, cb = choices(a), choices(b)
    assert ca == cb
    assert 0 < sum(ca) < len(ca)  # (and it cannot tell the coins apart: it takes either)
    # a bot that looks at the true world takes the Gold every time, so its choices differ
    pa, pb = choices(a, peek=True), choices(b, peek=True)
    assert set(pa) == {0} and set(pb) == {1}


def _two_deals(game):
    """Two games at P1's first decision that deal the pile's coins in different orders."""
    by_order = {}
    for seed in range(1, 50):
        m = Match(game, 2, seed, log=False)
        by_order.setdefault(tuple(map(tuple, m.st.zones)), m)
        if len(by_order) == 2:
            return list(by_order.values())
    raise AssertionError("no two seeds deal the coins differently")


@pytest.mark.parametrize("name", ["blind_guess", "blind_bet"])
@pytest.mark.parametrize("kind,iterations", [("mcts", 16), ("greedy", 0), ("lookahead", 3)])
def test_a_search_does_not_peek_at_the_cards_the_rules_hold(name, kind, iterations):
    """A face-down card held by name while P1 decides (an effect's parameter: Blind Guess) and the
    face-down cards a rule is going through (a loop: Blind Bet) are dealt again with the rest: the
    search's choices are the same whatever lies face down, and not always right."""
    game = compile_file(str(ROOT / "tests" / "bots" / f"{name}.tav"))
    a, b = _two_deals(game)
    assert a.view(0) == b.view(0) and a.st.zones != b.st.zones

    def choices(m, peek=False):
        out = []
        for k in range(40):
            s = Searcher(kind, iterations, random.Random(k), peek=peek)
            out.append(s.choose(Root.of(m)))
            assert s.failed == 0  # every sampled world could be played on
        return out
    ca, cb = choices(a), choices(b)
    assert ca == cb
    assert 0 < sum(ca) < len(ca)
    pa, pb = choices(a, peek=True), choices(b, peek=True)  # looking at the true world: always right
    assert len(set(pa)) == 1 and len(set(pb)) == 1 and pa != pb


@pytest.mark.parametrize("kind,iterations", [("mcts", 16), ("greedy", 0), ("lookahead", 3)])
def test_a_search_does_not_peek_into_a_hidden_zone_on_a_card(kind, iterations):
    """The coins hidden in the chests of Blind Chests (a hidden zone on each Chest card) are dealt
    again with the rest: the search's choices are the same whatever each chest holds, and not
    always the same; looking at the true world it always opens the chest with the Gold."""
    game = compile_file(str(ROOT / "tests" / "bots" / "blind_chests.tav"))
    a, b = _two_deals(game)
    assert a.view(0) == b.view(0) and a.st.zones != b.st.zones

    def choices(m, peek=False):
        out = []
        for k in range(40):
            s = Searcher(kind, iterations, random.Random(k), peek=peek)
            out.append(s.choose(Root.of(m)))
            assert s.failed == 0
        return out
    ca, cb = choices(a), choices(b)
    assert ca == cb
    assert len(set(ca)) > 1
    pa, pb = choices(a, peek=True), choices(b, peek=True)
    assert len(set(pa)) == 1 and len(set(pb)) == 1 and pa != pb


@pytest.mark.parametrize("kind,iterations", [("mcts", 16), ("lookahead", 3)])
def test_a_search_does_not_peek_at_the_cards_a_sealed_choose_up_to_offers(kind, iterations):
    """A `choose up to 1` at the head of a simultaneous action (Sealed Take) offers the face-down
    coins and "done" in a list apart from the cards it picks from: that list is dealt again with
    the rest, so the search's choices are the same whatever lies face down, and not always the
    same; looking at the true world it always takes the Gold. (Greedy stops when the pick is
    made, before the sealed pick resolves: it cannot tell the options apart even so.)"""
    game = compile_file(str(ROOT / "tests" / "bots" / "sealed_take.tav"))
    a, b = _two_deals(game)
    assert a.view(0) == b.view(0) and a.st.zones != b.st.zones

    def choices(m, peek=False):
        out = []
        for k in range(40):
            s = Searcher(kind, iterations, random.Random(k), peek=peek)
            out.append(s.choose(Root.of(m)))
            assert s.failed == 0
        return out
    ca, cb = choices(a), choices(b)
    assert ca == cb
    assert len(set(ca)) > 1
    gold = [[game.card_name[c] if type(c) is int else "" for c in m.pending.options].index("Gold") for m in (a, b)]
    assert set(choices(a, peek=True)) == {gold[0]} and set(choices(b, peek=True)) == {gold[1]} and gold[0] != gold[1]


@pytest.mark.parametrize("name", ["pennies", "pennies_at_once"])
@pytest.mark.parametrize("kind,iterations", [("mcts", 16), ("greedy", 0), ("lookahead", 3)])
def test_a_search_does_not_see_the_others_picks_of_a_simultaneous_choice(name, kind, iterations):
    """P1 has picked, unseen, in a choice made at the same time (a `simultaneously` statement;
    a phase of `simultaneous` turns): P2's search draws P1's pick again in each world, so its
    choices are the same whatever P1 picked; looking at the true world it would always match."""
    game = compile_file(str(ROOT / "tests" / "bots" / f"{name}.tav"))
    a, b = Match(game, 2, 1, log=True), Match(game, 2, 1, log=True)
    a.apply(0)
    b.apply(1)
    assert a.pending.player == b.pending.player == 1
    assert a.view(1) == b.view(1)

    def choices(m, peek=False):
        return [Searcher(kind, iterations, random.Random(k), peek=peek).choose(Root.of(m)) for k in range(40)]
    ca, cb = choices(a), choices(b)
    assert ca == cb
    assert 0 < sum(ca) < len(ca)
    assert set(choices(a, peek=True)) == {0} and set(choices(b, peek=True)) == {1}


def test_determinize_deals_only_what_the_player_cannot_see(little):
    m = Match(little, 4, 3, log=False)
    for _ in range(25):
        m.apply(0)
    st, p = m.st, m.pending.player
    before = [list(z) for z in st.zones]
    seen = {c: st.loc[c] for c in st.all_cards if st.visible(c, p)}
    kinds_at = [[little.card_kind[c] for c in z] for z in st.zones]
    sigma = determinize(st, p, random.Random(1))
    assert sigma and any(sigma[c] != c for c in sigma)
    for c, z in seen.items():  # what p sees stays where it is
        assert st.loc[c] == z
    assert [[little.card_kind[c] for c in z] for z in st.zones] == kinds_at  # kinds respected
    assert sorted(c for z in st.zones for c in z) == sorted(c for z in before for c in z)
    for z, cards in enumerate(st.zones):
        assert all(st.loc[c] == z for c in cards)
    opts = [c for c in sigma][:3]
    remap_options(opts, "card", sigma)
    assert opts == [sigma[c] for c in list(sigma)[:3]]


def test_mcts_plays_cavern_tavern_to_the_end():
    game = compile_file(CAVERN)
    r = play(game, 2, 1, None, parse_bots("mcts:2,random", 2))
    assert r["search"][1]["worlds"] == 2 * r["search"][1]["decisions"] > 0
    assert len(r["scores"]) == 2


@pytest.mark.slow
def test_mcts_beats_random_bots_at_little_tavern(little):
    from tavernlang.balance import wilson
    wins, n = 0.0, 48
    for i in range(n):
        bots = rotate(parse_bots("mcts:30,random,random,random", 4), i)
        r = play(little, 4, 100 + i, None, bots)
        seat = [k for k, _ in bots].index("mcts")
        if seat in r["winners"]:
            wins += 1 / len(r["winners"])
    _, lo, _ = wilson(wins, n)
    assert lo > 0.25, wins  # better than an even share, beyond chance


def test_lint_simulate_with_bots(tav):
    r = tav("lint", LITTLE, "--simulate", "6", "-p", "3", "--bots", "greedy,random,mcts:2")
    assert r.exit_code in (0, 1), r.output
    assert "simulated 6 games" in r.output
    for args, hint in ((["--bots", "greedy"], "--bots is for --simulate"),
                       (["--simulate", "2", "--bots", "greedy,random"], "--bots")):
        r = tav("lint", LITTLE, *args)
        assert r.exit_code == 2 and hint in r.output, r.output


def test_play_against_search_bots_saves_and_resumes_them(tmp_path):
    args = ["play", LITTLE, "-p", "3", "--seat", "1", "--seed", "4", "--bots", "random,mcts:4,greedy"]
    whole = CliRunner().invoke(main, args, input="1\n" * 200)
    assert whole.exit_code == 0, whole.output
    save = tmp_path / "s.json"
    first = CliRunner().invoke(main, args + ["--save-to", str(save)], input="1\n1\ns\nq\n")
    assert first.exit_code == 0 and save.exists(), first.output
    assert json.loads(save.read_text())["bots"] == "random,mcts:4,greedy"
    rest = CliRunner().invoke(main, ["play", LITTLE, "-p", "3", "--load", str(save)], input="1\n" * 200)
    assert rest.exit_code == 0, rest.output
    tail = [x for x in whole.output.splitlines() if x.startswith("  P")][-3:]
    assert tail == [x for x in rest.output.splitlines() if x.startswith("  P")][-3:]


# A rule that divides by what the other player holds: in the real deal of these seeds it holds
# no Zero, but the search player cannot see it, and its sampled worlds deal the Zero there
BRITTLE = """game "Brittle"
players 2
kind Chip { value: int }
card "One": Chip { value: 1 }
card "Two": Chip { value: 2 }
card "Three": Chip { value: 3 }
card "Zero": Chip { value: 0 }
zone bag: shared hidden
zone hand: per player private
counter points per player = 0
setup {
  move cards to bag
  shuffle bag
  move top(bag) to hand of player(1)
  move top(bag) to hand of player(1)
  move top(bag) to hand of player(2)
}
action play "play a chip" {
  choose c in hand of me "play" {
    move c to bag
    for p in others { gain 6 / sum(x.value for x in hand of p) points }
  }
}
rounds 1 { phase p "P" turns from player(1) once_each { actions play } }
winner: highest points
"""


def test_a_sampled_world_the_rules_cannot_play_on_does_not_stop_the_game(tmp_path):
    # (Tavern Masters' trades were such a case until the rules' held cards were re-dealt too)
    path = tmp_path / "brittle.tav"
    path.write_text(BRITTLE)
    game = compile_file(str(path))
    for seed in (1, 2, 4):  # seeds whose real deal divides by no zero
        r = play(game, 2, seed, None, parse_bots("mcts:8,random", 2))
        assert r["search"][1]["failed_worlds"] > 0, seed  # worlds that dealt the Zero to the other player
        assert r["search"][1]["failed_worlds"] < r["search"][1]["worlds"], seed
        assert len(r["scores"]) == 2 and min(r["scores"]) > 0


def test_a_decision_with_one_option_is_taken_without_a_search(little):
    """The engine takes a decision with one option itself; a caller that asks one of a search
    bot gets option 0 at no cost: no world played, the bot's RNG untouched."""
    m = Match(little, 3, 2, log=False)
    root = Root.of(m)
    root.n_options = 1
    for kind in ("mcts", "greedy", "lookahead"):
        rng = random.Random(5)
        before = rng.getstate()
        s = Searcher(kind, 50, rng)
        assert s.choose(root) == 0
        assert (s.worlds, s.searches, s.skipped) == (0, 0, 1)
        assert rng.getstate() == before


# P1 plays two of its chips, one after the other, in one action: between its two choices it
# draws a hidden chip where BETWEEN says so
TWO_STEPS = """game "Two Steps"
players 2
kind Chip { value: int }
card "One": Chip { value: 1 }
card "Two": Chip { value: 2 }
card "Three": Chip { value: 3 }
card "Four": Chip { value: 4 }
card "Five": Chip { value: 5 }
card "Six": Chip { value: 6 }
card "Seven": Chip { value: 7 }
card "Eight": Chip { value: 8 }
zone bag: shared hidden
zone hand: per player private
zone table: shared
counter points per player = 0
setup {
  move cards to bag
  shuffle bag
  move top(bag) to hand of player(1)
  move top(bag) to hand of player(1)
  move top(bag) to hand of player(1)
  move top(bag) to hand of player(2)
  move top(bag) to hand of player(2)
  move top(bag) to hand of player(2)
}
action play "play two chips" {
  choose c in hand of me "first" {
    move c to table
    BETWEEN
    choose d in hand of me "second" {
      move d to table
      gain c.value * d.value points
    }
  }
}
rounds 1 { phase p "P" turns from player(1) once_each { actions play } }
winner: highest points
"""


@pytest.mark.parametrize("between,reused", [("", 1), ("move top(bag) to hand of me", 0)])
def test_a_search_keeps_its_tree_for_the_next_decision_only_when_nothing_was_learned_between(
        tmp_path, between, reused):
    """The second choice follows the first with nothing drawn, rolled or shown between: the
    search starts from the subtree of the option it took. A hidden chip drawn between (a card
    shown to the chooser) makes the old worlds disagree with what it knows: a new tree."""
    path = tmp_path / "two_steps.tav"
    path.write_text(TWO_STEPS.replace("BETWEEN", between))
    game = compile_file(str(path))
    for seed in (1, 2, 3):
        r = play(game, 2, seed, None, parse_bots("mcts:8,random", 2))
        assert r["search"][1]["decisions"] == 2
        assert r["search"][1]["reused_trees"] == reused, seed
    # the same games whichever way they are driven: `tav run` (a Match) and `tav sim` (drive)
    for seed in (1, 2, 3):
        m = Match(game, 2, seed)
        seats = play_match(m, parse_bots("mcts:8,random", 2))
        _, history, driven = drive(game, 2, seed, None, parse_bots("mcts:8,random", 2))
        assert seats.search[0].reused == driven.search[0].reused == reused
        assert m.choices == history


def _two_picks(game, seed: int, k: int, peek: bool = False):
    """P1's two picks of Blind Pair by one search bot (bot seed k) -> (the picks, the names of
    the coins taken, P1's view at the second pick, the searches that began from a kept tree)."""
    m = Match(game, 2, seed, log=False)
    s = Searcher("mcts", 16, random.Random(k), peek=peek)
    first = s.choose(Root.of(m))
    taken = [game.card_name[m.pending.options[first]]]
    m.apply(first)
    assert m.pending.player == 0  # the second pick follows at once: no one decided between
    view = m.view(0)
    second = s.choose(Root.of(m))
    taken.append(game.card_name[m.pending.options[second]])
    return (first, second), taken, view, s.reused


@pytest.mark.parametrize("vis,reused", [("hidden", 0), ("public", 1)])
def test_a_kept_tree_does_not_peek_at_the_cards_left_to_pick(tmp_path, vis, reused):
    """`choose 2` asks P1's picks one after another with nothing drawn, rolled or shown between:
    the search would keep its tree, whose options at the second pick are the coins as each
    sampled world dealt them. Mapped onto the true coins left face down, that tree would point at
    the Gold. The choices are the same whatever lies face down (no tree kept for options that
    are cards the chooser cannot see); with the coins face up, the tree is kept."""
    path = tmp_path / "blind_pair.tav"
    path.write_text((ROOT / "tests" / "bots" / "blind_pair.tav").read_text().replace(
        "zone pile: shared hidden", f"zone pile: shared {vis}"))
    game = compile_file(str(path))
    gold_at = {}
    for seed in range(1, 60):
        m = Match(game, 2, seed, log=False)
        gold_at.setdefault([game.card_name[c] for c in m.pending.options].index("Gold"), seed)
    assert len(gold_at) == 3
    if vis == "public":
        for seed in gold_at.values():
            assert all(_two_picks(game, seed, k)[3] == reused for k in range(10))
        return
    deals = [[_two_picks(game, seed, k) for k in range(40)] for seed in gold_at.values()]
    for k in range(40):
        assert len({str(d[k][2]) for d in deals}) == 1  # P1 sees the same table at its second pick
    picks = [[p for p, _, _, _ in d] for d in deals]
    assert picks[0] == picks[1] == picks[2]  # whatever lies face down
    assert len({p[1] for p in picks[0]}) > 1
    assert {d[k][3] for d in deals for k in range(40)} == {reused}
    # (a bot that looks at the true world takes the Gold every time)
    for seed in gold_at.values():
        assert all("Gold" in _two_picks(game, seed, k, peek=True)[1] for k in range(10))


def test_whether_a_tree_is_kept_does_not_depend_on_a_draw_the_seat_cannot_see():
    """Blind Shuffle draws at random between P1's two choices when the face-down Gold is on top,
    and P1 sees nothing of it: whether the game's own RNG moved is what P1 cannot know. The
    search keeps its tree by what its worlds did (none of those that took the option drew), so
    its choices are the same on both deals; read from the game's RNG, they were not."""
    game = compile_file(str(ROOT / "tests" / "bots" / "blind_shuffle.tav"))
    a, b = _two_deals(game)
    assert a.view(0) == b.view(0) and a.st.zones != b.st.zones
    drew = []
    for m in (a, b):
        before = m.st.rng.getstate()
        m.apply(0)
        drew.append(m.st.rng.getstate() != before)
    assert sorted(drew) == [False, True]  # one deal shuffles between the choices, the other not

    def choices(seed):
        out, kept = [], 0
        for k in range(40):
            m = Match(game, 2, seed, log=False)
            s = Searcher("mcts", 6, random.Random(k))
            first = s.choose(Root.of(m))
            m.apply(first)
            out.append((first, s.choose(Root.of(m))))
            kept += s.reused
        return out, kept
    (ca, ka), (cb, kb) = choices(a.seed), choices(b.seed)
    assert ca == cb and ka == kb
    assert 0 < ka < 40  # (kept when no world that took the option had the Gold on top)


@pytest.mark.parametrize("rollout", ["mast", "greedy"])
def test_a_named_rollout_policy_plays_other_games_the_same_for_a_seed(little, rollout):
    spec = f"mcts:8:rollout={rollout},random,random"
    games = [drive(little, 3, seed, None, parse_bots(spec, 3))[1] for seed in (1, 2, 3)]
    assert games == [drive(little, 3, seed, None, parse_bots(spec, 3))[1] for seed in (1, 2, 3)]
    assert games != [drive(little, 3, seed, None, parse_bots("mcts:8,random,random", 3))[1] for seed in (1, 2, 3)]


def test_a_depth_cut_ends_each_world_that_many_decisions_after_the_root(little):
    m = Match(little, 4, 3, log=False)
    for _ in range(10):
        m.apply(0)
    root = Root.of(m)
    cut = Searcher("mcts", 12, random.Random(1), bot=parse_bot("mcts:12:depth=5"))
    cut.choose(root)
    whole = Searcher("mcts", 12, random.Random(1))
    whole.choose(root)
    # each world: the root, at most 5 decisions after it, and the one the cut stops at
    assert cut.worlds == whole.worlds == 12 and cut.failed == 0
    assert cut.played - cut.replayed <= 12 * 7
    assert whole.played - whole.replayed > 12 * 20  # (a whole game of Little Tavern is longer)


def _tavern_masters_at(players: int, seed: int, moves: int) -> Match:
    """A Tavern Masters game after `moves` random choices (drawn from random.Random(seed))."""
    game = compile_file(str(ROOT / "games" / "tavern_masters.tav"))
    m = Match(game, players, seed, log=False)
    rng = random.Random(seed)
    for _ in range(moves):
        m.apply(int(rng.random() * len(m.pending.options)))
    return m


def test_lookahead_to_the_end_buys_in_tavern_masters_where_greedy_passes():
    """Greedy sees a purchase as gold spent; lookahead sees what the Goods earn afterwards."""
    m = _tavern_masters_at(2, 8, 95)
    labels = m.legal()
    assert labels == ["purchase Goods", "pass"]
    greedy = {labels[Searcher("greedy", 0, random.Random(k)).choose(Root.of(m))] for k in range(5)}
    ahead = {labels[Searcher("lookahead", 4, random.Random(k), bot=parse_bot("lookahead:4:until=end")).choose(Root.of(m))]
             for k in range(5)}
    assert greedy == {"pass"} and ahead == {"purchase Goods"}


def test_lookahead_plays_each_option_out_to_its_horizon():
    m = _tavern_masters_at(2, 1, 37)  # (a Day Phase decision of the third round)
    here = m.st.round
    played = {}
    for until in ("phase", "round", "end"):
        ends = []

        class Watched(Searcher):
            def _world(self, root, world_rng, decide):
                st = super()._world(root, world_rng, decide)
                ends.append(st.round)
                return st
        s = Watched("lookahead", 2, random.Random(0), bot=parse_bot(f"lookahead:2:until={until}"))
        s.choose(Root.of(m))
        assert len(ends) == 2 * len(m.pending.options)
        if until == "end":
            assert all(r > here for r in ends)  # (the game went on to its end)
        else:
            assert all(r == here for r in ends)  # stopped before the next round began
        played[until] = s.played - s.replayed
    assert played["phase"] < played["round"] < played["end"]


def test_what_each_seat_chose_is_counted_in_the_game_play_plays(little):
    from tavernlang.bots import chosen_by_seat
    bots = parse_bots("greedy,random,random", 3)
    r = chosen_by_seat(little, 3, 4, None, bots)
    p = play(little, 3, 4, None, bots)
    assert (r["winners"], r["scores"], r["decisions"]) == (p["winners"], p["scores"], p["decisions"])
    assert sum(n for seat in r["chosen"].values() for labels in seat.values() for n in labels.values()) == p["decisions"]
    assert set(r["chosen"]) == {1, 2, 3}
    assert all(isinstance(label, str) for seat in r["chosen"].values() for labels in seat.values() for label in labels)
    # random seats too: the engine's own random game, choice for choice
    assert chosen_by_seat(little, 3, 4, None, None)["scores"] == playout(little, 3, 4)["scores"]
