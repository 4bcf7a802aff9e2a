"""Compiling statements: each becomes a plain function ``f(st, env)`` or, when it
can ask a player something, a generator function yielding Decisions.
(A mixin of the compiler in compile.py.)"""
from __future__ import annotations

import heapq
import itertools
import math

from ..check.model import CARD, ZONE, elem
from ..errors import GameError
from ..syntax import ast as A
from . import budget
from .budget import MAX_INT, num, spend
from .common import MAX_SUBSETS, Decision, Fn, _const, only_option  # noqa: F401
from .state import GameOver

def _first(hit):
    return hit[0]


def _laps(first, size, last, t, body, env, decl):
    """The firings of one trigger on a wrap-around track: each step of a move that lands on its space."""
    for i in range(first, last + 1, size):
        yield i, t, body, env, decl


MAX_REPEATS = 10_000  # `repeat while`: a loop that goes round more often than this is an error
MAX_NUMBERS = 100_000  # `choose number`: the most numbers one choice may offer
MAX_TRIES = 1 << 16  # `choose subset`: the most subsets one choice may try (passing or not)


def _holds_cards(m, coll) -> bool:
    """A collection of cards (a zone, a list of cards or of a kind's cards)."""
    t = elem(m.types.get(coll) or "") or ""
    return t == CARD or t in m.kinds


def _first(v):
    return v[0]


class StatementCompiler:
    playout = False  # the playout flavour: an agent decides every choice, nothing is yielded (compile.py)

    def runtime_helpers(self) -> dict:
        return STATEMENT_HELPERS

    @staticmethod
    def _log_move(st, g, c, old, z, face, me, knew: int = 0) -> None:
        src = g._zone_label(old, st.n) if old >= 0 else "(out of play)"
        to = g._zone_label(z, st.n)
        if old < 0 or st.zhidden[z]:
            knew = 0  # out of play, or into a hidden pile (a card shuffled away): only who sees it now
        mask = st.vis_mask(c) | knew | ((1 << me) if face == "facedown" and me is not None else 0)
        alt_src, alt_to = src, to
        if st.zholder is not None:  # a zone on a card some may not see names no card to them
            zm = g.zone_mask(z, st) & (g.zone_mask(old, st) if old >= 0 else -1)
            if zm != (1 << st.n) - 1:
                mask &= zm
                alt_src = g.zone_text(old, st, -1) if old >= 0 and st.zholder[old] >= 0 else src
                alt_to = g.zone_text(z, st, -1) if st.zholder[z] >= 0 else to
        st.log.append((f"{g.card_name[c]}: {src} -> {to}", (mask, f"a card: {alt_src} -> {alt_to}"),
                       {"type": "move", "card": g.card_name[c], "from": src, "to": to}))

    def s_Move(self, s: A.Move):
        span = s.span
        dest = self.expr(s.dest)
        top = s.position != "bottom"
        face = s.face
        g = self.g
        log_move = self._log_move
        if self.m.types.get(s.what) == CARD:  # one card: the common case
            single = self.expr(s.what)
            # `top(Z)` of an empty zone moves nothing (drawing from an empty pile draws nothing);
            # any other card that is none here is a mistake in the rules
            may_be_nothing = isinstance(s.what, A.Call) and self.m.refs.get(s.what) == ("builtin", "top")

            def move1(st, env, span=span):
                c = single(st, env)
                if c is None:
                    if may_be_nothing:
                        return
                    raise GameError("move of nothing: the card is none", span)
                z = dest(st, env)
                if z is None:
                    raise GameError("move to nowhere (the destination is none)", span)
                if st.zholder is not None and st.lands_on_itself(c, z):
                    raise GameError(f"{g.card_name[c]} cannot be put on itself (or on a card it holds)", span)
                old = st.loc[c]
                knew = st.vis_mask(c) if st.log is not None else 0  # who saw it before it moved still knows it
                st.move(c, z, top, face, env[0])
                if st.log is not None:
                    log_move(st, g, c, old, z, face, env[0], knew)
            return False, move1
        what = self.cards_of(s.what)
        everything = self.m.refs.get(s.what) == ("builtin", "cards")

        def move(st, env, span=span):
            z = dest(st, env)
            if z is None:
                raise GameError("move to nowhere (the destination is none)", span)
            log = st.log
            cards = what(st, env)
            if everything and top:
                st.move_everything(z, face, env[0])
            else:
                many = len(cards) > 3
                for c in cards:
                    if c is None:
                        continue
                    if st.zholder is not None and st.lands_on_itself(c, z):
                        raise GameError(f"{g.card_name[c]} cannot be put on itself (or on a card it holds)", span)
                    old = st.loc[c]
                    knew = st.vis_mask(c) if log is not None and not many else 0
                    st.move(c, z, top, face, env[0])
                    if log is not None and not many:
                        log_move(st, g, c, old, z, face, env[0], knew)
                if log is None or not many:
                    return
            if log is not None:
                to = g._zone_label(z, st.n)
                log.append((f"{len(cards)} cards -> {to}", None, {"type": "move_all", "count": len(cards), "to": to}))
        return False, move

    def s_Shuffle(self, s: A.Shuffle):
        span = s.span
        z = self.expr(s.zone)

        def shuffle(st, env, span=span):
            cards = st.zones[z(st, env)]
            rnd = st.rng.random
            for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates
                j = int(rnd() * (i + 1))
                cards[i], cards[j] = cards[j], cards[i]
            for c in cards:
                if st.facedown[c]:
                    st.seen[c] = 0
            if st.log is not None:
                st.log.append((f"shuffle {self.g._zone_label(z(st, env), st.n)}", None, {"type": "shuffle"}))
        return False, shuffle

    def s_Reveal(self, s: A.Reveal):
        span = s.span
        g = self.g
        k = self.local_slot(s.what)
        if k is not None and self.m.types.get(s.what) == CARD:
            def reveal1(st, env, span=span):
                c = env[k]
                if c is None:
                    return
                st.seen[c] = (1 << st.n) - 1
                z = st.loc[c]
                if z < 0 or not st.zhidden[z]:
                    was = st.facedown[c]
                    st.facedown[c] = False
                    if st.log is not None and was:
                        st.log.append((f"reveal {g.card_name[c]}", None, {"type": "reveal", "card": g.card_name[c]}))
                elif st.log is not None:
                    st.log.append((f"reveal {g.card_name[c]}", None, {"type": "reveal", "card": g.card_name[c]}))
            return False, reveal1
        what = self.cards_of(s.what)

        def reveal(st, env, span=span):
            allp = (1 << st.n) - 1
            for c in what(st, env):
                if c is None:
                    continue
                st.seen[c] = allp
                z = st.loc[c]
                if z < 0 or g.zone_vis[st.zfamily[z]] != "hidden":
                    was = st.facedown[c]
                    st.facedown[c] = False
                    if st.log is not None and was:
                        st.log.append((f"reveal {g.card_name[c]}", None, {"type": "reveal", "card": g.card_name[c]}))
                elif st.log is not None:
                    st.log.append((f"reveal {g.card_name[c]}", None, {"type": "reveal", "card": g.card_name[c]}))
        return False, reveal

    def s_Look(self, s: A.Look):
        span = s.span
        what = self.cards_of(s.what)
        g = self.g

        def look(st, env, span=span):
            me = env[0]
            for c in what(st, env):
                if c is None or me is None:
                    continue
                st.seen[c] |= 1 << me
                if st.log is not None:
                    st.log.append((f"P{me + 1} looks at {g.card_name[c]}", (1 << me, f"P{me + 1} looks at a card"),
                                   {"type": "look", "player": me, "card": g.card_name[c]}))
        return False, look

    def counter_change(self, slot: int):
        """A function applying a counter delta with bounds, plus its trigger generator (or None)."""
        ci = self.g.counter_info[slot]
        d = ci.decl
        lo = self.expr(d.low) if d.low is not None else None
        hi = self.expr(d.high) if d.high is not None else None
        wrap = d.wrap
        name = ci.name
        pad = [None] * (self.m.max_frame + 1)  # room for what the bounds bind (a count, a sum)

        def apply(st, p, delta):
            row = st.counters[slot]
            old = row[p]
            v = old + delta
            if lo is not None or hi is not None:
                env = [p, *pad]
                low = lo(st, env) if lo else None
                high = hi(st, env) if hi else None
                if wrap and low is not None and high is not None:
                    v = low + (v - low) % (high - low + 1)
                else:
                    if low is not None and v < low:
                        v = low
                    if high is not None and v > high:
                        v = high
            row[p] = v
            return old, v

        trig = self.reach.get(slot)
        if not trig:
            return apply, None

        def fire(st, p, old, new, delta, span=None):
            """Run the triggers of the spaces passed, in the order the marker passes them
            (on a wrap-around track, a space is passed once per lap: a gain of many laps fires
            it as often, each firing a step of the game's budget, counted before the first)."""
            if delta <= 0:
                return
            hits = []
            laps = []  # (first step, lap length, last step, t, body, env, decl) of a wrap-around track
            for value, body, frame, pslot, decl in trig:
                env = [p] + [None] * frame
                env[pslot] = p
                t = value(st, env)
                if wrap:
                    low, high = lo(st, env), hi(st, env)
                    if not low <= t <= high:
                        continue  # a space off the track is never reached
                    size = high - low + 1
                    first = (t - old) % size or size  # the first step that lands on t
                    if first <= delta:
                        laps.append((first, size, delta, t, body, env, decl))
                elif old < t <= new:
                    hits.append((t - old, t, body, env, decl))
            if laps:  # (a wrap-around track: every trigger is here, none in hits)
                n = sum((last - first) // size + 1 for first, size, last, *_ in laps)
                if n > 1:
                    most = budget.LIMITS["steps"]
                    if st.steps + n > most:
                        raise GameError(f"this gain moves {name} {delta} spaces round its track, passing the spaces "
                                        f"of its 'when ... reaches' {n} times: more firings than the game's budget "
                                        f"of {most} steps has left (a larger budget: tav --max-steps N)", span)
                    spend(st, n, span)
                # in the order the marker passes them, one lap after another (never all in a list)
                hits = heapq.merge(*(_laps(*x) for x in laps), key=_first)
            else:
                hits.sort(key=_first)
            for _, t, body, env, decl in hits:
                if st.fired is not None:
                    st.fired[("when", decl)] = st.fired.get(("when", decl), 0) + 1
                if st.log is not None:
                    st.log.append((f"P{p + 1}'s {name} reaches {t}", None, {"type": "reach", "player": p, "counter": name, "space": t}))
                _r = body(st, env)
                if _r is not None:
                    yield from _r
        return apply, fire

    def s_Gain(self, s: A.Gain):
        span = s.span
        ci = self.m.counters.get(s.counter)
        slot = ci.slot
        per = ci.decl.per_player
        amount = self.expr(s.amount)
        other = self.expr(s.other) if s.other is not None else None
        apply, fire = self.counter_change(slot)
        op = s.op
        name = s.counter

        def who(st, env, span=span):
            if not per:
                return 0
            return other(st, env) if other is not None and op in ("gain", "lose") else env[0]

        def do(st, env, span=span):
            p = who(st, env)
            a = amount(st, env)
            if op == "gain":
                old, new = apply(st, p, a)
                changes = [(p, old, new, a)]
                text = f"P{p + 1} gains {_amount(st, name, a)}" if per else f"{name} +{a}"
            elif op == "lose":
                old, new = apply(st, p, -a)
                changes = []
                text = f"P{p + 1} loses {_amount(st, name, a)}" if per else f"{name} -{a}"
            else:
                q = other(st, env)
                giver, getter = (p, q) if op == "give" else (q, p)
                have = st.counters[slot][giver]
                a = max(0, min(a, have))
                old, new = apply(st, getter, a)
                a = new - old  # only what the receiver can hold moves
                apply(st, giver, -a)
                changes = [(getter, old, new, a)]
                text = f"P{giver + 1} gives {_amount(st, name, a)} to P{getter + 1}"
            num(new, span)
            if st.log is not None and a:  # (nothing gained, lost or given: no line)
                st.why[len(st.log)] = span
                if st.explain is not None:  # (its terms, for `why N` / --explain)
                    st.explain.gain(st, env, s, p, a, new)
                st.log.append((text + f" (now {new})", None, {"type": op, "counter": name, "amount": a, "player": p, "now": new}))
            return changes

        if fire is None:
            return False, do

        def gen(st, env, span=span):
            for p, old, new, a in do(st, env):
                yield from fire(st, p, old, new, a, span)
        return True, gen

    def s_Set(self, s: A.Set):
        vtype = self.m.types.get(s.target)
        span = s.span
        ref = self.m.refs[s.target]
        # a zone set where a list of cards is kept: its cards as they are now
        val = self.cards_of(s.value) if (vtype or "").startswith("list:") and self.m.types.get(s.value) == ZONE \
            else self.expr(s.value)
        if vtype == "int" and self._may_grow(s.value):  # a whole number stored: in range
            val0 = val

            def val(st, env, val0=val0, span=span):
                return num(val0(st, env), span)
        kind = ref[0]
        slot = ref[1]
        if kind == "var":
            def setv(st, env, span=span):
                st.vars[slot][0] = val(st, env)
        elif kind == "counter":
            def setv(st, env, span=span):
                st.counters[slot][0] = val(st, env)
        elif kind in ("pvar", "pcounter", "cvar"):
            obj = self.expr(s.target.obj)
            if kind == "pvar":
                def setv(st, env, span=span):
                    st.vars[slot][obj(st, env)] = val(st, env)
            elif kind == "pcounter":
                def setv(st, env, span=span):
                    st.counters[slot][obj(st, env)] = val(st, env)
            else:
                g = self.g
                aname = s.target.name

                # an attribute every kind that has it marks `unlabelled` is bookkeeping: no line
                quiet = all(ad.unlabelled for k in self.m.kinds.values() for ad in k.decl.attrs if ad.name == aname)

                def setv(st, env, span=span):
                    c = obj(st, env)
                    v = val(st, env)
                    st.cvars[slot][c] = v
                    if st.log is not None and not quiet:
                        st.log.append((f"{g.card_name[c]}: {aname} = {g.value_text(v, st, vtype)}",
                                       (st.vis_mask(c) & g.value_mask(v, st, vtype), f"a card: {aname} changed"),
                                       {"type": "set", "card": g.card_name[c], "attr": aname, "value": v}))
        else:  # pragma: no cover - the checker refuses the rest
            raise GameError("cannot set this", s.span)
        return False, setv

    def s_Swap(self, s: A.Swap):
        span = s.span
        a, b = self.expr(s.a), self.expr(s.b)
        g = self.g

        def swap(st, env, span=span):
            x, y = a(st, env), b(st, env)
            if x is None or y is None:
                return
            if st.zholder is not None and (st.lands_on_itself(x, st.loc[y]) or st.lands_on_itself(y, st.loc[x])):
                raise GameError("a card cannot be swapped onto itself (or onto a card it holds)", span)
            st.swap(x, y)
            if st.log is not None:
                st.log.append((f"swap {g.card_name[x]} and {g.card_name[y]}", (st.vis_mask(x) & st.vis_mask(y), "swap two cards"),
                               {"type": "swap", "a": g.card_name[x], "b": g.card_name[y]}))
        return False, swap

    def chooser(self, ch: A.Chooser | None):
        if ch is None:
            return False, None
        if ch.random:
            return True, None
        return False, self.expr(ch.player)

    def s_ChooseOne(self, s: A.ChooseOne):
        span = s.span
        is_random, by = self.chooser(s.chooser)
        opts_c = [(o.label, self.expr(o.cond) if o.cond is not None else None, self.gen_block(o.body)) for o in s.options]
        prompt = s.prompt or "choose one"

        def options(st, env, span=span):
            return [o for o in opts_c if o[1] is None or o[1](st, env)]
        self.option_fns[s] = options

        def gen(st, env, span=span):
            opts = [o for o in opts_c if o[1] is None or o[1](st, env)]
            if not opts:
                return
            if is_random:
                o = opts[int(st.rng.random() * len(opts))]
            else:
                p = by(st, env) if by is not None else env[0]
                pre = st.preset
                if pre is not None and s in pre:  # chosen ahead, in a simultaneous phase's pick
                    o = pre.pop(s)
                else:
                    i = 0 if len(opts) == 1 and only_option(st, p, opts, prompt, _first, span) else \
                        st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, _first, span))
                    o = opts[i]
                if st.log is not None:
                    st.log.append((f"P{p + 1} chooses '{o[0]}' ({prompt})", None,
                                   {"type": "choice", "player": p, "prompt": prompt, "choice": o[0]}))
            if st.fired is not None:
                st.fired[("option", s, o[0])] = st.fired.get(("option", s, o[0]), 0) + 1
            _r = o[2](st, env)
            if _r is not None:
                yield from _r
        return True, gen

    def s_ChooseNumber(self, s: A.ChooseNumber):
        span = s.span
        lo, hi = self.expr(s.low), self.expr(s.high)
        k = self.m.slots[s]
        is_random, by = self.chooser(s.chooser)
        body = self.gen_block(s.body)
        prompt = s.prompt or f"choose {s.var}"

        def gen(st, env, span=span):
            a, b = lo(st, env), hi(st, env)
            if b - a + 1 > MAX_NUMBERS:
                raise GameError(f"'choose number' from {a} to {b}: more than {MAX_NUMBERS} numbers to choose from", span)
            opts = list(range(a, b + 1))
            if not opts:
                return
            if is_random:
                x = opts[int(st.rng.random() * len(opts))]
            else:
                p = by(st, env) if by is not None else env[0]
                x = opts[0 if len(opts) == 1 and only_option(st, p, opts, prompt, str, span) else
                         st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, str, span))]
                if st.log is not None:
                    st.log.append((f"P{p + 1} chooses {x} ({prompt})", None, {"type": "choice", "player": p, "prompt": prompt, "choice": x}))
            env[k] = x
            _r = body(st, env)
            if _r is not None:
                yield from _r
        return True, gen

    def s_ChooseSubset(self, s: A.ChooseSubset):
        span = s.span
        t = elem(self.m.types.get(s.coll) or "any")
        k = self.m.slots[s]
        is_random, by = self.chooser(s.chooser)
        body = self.gen_block(s.body)
        prompt = s.prompt or f"choose {s.var}"
        g = self.g
        options = self._subset_options(s)
        self.option_fns[s] = options

        def gen(st, env, span=span):
            ko = st.known_opts
            if ko is not None and ko[0] is s:  # the options the turn just worked out for this action
                opts = ko[1]
                st.known_opts = None
            else:
                opts = options(st, env)
            if not opts:
                return
            if is_random:
                x = opts[int(st.rng.random() * len(opts))]
            else:
                p = by(st, env) if by is not None else env[0]
                x = opts[0 if len(opts) == 1 and only_option(st, p, opts, prompt, "list:" + (t or "any"), span) else
                         st.agent(p, opts) if st.agent is not None else
                         (yield Decision(p, opts, prompt, "list:" + (t or "any"), span, st))]
                if st.log is not None:
                    hidden = None
                    if t == "card":
                        mask = (1 << st.n) - 1
                        for c in x:
                            mask &= st.vis_mask(c)
                        if mask != (1 << st.n) - 1:
                            hidden = (mask, f"P{p + 1} chooses {len(x)} card(s) ({prompt})")
                    st.log.append((f"P{p + 1} chooses {g.label(x, st, 'list:' + (t or 'any'))} ({prompt})", hidden,
                                   {"type": "choice", "player": p, "prompt": prompt}))
            env[k] = x
            _r = body(st, env)
            if _r is not None:
                yield from _r
        return True, gen

    def _subset_options(self, s: A.ChooseSubset) -> Fn:
        """The options of `choose subset x of L [where C] [size A..B] [if T]`, generated: every
        subset of the items meeting C with a size in A..B that passes T, smallest first, in the
        order of the items (as itertools.combinations gives them); the subsets there are to try
        are counted before any is tried, and are steps of the budget."""
        ck = self.m.slots.get(s.cond) if s.cond is not None else None
        k = self.m.slots[s]

        def build():
            ls, c = self.xiter(s.coll) if s.cond is not None else self.xcoll(s.coll)
            ls, c = self.spill(ls, c)
            fl, fv = self.filter_lines(s.cond, ck, c, s.coll)
            items, a, b, tried, opts, size, combo = (self.tmp() for _ in range(7))
            out = ls + fl + [f"{items} = list({fv})"]
            if s.low is not None:
                lo_l, lo_v = self.x(s.low)
                out += lo_l + [f"{a} = max(0, {lo_v})"]
            else:
                out += [f"{a} = 0"]
            if s.high is not None:
                hi_l, hi_v = self.x(s.high)
                out += hi_l + [f"{b} = min(len({items}), {hi_v})"]
            else:
                out += [f"{b} = len({items})"]
            span = self.k(s.span)
            out += [f"{tried} = _subset_tries(len({items}), {a}, {b}, {span})", f"{opts} = []",
                    f"for {size} in range({a}, {b} + 1):", f"    for {combo} in _combinations({items}, {size}):"]
            if s.test is not None:
                with self._bound(k, "_s") as v:
                    tl, tv = self.x(s.test)
                out += [f"        {v} = list({combo})", *("        " + ln for ln in tl), f"        if not {tv}:", "            continue",
                        f"        {opts}.append({v})"]
            else:
                out += [f"        {opts}.append(list({combo}))"]
            out += [f"        if len({opts}) > {MAX_SUBSETS}:",
                    f"            raise _GameError({self.k(f'more than {MAX_SUBSETS} subsets to choose from')}, {span})",
                    f"st.steps += {tried}", "if st.steps > st.step_limit:", f"    _over(st, {span})"]
            return out, opts
        return self._root("st, env", build, s.span, s.span)

    def s_ChooseN(self, s: A.ChooseN):
        """N single choices one after another from what is left (no list of subsets is made)."""
        span = s.span
        ctype = self.m.types.get(s.coll)
        coll = self.cards_of(s.coll) if ctype == ZONE else self.expr(s.coll)
        t = elem(ctype or "any")
        count = self.expr(s.count)
        ck = self.m.slots.get(s.cond) if s.cond is not None else None
        k = self.m.slots[s]
        is_random, by = self.chooser(s.chooser)
        body = self.gen_block(s.body)
        prompt = s.prompt or f"choose {s.var}"
        up_to = s.up_to
        g = self.g
        DONE = ("done",)
        cards = t == CARD or t in self.m.kinds

        def label(x, st, p):
            if x is DONE:
                return "done"
            if t == "card":
                return g.card_label(x, st, p) if st.visible(x, p) else "face-down card"
            return g.label(x, st, t, p)

        filt = self.filter(s.cond, ck)

        def gen(st, env, span=span):
            left = list(filt(st, env, coll(st, env)))  # a copy: picks are taken out of it
            n = count(st, env)
            picked = []
            p = None if is_random else (by(st, env) if by is not None else env[0])
            while len(picked) < n and left:
                if is_random:
                    x = left[int(st.rng.random() * len(left))]
                else:
                    if len(left) <= n - len(picked) and not up_to:  # no choice left: all of them
                        x = left[0]
                    else:
                        opts = left + [DONE] if up_to else left
                        if cards:  # what a search bot re-deals (bots.remap_held)
                            _held_cards = (left, picked, opts)  # noqa: F841
                        lab = (lambda v, st=st: label(v, st, p))
                        if len(opts) == 1 and only_option(st, p, opts, prompt, lab, span):
                            i = 0
                        elif st.agent is not None:
                            i = st.agent(p, opts)
                        else:
                            if t == "card":
                                lab.cards = True  # (its options are cards: a player may read their text)
                            i = yield Decision(p, opts, prompt, lab, span, st)
                        x = opts[i]
                        if x is DONE:
                            if st.log is not None:
                                st.log.append((f"P{p + 1} is done ({prompt})", None,
                                               {"type": "choice", "player": p, "prompt": prompt, "choice": "done"}))
                            break
                if st.log is not None:
                    who = "at random" if is_random else f"P{p + 1} chooses"
                    text = f"{who}{':' if is_random else ''} {label(x, st, None)} ({prompt})"
                    hidden = g.card_hiding(x, st, text, f"{who} a face-down card ({prompt})") if t == "card" else None
                    st.log.append((text, hidden,
                                   {"type": "random" if is_random else "choice", "player": p, "prompt": prompt,
                                    "choice": label(x, st, None)}))
                picked.append(x)
                left.remove(x)
            env[k] = picked
            _r = body(st, env)
            if _r is not None:
                yield from _r
        self.option_fns[s] = lambda st, env: [True]  # offered even if nothing is left: it may pick none
        return True, gen

    def s_Show(self, s: A.Show):
        span = s.span
        what = self.cards_of(s.what)
        to = self.expr(s.to)
        g = self.g

        def show(st, env, span=span):
            me, q = env[0], to(st, env)
            if q is None:
                raise GameError("show to nobody (the player is none)", span)
            cards = [c for c in what(st, env) if c is not None]
            for c in cards:
                st.seen[c] |= 1 << q
            if st.log is not None and cards:
                owner = st.zowner[st.loc[cards[0]]] if st.loc[cards[0]] >= 0 else None
                if owner is None or any(st.loc[c] < 0 or st.zowner[st.loc[c]] != owner for c in cards):
                    owner = me  # cards of one player's zones are shown by that player
                who = f"P{owner + 1}" if owner is not None else "the game"
                names = ", ".join(g.card_name[c] for c in cards)
                mask = (1 << q) | ((1 << owner) if owner is not None else 0)
                common = (1 << st.n) - 1
                for c in cards:
                    common &= st.vis_mask(c)
                mask |= common  # and whoever could see them all anyway
                st.log.append((f"{who} shows {names} to P{q + 1}", (mask, f"{who} shows {len(cards)} card(s) to P{q + 1}"),
                               {"type": "show", "player": owner, "to": q, "cards": [g.card_name[c] for c in cards]}))
        return False, show

    def s_Simultaneous(self, s: A.Simultaneous):
        span = s.span
        players = self.expr(s.players)
        coll = self.expr(s.coll)
        ctype = self.m.types.get(s.coll)
        is_zone = ctype == ZONE
        t = elem(ctype) if ctype else None
        ps, cs = self.m.slots[s]
        cond = self.expr(s.cond) if s.cond is not None else None
        body = self.gen_block(s.body)
        prompt = s.prompt or f"choose {s.var}"
        g = self.g

        cards = t == CARD or t in self.m.kinds

        def gen(st, env, span=span):
            chosen, picks, offered = [], [], []  # who chose, what, and among what
            # (for a search bot's world, bots.remap_held: the cards held follow their places, and
            # the picks made so far, which the player deciding has not seen, are drawn again)
            if cards:
                _held_cards = (picks, offered)  # noqa: F841

            def redraw(rng):
                for j, opts in enumerate(offered):
                    picks[j] = opts[int(rng.random() * len(opts))]
            _secret_picks = redraw  # noqa: F841
            for p in list(players(st, env)):
                env[ps] = p
                src = coll(st, env)
                if is_zone:
                    src = st.zones[src]
                opts = []
                for x in src:
                    env[cs] = x
                    if cond is None or cond(st, env):
                        opts.append(x)
                if not opts:
                    continue
                i = 0 if len(opts) == 1 and only_option(st, p, opts, prompt, t, span) else \
                    st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, t, span, st))
                chosen.append(p)
                picks.append(opts[i])
                offered.append(opts)
            _secret_picks = None  # noqa: F841  (shown from here on)
            if st.log is not None and chosen:
                st.log.append((f"all choose at once ({prompt}):", None, {"type": "simultaneous", "prompt": prompt}))
                for p, x in zip(chosen, picks):
                    text = f"  P{p + 1} chose {g.label(x, st, t)}"
                    hidden = g.card_hiding(x, st, text, f"  P{p + 1} chose a card they may not show") \
                        if t == "card" else None
                    st.log.append((text, hidden,
                                   {"type": "choice", "player": p, "prompt": prompt, "choice": g.label(x, st, t)}))
            me = env[0]
            for j, p in enumerate(chosen):
                env[ps] = p
                env[cs] = picks[j]
                env[0] = p  # each player acts for themself
                _r = body(st, env)
                if _r is not None:
                    yield from _r
            env[0] = me
        return True, gen

    def s_Do(self, s: A.Do):
        span = s.span
        e = s.effect
        ref = self.m.refs.get(e)
        as_p = self.expr(s.as_player) if s.as_player is not None else None
        g = self.g
        if ref is not None and ref[0] == "phase":
            pname = ref[1]

            def run_phase(st, env, span=span):
                ph = next(x for x in g.phases if x.name == pname)
                if as_p is not None:  # `do PHASE as p`: a phase for each player, run for p only
                    p = as_p(st, env)
                    if p is None:
                        raise GameError("the phase is run for nobody (the player after 'as' is none)", span)
                    if st.log is not None:
                        st.log.append((f"-- phase: {ph.title}, for P{p + 1} --", None, {"type": "phase", "phase": pname}))
                    _r = ph.run_for(st, p)
                    if _r is not None:
                        yield from _r
                    return
                yield from run_headed(st, ph, f"-- phase: {ph.title} --", {"type": "phase", "phase": pname})
            return True, run_phase
        if ref is not None and ref[0] == "action":
            name = ref[1]

            def run_action(st, env, span=span):
                yield from _do_action(st, g, name, as_p(st, env) if as_p is not None else env[0])
            return True, run_action
        val = self.expr(e)
        phases: dict = {}  # name -> phase (filled at the first call: the phases are compiled after the effects)

        def dyn(st, env, span=span):
            return run_named(st, env, val(st, env))

        def run_named(st, env, name, span=span):  # (the value worked out: see l_Do_value)
            if name is None:
                return
            me = as_p(st, env) if as_p is not None else env[0]
            if name in g.actions:  # an action held in an attribute: run it as `do ACTION` does
                yield from _do_action(st, g, name, me)
                return
            if not phases:
                for x in g.phases:
                    phases.setdefault(x.name, x)
            ph = phases.get(name)
            if ph is not None:  # a phase held in an attribute
                if st.log is not None:
                    st.log.append((f"-- phase: {ph.title} --", None, {"type": "phase", "phase": name}))
                _r = ph.run(st)
                if _r is not None:
                    yield from _r
                return
            if name not in g.effect_cells:
                raise GameError(f"'{name}' is not an effect", span)
            req, body, frame, _ = g.effect_cells[name][0]
            env2 = [me] + [None] * frame
            if req is not None and not req(st, env2):
                return
            if st.log is not None and self.m.effects[name].decl.title is not None:
                st.log.append((f"effect: {g.effect_titles[name]}", None, {"type": "effect", "effect": name}))
            if st.fired is not None:
                st.fired[name] = st.fired.get(name, 0) + 1
            spend(st, 1, span)  # (an effect held in a value: each call a step of the budget)
            r = body(st, env2)  # (an effect that asks nothing is a plain function)
            if r is not None:
                yield from r
        dyn.named = run_named
        return True, dyn

    def s_Emit(self, s: A.Emit):
        span = s.span
        decls = [d for d, _ in self.m.handlers.get(s.event, [])]
        wants = [any(i < len(d.params) and self.m.types.get(a) == ZONE and d.params[i].type.list for d in decls)
                 for i, a in enumerate(s.args)]
        args = [self.cards_of(a) if w else self.expr(a) for a, w in zip(s.args, wants)]
        hs = self.handlers.get(s.event, [])
        name = s.event

        def gen(st, env, span=span):
            vals = [a(st, env) for a in args]
            if st.log is not None:
                st.log.append((f"event: {name}", None, {"type": "emit", "event": name}))
            if st.fired is not None:
                st.fired[("on", name)] = st.fired.get(("on", name), 0) + 1
            for body, frame, np in hs:
                env2 = [env[0]] + vals[:np]
                env2 += [None] * (frame - len(env2))
                _r = body(st, env2)
                if _r is not None:
                    yield from _r
        return True, gen


    # ================================================================ generated statements
    # Each l_NODE gives (is_gen, lines): lines of Python, each with the span of the statement it
    # was written for (a fault on that line is reported there). A statement without an l_
    # method is compiled to a closure (s_NODE) that the generated code calls.
    def stmts_lines(self, stmts) -> tuple[bool, list]:
        out: list = []
        is_gen = False
        for s in stmts:
            g, ls = self.stmt_lines(s)
            is_gen = is_gen or g
            out += ls
        return is_gen, out or [("pass", None)]

    def stmt_lines(self, s) -> tuple[bool, list]:
        meth = getattr(self, "l_" + type(s).__name__, None)
        if meth is not None:
            r = meth(s)
            if r is not None:
                return r
        is_gen, fn = self.stmt(s)
        name = self.k(fn)
        if is_gen and self.playout:  # (nothing is yielded: every decision is the agent's)
            return False, self._at([f"for _y in {name}(st, env):", "    pass"], s.span)
        return is_gen, [(f"yield from {name}(st, env)" if is_gen else f"{name}(st, env)", s.span)]

    @staticmethod
    def _at(lines, span) -> list:
        return [(ln, span) for ln in lines]

    @staticmethod
    def _in(lines) -> list:
        return [("    " + ln, sp) for ln, sp in lines]

    def l_Reveal(self, s):
        """`reveal X` of a card held in a local (a card just drawn): written out; other reveals: s_Reveal."""
        k = self.local_slot(s.what)
        if k is None or self.m.types.get(s.what) != CARD:
            return None
        c, z = self.tmp(), self.tmp()
        return False, self._at([f"{c} = env[{k}]", f"if {c} is not None:", f"    st.seen[{c}] = (1 << st.n) - 1",
                                f"    {z} = st.loc[{c}]", f"    if {z} < 0 or not st.zhidden[{z}]:",
                                f"        if st.facedown[{c}]:", f"            st.facedown[{c}] = False",
                                "            if st.log is not None:", f"                _log_reveal(st, _g, {c})",
                                "    elif st.log is not None:", f"        _log_reveal(st, _g, {c})"], s.span)

    def l_Require(self, s):
        return False, []  # a leading require is compiled as the precondition; nothing to run

    def l_EndGame(self, s):
        return False, [("raise _GameOver", s.span)]

    def l_Log(self, s):
        t = self.k(s.text)
        return False, self._at(["if st.log is not None:",
                                f'    st.log.append(({t}, None, {{"type": "log", "text": {t}}}))'], s.span)

    def l_Let(self, s):
        ls, v = self.x(s.value)
        return False, self._at(ls + [f"env[{self.m.slots[s]}] = {v}"], s.span)

    def l_NextTurn(self, s):
        ls, v = self.spill(*self.x(s.player))
        return False, self._at(ls + [f"if {v} is None:",
                                     f"    raise _GameError({self.k('next turn of nobody (the player is none)')}, {self.k(s.span)})",
                                     f"st.next_player = {v}"], s.span)

    def l_Set(self, s):
        vtype = self.m.types.get(s.target)
        ref = self.m.refs[s.target]
        kind, slot = ref[0], ref[1]
        if kind not in ("var", "counter", "pvar", "pcounter") and not (kind == "cvar" and self.playout):
            return None  # a card's var: with its log line (s_Set); in the playout flavour, no log: below
        # a zone set where a list of cards is kept: its cards as they are now
        ls, v = self.xcards(s.value) if (vtype or "").startswith("list:") and self.m.types.get(s.value) == ZONE \
            else self.x(s.value)
        if vtype == "int" and self._may_grow(s.value):  # a whole number stored: in range
            v = f"_num({v}, {self.k(s.span)})"
        if kind == "cvar":  # the card first, then the value (as s_Set works them out)
            ol, o = self.spill(*self.x(s.target.obj))
            return False, self._at(ol + ls + [f"st.cvars[{slot}][{o}] = {v}"], s.span)
        table = "vars" if kind in ("var", "pvar") else "counters"
        if kind in ("var", "counter"):
            return False, self._at(ls + [f"st.{table}[{slot}][0] = {v}"], s.span)
        ls, v = self.spill(ls, v)  # the value first, then whose (as Python assigns)
        ol, o = self.x(s.target.obj)
        return False, self._at(ls + ol + [f"st.{table}[{slot}][{o}] = {v}"], s.span)

    def l_If(self, s):
        tl, t = self.x(s.test)
        g1, then = self.stmts_lines(s.then.stmts)
        out = self._at(tl + [f"if {t}:"], s.span) + self._in(then)
        g2 = False
        if s.orelse is not None:
            g2, orelse = self.stmts_lines(s.orelse.stmts)
            out += [("else:", s.span)] + self._in(orelse)
        return g1 or g2, out

    def l_For(self, s):
        cl, c = self.x(s.coll)
        k = self.m.slots[s]
        src = f"list(st.zones[{c}])" if self.m.types.get(s.coll) == ZONE else f"list({c})"
        g, body = self.stmts_lines(s.body.stmts)
        few = isinstance(s.coll, A.EveryZone) or isinstance(s.coll, A.Name) and \
            self.m.refs.get(s.coll) in (("builtin", "players"), ("builtin", "others"))  # (at most 100 rounds)
        # the cards left to go, where a search bot can re-deal them (bots.remap_held) when the body
        # may decide (in the playout flavour nothing is a generator: every loop of cards)
        if (g or self.playout) and _holds_cards(self.m, s.coll):
            held = self.tmp("_hc")
            cl, src = cl + [f"{held} = {src}"], held
        out = self._at(cl + [f"for env[{k}] in {src}:"] + ([] if few else self._in_step(s.span)), s.span)
        if s.cond is not None:
            kl, kv = self.x(s.cond)
            out += self._in(self._at(kl + [f"if {kv}:"], s.span)) + self._in(self._in(body))
        else:
            out += self._in(body)
        return g, out

    def l_Repeat(self, s):
        i = self.tmp()
        cl, c = self.x(s.cond)
        g, body = self.stmts_lines(s.body.stmts)
        msg = self.k(f"'repeat while' went round {MAX_REPEATS} times: its condition never became false")
        return g, self._at([f"{i} = 0", "while True:"], s.span) + self._in(self._at(
            cl + [f"if not {c}:", "    break", f"{i} += 1", f"if {i} > {MAX_REPEATS}:",
                  f"    raise _GameError({msg}, {self.k(s.span)})"] + self._step(s.span), s.span) + body)

    def _may_grow(self, e, adds: bool = False) -> bool:
        """A value that may be outside the range of whole numbers (arithmetic, a sum, a def's
        result; `adds`: added again and again, so anything but a small number): checked when
        stored. A copy of a stored value, a die's roll, a count of cards is in range."""
        if adds:
            return not (isinstance(e, A.Lit) and type(e.value) is int and abs(e.value) < 10 ** 6)
        for n in A.walk(e):
            if isinstance(n, (A.BinOp, A.Neg)) and getattr(n, "op", "-") in ("+", "-", "*") \
                    or isinstance(n, A.Aggregate) and n.op == "sum" \
                    or isinstance(n, (A.Call, A.Name, A.Attr, A.Of)) and (self.m.refs.get(n) or ("",))[0] in ("def", "kdef"):
                return True
        return False

    def _step(self, span) -> list[str]:
        """One step of the game's budget (engine/budget.py): a round of a loop statement."""
        return ["st.steps += 1", "if st.steps > st.step_limit:", f"    _over(st, {self.k(span)})"]

    def _in_step(self, span) -> list[str]:
        return ["    " + ln for ln in self._step(span)]

    def l_Move_many(self, s):
        """`move CARDS to Z` in the playout flavour (no log to write): each card in turn, as
        s_Move moves them."""
        if self.m.refs.get(s.what) == ("builtin", "cards"):
            return None  # everything at once: s_Move
        dl, d = self.spill(*self.x(s.dest))
        cl, cs = self.xcards(s.what)
        span = self.k(s.span)
        z, c = self.tmp(), self.tmp()
        out = dl + [f"{z} = {d}", f"if {z} is None:",
                    f"    raise _GameError({self.k('move to nowhere (the destination is none)')}, {span})"]
        out += cl + [f"for {c} in {cs}:", f"    if {c} is None:", "        continue"]
        top = s.position != "bottom"
        if self.g.has_card_zones:
            out += [f"    if st.zholder[{z}] >= 0 and st.lands_on_itself({c}, {z}):",
                    f"        raise _GameError(_g.card_name[{c}] + {self.k(' cannot be put on itself (or on a card it holds)')}, {span})",
                    f"    st.move({c}, {z}, {top}, {self.k(s.face)}, env[0])"]
        else:
            out += ["    " + ln for ln in self._move_lines(c, z, top, s.face)]
        return False, self._at(out, s.span)

    def l_Move(self, s):
        if self.m.types.get(s.what) != CARD:
            return self.l_Move_many(s) if self.playout else None  # several cards: s_Move
        # `top(Z)` of an empty zone moves nothing (drawing from an empty pile draws nothing);
        # any other card that is none here is a mistake in the rules
        may_be_nothing = isinstance(s.what, A.Call) and self.m.refs.get(s.what) == ("builtin", "top")
        cl, c = self.spill(*self.x(s.what))
        dl, d = self.x(s.dest)
        span = self.k(s.span)
        if self.playout:  # (no log to write)
            dl, d = self.spill(dl, d)
            move = [f"    if {d} is None:", f"        raise _GameError({self.k('move to nowhere (the destination is none)')}, {span})"]
            if self.g.has_card_zones:  # (a card put on itself, or on a card it holds: as _move_card)
                move += [f"    if st.zholder[{d}] >= 0 and st.lands_on_itself({c}, {d}):",
                         f"        raise _GameError(_g.card_name[{c}] + {self.k(' cannot be put on itself (or on a card it holds)')}, {span})",
                         f"    st.move({c}, {d}, {s.position != 'bottom'}, {self.k(s.face)}, env[0])"]
            else:
                move += ["    " + ln for ln in self._move_lines(c, d, s.position != "bottom", s.face)]
        else:
            move = [f"    _move_card(st, _g, {c}, {d}, {s.position != 'bottom'}, {self.k(s.face)}, env[0], {span})"]
        out = cl + [f"if {c} is not None:", *["    " + ln for ln in dl], *move]
        if not may_be_nothing:
            out += ["else:", f"    raise _GameError({self.k('move of nothing: the card is none')}, {span})"]
        return False, self._at(out, s.span)

    def _move_lines(self, c: str, d: str, top: bool, face: str | None) -> list[str]:
        """State.move(c, d, top, face, env[0]) written out, for a game without zones on cards
        (no card holds others): the same store, the same faces and knowledge."""
        o = self.tmp()
        out = [f"{o} = st.loc[{c}]", f"if {o} >= 0:", f"    st.zones[{o}].remove({c})",
               f"st.zones[{d}].append({c})" if top else f"st.zones[{d}].insert(0, {c})", f"st.loc[{c}] = {d}"]
        if face is None:
            out += [f"if st.zhidden[{d}]:", f"    st.facedown[{c}] = True", f"    st.seen[{c}] = 0",
                    f"elif {o} < 0 or st.zhidden[{o}]:", f"    st.facedown[{c}] = False",
                    f"elif st.zprivate[{d}]:", f"    st.seen[{c}] |= 1 << st.zowner[{d}]"]
        elif face == "facedown":
            out += [f"st.facedown[{c}] = True", f"st.seen[{c}] = (1 << env[0]) if env[0] is not None else 0"]
        else:
            out += [f"st.facedown[{c}] = False"]
        return out

    def choose_options(self, s):
        """The function listing a choice's options (what its legality check and the choice read)."""
        f = self.option_fns.get(s)
        if f is None:
            if isinstance(s, A.Choose):
                f = self.option_fns[s] = self.options_of(s.cond, self.m.slots[s], s.coll, s.span)
            else:
                self.stmt(s)  # registers its option function
                f = self.option_fns[s]
        return f

    def l_Choose(self, s):
        ctype = self.m.types.get(s.coll)
        t = elem(ctype) if ctype else None
        k = self.m.slots[s]
        prompt = s.prompt or f"choose {s.var}"
        is_random, by = self.chooser(s.chooser)
        opts_fn = self.choose_options(s)
        kp, kt, ks, node = self.k(prompt), self.k(t), self.k(s.span), self.k(s)
        x = self.tmp()
        if ctype == ZONE:
            with self.known_card(f"env[{k}]"):  # the pick, in the body: a card, never none
                body_gen, body = self.stmts_lines(s.body.stmts)
        else:
            body_gen, body = self.stmts_lines(s.body.stmts)
        if is_random:
            out = self._random_pick_lines(s, k, x) + [f"if {x} is not None:",
                   "    if st.log is not None:", f"        _log_random(st, _g, {x}, {kp}, {kt})",
                   f"    env[{k}] = {x}"]
            return body_gen, self._at(out, s.span) + self._in(body)
        ko, opts, p, pre = self.tmp(), self.tmp(), self.tmp(), self.tmp()
        if by is not None:
            bl, bv = self.x(s.chooser.player)
        else:
            bl, bv = [], "env[0]"
        out = [f"{ko} = st.known_opts",
               f"if {ko} is not None and {ko}[0] is {node}:",  # the options the turn just worked out
               f"    {opts} = {ko}[1]", "    st.known_opts = None",
               "else:", f"    {opts} = {self.k(opts_fn)}(st, env)",
               f"if {opts}:", *["    " + ln for ln in bl], f"    {p} = {bv}",
               f"    {pre} = st.preset",
               f"    if {pre} is not None and {node} in {pre}:",  # chosen ahead, in a simultaneous phase's pick
               f"        {x} = {pre}.pop({node})",
               "    else:",
               f"        {x} = {opts}[{self.ask(opts, p, kp, kt, ks)}]",
               "    if st.log is not None:", f"        _log_choice(st, _g, {p}, {x}, {kp}, {kt})",
               f"    env[{k}] = {x}"]
        return not self.playout, self._at(out, s.span) + self._in(body)

    def ask(self, opts: str, p: str, kp: str, kt: str, ks: str | None = None) -> str:
        """Which of the options `opts` player p takes: the only one without asking, else the
        agent's pick, else the player's (a yield). A playout has an agent and no scenario
        recording the options offered: the agent's pick, no yield."""
        if self.playout:
            return f"0 if len({opts}) == 1 else st.agent({p}, {opts})"
        span = f", {ks}" if ks is not None else ""
        return (f"0 if len({opts}) == 1 and _only_option(st, {p}, {opts}, {kp}, {kt}{span}) else "
                f"st.agent({p}, {opts}) if st.agent is not None else (yield _Decision({p}, {opts}, {kp}, {kt}{span}{', st' if ks else ''}))")

    def _random_pick_lines(self, s, k, x: str) -> list[str]:
        """`choose x in L at random` written out: x = one of the options, drawn with the game's
        RNG (none when there is none); the same draws as _random_pick."""
        mask, rest = self._kind_split(s.cond, k)
        if s.cond is not None and not (mask is not None and rest is None):
            return [f"{x} = {self.k(self._random_pick(s, k))}(st, env)"]
        ls, src = self.spill(*self.xcoll(s.coll))
        if s.cond is None:
            return ls + [f"{x} = {src}[_int(st.rng.random() * len({src}))] if {src} else None"]
        # rejection sampling: uniform over the matching cards, without listing them
        n, y, km = self.tmp(), self.tmp(), self.k(mask)
        return ls + [f"{x} = None", f"{n} = len({src})", f"if {n}:", "    for _r in range(12):",
                     f"        {y} = {src}[_int(st.rng.random() * {n})]", f"        if {km}[{y}]:",
                     f"            {x} = {y}", "            break", "    else:",
                     f"        {y} = [_c for _c in {src} if {km}[_c]]",
                     f"        {x} = {y}[_int(st.rng.random() * len({y}))] if {y} else None"]

    def _random_pick(self, s, k):
        """`choose x in L at random`: one of the options, drawn with the game's RNG."""
        filt = self.filter(s.cond, k, s.coll)
        src_of = self.coll(s.coll)
        mask, rest = self._kind_split(s.cond, k)
        span = s.span
        if s.cond is None:
            def pick(st, env, span=span):
                src = src_of(st, env)
                return src[int(st.rng.random() * len(src))] if src else None
        elif mask is not None and rest is None:
            def pick(st, env, span=span):
                # rejection sampling: uniform over the matching cards, without listing them
                src = src_of(st, env)
                n = len(src)
                if n:
                    rnd = st.rng.random
                    for _ in range(12):
                        y = src[int(rnd() * n)]
                        if mask[y]:
                            return y
                opts = [y for y in src if mask[y]]
                return opts[int(st.rng.random() * len(opts))] if opts else None
        else:
            def pick(st, env, span=span):
                opts = filt(st, env, src_of(st, env))
                return opts[int(st.rng.random() * len(opts))] if opts else None
        return pick

    def l_Gain(self, s):
        """`gain N C [to p]`, `lose N C [from p]` on a counter no `when ... reaches` watches."""
        if self.reach.get(self.m.counters[s.counter].slot):
            return None  # counters with triggers: s_Gain
        if s.op not in ("gain", "lose"):
            return self.l_Give(s) if self.playout else None  # (give/take with a log: s_Gain)
        ci = self.m.counters[s.counter]
        slot, per, d = ci.slot, ci.decl.per_player, ci.decl
        p, a = self.tmp(), self.tmp()
        if not per:
            out = [f"{p} = 0"]
        elif s.other is not None:
            ol, ov = self.x(s.other)
            out = ol + [f"{p} = {ov}"]
        else:
            out = [f"{p} = env[0]"]
        al, av = self.x(s.amount)
        out += al + [f"{a} = {av}"]
        sign = "" if s.op == "gain" else "-"
        if d.low is None and d.high is None:
            out += [f"st.counters[{slot}][{p}] {'+=' if s.op == 'gain' else '-='} {a}"]
            if self._may_grow(s.amount, True):  # the sum stays a whole number in range
                out += [f"_num(st.counters[{slot}][{p}], {self.k(s.span)})"]
        else:  # within the counter's bounds (or round a wrap-around track)
            apply, _ = self.counter_change(slot)
            out += [f"{self.k(apply)}(st, {p}, {sign}{a})"]
        out += ["if st.log is not None:",
                f"    _log_gain(st, {self.k(s.op)}, {self.k(s.counter)}, {per}, {p}, {a}, st.counters[{slot}][{p}], "
                f"{self.k(s.span)}, env, {self.k(s)})"]
        return False, self._at(out, s.span)

    def l_Give(self, s):
        """`give N C to p` / `take N C from p` in the playout flavour (no log): as much as the
        giver has, as s_Gain moves it, for a per-player counter without bounds."""
        ci = self.m.counters[s.counter]
        slot, d = ci.slot, ci.decl
        if not d.per_player or d.low is not None or d.high is not None or s.other is None:
            return None
        a, q, have = self.tmp(), self.tmp(), self.tmp()
        al, av = self.x(s.amount)
        ol, ov = self.x(s.other)
        out = al + [f"{a} = {av}"] + ol + [f"{q} = {ov}"]
        giver, getter = ("env[0]", q) if s.op == "give" else (q, "env[0]")
        row = f"st.counters[{slot}]"
        new = self.tmp()  # (the receiver's count before the giver's goes down: what s_Gain checks)
        out += [f"{have} = {row}[{giver}]", f"{a} = max(0, min({a}, {have}))", f"{row}[{getter}] += {a}",
                f"{new} = {row}[{getter}]", f"{row}[{giver}] -= {a}", f"_num({new}, {self.k(s.span)})"]
        return False, self._at(out, s.span)

    def l_Do_value(self, s):
        """`do X` of an effect held in a value (a card's attribute): the effect looked up in a
        table of the game's effects, written out; a value naming an action or a phase (or no
        effect at all) goes to s_Do's closure, which knows those."""
        fallback = self.k(self.stmt(s)[1].named)  # (given the value, not working it out again)
        vl, v = self.x(s.effect)
        me_l, me = self.x(s.as_player) if s.as_player is not None else ([], "env[0]")
        others = set(self.m.actions) | {p.name for p in self.m.phases}
        table = {n: (cell, self.g.effect_titles[n] if self.m.effects[n].decl.title is not None else None)
                 for n, cell in self.g.effect_cells.items() if n not in others}
        n, hit, c, env2, r, p = (self.tmp() for _ in range(6))
        out = vl + [f"{n} = {v}", f"{hit} = {self.k(table)}.get({n}) if {n} is not None else None",
                    f"if {hit} is not None:"]
        out += ["    " + ln for ln in me_l]
        out += [f"    {p} = {me}", f"    {c} = {hit}[0][0]", f"    {env2} = [{p}] + [None] * {c}[2]",
                f"    if {c}[0] is None or {c}[0](st, {env2}):",
                f"        if st.log is not None and {hit}[1] is not None:",
                f'            st.log.append(("effect: " + {hit}[1], None, {{"type": "effect", "effect": {n}}}))',
                "        if st.fired is not None:", f"            st.fired[{n}] = st.fired.get({n}, 0) + 1",
                *("    " + ln for ln in self._in_step(s.span)),
                f"        {r} = {c}[1](st, {env2})", f"        if {r} is not None:",
                f"            for _y in {r}:" if self.playout else f"            yield from {r}"]
        out += (["                pass"] if self.playout else [])
        out += [f"elif {n} is not None:", f"    for _y in {fallback}(st, env, {n}):" if self.playout else
                f"    yield from {fallback}(st, env, {n})"] + (["        pass"] if self.playout else [])
        return not self.playout, self._at(out, s.span)

    def l_Do(self, s):
        e = s.effect
        ref = self.m.refs.get(e)
        kind = ref[0] if ref is not None else None
        if kind not in ("phase", "action") and not (kind == "effect" and isinstance(e, (A.Name, A.Call))):
            return self.l_Do_value(s)  # an effect held in a value
        if not (ref is not None and ref[0] == "effect" and isinstance(e, (A.Name, A.Call))):
            return None  # an action, a phase, or an effect held in a value: s_Do
        name = ref[1]
        eff = self.m.effects[name]
        cell = self.k(self.g.effect_cells[name])
        parts = [self.x(s.as_player) if s.as_player is not None else ([], "env[0]")]
        if isinstance(e, A.Call):
            parts += [self.xcards(a) if self._wants_list(eff, i, a) else self.x(a) for i, a in enumerate(e.args)]
        lines, vals = self.seq(parts)
        c, env2, r = self.tmp(), self.tmp(), self.tmp()
        pad = max(0, eff.frame - len(vals))
        if ("effect", name) in self.counted_calls:  # each call a step of the budget (budget.self_calling)
            lines = lines + self._step(s.span)
        out = lines + [f"{c} = {cell}[0]", f"{env2} = [{', '.join(vals + ['None'] * pad)}]",
                       f"if {c}[0] is None or {c}[0](st, {env2}):"]
        if eff.decl.title is not None:
            t, nm = self.k(self.g.effect_titles[name]), self.k(name)
            out += ["    if st.log is not None:",
                    f'        st.log.append(("effect: " + {t}, None, {{"type": "effect", "effect": {nm}}}))']
        out += ["    if st.fired is not None:", f"        st.fired[{self.k(name)}] = st.fired.get({self.k(name)}, 0) + 1",
                f"    {r} = {c}[1](st, {env2})", f"    if {r} is not None:",  # (an effect that asks nothing is plain)
                f"        for _y in {r}:" if self.playout else f"        yield from {r}"] + (["            pass"] if self.playout else [])
        return not self.playout, self._at(out, s.span)


def _do_action(st, g, name, me):
    """`do ACTION [as p]` (or an action held in a value): run it if its requires hold for me."""
    act = g.actions[name]
    env2 = [me] + [None] * act.frame
    if act.req is not None and not act.req(st, env2):
        if st.log is not None:
            st.log.append((f"P{me + 1} may not {act.title}", None, {"type": "refused", "action": name}))
        return
    if st.log is not None:
        st.log.append((f"P{me + 1}: {act.title}", None, {"type": "action", "player": me, "action": name}))
    if st.fired is not None:
        st.fired[name] = st.fired.get(name, 0) + 1
    _r = act.body(st, env2)
    if _r is not None:
        yield from _r


def _log_random(st, g, x, prompt, t):
    if t == "card":
        text = f"at random: {g.card_label(x, st)} ({prompt})"
        st.log.append((text, g.card_hiding(x, st, text, f"at random: a card ({prompt})"),
                       {"type": "random", "prompt": prompt, "choice": g.card_name[x]}))
    else:
        st.log.append((f"at random: {g.label(x, st, t)} ({prompt})", None,
                       {"type": "random", "prompt": prompt, "choice": g.label(x, st, t)}))


def _log_choice(st, g, p, x, prompt, t):
    text = f"P{p + 1} chooses {g.label(x, st, t)} ({prompt})"
    hidden = g.card_hiding(x, st, text, f"P{p + 1} chooses a face-down card ({prompt})") if t == "card" else None
    st.log.append((text, hidden, {"type": "choice", "player": p, "prompt": prompt, "choice": g.label(x, st, t)}))


def unit_words(d) -> tuple[str, str]:
    """What the log calls one of a counter and several: its `unit "coin" "coins"` (the plural,
    when not given, is the singular and an s); without a unit, its name (in words), and for one,
    the name without a final s ("coins": 1 coin; "gold": 1 gold; "glass": 1 glass)."""
    if d.unit is not None:
        one, many = d.unit
        return one, many if many is not None else one + "s"
    many = d.name.replace("_", " ")
    return (many[:-1] if many.endswith("s") and not many.endswith("ss") and len(many) > 1 else many), many


def _amount(st, name, a) -> str:
    """`3 coins`, `1 coin`: an amount in the counter's words."""
    one, many = st.game.counter_words[name]
    return f"{a} {one if a == 1 else many}"


def _log_gain(st, op, name, per, p, a, new, span=None, env=None, node=None):
    if not a:  # nothing gained or lost: no line
        return
    st.why[len(st.log)] = span
    if st.explain is not None and node is not None:  # (its terms, for `why N` / --explain)
        st.explain.gain(st, env, node, p, a, new)
    if op == "gain":
        text = f"P{p + 1} gains {_amount(st, name, a)}" if per else f"{name} +{a}"
    else:
        text = f"P{p + 1} loses {_amount(st, name, a)}" if per else f"{name} -{a}"
    st.log.append((text + f" (now {new})", None, {"type": op, "counter": name, "amount": a, "player": p, "now": new}))


def run_headed(st, ph, heading: str, data: dict):
    """Run a phase under its heading in the log; a phase that did nothing leaves no heading."""
    if st.log is not None:
        st.log.append((heading, None, data))
        mark = len(st.log)
    r = ph.run(st)
    if r is not None:
        yield from r
    if st.log is not None and len(st.log) == mark:
        st.log.pop()


def _log_reveal(st, g, c):
    st.log.append((f"reveal {g.card_name[c]}", None, {"type": "reveal", "card": g.card_name[c]}))


def _move_card(st, g, c, z, top, face, me, span):
    """`move CARD to Z` once the card is known not to be none."""
    if z is None:
        raise GameError("move to nowhere (the destination is none)", span)
    if st.zholder is not None and st.zholder[z] >= 0 and st.lands_on_itself(c, z):
        raise GameError(f"{g.card_name[c]} cannot be put on itself (or on a card it holds)", span)
    old = st.loc[c]
    knew = st.vis_mask(c) if st.log is not None else 0  # who saw it before it moved still knows it
    st.move(c, z, top, face, me)
    if st.log is not None:
        StatementCompiler._log_move(st, g, c, old, z, face, me, knew)


def _subset_tries(n, a, b, span):
    """How many subsets `choose subset` tries (sizes a..b of n items): an error past MAX_TRIES
    (failing tries count too: C(60, 30) subsets are never all tried)."""
    tried = 0
    for size in range(a, b + 1):  # (worked out before any is tried; comb(n, k) grows with k up to n/2)
        tried += math.comb(n, size) if min(size, n - size) < 64 else MAX_TRIES + 1
        if tried > MAX_TRIES:
            raise GameError(f"more than {MAX_TRIES} subsets to try for this choice", span)
    return tried


STATEMENT_HELPERS = {"_subset_tries": _subset_tries, "_combinations": itertools.combinations, "_log_gain": _log_gain, "_log_reveal": _log_reveal, "_log_random": _log_random, "_log_choice": _log_choice, "_move_card": _move_card,
                     "_Decision": Decision, "_only_option": only_option, "_GameError": GameError, "_GameOver": GameOver}
