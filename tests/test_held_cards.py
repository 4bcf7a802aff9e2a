"""The contract between the engine and the search bots (bots.remap_held, engine/common.py
ENV, HELD_PREFIX, HELD_CARDS, SECRET_PICKS): the cards the running rules hold across a decision
(a loop going through cards, the cards left and picked of `choose N`, the picks of a choice made
at the same time) are held in locals the generator names as the bots read them, and a search
bot's re-deal reaches them."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.bots import remap_held
from tavernlang.engine.common import ENV, HELD_PREFIX, SECRET_PICKS, frame_spans
from tavernlang.engine.runner import Match
from tavernlang.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "tests" / "bots").glob("*.tav"))

HOLDS = '''game "Holds"
players 2
kind Coin { value: int }
card "Gold": Coin { value: 1 }
card "Lead": Coin { value: 0 }
card "Tin": Coin { value: 0 }
counter points per player = 0
zone pile: shared hidden
zone purse: per player public
setup { move cards to pile }
action go "go" {
  for c in pile {
    choose "keep going?" { option "yes" { gain 1 points } option "no" { } }
  }
  choose 2 d in pile "two" { gain 1 points }
  simultaneously for p in players choose e in pile "each" { gain 1 points }
}
rounds 1 { phase a "A" turns from player(1) once_each { actions go } }
winner: highest points
'''


def _held_statements(path):
    """The compiled game, and its statements that hold a list of cards while their bodies (or
    their picks) may decide, and its `simultaneously` statements."""
    game = compile_file(path)
    m = game.model

    def decides(node) -> bool:
        return any(isinstance(n, (A.Choose, A.ChooseOne, A.ChooseN, A.ChooseSubset, A.ChooseNumber, A.Simultaneous))
                   and not (n.chooser is not None and n.chooser.random) for n in A.walk(node.body))
    held, simultaneous = [], 0
    for node in m.slots:
        if isinstance(node, A.Simultaneous):
            simultaneous += 1
        t = m.types.get(getattr(node, "coll", None)) or ""
        cards = t == "zone" or t.endswith(":card") or any(t.endswith(":" + k) for k in m.kinds)
        if cards and (isinstance(node, A.For) and decides(node) or isinstance(node, A.ChooseN)):
            held.append(node)
    return game, held, simultaneous


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_list_of_cards_held_across_a_decision_is_named_for_the_bots(path):
    game, held, simultaneous = _held_statements(path)
    src = "\n".join(game.gen_source)
    fors = sum(isinstance(s, A.For) for s in held)
    assert len(re.findall(rf"for {ENV}\[\d+\] in {HELD_PREFIX}\d+:", src)) >= fors
    assert len(re.findall(rf"\b{HELD_PREFIX}\d+ = ", src)) >= fors + 2 * sum(isinstance(s, A.ChooseN) for s in held)
    assert src.count(f"{SECRET_PICKS} = _redraw_picks(") == simultaneous


def test_a_search_bots_re_deal_reaches_the_cards_a_loop_holds(tmp_path):
    f = tmp_path / "holds.tav"
    f.write_text(HOLDS)
    game = compile_file(f)
    m = Match(game, 2, 1, log=False)
    seen = []

    def agent(p, opts):
        frame = sys._getframe(1)
        held = [(name, v) for fr in _frames(frame) for name, v in fr.f_locals.items()
                if name.startswith(HELD_PREFIX) and isinstance(v, list)]
        if held and not seen:
            before = [list(v) for _, v in held]
            sigma = {c: (c + 1) % game.ncards for c in range(game.ncards)}
            assert remap_held(m.st, sigma, frame) >= 1
            seen.append(([list(v) for _, v in held], before, sigma))
        return 0
    m.st.agent = agent
    m.apply(0)  # (the turn's action: the loop's first choice is answered by the agent)
    assert seen, "no list of cards held at a decision"
    after, before, sigma = seen[0]
    assert after == [[sigma[c] for c in b] for b in before]


def _frames(frame):
    while frame is not None:
        if frame_spans(frame) is not None:
            yield frame
        frame = frame.f_back


def test_the_hand_written_turns_hold_their_cards_in_the_declared_locals():
    """_simultaneous_turns (engine/turns.py) is Python, not generated: its locals must bear the
    contract's names, or a search bot re-deals nothing of a simultaneous step."""
    from tavernlang.engine.common import HELD_CARDS
    from tavernlang.engine.turns import _simultaneous_turns
    names = _simultaneous_turns.__code__.co_varnames
    assert HELD_CARDS in names and SECRET_PICKS in names
