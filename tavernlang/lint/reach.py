"""Rule family 2 (TAV2xx): rules that no flow of the game reaches.

The flow starts at the setup, the phases (every phase is entered each round),
the end conditions, the winner rule and the data (cards, options, counters...).
From there an effect is reached by `do` (by name, or through a value such as a
card's `effect: swap` attribute when some reached rule does `do e.effect`), an
action by being listed in a phase or by `do`, an `on` handler by a reached
`emit`, a `when ... reaches` trigger by a reached gain of its counter.
"""
from __future__ import annotations

from ..errors import Note
from ..syntax import ast as A
from .compare import impossible_comparisons
from .rule import finding, rule


def referrers(ctx, u) -> list:
    """The nodes that would bring unit u into play (anywhere in the rules)."""
    f = ctx.facts
    if u.kind in ("effect", "action", "def"):
        return list(f.refs_by.get((u.kind, u.name), ()))
    if u.kind == "on":
        return list(f.emits.get(u.name, ()))
    if u.kind == "when":
        return [g for g in f.nodes(A.Gain) if g.counter == u.name and g.op != "lose"]
    return []


def why_unreached(ctx, u, verb: str):
    """(reason, notes) for a unit the flow never reaches."""
    f = ctx.facts
    if u.node in f.blocked:
        cond = f.blocked[u.node]
        return f": its requirement `{f.source(cond)}` can never hold", [Note(cond.span, "this requirement")]
    refs = referrers(ctx, u)
    if not refs:
        return "", []
    notes = []
    conds = []
    in_scenarios = in_dead = values = switched = 0
    for n in refs[:8]:
        ru = f.unit_of.get(n)
        if ru is None:
            continue
        cond = f.dead_cond(n)
        if cond is not None:
            switched += 1
            conds.append(f.source(cond))
            notes.append(Note(n.span, f"{verb} it only where `{f.source(cond)}`, which can never hold"))
        elif ru.node in f.blocked:
            in_dead += 1
            notes.append(Note(n.span, f"{ru.describe()} {verb} it, but its requirement "
                                      f"`{f.source(f.blocked[ru.node])}` can never hold"))
        elif ru.kind == "scenario":
            in_scenarios += 1
            notes.append(Note(n.span, f"only scenario '{ru.name}' {verb} it"))
        elif ru not in f.reached:
            in_dead += 1
            notes.append(Note(n.span, f"{ru.describe()} {verb} it, but is never reached itself"))
        elif u.kind == "effect":
            values += 1
            notes.append(Note(n.span, "named here as a value, but no reached rule runs a value ('do e.effect')"))
    parts = []
    if switched:
        done = {"runs": "run", "emits": "emitted", "gains": "gained"}.get(verb, verb)
        uniq = list(dict.fromkeys(conds))
        if len(uniq) == 1:
            parts.append(f"it is only {done} where `{uniq[0]}`, which can never hold")
        else:
            parts.append(f"it is only {done} under conditions that never hold")
    plural = {"runs": "run", "emits": "emit", "gains": "gain"}.get(verb, verb)
    users = {f.unit_of[n] for n in refs if f.unit_of.get(n) is not None}
    if in_dead and len(users) == 1:
        ru = next(iter(users))
        if ru.node in f.blocked:
            parts.append(f"only {ru.describe()} {verb} it, and its requirement `{f.source(f.blocked[ru.node])}` "
                         "can never hold")
        else:
            parts.append(f"only {ru.describe()} {verb} it, and it is never reached itself")
        in_dead = 0
    if in_dead:
        parts.append("only rules that are never reached themselves " + plural + " it")
    if in_scenarios:
        parts.append("only scenarios " + plural + " it")
    if values:
        parts.append("it is only named as a value, and nothing runs effects held in values")
    return (": " + "; ".join(parts)) if parts else "", notes


@rule("TAV201", "effect-never-run", "an effect that no flow runs: no reached 'do' names it, directly or through a card "
      "(one whose own 'require' never holds is reported at that requirement)")
def effect_never_run(ctx):
    f = ctx.facts
    for u in f.units:
        if u.kind != "effect" or u in f.reached or u in f.helpers or f.is_library(u) or u.node in f.blocked:
            continue
        why, notes = why_unreached(ctx, u, "runs")
        if not why:
            why = f": no rule does 'do {u.name}' and no card or value names it"
        yield finding("TAV201", u.node, f"effect '{u.name}' is never run{why}", notes)


@rule("TAV202", "action-never-offered", "an action listed in no phase of turns and run by no reached 'do'")
def action_never_offered(ctx):
    f = ctx.facts
    for u in f.units:
        if u.kind != "action" or u in f.reached or u in f.helpers or f.is_library(u) or u.node in f.blocked:
            continue
        why, notes = why_unreached(ctx, u, "runs")
        if not why:
            why = f": no phase lists it in its 'actions' and no rule does 'do {u.name}'"
        yield finding("TAV202", u.node, f"action '{u.name}' is never offered{why}", notes)


@rule("TAV203", "event-never-emitted", "an 'on EVENT' handler whose event no reached rule emits")
def handler_never_runs(ctx):
    f = ctx.facts
    for u in f.units:
        if u.kind != "on" or u in f.reached or u in f.helpers or f.is_library(u):
            continue
        why, notes = why_unreached(ctx, u, "emits")
        if not why:
            why = f": no rule does 'emit {u.name}'"
        yield finding("TAV203", u.node, f"'on {u.name}' never runs{why}", notes)


@rule("TAV204", "trigger-never-fires", "a 'when COUNTER of P reaches N' whose counter no reached rule ever increases")
def trigger_never_fires(ctx):
    f, v = ctx.facts, ctx.values
    for u in f.units:
        if u.kind != "when" or f.is_library(u):
            continue
        d = u.node
        inc, _, _ = v.counter_moves(d.counter)
        if u in f.reached and inc:
            continue
        why, notes = why_unreached(ctx, u, "gains")
        if u in f.reached:
            gains = f.gains.get(d.counter, ())
            notes = [Note(g.span, f"'{g.op} {f.source(g.amount)} {d.counter}' never adds anything here") for g in gains[:4]]
            why = f": every gain of '{d.counter}' is of nothing (or less)"
        elif not why:
            why = f": nothing ever gains, gives or takes '{d.counter}' ('lose' and 'set' never fire triggers)"
        yield finding("TAV204", d, f"'when {d.counter} of {d.pvar} reaches {f.source(d.value)}' never fires{why}", notes)


@rule("TAV205", "option-switched-off",
      "a condition that is false under every allowed option setting (a branch no option turns on)")
def option_switched_off(ctx):
    for code, node, msg in impossible_comparisons(ctx):
        if code == "TAV205":
            yield finding(code, node, msg)


RULES = (effect_never_run, action_never_offered, handler_never_runs, trigger_never_fires, option_switched_off)
