"""Generating statements: each is written out, with the code writer (engine/writer.py), into
the generated function of its block, a plain function ``f(st, env)`` or, when it can ask a
player something, a generator function yielding Decisions. What the generated lines call is
listed in engine/runtime.py. (A mixin of the compiler in compile.py.)"""
from __future__ import annotations

from ..check.model import (CARD, ZONE, CardAttrRef, CounterRef, DefRef, EffectRef, KindDefRef, PhaseRef, VarRef,
                           ZoneFamilyRef, ZoneRef, elem, is_builtin)
from ..syntax import ast as A
from . import runtime
from .budget import MAX_INT
from .common import HELD_PREFIX, MAX_SUBSETS, SECRET_PICKS, Fn
from .expressions import ExpressionCompiler
from .runtime import _always, _first  # noqa: F401  (compile.py reads _first here)
from .writer import Writer, fragment

MAX_REPEATS = 10_000  # `repeat while`: a loop that goes round more often than this is an error
MAX_NUMBERS = 100_000  # `choose number`: the most numbers one choice may offer


def _holds_cards(m, coll) -> bool:
    """A collection of cards (a zone, a list of cards or of a kind's cards)."""
    t = elem(m.types.get(coll) or "") or ""
    return t == CARD or t in m.kinds


_CHOICES = (A.Choose, A.ChooseOne, A.ChooseNumber, A.ChooseSubset, A.ChooseN)


def head_choice(stmts) -> A.Stmt | None:
    """The choice a block begins with, when it is one made by me (no `by`, not `at random`)."""
    s = stmts[0] if stmts else None
    return s if isinstance(s, _CHOICES) and s.chooser is None else None


def head_choices(action_stmts) -> list:
    """The choices at the head of an action: its first statement after its requires when it is a
    choice made by me, and again the first statement of that choice's body (of each option's,
    for `choose { option ... }`), and so on, before any other statement. In a simultaneous
    phase they are made with the pick, sealed (turns._Head)."""
    out: list = []
    todo = [head_choice([x for x in action_stmts if not isinstance(x, A.Require)][:1])]
    while todo:
        s = todo.pop()
        if s is None:
            continue
        out.append(s)
        if isinstance(s, A.ChooseOne):
            todo.extend(head_choice(o.body.stmts) for o in reversed(s.options))
        elif isinstance(s, (A.Choose, A.ChooseNumber, A.ChooseSubset, A.ChooseN)):
            todo.append(head_choice(s.body.stmts))
    return out


class StatementCompiler(ExpressionCompiler):
    """Statements, over the expressions of ExpressionCompiler; the compiler (compile._Compiler)
    sets the tables declared here before any statement is generated."""

    playout = False  # the playout flavour: an agent decides every choice, nothing is yielded (compile.py)
    option_fns: dict  # choose statement -> the function listing its options
    reach: dict[int, list]  # counter slot -> its `when ... reaches` triggers
    handlers: dict[str, list]  # event -> its handlers

    def __init__(self):
        super().__init__()
        # filled as generation needs them
        self._bounds_fns: dict = {}  # counter slot -> its bounds' functions (bounds)
        self._firsts: set | None = None  # the statements a turn may work out the options of (_first_choice)
        self._sealed_ids: set | None = None  # the head choices of simultaneous phases' actions (_sealed)
        self._choice_ids: dict = {}  # choose-one statement -> its number (_one_options)

    _log_move = staticmethod(runtime._log_move)  # (CompiledGame logs the moves of its setup with it)

    def bounds(self, slot: int) -> tuple:
        """A counter's bounds as (low, high): functions of (st, env) with me the counter's
        player, or None; compiled once per counter."""
        cache = self._bounds_fns
        if slot not in cache:
            d = self.g.counter_info[slot].decl
            cache[slot] = (self.expr(d.low) if d.low is not None else None,
                           self.expr(d.high) if d.high is not None else None)
        return cache[slot]

    def _subset_options(self, s: A.ChooseSubset) -> Fn:
        """The options of `choose subset x of L [where C] [size A..B] [if T]`, generated: every
        subset of the items meeting C with a size in A..B that passes T, smallest first, in the
        order of the items (as itertools.combinations gives them); the subsets there are to try
        are counted before any is tried, and are steps of the budget."""
        ck = self.m.slots.get(s.cond) if s.cond is not None else None
        k = self.m.slot(s)

        def build():
            ls, c = self.xiter(s.coll) if s.cond is not None else self.xcoll(s.coll)
            ls, c = self.spill(ls, c)
            fl, fv = self.filter_lines(s.cond, ck, c, s.coll)
            items, a, b, tried, opts, size, combo = (self.tmp() for _ in range(7))
            w = fragment(ls + fl)
            w.line(f"{items} = list({fv})")
            if s.low is not None:
                lo_l, lo_v = self.x(s.low)
                w.lines(lo_l)
                w.line(f"{a} = max(0, {lo_v})")
            else:
                w.line(f"{a} = 0")
            if s.high is not None:
                hi_l, hi_v = self.x(s.high)
                w.lines(hi_l)
                w.line(f"{b} = min(len({items}), {hi_v})")
            else:
                w.line(f"{b} = len({items})")
            span = self.k(s.span)
            w.line(f"{tried} = _subset_tries(len({items}), {a}, {b}, {span})")
            w.line(f"{opts} = []")
            with w.block(f"for {size} in range({a}, {b} + 1):"), w.block(f"for {combo} in _combinations({items}, {size}):"):
                if s.test is not None:
                    with self._bound(k, "_s") as v:
                        tl, tv = self.x(s.test)
                    w.line(f"{v} = list({combo})")
                    w.lines(tl)
                    with w.block(f"if not {tv}:"):
                        w.line("continue")
                    w.line(f"{opts}.append({v})")
                else:
                    w.line(f"{opts}.append(list({combo}))")
                with w.block(f"if len({opts}) > {MAX_SUBSETS}:"):
                    w.line(f"raise _GameError({self.k(f'more than {MAX_SUBSETS} subsets to choose from')}, {span})")
            w.step(span, tried)
            return w.code, opts
        return self._root("st, env", build, s.span, s.span)

    # ================================================================ generated statements
    # Each l_NODE(s, w) writes the statement into the writer of the function being generated
    # (engine/writer.py), each line at the span of the statement it was written for (a fault on
    # that line is reported there), and says whether it may yield (ask a player). Every statement
    # has one: what the generated code calls besides are the module-level helpers below (logs,
    # shuffles, swaps, the triggers of a counter), given constants and values, never closures
    # made per statement.
    def writer(self, span=None) -> Writer:
        """A writer for a generated function of this flavour."""
        return Writer(span, self.playout)

    def write_stmts(self, w: Writer, stmts) -> bool:
        """The statements in order (`pass` for none); True when one may yield."""
        n = len(w)
        is_gen = False
        for s in stmts:
            is_gen = self.write_stmt(w, s) or is_gen
        if len(w) == n:
            w.line("pass", None)
        return is_gen

    def write_stmt(self, w: Writer, s) -> bool:
        with w.at(s.span):
            return getattr(self, "l_" + type(s).__name__)(s, w)

    def _drive(self, w: Writer, call: str) -> None:
        """Run a generator the call gives: its decisions passed on (in the playout flavour,
        where nothing is asked, run through)."""
        if self.playout:
            with w.block(f"for _y in {call}:"):
                w.line("pass")
        else:
            w.line(f"yield from {call}")

    def zone_family(self, e, lines, src) -> int | None:
        """The zone family of a destination, when the rules fix it: a shared zone's name, `Z of p`
        (a number worked out from the family's base: never none; a none player is a fault), or a
        name bound over `every Z` (`ctx.zones`); else None."""
        ref = self.m.refs.get(e)
        if isinstance(ref, ZoneRef) and ref.whose != "card":
            return ref.slot
        return self.ctx.zones.get(src) if not lines else None

    def _given_options(self, w: Writer, s, opts: str, fn) -> None:
        """`opts` = the choice's options: those the turn just worked out for an action's first
        choice (st.known_opts), else fn's."""
        if not self._first_choice(s):  # (no turn works out this choice's options ahead)
            w.line(f"{opts} = {self.k(fn)}(st, env)")
            return
        ko, node = self.tmp(), self.k(s)
        w.line(f"{ko} = st.known_opts")
        with w.block(f"if {ko} is not None and {ko}[0] is {node}:"):
            w.line(f"{opts} = {ko}[1]")
            w.line("st.known_opts = None")
        with w.block("else:"):
            w.line(f"{opts} = {self.k(fn)}(st, env)")

    def _first_choice(self, s) -> bool:
        """May a turn have worked out this choice's options ahead (st.known_opts)? Only for the
        first statement after the requires of an action, a choice made by me (see the turn loop)."""
        firsts = self._firsts
        if firsts is None:
            firsts = self._firsts = set()
            for a in self.m.actions.values():
                first = next((x for x in a.decl.body.stmts if not isinstance(x, A.Require)), None)
                if isinstance(first, (A.Choose, A.ChooseSubset)):
                    firsts.add(id(first))
        return id(s) in firsts

    def _presets(self) -> bool:
        """Can a choice have been made ahead (st.preset)? Only in a phase of simultaneous turns."""
        return any(ph.decl.simultaneous for ph in self.m.phases)

    def _sealed(self, s) -> bool:
        """Is s a choice at the head of an action of a simultaneous phase (made ahead, with the
        pick: head_choices)? (`choose x in` and `choose { option }` read st.preset in every game
        with such a phase, _take.)"""
        sealed = self._sealed_ids
        if sealed is None:
            sealed = self._sealed_ids = set()
            names = {ref.name for ph in self.m.phases if ph.decl.simultaneous for ref in ph.decl.actions}
            for name in sorted(names):
                sealed.update(id(x) for x in head_choices(self.m.actions[name].decl.body.stmts))
        return id(s) in sealed


    def l_Reveal(self, s, w) -> bool:
        """`reveal X`: every player now knows the card(s); a card not in a hidden zone turns face up
        (a line in the log for each card that turned, or that is shown from a hidden pile)."""
        know = not self.playout
        k = self.local_slot(s.what)
        c, z = self.tmp(), self.tmp()

        def each():
            if know:
                w.line(f"st.seen[{c}] = (1 << st.n) - 1")
            w.line(f"{z} = st.loc[{c}]")
            with w.block(f"if {z} < 0 or not st.zhidden[{z}]:"), w.block(f"if st.facedown[{c}]:"):
                w.line(f"st.facedown[{c}] = False")
                with w.logged():
                    w.line(f"_log_reveal(st, _g, {c})")
            with w.muted(not know), w.block("elif st.log is not None:"):
                w.line(f"_log_reveal(st, _g, {c})")
        if k is not None and self.m.types.get(s.what) == CARD:  # (a card just drawn, in a local)
            w.line(f"{c} = env[{k}]")
            if f"env[{k}]" in self.ctx.cards:  # (bound over a zone: a card, never none)
                each()
            else:
                with w.block(f"if {c} is not None:"):
                    each()
            return False
        cl, cs = self.xcards(s.what)
        w.lines(cl)
        with w.block(f"for {c} in {cs}:"):
            with w.block(f"if {c} is None:"):
                w.line("continue")
            each()
        return False

    def l_Look(self, s, w) -> bool:
        """`look at X`: the player acting now knows the card(s) (a line only they can read)."""
        cl, cs = self.spill(*self.xcards(s.what))
        w.lines(cl)
        if self.playout:  # (what a player knows is read by logs and views only)
            return False
        c = self.tmp()
        with w.block(f"for {c} in {cs}:"), w.block(f"if {c} is not None and env[0] is not None:"):
            w.line(f"st.seen[{c}] |= 1 << env[0]")
            with w.logged():
                w.line(f"_log_look(st, _g, env[0], {c})")
        return False

    def l_Shuffle(self, s, w) -> bool:
        """`shuffle Z`: Fisher-Yates with the game's RNG; nobody knows where a face-down card went."""
        zl, z = self.spill(*self.x(s.zone))
        w.lines(zl)
        # (the fast layout keeps a zone whose order nothing reads in card order: nothing to shuffle)
        if self.sorted_zone(s.zone) is None:
            w.line(f"_shuffle(st.zones[{z}], st.rng.random)")
        if not self.playout:
            c = self.tmp()
            with w.block(f"for {c} in st.zones[{z}]:"), w.block(f"if st.facedown[{c}]:"):
                w.line(f"st.seen[{c}] = 0")
            with w.logged():
                w.line(f"_log_shuffle(st, _g, {z})")
        return False

    def l_Swap(self, s, w) -> bool:
        """`swap A with B`: each card takes the other's place."""
        al, a = self.spill(*self.x(s.a))
        bl, b = self.spill(*self.x(s.b))
        w.lines(al + bl)
        w.line(f"_swap(st, _g, {a}, {b}, {self.k(s.span)})")
        return False

    def l_Show(self, s, w) -> bool:
        """`show X to p`: p now knows the card(s)."""
        tl, t = self.spill(*self.x(s.to))  # (to whom first: nobody is an error before the cards are worked out)
        span = self.k(s.span)
        cl, cs = self.spill(*self.xcards(s.what))
        w.lines(tl)
        with w.block(f"if {t} is None:"):
            w.line(f"raise _GameError({self.k('show to nobody (the player is none)')}, {span})")
        w.lines(cl)
        w.line(f"_show(st, _g, {cs}, {t}, env[0])")
        return False

    def l_Require(self, s, w) -> bool:
        return False  # a leading require is compiled as the precondition; nothing to run

    def l_EndGame(self, s, w) -> bool:
        w.line("raise _GameOver")
        return False

    def l_Log(self, s, w) -> bool:
        t = self.k(s.text)
        with w.logged():
            w.line(f'st.log.append(({t}, None, {{"type": "log", "text": {t}}}))')
        return False

    def l_Let(self, s, w) -> bool:
        ls, v = self.x(s.value)
        w.lines(ls)
        w.line(f"env[{self.m.slots[s]}] = {v}")
        return False

    def l_NextTurn(self, s, w) -> bool:
        ls, v = self.spill(*self.x(s.player))
        w.lines(ls)
        with w.block(f"if {v} is None:"):
            w.line(f"raise _GameError({self.k('next turn of nobody (the player is none)')}, {self.k(s.span)})")
        w.line(f"st.next_player = {v}")
        return False

    def l_Eliminate(self, s, w) -> bool:
        ls, v = self.spill(*self.x(s.player))
        w.lines(ls)
        with w.block(f"if {v} is None:"):
            w.line(f"raise _GameError({self.k('eliminate nobody (the player is none)')}, {self.k(s.span)})")
        with w.block(f"if {v} not in st.out:"):  # (out once: a second time changes nothing)
            w.line(f"st.out.append({v})")
            with w.logged():
                w.line(f'st.log.append((f"P{{{v} + 1}} is out of the game", None, {{"type": "out", "player": {v}}}))')
        return False

    def l_Set(self, s, w) -> bool:
        vtype = self.m.types.get(s.target)
        ref = self.m.refs[s.target]
        assert isinstance(ref, (CardAttrRef, VarRef, CounterRef)), ref  # (what `set` may name)
        slot = ref.slot
        # a zone set where a list of cards is kept: its cards as they are now
        ls, v = self.xcards(s.value) if vtype is not None and vtype.is_list and self.m.types.get(s.value) == ZONE \
            else self.x(s.value)
        if vtype == "int" and self._may_grow(s.value):  # a whole number stored: in range
            v = f"_num({v}, {self.k(s.span)})"
        if isinstance(ref, CardAttrRef) and ref.mutable:  # the card first, then the value
            ol, o = self.spill(*self.x(s.target.obj))
            ls, v = self.spill(ls, v)
            w.lines(ol + ls)
            w.line(f"st.cvars[{slot}][{o}] = {v}")
            aname = s.target.name
            # an attribute every kind that has it marks `unlabelled` is bookkeeping: no line
            quiet = all(ad.unlabelled for k in self.m.kinds.values() for ad in k.decl.attrs if ad.name == aname)
            if not quiet and not self.playout:
                with w.logged():
                    w.line(f"_log_set(st, _g, {o}, {self.k(aname)}, {v}, {self.k(vtype)})")
            return False
        table = "vars" if isinstance(ref, VarRef) else "counters"
        if isinstance(ref, (VarRef, CounterRef)) and ref.whose == "shared":
            w.lines(ls)
            w.line(f"st.{table}[{slot}][0] = {v}")
            return False
        ls, v = self.spill(ls, v)  # the value first, then whose (as Python assigns)
        ol, o = self.x(s.target.obj)
        w.lines(ls + ol)
        w.line(f"st.{table}[{slot}][{o}] = {v}")
        return False

    def l_If(self, s, w) -> bool:
        tl, t = self.x(s.test)
        w.lines(tl)
        with w.block(f"if {t}:"):
            g1 = self.write_stmts(w, s.then.stmts)
        g2 = False
        if s.orelse is not None:
            with w.block("else:"):
                g2 = self.write_stmts(w, s.orelse.stmts)
        return g1 or g2

    def l_For(self, s, w) -> bool:
        cl, c = self.x(s.coll)
        k = self.m.slot(s)
        src = f"list(st.zones[{c}])" if self.m.types.get(s.coll) == ZONE else f"list({c})"
        body = self.writer()
        g = self.write_stmts(body, s.body.stmts)
        few = isinstance(s.coll, A.EveryZone) or isinstance(s.coll, A.Name) and \
            is_builtin(self.m.refs.get(s.coll), "players", "others")  # (at most 100 rounds)
        # the cards left to go, where a search bot can re-deal them (bots.remap_held) when the body
        # may decide (in the playout flavour nothing is a generator: every loop of cards)
        if (g or self.playout) and _holds_cards(self.m, s.coll):
            held = self.tmp(HELD_PREFIX)
            cl, src = cl + [f"{held} = {src}"], held
        w.lines(cl)
        with w.block(f"for env[{k}] in {src}:"):
            if not few:
                w.step(self.k(s.span))
            if s.cond is not None:
                kl, kv = self.x(s.cond)
                w.lines(kl)
                with w.block(f"if {kv}:"):
                    w.write(body)
            else:
                w.write(body)
        return g

    def l_Repeat(self, s, w) -> bool:
        i = self.tmp()
        cl, c = self.x(s.cond)
        body = self.writer()
        g = self.write_stmts(body, s.body.stmts)
        msg = self.k(f"'repeat while' went round {MAX_REPEATS} times: its condition never became false")
        w.line(f"{i} = 0")
        with w.block("while True:"):
            w.lines(cl)
            with w.block(f"if not {c}:"):
                w.line("break")
            w.line(f"{i} += 1")
            with w.block(f"if {i} > {MAX_REPEATS}:"):
                w.line(f"raise _GameError({msg}, {self.k(s.span)})")
            w.step(self.k(s.span))
            w.write(body)
        return g

    def _may_grow(self, e, adds: bool = False) -> bool:
        """A value that may be outside the range of whole numbers (arithmetic, a sum, a def's
        result; `adds`: added again and again, so anything but a small number): checked when
        stored. A copy of a stored value, a die's roll, a count of cards is in range."""
        if adds:
            return not (isinstance(e, A.Lit) and type(e.value) is int and abs(e.value) < 10 ** 6)
        for n in A.walk(e):
            if isinstance(n, (A.BinOp, A.Neg)) and getattr(n, "op", "-") in ("+", "-", "*") \
                    or isinstance(n, A.Aggregate) and n.op == "sum" \
                    or isinstance(n, (A.Call, A.Name, A.Attr, A.Of)) and isinstance(self.m.refs.get(n), (DefRef, KindDefRef)):
                return True
        return False


    def _moved(self, w: Writer, c: str, d: str, top: bool, face: str | None, span: str, log_if: str | None,
               check_dest: bool = True, fam: int | None = None) -> None:
        """Card c (never none) into zone d, checked, with its line in the log when `log_if` holds
        (None: never, as in the playout flavour): the one implementation of a move."""
        if check_dest:
            with w.block(f"if {d} is None:"):
                w.line(f"raise _GameError({self.k('move to nowhere (the destination is none)')}, {span})")
        if self.g.has_card_zones:  # (a card put on itself, or on a card it holds)
            with w.block(f"if st.zholder[{d}] >= 0 and st.lands_on_itself({c}, {d}):"):
                w.line(f"raise _GameError(_g.card_name[{c}] + {self.k(' cannot be put on itself (or on a card it holds)')}, {span})")
        kn = self.tmp()
        if log_if is not None:  # who saw it before it moved still knows it
            w.line(f"{kn} = st.vis_mask({c}) if {log_if} else 0")
        o = self._move_lines(w, c, d, top, face, fam)
        if log_if is not None:
            with w.block(f"if {log_if}:"):
                w.line(f"_log_move(st, _g, {c}, {o}, {d}, {self.k(face)}, env[0], {kn})")

    def l_Move_many(self, s, w) -> bool:
        """`move CARDS to Z`: each card in turn (in the log a line each when there are at most
        three, else one line for all); `move cards to Z`: everything at once."""
        dl, d = self.x(s.dest)
        fam = self.zone_family(s.dest, dl, d)
        dl, d = self.spill(dl, d)
        span = self.k(s.span)
        z, c, many = self.tmp(), self.tmp(), self.tmp()
        w.lines(dl)
        w.line(f"{z} = {d}")
        with w.block(f"if {z} is None:"):
            w.line(f"raise _GameError({self.k('move to nowhere (the destination is none)')}, {span})")
        top = s.position != "bottom"
        logged = not self.playout
        if is_builtin(self.m.refs.get(s.what), "cards") and top:  # everything at once
            w.line(f"st.move_everything({z}, {self.k(s.face)}, env[0])")
            with w.logged():
                w.line(f"_log_many(st, _g, st.all_cards, {z}, True)")
            return False
        cl, cs = self.spill(*self.xcards(s.what))
        w.lines(cl)
        if logged:
            w.line(f"{many} = st.log is None or len({cs}) > 3")
        with w.block(f"for {c} in {cs}:"):
            with w.block(f"if {c} is None:"):
                w.line("continue")
            self._moved(w, c, z, top, s.face, span, f"not {many}" if logged else None, False, fam)
        with w.muted(not logged), w.block(f"if st.log is not None and {many}:"):
            w.line(f"_log_many(st, _g, {cs}, {z})")
        return False

    def l_Move(self, s, w) -> bool:
        if self.m.types.get(s.what) != CARD:
            return self.l_Move_many(s, w)
        # `top(Z)` of an empty zone moves nothing (drawing from an empty pile draws nothing);
        # any other card that is none here is a mistake in the rules
        may_be_nothing = isinstance(s.what, A.Call) and is_builtin(self.m.refs.get(s.what), "top")
        cl, c = self.x(s.what)
        known = not cl and c in self.ctx.cards  # a name bound over a zone: a card, never none
        cl, c = self.spill(cl, c)
        dl, d = self.x(s.dest)
        fam = self.zone_family(s.dest, dl, d)  # (a zone of a known family: never none)
        dl, d = self.spill(dl, d)
        span = self.k(s.span)
        w.lines(cl)
        with w.maybe(None if known else f"if {c} is not None:"):
            w.lines(dl)
            self._moved(w, c, d, s.position != "bottom", s.face, span, None if self.playout else "st.log is not None",
                        fam is None, fam)
        if not known and not may_be_nothing:
            with w.block("else:"):
                w.line(f"raise _GameError({self.k('move of nothing: the card is none')}, {span})")
        return False

    def _move_lines(self, w: Writer, c: str, d: str, top: bool, face: str | None, fam: int | None = None) -> str:
        """The store's bookkeeping of a move of card c into zone d, written; the temporary holding
        its old zone. What a player knows of a card (st.seen) is kept only where a log, a view or
        a scenario may read it: not in the playout flavour."""
        o = self.tmp()
        know = not self.playout
        w.line(f"{o} = st.loc[{c}]")
        with w.muted(not know), w.block(f"if {o} >= 0 and st.zprivate[{o}] and not st.facedown[{c}]:"):
            w.line(f"st.seen[{c}] |= 1 << st.zowner[{o}]")  # (what its owner saw stays seen: a card given away)
        if self.g.has_card_zones:  # the cards on its zones drop first (State.drop_held)
            with w.block(f"if st.holds is not None and st.holds[{c}] is not None and {o} >= 0 and {o} != {d}:"):
                w.line(f"st.drop_held({c}, {o})")
        with w.block(f"if {o} >= 0:"):
            w.line(f"st.zones[{o}].remove({c})")
        put = f"st.zones[{d}].append({c})" if top else f"st.zones[{d}].insert(0, {c})"
        kept = self.g.sorted_fams  # (the fast layout: a zone whose order nothing reads is kept in card order)
        if kept and fam is not None and fam in kept:
            w.line(f"_insort(st.zones[{d}], {c})")
        elif kept and fam is None:
            with w.block(f"if st.zsorted[{d}]:"):
                w.line(f"_insort(st.zones[{d}], {c})")
            with w.block("else:"):
                w.line(put)
        else:
            w.line(put)
        w.line(f"st.loc[{c}] = {d}")
        hidden = None if fam is None else self.g.zone_vis[fam] == "hidden"  # (a zone of a known family)
        if face is None and hidden:
            w.line(f"st.facedown[{c}] = True")
            with w.muted(not know):
                w.line(f"st.seen[{c}] = 0")
        elif face is None:
            if hidden is None:
                with w.block(f"if st.zhidden[{d}]:"):
                    w.line(f"st.facedown[{c}] = True")
                    with w.muted(not know):
                        w.line(f"st.seen[{c}] = 0")
                with w.block(f"elif {o} < 0 or st.zhidden[{o}]:"):
                    w.line(f"st.facedown[{c}] = False")
            else:
                with w.block(f"if {o} < 0 or st.zhidden[{o}]:"):
                    w.line(f"st.facedown[{c}] = False")
            with w.muted(not know), w.block(f"elif st.zprivate[{d}]:"):
                w.line(f"st.seen[{c}] |= 1 << st.zowner[{d}]")
        elif face == "facedown":
            w.line(f"st.facedown[{c}] = True")
            with w.muted(not know):
                w.line(f"st.seen[{c}] = (1 << env[0]) if env[0] is not None else 0")
        else:
            w.line(f"st.facedown[{c}] = False")
        return o

    def choose_options(self, s) -> Fn:
        """The function listing a choice's options (what its legality check and the choice read)."""
        f = self.option_fns.get(s)
        if f is None:
            if isinstance(s, A.Choose):
                f = self.options_of(s.cond, self.m.slot(s), s.coll, s.span)
            elif isinstance(s, A.ChooseSubset):
                f = self._subset_options(s)
            elif isinstance(s, A.ChooseOne):
                f = self._root("st, env", lambda: (self._one_options(s, "_opts"), "_opts"), s.span, s.span)
            else:  # (choose N: offered even if nothing is left, it may pick none)
                f = _always
            self.option_fns[s] = f
        return f


    def l_Choose(self, s, w) -> bool:
        ctype = self.m.types.get(s.coll)
        t = elem(ctype) if ctype else None
        k = self.m.slot(s)
        prompt = s.prompt or f"choose {s.var}"
        is_random = s.chooser is not None and s.chooser.random
        opts_fn = self.choose_options(s)
        kp, kt, ks, node = self.prompt_k(s, prompt), self.k(t), self.k(s.span), self.k(s)
        x = self.tmp()
        body = self.writer()
        if ctype == ZONE:
            ref = self.m.refs.get(s.coll)
            stmts = s.body.stmts
            first = stmts[0] if stmts else None
            if self.playout and isinstance(ref, ZoneRef) and ref.whose == "shared" and self.g.zone_vis[ref.slot] == "hidden" \
                    and isinstance(first, A.Reveal) and self.local_slot(first.what) == k:
                # revealing the card just picked, still in its hidden zone, changes nothing but what
                # each player knows (and the log): nothing to write where no one reads those
                stmts = stmts[1:]
            with self.known_card(f"env[{k}]"):  # the pick, in the body: a card, never none
                body_gen = self.write_stmts(body, stmts)
        elif isinstance(s.coll, A.EveryZone):  # the pick, in the body: a zone of that family, never none
            zf = self.m.refs[s.coll]
            assert isinstance(zf, ZoneFamilyRef), zf
            with self.inner(zones={**self.ctx.zones, f"env[{k}]": zf.slot}):
                body_gen = self.write_stmts(body, s.body.stmts)
        else:
            body_gen = self.write_stmts(body, s.body.stmts)
        if is_random:
            among = self._random_pick(w, s, k, x)
            with w.block(f"if {x} is not None:"):
                with w.logged():
                    w.line(f"_log_random(st, _g, {x}, {kp}, {kt}" + (f", {among})" if among is not None else ")"))
                w.line(f"env[{k}] = {x}")
                w.write(body)
            return body_gen
        opts, p, pre = self.tmp(), self.tmp(), self.tmp()
        _, bl, bv = self._chooser_lines(s)
        self._given_options(w, s, opts, opts_fn)
        with w.block(f"if {opts}:"):
            w.lines(bl)
            w.line(f"{p} = {bv}")
            self._take(w, x, f"{opts}[{self.ask(opts, p, kp, kt, ks)}]", node, pre)
            with w.logged():
                w.line(f"_log_choice(st, _g, {p}, {x}, {kp}, {kt})")
            w.line(f"env[{k}] = {x}")
            w.write(body)
        return not self.playout

    def _take(self, w: Writer, x: str, ask: str, node: str, pre: str) -> None:
        """x = the option `ask` takes; in a phase of simultaneous turns, the pick made ahead for
        this choice (st.preset, held in `pre`) when there is one."""
        if not self._presets():
            w.line(f"{x} = {ask}")
            return
        w.line(f"{pre} = st.preset")
        with w.block(f"if {pre} is not None and {node} in {pre}:"):  # chosen ahead, in a simultaneous phase's pick
            w.line(f"{x} = {pre}.pop({node})")
        with w.block("else:"):
            w.line(f"{x} = {ask}")

    @staticmethod
    def bot_pick(opts: str, p: str) -> str:
        """The playout flavour's pick among `opts` (not one): the uniform bot's, written out, when
        runner.playout set it (st.bot_random; each decision counted, at most st.bot_max), else st.agent's.
        A decision with one option is taken without asking, and counted in st.forced."""
        return (f"(st.forced.append(0) or 0) if len({opts}) == 1 else st.agent({p}, {opts}) if st.bot_random is None else "
                f"_int(st.bot_random() * len({opts})) if st.bot_count() <= st.bot_max else _too_long()")

    def prompt_k(self, s: A.Stmt, prompt: str) -> str:
        """A choice's prompt in generated code: its text, or (a prompt with holes) the call that
        fills them in with their values in the choice's frame when it is asked."""
        if s not in self.m.prompt_holes:
            return self.k(prompt)
        return f"_prompt_text(st, _g, {self.k(s)}, env)"

    def ask(self, opts: str, p: str, kp: str, kt: str, ks: str | None = None, with_st: bool = True) -> str:
        """Which of the options `opts` player p takes: the only one without asking, else the
        agent's pick, else the player's (a yield). A playout has an agent and no scenario
        recording the options offered: the agent's pick, no yield."""
        if self.playout:
            return self.bot_pick(opts, p)
        if kp.startswith("_prompt_text(") and kp.endswith(", env)"):  # (holes: as the chooser may read them)
            kp = f"{kp[:-1]}, {p})"
        span = f", {ks}" if ks is not None else ""
        return (f"0 if len({opts}) == 1 and _only_option(st, {p}, {opts}, {kp}, {kt}{span}) else "
                f"st.agent({p}, {opts}) if st.agent is not None else (yield _Decision({p}, {opts}, {kp}, {kt}{span}{', st' if ks and with_st else ''}))")


    def _random_pick(self, w: Writer, s, k, x: str) -> str | None:
        """`choose x in L at random` written out: x = one of the options, drawn with the game's
        RNG (none when there is none). Returns how many options there were, as an expression
        for the log line (None where the draw does not list them)."""
        mask, rest = self._kind_split(s.cond, k)
        ls, src = self.spill(*self.xcoll(s.coll))
        if s.cond is not None and not (mask is not None and rest is None):  # the options listed, one drawn
            fl, fv = self.filter_lines(s.cond, k, src, s.coll)
            o = self.tmp()
            w.lines(ls + fl)
            w.line(f"{o} = {fv}")
            w.line(f"{x} = {o}[_int(st.rng.random() * len({o}))] if {o} else None")
            return f"len({o})"
        if s.cond is None:
            w.lines(ls)
            w.line(f"{x} = {src}[_int(st.rng.random() * len({src}))] if {src} else None")
            return f"len({src})"
        run = self.sorted_run(s.coll, mask)
        if run is not None:  # the fast layout: the kind's cards are one run of the sorted zone
            ls, src = self.spill(ls, src)
            lo, hi = self.run_ends(src, run)
            ls, hi = self.spill(ls, hi)
            if lo != "0":
                ls, lo = self.spill(ls, lo)
            start, k = ("", hi) if lo == "0" else (f"{lo} + ", f"({hi} - {lo})")
            w.lines(ls)
            w.line(f"{x} = {src}[{start}_int(st.rng.random() * {k})] if {hi} > {lo} else None")
            return k
        # rejection sampling: uniform over the matching cards, without listing them
        n, y, km, rnd = self.tmp(), self.tmp(), self.k(mask), self.tmp()
        w.lines(ls)
        w.line(f"{x} = None")
        w.line(f"{n} = len({src})")
        with w.block(f"if {n}:"):
            w.line(f"{rnd} = st.rng.random")
            with w.block("for _r in range(12):"):
                w.line(f"{y} = {src}[_int({rnd}() * {n})]")
                with w.block(f"if {km}[{y}]:"):
                    w.line(f"{x} = {y}")
                    w.line("break")
            with w.block("else:"):
                w.line(f"{y} = [_c for _c in {src} if {km}[_c]]")
                w.line(f"{x} = {y}[_int(st.rng.random() * len({y}))] if {y} else None")
        return None

    def _chooser_lines(self, s) -> tuple[bool, list[str], str]:
        """(at random?, lines, who chooses) of a choice's `by p` / `at random` (default: me)."""
        ch = s.chooser
        if ch is not None and ch.random:
            return True, [], "None"
        if ch is not None and ch.player is not None:
            bl, bv = self.spill(*self.x(ch.player))
            return False, bl, bv
        return False, [], "env[0]"


    def _one_options(self, s: A.ChooseOne, opts: str) -> list[str]:
        """The options of `choose { option "L" if C {...} ... }` whose condition holds, in order:
        each a constant (its label, its number, the statement's number: options of two choices
        that read the same are different options, as a search bot's tree keys them, bots._key)."""
        w = fragment([f"{opts} = []"])
        sid = self._choice_ids.setdefault(id(s), len(self._choice_ids))
        for i, o in enumerate(s.options):
            ko = self.k((o.label, i, sid))
            if o.cond is None:
                w.line(f"{opts}.append({ko})")
            else:
                cl, c = self.x(o.cond)
                w.lines(cl)
                with w.block(f"if {c}:"):
                    w.line(f"{opts}.append({ko})")
        return w.code

    def l_ChooseOne(self, s, w) -> bool:
        """`choose [prompt] { option "L" [if C] { ... } ... }`: one of the options whose condition
        holds, and its body (written out here)."""
        self.choose_options(s)
        prompt = s.prompt or "choose one"
        kp, ks, node = self.prompt_k(s, prompt), self.k(s.span), self.k(s)
        rnd, bl, by = self._chooser_lines(s)
        opts, o, p, pre = self.tmp(), self.tmp(), self.tmp(), self.tmp()
        w.lines(self._one_options(s, opts))
        is_gen = not rnd and not self.playout
        with w.block(f"if {opts}:"):
            if rnd:
                w.line(f"{o} = {opts}[_int(st.rng.random() * len({opts}))]")
            else:
                ask = f"{opts}[{self.ask(opts, p, kp, self.k(_first), ks, False)}]"
                w.lines(bl)
                w.line(f"{p} = {by}")
                self._take(w, o, ask, node, pre)
                with w.logged():
                    w.line(f"_log_option(st, {p}, {o}[0], {kp})")
            key = self.tmp()
            with w.counted():
                w.line(f"{key} = ({self.k('option')}, {node}, {o}[0])")
                w.count_fired(key)
            for i, opt in enumerate(s.options):
                with w.block(f"{'if' if i == 0 else 'elif'} {o}[1] == {i}:"):
                    g = self.write_stmts(w, opt.body.stmts)
                is_gen = is_gen or g
        return is_gen

    def l_ChooseNumber(self, s, w) -> bool:
        """`choose number x from A to B`: a whole number of that range (none: nothing happens)."""
        ll, lo = self.spill(*self.x(s.low))
        hl, hi = self.spill(*self.x(s.high))
        k = self.m.slot(s)
        prompt = s.prompt or f"choose {s.var}"
        kp, ks = self.prompt_k(s, prompt), self.k(s.span)
        opts = self.tmp()
        w.lines(ll + hl)
        with w.block(f"if {hi} - {lo} + 1 > {MAX_NUMBERS}:"):
            w.line(f"raise _GameError(_numbers_msg({lo}, {hi}, {MAX_NUMBERS}), {ks})")
        w.line(f"{opts} = list(range({lo}, {hi} + 1))")
        return self._pick_then(w, s, opts, k, kp, self.k(str), ks, False,
                               lambda p, x: f"_log_number(st, {p}, {x}, {kp})")

    def _pick_then(self, w: Writer, s, opts: str, k: int, kp: str, kt: str, ks: str, with_st: bool, log) -> bool:
        """After the lines that list the options in `opts`: when there is one, the pick (at random,
        or the chooser's, with the log's line log(p, x)) bound at slot k, then the choice's body."""
        rnd, bl, by = self._chooser_lines(s)
        x, p = self.tmp(), self.tmp()
        with w.block(f"if {opts}:"):
            if rnd:
                w.line(f"{x} = {opts}[_int(st.rng.random() * len({opts}))]")
            else:
                w.lines(bl)
                w.line(f"{p} = {by}")
                ask = f"{opts}[{self.ask(opts, p, kp, kt, ks, with_st)}]"
                if self._sealed(s):  # (made ahead, with a simultaneous phase's pick)
                    self._take(w, x, ask, self.k(s), self.tmp())
                else:
                    w.line(f"{x} = {ask}")
                with w.logged():
                    w.line(log(p, x))
            w.line(f"env[{k}] = {x}")
            g = self.write_stmts(w, s.body.stmts)
        return g or (not rnd and not self.playout)

    def l_ChooseSubset(self, s, w) -> bool:
        """`choose subset x of L [where C] [size A..B] [if T]`: one of its subsets (its options
        generated by _subset_options; those a turn just worked out are taken as they are)."""
        t = elem(self.m.types.get(s.coll) or "any")
        lab = "list:" + (t or "any")
        k = self.m.slot(s)
        prompt = s.prompt or f"choose {s.var}"
        kp, kt, ks = self.prompt_k(s, prompt), self.k(lab), self.k(s.span)
        opts = self.tmp()
        self._given_options(w, s, opts, self.choose_options(s))
        return self._pick_then(w, s, opts, k, kp, kt, ks, True,
                               lambda p, x: f"_log_subset(st, _g, {p}, {x}, {kp}, {self.k(t)})")

    def l_ChooseN(self, s, w) -> bool:
        """`choose [up to] N x in L [where C]`: N single choices one after another from what is
        left (no list of subsets is made); with `up to`, "done" is an option each time."""
        ctype = self.m.types.get(s.coll)
        t = elem(ctype or "any")
        k = self.m.slot(s)
        ck = self.m.slots.get(s.cond) if s.cond is not None else None
        prompt = s.prompt or f"choose {s.var}"
        kp, ks, kt = self.prompt_k(s, prompt), self.k(s.span), self.k(t)
        cards = t == CARD or t in self.m.kinds
        cl, cv = self.xcards(s.coll) if ctype == ZONE else self.x(s.coll)
        cl, cv = self.spill(cl, cv)
        # (its filter is not told the collection it goes through: the items it looks at are
        # steps of the budget even when they are a zone's cards, as its closure counted them)
        fl, fv = self.filter_lines(s.cond, ck, cv)
        # (the cards left, picked and offered: what a search bot re-deals, bots.remap_held)
        held = HELD_PREFIX if cards else "_t"
        left, picked, opts = self.tmp(held), self.tmp(held), self.tmp(held)
        n, x, p, i, lab = self.tmp(), self.tmp(), self.tmp(), self.tmp(), self.tmp()
        nl, nv = self.x(s.count)
        rnd, bl, by = self._chooser_lines(s)
        w.lines(cl + fl)
        w.line(f"{left} = list({fv})")
        w.lines(nl)
        w.line(f"{n} = {nv}")
        w.line(f"{picked} = []")
        w.lines(bl)
        w.line(f"{p} = {by}")

        def ask():
            w.line(f"{opts} = {left} + [_DONE]" if s.up_to else f"{opts} = {left}")
            w.line(f"{lab} = _n_labeler(st, _g, {p}, {kt})")
            if self.playout:
                w.line(f"{i} = {self.bot_pick(opts, p)}")
            else:
                with w.block(f"if len({opts}) == 1 and _only_option(st, {p}, {opts}, {kp}, {lab}, {ks}):"):
                    w.line(f"{i} = 0")
                with w.block("elif st.agent is not None:"):
                    w.line(f"{i} = st.agent({p}, {opts})")
                with w.block("else:"):
                    w.line(f"{i} = yield _Decision({p}, {opts}, {kp}, {lab}, {ks}, st)")
            w.line(f"{x} = {opts}[{i}]")
            if s.up_to:  # ("done" ends the picking)
                with w.block(f"if {x} is _DONE:"):
                    with w.logged():
                        w.line(f"_log_done(st, {p}, {kp})")
                    w.line("break")
        sealed = self._sealed(s)
        if sealed:  # made ahead, with a simultaneous phase's pick: each shown as it is taken
            pre = self.tmp()
            w.line(f"{pre} = st.preset")
            with w.block(f"if {pre} is not None and {self.k(s)} in {pre}:"):
                with w.block(f"for {x} in {pre}.pop({self.k(s)}):"):
                    with w.logged():
                        w.line(f"_log_pick(st, _g, False, {p}, {x}, {kp}, {kt})")
                    w.line(f"{picked}.append({x})")
                    w.line(f"{left}.remove({x})")
                if s.up_to:
                    with w.logged(f"st.log is not None and len({picked}) < {n} and {left}"):
                        w.line(f"_log_done(st, {p}, {kp})")
        with w.maybe("else:" if sealed else None), w.block(f"while len({picked}) < {n} and {left}:"):
            if rnd:
                w.line(f"{x} = {left}[_int(st.rng.random() * len({left}))]")
            elif s.up_to:
                ask()
            else:  # (no choice left: all of them)
                with w.block(f"if len({left}) <= {n} - len({picked}):"):
                    w.line(f"{x} = {left}[0]")
                with w.block("else:"):
                    ask()
            with w.logged():
                w.line(f"_log_pick(st, _g, {rnd}, {p}, {x}, {kp}, {kt})")
            w.line(f"{picked}.append({x})")
            w.line(f"{left}.remove({x})")
        w.line(f"env[{k}] = {picked}")
        g = self.write_stmts(w, s.body.stmts)
        return g or (not rnd and not self.playout)

    def l_Simultaneous(self, s, w) -> bool:
        """`simultaneously for p in P choose x in L [where C] [choose y in M ...] { ... }`: every
        player makes their choices (each after the first sees that player's earlier ones) without
        seeing the others' picks; then the picks are shown and each player's body runs (as them).
        A player with nothing to choose in one of them takes no part."""
        ctype = self.m.types.get(s.coll)
        t = elem(ctype) if ctype else None
        cards = t == CARD or t in self.m.kinds
        ps, cs = self.m.slot_pair(s)
        prompt = s.prompt or f"choose {s.var}"
        kp, kt, ks = self.prompt_k(s, prompt), self.k(t), self.k(s.span)
        held = HELD_PREFIX if cards else "_t"  # (what a search bot re-deals: bots.remap_held)
        chosen, picks, offered = self.tmp(), self.tmp(held), self.tmp(held)
        pl, pv = self.spill(*self.x(s.players))
        src, opts, i, me, j = self.tmp(), self.tmp(), self.tmp(), self.tmp(), self.tmp()
        cl, cv = self.x(s.coll)
        # each choice: (node, slot, its type, its condition, prompt, type and span constants, picks,
        # offered, source, options, index, lines and value of what it chooses among)
        choices = [(s, cs, ctype, s.cond, kp, kt, ks, picks, offered, src, opts, i, cl, cv)]
        for c in s.more:
            ct = self.m.types.get(c.coll)
            t = elem(ct) if ct else None
            held = HELD_PREFIX if t == CARD or t in self.m.kinds else "_t"
            ckp, ckt, cks = self.prompt_k(c, c.prompt or f"choose {c.var}"), self.k(t), self.k(c.span)
            cpicks, coffered = self.tmp(held), self.tmp(held)
            csrc, copts, ci = self.tmp(), self.tmp(), self.tmp()
            ccl, ccv = self.x(c.coll)
            choices.append((c, self.m.slot(c), ct, c.cond, ckp, ckt, cks, cpicks, coffered, csrc, copts, ci, ccl, ccv))
        w.line(f"{chosen} = []")
        for x in choices:
            w.line(f"{x[7]} = []")
            w.line(f"{x[8]} = []")
        more = ", [" + ", ".join(f"({x[7]}, {x[8]})" for x in choices[1:]) + "]" if s.more else ""
        with w.muted(self.playout):  # (the picks made so far, which the player deciding has not seen)
            w.line(f"{SECRET_PICKS} = _redraw_picks({picks}, {offered}{more})")
        w.lines(pl)
        with w.block(f"for env[{ps}] in list({pv}):"):
            for node, slot, ct, cond, kp, kt, ks, _, _, src, opts, i, cl, cv in choices:
                w.lines(cl)
                w.line(f"{src} = st.zones[{cv}]" if ct == ZONE else f"{src} = {cv}")
                w.line(f"{opts} = []")
                if cond is None:
                    w.line(f"{opts} = list({src})")
                else:
                    kl, kv = self.x(cond)
                    with w.block(f"for env[{slot}] in {src}:"):
                        w.lines(kl)
                        with w.block(f"if {kv}:"):
                            w.line(f"{opts}.append(env[{slot}])")
                with w.block(f"if not {opts}:"):
                    w.line("continue")
                w.line(f"{i} = {self.ask(opts, f'env[{ps}]', kp, kt, ks)}")
                if node is not s:  # (the choices after it read this one)
                    w.line(f"env[{slot}] = {opts}[{i}]")
                elif s.more:
                    w.line(f"env[{cs}] = {opts}[{i}]")
            w.line(f"{chosen}.append(env[{ps}])")
            for x in choices:
                w.line(f"{x[7]}.append({x[10]}[{x[11]}])")
                w.line(f"{x[8]}.append({x[10]})")
        with w.muted(self.playout):
            w.line(f"{SECRET_PICKS} = None")
            for x in choices:
                with w.logged(f"st.log is not None and {chosen}"):  # (shown from here on)
                    w.line(f"_log_simultaneous(st, _g, {chosen}, {x[7]}, {x[4]}, {x[5]})")
        w.line(f"{me} = env[0]")
        with w.block(f"for {j} in range(len({chosen})):"):
            w.line(f"env[{ps}] = {chosen}[{j}]")
            for x in choices:
                w.line(f"env[{x[1]}] = {x[7]}[{j}]")
            w.line(f"env[0] = {chosen}[{j}]")  # each player acts for themself
            g = self.write_stmts(w, s.body.stmts)
        w.line(f"env[0] = {me}")
        return g or not self.playout

    def l_Emit(self, s, w) -> bool:
        """`emit EVENT(args)`: every `on EVENT` handler runs, in the order of the rules, as me."""
        decls = [d for d, _ in self.m.handlers.get(s.event, [])]
        wants = [any(i < len(d.params) and self.m.types.get(a) == ZONE and d.params[i].type.list for d in decls)
                 for i, a in enumerate(s.args)]
        lines, vals = self.seq([self.xcards(a) if w_ else self.x(a) for a, w_ in zip(s.args, wants)])
        hs = self.k(self.handlers.get(s.event, []))
        call = f"_run_handlers(st, {self.k(s.event)}, {hs}, env[0], [{', '.join(vals)}])"
        w.lines(lines)
        self._drive(w, call)
        return not self.playout

    def l_Gain(self, s, w) -> bool:
        """`gain N C [to p]`, `lose N C [from p]`, `give N C to p`, `take N C from p`: the
        counter changed within its bounds (or round its wrap-around track), a line in the log,
        and then the `when C reaches V` triggers of the spaces its marker passed."""
        ci = self.m.counters[s.counter]
        slot, per, d = ci.slot, ci.decl.per_player, ci.decl
        bounded = d.low is not None or d.high is not None
        trig = self.reach.get(slot)
        op, span = s.op, self.k(s.span)
        row = f"st.counters[{slot}]"
        p, a, old, new = self.tmp(), self.tmp(), self.tmp(), self.tmp()
        if not per:
            w.line(f"{p} = 0")
        elif s.other is not None and op in ("gain", "lose"):
            ol, ov = self.x(s.other)
            w.lines(ol)
            w.line(f"{p} = {ov}")
        else:
            w.line(f"{p} = env[0]")
        al, av = self.x(s.amount)
        w.lines(al)
        w.line(f"{a} = {av}")
        if bounded or trig:
            lo, hi = self.bounds(slot)
            pad = self.m.max_frame + 1  # (room for what the bounds bind: a count, a sum)
            wrap = bool(d.wrap)

            def change(who: str, delta: str) -> str:
                return f"_capply(st, {row}, {who}, {delta}, {self.k(lo)}, {self.k(hi)}, {wrap}, {pad})"
        else:
            def change(who: str, delta: str) -> str:
                return ""
        q = getter = None
        if op in ("gain", "lose"):
            delta = a if op == "gain" else f"-{a}"
            if bounded:
                w.line(f"{old}, {new} = {change(p, delta)}")
                w.line(f"_num({new}, {span})")
            else:
                w.line(f"{row}[{p}] {'+=' if op == 'gain' else '-='} {a}")
                w.line(f"{new} = {row}[{p}]")
                # the sum stays a whole number in range (a watched counter: always checked, as
                # its closure did, whatever the amount; tests/test_statement_edges.py)
                if trig or self._may_grow(s.amount, True):
                    w.line(f"_num({new}, {span})")
                else:  # a small number: out of range only next to the edge (a `set` to near it), tested inline
                    big = self.k(MAX_INT)
                    with w.block(f"if not -{big} <= {new} <= {big}:"):
                        w.line(f"_num({new}, {span})")
                if trig and op == "gain":
                    w.line(f"{old} = {new} - {a}")
            getter = p
        else:
            q = self.tmp()
            ol, ov = self.x(s.other)
            w.lines(ol)
            w.line(f"{q} = {ov}")
            giver, getter = (p, q) if op == "give" else (q, p)
            have = self.tmp()  # as much as the giver has (as max(0, min(a, have)))
            w.line(f"{have} = {row}[{giver}]")
            with w.block(f"if {a} > {have}:"):
                w.line(f"{a} = {have}")
            with w.block(f"if {a} < 0:"):
                w.line(f"{a} = 0")
            if bounded:  # only what the receiver can hold moves
                w.line(f"{old}, {new} = {change(getter, a)}")
                w.line(f"{a} = {new} - {old}")
                w.line(change(giver, f"-{a}"))
            else:  # (the receiver's count read before the giver's goes down: a give to oneself)
                w.line(f"{row}[{getter}] += {a}")
                w.line(f"{new} = {row}[{getter}]")
                w.line(f"{row}[{giver}] -= {a}")
                if trig:
                    w.line(f"{old} = {new} - {a}")
            w.line(f"_num({new}, {span})")
        if not self.playout:
            with w.logged():
                held = f", None, {old}" if bounded and not d.wrap and op in ("gain", "lose") else ""  # (what moved)
                w.line(f"_log_gain(st, {self.k(op)}, {self.k(s.counter)}, {per}, {p}, {a}, {new}, {span}, env, {self.k(s)}"
                       + (f", {q})" if q is not None else held + ")"))
        if not trig or op == "lose":
            return False
        hi_lo = self.bounds(slot)
        fire = f"_cfire(st, {self.k(trig)}, {self.k(hi_lo[0])}, {self.k(hi_lo[1])}, {bool(d.wrap)}, {self.k(s.counter)}, " \
               f"{getter}, {old}, {new}, {a}, {span})"
        self._drive(w, fire)
        return not self.playout

    def l_Do_value(self, s, w) -> bool:
        """`do X` of an effect held in a value (a card's attribute): the effect looked up in a
        table of the game's effects, written out; a value naming an action or a phase (or no
        effect at all) goes to _do_named, which knows those."""
        vl, v = self.x(s.effect)
        me_l, me = self.x(s.as_player) if s.as_player is not None else ([], "env[0]")
        others = set(self.m.actions) | {p.name for p in self.m.phases}
        table = {n: (cell, self.g.effect_titles[n] if self.m.effects[n].decl.title is not None else None,
                     (None,) * self.m.effects[n].frame)  # (its frame's room, made once)
                 for n, cell in self.g.effect_cells.items() if n not in others}
        n, hit, c, env2, r, p = (self.tmp() for _ in range(6))
        w.lines(vl)
        w.line(f"{n} = {v}")
        w.line(f"{hit} = {self.k(table)}.get({n}) if {n} is not None else None")
        with w.block(f"if {hit} is not None:"):
            w.lines(me_l)
            w.line(f"{p} = {me}")
            w.line(f"{c} = {hit}[0][0]")
            w.line(f"{env2} = [{p}, *{hit}[2]]")
            with w.block(f"if {c}[0] is None or {c}[0](st, {env2}):"):
                with w.logged(f"st.log is not None and {hit}[1] is not None"):
                    w.line(f'st.log.append(("effect: " + {hit}[1], None, {{"type": "effect", "effect": {n}, "player": {p}}}))')
                with w.counted():
                    w.count_fired(n)
                w.step(self.k(s.span))
                w.line(f"{r} = {c}[1](st, {env2})")
                with w.block(f"if {r} is not None:"):
                    self._drive(w, r)
        # (an action or a phase held in a value, or no effect at all: _do_named, given the value)
        call = f"_do_named(st, _g, {n}, {p}, {self.k(s.span)})"
        with w.block(f"elif {n} is not None:"):
            w.lines(me_l)
            w.line(f"{p} = {me}")
            self._drive(w, call)
        return not self.playout

    def l_Do(self, s, w) -> bool:
        e = s.effect
        ref = self.m.refs.get(e)
        if isinstance(ref, PhaseRef) or isinstance(ref, EffectRef) and ref.is_action:
            ml, me = self.spill(*self.x(s.as_player)) if s.as_player is not None else ([], "env[0]")
            if isinstance(ref, PhaseRef):
                call = f"_do_phase(st, _g, {self.k(ref.name)}, {me}, {s.as_player is not None}, {self.k(s.span)})"
            else:
                call = f"_do_action(st, _g, {self.k(ref.name)}, {me})"
            w.lines(ml)
            self._drive(w, call)
            return not self.playout
        if not (isinstance(ref, EffectRef) and isinstance(e, (A.Name, A.Call))):
            return self.l_Do_value(s, w)  # an effect held in a value
        name = ref.name
        eff = self.m.effects[name]
        cell = self.k(self.g.effect_cells[name])
        parts = [self.x(s.as_player) if s.as_player is not None else ([], "env[0]")]
        if isinstance(e, A.Call):
            parts += [self.xcards(a) if self._wants_list(eff, i, a) else self.x(a) for i, a in enumerate(e.args)]
        lines, vals = self.seq(parts)
        c, env2, r = self.tmp(), self.tmp(), self.tmp()
        pad = max(0, eff.frame - len(vals))
        w.lines(lines)
        if ("effect", name) in self.counted_calls:  # each call a step of the budget (budget.self_calling)
            w.step(self.k(s.span))
        w.line(f"{c} = {cell}[0]")
        w.line(f"{env2} = [{', '.join(vals + ['None'] * pad)}]")
        with w.block(f"if {c}[0] is None or {c}[0](st, {env2}):"):
            if eff.decl.title is not None:
                t, nm = self.k(self.g.effect_titles[name]), self.k(name)
                with w.logged():
                    w.line(f'st.log.append(("effect: " + {t}, None, {{"type": "effect", "effect": {nm}, "player": {env2}[0]}}))')
            with w.counted():
                w.count_fired(self.k(name))
            w.line(f"{r} = {c}[1](st, {env2})")  # (an effect that asks nothing is plain)
            with w.block(f"if {r} is not None:"):
                self._drive(w, r)
        return not self.playout


def unit_words(d) -> tuple[str, str]:
    """What the log calls one of a counter and several: its `unit "coin" "coins"` (the plural,
    when not given, is the singular and an s); without a unit, its name (in words), and for one,
    the name without a final s ("coins": 1 coin; "gold": 1 gold; "glass": 1 glass)."""
    if d.unit is not None:
        one, many = d.unit
        return one, many if many is not None else one + "s"
    many = d.name.replace("_", " ")
    return (many[:-1] if many.endswith("s") and not many.endswith("ss") and len(many) > 1 else many), many
