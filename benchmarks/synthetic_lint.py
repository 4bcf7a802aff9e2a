"""A synthetic rules file of C cards and E effects, to measure how `tav lint` scales.

    python benchmarks/synthetic_lint.py --cards 2000 --effects 200 > /tmp/big.tav
    python benchmarks/bench_lint.py --scaling        # 250/25 .. 2000/200, lint alone

Every card names one of the effects (`effect: e7`), carries a colour and a cost;
every effect filters cards by colour and cost, as real games do (a count of the
Red cards at your table, a choice among the Blue ones of cost 3), so the static
analysis tests cards against conditions C × E times unless it shares the work.
The file is a whole game (setup, rounds, winner) and loads clean.
"""
from __future__ import annotations

import argparse
import sys

COLOURS = ["Red", "Blue", "Green", "Gold", "Grey", "Pink", "Teal", "Plum"]


def synthetic(cards: int, effects: int) -> str:
    out = [f'game "Synthetic {cards} cards, {effects} effects"', "players 2..4",
           f"enum Colour {{ {', '.join(COLOURS)} }}",
           "kind Item { colour: Colour, cost: int = 0, effect: effect }",
           "counter vp per player = 0",
           "zone deck: shared hidden", "zone hand: per player private", "zone table: per player public",
           "zone discard: shared public", ""]
    for i in range(cards):
        out.append(f'card "Item {i}": Item {{ colour: {COLOURS[i % len(COLOURS)]}, cost: {i % 7}, '
                   f'effect: e{i % effects} }}')
    out.append("")
    for j in range(effects):
        c1, c2 = COLOURS[j % len(COLOURS)], COLOURS[(j * 3 + 1) % len(COLOURS)]
        cost = j % 7
        out.append(f'effect e{j} "effect {j}" {{\n'
                   f'  if count(x in table of me where x.colour == {c1}) >= 2 {{ gain 1 vp }}\n'
                   f'  if sum(x.cost for x in cards where x.colour == {c1} and x.cost >= {cost}) > 3 {{ gain 1 vp }}\n'
                   f'  if any(x in hand of me where x.colour == {c2} and x.cost == {cost}) {{\n'
                   f'    choose c in hand of me where x_ok(c) and c.colour == {c2} "play" {{ move c to table of me }}\n'
                   f'  }}\n'
                   f'}}')
    out.append("def x_ok(c: Item): bool = c.cost >= 0")
    out.append("""
setup { move cards to deck  shuffle deck  for p in players { move first(3, deck) to hand of p } }
action play "play a card" {
  require not empty(hand of me)
  choose c in hand of me "play" { move c to table of me  do c.effect }
}
action draw "draw" { require not empty(deck)  move top(deck) to hand of me }
action clear "clear" { require not empty(table of me)  move table of me to discard  gain 1 vp }
action recycle "recycle" { require not empty(discard)  move discard to deck  shuffle deck }
rounds 5 { phase work "Work" turns from player(1) once_each { actions play, draw, clear, recycle } }
winner: highest vp
""")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=2000)
    ap.add_argument("--effects", type=int, default=200)
    a = ap.parse_args()
    sys.stdout.write(synthetic(a.cards, a.effects))


if __name__ == "__main__":
    main()
