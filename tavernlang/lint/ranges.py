"""Rule family 1 (TAV1xx): conditions that can never hold, from value ranges.

Each comparison of the rules is checked against the values its two sides can
take (see :mod:`.values`); the code says what rules it out.
"""
from __future__ import annotations

from .compare import impossible_comparisons
from .rule import finding, rule
from .values import INF, fmt


def _by_code(ctx, code):
    for c, node, msg in impossible_comparisons(ctx):
        if c == code:
            yield finding(code, node, msg)


@rule("TAV101", "dice-total-out-of-reach",
      "a condition on a total of dice (a sum of card values) that the dice that can be placed never reach")
def dice_total(ctx):
    return _by_code(ctx, "TAV101")


@rule("TAV102", "count-beyond-components",
      "a count (or size) compared with more cards, players or items than can exist")
def count_beyond(ctx):
    return _by_code(ctx, "TAV102")


@rule("TAV103", "beyond-track",
      "a track space (a counter with a range) beyond the track, in a comparison or a 'when ... reaches'")
def beyond_track(ctx):
    yield from _by_code(ctx, "TAV103")
    f, v, m = ctx.facts, ctx.values, ctx.model
    for d, _ in m.reach:
        ci = m.counters.get(d.counter)
        if ci is None or ci.decl.low is None or ci.decl.high is None:
            continue
        inc, _, _ = v.counter_moves(d.counter)
        if not inc:
            continue  # TAV204 says it
        lo, hi = v.iv(ci.decl.low), v.iv(ci.decl.high)
        t = v.iv(d.value)
        track = f"'{d.counter}' is a track {fmt(lo.lo)}..{fmt(hi.hi)}"
        if t.lo > hi.hi:
            yield finding("TAV103", d.value, f"space {fmt(t.lo)} is beyond the track: {track}, so "
                                             f"'when {d.counter} of {d.pvar} reaches {f.source(d.value)}' never fires")
        elif ci.decl.wrap and t.hi < lo.lo:
            yield finding("TAV103", d.value, f"space {fmt(t.hi)} is before the start of the track: {track}, so "
                                             f"'when {d.counter} of {d.pvar} reaches {f.source(d.value)}' never fires")
        elif not ci.decl.wrap:
            c = v.counter_iv(d.counter)
            if t.hi <= c.lo and c.lo > -INF:
                yield finding("TAV103", d.value,
                              f"space {fmt(t.hi)} is at the start of the track: {track} and '{d.counter}' is never "
                              f"below {fmt(c.lo)}, so it never reaches {fmt(t.hi)} going up")


@rule("TAV104", "never-granted",
      "a comparison that needs a resource (a counter) to rise, or fall, when no rule ever changes it that way")
def never_granted(ctx):
    return _by_code(ctx, "TAV104")


@rule("TAV105", "always-false",
      "a comparison that is false whatever happens: literals, player counts, card names and values that never match")
def always_false(ctx):
    return _by_code(ctx, "TAV105")


RULES = (dice_total, count_beyond, beyond_track, never_granted, always_false)
