"""Making a compiled game's states: the zones of an n-player game, the cards' attributes, the
options, counters and variables with their initial values, the zones' capacities.
`g` is the CompiledGame (engine/compile.py) whose tables and compiled initial values are read."""
from __future__ import annotations

import random
from typing import Any

from ..errors import GameError
from .state import NO_CAP, State

TEMPLATES = 64  # initial states kept per game (one per player count and options)


def new_state(g, n: int, seed: int, options: dict[str, Any] | None = None) -> State:
    """A fresh state. When working out the initial state draws nothing from the RNG, it is
    the same for every seed: it is made once per player count and options and copied."""
    try:
        key = (n, tuple(sorted((options or {}).items())))
        hash(key)
    except TypeError:
        return fresh_state(g, n, seed, options)
    tpl = g._templates.get(key)
    if tpl is None:
        tpl = fresh_state(g, n, 0, options)
        if tpl.rng.getstate() != random.Random(0).getstate() or len(g._templates) >= TEMPLATES:
            return fresh_state(g, n, seed, options)  # (an initial value drew a random number)
        g._templates[key] = tpl
    st = State(g, n, seed)
    # what play changes is copied; what only the initial values set is shared
    st.zones = [list(z) for z in tpl.zones]
    st.loc, st.facedown, st.seen = list(tpl.loc), list(tpl.facedown), list(tpl.seen)
    st.cvars = [list(r) for r in tpl.cvars]
    st.counters = [list(r) for r in tpl.counters]
    st.vars = [list(r) for r in tpl.vars]
    st.all_cards = list(tpl.all_cards)
    st.attrs, st.opt, st.cap, st.capn = tpl.attrs, tpl.opt, tpl.cap, tpl.capn
    st.zbase, st.zfam, st.zfamily, st.zowner, st.zhidden, st.zprivate = tpl.zbase, tpl.zfam, tpl.zfamily, tpl.zowner, tpl.zhidden, tpl.zprivate
    st.zholder, st.czone, st.holds, st.zsorted = tpl.zholder, tpl.czone, tpl.holds, tpl.zsorted
    return st


def fresh_state(g, n: int, seed: int, options: dict[str, Any] | None = None) -> State:
    """A state worked out from the rules' initial values: zones, cards, options, counters,
    variables and capacities (new_state copies it when no random number was drawn)."""
    m = g.model
    st = State(g, n, seed)
    st.zbase = g._zbase(n)
    st.zfamily, st.zowner = [], []
    holder = []
    for f, per in enumerate(g.zone_per):
        if g.zone_is_card[f]:
            for c in g.zone_holders[f]:
                st.zfamily.append(f)
                st.zowner.append(None)  # worked out from where the card lies (zone_owner)
                holder.append(c)
            continue
        for p in range(n if per else 1):
            st.zfamily.append(f)
            st.zowner.append(p if per else None)
            holder.append(-1)
    nz = len(st.zfamily)
    st.zfam = [tuple(z for z in range(nz) if st.zfamily[z] == f) for f in range(len(g.zone_per))]
    st.zones = [[] for _ in range(nz)]
    if g.has_card_zones:
        st.zholder = holder
        st.czone = {}
        st.holds = [None] * g.ncards
        for f, holders in enumerate(g.zone_holders):
            if not holders:
                continue
            row = [-1] * g.ncards
            for i, c in enumerate(holders):
                row[c] = st.zbase[f] + i
                drop = g.zone_drop[f].get(g.card_kind[c])
                if drop is not None:
                    if st.holds[c] is None:
                        st.holds[c] = []
                    span = g.model.card_zones[g.zone_names[f]].decls[g.card_kind[c]].drop.span
                    st.holds[c].append((st.zbase[f] + i, drop, span))
            st.czone[f] = row
        if not any(st.holds):
            st.holds = None
    st.zhidden = [g.zone_vis[f] == "hidden" for f in st.zfamily]
    if g.sorted_fams:
        st.zsorted = [f in g.sorted_fams for f in st.zfamily]
    st.zprivate = [g.zone_vis[f] == "private" and st.zowner[z] is not None for z, f in enumerate(st.zfamily)]
    st.loc = [-1] * g.ncards
    st.facedown = [False] * g.ncards
    st.seen = [0] * g.ncards
    st.all_cards = list(range(g.ncards))
    env: list = [None] * (m.max_frame + 1)
    st.opt = [None] * len(m.options)
    options = dict(options or {})
    for o in m.options.values():
        st.opt[o.slot] = options.pop(o.name) if o.name in options else g.option_default[o.slot](st, env)
    if options:
        raise GameError(f"unknown option '{next(iter(options))}'")
    for o in m.options.values():
        d = o.decl
        if d.low is not None and d.high is not None:
            lo, hi = g.evaluate(d.low, st, env), g.evaluate(d.high, st, env)
            v = st.opt[o.slot]
            if not (isinstance(v, int) and lo <= v <= hi):
                raise GameError(f"option '{o.name}' is {v}, outside its range {lo}..{hi}", d.span)
    st.attrs = [[None] * g.ncards for _ in m.attrs_by_name]
    st.cvars = [[None] * g.ncards for _ in m.attrs_by_name]
    for c in range(g.ncards):
        for slot, fn in g.card_fields[c]:
            v = fn(st, env)
            st.attrs[slot][c] = v
            st.cvars[slot][c] = v
    for slot, row in g.attr_rows.items():  # (the same values: the table the generated code reads)
        st.attrs[slot] = row
    # every counter and variable exists (0 / none) before any initial value is worked out, so
    # an initial value may read another; a per-player one is worked out for each player (`me`)
    st.counters = [[0] * (n if ci.decl.per_player else 1) for ci in m.counters.values()]
    st.vars = [[g.var_default[vi.slot]] * (n if vi.decl.per_player else 1) for vi in m.vars.values()]
    for ci in m.counters.values():
        fn = g.counter_init[ci.slot]
        row = st.counters[ci.slot]
        for p in range(len(row)):
            env[0] = p if ci.decl.per_player else None
            row[p] = fn(st, env)
    for vi in m.vars.values():
        fn = g.var_init[vi.slot]
        if fn is None:
            continue
        row = st.vars[vi.slot]
        for p in range(len(row)):
            env[0] = p if vi.decl.per_player else None
            row[p] = fn(st, env)
    env[0] = None
    st.cap = [None] * nz
    for z in range(nz):
        fn = g.zone_cap[st.zfamily[z]]
        env[0] = st.zowner[z]  # a per-player zone's capacity is worked out for its owner (`me`)
        if isinstance(fn, dict):  # a zone on a card: its kind's capacity, for that card (`this`)
            assert st.zholder is not None  # (a game with zones on cards keeps their holders)
            fn = fn.get(g.card_kind[st.zholder[z]])
            env[1] = st.zholder[z]
        st.cap[z] = fn(st, env) if fn else None
        env[1] = None
    env[0] = None
    st.capn = [NO_CAP if c is None else c for c in st.cap]
    return st
