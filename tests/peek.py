"""Peek, a small game of hidden cards shared by the agents' adapters' tests (PettingZoo,
OpenSpiel): what each seat may see of a deal is easy to tell."""

PEEK = """\
# Peek: each player is dealt two of five cards into a private hand; one stays in the hidden
# deck. Each in turn plays a card of their hand face up; the higher total wins.
game "Peek"
players 2..2

kind Card { value: int }
card "Ace": Card { value: 5 }
card "King": Card { value: 4 }
card "Queen": Card { value: 3 }
card "Jack": Card { value: 2 }
card "Ten": Card { value: 1 }

counter points per player = 0
zone deck: shared hidden
zone hand: per player private
zone played: shared public

setup {
  move cards to deck
  shuffle deck
  for p in players { move top(deck) to hand of p  move top(deck) to hand of p }
}

action play "play a card" {
  choose c in hand of me "play" { move c to played  gain c.value points }
}

rounds 1 {
  phase play "Play" turns from player(1) once_each { actions play }
}

winner: highest points
"""
