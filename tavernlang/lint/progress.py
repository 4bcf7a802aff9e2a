"""Rule family 6 (TAV6xx): loops and rounds with no progress toward an end.

What can be seen without playing: a game whose rounds have no count, whose
`end when` conditions can never hold and that no rule ends; a phase of turns in
which an action is always offered and nothing stops the turns; a chain of
effects that runs itself again unconditionally.
"""
from __future__ import annotations

from ..check.model import EffectRef, PhaseRef
from ..errors import Note
from ..syntax import ast as A
from .compare import can_hold
from .rule import finding, rule


def _closure(ctx, units):
    f = ctx.facts
    seen, work = set(units), list(units)
    while work:
        u = work.pop()
        for v in f.runs.get(u, ()):
            if v not in seen:
                seen.add(v)
                work.append(v)
    return seen


def _ends_game(ctx, units) -> list:
    f = ctx.facts
    return [n for u in _closure(ctx, units) if u.kind != "scenario" for n in f.unit_nodes(u, A.EndGame)]


@rule("TAV601", "game-never-ends",
      "a game that can never end: its rounds have no count, no rule runs 'end game', and no 'end when' can hold")
def game_never_ends(ctx):
    f, m = ctx.facts, ctx.model
    if m.rounds is None or m.rounds.count is not None:
        return
    reached = [u for u in f.units if u in f.reached and u.kind != "scenario"]
    if any(True for u in reached for _ in f.unit_nodes(u, A.EndGame)):
        return
    notes, why = [], []
    for e in m.end_conds:
        if can_hold(ctx, e.cond, why):
            return
    for node, msg in why[:4]:
        notes.append(Note(node.span, msg))
    if not m.end_conds:
        msg = "the game never ends: 'rounds' has no count, there is no 'end when', and no rule runs 'end game'"
    else:
        msg = (f"the game never ends: 'rounds' has no count, no rule runs 'end game', and none of the "
               f"{len(m.end_conds)} 'end when' condition(s) can ever hold")
    yield finding("TAV601", m.rounds, msg, notes)


def always_offered(ctx, name: str) -> bool:
    """An action whose requirements are none and that does not start with a player's choice."""
    a = ctx.model.actions.get(name)
    if a is None or a.requires:
        return False
    first = next((s for s in a.decl.body.stmts if not isinstance(s, A.Require)), None)
    if isinstance(first, (A.Choose, A.ChooseSubset, A.ChooseOne)) and not (first.chooser and first.chooser.random):
        return False
    return True


@rule("TAV602", "endless-turns",
      "a phase of turns that never ends: an action is always offered and neither 'until', passing nor the end of "
      "the game can stop it")
def endless_turns(ctx):
    f, m = ctx.facts, ctx.model
    for info in m.phases:
        ph = info.decl
        if ph.body is not None:
            continue
        multi = ph.can_pass or ph.simultaneous or any(r.once for r in ph.actions)
        can_pass = ph.can_pass and (ph.pass_cond is None or can_hold(ctx, ph.pass_cond, []))
        free = [r for r in ph.actions if not r.once and always_offered(ctx, r.name)]
        if not free:
            continue
        if not multi:
            if ph.once_each:
                continue  # one turn each, of one action
            if ph.until is not None and can_hold(ctx, ph.until, []):
                continue  # `until` may stop the turns
        elif can_pass:
            continue  # a player can always pass
        acts = [u for r in ph.actions for u in f.by_name.get(("action", r.name), ())]
        if _ends_game(ctx, acts):
            continue
        r = free[0]
        if multi:
            msg = (f"phase '{ph.name}' never ends: a turn goes on while an action is left, and action "
                   f"'{r.name}' is always offered (no 'require', not 'once') and there is no 'pass'")
        else:
            stop = "'until' can never hold" if ph.until is not None else "there is no 'until'"
            msg = (f"phase '{ph.name}' never ends: action '{r.name}' is always offered (it has no 'require'), so "
                   f"some player can always take a turn, and {stop}")
        notes = [Note(m.actions[r.name].decl.span, f"action '{r.name}' is declared here")]
        yield finding("TAV602", ph, msg, notes)


@rule("TAV603", "runs-itself", "an effect, action or phase that runs itself again unconditionally: it never finishes")
def runs_itself(ctx):
    f, m = ctx.facts, ctx.model
    edges: dict = {}
    for u in f.units:
        if u.kind not in ("effect", "action", "phase"):
            continue
        body = u.node.body
        if body is None:
            continue
        out = []
        for s in body.stmts:
            if not isinstance(s, A.Do):
                continue
            ref = m.refs.get(s.effect)
            if not isinstance(ref, (EffectRef, PhaseRef)):
                continue
            target = (m.actions if ref.is_action else m.effects).get(ref.name) if isinstance(ref, EffectRef) else None
            if target is not None and target.requires:
                continue  # it may be skipped
            for v in f.by_name.get((ref.kind, ref.name), ()):
                out.append((v, s))
        edges[u] = out
    reported = set()
    for start in edges:
        # a path from start back to itself, through unconditional runs
        stack = [(start, [])]
        seen = set()
        while stack:
            u, path = stack.pop()
            for v, s in edges.get(u, ()):
                p2 = path + [(u, s)]
                if v is start:
                    cycle = frozenset(x for x, _ in p2)
                    if cycle in reported:
                        continue
                    reported.add(cycle)
                    names = " -> ".join(x.name for x, _ in p2) + f" -> {start.name}"
                    notes = [Note(st.span, f"{x.describe()} runs the next one here, whatever happens") for x, st in p2]
                    yield finding("TAV603", start.node,
                                  f"{start.describe()} runs itself again unconditionally ({names}): it never finishes",
                                  notes[:4])
                elif v not in seen:
                    seen.add(v)
                    stack.append((v, p2))


RULES = (game_never_ends, endless_turns, runs_itself)
