"""Seeded random playouts of a compiled game, as tests compare two compilations of the same rules:
each game's result (winners, scores, decisions, rounds, steps), or the fault that stopped it
(its message and place)."""
from __future__ import annotations

from tavernlang import GameError, playout


def games(g, seeds=range(30), players=(2, 3)) -> list:
    out: list = []
    for n in players:
        for s in seeds:
            try:
                out.append(playout(g, n, s))
            except GameError as e:
                out.append((str(e), e.span))
    return out
