"""What values an expression can take, from the rules text alone.

A small abstract interpreter over the checked syntax tree:

- :meth:`Values.iv` gives an integer expression's interval, ``Iv(lo, hi)``, each
  bound with the reason it holds ("'fame' is a track 0..7", "at most 3 dice x 6 =
  18", "nothing ever grants 'vp'") and a tag naming its source;
- :meth:`Values.vals` gives the finite set of values of an enum, string, bool
  or effect expression when it can be known (card names, printed attributes);
- :meth:`Values.count_ub` bounds how many items a collection can hold (the cards
  of the game that can match a filter, the players, a `range`).

Everything errs wide: when in doubt an interval is unbounded and a value set
unknown, so a rule built on them reports only what cannot happen.
Counters, variables and `var` attributes take the values the rules write into
them: their initial value, their range when gains and losses move them, and every
`set` (scenarios excluded: they are tests, not the game).
"""
from __future__ import annotations

import math

import attrs

from ..check.model import (INT, BuiltinRef, CardAttrRef, ConstRef, CounterRef, DefRef, EffectRef, LocalRef, OptionRef,
                           PropRef, VarRef)
from ..syntax import ast as A
from .facts import Facts

INF = math.inf
CMP = ("<", "<=", ">", ">=", "==", "!=")
UNKNOWN = object()
_HEAD = 5  # how many cards a reason may name


class Cards(list):
    """A list of (card, copies): what a card collection can hold. ``whole`` says it is
    every card of the game (so a filter can use the index of cards by attribute values);
    ``total`` is the sum of the copies when known; ``head``, when known, its first few
    items in the order of the game's cards (the list itself may be in another order)."""

    __slots__ = ("whole", "total", "head")

    def __init__(self, items=(), whole=False, total=None, head=None):
        super().__init__(items)
        self.whole = whole
        self.total = total
        self.head = head


def total_copies(cards) -> int:
    t = getattr(cards, "total", None)
    return t if t is not None else sum(c for _, c in cards)


def fmt(x) -> str:
    if x == INF:
        return "any number"
    if x == -INF:
        return "minus any number"
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


@attrs.frozen
class Iv:
    lo: float = -INF
    hi: float = INF
    lo_why: str | None = None
    hi_why: str | None = None
    lo_tag: str = ""
    hi_tag: str = ""
    what: str | None = None  # a noun for the expression: "'coins'", "a dice total"

    @property
    def const(self) -> bool:
        return self.lo == self.hi and self.lo not in (INF, -INF)


TOP = Iv()


def const(v, tag="literal", why=None) -> Iv:
    return Iv(v, v, why, why, tag, tag)


def hull(*ivs: Iv) -> Iv:
    ivs = [x for x in ivs if x is not None]
    if not ivs:
        return TOP
    lo = min(ivs, key=lambda x: x.lo)
    hi = max(ivs, key=lambda x: x.hi)
    whats = {x.what for x in ivs}
    return Iv(lo.lo, hi.hi, lo.lo_why, hi.hi_why, lo.lo_tag, hi.hi_tag, whats.pop() if len(whats) == 1 else None)


def _mul(a: float, b: float) -> float:
    if a == 0 or b == 0:
        return 0
    return a * b


class Values:
    def __init__(self, facts: Facts, fixed_options: dict | None = None):
        self.f = facts
        self.m = facts.m
        self._iv: dict = {}
        self._memo: dict = {}
        self._active: set = set()
        self.fixed = fixed_options or {}  # option name -> expr (a variant's `set`)
        m = self.m
        self.universe = [(cd, cd.copies) for cd in m.cards if cd.kind in m.kinds]
        self.ncards = sum(c for _, c in self.universe)
        self._order = {id(cd): i for i, (cd, _) in enumerate(self.universe)}
        self._names = frozenset(cd.name for cd, _ in self.universe)
        self._kinds = frozenset(cd.kind for cd, _ in self.universe)
        # card tests memoised by what they read of a card: the features
        # a condition reads, a card's value of a feature, the cards grouped by values
        self._feats: dict = {}  # (cond, binder) -> tuple of features
        self._cval: dict = {}  # (card id, attribute) -> card_value
        self._groups: dict = {}  # features -> [(signature, Cards of that signature)]
        self._tests: dict = {}  # (cond, binder, signature) -> card_test
    # ------------------------------------------------------------ guards
    def _guard(self, key, fn, default):
        if key in self._memo:
            return self._memo[key]
        if key in self._active:
            return default
        self._active.add(key)
        try:
            out = fn()
        finally:
            self._active.discard(key)
        self._memo[key] = out
        return out

    # ------------------------------------------------------------ intervals
    def iv(self, e) -> Iv:
        if e is None:
            return TOP
        hit = self._iv.get(e)
        if hit is not None:
            return hit
        if e in self._active:
            return TOP
        self._active.add(e)
        try:
            out = self._eval(e)
        finally:
            self._active.discard(e)
        self._iv[e] = out
        return out

    def _eval(self, e) -> Iv:
        if isinstance(e, A.Lit):
            v = e.value
            return const(v) if isinstance(v, int) and not isinstance(v, bool) else TOP
        if isinstance(e, A.Neg):
            x = self.iv(e.operand)
            return Iv(-x.hi, -x.lo, x.hi_why, x.lo_why, x.hi_tag, x.lo_tag)
        if isinstance(e, A.BinOp):
            return self._binop(e)
        if isinstance(e, A.Cond):
            return hull(self.iv(e.then), self.iv(e.orelse))
        if isinstance(e, A.Match):
            return hull(*(self.iv(c.value) for c in e.cases))
        if isinstance(e, A.Name):
            return self._name(e)
        if isinstance(e, (A.Attr, A.Of)):
            return self._prop(e)
        if isinstance(e, A.Call):
            return self._call(e)
        if isinstance(e, A.Quant) and e.op == "count":
            n, why = self.count_ub(e.coll, e.cond, e)
            return Iv(0, n, None, why, "", "count", "a count")
        if isinstance(e, A.Aggregate):
            return self._aggregate(e)
        return TOP

    def _binop(self, e: A.BinOp) -> Iv:
        op = e.op
        if op not in ("+", "-", "*", "/", "%"):
            return TOP
        a, b = self.iv(e.left), self.iv(e.right)
        if op == "+":
            return Iv(a.lo + b.lo, a.hi + b.hi, a.lo_why or b.lo_why, a.hi_why or b.hi_why,
                      a.lo_tag or b.lo_tag, a.hi_tag or b.hi_tag)
        if op == "-":
            return Iv(a.lo - b.hi, a.hi - b.lo, a.lo_why or b.hi_why, a.hi_why or b.lo_why,
                      a.lo_tag or b.hi_tag, a.hi_tag or b.lo_tag)
        if op == "*":
            ps = [_mul(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
            return Iv(min(ps), max(ps), a.lo_why or b.lo_why, a.hi_why or b.hi_why,
                      a.lo_tag or b.lo_tag, a.hi_tag or b.hi_tag)
        if b.const and b.lo > 0:
            c = b.lo
            if op == "/":
                lo = a.lo if a.lo in (INF, -INF) else a.lo // c
                hi = a.hi if a.hi in (INF, -INF) else a.hi // c
                return Iv(lo, hi, a.lo_why, a.hi_why, a.lo_tag, a.hi_tag)
            if a.lo >= 0:
                return Iv(0, min(c - 1, a.hi))
            return Iv(-(c - 1), c - 1)
        return TOP

    def _name(self, e: A.Name) -> Iv:
        m = self.m
        match m.refs.get(e):
            case OptionRef(slot=s):
                return self.option_iv(self.f.option_name(s))
            case CounterRef(whose="shared" | "me", slot=s):
                return self.counter_iv(self.f.counter_name(s))
            case VarRef(whose="shared", slot=s):
                return self.var_iv(self.f.var_name(s))
            case BuiltinRef(name="player_count"):
                why = f"the game is for {m.min_players} to {m.max_players} players"
                return Iv(m.min_players, m.max_players, why, why, "players", "players", "the player count")
            case BuiltinRef(name="round"):
                if m.rounds is not None and m.rounds.count is not None:
                    c = self.iv(m.rounds.count)
                    return Iv(0, c.hi, None, f"the game lasts at most {fmt(c.hi)} rounds" if c.hi < INF else None,
                              "", c.hi_tag, "the round")
                return Iv(0, INF, what="the round")
            case DefRef(name=n):
                d = m.defs.get(n)
                return self.iv(d.decl.body) if d is not None else TOP
            case LocalRef():
                return self._local(e)
        return TOP

    def _local(self, e: A.Name) -> Iv:
        b = self.f.binder(e)
        if b is None:
            return TOP
        node, role = b
        if role == "elem":
            return self.elem_iv(node.coll)
        if role == "number":
            lo, hi = self.iv(node.low), self.iv(node.high)
            return Iv(lo.lo, hi.hi, lo.lo_why, hi.hi_why, lo.lo_tag, hi.hi_tag)
        if role == "let":
            return self.iv(node.value)
        if isinstance(role, tuple):
            return self._guard(("param", node, role[1]), lambda: self._param_iv(node, role[1]), TOP)
        return TOP

    def _param_iv(self, decl, i: int) -> Iv:
        args = self.call_args(decl, i)
        if args is None or not args:
            return TOP
        return hull(*(self.iv(a) for a in args))

    def call_args(self, decl, i: int):
        """The argument expressions given for parameter i of a def, effect or handler
        (None when some call cannot be seen)."""
        f = self.f
        if isinstance(decl, A.OnDecl):
            return [em.args[i] for em in f.emits.get(decl.event, ()) if i < len(em.args)]
        kind = "def" if isinstance(decl, A.DefDecl) else "effect"
        out = []
        for n in f.refs_by.get((kind, decl.name), ()):
            if isinstance(n, A.Call):
                if i < len(n.args):
                    out.append(n.args[i])
            else:
                return None
        return out

    def elem_iv(self, coll) -> Iv:
        """The interval of the items of a list of numbers."""
        if isinstance(coll, A.Call) and coll.name == "range" and self.m.refs.get(coll) == BuiltinRef("range"):
            a, b = self.iv(coll.args[0]), self.iv(coll.args[1])
            return Iv(a.lo, b.hi, a.lo_why, b.hi_why, a.lo_tag, b.hi_tag)
        if isinstance(coll, A.ListLit):
            return hull(*(self.iv(x) for x in coll.items)) if coll.items else TOP
        if isinstance(coll, A.Aggregate) and coll.op == "distinct":
            return self.iv(coll.value)
        if isinstance(coll, A.Quant) and coll.op == "filter":
            return self.elem_iv(coll.coll)
        if isinstance(coll, A.Call) and coll.name == "first" and len(coll.args) == 2:
            return self.elem_iv(coll.args[1])
        return TOP

    def _prop(self, e) -> Iv:
        m = self.m
        match m.refs.get(e):
            case CounterRef(whose="player", slot=s):
                return self.counter_iv(self.f.counter_name(s))
            case VarRef(whose="player", slot=s):
                return self.var_iv(self.f.var_name(s))
            case CardAttrRef(mutable=False, slot=s):
                return self.attr_iv(self.f.attr_name(s))
            case CardAttrRef(mutable=True, slot=s):
                return self.cvar_iv(self.f.attr_name(s))
            case PropRef(name="seat"):
                why = f"the game is for at most {m.max_players} players"
                return Iv(1, m.max_players, None, why, "", "players")
            case PropRef(name="size"):
                return Iv(0, self.ncards, None, f"the game has {self.ncards} cards", "", "count")
        return TOP

    def _call(self, e: A.Call) -> Iv:
        ref = self.m.refs.get(e)
        if isinstance(ref, DefRef):
            d = self.m.defs.get(ref.name)
            return self.iv(d.decl.body) if d is not None else TOP
        if not isinstance(ref, BuiltinRef):
            return TOP
        n = e.name
        args = [self.iv(a) if self.m.types.get(a) == INT else TOP for a in e.args]
        if n == "lesser" and len(args) == 2:
            a, b = args
            lo = a if a.lo <= b.lo else b
            hi = a if a.hi <= b.hi else b
            return Iv(lo.lo, hi.hi, lo.lo_why, hi.hi_why, lo.lo_tag, hi.hi_tag)
        if n == "greater" and len(args) == 2:
            a, b = args
            lo = a if a.lo >= b.lo else b
            hi = a if a.hi >= b.hi else b
            return Iv(lo.lo, hi.hi, lo.lo_why, hi.hi_why, lo.lo_tag, hi.hi_tag)
        if n == "abs" and args:
            a = args[0]
            if a.lo >= 0:
                return a
            return Iv(0 if a.hi >= 0 else -a.hi, max(-a.lo, a.hi))
        if n == "random" and len(args) == 2:
            a, b = args
            return Iv(a.lo, b.hi, a.lo_why, b.hi_why, a.lo_tag, b.hi_tag)
        if n == "size" and e.args:
            c, why = self.count_ub(e.args[0])
            return Iv(0, c, None, why, "", "count", "a count")
        if n == "free":
            return Iv(0, INF)
        return TOP

    def _aggregate(self, e: A.Aggregate) -> Iv:
        if e.op == "distinct":
            return TOP
        v = self.iv(e.value)
        if e.op in ("min", "max"):
            return hull(v, const(0, ""))
        khi, why = self.count_ub(e.coll, e.cond, e)
        klo = self.count_lb(e.coll) if e.cond is None else 0
        lo = min(_mul(klo, v.lo), _mul(khi, v.lo))
        hi = max(_mul(klo, v.hi), _mul(khi, v.hi))
        ref = self.m.refs.get(e.value)
        if isinstance(ref, CardAttrRef):
            noun = "dice" if ref.mutable else "cards"
            what = "a dice total" if ref.mutable else "a total"
            hi_why = f"at most {fmt(khi)} {noun} × {fmt(v.hi)} = {fmt(hi)} can be placed here" if hi < INF else None
            lo_why = f"at least {fmt(klo)} {noun} × {fmt(v.lo)} = {fmt(lo)} are placed here" if lo > -INF else None
            return Iv(lo, hi, lo_why, hi_why, "total", "total", what)
        return Iv(lo, hi, v.lo_why, v.hi_why, v.lo_tag, v.hi_tag)

    # ------------------------------------------------------------ declared things
    def option_iv(self, name: str) -> Iv:
        def calc():
            o = self.m.options.get(name)
            if o is None:
                return TOP
            if name in self.fixed:
                x = self.iv(self.fixed[name])
                why = f"the variant sets option '{name}' to {fmt(x.lo)}" if x.const else None
                return Iv(x.lo, x.hi, why, why, "option", "option", f"option '{name}'")
            if o.type != INT:
                return TOP
            d = o.decl
            if d.low is None or d.high is None:
                return Iv(what=f"option '{name}'")
            lo, hi = self.iv(d.low), self.iv(d.high)
            rng = f"{fmt(lo.lo)}..{fmt(hi.hi)}"
            why = f"option '{name}' is in {rng} under every setting"
            return Iv(lo.lo, hi.hi, why, why, "option", "option", f"option '{name}'")
        return self._guard(("option", name), calc, TOP)

    def counter_iv(self, name: str) -> Iv:
        return self._guard(("counter", name), lambda: self._counter(name), Iv(what=f"'{name}'"))

    def counter_moves(self, name: str):
        """(can increase, can decrease, decreases only by give/take) from the game's rules."""
        inc = dec = False
        transfer_only = True
        for g in self.f.gains.get(name, ()):
            a = self.iv(g.amount)
            if g.op == "gain":
                inc |= a.hi > 0
                if a.lo < 0:
                    dec, transfer_only = True, False
            elif g.op == "lose":
                if a.hi > 0:
                    dec, transfer_only = True, False
                inc |= a.lo < 0
            elif a.hi > 0:
                inc = dec = True
        return inc, dec, transfer_only

    def _counter(self, name: str) -> Iv:
        ci = self.m.counters.get(name)
        if ci is None:
            return TOP
        d = ci.decl
        q = f"'{name}'"
        init = self.iv(d.initial) if d.initial is not None else const(0)
        lo_b = self.iv(d.low) if d.low is not None else None
        hi_b = self.iv(d.high) if d.high is not None else None
        inc, dec, transfer_only = self.counter_moves(name)
        sets = self.f.sets.get(("counter", name), ())
        start = f"it starts at {fmt(init.lo)}" if init.const else "its start value"
        track = f"{q} is a track {fmt(lo_b.lo)}..{fmt(hi_b.hi)}" if lo_b is not None and hi_b is not None else None
        lo, hi = init.lo, init.hi
        lo_why = hi_why = None
        lo_tag = hi_tag = ""
        if not inc:
            hi_why, hi_tag = f"nothing ever grants {q} ({start} and no rule gains, gives or takes it)", "never"
        elif hi_b is not None:
            if hi_b.hi >= hi:
                hi, hi_why, hi_tag = hi_b.hi, track or f"{q} never goes above {fmt(hi_b.hi)}", "track"
        else:
            hi = INF
        if d.wrap and lo_b is not None and hi_b is not None and (inc or dec):
            lo = min(lo, lo_b.lo)
            hi = max(hi, hi_b.hi)
            lo_why = hi_why = track + " that goes round"
            lo_tag = hi_tag = "track"
        elif not dec:
            lo_why, lo_tag = f"nothing ever lowers {q} ({start})", "never"
        elif lo_b is not None:
            if lo_b.lo <= lo:
                lo, lo_why, lo_tag = lo_b.lo, track or f"{q} never goes below {fmt(lo_b.lo)}", "track"
        elif transfer_only:
            if lo > 0:
                lo, lo_why, lo_tag = 0, f"{q} only goes down by 'give' and 'take', which stop at 0", ""
        else:
            lo = -INF
        for s in sets:
            x = self.iv(s.value)
            if x.lo < lo:
                lo, lo_why, lo_tag = x.lo, None, ""
            if x.hi > hi:
                hi, hi_why, hi_tag = x.hi, None, ""
        if sets:
            if hi_tag == "never":
                hi_why = f"nothing ever raises {q} above {fmt(hi)} ({start}; it is only set)"
            if lo_tag == "never":
                lo_why = f"nothing ever lowers {q} below {fmt(lo)}"
        return Iv(lo, hi, lo_why, hi_why, lo_tag, hi_tag, q)

    def var_iv(self, name: str) -> Iv:
        def calc():
            v = self.m.vars.get(name)
            if v is None or v.type != INT:
                return TOP
            parts = [self.iv(v.decl.initial)] if v.decl.initial is not None else []
            parts += [self.iv(s.value) for s in self.f.sets.get(("var", name), ())]
            if not parts:
                return TOP
            h = hull(*parts)
            return Iv(h.lo, h.hi, what=f"'{name}'")
        return self._guard(("var", name), calc, TOP)

    def _attr_sources(self, name: str):
        """The expressions that give attribute `name` its values: kind defaults and card fields."""
        m = self.m
        out = []
        info = m.attrs_by_name.get(name)
        if info is None:
            return out, True
        lacking = False
        for cd, _ in self.universe:
            k = m.kinds[cd.kind]
            if name not in k.attrs:
                lacking = True
                continue
            fld = next((f for f in cd.fields if f.name == name), None)
            if fld is not None:
                out.append(fld.value)
            else:
                ad = next((a for a in k.decl.attrs if a.name == name), None)
                out.append(ad.default if ad is not None else None)
        return out, lacking

    def attr_iv(self, name: str) -> Iv:
        def calc():
            srcs, _ = self._attr_sources(name)
            ivs = [self.iv(s) for s in srcs if s is not None]
            if not ivs:
                return TOP
            h = hull(*ivs)
            why_hi = f"no card has a '{name}' above {fmt(h.hi)}"
            why_lo = f"no card has a '{name}' below {fmt(h.lo)}"
            return Iv(h.lo, h.hi, why_lo, why_hi, "count", "count", f"'{name}'")
        return self._guard(("attr", name), calc, TOP)

    def cvar_iv(self, name: str) -> Iv:
        def calc():
            srcs, _ = self._attr_sources(name)
            ivs = [self.iv(s) for s in srcs if s is not None]
            ivs += [self.iv(s.value) for s in self.f.sets.get(("attr", name), ())]
            if not ivs:
                return TOP
            h = hull(*ivs)
            return Iv(h.lo, h.hi, what=f"'{name}'")
        return self._guard(("cvar", name), calc, TOP)

    # ------------------------------------------------------------ value sets
    def vals(self, e):
        """The possible values of a non-numeric expression, or None if unknown."""
        m = self.m
        if isinstance(e, A.Lit):
            return frozenset([e.value])
        if isinstance(e, A.Name):
            ref = m.refs.get(e)
            if ref is None:
                return None
            if isinstance(ref, (ConstRef, EffectRef)):
                return frozenset([ref.name])
            if isinstance(ref, OptionRef):
                name = self.f.option_name(ref.slot)
                if name in self.fixed:
                    x = self.fixed[name]
                    if isinstance(x, A.Name) and x.name in m.enum_of:
                        return frozenset([x.name])
                    return self.vals(x)
                t = m.options[name].type
                if t == "bool":
                    return frozenset([True, False])
                if t.enum is not None:
                    return frozenset(m.enums[t.enum])
                return None
            if isinstance(ref, LocalRef):
                b = self.f.binder(e)
                if b is None:
                    return None
                node, role = b
                if role == "elem":
                    c = node.coll
                    if isinstance(c, A.ListLit):
                        return self._union(self.vals(x) for x in c.items)
                    if isinstance(c, A.Aggregate) and c.op == "distinct":
                        return self.vals(c.value)
                    return None
                if role == "let":
                    return self.vals(node.value)
                return None
            if isinstance(ref, VarRef) and ref.whose == "shared":
                return self._var_vals(self.f.var_name(ref.slot))
            return None
        if isinstance(e, (A.Attr, A.Of)):
            match m.refs.get(e):
                case CardAttrRef(slot=s, mutable=mut):
                    return self._guard(("avals", s), lambda: self._attr_vals(self.f.attr_name(s), mut), None)
                case VarRef(whose="player", slot=s):
                    return self._var_vals(self.f.var_name(s))
                case PropRef(on="card", name="name"):
                    return self._names
                case PropRef(on="card", name="kind"):
                    return self._kinds
            return None
        if isinstance(e, A.Cond):
            return self._union([self.vals(e.then), self.vals(e.orelse)])
        if isinstance(e, A.Match):
            out = self._union(self.vals(c.value) for c in e.cases)
            if out is not None and not any(not c.patterns for c in e.cases):
                out = out | {None}
            return out
        return None

    @staticmethod
    def _union(sets):
        out = set()
        for s in sets:
            if s is None:
                return None
            out |= s
        return frozenset(out)

    def _var_vals(self, name: str):
        def calc():
            v = self.m.vars.get(name)
            if v is None:
                return None
            parts = [self.vals(v.decl.initial) if v.decl.initial is not None else frozenset([None])]
            parts += [self.vals(s.value) for s in self.f.sets.get(("var", name), ())]
            return self._union(parts)
        return self._guard(("vvals", name), calc, None)

    def _attr_vals(self, name: str, mutable: bool):
        srcs, lacking = self._attr_sources(name)
        parts = [self.vals(s) if s is not None else frozenset([None]) for s in srcs]
        if lacking:
            parts.append(frozenset([None]))
        if mutable:
            parts += [self.vals(s.value) for s in self.f.sets.get(("attr", name), ())]
        return self._union(parts)

    # ------------------------------------------------------------ collections
    def card_value(self, cd: A.CardDecl, name: str):
        """A card's printed value of an attribute (a constant), None if it lacks it,
        UNKNOWN when it is not a constant."""
        key = (id(cd), name)
        if key in self._cval:
            return self._cval[key]
        out = self._cval[key] = self._card_value(cd, name)
        return out

    def _card_value(self, cd: A.CardDecl, name: str):
        k = self.m.kinds.get(cd.kind)
        if k is None or name not in k.attrs:
            return None
        fld = next((f for f in cd.fields if f.name == name), None)
        e = fld.value if fld is not None else next((a.default for a in k.decl.attrs if a.name == name), None)
        if e is None:
            return None
        v = self.vals(e)
        if v is not None and len(v) == 1:
            return next(iter(v))
        x = self.iv(e)
        if x.const:
            return int(x.lo)
        return UNKNOWN

    def card_test(self, cond, binder, cd: A.CardDecl):
        """Whether a card can meet a filter on the item bound by `binder`: True, False or None."""
        if isinstance(cond, A.BinOp) and cond.op in ("and", "or"):
            a = self.card_test(cond.left, binder, cd)
            b = self.card_test(cond.right, binder, cd)
            if cond.op == "and":
                if a is False or b is False:
                    return False
                return True if a and b else None
            if a is True or b is True:
                return True
            return False if a is False and b is False else None
        if isinstance(cond, A.Not):
            a = self.card_test(cond.operand, binder, cd)
            return None if a is None else not a
        if isinstance(cond, A.IsKind):
            if self._is_item(cond.obj, binder):
                return cd.kind == cond.kind
            return None
        if isinstance(cond, A.BinOp) and cond.op in ("==", "!="):
            for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
                if isinstance(side, (A.Attr, A.Of)) and self._is_item(side.obj, binder):
                    ov = self.vals(other)
                    if ov is None or len(ov) != 1:
                        return None
                    want = next(iter(ov))
                    match self.m.refs.get(side):
                        case CardAttrRef(mutable=False, slot=s):
                            have = self.card_value(cd, self.f.attr_name(s))
                        case PropRef(name="name"):
                            have = cd.name
                        case PropRef(name="kind"):
                            have = cd.kind
                        case _:
                            return None
                    if have is UNKNOWN:
                        return None
                    return (have == want) if cond.op == "==" else (have != want)
        return None

    # ------------------------------------------------------------ card tests, shared
    def _features(self, cond, binder) -> tuple:
        """What `card_test(cond, binder, card)` reads of the card: 'kind', 'name' and
        ('attr', NAME) (its printed value). Cards alike in these get the same answer."""
        key = (cond, binder)
        hit = self._feats.get(key)
        if hit is None:
            out: set = set()
            self._collect_features(cond, binder, out)
            hit = self._feats[key] = tuple(sorted(out, key=repr))
        return hit

    def _collect_features(self, cond, binder, out: set) -> None:
        # mirrors card_test: every branch that reads the card adds what it reads
        if isinstance(cond, A.BinOp) and cond.op in ("and", "or"):
            self._collect_features(cond.left, binder, out)
            self._collect_features(cond.right, binder, out)
        elif isinstance(cond, A.Not):
            self._collect_features(cond.operand, binder, out)
        elif isinstance(cond, A.IsKind):
            if self._is_item(cond.obj, binder):
                out.add("kind")
        elif isinstance(cond, A.BinOp) and cond.op in ("==", "!="):
            for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
                if isinstance(side, (A.Attr, A.Of)) and self._is_item(side.obj, binder):
                    ov = self.vals(other)
                    if ov is None or len(ov) != 1:
                        return
                    match self.m.refs.get(side):
                        case CardAttrRef(mutable=False, slot=s):
                            out.add(("attr", self.f.attr_name(s)))
                        case PropRef(name="name"):
                            out.add("name")
                        case PropRef(name="kind"):
                            out.add("kind")
                    return

    def _signature(self, cd, feats: tuple) -> tuple:
        return tuple(cd.kind if f == "kind" else cd.name if f == "name" else self.card_value(cd, f[1])
                     for f in feats)

    def _grouped(self, feats: tuple):
        """Every card of the game, grouped by its values of `feats` (built once per set
        of features)."""
        hit = self._groups.get(feats)
        if hit is None:
            by: dict = {}
            for cd, c in self.universe:
                by.setdefault(self._signature(cd, feats), []).append((cd, c))
            hit = self._groups[feats] = [(sig, Cards(items, total=sum(c for _, c in items)))
                                         for sig, items in by.items()]
        return hit

    def _test(self, cond, binder, cd, sig):
        key = (cond, binder, sig)
        if key in self._tests:
            return self._tests[key]
        out = self._tests[key] = self.card_test(cond, binder, cd)
        return out

    def filter_cards(self, cards, cond, binder) -> Cards:
        """The (card, copies) of `cards` that can meet `cond` (a filter on the item bound
        by `binder`). Cards are tested once per distinct value of what the condition reads,
        and every card of the game through its index by those values: the work grows with
        the conditions and the distinct values, not conditions × cards."""
        feats = self._features(cond, binder)
        if getattr(cards, "whole", False) or cards is self.universe:
            out, total, head = Cards(), 0, []
            for sig, group in self._grouped(feats):
                if self._test(cond, binder, group[0][0], sig) is not False:
                    out.extend(group)
                    total += group.total
                    head.extend(group[:_HEAD])
            out.total = total
            head.sort(key=lambda x: self._order[id(x[0])])
            out.head = head[:_HEAD]
            return out
        return Cards([(cd, c) for cd, c in cards
                      if self._test(cond, binder, cd, self._signature(cd, feats)) is not False])

    def whole(self) -> Cards:
        """Every card of the game (a copy)."""
        return Cards(self.universe, whole=True, total=self.ncards)

    def _is_item(self, e, binder) -> bool:
        return isinstance(e, A.Name) and isinstance(self.m.refs.get(e), LocalRef) and \
            (self.f.binder(e) or (None,))[0] is binder

    def cards_in(self, coll):
        """The card declarations a card collection can hold: a list of (card, copies), or None
        when the collection is not of cards."""
        m = self.m
        t = m.types.get(coll)
        if isinstance(coll, A.Quant) and coll.op == "filter":
            base = self.cards_in(coll.coll)
            if base is None or coll.cond is None:
                return base
            return self.filter_cards(base, coll.cond, coll)
        if isinstance(coll, A.Call) and coll.name == "named" and m.refs.get(coll) == BuiltinRef("named"):
            v = self.vals(coll.args[0])
            if v is None:
                return self.whole()
            return Cards((cd, c) for cd, c in self.universe if cd.name in v)
        if isinstance(coll, A.Call) and coll.name == "first" and len(coll.args) == 2:
            return self.cards_in(coll.args[1])
        if isinstance(coll, A.Name) and isinstance(m.refs.get(coll), LocalRef):
            b = self.f.binder(coll)
            if b is not None and b[1] == "list":
                node = b[0]
                base = self.cards_in(node.coll)
                if base is not None and node.cond is not None:
                    base = self.filter_cards(base, node.cond, node)
                return base
            if b is not None and b[1] == "let":
                return self.cards_in(b[0].value)
        if t is not None and t.holds_cards:
            return self.whole()
        return None

    def count_ub(self, coll, cond=None, binder=None):
        """(the most items `coll` can hold that meet `cond`, why) — INF when unknown."""
        m = self.m
        cards = self.cards_in(coll)
        if cards is not None:
            if cond is not None and binder is not None:
                cards = self.filter_cards(cards, cond, binder)
            n = total_copies(cards)
            lim, lim_why = self._subset_limit(coll)
            if lim < n:
                return lim, lim_why
            if n == 0 and cond is not None:
                return 0, f"no card of the game meets `{self.f.source(cond)}`"
            return n, self._cards_why(cards, n)
        if isinstance(coll, A.Name):
            ref = m.refs.get(coll)
            if ref == BuiltinRef("players") or ref == BuiltinRef("players_in"):
                return m.max_players, f"there are at most {m.max_players} players"
            if ref == BuiltinRef("others"):
                return m.max_players - 1, f"there are at most {m.max_players - 1} other players"
            if isinstance(ref, LocalRef):
                b = self.f.binder(coll)
                if b is not None and b[1] == "let":
                    return self.count_ub(b[0].value)
        if isinstance(coll, A.EveryZone):
            return m.max_players, f"there are at most {m.max_players} players"
        if isinstance(coll, A.ListLit):
            return len(coll.items), f"the list has {len(coll.items)} items"
        if isinstance(coll, A.Call) and isinstance(m.refs.get(coll), BuiltinRef):
            if coll.name == "order_from":
                return m.max_players, f"there are at most {m.max_players} players"
            if coll.name == "range":
                a, b = self.iv(coll.args[0]), self.iv(coll.args[1])
                n = max(0, b.hi - a.lo + 1)
                return n, f"the range has at most {fmt(n)} numbers"
            if coll.name == "first" and len(coll.args) == 2:
                k = self.iv(coll.args[0])
                n, why = self.count_ub(coll.args[1])
                return (k.hi, f"'first' takes at most {fmt(k.hi)}") if k.hi < n else (n, why)
        if isinstance(coll, A.Quant) and coll.op == "filter":
            return self.count_ub(coll.coll, coll.cond, coll)
        if isinstance(coll, A.Aggregate) and coll.op == "distinct":
            n, why = self.count_ub(coll.coll, coll.cond, coll)
            v = self.vals(coll.value)
            if v is not None and len(v - {None}) < n:
                k = len(v - {None})
                return k, f"there are only {k} different values of `{self.f.source(coll.value)}`"
            return n, why
        return INF, None

    def _subset_limit(self, coll):
        """A picked subset has at most its `size` high bound."""
        if isinstance(coll, A.Name) and isinstance(self.m.refs.get(coll), LocalRef):
            b = self.f.binder(coll)
            if b is not None and b[1] == "list" and b[0].high is not None:
                h = self.iv(b[0].high)
                return h.hi, f"at most {fmt(h.hi)} can be picked (size ..{fmt(h.hi)})"
        return INF, None

    def count_lb(self, coll) -> float:
        if isinstance(coll, A.Name) and isinstance(self.m.refs.get(coll), LocalRef):
            b = self.f.binder(coll)
            if b is not None and b[1] == "list":
                lo = self.iv(b[0].low).lo if b[0].low is not None else 0
                return max(0, lo)
        return 0

    def _cards_why(self, cards, n) -> str:
        if n == self.ncards:
            return f"the game has {n} cards"
        head = getattr(cards, "head", None)
        first = head if head is not None else cards[:_HEAD]  # in the order of the game's cards
        names = [f"{cd.name} ×{c}" if c > 1 else cd.name for cd, c in first]
        shown = ", ".join(names[:4]) + (", ..." if len(cards) > 4 else "")
        if n == 0:
            return "no card can match"
        return f"only {n} card{'s' if n != 1 else ''} can match ({shown})"
