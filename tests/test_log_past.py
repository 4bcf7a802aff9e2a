"""The log does not rewrite its past: a line reads later as it read to the seat when it was
written, though the cards it names have turned face down (or up) since."""
from __future__ import annotations

from pathlib import Path

from tavernlang import compile_file
from tavernlang.engine.runner import Match
from tavernlang.play import log_entries

GAMES = Path(__file__).resolve().parent.parent / "games"


def test_a_zone_on_a_card_seen_face_up_keeps_its_name_in_the_log_once_the_card_is_face_down():
    # Taverns of Tiefenthal: a Guest goes onto a Table face up, the Table later turns face down
    m = Match(compile_file(GAMES / "taverns_of_tiefenthal.tav"), 3, 0)
    before: list[str] = []
    changed = []
    for k in range(1, 120):
        now = [line for line, _ in log_entries(m, 0)]
        changed += [(a, b) for a, b in zip(before, now) if a != b]
        before = now
        if m.over:
            break
        m.apply(k % len(m.legal()))
    assert any("guests of " in line and "Table" in line for line in before)
    assert changed == []
