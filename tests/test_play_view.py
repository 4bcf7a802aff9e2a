"""The board view and the options of `tav play`, as a person reads them, for one fixed state of
each seed game: snapshots, so any change to how the table reads is seen in review."""
from __future__ import annotations

from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.engine.runner import Match, bot_pick, bot_rng
from tavernlang.play import _option_lines, view_lines

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.tav"))


@pytest.mark.parametrize("entry", GAMES, ids=lambda p: p.stem)
def test_the_view_of_a_fixed_state(entry, snapshot):
    m = Match(compile_file(entry), 3, 7)
    rng = bot_rng(7)
    for _ in range(40):  # 40 random decisions in: a state of play, not the setup
        if m.over:
            break
        m.apply(bot_pick(rng, len(m.pending.options)))
    seat = m.pending.player if m.pending is not None else 0
    screen = view_lines(m, seat) + ["", f"P{seat + 1}, {m.pending.prompt}:"] + _option_lines(m, seat)
    assert "\n".join(screen) == snapshot


VIEW_RULES = """
game "Shop"
players 2..3
option market: bool = true
counter coins per player = 3 "Purse"
counter clock = 1 in 1..9 "the Clock"
kind Good { price: int }
card "Apple" x3: Good { price: 1 }
card "Pear" x2: Good { price: 2 }
zone stall: shared public "Stall"
zone bag: per player private "Bag"
zone shelf: per player public "Shelf"
zone box: shared hidden "the box"
zone hand: per player private "Hand"
view {
  "Market" if market: stall, clock
  per player "shop": shelf, coins, bag
  "Never" if not market: box
}
setup {
  move cards to stall  move top(stall) to bag of player(2)  move top(stall) to shelf of player(2)  move top(stall) to box
}
end when true
winner: highest coins
"""


def test_a_designed_view_shows_its_groups_in_order(tmp_path):
    f = tmp_path / "shop.tav"
    f.write_text(VIEW_RULES)
    g = compile_file(f)
    m = Match(g, 3, 1)
    assert view_lines(m, 0) == [
        f"-- round {m.st.round} --",
        "  Market:", "    Stall: Apple ×2", "    the Clock: 1 (1..9)",
        "  Your shop:", "    Purse: 3",
        "  P2's shop:", "    Shelf: Pear", "    Purse: 3", "    Bag: 1 face-down card",  # (P2's Bag: hidden from P1)
        "  P3's shop:", "    Purse: 3"]  # empty zones and the group whose 'if' fails left out
    assert "    Bag: Pear" in view_lines(m, 1)
    m2 = Match(g, 2, 1, {"market": False})
    assert "  Market:" not in view_lines(m2, 0) and "  Never:" in view_lines(m2, 0)


@pytest.mark.parametrize("group, message", [
    ('"A": stal', "the view shows zones, counters and vars: 'stal' is none of them (did you mean 'stall'?)"),
    ('"A": hand', "'hand' is a zone, counter or var of each player: put it in a 'per player' group"),
    ("per player: box", "'box' is shared: put it in a titled group of the view"),
    ('"A": box, box', "'box' is in the view twice"),
    ('"A" if me.coins > 1: box', "a view group's 'if'"),
    ('"A" if 3: box', "condition of the view group"),
])
def test_the_checker_reads_the_view(tmp_path, group, message):
    from tavernlang.cli import main
    from click.testing import CliRunner
    f = tmp_path / "shop.tav"
    f.write_text(VIEW_RULES.replace('"Never" if not market: box', group))
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 1 and message in r.output, r.output


def test_a_designed_view_may_show_a_var(tmp_path):
    f = tmp_path / "shop.tav"
    f.write_text(VIEW_RULES.replace('"Market" if market: stall, clock', '"Market" if market: stall, clock, opener')
                 .replace("setup {", "var opener: player\nsetup {\n  set opener = player(2)"))
    m = Match(compile_file(f), 3, 1)
    lines = view_lines(m, 0)
    assert lines[lines.index("  Market:") + 3] == "    opener: P2"
    assert "    opener: you" in view_lines(m, 1)


def test_a_view_without_a_design_shows_who_holds_a_marker():
    # Tavern Masters: the Server Chip is a var holding a player
    m = Match(compile_file(ROOT / "games" / "tavern_masters.tav"), 3, 1)
    server = m.st.vars[m.game.var_slots["server"]][0]
    lines = view_lines(m, 0)
    assert ("  server: you" if server == 0 else f"  server: P{server + 1}") in lines
    assert not any(ln.startswith("  one more round") for ln in lines)  # (a var of no player: not a marker)
