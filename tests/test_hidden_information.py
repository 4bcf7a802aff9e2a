"""A player never learns, from the log, the options or the view, a card they may not see."""
from __future__ import annotations

from tavernlang import Match
from tavernlang.check.model import GameModel  # noqa: F401
from tavernlang.engine.compile import CompiledGame
from tavernlang.loader import load

DRAFT = '''
game "Hidden"
players 2..3
kind Gem
card "Ruby": Gem
card "Pearl": Gem
card "Opal": Gem
card "Jade": Gem
zone bag: shared hidden
zone hand: per player private
zone pile: shared hidden
setup { move cards to bag  shuffle bag  for p in players { move top(bag) to hand of p  move top(bag) to hand of p } }
rounds 1 {
  phase pick "Pick" {
    simultaneously for p in players choose c in hand of p "discard" { move c to pile facedown }
  }
  phase dump "Dump" turns from player(1) once_each { actions dump }
}
action dump "discard face down" {
  choose subset s of hand of me size 1..1 "discard" { move s to pile }
}
winner: everyone if true
'''


def _game(tmp_path):
    f = tmp_path / "hidden.tav"
    f.write_text(DRAFT)
    return CompiledGame(load(f))


def _play(game, seed):
    m = Match(game, 2, seed)
    while not m.over:
        m.apply(0)
    return m


def test_private_picks_stay_private_in_the_log(tmp_path):
    game = _game(tmp_path)
    for seed in range(5):
        m = _play(game, seed)
        hands = {p: [game.card_name[c] for c in m.st.all_cards if f"hand of P{p + 1}" in "".join(
            t for t, _, d in m.st.log if d.get("card") == game.card_name[c] and d.get("type") == "move")] for p in (0, 1)}
        for viewer in (0, 1):
            other = 1 - viewer
            seen = "\n".join(m.log_lines(viewer))
            # every name P(other) picked or held must be hidden from the viewer
            for text, hidden, data in m.st.log:
                if data.get("type") == "choice" and data.get("player") == other:
                    assert hidden is not None, text
                    assert text not in seen
                    assert hidden[1].strip() in seen
        assert hands  # the game dealt cards


def test_the_chooser_of_a_face_down_card_does_not_learn_it(tmp_path):
    f = tmp_path / "blind.tav"
    f.write_text('''
game "Blind"
players 2..2
kind Gem
card "Ruby": Gem
card "Pearl": Gem
zone pile: shared public
zone hand: per player private
setup { move cards to pile facedown }
rounds 1 { phase take "Take" turns from player(1) once_each { actions take } }
action take "take a face-down card" { choose c in pile "take" { move c to hand of me } }
winner: everyone if true
''')
    game = CompiledGame(load(f))
    m = Match(game, 2, 1)
    # P1's only action is taken without asking (a decision with one option is not asked)
    assert m.legal() == ["face-down card", "face-down card"]
    m.apply(0)
    line = [t for t in m.log_lines(0) if "chooses" in t][0]
    assert line == "P1 chooses a face-down card (take)"
    # once in P1's private hand, P1 may see it; P2 may not
    assert any(c != "?" for c in m.view(0)["zones"]["hand of P1"])
    assert m.view(1)["zones"]["hand of P1"] == ["?"]
