"""What a player has seen stays seen: a card a player gives from their own hand to another's (a
trade, a passed hand) is still known to the giver, in their view and to `saw`-style visibility,
however the card moved (a move, a swap, everything moved at once), until it goes into a hidden
pile or is turned face down."""
from __future__ import annotations

from tavernlang import compile_file
from tavernlang.engine.runner import Match

GAME = '''game "Pass"
players 2..3
kind Gem { worth: int }
card "Ruby": Gem { worth: 3 }
card "Opal": Gem { worth: 1 }
card "Jade": Gem { worth: 2 }
card "Onyx": Gem { worth: 2 }
card "Pearl": Gem { worth: 1 }
card "Topaz": Gem { worth: 3 }
zone pile: shared hidden "pile"
zone hand: per player private "hand"
zone table: shared public "table"
counter score per player = 0
setup {
  move cards to pile
  for p in players {
    move top(pile) to hand of p
    move top(pile) to hand of p
  }
}
action give "give a card to your left" {
  choose c in hand of me "give" { move c to hand of me.left }
}
action bury "put a card back into the pile" {
  choose c in hand of me "bury" { move c to pile }
}
rounds 1 {
  phase play "Play" turns from player(1) once_each { actions give }
}
winner: highest score
'''


def _match(tmp_path, text=GAME):
    p = tmp_path / "pass.tav"
    p.write_text(text)
    return Match(compile_file(p), 2, 1)


def _hand(m, p):
    g = m.game
    return [g.card_name[c] for c in m.st.zones[m.st.zbase[g.model.zones["hand"].slot] + p]]


def test_a_card_given_away_is_still_known_to_its_giver_and_to_nobody_else(tmp_path):
    m = _match(tmp_path)
    assert m.pending.player == 0 and m.pending.prompt == "give"
    mine = _hand(m, 0)
    assert len(mine) == 2
    c = m.game.card_name.index(mine[0])
    assert not m.st.visible(c, 1)  # (P2 does not see P1's hand)
    m.apply(m.pending.options.index(c))  # P1 gives that card to P2
    assert mine[0] in _hand(m, 1)
    assert m.st.visible(c, 0), "the giver still knows the card it gave"
    assert m.st.visible(c, 1)
    view = m.view(0)
    assert any(mine[0] in cards for zone, cards in view["zones"].items() if "P2" in zone), view["zones"]


def test_a_card_buried_in_a_hidden_pile_is_forgotten(tmp_path):
    m = _match(tmp_path, GAME.replace("actions give", "actions bury"))
    mine = _hand(m, 0)
    c = m.game.card_name.index(mine[0])
    m.apply(m.pending.options.index(c))  # P1 puts that card into the pile
    assert not m.st.visible(c, 0), "a card shuffled into a hidden pile is not known where it is"


def test_a_swap_and_a_move_of_everything_keep_what_each_owner_saw(tmp_path):
    m = _match(tmp_path)
    st = m.st
    a, b = st.zones[st.zbase[m.game.model.zones["hand"].slot]][0], st.zones[st.zbase[m.game.model.zones["hand"].slot] + 1][0]
    st.swap(a, b)
    assert st.visible(a, 0) and st.visible(b, 1)  # (each still knows the card it gave)
    table = st.zbase[m.game.model.zones["table"].slot]
    st.move_everything(table)
    assert all(st.visible(c, 0) and st.visible(c, 1) for c in st.all_cards)  # (a public zone)
    pile = st.zbase[m.game.model.zones["pile"].slot]
    st.move_everything(pile)
    assert not any(st.visible(c, 0) for c in st.all_cards)
