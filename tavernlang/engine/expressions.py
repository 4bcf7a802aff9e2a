"""Compiling expressions: each becomes ``f(st, env) -> value``, with fast paths for
the shapes rules use most (local names, kind tests, zone tests, attribute compares).
(A mixin of the compiler in compile.py.)"""
from __future__ import annotations

import functools
import itertools

from ..check.model import CARD, STR, ZONE
from ..errors import GameError
from ..syntax import ast as A
from .common import Fn, _const


_BINDERS = (A.Quant, A.Aggregate, A.AnySubset)
_PURE = (A.Name, A.Lit, A.Attr, A.Of)  # arguments an inlined def may read more than once (or not at all)
INLINE_DEPTH = 6  # defs inlined into inlined defs, at most
INLINE_NODES = 60  # a def whose body is larger stays a call


class ExpressionCompiler:
    _subst: dict | None = None  # param slot -> ("slot", caller slot) | ("fn", closure), while inlining
    _inlining: frozenset = frozenset()

    # ================================================================ def inlining
    def _inline(self, e: A.Call, name: str) -> Fn | None:
        """A call of a small `def` compiled into the caller: its body, with the parameters
        read from the caller's slots or its argument closures. Only for bodies that bind no
        names (no quantifiers) and for arguments that are cheap and pure; recursion is not
        inlined."""
        d = self.m.defs[name]
        if name in self._inlining or len(e.args) != len(d.params) or len(self._inlining) >= INLINE_DEPTH:
            return None
        ok = self.g.inline_ok.get(name)
        if ok is None:
            nodes = list(A.walk(d.decl.body))
            ok = self.g.inline_ok[name] = len(nodes) <= INLINE_NODES and not any(isinstance(n, _BINDERS) for n in nodes)
        if not ok:
            return None
        mapping = {}
        for i, a in enumerate(e.args):
            k = self.local_slot(a)
            if k is not None and not self._wants_list(d, i, a):
                mapping[i + 1] = ("slot", k)
            elif all(isinstance(n, _PURE) and not (isinstance(n, A.Name) and self.m.refs.get(n, ("",))[0] == "def")
                     and not (isinstance(n, (A.Attr, A.Of)) and self.m.refs.get(n, ("",))[0] not in ("cattr", "cvar"))
                     for n in A.walk(a)):
                # a literal or an attribute read: the same value however often it is read, never an error
                mapping[i + 1] = ("fn", self.cards_of(a) if self._wants_list(d, i, a) else self.expr(a))
            else:
                return None
        saved, saved_in = self._subst, self._inlining
        self._subst, self._inlining = mapping, saved_in | {name}
        try:
            return self.def_body(d)
        finally:
            self._subst, self._inlining = saved, saved_in

    def _wants_list(self, c, i: int, a: A.Expr) -> bool:
        """A zone given for a `list of ...` parameter: the callee gets the zone's cards."""
        return (i < len(c.params) and c.params[i][1].startswith("list:")
                and self.m.types.get(a) == ZONE)

    def def_body(self, d) -> Fn:
        """A def's body; a zone where the def gives a list of cards gives its cards."""
        b = d.decl.body
        if (d.type or "").startswith("list:") and self.m.types.get(b) == ZONE:
            return self.cards_of(b)
        return self.expr(b)

    def cards_of(self, e: A.Expr) -> Fn:
        """An expression giving a card, a list of cards or a zone -> list of cards (a copy, as
        they are now): what `move`/`reveal` act on, and a zone given where a list is wanted."""
        f = self.expr(e)
        t = self.m.types.get(e)
        if t == CARD:
            return lambda st, env: [f(st, env)]
        if t == ZONE:
            return lambda st, env: list(st.zones[f(st, env)])
        return lambda st, env: list(f(st, env))

    # ================================================================ filters
    def _kind_split(self, cond: A.Expr | None, k: int):
        """(mask, rest): `x is K [and rest]` on the bound slot k becomes a static mask."""
        if cond is None:
            return None, None
        if isinstance(cond, A.IsKind) and isinstance(cond.obj, A.Name) and self.m.refs.get(cond.obj) == ("local", k):
            return self.g.kind_mask.get(cond.kind), None
        if isinstance(cond, A.BinOp) and cond.op == "and":
            mask, rest = self._kind_split(cond.left, k)
            if mask is not None and rest is None:
                return mask, cond.right
        return None, cond

    def filter(self, cond: A.Expr | None, k: int):
        """A function (st, env, src) -> list of the items of src meeting cond (bound at slot k)."""
        neg = isinstance(cond, A.Not)
        call = cond.operand if neg else cond
        if isinstance(call, A.Call) and call.name in ("full", "empty") and len(call.args) == 1 \
                and self.local_slot(call.args[0]) == k and self.m.refs.get(call) == ("builtin", call.name) \
                and self.m.types.get(call.args[0]) == ZONE:
            # zones that are (not) full / (not) empty: one comprehension, no calls
            if call.name == "full" and neg:
                return lambda st, env, src: [z for z in src if st.cap[z] is None or len(st.zones[z]) < st.cap[z]]
            if call.name == "full":
                return lambda st, env, src: [z for z in src if st.cap[z] is not None and len(st.zones[z]) >= st.cap[z]]
            if neg:
                return lambda st, env, src: [z for z in src if st.zones[z]]
            return lambda st, env, src: [z for z in src if not st.zones[z]]
        mask, rest = self._kind_split(cond, k)
        restf = self.expr(rest) if rest is not None else None
        if mask is None and restf is None:
            return lambda st, env, src: list(src)
        if restf is None:
            return lambda st, env, src: [x for x in src if mask[x]]

        def filt(st, env, src):
            out = []
            for x in src:
                if mask is not None and not mask[x]:
                    continue
                env[k] = x
                if restf(st, env):
                    out.append(x)
            return out
        return filt

    # ================================================================ expressions
    def expr(self, e: A.Expr) -> Fn:
        return getattr(self, "e_" + type(e).__name__)(e)

    def coll(self, e: A.Expr) -> Fn:
        """An expression as a collection: a zone gives its (live) list of cards."""
        if self.m.types.get(e) == ZONE:
            ref = self.m.refs.get(e)
            if ref is not None and ref[0] == "zone":
                fam = ref[1]
                return lambda st, env: st.zones[st.zbase[fam]]
            k = self.local_slot(e)
            if k is not None:
                return lambda st, env: st.zones[env[k]]
            if ref is not None and ref[0] == "pzone":
                k = self.local_slot(e.obj)
                if k is not None:
                    fam = ref[1]
                    return lambda st, env: st.zones[st.zbase[fam] + env[k]]
            if ref is not None and ref[0] == "czone":  # the zone on a local card: its cards
                k = self.local_slot(e.obj)
                if k is not None:
                    fam = ref[1]
                    empty: list = []

                    def czone_cards(st, env):
                        z = st.czone[fam][env[k]]
                        return st.zones[z] if z >= 0 else empty  # a card without such a zone holds nothing
                    return czone_cards
            f = self.expr(e)
            return lambda st, env: st.zones[f(st, env)]
        return self.expr(e)

    def e_Lit(self, e):
        return _const(e.value)

    def e_Index(self, e):
        lst, ix = self.coll(e.obj), self.expr(e.index)

        def index(st, env):
            items, i = lst(st, env), ix(st, env)
            return items[i - 1] if items is not None and 1 <= i <= len(items) else None
        return index

    def e_ListLit(self, e):
        items = [self.expr(x) for x in e.items]
        return lambda st, env: [f(st, env) for f in items]

    def e_Name(self, e):
        ref = self.m.refs[e]
        kind = ref[0]
        if kind == "local":
            k = ref[1]
            sub = self._subst
            if sub is not None and k in sub:  # a parameter of a def being inlined
                how, v = sub[k]
                if how == "slot":
                    return lambda st, env: env[v]
                return v
            return lambda st, env: env[k]
        if kind == "builtin":
            n = ref[1]
            if n == "me":
                return lambda st, env: env[0]
            if n == "players":
                return lambda st, env: st.players
            if n == "others":
                return lambda st, env: [p for p in st.players if p != env[0]]
            if n == "cards":
                return lambda st, env: st.all_cards
            if n == "current":
                return lambda st, env: st.current
            if n == "next_player":
                return lambda st, env: st.next_player
            if n == "round":
                return lambda st, env: st.round
            if n == "player_count":
                return lambda st, env: st.n
            if n == "game_ends":
                g = self.g
                return lambda st, env: g.ended(st)
            if n == "winners":
                g = self.g
                return lambda st, env: g.result(st)["winners"]
        if kind == "option":
            k = ref[1]
            return lambda st, env: st.opt[k]
        if kind == "counter":
            k = ref[1]
            return lambda st, env: st.counters[k][0]
        if kind == "mecounter":
            k = ref[1]
            return lambda st, env: st.counters[k][env[0]]
        if kind == "var":
            k = ref[1]
            return lambda st, env: st.vars[k][0]
        if kind == "zone":
            f = ref[1]
            return lambda st, env: st.zbase[f]
        if kind == "const":
            return _const(ref[1])
        if kind == "def":
            inl = self._inline(A.Call(e.span, ref[1], ()), ref[1])  # a def without parameters
            if inl is not None:
                return inl
            cell = self.g.def_cells[ref[1]]
            frame = self.m.defs[ref[1]].frame
            return lambda st, env: cell[0](st, [env[0]] + [None] * frame)
        if kind in ("effect", "action", "phase"):
            return _const(ref[1])
        if kind == "selfattr":  # in a kind's def: an attribute of the card itself
            this, aslot, mutable = ref[1], ref[2], ref[3]
            if mutable:
                return lambda st, env: st.cvars[aslot][env[this]]
            return lambda st, env: st.attrs[aslot][env[this]]
        if kind == "selfzone":
            this, fam = ref[1], ref[2]
            return lambda st, env: st.czone[fam][env[this]]
        if kind == "selfdef":
            this, name = ref[1], ref[2]
            cell = self.g.kdef_cells[name]
            pad = [None] * self.m.kind_defs[name].frame
            return lambda st, env: cell[0](st, [env[0], env[this], *pad])
        raise AssertionError(ref)  # pragma: no cover

    def local_slot(self, e) -> int | None:
        """The env slot an expression reads, if it is just a local name (or `me`)."""
        if isinstance(e, A.Name):
            ref = self.m.refs.get(e)
            if ref == ("builtin", "me"):
                return 0
            if ref is not None and ref[0] == "local":
                sub = self._subst
                if sub is not None and ref[1] in sub:
                    how, v = sub[ref[1]]
                    return v if how == "slot" else None
                return ref[1]
        return None

    def const_value(self, e):
        """(True, value) when an expression is a constant of the rules text."""
        if isinstance(e, A.Lit):
            return True, e.value
        if isinstance(e, A.Name):
            ref = self.m.refs.get(e)
            if ref is not None and ref[0] in ("const", "effect", "action"):
                return True, ref[1]
        return False, None

    def _prop(self, e, obj_e):
        ref = self.m.refs[e]
        kind, slot = ref[0], ref[1]
        g = self.g
        if kind == "czone":  # `dice of s`: the zone on card s
            k = self.local_slot(obj_e)
            if k is not None:  # on a local: one closure
                def czone_local(st, env):
                    c = env[k]
                    if c is None:
                        return None
                    z = st.czone[slot][c]
                    return None if z < 0 else z
                return czone_local
            obj = self.expr(obj_e)

            def czone(st, env):
                c = obj(st, env)
                if c is None:
                    return None
                z = st.czone[slot][c]
                return None if z < 0 else z
            return czone
        if kind == "kdef":  # a kind's derived attribute, worked out for the card
            obj = self.expr(obj_e)
            cell = g.kdef_cells[slot]
            pad = [None] * self.m.kind_defs[slot].frame
            kinds = set(self.m.kind_defs[slot].kinds)
            has = [k in kinds for k in g.card_kind]  # only the kind's own cards have the value

            def kdef(st, env):
                c = obj(st, env)
                return None if c is None or not has[c] else cell[0](st, [env[0], c, *pad])
            return kdef
        if kind == "prop" and ref[1] == CARD and ref[2] == "holder":
            obj = self.expr(obj_e)

            def holder(st, env):
                c = obj(st, env)
                if c is None or st.zholder is None or st.loc[c] < 0:
                    return None
                h = st.zholder[st.loc[c]]
                return None if h < 0 else h
            return holder
        k = self.local_slot(obj_e)
        if k is not None:  # the common case, `x.attr` on a local: one closure, not two
            if kind == "pcounter":
                return lambda st, env: st.counters[slot][env[k]]
            if kind == "pzone":
                return lambda st, env: st.zbase[slot] + env[k]
            if kind == "cattr":
                def cattr_local(st, env):
                    c = env[k]
                    return None if c is None else st.attrs[slot][c]
                return cattr_local
            if kind == "prop" and ref[1] == CARD and ref[2] == "zone":
                def zone_local(st, env):
                    z = st.loc[env[k]]
                    return None if z < 0 else z
                return zone_local
            if kind == "prop" and ref[1] == CARD and ref[2] == "facedown":
                return lambda st, env: st.facedown[env[k]]
            if kind == "prop" and ref[1] == ZONE and ref[2] == "owner":
                if not g.has_card_zones:  # every zone's owner is fixed: read it
                    def zowner_fixed(st, env):
                        z = env[k]
                        return None if z is None else st.zowner[z]
                    return zowner_fixed

                def zowner_local(st, env):
                    z = env[k]
                    return None if z is None else st.zone_owner(z)
                return zowner_local
        obj = self.expr(obj_e)
        if kind == "pcounter":
            return lambda st, env: st.counters[slot][obj(st, env)]
        if kind == "pvar":
            return lambda st, env: st.vars[slot][obj(st, env)]
        if kind == "pzone":
            return lambda st, env: st.zbase[slot] + obj(st, env)
        if kind == "cattr":
            def cattr(st, env):
                c = obj(st, env)
                return None if c is None else st.attrs[slot][c]
            return cattr
        if kind == "cvar":
            def cvar(st, env):
                c = obj(st, env)
                return None if c is None else st.cvars[slot][c]
            return cvar
        if kind == "prop":
            t, name = ref[1], ref[2]
            if t == "player":
                if name == "left":
                    return lambda st, env: (obj(st, env) + 1) % st.n
                if name == "right":
                    return lambda st, env: (obj(st, env) - 1) % st.n
                if name == "seat":
                    return lambda st, env: obj(st, env) + 1
            if t == CARD:
                if name == "name":
                    return lambda st, env: g.card_name[obj(st, env)]
                if name == "kind":
                    return lambda st, env: g.card_kind[obj(st, env)]
                if name == "facedown":
                    return lambda st, env: st.facedown[obj(st, env)]
                if name == "zone":
                    def zone_of(st, env):
                        z = st.loc[obj(st, env)]
                        return None if z < 0 else z
                    return zone_of
                if name == "owner":
                    if not g.has_card_zones:
                        def owner_fixed(st, env):
                            z = st.loc[obj(st, env)]
                            return None if z < 0 else st.zowner[z]
                        return owner_fixed

                    def owner(st, env):
                        z = st.loc[obj(st, env)]
                        return None if z < 0 else st.zone_owner(z)
                    return owner
            if t == ZONE:
                if name == "owner":
                    if not g.has_card_zones:
                        def zowner_fixed2(st, env):
                            z = obj(st, env)
                            return None if z is None else st.zowner[z]
                        return zowner_fixed2

                    def zowner(st, env):
                        z = obj(st, env)
                        return None if z is None else st.zone_owner(z)
                    return zowner
                if name == "size":
                    return lambda st, env: len(st.zones[obj(st, env)])
                if name == "capacity":
                    return lambda st, env: st.cap[obj(st, env)]
        raise AssertionError(ref)  # pragma: no cover

    def e_Attr(self, e):
        return self._prop(e, e.obj)

    def e_Of(self, e):
        return self._prop(e, e.obj)

    def e_AllZone(self, e):
        f = self.m.refs[e][1]

        def allz(st, env):
            b = st.zbase[f]
            zs = st.zones
            out = []
            for z in range(b, b + st.n):
                out += zs[z]
            return out
        return allz

    def e_EveryZone(self, e):
        f = self.m.refs[e][1]
        return lambda st, env: list(range(st.zbase[f], st.zbase[f] + st.n))

    def e_Quant(self, e):
        coll = self.coll(e.coll)
        k = self.m.slots[e]
        cond = self.expr(e.cond) if e.cond is not None else None
        op = e.op
        if cond is None:
            if op == "count":
                return lambda st, env: len(coll(st, env))
            if op == "any":
                return lambda st, env: len(coll(st, env)) > 0
            if op == "filter":
                return lambda st, env: list(coll(st, env))
            return lambda st, env: True  # every(x in C): nothing to fail
        if isinstance(e.coll, A.EveryZone) and op in ("every", "any") and isinstance(e.cond, (A.Call, A.Not)):
            # every(t in every Z where full/empty/not full/not empty(t)): one loop, no calls
            neg = isinstance(e.cond, A.Not)
            call = e.cond.operand if neg else e.cond
            if isinstance(call, A.Call) and call.name in ("full", "empty") and len(call.args) == 1 \
                    and self.local_slot(call.args[0]) == k and self.m.refs.get(call) == ("builtin", call.name):
                fam = self.m.refs[e.coll][1]
                want_full = call.name == "full"
                is_every = op == "every"

                def zones_test(st, env):
                    b = st.zbase[fam]
                    zs, caps = st.zones, st.cap
                    for z in range(b, b + st.n):
                        cap = caps[z]
                        hit = (cap is not None and len(zs[z]) >= cap) if want_full else not zs[z]
                        if neg:
                            hit = not hit
                        if is_every and not hit:
                            return False
                        if not is_every and hit:
                            return True
                    return is_every
                return zones_test
        if op == "filter":
            filt = self.filter(e.cond, k)
            return lambda st, env: filt(st, env, coll(st, env))
        mask, rest = self._kind_split(e.cond, k)
        if mask is not None and rest is None:
            if op == "count":
                return lambda st, env: sum(1 for x in coll(st, env) if mask[x])
            if op == "any":
                def any_mask(st, env):
                    for x in coll(st, env):
                        if mask[x]:
                            return True
                    return False
                return any_mask
        if op == "count":
            def count(st, env):
                n = 0
                for x in coll(st, env):
                    env[k] = x
                    if cond(st, env):
                        n += 1
                return n
            return count
        if op == "any":
            def any_(st, env):
                for x in coll(st, env):
                    env[k] = x
                    if cond(st, env):
                        return True
                return False
            return any_

        def every(st, env):
            for x in coll(st, env):
                env[k] = x
                if not cond(st, env):
                    return False
            return True
        return every

    def _subset_sum(self, e, k):
        """(attribute slot, table, target) when the condition of `any(subset S ...)` is
        `sum(x.ATTR for x in S) == V` (either way round), V not reading S; else None."""
        c = e.cond
        if not (isinstance(c, A.BinOp) and c.op == "=="):
            return None
        for agg, other in ((c.left, c.right), (c.right, c.left)):
            if not (isinstance(agg, A.Aggregate) and agg.op == "sum" and agg.cond is None):
                continue
            if not (isinstance(agg.coll, A.Name) and self.m.refs.get(agg.coll) == ("local", k)):
                continue
            v = agg.value
            ref = self.m.refs.get(v) if isinstance(v, (A.Attr, A.Of)) else None
            if ref is None or ref[0] not in ("cattr", "cvar") or not isinstance(v.obj, A.Name) \
                    or self.m.refs.get(v.obj) != ("local", self.m.slots[agg]):
                continue
            if any(isinstance(n, A.Name) and self.m.refs.get(n) == ("local", k) for n in A.walk(other)):
                continue
            if self._subst is not None:
                continue
            return ref[1], ("attrs" if ref[0] == "cattr" else "cvars"), self.expr(other)
        return None

    def e_AnySubset(self, e):
        """Some subset of the collection (of a size in low..high, 1.. by default) meets the
        condition: tried smallest first, stopping at the first that does."""
        coll = self.coll(e.coll)
        k = self.m.slots[e]
        cond = self.expr(e.cond) if e.cond is not None else None
        lo = self.expr(e.low) if e.low is not None else None
        hi = self.expr(e.high) if e.high is not None else None
        span = e.span
        def any_subset(st, env, span=span):
            items = list(coll(st, env))
            a = max(0, lo(st, env)) if lo is not None else 1
            b = min(len(items), hi(st, env)) if hi is not None else len(items)
            tried = 0
            for size in range(a, b + 1):
                for combo in itertools.combinations(items, size):
                    tried += 1
                    if tried > 1 << 16:
                        raise GameError("more than 65536 subsets to try", span)
                    env[k] = list(combo)
                    if cond is None or cond(st, env):
                        return True
            return False
        fast = self._subset_sum(e, k)
        if fast is not None:  # `where sum(x.A for x in S) == V`: subset sums, without trying subsets
            aslot, table, target = fast

            def any_subset_sum(st, env):
                items = coll(st, env)
                a = max(0, lo(st, env)) if lo is not None else 1
                b = min(len(items), hi(st, env)) if hi is not None else len(items)
                if a > b:
                    return False
                want = target(st, env)
                if want is None or want < 0:
                    return any_subset(st, env)
                col = getattr(st, table)[aslot]
                reach = [1] + [0] * b  # reach[c]: bit s is set when some c items sum to s
                for x in items:
                    w = col[x] if x is not None else None
                    w = 0 if w is None else w  # none adds nothing to a sum
                    if w < 0:
                        return any_subset(st, env)  # negative values: try the subsets
                    for c in range(b - 1, -1, -1):
                        r = reach[c]
                        if r:
                            reach[c + 1] |= r << w
                for c in range(a, b + 1):
                    if (reach[c] >> want) & 1:
                        return True
                return False
            return any_subset_sum

        return any_subset

    def e_Aggregate(self, e):
        coll = self.coll(e.coll)
        k = self.m.slots[e]
        cond = self.expr(e.cond) if e.cond is not None else None
        val = self.expr(e.value)
        op = e.op

        skip_none = op != "distinct"
        # fast path: `sum(x.ATTR for x in C)`, a card attribute of the bound name, no condition
        v = e.value
        ref = self.m.refs.get(v) if isinstance(v, (A.Attr, A.Of)) else None
        if (op == "sum" and cond is None and ref is not None and ref[0] in ("cattr", "cvar")
                and isinstance(v.obj, A.Name) and self.m.refs.get(v.obj) == ("local", k)
                and self._subst is None):
            aslot, table = ref[1], ("attrs" if ref[0] == "cattr" else "cvars")

            def sum_attr(st, env):
                col = getattr(st, table)[aslot]
                total = 0
                for x in coll(st, env):
                    if x is not None:
                        w = col[x]
                        if w is not None:
                            total += w
                return total
            return sum_attr

        def values(st, env):
            out = []
            for x in coll(st, env):
                env[k] = x
                if cond is None or cond(st, env):
                    v = val(st, env)
                    if v is not None or not skip_none:  # none adds nothing to a sum, min or max
                        out.append(v)
            return out
        if op == "sum":
            return lambda st, env: sum(values(st, env))
        if op == "min":
            return lambda st, env: min(values(st, env), default=0)
        if op == "max":
            return lambda st, env: max(values(st, env), default=0)

        def distinct(st, env):
            out = []
            for v in values(st, env):
                if v not in out:
                    out.append(v)
            return out
        return distinct

    def e_BinOp(self, e):
        op = e.op
        span = e.span
        if self.m.refs.get(e) == ("join",):  # L + M joins two lists (or zones' cards)
            la, lb = self.coll(e.left), self.coll(e.right)
            return lambda st, env: [*la(st, env), *lb(st, env)]
        is_const, c = self.const_value(e.right)
        if is_const and op in ("==", "!=") and isinstance(e.left, (A.Attr, A.Of)):
            ref = self.m.refs.get(e.left)
            k = self.local_slot(e.left.obj)
            if ref is not None and ref[0] == "cattr" and k is not None:
                slot = ref[1]
                if op == "==":
                    def attr_eq(st, env):
                        x = env[k]
                        return x is not None and st.attrs[slot][x] == c
                    return attr_eq

                def attr_ne(st, env):
                    x = env[k]
                    return x is None or st.attrs[slot][x] != c
                return attr_ne
        if is_const and op in ("==", "!=", ">=", "<=", ">", "<"):
            a = self.expr(e.left)
            if op == "==":
                return lambda st, env: a(st, env) == c
            if op == "!=":
                return lambda st, env: a(st, env) != c
            if op == ">=":
                return lambda st, env: a(st, env) >= c
            if op == "<=":
                return lambda st, env: a(st, env) <= c
            if op == ">":
                return lambda st, env: a(st, env) > c
            return lambda st, env: a(st, env) < c
        ka, kb = self.local_slot(e.left), self.local_slot(e.right)
        if ka is not None and kb is not None and op in ("==", "!="):
            if op == "==":
                return lambda st, env: env[ka] == env[kb]
            return lambda st, env: env[ka] != env[kb]
        a, b = self.expr(e.left), self.expr(e.right)
        if op == "and":
            return lambda st, env: a(st, env) and b(st, env)
        if op == "or":
            return lambda st, env: a(st, env) or b(st, env)
        if op == "==":
            return lambda st, env: a(st, env) == b(st, env)
        if op == "!=":
            return lambda st, env: a(st, env) != b(st, env)
        if op == "<":
            return lambda st, env: a(st, env) < b(st, env)
        if op == "<=":
            return lambda st, env: a(st, env) <= b(st, env)
        if op == ">":
            return lambda st, env: a(st, env) > b(st, env)
        if op == ">=":
            return lambda st, env: a(st, env) >= b(st, env)
        if op == "+":
            return lambda st, env: a(st, env) + b(st, env)
        if op == "-":
            return lambda st, env: a(st, env) - b(st, env)
        if op == "*":
            return lambda st, env: a(st, env) * b(st, env)

        def div(st, env):
            x, y = a(st, env), b(st, env)
            if y == 0:
                raise GameError("division by zero", span)
            return x // y if op == "/" else x % y
        return div

    def e_Not(self, e):
        a = self.expr(e.operand)
        return lambda st, env: not a(st, env)

    def e_Neg(self, e):
        a = self.expr(e.operand)
        return lambda st, env: -a(st, env)

    def e_IsKind(self, e):
        obj = self.expr(e.obj)
        mask = self.g.kind_mask.get(e.kind, [])

        def is_(st, env):
            c = obj(st, env)
            return c is not None and mask[c]
        return is_

    def e_Cond(self, e):
        t, a, b = self.expr(e.test), self.expr(e.then), self.expr(e.orelse)
        return lambda st, env: a(st, env) if t(st, env) else b(st, env)

    def e_Match(self, e):
        subj = self.expr(e.subject)
        table = {}
        default = _const(None)
        for case in e.cases:
            f = self.expr(case.value)
            if not case.patterns:
                default = f
            for _, v in case.patterns:
                table.setdefault(v, f)
        get = table.get
        return lambda st, env: get(subj(st, env), default)(st, env)

    def e_Call(self, e):
        ref = self.m.refs[e]
        if ref[0] == "values":
            vals = list(self.m.enums[ref[1]])
            return lambda st, env: list(vals)
        if ref[0] == "def":
            inl = self._inline(e, ref[1])
            if inl is not None:
                return inl
        if ref[0] == "def":
            d = self.m.defs[ref[1]]
            args = [self.cards_of(a) if self._wants_list(d, i, a) else self.expr(a) for i, a in enumerate(e.args)]
        else:
            args = [self.expr(a) for a in e.args]
        if ref[0] == "def":
            cell = self.g.def_cells[ref[1]]
            frame = self.m.defs[ref[1]].frame
            pad = [None] * max(0, frame - 1 - len(args))
            if len(args) == 1:
                a0 = args[0]
                k0 = None if self._wants_list(d, 0, e.args[0]) else self.local_slot(e.args[0])
                if not pad:
                    if k0 is not None:  # f(x) on a local, and f needs no slots of its own
                        return lambda st, env: cell[0](st, [env[0], env[k0]])
                    return lambda st, env: cell[0](st, [env[0], a0(st, env)])
                if k0 is not None:
                    return lambda st, env: cell[0](st, [env[0], env[k0], *pad])
                return lambda st, env: cell[0](st, [env[0], a0(st, env), *pad])
            return lambda st, env: cell[0](st, [env[0], *[a(st, env) for a in args], *pad])
        if ref[0] == "effect":
            return _const(ref[1])
        n = ref[1]
        span = e.span
        if n == "empty" and self.m.types.get(e.args[0], ZONE) != ZONE:  # empty(L) on a list
            lst = args[0]
            return lambda st, env: not lst(st, env)
        if n in ("full", "empty", "free", "top"):
            z = args[0]
            k = self.local_slot(e.args[0])
            if n == "full" and k is not None:
                def full_local(st, env):
                    zz = env[k]
                    cap = st.cap[zz]
                    return cap is not None and len(st.zones[zz]) >= cap
                return full_local
            if n == "empty" and k is not None:
                return lambda st, env: not st.zones[env[k]]
            if n == "full":
                def full(st, env):
                    zz = z(st, env)
                    cap = st.cap[zz]
                    return cap is not None and len(st.zones[zz]) >= cap
                return full
            if n == "empty":
                return lambda st, env: not st.zones[z(st, env)]
            if n == "free":
                def free(st, env):
                    zz = z(st, env)
                    cap = st.cap[zz]
                    return 1_000_000 if cap is None else max(0, cap - len(st.zones[zz]))
                return free

            def top(st, env):
                cs = st.zones[z(st, env)]
                return cs[-1] if cs else None
            return top
        if n == "size":
            c = self.coll(e.args[0])
            return lambda st, env: len(c(st, env))
        if n == "player":
            a = args[0]

            def player(st, env):
                v = a(st, env)
                if not 1 <= v <= st.n:
                    raise GameError(f"there is no player {v} in a {st.n}-player game", span)
                return v - 1
            return player
        if n == "neighbour":
            a, b = args
            return lambda st, env: (a(st, env) + b(st, env)) % st.n
        if n == "lesser":
            a, b = args
            return lambda st, env: min(a(st, env), b(st, env))
        if n == "greater":
            a, b = args
            return lambda st, env: max(a(st, env), b(st, env))
        if n == "abs":
            a = args[0]
            return lambda st, env: abs(a(st, env))
        if n == "random":
            a, b = args
            return lambda st, env: st.rng.randint(a(st, env), b(st, env))
        if n == "named":
            a = args[0]
            names = self.g.card_name
            return lambda st, env: [c for c in st.all_cards if names[c] == a(st, env)]
        if n == "first":
            a = args[0]
            c = self.coll(e.args[1])
            if self.m.types.get(e.args[1]) == ZONE:  # of a zone: its top cards, the top one first
                return lambda st, env: list(reversed(c(st, env)))[: max(0, a(st, env))]
            return lambda st, env: list(c(st, env))[: max(0, a(st, env))]
        if n == "allowed":
            a = args[0]
            who = args[1] if len(args) == 2 else (lambda st, env: env[0])
            g = self.g

            def allowed(st, env):
                name = a(st, env)
                if name in g.actions:
                    act = g.actions[name]
                    req, frame = act.req, act.frame
                elif name not in g.effect_cells:
                    return True  # a phase can always be run
                else:
                    req, _, frame, _ = g.effect_cells[name][0]
                return req is None or bool(req(st, [who(st, env)] + [None] * frame))
            return allowed
        if n == "offered":  # scenarios: the options offered under a prompt, the last (or N-th) time
            a = args[0]
            nth = args[1] if len(args) == 2 else None

            def offered(st, env):
                asked = (st.offered or {}).get(a(st, env), [])
                i = nth(st, env) if nth is not None else len(asked)
                return list(asked[i - 1]) if 1 <= i <= len(asked) else []
            return offered
        if n == "taken":  # did the player whose turn it is take that action this turn?
            a = args[0]
            return lambda st, env: a(st, env) in st.turn_used
        if n == "range":
            a, b = args
            return lambda st, env: list(range(a(st, env), b(st, env) + 1))
        if n == "has_word":  # the name rule: WORD is a whole word (or run of words) of TEXT, in any case
            a, b = args
            lit = e.args[1].value if isinstance(e.args[1], A.Lit) and isinstance(e.args[1].value, str) else None
            if lit is not None:
                want = _words(lit)
                cache: dict = {}

                def has_word_lit(st, env):
                    t = a(st, env)
                    if t is None:
                        return False
                    hit = cache.get(t)
                    if hit is None:
                        hit = cache[t] = _has_words(_words(t), want)
                    return hit
                return has_word_lit

            def has_word(st, env):
                t, w = a(st, env), b(st, env)
                return t is not None and w is not None and _has_word(t, w)
            return has_word
        if n == "text":  # a value as the rules write it: Ale, 3, P2, a card's name
            a = args[0]
            t = self.m.types.get(e.args[0])
            g = self.g
            if t is not None and t.startswith("enum:") or t == STR:
                return lambda st, env: a(st, env)
            if t == CARD:
                names = g.card_name
                return lambda st, env: (lambda v: "none" if v is None else names[v])(a(st, env))
            return lambda st, env: g.value_text(a(st, env), st, t)
        if n == "order_from":
            a = args[0]

            def order(st, env):
                p = a(st, env)
                return [(p + i) % st.n for i in range(st.n)]
            return order
        raise AssertionError(n)  # pragma: no cover


@functools.lru_cache(maxsize=1 << 16)
def _has_word(text: str, word: str) -> bool:
    """has_word's answer, remembered: texts and words are the rules' own (names, attributes)."""
    return _has_words(_words(text), _words(word))


def _words(text: str) -> tuple:
    """The words of a text, lower case: letters and digits, split at anything else."""
    return tuple(w for w in "".join(ch.lower() if ch.isalnum() else " " for ch in text).split())


def _has_words(words: tuple, want: tuple) -> bool:
    k = len(want)
    if not k:
        return False
    return any(words[i:i + k] == want for i in range(len(words) - k + 1))
