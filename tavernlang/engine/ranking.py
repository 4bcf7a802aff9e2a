"""Ranking the players at the end of a game by the winner rules: who wins, the scores.
`g` is the CompiledGame (engine/compile.py) whose compiled winner rules are read."""
from __future__ import annotations

from typing import Any

from ..errors import GameError
from .common import RULE_FAULTS, located
from .state import State


def result(g, st: State) -> dict:
    """Who wins and the scores, by the winner rules; a fault in them is a located error."""
    try:
        return _ranked(g, st)
    except RULE_FAULTS as e:
        err = located(e)
        if err.span.file == "<builtin>" and g._ranking is not None:  # the winner rule being read
            err = GameError(str(err), g._ranking.span)
        raise err from None


def _ranked(g, st: State) -> dict:
    winner_keys, winner_everyone = g.winner_keys, g.winner_everyone
    m = g.model
    rule = None  # which `winner when` rule decided (None: the rule without `when`)
    g._ranking = m.winner
    for i, (guard, ks, ev) in enumerate(g.guarded_winners):  # the first whose C holds decides
        g._ranking = m.guarded_winners[i]
        if guard(st, [None] * (m.max_frame + 1)):
            winner_keys, winner_everyone, rule = ks, ev, i
            break
    else:
        g._ranking = m.winner
    # the score shown is the first key of the deciding rule, or of the rule without `when`
    score_keys = winner_keys or g.winner_keys[:1]
    pad = [None] * m.max_frame
    players = range(st.n)
    keys: list[tuple]
    if len(score_keys) == 1:
        k = score_keys[0]
        keys = [(k(st, [p, *pad]),) for p in players]
    else:
        keys = []
        for p in players:
            env = [p, *pad]
            keys.append(tuple([k(st, env) for k in score_keys]))
    scores = [k[0] if k else 0 for k in keys]
    if st.out:  # players still in rank above those out; of those out, the later out the higher
        keys = [((st.n,) if p not in st.out else (st.out.index(p),)) + k for p, k in enumerate(keys)]
    if winner_everyone is not None:
        win = bool(winner_everyone(st, pad))
        winners = [p for p in players if p not in st.out] if win else []
    elif keys and keys[0] and (winner_keys or st.out):
        best = max(keys)
        winners = [p for p in players if keys[p] == best]
    else:
        winners = list(players)
    out: dict[str, Any] = {"winners": winners, "scores": scores, "keys": [list(k) for k in keys]}
    if st.out:
        out["out"] = list(st.out)
    if rule is not None:
        out["rule"] = rule
    return out
