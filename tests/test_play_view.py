"""The board view and the options of `tav play`, as a person reads them, for one fixed state of
each seed game (issue 13): snapshots, so any change to how the table reads is seen in review."""
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
