"""Little Tavern rules that whole games show: shared victory, the end at 25 coins,
and hidden information (a Mystery Customer is known only to its placer)."""
from __future__ import annotations

from pathlib import Path

from tavernlang import Match, compile_file, playout
from tavernlang.engine.runner import play_bots

ROOT = Path(__file__).resolve().parent.parent
GAME = compile_file(ROOT / "games" / "little_tavern.tav")


def test_the_game_ends_after_a_round_with_25_coins_and_ties_share_the_victory():
    ties = 0
    for seed in range(400):
        r = playout(GAME, 3, seed)
        best = max(r["scores"])
        assert best >= 25
        assert r["winners"] == [p for p, s in enumerate(r["scores"]) if s == best]
        ties += len(r["winners"]) > 1
    assert ties > 0, "some of 400 games should end in a shared victory"


def test_no_one_reached_25_before_the_last_round():
    for seed in range(50):
        m = Match(GAME, 4, seed)
        play_bots(m)
        ends = [e for e in m.events() if e.get("type") == "phase" and e.get("phase") == "tips"]
        assert len(ends) == m.st.round  # every round, the last one too, counted its tips


def test_a_mystery_customer_is_hidden_from_the_other_players():
    for seed in range(300):
        m = Match(GAME, 3, seed)
        play_bots(m)
        facedown_moves = [(text, hidden) for text, hidden, data in m.st.log
                          if data.get("type") == "move" and hidden is not None and hidden[0] != (1 << 3) - 1]
        if facedown_moves:
            text, (mask, redacted) = facedown_moves[0]
            placer = [p for p in range(3) if mask >> p & 1]
            assert len(placer) == 1
            other = (placer[0] + 1) % 3
            assert redacted.startswith("a card:")
            assert redacted in m.log_lines(other)
            assert text in m.log_lines(placer[0])
            return
    raise AssertionError("no Mystery Customer was played in 300 games")
