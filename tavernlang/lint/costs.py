"""Rule family 8 (TAV8xx): costs that can explode, estimated without playing.

A rules file can pass `tav check` and still ask for more work than a game may spend: the
engine then stops it with an error at that place (docs/security.md). These rules find, from a
static estimate, where that can happen:

- a subset (`choose subset`, `any(subset ...)`) of a zone or list that can hold so many cards
  that its subsets are more than a choice may try (65,536) or offer (4,096). How many cards a
  zone can hold is worked out from the cards the reached rules can move into it (and its
  `capacity`), each zone in turn until nothing changes;
- definitions and effects that call themselves (directly or round a cycle of named calls)
  where no call on the way round passes a smaller number (`n - 1`, `n / 2`) or is made under
  a condition reading what the calls change (a counter they gain, a zone they move cards into
  or out of): nothing shows the recursion ends, and each call is a step of the budget and a
  level of nesting;
- definitions and effects that call themselves more than once in one call (`f(n - 1) + f(n - 1)`):
  the calls grow exponentially with the depth.

The estimates err wide (a zone may hold any card the rules can move into it), so a finding is
a cost that *can* explode; suppress one that cannot with a reason, as for any finding.
"""
from __future__ import annotations

import math

from ..check.model import (ZONE, BuiltinRef, CardAttrRef, CounterRef, DefRef, EffectRef, LocalRef, PropRef, Ref,
                           VarRef, ZoneFamilyRef, ZoneRef)
from ..errors import Note
from ..syntax import ast as A
from .components import ALL, _game_nodes, dest_zones
from .rule import finding, rule
from .values import INF, Cards, fmt, total_copies

MAX_TRIES = 1 << 16  # engine/statements.py: the subsets one choice (or test) may try
MAX_OFFERED = 4096  # engine/common.py MAX_SUBSETS: the subsets one choice may offer


# ---------------------------------------------------------------- what a zone can hold
def _src(ctx, e, seen=None):
    """What moving `e` can put into a zone: (Cards, zone names they also come from), or None for
    any card of the game."""
    f, m, v = ctx.facts, ctx.model, ctx.values
    seen = seen if seen is not None else set()
    if e in seen:
        return Cards(), set()
    seen.add(e)
    if m.types.get(e) == ZONE or isinstance(e, (A.EveryZone, A.AllZone)):
        zs = dest_zones(ctx, e) if not isinstance(e, (A.EveryZone, A.AllZone)) else _family(ctx, e)
        return None if zs is ALL else (Cards(), set(zs))
    if isinstance(e, A.Quant) and e.op == "filter":
        return _src(ctx, e.coll, seen)
    if isinstance(e, A.Call) and isinstance(m.refs.get(e), BuiltinRef) and e.name in ("top", "bottom", "first", "last"):
        return _src(ctx, e.args[-1], seen) if e.args else None
    if isinstance(e, A.ListLit):
        out, zs = Cards(), set()
        for x in e.items:
            r = _src(ctx, x, seen)
            if r is None:
                return None
            out, zs = Cards(list(out) + list(r[0])), zs | r[1]
        return out, zs
    if isinstance(e, A.Name) and isinstance(m.refs.get(e), LocalRef):
        b = f.binder(e)
        if b is not None:
            node, role = b
            if role in ("elem", "list") and getattr(node, "coll", None) is not None:
                return _src(ctx, node.coll, seen)
            if role == "let":
                return _src(ctx, node.value, seen)
    if isinstance(e, A.Call) and e.name == "named" and m.refs.get(e) == BuiltinRef("named") and e.args:
        names = _texts(ctx, e.args[0], 0)
        if names is not None:
            return Cards((cd, c) for cd, c in v.universe if cd.name in names), set()
    cards = v.cards_in(e)
    if cards is None or getattr(cards, "whole", False):
        return None
    return cards, set()


def _texts(ctx, e, depth):
    """The texts an expression can give (through a def's body: a `match` or `if` of literals),
    or None when not known."""
    if depth > 8:
        return None
    got = ctx.values.vals(e)
    if got is not None:
        return got
    m = ctx.model
    if isinstance(e, A.Lit) and isinstance(e.value, str):
        return {e.value}
    if isinstance(e, A.Call) and isinstance(m.refs.get(e), DefRef) and e.name in m.defs:
        return _texts(ctx, m.defs[e.name].decl.body, depth + 1)
    parts = [e.then, e.orelse] if isinstance(e, A.Cond) else [c.value for c in e.cases] if isinstance(e, A.Match) \
        else None
    if parts is None:
        return None
    out: set = set()
    for x in parts:
        t = _texts(ctx, x, depth + 1)
        if t is None:
            return None
        out |= t
    return out


def _dest(ctx, e):
    """The zones of the game (by name) a move's destination may be; a zone on a card is none of them."""
    ref = ctx.model.refs.get(e)
    if isinstance(ref, ZoneRef) and ref.whose == "card":
        return set()
    return dest_zones(ctx, e)


def _family(ctx, e):
    ref = ctx.model.refs.get(e)
    return {ctx.facts.zone_name(ref.slot)} if isinstance(ref, ZoneFamilyRef) else ALL


def zone_cards(ctx) -> dict:
    """zone name -> the card declarations (with copies) it can ever hold, or None: any card."""
    key = "zone_cards"
    f = ctx.facts
    if key in f.cache:
        return f.cache[key]
    moves = []  # (destination zones, Cards, source zones) of every reached move; None: any card
    for mv in _game_nodes(ctx, A.Move):
        dest = _dest(ctx, mv.dest)
        src = _src(ctx, mv.what)
        moves.append((dest, src))
    names = set(ctx.model.zones)
    held: dict = {z: {} for z in names}  # zone -> {card decl: copies}
    anything: set = set()
    everywhere = False  # a move to a zone the analysis cannot pin down: of any card, anywhere
    changed = True
    while changed:
        changed = False
        for dest, src in moves:
            targets = names if dest is ALL else dest & names
            if src is None:
                new_any = targets - anything
                if new_any:
                    anything |= new_any
                    changed = True
                continue
            cards, zs = src
            gathered = {cd: c for cd, c in cards}
            for z in zs:
                if z in anything:
                    gathered = None
                    break
                gathered.update(held.get(z, {}))
            for z in targets:
                if gathered is None:
                    if z not in anything:
                        anything.add(z)
                        changed = True
                    continue
                have = held[z]
                for cd, c in gathered.items():
                    if have.get(cd, 0) < c:
                        have[cd] = c
                        changed = True
    del everywhere
    out = {z: (None if z in anything else Cards(held[z].items())) for z in names}
    f.cache[key] = out
    return out


def holds_at_most(ctx, coll, cond=None, binder=None):
    """(the most items a subset can be picked from, why) for a collection: a zone by what can be
    moved into it (and its capacity), another collection by the value analysis."""
    m, v = ctx.model, ctx.values
    zs = dest_zones(ctx, coll) if m.types.get(coll) == "zone" else None
    if zs is None or zs is ALL:
        return v.count_ub(coll, cond, binder)
    held = zone_cards(ctx)
    cards = Cards()
    for z in zs:
        h = held.get(z)
        if h is None:
            cards = v.whole()
            break
        cards = Cards(list(cards) + list(h))
    if cond is not None and binder is not None:
        cards = v.filter_cards(cards, cond, binder)
    n = total_copies(cards)
    why = (f"the rules can move {n} card{'s' if n != 1 else ''} into {' and '.join(sorted(zs))}"
           + (f" ({', '.join(cd.name + (f' x{c}' if c > 1 else '') for cd, c in list(cards)[:3])}"
              f"{', ...' if len(cards) > 3 else ''})" if n else ""))
    for z in zs:
        cap = m.zones[z].decl.capacity if z in m.zones else None
        if cap is not None:
            hi = v.iv(cap).hi
            if hi < n:
                n, why = hi, f"{z} has a capacity of {fmt(hi)}"
    return n, why


def subsets(n, lo, hi) -> float:
    """How many subsets of n items have a size in lo..hi."""
    if n == INF:
        return INF
    n = int(n)
    lo, hi = max(0, int(lo)), min(n, int(hi) if hi != INF else n)
    total = 0
    for k in range(lo, hi + 1):
        total += math.comb(n, k)
        if total > 1 << 62:
            return INF
    return total


def _sum_form(e: A.AnySubset) -> bool:
    """`any(subset S ... where sum(x.A for x in S) == V)`: worked out by subset sums (engine), not
    by trying subsets."""
    c = e.cond
    if not (isinstance(c, A.BinOp) and c.op == "=="):
        return False
    for side in (c.left, c.right):
        if isinstance(side, A.Aggregate) and side.op == "sum" and isinstance(side.coll, A.Name) \
                and side.coll.name == e.var:
            return True
    return False


@rule("TAV801", "subsets-can-explode",
      "a subset (choose subset, any(subset ...)) of a zone or list that can hold more cards than its "
      "subsets can be tried or offered")
def subsets_can_explode(ctx):
    v = ctx.values
    for node in _game_nodes(ctx, A.ChooseSubset, A.AnySubset):
        if isinstance(node, A.AnySubset) and _sum_form(node):
            continue
        cond = node.cond
        n, why = holds_at_most(ctx, node.coll, cond, node if cond is not None else None)
        lo = v.iv(node.low).lo if node.low is not None else (0 if isinstance(node, A.ChooseSubset) else 1)
        hi = v.iv(node.high).hi if node.high is not None else INF
        total = subsets(n, lo if lo != -INF else 0, hi)
        if isinstance(node, A.ChooseSubset) and node.test is None:
            limit, what = MAX_OFFERED, "offer"
        else:
            limit, what = MAX_TRIES, "try"
        if total <= limit:
            continue
        sizes = f"of {fmt(max(0, lo))} to {fmt(min(n, hi))} of them" if n != INF else "of them"
        src = ctx.facts.source(node).split("\n")[0].split("  #")[0].split(' "')[0].rstrip(" {")
        src = src[:80] + ("..." if len(src) > 80 else "")
        count = f"{fmt(total)}" if total != INF else "more than 2^62"
        yield finding("TAV801", node,
                      f"`{src}` can have {count} subsets to {what}: {why or 'the collection has no known bound'}, "
                      f"and the subsets {sizes} are {'tried' if what == 'try' else 'offered'}; a game stops with an "
                      f"error past {limit} (a tighter 'size' or a 'where' on the cards bounds it)")


# ---------------------------------------------------------------- recursion
def _calls(ctx):
    """(kind, name) of each def and effect -> [(callee key, call node)] of its named calls."""
    m = ctx.model
    out: dict = {}
    bodies = {("def", n): d.decl for n, d in m.defs.items()}
    bodies.update({("effect", n): e.decl for n, e in m.effects.items()})
    for key, decl in bodies.items():
        lst = out[key] = []
        for node in A.walk(decl.body):
            ref = m.refs.get(node)
            if isinstance(node, (A.Call, A.Name)) and isinstance(ref, (DefRef, EffectRef)) \
                    and (ref.kind, ref.name) in bodies and (isinstance(node, A.Call) or isinstance(ref, EffectRef)):
                lst.append(((ref.kind, ref.name), node))
    return out, bodies


def _cycles(edges) -> list[set]:
    """The strongly connected parts of the call graph that hold a cycle (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        work = [(v, iter(edges.get(v, ())))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            u, it = work[-1]
            for w, _ in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges.get(w, ()))))
                    break
                if w in on:
                    low[u] = min(low[u], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[u])
                if low[u] == index[u]:
                    part = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        part.add(w)
                        if w == u:
                            break
                    if len(part) > 1 or any(w == u for w, _ in edges.get(u, ())):
                        out.append(part)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def _decreases(ctx, caller_decl, call) -> bool:
    """Some argument of the call is a number parameter of the caller made smaller: `n - K` with
    K at least 1, `n / K` with K at least 2."""
    args = call.args if isinstance(call, A.Call) else ()
    params = {p.name for p in caller_decl.params}
    for a in args:
        if isinstance(a, A.BinOp) and a.op in ("-", "/") and isinstance(a.left, A.Name) and a.left.name in params \
                and isinstance(ctx.model.refs.get(a.left), LocalRef):
            k = ctx.values.iv(a.right)
            if (a.op == "-" and k.lo >= 1) or (a.op == "/" and k.lo >= 2):
                return True
    return False


def _state(ref: Ref | None) -> tuple | None:
    """The piece of the game's state a reference reads or writes (a counter, a zone, a variable)."""
    match ref:
        case CounterRef(slot=s):
            return "counter", s
        case ZoneRef(slot=s):
            return "zone", s
        case VarRef(whose="shared", slot=s):
            return "var", (s,)
        case CardAttrRef(mutable=True, slot=s):
            return "cvar", (s,)
        case PropRef(on=on, name=n):
            return "prop", (on, n)
    return None


def _guards(ctx, body_root, call):
    """The conditions that decide whether `call` is made: the `if` (and `if … then … else`) tests
    around it, and the `require` lines of its effect."""
    f = ctx.facts
    out = []
    child, p = call, f.parent.get(call)
    while p is not None and child is not body_root:
        if isinstance(p, (A.If, A.Cond)) and child is not p.test:
            out.append(p.test)
        if isinstance(p, A.Repeat) and child is not p.cond:
            out.append(p.cond)
        child, p = p, f.parent.get(p)
    if isinstance(body_root, A.Block):
        out += [st.cond for st in body_root.stmts if isinstance(st, A.Require)]
    return out


def _writes(ctx, decl) -> set:
    m = ctx.model
    out = set()
    for node in A.walk(decl.body):
        if isinstance(node, A.Gain) and node.counter in m.counters:
            out.add(("counter", m.counters[node.counter].slot))
        elif isinstance(node, A.Set):
            w = _state(m.refs.get(node.target))
            if w is not None:
                out.add(w)
        elif isinstance(node, A.Move):
            for x in (*A.walk(node.what), *A.walk(node.dest)):
                w = _state(m.refs.get(x))
                if w is not None and w[0] == "zone":
                    out.add(w)
    return out


def _progress(ctx, bodies, part, caller, call) -> bool:
    """The call is made under a condition that reads some state the cycle changes (a counter it
    gains, a zone it moves cards into or out of): the recursion may be driven to an end by it."""
    reads = set()
    for g in _guards(ctx, bodies[caller].body, call):
        for x in A.walk(g):
            r = _state(ctx.model.refs.get(x))
            if r is not None:
                reads.add(r)
    if not reads:
        return False
    key = ("writes", frozenset(part))
    if key not in ctx.facts.cache:
        ctx.facts.cache[key] = set().union(*(_writes(ctx, bodies[k]) for k in part))
    return bool(reads & ctx.facts.cache[key])


def _unit_of(ctx, key):
    return next((u for u in ctx.facts.by_name.get(key, ())), None)


def _reached(ctx, key) -> bool:
    u = _unit_of(ctx, key)
    return u is not None and u in ctx.facts.reached and not ctx.facts.is_library(u)


def _name(key) -> str:
    return f"{'definition' if key[0] == 'def' else 'effect'} '{key[1]}'"


@rule("TAV802", "recursion-without-decrease",
      "a definition or effect that calls itself (directly or round a cycle) with no argument that decreases and no "
      "condition on what the calls change")
def recursion_without_decrease(ctx):
    edges, bodies = _calls(ctx)
    for part in _cycles(edges):
        members = sorted(part, key=lambda k: (bodies[k].span.file, bodies[k].span.line, bodies[k].span.col))
        if not any(_reached(ctx, k) for k in members):
            continue
        inner = [(k, callee, node) for k in members for callee, node in edges[k] if callee in part]
        if all(isinstance(ctx.facts.parent.get(ctx.facts.parent.get(node)), A.Block)
               and not _guards(ctx, bodies[k].body, node) for k, _, node in inner):
            continue  # every call made whatever happens: runs-itself (TAV603) says so
        if any(_decreases(ctx, bodies[k], node) or _progress(ctx, bodies, part, k, node) for k, _, node in inner):
            continue
        first = members[0]
        names = " -> ".join(k[1] for k in members) + (f" -> {first[1]}" if len(members) > 1 else "")
        notes = [Note(node.span, f"{_name(k)} calls {_name(callee)} here") for k, callee, node in inner[:4]]
        how = f"calls itself ({names})" if len(members) == 1 else f"is part of a cycle of calls ({names})"
        yield finding("TAV802", bodies[first],
                      f"{_name(first)} {how}, and no call on the way round passes a smaller number (as `n - 1`) or "
                      f"is made under a condition on what the calls change: nothing shows the recursion ends; each "
                      f"call is a step of the game's budget, and calls nest at most a few thousand deep", notes)


def _most_calls(node, targets, refs) -> float:
    """The most calls of `targets` one run of `node` can make (a branch: the larger; a loop with
    one: many)."""
    if isinstance(node, A.If):
        t = _most_calls(node.test, targets, refs)
        return t + max(_most_calls(node.then, targets, refs),
                       _most_calls(node.orelse, targets, refs) if node.orelse is not None else 0)
    if isinstance(node, A.Cond):
        return _most_calls(node.test, targets, refs) + max(_most_calls(node.then, targets, refs),
                                                          _most_calls(node.orelse, targets, refs))
    own = 0
    ref = refs.get(node)
    if isinstance(node, (A.Call, A.Name)) and isinstance(ref, (DefRef, EffectRef)) and (ref.kind, ref.name) in targets:
        own = 1
    inner = sum(_most_calls(c, targets, refs) for c in _children(node))
    if inner and isinstance(node, (A.For, A.Repeat, A.Quant, A.Aggregate)):
        return INF
    return own + inner


def _children(node):
    import attrs
    if not attrs.has(type(node)):
        return
    for f in attrs.fields(type(node)):
        v = getattr(node, f.name)
        if isinstance(v, A.Node):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, A.Node):
                    yield x


@rule("TAV803", "recursion-fans-out",
      "a definition or effect that can call itself more than once in one call: its calls grow exponentially "
      "with the depth")
def recursion_fans_out(ctx):
    edges, bodies = _calls(ctx)
    refs = ctx.model.refs
    for part in _cycles(edges):
        for k in sorted(part, key=lambda k: (bodies[k].span.file, bodies[k].span.line, bodies[k].span.col)):
            if not _reached(ctx, k):
                continue
            n = _most_calls(bodies[k].body, part, refs)
            if n < 2:
                continue
            calls = [node for callee, node in edges[k] if callee in part]
            many = "again and again (in a loop)" if n == INF else f"{fmt(n)} times"
            yield finding("TAV803", bodies[k],
                          f"{_name(k)} can call itself (or its cycle) {many} in one call: a depth of d makes "
                          f"{'about ' + fmt(n) + '^d' if n != INF else 'exponentially many'} calls, and the game runs "
                          f"out of its budget of steps long before a deep one ends",
                          [Note(c.span, "a call of the cycle") for c in calls[:4]])


RULES = (subsets_can_explode, recursion_without_decrease, recursion_fans_out)
