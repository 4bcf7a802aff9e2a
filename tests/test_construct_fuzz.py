"""Fuzzing the constructs of the language that the rules of the bigger games rest on: games
drawn from small templates that combine phases played at the same time, phases for each player
(and `do PHASE as p`), trades (`show`, `choose up to N`, `choose number`, a `choose … by` the
partner), `choose N`, zones on cards (a card on itself, cards on each other, deep chains, a
card moved onto one it holds), `repeat while`, `simultaneously` and the deck calls of the
standard library (stdlib/decks.tav, stdlib/deckbuilding.tav). Each file goes through `tav
check`, `tav run` and `tav test` (tests/test_fuzz.py's `_run_all`): exit 0, 1 or 2 only (`tav
test` without scenarios: 5), no internal error, every error placed (FILE:LINE:COL: error:),
every run ending within its budget.

The templates keep names and types right, so that most files check and run (see
`test_most_drawn_games_check`); the numbers, nesting and orders drawn make the runs differ. The
default suite draws a few; `pytest -m slow tests/test_construct_fuzz.py` draws
TAV_FUZZ_EXAMPLES (10000), and a sample also runs as `python -m tavernlang` in a subprocess."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import PLACED, WATCHDOG
from test_fuzz import _fuzz_game as _fuzz

from tavernlang.cli import main

ROOT = Path(__file__).resolve().parent.parent
FAST = 12
SLOW = int(os.environ.get("TAV_FUZZ_EXAMPLES", "10000"))

NUMS = st.sampled_from(["0", "1", "2", "3", "5", "-1", "100", "100000"])
SMALL = st.sampled_from(["0", "1", "2", "3", "(size(hand of me) - 1)", "k", "(me.c)"])
INT_EXPR = st.sampled_from(["1", "2", "k", "me.c", "size(hand of me)", "size(market)", "round",
                            "count(x in all hand where x.v > 1)", "sum(x.v for x in market)", "(k * 3 - 7)"])


@st.composite
def bodies(draw, depth):
    return "  ".join(draw(st.lists(statements(depth + 1), min_size=1, max_size=3)))


@st.composite
def statements(draw, depth=0):
    """One statement: the simple ones always, the nesting ones while depth < 3."""
    n, e = draw(NUMS), draw(INT_EXPR)
    forms = [
        f"gain {e} c", f"lose {e} c", f"set k = {e}", "shuffle deck", "gain 1 offers",
        "move top(deck) to hand of me", "move hand of me to mydiscard of me", "move top(deck) to market",
        "show hand of me to me.left", "show market to me", "next turn me.left",
        # deck calls of the standard library
        f"do deal({n}, deck, hand of me)", f"do refill(market, deck, {n})", "do reshuffle(mydiscard of me, deck)",
        "do draw_card(mydeck of me, mydiscard of me, hand of me)",
        f"do draw_cards({n}, mydeck of me, mydiscard of me, hand of me)",
        "do reshuffle_if_empty(mydeck of me, mydiscard of me)", "do discard_all(hand of me, mydiscard of me)",
        "if can_draw(mydeck of me, mydiscard of me) { do draw_card(mydeck of me, mydiscard of me, hand of me) }",
        "choose x in market \"to your deck\" { do to_deck_top(x, mydeck of me) }",
        # zones on cards: onto another, onto itself, onto one it holds, a swap
        "choose x in hand of me where x is K \"host\" { choose y in hand of me where y != x \"guest\" { move y to on of x } }",
        "choose x in hand of me \"onto itself\" { move x to on of x }",
        "for x in market where not empty(on of x) { move x to on of top(on of x) }",
        "for x in market where x is K and x.holder == none and not empty(on of x) { move on of x to market }",
        "if not empty(hand of me) and not empty(market) { swap top(hand of me) with top(market) }",
        f"for i in range(1, {n}) where size(market) > 1 {{ choose x in market where x != top(market) "
        f"\"under\" at random {{ move top(market) to on of x }} }}",
        "move market to deck", "if not empty(hand of me) { move top(deck) to under of top(hand of me) }",  # (none: a K has no `under`)
        "for x in hand of me where x is L { move top(market) to under of x }",
        "for x in hand of me { gain size(on of x) c }",
    ]
    if depth < 3:
        b = draw(bodies(depth))
        up, m = draw(SMALL), draw(SMALL)
        forms += [
            f"if {e} > {n} {{ {b} }} else {{ {b} }}", f"for x in hand of me {{ {b} }}",
            f"repeat while k < {n} {{ set k = k + 1  {b} }}",
            f"repeat while not empty(deck) and size(hand of me) < {n} {{ move top(deck) to hand of me }}",
            f"choose number n in {draw(NUMS)}..{draw(st.sampled_from(['me.c', '3', '-1', '1000']))} \"n\" "
            f"{{ gain n c  {b} }}",
            f"choose {up} cs in hand of me \"discard\" {{ move cs to mydiscard of me  {b} }}",
            f"choose up to {up} cs in hand of me \"offer\" {{ move cs to market }}",
            # a trade: the partner shows, the offerer names what goes each way, the partner answers
            f"choose p in others \"trade with\" {{ gain 1 offers  show hand of p to me  "
            f"choose up to {up} mine in hand of me \"give\" {{ choose up to {m} theirs in hand of p \"ask for\" {{ "
            f"choose number g in 0..me.c \"coins to add\" {{ choose \"accept?\" by p {{ "
            f"option \"accept\" {{ move mine to hand of p  move theirs to hand of me  give g c to p }} "
            f"option \"decline\" {{ {b} }} }} }} }} }} }}",
            f"simultaneously for p in players choose x in hand of p \"keep\" {{ move x to pool of p  {b} }}",
            f"do e({e})",
        ]
    return draw(st.sampled_from(forms))


@st.composite
def actions(draw, name):
    req = draw(st.sampled_from(["", "require me.offers < 2", "require not empty(hand of me)", "require k < 50"]))
    return f'action {name} "{name}" {{ {req}  gain 1 k  {draw(bodies(0))} }}'


@st.composite
def phases(draw, i):
    """A phase: of turns (in turn, at the same time), for each player, or of steps."""
    kind = draw(st.sampled_from(["turns", "once", "simultaneous", "each", "steps"]))
    acts = draw(st.sampled_from(["a", "b", "a once, b", "a, b pass", "a once, b once pass", "a required, b pass"]))
    until = draw(st.sampled_from(["", " until k > 20", " until k > 3"]))
    if kind == "turns":
        return f'phase p{i} "P{i}" turns from player(1){until or " until k > 40"} {{ actions {acts} }}'
    if kind == "once":
        return f'phase p{i} "P{i}" turns from player(2) once_each {{ actions {acts} }}'
    if kind == "simultaneous":
        cond = draw(st.sampled_from(["", " if at_once"]))
        sim = draw(st.sampled_from(["a once, b", "a, b pass final", "a once, b once pass final"]))
        return f'phase p{i} "P{i}" turns from player(2) simultaneous{cond}{until} {{ actions {sim} }}'
    if kind == "each":
        start = draw(st.sampled_from(["", " from player(2)"]))
        return f'phase p{i} "P{i}" for each player{start} {{ {draw(bodies(1))} }}'
    return f'phase p{i} "P{i}" {{ {draw(bodies(1))} }}'


@st.composite
def games(draw):
    cap = draw(st.sampled_from(["", " capacity 1", " capacity 3", " capacity none"]))
    drop = draw(st.sampled_from(["", " drop to pool of me", " drop to market"]))
    copies = draw(st.sampled_from([3, 12, 40]))
    hand = draw(st.sampled_from([0, 2, 5]))
    ph = [draw(phases(i)) for i in range(draw(st.integers(1, 3)))]
    rounds = draw(st.sampled_from(["1", "3", "", "rounds_n"]))
    again = draw(st.sampled_from(["", "  do p0"] + (["  do p0 as player(2)"] if "for each player" in ph[0] else [])))
    return ('game "F"\nplayers 2..3\ninclude "stdlib/decks.tav"\ninclude "stdlib/deckbuilding.tav"\n'
            'option at_once: bool = true\noption rounds_n: int = 2 in 1..5\n'
            'counter c per player = 3\ncounter k = 0\ncounter offers per player = 0\n'
            f'kind K {{ var v: int = 1, zone on: public{cap}{drop} }}\nkind L {{ zone under: hidden }}\n'
            f'card "k" x{copies}: K\ncard "l" x3: L\n'
            'zone deck: shared hidden\nzone market: shared public\nzone hand: per player private\n'
            'zone pool: per player public\nzone mydeck: per player hidden\nzone mydiscard: per player public\n'
            f'setup {{ move cards to deck  shuffle deck  for p in players {{ do deal({hand}, deck, hand of p)  '
            'do deal(2, deck, mydeck of p) } }\n'
            f'effect e(n: int) {{ if n > 0 {{ {draw(bodies(1))}  do e(n - 1) }} }}\n'
            f'{draw(actions("a"))}\n{draw(actions("b"))}\n'
            f'rounds {rounds} {{ {" ".join(ph)} }}\n'
            'when c of q reaches 30 { gain 1 k  if k > 3 { end game } }\nend when round > 6 or k > 60\n'
            'winner: highest c\n'
            f'scenario "s" players 2 {{ run {{ do a{again} }} '
            'expect true }\n')


_FAST = settings(max_examples=FAST, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))
_SLOW = settings(max_examples=SLOW, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@_FAST
@given(text=games())
def test_games_of_phases_trades_zones_on_cards_and_deck_calls(tmp_path, monkeypatch, text):
    _fuzz(tmp_path, monkeypatch, text)


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(text=games())
def test_the_drawn_games_check(tmp_path_factory, text):
    """The templates keep names and types right: every file drawn checks, so the fuzzing gets past
    the checker into the runs."""
    f = tmp_path_factory.mktemp("gen") / "gen.tav"
    f.write_text(text, "utf-8")
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 0, (r.output, text)


def _subprocess(path: Path) -> None:
    """`python -m tavernlang check` and `run` of one file, as a user runs them: exit 0, 1 or 2,
    no traceback, every error placed, within the watchdog's time."""
    env = dict(os.environ, TAV_MAX_STEPS="300000", TAV_MAX_LOG="20000")
    for args in (["check", str(path)], ["run", str(path), "-p", "3", "--seed", "5"]):
        r = subprocess.run([sys.executable, "-m", "tavernlang", *args], capture_output=True, text=True,
                           timeout=WATCHDOG, env=env, cwd=path.parent)
        out = r.stdout + r.stderr
        assert r.returncode in (0, 1, 2), (args, r.returncode, out[-3000:], path.read_text())
        assert "Traceback" not in out and "internal error" not in out, (args, out[-3000:], path.read_text())
        errs = [ln for ln in out.splitlines() if ": error: " in ln or ln.startswith("error: ")]
        assert all(PLACED.match(ln) for ln in errs), (args, errs, path.read_text())


@settings(max_examples=2, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(text=games())
def test_drawn_games_run_as_a_command(tmp_path_factory, text):
    f = tmp_path_factory.mktemp("gen") / "gen.tav"
    f.write_text(text, "utf-8")
    _subprocess(f)


@pytest.mark.slow
@settings(max_examples=max(1, SLOW // 50), deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(text=games())
def test_drawn_games_run_as_a_command_long(tmp_path_factory, text):
    f = tmp_path_factory.mktemp("gen") / "gen.tav"
    f.write_text(text, "utf-8")
    _subprocess(f)


@pytest.mark.slow
@_SLOW
@given(text=games())
def test_games_of_phases_trades_zones_on_cards_and_deck_calls_long(tmp_path, monkeypatch, text):
    _fuzz(tmp_path, monkeypatch, text)
