"""Compiling expressions to Python source: each expression the statements need becomes one
generated function ``f(st, env) -> value`` with the whole expression tree inside it (plain
locals, loops and comprehensions), compiled once with ``compile()``.

The generated text holds only what the generator makes itself: slot numbers, its own names
(``_v3``, ``_t2``, ``_k17``), Python operators and ``repr()`` of ints, bools and None. Every
other value of the rules (strings, names, tables, spans) is a constant in the generated
module's namespace, read by a name the generator made, so no text of a rules file is ever
code. (A mixin of the compiler in compile.py; jinja's ``compiler.py`` is the model.)

Each ``x_NODE`` method gives ``(lines, value)``: statements to run first (often none) and a
Python expression for the value, evaluated once, after the lines.
"""
from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ContextManager, Iterator, Mapping

import attrs

from ..check.model import (BOOL, CARD, INT, STR, ZONE, BuiltinRef, CardAttrRef, ConstRef, CounterRef, DefRef, EffectRef,
                           JoinRef, KindDefRef, LocalRef, OptionRef, PhaseRef, PropRef, Ref, SelfAttrRef, SelfDefRef,
                           SelfZoneRef, ValuesRef, VarRef, ZoneFamilyRef, ZoneRef, is_builtin)
from ..errors import GameError
from ..syntax import ast as A
from . import runtime
from .common import SPANS, Fn
from .runtime import _UNSET, _words
from .writer import Writer, fragment

if TYPE_CHECKING:
    from ..check.model import GameModel

_PURE = (A.Name, A.Lit, A.Attr, A.Of)  # arguments an inlined def may read more than once (or not at all)
# a value of the cards bound to one or two names, kept in a table (ExpressionCompiler._card_table)
_TABLED = (A.Call, A.BinOp, A.Not, A.Cond)  # (the roots tried: a name, an attribute is as cheap as a look-up)
_TABLE_NODES = (A.Call, A.BinOp, A.Not, A.Neg, A.Cond, A.Lit, A.Name, A.Attr, A.IsKind)
_TABLE_MOST = 250_000  # entries at most (500 cards for a value of two cards)
INLINE_DEPTH = 6  # defs inlined into inlined defs, at most
INLINE_NODES = 60  # a def whose body is larger stays a call
_SIMPLE = re.compile(r"^(env\[\d+\]|_[vtxas]\d*|_g[ov]\d+|-?\d+|None|True|False|st\.current|_k\d+|\((env\[\d+\]|_[vtxas]\d*)\))$")
_COMPARE = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "+": "+", "-": "-", "*": "*"}


def _is_local(ref: Ref | None, k: int) -> bool:
    """Is ref the local of slot k?"""
    return isinstance(ref, LocalRef) and ref.slot == k


def _simple(src: str) -> bool:
    """A value cheap and safe to write twice: a slot, a local, a literal."""
    return _SIMPLE.match(src) is not None


def _value_loops(src: str) -> bool:
    """Does a value written with lines before it loop or call a function given the state? (Its
    text is read: which parts of it were written into the value and which into the lines is
    not recorded.)"""
    return "for " in src or "(st, " in src


class _Fn:
    """The function being generated: its temporaries, and what the generator has written into
    it so far (counts, compared before and after a part is generated: ExpressionCompiler.marks)."""

    def __init__(self):
        self.n = 0
        self.fresh: set = set()  # temporaries holding a list made here, read once (no copy needed)
        self.loops = 0  # loops, and calls of functions given the state (count_loop)
        self.env = 0  # reads of the env list (a function given its values as parameters then makes one)
        # parts written that may read more than their cards and constants: each node is counted
        # when its generation starts and uncounted by the branch that writes only pure code (a
        # table of card values, _table_fn, is made only for a function with none left)
        self.unvetted = 0
        self.calls = 0  # calls of the pure helpers (a table of a value without any is not worth it)
        # a function that only reads the state (an expression's, `_root`): the game's options and
        # shared vars it reads, each read once at its start into a local (name -> its source)
        self.reads: dict[str, str] | None = None

    def tmp(self, prefix="_t") -> str:
        self.n += 1
        return f"{prefix}{self.n}"


@attrs.frozen
class Ctx:
    """What the code being written may assume where it is written (jinja2's `Frame`): a new one
    is derived with `bind` for a block that knows more (a name bound, a def inlined, a new
    generated function), never changed in place."""

    locals: Mapping[int, str] | None = None  # slot -> Python source: bound names, a def's parameters
    cards: frozenset = frozenset()  # sources known to hold a card, never none (a name bound over a zone)
    zones: Mapping[str, int] = attrs.field(factory=dict)  # sources known to hold a zone of that family (never none)
    inlining: frozenset = frozenset()  # the defs being inlined here
    fn: _Fn = attrs.field(factory=_Fn)  # the function being generated: its temporaries (inner(fn=_Fn()))
    env_slots: Mapping[int, int] = attrs.field(factory=dict)  # local slot -> the env slot its source reads, when it is one
    env_locals: frozenset = frozenset()  # the locals whose source reads env
    impure_locals: frozenset = frozenset()  # the locals whose source reads more than cards and constants

    def bind(self, **changes) -> Ctx:
        """This context with `changes` (attrs.evolve, without its look-up of the fields each time)."""
        fields = {n: getattr(self, n) for n in _CTX_FIELDS}
        fields.update(changes)
        return Ctx(**fields)


_CTX_FIELDS = tuple(f.name for f in attrs.fields(Ctx))


class _Inner:
    """The context of `ExpressionCompiler.inner` (a class: generation enters one for every
    bound name and generated function)."""

    __slots__ = ("c", "changes", "saved")

    def __init__(self, c: ExpressionCompiler, changes: dict):
        self.c, self.changes = c, changes

    def __enter__(self) -> Ctx:
        self.saved = self.c.ctx
        self.c.ctx = self.saved.bind(**self.changes)
        return self.c.ctx

    def __exit__(self, *exc) -> None:
        self.c.ctx = self.saved


class ExpressionCompiler:
    """Expressions; the compiler (compile._Compiler) sets the game and its model."""

    g: Any  # the game being compiled (a compile.CompiledGame: this module is below compile.py)
    m: GameModel  # its checked model
    counted_calls: frozenset | set = frozenset()  # defs whose calls are steps of the budget (budget.self_calling)

    def __init__(self):
        self.ctx = Ctx()  # where the code is being written (see `inner`)
        # filled as generation needs them
        self._gen_ns: dict | None = None  # the generated module's namespace (runtime.namespace)
        self._gen_consts: dict = {}  # (type, value) -> the name of a constant in it
        self._gen_count = 0  # generated functions so far
        self._def_order: dict | None = None  # def name -> the number of its function of its parameters
        self._tables: dict = {}  # (expression, slots) -> its table of card values, or None (_card_table)
        self._kdefs: dict = {}  # kind's def -> the table of its values by card, or False (_kdef_values)
        self._masks: dict = {}  # (expression, slot) -> (mask, chosen) of a fixed fact of a card, or False (card_mask)

    def inner(self, **changes) -> _Inner:
        """`with self.inner(...) as ctx:` while generating inside, the context with `changes`
        (Ctx.bind); as it was after."""
        return _Inner(self, changes)

    def own_locals(self, params: Mapping[int, str], **changes):
        """`inner` for code whose locals are its own parameters (none an env slot, none reading
        env or the state)."""
        return self.inner(locals=params, env_slots={}, env_locals=frozenset(), impure_locals=frozenset(), **changes)

    # ================================================================ the module
    def _ns(self) -> dict:
        ns = self._gen_ns
        if ns is None:
            ns = self._gen_ns = runtime.namespace(self.g)
            self.g.gen_source = []
        return ns

    def k(self, value) -> str:
        """A constant of the rules, as a name in the generated module (never as text in its code)."""
        ns = self._ns()
        if value is None or isinstance(value, bool):
            return repr(value)
        if type(value) is int and -10**6 < value < 10**6:
            return repr(value)
        try:
            key: tuple = (type(value), value)
            hash(key)
        except TypeError:
            key = ("id", id(value))
        name = self._gen_consts.get(key)
        if name is None:
            name = self._gen_consts[key] = f"_k{len(self._gen_consts)}"
            ns[name] = value
            if key[0] == "id":
                self._gen_consts[("keep", id(value))] = value  # (ids stay unique while the value lives)
        return name

    def compile_fn(self, params: str, body: Writer, val: str, ret_span=None, where=None, located: bool = True) -> Fn:
        """Compile one generated function `def _eN(params): body; return val`; the body's spans:
        the rules statement each line was written for (where a fault on that line is reported;
        ret_span: the return line's); located False: no line has one; where: the rules text the
        whole function is for (where Python's refusal to compile it, rules nested too deeply, is
        reported when no line has a span)."""
        ns = self._ns()
        self._gen_count += 1
        name = f"_e{self._gen_count}"
        w = Writer()
        with w.block(f"def {name}({params}):"):
            w.write(body)
            w.line(f"return {val}", ret_span)
        src = "\n".join(w.code + [""])
        spans = w.spans[1:] if located else None  # (line 1 is the def)
        filename = f"<tav generated {id(self.g):x} {name}>"
        if spans is not None:
            ns[SPANS][filename] = spans  # (with the game: freed with it)
        try:
            code = compile(src, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
            where = next((sp for sp in spans or () if sp is not None), where)  # a block's first statement
            raise GameError("the rules nest too deeply to run", where) from exc
        exec(code, ns)  # the source is the generator's own (see the module's docstring)
        self.g.gen_source.append(src)
        return ns[name]

    def _root(self, params: str, build, where=None, at=None):
        """Generate one function around build() -> (lines, value) or (writer, value, the return
        line's span), with fresh temporaries; where: the span of the rules text it is for (see
        compile_fn); at: where a fault on any of the lines is reported (a writer's lines carry
        their own spans)."""
        fn = _Fn()
        if params.startswith("st,"):
            fn.reads = {}
        with self.inner(fn=fn):
            body, val, *ret = build()
        if fn.reads:  # (read once: nothing an expression works out changes them)
            head = [f"{name} = {src}" for name, src in fn.reads.items()]
            if isinstance(body, Writer):
                w = Writer()
                first = body.spans[0] if body.spans else (ret[0] if ret else at)
                for line in head:
                    w.line(line, first)
                w.write(body)
                body = w
            else:
                body = head + body
        if isinstance(body, Writer):
            return self.compile_fn(params, body, val, ret[0] if ret else at, where)
        return self.compile_fn(params, fragment(body, at), val, at, where, located=at is not None)

    def _read_once(self, name: str, src: str) -> str:
        """`src` (an option's or a shared var's value) as a local read once at the start of the
        function being generated, when it only reads the state; else src itself."""
        reads = self.ctx.fn.reads
        if reads is None:
            return src
        reads[name] = src
        return name

    def tmp(self, prefix: str = "_t") -> str:
        return self.ctx.fn.tmp(prefix)

    # ---------------------------------------------------------------- what was written
    # The generator records what it writes that later decisions depend on, as it writes it:
    # a loop or a call given the state (a loop of an expression whose body has none is not
    # counted, count_loop), a read of env (a function of its parameters makes an env list only
    # when a part reads one).
    def loops(self, text: str) -> str:
        """`text`, which loops or calls a function given the state, recorded as written."""
        self.ctx.fn.loops += 1
        return text

    def marks(self) -> tuple[int, int]:
        fn = self.ctx.fn
        return fn.loops, fn.env

    def looped_since(self, marks: tuple[int, int]) -> bool:
        """Was a loop or a call given the state written since `marks`?"""
        return self.ctx.fn.loops > marks[0]

    def _local(self, k: int) -> str:
        """The source of local slot k where the code is written: its bound name, or env[k]
        (a read of env, recorded)."""
        ctx = self.ctx
        loc = ctx.locals
        if loc is not None and k in loc:
            if k in ctx.env_locals:
                ctx.fn.env += 1
                ctx.fn.unvetted += 1
            if k in ctx.impure_locals:
                ctx.fn.unvetted += 1
            return loc[k]
        ctx.fn.env += 1
        ctx.fn.unvetted += 1
        return f"env[{k}]"

    def _pure(self, text=None, calls: bool = False):
        """The node being generated writes only pure code itself (its parts are counted apart):
        uncounted; `calls`: a call of a pure helper. Gives `text` back."""
        fn = self.ctx.fn
        fn.unvetted -= 1
        fn.calls += calls
        return text

    def _impure(self, text: str) -> str:
        """`text`, which reads more than cards and constants, recorded as written (outside the
        generation of a node: a collection's zone, an attribute's table)."""
        self.ctx.fn.unvetted += 1
        return text

    def read_env(self, text: str) -> str:
        """`text`, which reads env, recorded as written."""
        self.ctx.fn.env += 1
        return text

    def _unwritten(self, build):
        """build()'s (lines, value), generated to be written later (an inlined def's argument):
        (lines, value, does it read env), recording nothing as written now."""
        fn = self.ctx.fn
        saved = fn.loops, fn.env, fn.unvetted, fn.calls
        ls, v = build()
        reads, impure = fn.env > saved[1], fn.unvetted > saved[2]
        fn.loops, fn.env, fn.unvetted, fn.calls = saved
        return ls, v, reads, impure

    # ================================================================ entry points
    def expr(self, e: A.Expr) -> Fn:
        if isinstance(e, A.Lit) and (e.value is None or isinstance(e.value, (bool, int, str))):
            v = e.value
            return lambda st, env: v
        return self._root("st, env", lambda: self.x(e), e.span)

    def coll(self, e: A.Expr) -> Fn:
        """An expression as a collection: a zone gives its (live) list of cards."""
        return self._root("st, env", lambda: self.xcoll(e), e.span)

    def cards_of(self, e: A.Expr) -> Fn:
        """An expression giving a card, a list of cards or a zone -> list of cards (a copy, as
        they are now): what `move`/`reveal` act on, and a zone given where a list is wanted."""
        return self._root("st, env", lambda: self.xcards(e), e.span)

    def filter(self, cond: A.Expr | None, k: int, over: A.Expr | None = None) -> Fn:
        """A function (st, env, src) -> list of the items of src meeting cond (bound at slot k);
        `over`: the expression src comes from, when known."""
        return self._root("st, env, src", lambda: self.filter_lines(cond, k, "src", over),
                          cond.span if cond is not None else None)

    def options_of(self, cond: A.Expr | None, k: int, coll: A.Expr, at=None) -> Fn:
        """A function (st, env) -> the items of coll meeting cond (bound at slot k), as a list;
        at: the choice they are the options of (where a fault working them out is reported)."""
        def build():
            ls, c = self.xiter(coll) if cond is not None else self.xcoll(coll)
            ls, c = self.spill(ls, c)
            fl, fv = self.filter_lines(cond, k, c, coll)
            return ls + fl, fv
        return self._root("st, env", build, (cond or coll).span, at)

    def filter_lines(self, cond, k, src: str, over=None) -> tuple[list[str], str]:
        if cond is None:
            return [], src if src in self.ctx.fn.fresh else f"list({src})"
        mark = self.marks()
        with self._bound(k, "_x", over) as v:
            lines, c = self.x(cond)
        pre, src = self.count_loop(src, over, self.looped_since(mark), over)
        fixed = self.card_mask(cond, k, over)
        if fixed is not None:  # the fixed fact of the card, one look-up; the rest tested after it
            mask, _, rest = fixed
            if rest is not None:
                with self._bound(k, "_x", over) as v:
                    rl, rc = self.x(rest)
            out = self.tmp()
            w = fragment(pre)
            w.line(f"{out} = []")
            with w.block(self.loops(f"for {v} in {src}:")), w.block(f"if {mask}[{v}]:"):
                if rest is None:
                    w.line(f"{out}.append({v})")
                else:
                    w.lines(rl)
                    with w.block(f"if {rc}:"):
                        w.line(f"{out}.append({v})")
            return w.code, out
        # (a loop, not a list comprehension: in Python 3.11 a comprehension is a function of its
        # own whose reads of st and env go through cells, slower for the few items of a game's zones)
        out = self.tmp()
        w = fragment(pre)
        w.line(f"{out} = []")
        with w.block(self.loops(f"for {v} in {src}:")):
            w.lines(lines)
            with w.block(f"if {c}:"):
                w.line(f"{out}.append({v})")
        return w.code, out

    def count_loop(self, src: str, e=None, loops: bool = True, coll=None) -> tuple[list[str], str]:
        """A loop of an expression over src (the collection `coll`) is about to start: its items
        are steps of the game's budget (engine/budget.py), counted at once, before the first. A
        loop over a zone's cards whose body neither loops nor calls (`loops`) is not counted: it
        costs at most the game's cards."""
        zone = coll is not None and (
            self.m.types.get(coll) == ZONE or isinstance(coll, A.EveryZone)  # (a zone of each player: as many as players)
            or isinstance(coll, A.Name) and is_builtin(self.m.refs.get(coll), "players", "others"))
        if zone and not loops:
            return [], src
        lines, src = self.spill([], src)
        w = fragment(lines)
        w.step(self.k(e.span) if e is not None else "None", f"len({src})")
        self.loops("")  # (the step's check calls _over(st, ...))
        return w.code, src

    def def_body(self, d, count: bool = False) -> Fn:
        """A def's body; a zone where the def gives a list of cards gives its cards. A def
        whose calls are not steps of the budget is also generated as a function of its
        parameters (`_dpN(st, me, a1, a2...)`), which the generated calls use (no list of
        values made for each call); the (st, env) function returned reads them from env."""
        b = d.decl.body
        cards = d.type.is_list and self.m.types.get(b) == ZONE
        pos = self._positional(d.decl.name)
        if pos is not None and not count:
            params = [f"_a{i}" for i in range(len(d.params) + 1)]
            frame = max(d.frame, len(params))

            def pbuild():
                with self.own_locals({i: a for i, a in enumerate(params)}):
                    ls, v = self.xcards(b) if cards else self.x(b)
                if self.ctx.fn.env:  # (a part that reads its values from env)
                    ls = [f"env = [{', '.join(params + ['None'] * (frame - len(params)))}]"] + ls
                return ls, v
            f = self._root("st, " + ", ".join(params), pbuild, b.span)
            self._ns()[pos] = f
            n = len(params)

            def by_env(st, env, f=f, n=n):
                return f(st, *env[:n])
            return functools.update_wrapper(by_env, f)  # (named as the generated function it calls)
        if isinstance(b, A.Lit):
            return self.expr(b)

        def build():  # count: each call is a step of the budget (a def that calls itself, engine/budget.py)
            ls, v = self.xcards(b) if cards else self.x(b)
            if not count:
                return ls, v
            w = fragment()
            w.step(self.k(d.decl.span))
            self.loops("")  # (the step's check calls _over(st, ...))
            w.lines(ls)
            return w.code, v
        return self._root("st, env", build, b.span)

    def _positional(self, name: str) -> str | None:
        """The name of a def's function of its parameters (None: its calls pass an env list)."""
        if ("def", name) in self.counted_calls or name not in self.m.defs:
            return None
        order = self._def_order
        if order is None:
            order = self._def_order = {n: i for i, n in enumerate(self.m.defs)}
        return f"_dp{order[name]}"

    def _me(self) -> str:
        """Who `me` is where the code is generated: env[0], or a def's own parameter."""
        return self._local(0)

    # ================================================================ helpers
    @contextmanager
    def _bound(self, k: int, prefix: str = "_v", over: A.Expr | None = None) -> Iterator[str]:
        """A name bound by a quantifier (or a filter) at slot k, as a Python local; bound over
        a zone, it always holds a card."""
        ctx = self.ctx
        name = self.tmp(prefix)
        cards = ctx.cards | {name} if over is not None and self.only_cards(over) else ctx.cards
        with self.inner(locals={**(ctx.locals or {}), k: name}, cards=cards, env_locals=ctx.env_locals - {k},
                        env_slots={s: v for s, v in ctx.env_slots.items() if s != k},
                        impure_locals=ctx.impure_locals - {k}):
            yield name

    def only_cards(self, e, seen: frozenset = frozenset()) -> bool:
        """Does e give cards and nothing else (never none): a zone, the cards of all zones of a
        family, lists of those joined, a filter or the first N of one, a def giving one?"""
        m = self.m
        if m.types.get(e) == ZONE or isinstance(e, A.AllZone):
            return True
        ref = m.refs.get(e)
        if isinstance(e, A.BinOp):
            return isinstance(ref, JoinRef) and self.only_cards(e.left, seen) and self.only_cards(e.right, seen)
        if isinstance(e, A.Quant):
            return e.op == "filter" and self.only_cards(e.coll, seen)
        if isinstance(e, A.Call) and is_builtin(ref, "first") and len(e.args) == 2:
            return self.only_cards(e.args[1], seen)
        if isinstance(e, (A.Call, A.Name)) and isinstance(ref, DefRef) and ref.name in m.defs and ref.name not in seen:
            return self.only_cards(m.defs[ref.name].decl.body, seen | {ref.name})
        return False

    def known_card(self, src: str) -> ContextManager[Ctx]:
        """While generating a block: `src` (a slot) holds a card (a choice's pick from a zone)."""
        return self.inner(cards=self.ctx.cards | {src})

    def seq(self, parts: list[tuple[list[str], str]]) -> tuple[list[str], list[str]]:
        """Several sub-expressions evaluated in order: (lines, values), spilling a value to a
        temporary when a later part must run statements first (so the order stays the rules')."""
        lines: list[str] = []
        vals: list[str] = []
        for i, (ls, v) in enumerate(parts):
            if ls:
                for j, pv in enumerate(vals):
                    if not _simple(pv):
                        t = self.tmp()
                        lines.append(f"{t} = {pv}")
                        vals[j] = t
                lines += ls
            vals.append(v)
        return lines, vals

    def spill(self, lines: list[str], v: str) -> tuple[list[str], str]:
        """A value that will be read more than once: in a temporary unless it is simple."""
        if _simple(v):
            return lines, v
        t = self.tmp()
        return lines + [f"{t} = {v}"], t

    def local_slot(self, e) -> int | None:
        """The env slot an expression reads, if it is just a local name (or `me`)."""
        if isinstance(e, A.Name):
            ref = self.m.refs.get(e)
            k = 0 if is_builtin(ref, "me") else ref.slot if isinstance(ref, LocalRef) else None
            if k is not None:
                loc = self.ctx.locals
                return self.ctx.env_slots.get(k) if loc is not None and k in loc else k
        return None

    attr_rows: dict = {}  # attribute slot -> its values for every card, when all are constants (compile.py)

    def attrs_of(self, slot: int) -> str:
        """The table of an attribute's values by card: a constant when every card's is one."""
        row = self.attr_rows.get(slot)
        return self._impure(f"st.attrs[{slot}]") if row is None else self.k(row)

    def _literal(self, e):
        """(True, value) for a constant the rules write out: a literal, a named constant, a list of those."""
        if isinstance(e, A.ListLit):
            vals = [self._literal(x) for x in e.items]
            return (True, [v for _, v in vals]) if all(ok for ok, _ in vals) else (False, None)
        if isinstance(e, A.Neg) and isinstance(e.operand, A.Lit) and type(e.operand.value) is int:
            return True, -e.operand.value
        ok, v = self.const_value(e)
        if ok and isinstance(e, A.Name) and not isinstance(v, (str, int, bool, type(None))):
            return False, None  # (an effect or action: not a card's value)
        return ok, v

    def const_value(self, e) -> tuple[bool, Any]:
        """(True, value) when an expression is a constant of the rules text."""
        if isinstance(e, A.Lit):
            return True, e.value
        if isinstance(e, A.Name):
            ref = self.m.refs.get(e)
            if isinstance(ref, (ConstRef, EffectRef)):
                return True, ref.name
        return False, None

    def _kind_split(self, cond: A.Expr | None, k: int):
        """(mask, rest): `x is K [and rest]` on the bound slot k becomes a static mask."""
        if cond is None:
            return None, None
        if isinstance(cond, A.IsKind) and isinstance(cond.obj, A.Name) and _is_local(self.m.refs.get(cond.obj), k):
            return self.g.kind_mask.get(cond.kind), None
        if isinstance(cond, A.BinOp) and cond.op == "and":
            mask, rest = self._kind_split(cond.left, k)
            if mask is not None and rest is None:
                return mask, cond.right
        return None, cond

    def sorted_zone(self, e) -> int | None:
        """The family of a zone the fast layout keeps in card order, when e names one (engine/layout.py)."""
        if self.g.sorted_fams and isinstance(e, A.Name):
            ref = self.m.refs.get(e)
            if isinstance(ref, ZoneRef) and ref.whose == "shared" and ref.slot in self.g.sorted_fams:
                return ref.slot
        return None

    def sorted_run(self, coll, mask) -> tuple[int, int] | None:
        """(a, b) when coll is a zone kept in card order and the cards of `mask` are the one run
        of card numbers a..b-1, else None."""
        if mask is None or self.sorted_zone(coll) is None:
            return None
        ids = [c for c, m in enumerate(mask) if m]
        if not ids or ids[-1] - ids[0] + 1 != len(ids):
            return None
        return ids[0], ids[-1] + 1

    def run_ends(self, z: str, run: tuple[int, int]) -> tuple[str, str]:
        """The text of where run a..b-1 starts and ends in the sorted zone z: a bisection, or 0
        and its length at either end of the card numbers."""
        a, b = run
        return ("0" if a == 0 else f"_bisect({z}, {a})"), (f"len({z})" if b == self.g.ncards else f"_bisect({z}, {b})")

    def _wants_list(self, c, i: int, a: A.Expr) -> bool:
        """A zone given for a `list of ...` parameter: the callee gets the zone's cards."""
        return (i < len(c.params) and c.params[i][1].is_list
                and self.m.types.get(a) == ZONE)

    # ================================================================ def inlining
    def _inline(self, e: A.Call, name: str):
        """A call of a small `def` generated into the caller: its body, with the parameters
        read from the caller's values (a quantifier or an aggregate in it loops in the caller, its
        names fresh locals there). Not for a body with a subset search (its test would be a
        function made at each call), only for arguments that are cheap and pure; recursion is
        not inlined."""
        d = self.m.defs[name]
        inlining = self.ctx.inlining
        if name in inlining or len(e.args) != len(d.params) or len(inlining) >= INLINE_DEPTH \
                or ("def", name) in self.counted_calls:  # (each call of these is a step of the budget)
            return None
        ok = self.g.inline_ok.get(name)
        if ok is None:
            nodes = list(A.walk(d.decl.body))
            ok = self.g.inline_ok[name] = len(nodes) <= INLINE_NODES and not any(isinstance(n, A.AnySubset) for n in nodes)
        if not ok:
            return None
        # the def's locals: their sources, the env slots among them, those that read env
        ctx = self.ctx
        loc = ctx.locals
        if loc is not None and 0 in loc:  # (me in the def is the caller's me)
            mapping, slots = {0: loc[0]}, ({0: ctx.env_slots[0]} if 0 in ctx.env_slots else {})
            reads = {0} if 0 in ctx.env_locals else set()
            impure = {0} if 0 in ctx.impure_locals else set()
        else:
            mapping, slots, reads, impure = {0: "env[0]"}, {0: 0}, {0}, set()
        for i, a in enumerate(e.args):
            k = self.local_slot(a)
            wants = self._wants_list(d, i, a)
            if k is not None and not wants:
                mapping[i + 1], slots[i + 1] = f"env[{k}]", k
                reads.add(i + 1)
                continue
            if isinstance(a, A.Name) and isinstance(self.m.refs.get(a), LocalRef) and not wants:
                ls, v, env, dirty = self._unwritten(lambda: self.x(a))  # a name bound by a quantifier: its local
                if not ls and _simple(v):
                    mapping[i + 1] = v
                    if env:
                        reads.add(i + 1)
                    if dirty:
                        impure.add(i + 1)
                    continue
            if all(isinstance(n, _PURE) and not (isinstance(n, A.Name) and isinstance(self.m.refs.get(n), DefRef))
                   and not (isinstance(n, (A.Attr, A.Of)) and not isinstance(self.m.refs.get(n), CardAttrRef))
                   for n in A.walk(a)):
                # a literal or an attribute read: the same value however often it is read, never an error
                ls, v, env, dirty = self._unwritten(lambda: self.xcards(a) if wants else self.x(a))
                if ls:
                    return None
                mapping[i + 1] = f"({v})"
                if env:
                    reads.add(i + 1)
                if dirty:
                    impure.add(i + 1)
            else:
                return None
        with self.inner(locals=mapping, inlining=inlining | {name}, env_slots=slots, env_locals=frozenset(reads),
                        impure_locals=frozenset(impure)):
            b = d.decl.body
            if d.type.is_list and self.m.types.get(b) == ZONE:
                return self.xcards(b)
            return self.x(b)

    # ================================================================ expressions
    def x(self, e: A.Expr) -> tuple[list[str], str]:
        self.ctx.fn.unvetted += 1  # (until its branch says it wrote only pure code: _pure)
        if type(e) in _TABLED:
            t = self._card_table(e)
            if t is not None:
                return self._pure(t, calls=True)  # (a look-up; the function filling it called at first)
        return getattr(self, "x_" + type(e).__name__)(e)

    # ================================================================ values of cards, kept
    def _card_table(self, e):
        """A value that only the cards bound to one or two names decide (their constant
        attributes, constants, calls of defs and has_word that read nothing else), written as
        a look-up in a table by card numbers, filled the first time each entry is asked for
        (by a generated function of the cards alone: the same value, the same faults, at the
        same place). None when e reads anything else (or is cheap to work out)."""
        m = self.m
        if m.types.get(e) not in (BOOL, INT, STR):
            return None
        slots, costly = [], False
        loc, cards = self.ctx.locals or {}, self.ctx.cards
        for n in A.walk(e):
            if not isinstance(n, _TABLE_NODES):
                return None
            ref = m.refs.get(n)
            if isinstance(n, A.Name):
                if not isinstance(ref, (LocalRef, ConstRef)):
                    return None
                if isinstance(ref, LocalRef):
                    if m.types.get(n) != CARD or loc.get(ref.slot) not in cards:
                        return None
                    if ref.slot not in slots:
                        slots.append(ref.slot)
            elif isinstance(n, A.Call):
                if not (isinstance(ref, DefRef) or is_builtin(ref, "has_word", "text")):
                    return None
                costly = costly or isinstance(ref, DefRef) or is_builtin(ref, "has_word")
        if not costly or not 1 <= len(slots) <= 2 or self.g.ncards ** len(slots) > _TABLE_MOST:
            return None
        memo = self._tables
        key = (id(e), tuple(slots))
        if key not in memo:
            memo[key] = self._table_fn(e, slots)
        made = memo[key]
        if made is None:
            return None
        table, fn = made
        va = [self._local(k) for k in slots]
        out, row, v = [], table, self.tmp()
        for a in va[:-1]:
            r = self.tmp()
            out.append(f"{r} = {row}[{a}]")
            row = r
        w = fragment(out)
        w.line(f"{v} = {row}[{va[-1]}]")
        with w.block(f"if {v} is _UNSET:"):
            w.line(f"{v} = {row}[{va[-1]}] = {fn}({', '.join(va)})")
        return w.code, v

    def _table_fn(self, e, slots):
        """(the table's name, the name of the function of the cards that fills it), or None when
        e, written out, reads the state or calls anything but the pure helpers."""
        params = [f"_a{i}" for i in range(len(slots))]
        with self.own_locals({k: p for k, p in zip(slots, params)}, cards=frozenset(params), fn=_Fn()):
            fn = self.ctx.fn
            fn.unvetted += 1  # (the root: see x)
            lines, val = getattr(self, "x_" + type(e).__name__)(e)
        if not fn.calls and len(" ".join(lines + [val])) < 60:
            return None  # (as cheap to work out as to look up: no call, and short)
        if fn.unvetted:  # (a part reads the state, env or the game, or calls anything but the pure helpers)
            return None
        fill = self._root(", ".join(params), lambda: (lines, val), e.span, e.span)
        n = self.g.ncards
        table = [_UNSET] * n if len(slots) == 1 else [[_UNSET] * n for _ in range(n)]
        kf = self.k(fill)
        return self.k(table), kf

    def xiter(self, e: A.Expr) -> tuple[list[str], str]:
        """An expression as something only looped over: the zones of each player as a range."""
        if isinstance(e, A.EveryZone):
            f = self._family(e)
            return [], self._impure(f"st.zfam[{f}]")
        return self.xcoll(e)

    def xcoll(self, e: A.Expr) -> tuple[list[str], str]:
        """An expression as a collection: a zone gives its (live) list of cards."""
        if self.m.types.get(e) == ZONE:
            ref = self.m.refs.get(e)
            if isinstance(ref, ZoneRef) and ref.whose == "card":  # the zone on a card: its cards (none: nothing)
                assert isinstance(e, (A.Attr, A.Of)), e  # (`z of c`)
                ls, c = self.spill(*self.x(e.obj))
                t = self.tmp()
                return ls + [f"{t} = None if {c} is None else st.czone[{ref.slot}][{c}]"], \
                    self._impure(f"(st.zones[{t}] if {t} is not None and {t} >= 0 else [])")
            ls, z = self.x(e)
            return ls, self._impure(f"st.zones[{z}]")
        return self.x(e)

    def xcards(self, e: A.Expr) -> tuple[list[str], str]:
        t = self.m.types.get(e)
        ls, v = self.x(e)
        if t == CARD:
            return ls, f"[{v}]"
        if t == ZONE:
            return ls, self._impure(f"list(st.zones[{v}])")
        return ls, self._impure(f"list({v})")

    def x_Lit(self, e) -> tuple[list[str], str]:
        return [], self._pure(self.k(e.value))

    def x_Index(self, e) -> tuple[list[str], str]:
        lines, (a, b) = self.seq([self.xcoll(e.obj), self.x(e.index)])
        return lines, f"_index({a}, {b})"

    def x_ListLit(self, e) -> tuple[list[str], str]:
        lines, vals = self.seq([self.x(i) for i in e.items])
        return lines, self._pure("[" + ", ".join(vals) + "]")

    def _def_call(self, name: str, args: list[str]) -> str:
        pos = self._positional(name)
        if pos is not None and len(args) == len(self.m.defs[name].params):
            return self.loops(f"{pos}(st, {', '.join([self._me()] + args)})")
        cell = self.k(self.g.def_cells[name])
        frame = self.m.defs[name].frame
        pad = ["None"] * max(0, frame - 1 - len(args))
        return self.loops(f"{cell}[0](st, [{self._me()}, {', '.join(args + pad)}])")

    def x_Name(self, e) -> tuple[list[str], str]:
        ref = self.m.refs[e]
        if isinstance(ref, LocalRef):
            self._pure()
            return [], self._local(ref.slot)
        if isinstance(ref, BuiltinRef):
            n = ref.name
            if n == "me":
                self._pure()
                return [], self._me()
            if n == "players":
                return [], "st.players"
            if n in ("others", "players_in"):  # (a loop, not a comprehension: see filter_lines)
                t, v = self.tmp(), self.tmp("_v")
                self.ctx.fn.fresh.add(t)
                w = fragment([f"{t} = []"])
                with w.block(self.loops(f"for {v} in st.players:")):
                    keep = f"{v} != {self._me()}" if n == "others" else f"{v} not in st.out"
                    with w.block(f"if {keep}:"):
                        w.line(f"{t}.append({v})")
                return w.code, t
            if n == "cards":
                return [], "st.all_cards"
            if n == "current":
                return [], "st.current"
            if n == "next_player":
                return [], "st.next_player"
            if n == "round":
                return [], "st.round"
            if n == "player_count":
                return [], "st.n"
            if n == "game_ends":
                return [], "_g.ended(st)"
            if n == "winners":
                return [], '_g.result(st)["winners"]'
        match ref:
            case OptionRef(slot=s):
                return [], self._read_once(f"_go{s}", f"st.opt[{s}]")
            case CounterRef(whose="shared", slot=s):
                return [], f"st.counters[{s}][0]"
            case CounterRef(whose="me", slot=s):
                return [], f"st.counters[{s}][{self._me()}]"
            case VarRef(whose="shared", slot=s):
                return [], self._read_once(f"_gv{s}", f"st.vars[{s}][0]")
            case ZoneRef(whose="shared", slot=s):
                return [], f"st.zbase[{s}]"
            case ConstRef(name=n) | EffectRef(name=n) | PhaseRef(name=n):
                return [], self._pure(self.k(n))
            case DefRef(name=n):
                inl = self._inline(A.Call(e.span, n, ()), n)  # a def without parameters
                if inl is not None:
                    return self._pure(inl)
                return [], self._def_call(n, [])
            case SelfAttrRef(this=this, slot=aslot, mutable=mutable):  # in a kind's def: an attribute of the card itself
                if not mutable:
                    self._pure()
                _, c = self.x_slot(this)
                return [], f"{f'st.cvars[{aslot}]' if mutable else self.attrs_of(aslot)}[{c}]"
            case SelfZoneRef(this=this, slot=fam):
                _, c = self.x_slot(this)
                return [], f"st.czone[{fam}][{c}]"
            case SelfDefRef(this=this, name=name):
                _, c = self.x_slot(this)
                cell = self.k(self.g.kdef_cells[name])
                pad = ", None" * self.m.kind_defs[name].frame
                return [], self.loops(f"{cell}[0](st, [{self._me()}, {c}{pad}])")
        raise AssertionError(ref)  # pragma: no cover

    def x_slot(self, k: int) -> tuple[list[str], str]:
        return [], self._local(k)

    def _prop(self, e, obj_e):
        ref = self.m.refs[e]
        g = self.g
        ls, o = self.x(obj_e)
        simple = _simple(o)
        card = o in self.ctx.cards  # never none: no test
        if isinstance(ref, ZoneRef) and ref.whose == "card":  # `dice of s`: the zone on card s (none: a card without one, or none)
            ls, o = self.spill(ls, o)
            row = f"st.czone[{ref.slot}]"
            if card:
                return ls, f"(None if {row}[{o}] < 0 else {row}[{o}])"
            return ls, f"(None if {o} is None or {row}[{o}] < 0 else {row}[{o}])"
        if isinstance(ref, KindDefRef):  # a kind's derived attribute, worked out for the card
            kd = ref.name
            fixed = self._kdef_values(kd)
            if fixed is not None:  # (of the card's printed attributes alone: one value a card, looked up)
                self.loops("")  # (what holds it counts its steps as for the call it stands for)
                if card:
                    return ls, f"{fixed}[{o}]"
                ls, o = self.spill(ls, o)
                return ls, f"(None if {o} is None else {fixed}[{o}])"
            kinds = set(self.m.kind_defs[kd].kinds)
            has = self.k([k in kinds for k in g.card_kind])  # only the kind's own cards have the value
            cell = self.k(g.kdef_cells[kd])
            pad = self.k((None,) * self.m.kind_defs[kd].frame)
            ls, o = self.spill(ls, o)
            return ls, self.loops(f"(None if {o} is None or not {has}[{o}] else {cell}[0](st, [{self._me()}, {o}, *{pad}]))")
        if isinstance(ref, CounterRef) and ref.whose == "player":
            return ls, f"st.counters[{ref.slot}][{o}]"
        if isinstance(ref, VarRef) and ref.whose == "player":
            return ls, f"st.vars[{ref.slot}][{o}]"
        if isinstance(ref, ZoneRef) and ref.whose == "player":
            return ls, f"(st.zbase[{ref.slot}] + {o})"
        if isinstance(ref, CardAttrRef):
            if not ref.mutable:
                self._pure()
            table = f"st.cvars[{ref.slot}]" if ref.mutable else self.attrs_of(ref.slot)
            if card:
                return ls, f"{table}[{o}]"
            ls, o = self.spill(ls, o)
            return ls, f"(None if {o} is None else {table}[{o}])"
        if isinstance(ref, PropRef):
            t, name = ref.on, ref.name
            if t == CARD and name == "holder":
                return ls, self.loops(f"_holder(st, {o})")
            if t == "player":
                if name == "left":
                    return ls, f"(({o} + 1) % st.n)"
                if name == "right":
                    return ls, f"(({o} - 1) % st.n)"
                if name == "seat":
                    return ls, self._pure(f"({o} + 1)")
                if name == "eliminated":
                    return ls, f"({o} in st.out)"
            if t == CARD:
                if name == "name":
                    return ls, self._pure(f"{self.k(g.card_name)}[{o}]")
                if name == "kind":
                    return ls, self._pure(f"{self.k(g.card_kind)}[{o}]")
                if name == "facedown":
                    return ls, f"st.facedown[{o}]"
                if name == "zone":
                    if o in self.ctx.cards:  # (a card of a zone: it is in one, and a card never leaves all zones)
                        return ls, f"st.loc[{o}]"
                    if simple:
                        return ls, f"(None if st.loc[{o}] < 0 else st.loc[{o}])"
                    return ls, self.loops(f"_zone_of(st, {o})")
                if name == "owner":
                    return ls, self.loops(f"{'_owner_fixed' if not g.has_card_zones else '_owner'}(st, {o})")
            if t == ZONE:
                if name == "owner":
                    if o in self.ctx.zones and not g.has_card_zones:  # (a zone, never none)
                        return ls, f"st.zowner[{o}]"
                    if simple:
                        return ls, (f"(None if {o} is None else st.zowner[{o}])" if not g.has_card_zones
                                    else f"(None if {o} is None else st.zone_owner({o}))")
                    return ls, self.loops(f"{'_zowner_fixed' if not g.has_card_zones else '_zowner'}(st, {o})")
                if name == "size":
                    return ls, f"len(st.zones[{o}])"
                if name == "capacity":
                    return ls, f"st.cap[{o}]"
        raise AssertionError(ref)  # pragma: no cover

    def x_Attr(self, e) -> tuple[list[str], str]:
        return self._prop(e, e.obj)

    def x_Of(self, e) -> tuple[list[str], str]:
        return self._prop(e, e.obj)

    def _family(self, e: A.AllZone | A.EveryZone) -> int:
        """The zone family of `all Z` / `every Z`."""
        ref = self.m.refs[e]
        assert isinstance(ref, ZoneFamilyRef), ref
        return ref.slot

    def x_AllZone(self, e) -> tuple[list[str], str]:
        return [], self.loops(f"_allz(st, {self._family(e)})")

    def x_EveryZone(self, e) -> tuple[list[str], str]:
        f = self._family(e)
        return [], f"list(st.zfam[{f}])"

    def x_Quant(self, e) -> tuple[list[str], str]:
        op = e.op
        k = self.m.slot(e)
        if e.cond is None:
            if op == "every":
                return [], self._pure("True")  # every(x in C): nothing to fail
            ls, c = self.xcoll(e.coll)
            if op == "count":
                return ls, self._pure(f"len({c})", calls=True)
            if op == "any":
                return ls, self._pure(f"(len({c}) > 0)", calls=True)
            return ls, f"list({c})"
        mask, rest = self._kind_split(e.cond, k)
        run = self.sorted_run(e.coll, mask) if rest is None and op in ("any", "count", "every") else None
        if run is not None:  # the fast layout: the kind's cards are one run of the sorted zone
            ls, c = self.spill(*self.xcoll(e.coll))
            lo, hi = self.run_ends(c, run)
            if op == "any":  # (at either end of the card numbers: the zone's first or last card says)
                if run[0] == 0:
                    return ls, f"(len({c}) > 0 and {c}[0] < {run[1]})"
                if run[1] == self.g.ncards:
                    return ls, f"(len({c}) > 0 and {c}[-1] >= {run[0]})"
                return ls, f"({lo} < {hi})"
            return ls, f"({hi} - {lo})" if op == "count" else f"({hi} - {lo} == len({c}))"
        counted = self._count_of(e, k) if op == "count" else None
        if counted is not None:  # count(x in C where x == V): C.count(V), a loop in C
            mark = self.marks()
            ls, c = self.xiter(e.coll)
            # (the steps the loop would count; its test reads the collection's value)
            loops = self.looped_since(mark) if not ls else _value_loops(c)
            cnt, c = self.count_loop(c, e, loops, e.coll)
            return ls + cnt, f"{c}.count({counted})"
        ls, c = self.xiter(e.coll)
        mark = self.marks()
        with self._bound(k, over=e.coll) as v:
            cl, cv = self.x(e.cond)
        cnt, c = self.count_loop(c, e, self.looped_since(mark), e.coll)
        ls = ls + cnt
        fixed = self.card_mask(e.cond, k, e.coll)
        mask = None
        if fixed is not None and (op != "every" or fixed[2] is None):  # the fixed fact of the card, one look-up
            mask, chosen, rest = fixed
            if rest is None and op in ("any", "every") and self.m.types.get(e.coll) == ZONE:  # (each card once)
                ls, c = self.spill(ls, c)
                self.loops("")  # (a loop still, in C: what holds it counts its steps as for one in Python)
                return ls, f"(not {chosen}.isdisjoint({c}))" if op == "any" else f"{chosen}.issuperset({c})"
            if rest is None:
                cl, cv = [], f"{mask}[{v}]"
                mask = None
            else:
                with self._bound(k, over=e.coll) as v:
                    cl, cv = self.x(rest)
        out = self.tmp()  # (a loop even for a filter: see filter_lines)
        init, test, then = {"filter": ("[]", f"if {cv}:", [f"{out}.append({v})"]),
                            "count": ("0", f"if {cv}:", [f"{out} += 1"]),
                            "any": ("False", f"if {cv}:", [f"{out} = True", "break"])}.get(
            op, ("True", f"if not {cv}:", [f"{out} = False", "break"]))
        w = fragment(ls)
        w.line(f"{out} = {init}")
        with w.block(self.loops(f"for {v} in {c}:")), w.maybe(f"if {mask}[{v}]:" if mask is not None else None):
            w.lines(cl)
            with w.block(test):
                w.lines(then)
        return w.code, out

    def card_mask(self, cond: A.Expr, k: int, coll: A.Expr | None) -> tuple[str, str, A.Expr | None] | None:
        """(mask, chosen, rest) when a condition on the card bound at slot k, looping over the
        cards `coll`, starts with a fixed fact of the card (its constant attributes, kind,
        constants, defs of those: `is_goods(c) and c.cost <= me.gold`): `mask` is the fact of
        each card (a list by card number: one look-up in the loop), `chosen` the cards it holds
        for (a frozenset: `any` and `every` of a zone without a rest are one call), `rest` what is
        left to test (None: nothing). Worked out here, once, for every card: not when a card
        would fault on it (the loop then faults where the rules say)."""
        if coll is None or not self.only_cards(coll):
            return None
        if self._fixed_fact(cond, k):
            first, rest = cond, None
        elif isinstance(cond, A.BinOp) and cond.op == "and" and self._fixed_fact(cond.left, k):
            first, rest = cond.left, cond.right  # (`a and b and c` is `(a and b) and c`: a rest is one node)
        else:
            return None
        made = self._masks.get((id(first), k))
        if made is None:
            made = self._masks[id(first), k] = self._mask_of(first, k)
        if made is False:
            return None
        mask, chosen = made
        return mask, chosen, rest

    def _fixed_fact(self, e: A.Expr, k: int) -> bool:
        """Does e read nothing but the card at slot k's constant attributes and kind, constants
        and defs of those (no other name)?"""
        m = self.m
        for n in A.walk(e):
            if not isinstance(n, (A.BinOp, A.Not, A.Lit, A.Name, A.Attr, A.Of, A.IsKind, A.Cond, A.Call)):
                return False
            ref = m.refs.get(n)
            if isinstance(n, A.Call):  # (a def: kept when, written out, it reads only the card: _mask_of)
                if not (isinstance(ref, DefRef) or is_builtin(ref, "has_word", "text")):
                    return False
            elif isinstance(n, A.Name):
                if not (isinstance(ref, ConstRef) or _is_local(ref, k)):
                    return False
            elif isinstance(n, (A.Attr, A.Of)):
                if not (isinstance(ref, CardAttrRef) and not ref.mutable):
                    return False
            elif isinstance(n, A.BinOp) and isinstance(ref, JoinRef):
                return False
        return True

    def _kdef_values(self, name: str) -> str | None:
        """The table of a kind's derived value by card number (none for a card of another
        kind), when the value reads only the card's printed attributes and constants: worked out
        here, once, for every card of the kind; None when it reads more, counts steps of the
        budget, or faults for some card (then it is worked out where the rules ask for it)."""
        made = self._kdefs.get(name)
        if made is None:
            made = self._kdefs[name] = self._kdef_table(name)
        return made or None

    def _kdef_table(self, name: str):
        info = self.m.kind_defs[name]
        if ("kdef", name) in self.counted_calls:
            return False
        body = info.decl.body
        with self.own_locals({1: "_s0"}, cards=frozenset(["_s0"]), fn=_Fn()):
            fn = self.ctx.fn
            fn.unvetted += 1  # (the root: see x)
            lines, val = getattr(self, "x_" + type(body).__name__)(body)
        if fn.unvetted or fn.env:
            return False
        value = self._root("_s0", lambda: (lines, val), body.span, body.span)
        kinds, card_kind = set(info.kinds), self.g.card_kind
        try:
            table = [value(c) if card_kind[c] in kinds else None for c in range(self.g.ncards)]
        except Exception:
            return False
        return self.k(table)

    def _mask_of(self, e: A.Expr, k: int):
        """(mask, chosen) of a fixed fact e of the card at slot k (constants of the module), or
        False when a card faults on it."""
        with self.own_locals({k: "_s0"}, cards=frozenset(["_s0"]), fn=_Fn()):
            fn = self.ctx.fn
            fn.unvetted += 1  # (the root: see x)
            lines, val = getattr(self, "x_" + type(e).__name__)(e)
        if fn.unvetted:
            return False
        fact = self._root("_s0", lambda: (lines, val), e.span, e.span)
        try:
            mask = [bool(fact(c)) for c in range(self.g.ncards)]
        except Exception:
            return False
        return self.k(mask), self.k(frozenset(c for c, yes in enumerate(mask) if yes))

    def _count_of(self, e, k: int) -> str | None:
        """V when the condition of `count(x in C where ...)` is `x == V` (either way round), V a
        value read without work or fault that does not read x; else None."""
        c = e.cond
        if not (isinstance(c, A.BinOp) and c.op == "=="):
            return None
        for x, other in ((c.left, c.right), (c.right, c.left)):
            if not (isinstance(x, A.Name) and _is_local(self.m.refs.get(x), k)):
                continue
            if any(isinstance(n, A.Name) and _is_local(self.m.refs.get(n), k) for n in A.walk(other)):
                continue
            ol, ov = self.x(other)
            if not ol and _simple(ov):
                return ov
        return None

    def _subset_sum(self, e, k):
        """(attribute slot, table, target) when the condition of `any(subset S ...)` is
        `sum(x.ATTR for x in S) == V` (either way round), V not reading S; else None."""
        c = e.cond
        if not (isinstance(c, A.BinOp) and c.op == "=="):
            return None
        for agg, other in ((c.left, c.right), (c.right, c.left)):
            if not (isinstance(agg, A.Aggregate) and agg.op == "sum" and agg.cond is None):
                continue
            if not (isinstance(agg.coll, A.Name) and _is_local(self.m.refs.get(agg.coll), k)):
                continue
            v = agg.value
            ref = self.m.refs.get(v)
            if not isinstance(v, (A.Attr, A.Of)) or not isinstance(ref, CardAttrRef) or not isinstance(v.obj, A.Name) \
                    or not _is_local(self.m.refs.get(v.obj), self.m.slot(agg)):
                continue
            if any(isinstance(n, A.Name) and _is_local(self.m.refs.get(n), k) for n in A.walk(other)):
                continue
            if self.ctx.inlining:
                continue
            return ref.slot, ("cvars" if ref.mutable else "attrs"), other
        return None

    def x_AnySubset(self, e) -> tuple[list[str], str]:
        """Some subset of the collection (of a size in low..high, 1.. by default) meets the
        condition: tried smallest first, stopping at the first that does."""
        k = self.m.slot(e)
        parts = [self.xcoll(e.coll)]
        parts.append(self.x(e.low) if e.low is not None else ([], "1"))
        parts.append(self.x(e.high) if e.high is not None else ([], "None"))
        lines, (c, lo, hi) = self.seq(parts)
        items, a, b = self.tmp(), self.tmp(), self.tmp()
        lines += [f"{items} = list({c})",
                  f"{a} = max(0, {lo})" if e.low is not None else f"{a} = 1",
                  f"{b} = min(len({items}), {hi})" if e.high is not None else f"{b} = len({items})"]
        test = self.tmp("_f")
        with self._bound(k) as v:
            cl, cv = self.x(e.cond) if e.cond is not None else ([], "True")
        def write_test(w):
            with w.block(f"def {test}({v}):"):
                w.lines(cl)
                w.line(f"return {cv}")
        span = self.k(e.span)
        fast = self._subset_sum(e, k)
        w = fragment(lines)
        if fast is None:
            write_test(w)
            return w.code, f"_any_subset({items}, {a}, {b}, {test}, {span})"
        aslot, table, other = fast
        ol, ov = self.x(other)
        col = self.attrs_of(aslot) if table == "attrs" else f"st.{table}[{aslot}]"
        # the test is made only when the sums cannot tell (a negative value or total): _subset_sum gives None
        r = self.tmp()
        w.lines(ol)
        w.line(f"{r} = _subset_sum({items}, {a}, {b}, {ov}, {col}, None, {span})")
        with w.block(f"if {r} is None:"):
            write_test(w)
            w.line(f"{r} = _any_subset({items}, {a}, {b}, {test}, {span})")
        return w.code, r

    def x_Aggregate(self, e) -> tuple[list[str], str]:
        op = e.op
        k = self.m.slot(e)
        ls, c = self.xcoll(e.coll)
        mark = self.marks()
        with self._bound(k, over=e.coll) as v:
            cl, cv = self.x(e.cond) if e.cond is not None else ([], None)
            vl, vv = self.x(e.value)
        cnt, c = self.count_loop(c, e, self.looped_since(mark), e.coll)
        ls = ls + cnt
        out, x = self.tmp(), self.tmp()
        if op == "sum":
            init, test, add, fin = "0", f"if {x} is not None:", f"{out} += {x}", out
        elif op in ("min", "max"):
            init, test, add, fin = "None", f"if {x} is not None and ({out} is None or {x} {'<' if op == 'min' else '>'} {out}):", \
                f"{out} = {x}", f"(0 if {out} is None else {out})"
        else:  # distinct: none counts as a value
            init, test, add, fin = "[]", f"if {x} not in {out}:", f"{out}.append({x})", out
        w = fragment(ls)
        w.line(f"{out} = {init}")
        with w.block(self.loops(f"for {v} in {c}:")):
            w.lines(cl)
            with w.maybe(f"if {cv}:" if cv is not None else None):
                w.lines(vl)
                w.line(f"{x} = {vv}")
                with w.block(test):
                    w.line(add)
        return w.code, fin

    def x_BinOp(self, e) -> tuple[list[str], str]:
        op = e.op
        if isinstance(self.m.refs.get(e), JoinRef):  # L + M joins two lists (or zones' cards); L + M + N at once
            parts = [e.right]
            left = e.left
            while isinstance(left, A.BinOp) and isinstance(self.m.refs.get(left), JoinRef):
                parts.append(left.right)
                left = left.left
            parts.append(left)
            lines, vals = self.seq([self.xcoll(x) for x in reversed(parts)])
            t = self.tmp()  # (its items are steps of the budget, and a list holds at most MAX_LIST)
            w = fragment(lines)
            w.line(f"{t} = [{', '.join('*' + v for v in vals)}]")
            w.step(None, f"len({t})", over=self.loops(f"_over_list(st, {t}, {self.k(e.span)})"))
            return w.code, t
        is_const, cval = self.const_value(e.right)
        if is_const and op in ("==", "!=") and isinstance(e.left, (A.Attr, A.Of)) and isinstance(e.left.obj, A.Name):
            ref = self.m.refs.get(e.left)
            oref = self.m.refs.get(e.left.obj)
            ol, x = self.x(e.left.obj) if isinstance(oref, (LocalRef, BuiltinRef)) else (["?"], "")
            if isinstance(ref, CardAttrRef) and not ref.mutable and not ol and _simple(x) and x != "st.current":
                c = self.k(cval)
                t = self.attrs_of(ref.slot)
                self._pure()
                if x in self.ctx.cards:
                    return [], f"({t}[{x}] {op} {c})"
                if op == "==":
                    return [], f"({x} is not None and {t}[{x}] == {c})"
                return [], f"({x} is None or {t}[{x}] != {c})"
        if op in ("and", "or"):
            self._pure()
            la, a = self.x(e.left)
            lb, b = self.x(e.right)
            if not lb:
                return la, f"({a} {op} {b})"
            t = self.tmp()
            w = fragment(la)
            w.line(f"{t} = {a}")
            with w.block(f"if {t}:" if op == "and" else f"if not {t}:"):
                w.lines(lb)
                w.line(f"{t} = {b}")
            return w.code, t
        lines, (a, b) = self.seq([self.x(e.left), self.x(e.right)])
        if op == "*" and not (self.const_value(e.left)[0] or is_const):  # a product can grow without end
            return lines, f"_mul({a}, {b}, {self.k(e.span)})"
        if op in _COMPARE:
            return lines, self._pure(f"({a} {_COMPARE[op]} {b})")
        span = self.k(e.span)
        return lines, f"{'_div' if op == '/' else '_mod'}({a}, {b}, {span})"

    def x_Not(self, e) -> tuple[list[str], str]:
        ls, a = self.x(e.operand)
        return ls, self._pure(f"(not {a})")

    def x_Neg(self, e) -> tuple[list[str], str]:
        ls, a = self.x(e.operand)
        return ls, self._pure(f"(-{a})")

    def x_IsKind(self, e) -> tuple[list[str], str]:
        ls, o = self.x(e.obj)
        mask = self.k(self.g.kind_mask.get(e.kind, []))
        if o in self.ctx.cards:
            return ls, self._pure(f"{mask}[{o}]")
        if _simple(o):
            return ls, self._pure(f"({o} is not None and {mask}[{o}])")
        return ls, f"_is({mask}, {o})"

    def x_Cond(self, e) -> tuple[list[str], str]:
        self._pure()
        lt, t = self.x(e.test)
        la, a = self.x(e.then)
        lb, b = self.x(e.orelse)
        if not la and not lb:
            return lt, f"({a} if {t} else {b})"
        r = self.tmp()
        w = fragment(lt)
        with w.block(f"if {t}:"):
            w.lines(la)
            w.line(f"{r} = {a}")
        with w.block("else:"):
            w.lines(lb)
            w.line(f"{r} = {b}")
        return w.code, r

    def x_Match(self, e) -> tuple[list[str], str]:
        self._pure(calls=True)  # (a look-up in a table of its cases)
        ls, subj = self.x(e.subject)
        table: dict = {}
        arms: list = []
        default = None
        for case in e.cases:
            if not case.patterns:
                if default is None:
                    default = len(arms)
            for _, v in case.patterns:
                table.setdefault(v, len(arms))
            arms.append(case.value)
        consts = [self.const_value(a) for a in arms]
        if all(ok for ok, _ in consts):  # every arm a constant: one lookup
            look = self.k({v: consts[i][1] for v, i in table.items()})
            dv = "None" if default is None else self.k(consts[default][1])
            return ls, f"{look}.get({subj}, {dv})"
        built = [self.x(a) for a in arms]
        idx = self.k(table)
        t, r = self.tmp(), self.tmp()
        w = fragment(ls)
        w.line(f"{t} = {idx}.get({subj}, {default if default is not None else -1})")
        for i, (bl, bv) in enumerate(built):
            with w.block(f"{'if' if i == 0 else 'elif'} {t} == {i}:"):
                w.lines(bl)
                w.line(f"{r} = {bv}")
        with w.maybe("else:" if built else None):
            w.line(f"{r} = None")
        return w.code, r

    def x_Call(self, e) -> tuple[list[str], str]:
        ref = self.m.refs[e]
        if isinstance(ref, ValuesRef):
            return [], f"list({self.k(tuple(self.m.enums[ref.enum]))})"
        if isinstance(ref, DefRef):
            inl = self._inline(e, ref.name)
            if inl is not None:
                return self._pure(inl)
            d = self.m.defs[ref.name]
            lines, args = self.seq([self.xcards(a) if self._wants_list(d, i, a) else self.x(a)
                                    for i, a in enumerate(e.args)])
            return lines, self._def_call(ref.name, args)
        if isinstance(ref, EffectRef) and not ref.is_action:
            return [], self._pure(self.k(ref.name))
        assert isinstance(ref, (BuiltinRef, EffectRef)), ref  # (what a call resolves to)
        n = ref.name
        span = self.k(e.span)
        if n == "empty" and self.m.types.get(e.args[0], ZONE) != ZONE:  # empty(L) on a list
            ls, a = self.x(e.args[0])
            return ls, self._pure(f"(not {a})")
        if n == "size":
            ls, c = self.xcoll(e.args[0])
            return ls, self._pure(f"len({c})", calls=True)
        if n == "first":
            lines, (a, c) = self.seq([self.x(e.args[0]), self.xcoll(e.args[1])])
            if self.m.types.get(e.args[1]) == ZONE:  # of a zone: its top cards, the top one first
                return lines, f"list(reversed({c}))[: max(0, {a})]"
            return lines, f"list({c})[: max(0, {a})]"
        lines, args = self.seq([self.x(a) for a in e.args])
        if n in ("full", "empty", "free", "top"):
            z = args[0]
            if n == "empty":
                return lines, f"(not st.zones[{z}])"
            lines, z = self.spill(lines, z)  # (read more than once)
            if n == "full":
                return lines, f"(len(st.zones[{z}]) >= st.capn[{z}])"  # (capn: NO_CAP where there is none)
            if n == "free":
                return lines, self.loops(f"_free(st, {z})")
            return lines, f"(st.zones[{z}][-1] if st.zones[{z}] else None)"
        if n == "player":
            return lines, self.loops(f"_player(st, {args[0]}, {span})")
        if n == "neighbour":
            return lines, f"(({args[0]} + {args[1]}) % st.n)"
        if n in ("lesser", "greater"):  # min(a, b) / max(a, b) written out: b if b < a (b > a) else a
            a, b = args
            if not _simple(a) and not _simple(b):
                return lines, f"{'min' if n == 'lesser' else 'max'}({a}, {b})"
            lines, a = self.spill(lines, a)  # (a value read twice; a simple one is read without work)
            lines, b = self.spill(lines, b)
            return lines, self._pure(f"({b} if {b} {'<' if n == 'lesser' else '>'} {a} else {a})")
        if n == "abs":
            return lines, f"abs({args[0]})"
        if n == "random":
            return lines, f"st.rng.randint({args[0]}, {args[1]})"
        if n == "named":
            lines, a = self.spill(lines, args[0])
            return lines, self.loops(f"[_c for _c in st.all_cards if {self.k(self.g.card_name)}[_c] == {a}]")
        if n == "allowed":
            who = args[1] if len(args) == 2 else self._me()
            return lines, self.loops(f"_allowed(st, _g, {args[0]}, {who})")
        if n == "offered":  # scenarios: the options offered under a prompt, the last (or N-th) time
            return lines, self.loops(f"_offered(st, {args[0]}, {args[1] if len(args) == 2 else 'None'})")
        if n == "saw":  # scenarios: could the player see the card when the decision was asked?
            return lines, self.loops(f"_saw(st, {args[0]}, {args[1]}, {args[2]}, {args[3] if len(args) == 4 else 'None'}, {span})")
        if n == "asked":  # scenarios: the player asked the decision, the last (or N-th) time
            return lines, self.loops(f"_asked(st, {args[0]}, {args[1] if len(args) == 2 else 'None'}, {span})")
        if n == "taken":  # did the player whose turn it is take that action this turn?
            return lines, f"({args[0]} in st.turn_used)"
        if n == "range":
            return lines, self.loops(f"_numbers(st, {args[0]}, {args[1]}, {span})")
        if n == "has_word":  # the name rule: WORD is a whole word (or run of words) of TEXT, in any case
            lit = e.args[1].value if isinstance(e.args[1], A.Lit) and isinstance(e.args[1].value, str) else None
            if lit is not None:
                return lines, self._pure(f"_has_word_lit({self.k({})}, {self.k(_words(lit))}, {args[0]})", calls=True)
            lines, t = self.spill(lines, args[0])
            lines, w = self.spill(lines, args[1])
            return lines, self._pure(f"({t} is not None and {w} is not None and _has_word({t}, {w}))", calls=True)
        if n == "text":  # a value as the rules write it: Ale, 3, P2, a card's name
            vt = self.m.types.get(e.args[0])
            if vt is not None and vt.enum is not None or vt == STR:
                return lines, self._pure(args[0])
            if vt == CARD:
                return lines, self._pure(f"_card_text({self.k(self.g.card_name)}, {args[0]})", calls=True)
            return lines, f"_g.value_text({args[0]}, st, {self.k(vt)})"
        if n == "order_from":
            return lines, self.loops(f"_order_from(st, {args[0]})")
        raise AssertionError(n)  # pragma: no cover
