"""Compile a checked GameModel once into generated Python source (docs/engine.md).

`CompiledGame` is a compiled game: its static tables of cards and zones, and the `Program` the
compiler makes of its rules (engine/program.py). `_Compiler` generates the flow (setup, rounds,
phases, turns) here, statements and expressions in its mixins (statements.py, expressions.py),
writing with engine/writer.py. Every expression becomes a generated function
``f(st, env) -> value`` and every block either a plain function ``f(st, env)`` or, when it can
ask a player something, a generator function that yields :class:`Decision` objects and receives
the chosen option index. ``env`` is a flat list of local slots fixed by the checker (slot 0 is
`me`), so nothing is looked up by name while playing.

Elsewhere: labels and visibility (present.py), making states (initial.py), ranking (ranking.py),
what the generated turn code runs on (turns.py).
"""
from __future__ import annotations

from typing import Any, Generator

from ..errors import GameError
from ..check.model import BuiltinRef, DefRef, GameModel, elem
from ..check.checker import MAX_ROUNDS
from ..syntax import ast as A
from .budget import counted, self_calling
from .common import Decision, Fn, _const  # noqa: F401  (Decision is part of the engine's API)
from .expressions import ExpressionCompiler, _Fn
from .initial import new_state
from .writer import Writer, fragment
from .layout import Layout, analyse
from .present import Presentation
from .program import Program
from .ranking import result
from .state import GameOver, State
from .runtime import _n_labeler, _numbers_msg
from .statements import MAX_NUMBERS, StatementCompiler, _first, head_choice, unit_words
from .turns import MAX_STEPS, _Action, _action_label, _Head, _Phase, _Simul


def _numbers(lo, hi, span) -> list:
    """The options of a `choose number` asked with a simultaneous phase's pick."""
    if hi - lo + 1 > MAX_NUMBERS:
        raise GameError(_numbers_msg(lo, hi, MAX_NUMBERS), span)
    return list(range(lo, hi + 1))


def _of_program(name: str) -> property:
    return property(lambda self: getattr(self.program, name), doc=f"The compiled rules' `{name}` (Program.{name}).")


class CompiledGame(Presentation):
    """A game, compiled once; `new_state` makes fresh states for it. Its tables of cards and zones
    are set here; what compiling the rules makes is `self.program`, whose fields read as the
    game's own (`game.phases`)."""

    option_default = _of_program("option_default")
    card_fields = _of_program("card_fields")
    attr_rows = _of_program("attr_rows")
    counter_init = _of_program("counter_init")
    counter_info = _of_program("counter_info")
    var_init = _of_program("var_init")
    var_default = _of_program("var_default")
    zone_cap = _of_program("zone_cap")
    zone_drop = _of_program("zone_drop")
    kdef_cells = _of_program("kdef_cells")
    def_frames = _of_program("def_frames")
    actions = _of_program("actions")
    setup = _of_program("setup")
    setup_frame = _of_program("setup_frame")
    game_end = _of_program("game_end")
    game_end_frame = _of_program("game_end_frame")
    rounds_count = _of_program("rounds_count")
    phases = _of_program("phases")
    end_conds = _of_program("end_conds")
    winner_keys = _of_program("winner_keys")
    winner_everyone = _of_program("winner_everyone")
    guarded_winners = _of_program("guarded_winners")
    scenarios = _of_program("scenarios")

    def __init__(self, model: GameModel, playout: bool = False, layout: Layout | None = None, fast: bool = False):
        """`layout`: which zones are kept in card order (engine/layout.py); by default none (the
        exact layout). `fast=True` is short for `layout=analyse(model)`, the fast layout: other
        games for a seed than the exact layout's, the same games in distribution."""
        self.model = model
        self.playout = playout  # the playout flavour (an agent makes every decision): see playouts()
        if fast and layout is not None:
            raise ValueError("give a layout or fast=True, not both")
        self.layout = analyse(model) if fast else layout if layout is not None else Layout()
        self.sorted_fams = self.layout.sorted  # the zone families kept in card order (the generator reads them)
        self._playouts: CompiledGame | None = None
        self.title = model.title
        self.min_players, self.max_players = model.min_players, model.max_players
        self.counter_slots = {c.name: c.slot for c in model.counters.values()}
        self.counter_words = {c.name: unit_words(c.decl) for c in model.counters.values()}  # 1 coin, 3 coins
        self.var_slots = {v.name: v.slot for v in model.vars.values()}
        self.zone_names = [z.name for z in model.zones.values()]
        self.zone_per = [z.decl.per_player for z in model.zones.values()]
        self.zone_vis = [z.decl.visibility for z in model.zones.values()]
        # zones on cards (`zone dice: ...` in a kind): one family per name, one zone per card holding it
        self.zone_holders: list[list[int]] = [[] for _ in model.zones]
        self.zone_is_card = [False] * len(model.zones)
        # cards: one instance per copy, in declaration order
        self.card_name: list[str] = []
        self.card_kind: list[str] = []
        self.card_decl: list[A.CardDecl] = []
        for cd in model.cards:
            for _ in range(cd.copies):
                self.card_name.append(cd.name)
                self.card_kind.append(cd.kind)
                self.card_decl.append(cd)
        self.ncards = len(self.card_name)
        self.copy_no = []  # which copy of its name a card is (1, 2, ...), for unique zone labels
        seen_names: dict = {}
        for nm in self.card_name:
            seen_names[nm] = seen_names.get(nm, 0) + 1
            self.copy_no.append(seen_names[nm])
        self.copies_of = seen_names
        for cz in model.card_zones.values():
            self.zone_names.append(cz.name)
            self.zone_per.append(False)
            self.zone_vis.append(cz.decl.visibility)
            self.zone_is_card.append(True)
            self.zone_holders.append([c for c in range(self.ncards) if self.card_kind[c] in cz.kinds])
        self.has_card_zones = bool(model.card_zones)
        self.kind_mask = {k: [ck == k for ck in self.card_kind] for k in model.kinds}
        # what the log calls one card of each kind and several: its `unit`, else card and cards
        self.kind_words = {k.name: (k.decl.unit[0], k.decl.unit[1] or k.decl.unit[0] + "s") if k.decl.unit else
                           ("card", "cards") for k in model.kinds.values()}
        self.card_vars = []
        for ck in self.card_kind:
            kinfo = model.kinds.get(ck)
            quiet = {ad.name for ad in kinfo.decl.attrs if ad.unlabelled} if kinfo else set()
            self.card_vars.append([(a.name, a.slot, a.type) for a in kinfo.attrs.values()
                                   if a.mutable and a.name not in quiet] if kinfo else [])
        self.effect_cells: dict[str, list] = {n: [None] for n in model.effects}
        self.def_cells: dict[str, list] = {n: [None] for n in model.defs}
        self.inline_ok: dict[str, bool] = {}
        self._ranking = None  # the winner rule being read (for the place of an error in it)
        self.effect_titles = {n: (e.decl.title or n) for n, e in model.effects.items()}
        self.card_templates = [self._template(cd, ck) for cd, ck in zip(self.card_decl, self.card_kind)]
        self._pad = [None] * model.max_frame
        self._templates: dict = {}
        self._functions: dict = {}  # (expression, shape) -> its function (function_of)
        self.gen_source: list[str] = []  # the generated Python source, one function's text each
        self.program = Program()  # what the compiler makes of the rules (its fields read as the game's)
        self._compiler = _Compiler(self, playout)  # (kept: function_of compiles what tools ask for)
        self._compiler.compile_all(self.program)

    # ---------------------------------------------------------------- evaluating the rules' expressions
    def function_of(self, e: A.Expr, shape: str = "value") -> Fn:
        """An expression of the rules as a function `f(st, env)` of this game, made once: its value
        ("value"); its cards as a new list ("cards": of a card, a list of cards or a zone); or the
        collection it names ("collection": a zone gives its own list of cards). `env` is the frame
        of the expression's place: slot 0 is `me`, its locals after (evaluate makes one)."""
        key = (e, shape)
        f = self._functions.get(key)
        if f is None:
            make = {"value": self._compiler.expr, "cards": self._compiler.cards_of, "collection": self._compiler.coll}[shape]
            f = self._functions[key] = make(e)
        return f

    def evaluate(self, e: A.Expr, st: State, env: list | None = None) -> Any:
        """The value of an expression of the rules in st (option bounds, a view's test, a
        scenario's `expect`); env: its frame (by default `me` and every local none)."""
        return self.function_of(e)(st, env if env is not None else [None] * (self.model.max_frame + 1))

    def argument_as_cards(self, callee, i: int, arg: A.Expr) -> bool:
        """Is `arg`, the i-th argument of a call of `callee` (a def or an effect), passed as its
        cards (function_of(arg, "cards")): a zone given for a `list of ...` parameter."""
        return self._compiler._wants_list(callee, i, arg)

    def log_move(self, st: State, c: int, old: int, z: int) -> None:
        StatementCompiler._log_move(st, self, c, old, z, None, None)

    def _zbase(self, n: int) -> list[int]:
        """Each zone family's first zone number in an n-player game."""
        out, k = [], 0
        for f, per in enumerate(self.zone_per):
            out.append(k)
            k += n if per else len(self.zone_holders[f]) if self.zone_is_card[f] else 1
        return out

    @property
    def namespace(self) -> dict:
        """The generated module's namespace: what its functions read by name (runtime.exported,
        the game `_g`, the rules' constants `_kN`, the spans of its lines), for reading."""
        return self._compiler._ns()

    # ---------------------------------------------------------------- state
    def playouts(self) -> "CompiledGame":
        """The same game compiled in the playout flavour: every decision is the state's agent's
        (st.agent must be set), so the generated code never suspends (no generators) and a
        decision with one option is taken without recording it. The same games, exactly
        (tests/test_oracle.py); runner.playout uses it."""
        if self.playout:
            return self
        if self._playouts is None:
            self._playouts = CompiledGame(self.model, playout=True, layout=self.layout)
        return self._playouts

    def new_state(self, n: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """A fresh state (engine/initial.py)."""
        return new_state(self, n, seed, options)

    def flow(self, st: State, at: tuple | None = None) -> Generator[Decision, Any, None]:
        """The whole game as a generator of Decisions (generated: _Compiler.flow). `at`: the
        game resumed at the start of a phase, from a copy of the state as it stood there (`at`
        is what the flow handed `st.on_phase` there; the interactive flavour only)."""
        flow = self.program.flow
        assert flow is not None  # (compile_all makes it)
        if at is None:
            return flow(st)
        if self.playout:
            raise ValueError("a game resumes at a phase in the interactive flavour, not game.playouts()")
        return flow(st, at)

    def final_scoring(self, st: State) -> Generator[Decision, Any, None]:
        """`at game end`: once, however the game ended (`end game` inside it changes nothing)."""
        if self.game_end is not None:
            if st.log is not None:
                st.log.append(("-- game end --", None, {"type": "phase", "phase": "game end"}))
            try:
                _r = self.game_end(st, [None] * (self.game_end_frame + 1))
                if _r is not None:
                    yield from _r
            except GameOver:
                pass

    def ended(self, st: State) -> bool:
        for c in self.end_conds:
            if c(st, [st.current] + self._pad):
                return True
        return False

    def result(self, st: State) -> dict:
        """Who wins and the scores, by the winner rules (engine/ranking.py)."""
        return result(self, st)


class _Compiler(StatementCompiler, ExpressionCompiler):
    """Compiles a checked model once: the flow (setup, rounds, phases, turns) here,
    statements and expressions in their mixins."""

    def __init__(self, game: CompiledGame, playout: bool = False):
        self.g = game
        self.m = game.model
        super().__init__()
        self.playout = playout  # the playout flavour: an agent decides every choice, nothing is yielded
        self.option_fns: dict = {}  # choose statement -> function listing its options
        self.legal_me: dict = {}  # action name -> its legality as `f(st, me)`, for the turn loop (action_legal)
        # does any rule ask `taken(A)` (st.turn_used: the actions of the turn being played)?
        self.reads_taken = any(isinstance(r, BuiltinRef) and r.name == "taken" for r in self.m.refs.values())

    # ================================================================ top
    def compile_all(self, p: Program) -> Program:
        """Compile the rules into `p`, the game's Program (the generation steps read what is
        made so far through the game, `g.phases` being `p.phases`)."""
        g, m = self.g, self.m
        self.counted_calls = self_calling(m)  # each call of these is a step of the budget (engine/budget.py)
        p.option_default = [self.expr(o.decl.default) for o in m.options.values()]
        p.card_fields = []
        cache: dict[int, list] = {}
        exprs: dict[int, dict] = {}
        for cd in g.card_decl:
            if id(cd) not in cache:
                fields = {}
                k = m.kinds.get(cd.kind)
                if k is not None:  # each kind's own defaults (two kinds may share an attribute's name)
                    for ad in k.decl.attrs:
                        info = k.attrs.get(ad.name)
                        if info is not None and ad.default is not None:
                            fields[info.slot] = ad.default
                for f in cd.fields:
                    info = m.attrs_by_name.get(f.name)
                    if info is not None:
                        fields[info.slot] = f.value
                exprs[id(cd)] = fields
                cache[id(cd)] = [(slot, self.expr(e)) for slot, e in fields.items()]
            p.card_fields.append(cache[id(cd)])
        # an attribute every card gives as a constant of the rules text: one table for every game,
        # read by the generated code as a constant (not through the state)
        p.attr_rows = {}
        for slot in range(len(m.attrs_by_name)):
            row, const = [], True
            for cd in g.card_decl:
                e = exprs[id(cd)].get(slot)
                ok, v = (True, None) if e is None else self._literal(e)
                if not ok:
                    const = False
                    break
                row.append(v)
            if const:
                p.attr_rows[slot] = row
        self.attr_rows = p.attr_rows
        p.counter_init = [self.expr(c.decl.initial) if c.decl.initial else _const(0) for c in m.counters.values()]
        p.counter_info = [c for c in m.counters.values()]
        p.var_init = [self.expr(v.decl.initial) if v.decl.initial else None for v in m.vars.values()]
        defaults = {"int": 0, "bool": False, "str": ""}
        p.var_default = [defaults.get(v.type) for v in m.vars.values()]
        p.zone_cap = [self.expr(z.decl.capacity) if z.decl.capacity else None for z in m.zones.values()]
        # a zone on cards of several kinds: each kind's own capacity and `drop to`
        p.zone_cap += [{k: self.expr(kz.capacity) for k, kz in cz.decls.items() if kz.capacity is not None}
                       for cz in m.card_zones.values()]
        p.zone_drop = [None] * len(m.zones) + [{k: self.expr(kz.drop) for k, kz in cz.decls.items() if kz.drop is not None}
                                                for cz in m.card_zones.values()]
        # triggers on counters
        # every trigger and handler is known before any body is compiled, so a `gain` or an `emit`
        # in a body sees all of them, whatever their order in the file (the bodies fill in after)
        self.reach: dict[int, list] = {}
        bodies = []
        for d, frame in m.reach:
            ci = m.counters[d.counter]
            entry = [self.expr(d.value), None, frame, m.slots[d], d]
            self.reach.setdefault(ci.slot, []).append(entry)
            bodies.append((entry, 1, d.body))
        self.handlers = {ev: [] for ev in m.handlers}
        for ev, hs in m.handlers.items():
            for hd, frame in hs:
                entry = [None, frame, len(hd.params)]
                self.handlers[ev].append(entry)
                bodies.append((entry, 0, hd.body))
        for entry, at, body in bodies:
            entry[at] = self.gen_block(body)
        p.kdef_cells = {n: [None] for n in m.kind_defs}
        loops = self.counted_calls
        for name, kd in m.kind_defs.items():
            kf = self.def_body(kd, ("kdef", name) in loops)
            p.kdef_cells[name][0] = counted(kf, kd.decl.span, True) if ("kdef", name) in loops else kf
        for name, dd in m.defs.items():
            df = self.def_body(dd, ("def", name) in loops)
            g.def_cells[name][0] = counted(df, dd.decl.span, True) if ("def", name) in loops else df
        p.def_frames = {n: d.frame for n, d in m.defs.items()}
        for name, e in m.effects.items():
            # (a body that asks nothing is a plain function: its callers run it without a generator)
            ef = self.block(e.decl.body, skip_requires=True)[1]
            g.effect_cells[name][0] = (self.requires(e), ef, e.frame, e)  # (its callers count the steps)
        p.actions = {}
        for name, a in m.actions.items():
            run = self.gen_block(a.decl.body, skip_requires=True)
            p.actions[name] = _Action(name, a.decl.title or name, self.action_legal(a), run, a.frame)
            p.actions[name].first = self.first_choice(a)
        p.setup = self.gen_block(m.setup.decl.body) if m.setup else None
        p.setup_frame = m.setup.frame if m.setup else 1
        p.game_end = self.gen_block(m.game_end.decl.body) if m.game_end else None
        p.game_end_frame = m.game_end.frame if m.game_end else 1
        p.rounds_count = self.expr(m.rounds.count) if m.rounds and m.rounds.count else None
        p.phases = [self.phase(ph) for ph in m.phases]
        p.end_conds = [self.expr(e.cond) for e in m.end_conds]
        p.flow = self.flow()
        p.winner_keys = [self.expr(k) for k in m.winner.keys] if m.winner else []
        p.winner_everyone = self.expr(m.winner.everyone_if) if m.winner and m.winner.everyone_if else None
        p.guarded_winners = [(self.expr(w.guard), [self.expr(k) for k in w.keys],
                              self.expr(w.everyone_if) if w.everyone_if is not None else None)
                             for w in m.guarded_winners]
        p.scenarios = [self.scenario(sc) for sc in m.scenarios]
        return p

    def _phase(self, w, ph, i: int) -> None:
        """Phase i of the flow's round, under its heading in the log (none if it did nothing)."""
        k = self.k
        with w.block("if st.log is not None:"):
            w.line(f"_m = _log_round(st, {k(ph)})")
        if ph.resumes:  # (where its turns start, and the turn it resumes at: _tt, once)
            w.line(f"_r = {k(ph.run)}(st, ({i}, _lim, _tt))")
            w.line("_tt = None")
        else:
            w.line(f"_r = {k(ph.run)}(st)")
        with w.block("if _r is not None:"):
            w.line("yield from _r")
        with w.block("if st.log is not None and len(st.log) == _m:"):
            w.line("st.log.pop()")

    def flow(self) -> Fn:
        """The whole game as one generated generator function of the state: setup, the rounds
        with their phases in order (each under its heading in the log; a phase that did nothing
        leaves none), `end when` at the end of each round, `rounds N`; then `at game end`.

        In the interactive flavour the game can also be started at the start of a phase or of a
        turn of a phase of turns, from a copy of the state as it stood there (a search's worlds,
        bots.py): there the flow (or the phase's turn loop) hands `st.on_phase`, when set, the
        token `(phase, rounds limit, turn or None)` that `flow(copy, token)` resumes from (setup
        is skipped, and the round is not counted again)."""
        g, m, k = self.g, self.m, self.k
        w = self.writer()
        resumable = not self.playout
        with w.block("try:"):
            with w.maybe("if _at is None:" if resumable else None):
                if g.setup is not None:  # no one acts in setup: `me` is none
                    w.line(f"_r = {k(g.setup)}(st, [None{', None' * g.setup_frame}])")
                    with w.block("if _r is not None:"):
                        w.line("yield from _r")
                if g.rounds_count is not None:
                    assert m.rounds is not None and m.rounds.count is not None  # (what rounds_count is made of)
                    sp = k(m.rounds.count.span)
                    w.line(f"_lim = {k(g.rounds_count)}(st, [None{', None' * len(g._pad)}])")
                    with w.block("if _lim is not None and _lim < 1:"):
                        w.line(f"raise _GameError(_rounds_msg(_lim, 1), {sp})")
                    with w.block(f"if _lim is not None and _lim > {MAX_ROUNDS}:"):
                        w.line(f"raise _GameError(_rounds_msg(_lim, {MAX_ROUNDS}), {sp})")
                elif resumable:
                    w.line("_lim = None")
                if resumable:
                    w.lines(["_ph = 0", "_tt = None"])
            if resumable:
                with w.block("else:"):
                    w.line("_ph, _lim, _tt = _at")
            with w.block("while True:"):
                # (resumed at phase i, the phases before it and the count of the round are skipped;
                # the first phase's start is the round's, before it is counted; resumed at a turn
                # of phase i, _tt, the phase is handed it and resumes there)
                with w.maybe("if _ph == 0:" if resumable else None):
                    with w.maybe("if _tt is None:" if resumable else None):
                        if resumable:
                            with w.block("if st.on_phase is not None:"):
                                w.line("st.on_phase((0, _lim, None))")
                        w.line("st.round += 1")
                        with w.block(f"if st.round > {MAX_ROUNDS}:"):
                            w.line(f"raise _GameError({k(f'the game did not end after {MAX_ROUNDS} rounds (the most a game may have)')}, "
                                   f"{k(m.rounds.span if m.rounds is not None else None)})")
                    if g.phases:
                        self._phase(w, g.phases[0], 0)
                for i, ph in enumerate(g.phases[1:], 1):
                    with w.maybe(f"if _ph <= {i}:" if resumable else None):
                        if resumable:
                            with w.block("if st.on_phase is not None and _tt is None:"):
                                w.line(f"st.on_phase(({i}, _lim, None))")
                        self._phase(w, ph, i)
                if resumable and len(g.phases) > 1:
                    w.line("_ph = 0")
                if g.end_conds:  # `end when` is checked at the end of each round (`end game` ends at once)
                    with w.block("if _g.ended(st):"):
                        w.line("raise _GameOver")
                if g.rounds_count is not None:
                    with w.block("if _lim is not None and st.round >= _lim:"):
                        w.line("raise _GameOver")
        with w.block("except _GameOver:"):
            w.line("pass")
        w.line("yield from _g.final_scoring(st)")
        return self.compile_fn("st, _at=None" if resumable else "st", w, "None")

    def scenario(self, info) -> dict:
        d = info.decl
        return {
            "decl": d,
            "frame": info.frame,
            "options": {name: self.expr(e) for name, e, _ in d.options},
            "given": self.gen_block(d.given) if d.given is not None else None,
            "run": self.gen_block(d.run) if d.run is not None else None,
            "expects": [(self.expr(e), e, msg) for e, msg in d.expects],
        }

    def action_legal(self, a) -> Fn | None:
        """An action is an option when its requires hold and, if it starts with a choice
        a player makes, that choice has at least one option: an action that cannot be
        carried out is not offered."""
        first = next((st for st in a.decl.body.stmts if not isinstance(st, A.Require)), None)
        if not (isinstance(first, (A.Choose, A.ChooseSubset, A.ChooseOne)) and not (first.chooser and first.chooser.random)):
            cond = self._all_requires(a)
            if cond is not None:  # (the turn loop's test: a function of the player, no env list made)
                self.legal_me[a.name] = self._root_me(a.frame, lambda: self.x(cond), cond.span)
            return self.requires(a)
        cond = self._all_requires(a)
        if isinstance(first, A.Choose) and first.cond is not None and self._costly(first.cond):
            self.legal_me[a.name] = self._root_me(a.frame, lambda: self._any_option(first, cond))
            return self._root("st, env", lambda: self._any_option(first, cond))
        opts = self.k(self.choose_options(first))

        def build():
            # true as the options themselves, so that a turn that takes the action hands them to its
            # first choice (st.known_opts) instead of working them out again
            if cond is None:
                return [], self.read_env(f"({opts}(st, env) or False)")
            rl, rv = self.x(cond)
            if not rl:
                return [], self.read_env(f"({rv} and ({opts}(st, env) or False))")
            t = self.tmp()
            w = fragment(rl)
            w.line(f"{t} = {rv}")
            with w.block(f"if {t}:"):
                w.line(self.read_env(f"{t} = {opts}(st, env) or False"))
            return w.code, t
        # a fault working the requires out is reported at them (one in the options, at the choice)
        where, at = (cond or first).span, cond.span if cond is not None else None
        self.legal_me[a.name] = self._root_me(a.frame, build, where, at)
        return self._root("st, env", build, where, at)

    def _root_me(self, frame: int, build, where=None, at=None):
        """The legality test the turn loop calls, `f(st, me)`: build()'s lines with `me` read from
        the parameter (an env list is made inside only when a part still reads one)."""
        def mbuild():
            with self.own_locals({0: "_a0"}):
                body, val, *ret = build()
            if self.ctx.fn.env:  # (a part still reads env)
                make_env = f"env = [_a0{', None' * frame}]"
                if not isinstance(body, Writer):
                    return [make_env] + body, val
                w = self.writer()
                w.line(make_env, body.spans[0] if body.spans else ret[0])  # (at the first line's rules text)
                w.write(body)
                body = w
            return (body, val, *ret)
        return self._root("st, _a0", mbuild, where, at)

    def _any_option(self, first: A.Choose, cond):
        """The legality of an action whose first choice's options are costly to list: its requires,
        then whether *some* option meets the choice's condition (the first one found will do). An
        action a turn does not take then costs little; one it takes lists its options again.
        A fault is reported at the choice, or at the requires: where it arose."""
        ls, c = self.spill(*self.xcoll(first.coll))
        assert first.cond is not None  # (only a choice with a condition is tried so)
        mark = self.marks()
        with self._bound(self.m.slot(first), "_x", first.coll) as v:
            fl, fv = self.x(first.cond)
        pre, src = self.count_loop(c, first.coll, self.looped_since(mark), first.coll)
        out = self.tmp()
        body = self.writer(first.span)
        body.lines(ls + pre)
        body.line(f"{out} = False")
        with body.block(self.loops(f"for {v} in {src}:")):
            body.lines(fl)
            with body.block(f"if {fv}:"):
                body.line(f"{out} = True")
                body.line("break")
        if cond is None:
            return body, out, first.span
        rl, rv = self.x(cond)
        t = self.tmp()
        w = self.writer(cond.span)
        w.lines(rl)
        w.line(f"{t} = {rv}")
        with w.block(f"if {t}:"):
            w.write(body)
            w.line(f"{t} = {out}", first.span)
        return w, t, cond.span

    def _costly(self, e, seen=frozenset()) -> bool:
        """Does working out e loop (a quantifier, an aggregate, a subset), here or in a def it calls?"""
        for n in A.walk(e):
            if isinstance(n, (A.Quant, A.Aggregate, A.AnySubset)):
                return True
            ref = self.m.refs.get(n)
            if isinstance(ref, DefRef) and ref.name not in seen and ref.name in self.m.defs:
                if self._costly(self.m.defs[ref.name].decl.body, seen | {ref.name}):
                    return True
        return False

    def first_choice(self, a) -> A.Choose | A.ChooseSubset | None:
        """The action's first statement when it is a choice whose options its legality works out."""
        first = next((st for st in a.decl.body.stmts if not isinstance(st, A.Require)), None)
        if isinstance(first, A.Choose) and first.cond is not None and self._costly(first.cond):
            return None  # (its legality only finds one option: see _any_option)
        if isinstance(first, (A.Choose, A.ChooseSubset)) and first.chooser is None:
            return first
        return None

    def requires(self, c) -> Fn | None:
        """An action's or effect's leading `require`s, as one generated test (true when all hold)."""
        cond = self._all_requires(c)
        return None if cond is None else self.expr(cond)

    @staticmethod
    def _all_requires(c):
        """The leading `require`s of an action or effect as one condition (`and`, in order), or None."""
        if not c.requires:
            return None
        cond = c.requires[0].cond
        for r in c.requires[1:]:
            cond = A.BinOp(span=r.cond.span, op="and", left=cond, right=r.cond)
        return cond

    def phase(self, info) -> _Phase:
        g = self.g
        ph = info.decl
        frame = info.frame
        title = ph.title or ph.name
        if ph.body is not None:  # a phase of steps (`for each player [from P]`: once for each, in turn)
            return self.steps_phase(ph, frame, title)
        start = self.expr(ph.start)
        until = self.expr(ph.until) if ph.until is not None else None
        acts = []
        for ref in ph.actions:
            a = g.actions[ref.name]
            b = _Action(a.name, a.title, a.req, a.body, a.frame, a.first)
            b.once = ref.once
            b.required = ref.required
            acts.append(b)
        at_once = ph.until_at_once and until is not None
        can_pass = ph.can_pass
        pass_cond = self.expr(ph.pass_cond) if ph.pass_cond is not None else None
        once_each = ph.once_each
        multi = can_pass or any(a.once for a in acts)
        required = [a for a in acts if a.required]

        def multi_turns(once_each, can_pass, multi):
            return self.turns(ph, frame, acts, required, at_once, can_pass, once_each, multi)

        if ph.simultaneous:
            return _Phase(ph.name, title, self.simultaneous_phase(ph, info, start, until, acts, at_once, can_pass,
                                                                  pass_cond, required, multi_turns(True, True, True)),
                          resumes=not self.playout)
        return _Phase(ph.name, title, multi_turns(once_each, can_pass, multi), resumes=not self.playout)

    def steps_phase(self, ph, frame: int, title: str) -> _Phase:
        """A phase of steps (`phase P { ... }`, `phase P for each player [from F] { ... }`) as
        generated functions of the state: its body written out inside them (a phase that asks
        nothing is a plain function: whoever runs a phase runs what it gives back, if anything)."""
        k = self.k
        with self.inner(fn=_Fn()):
            body = self.writer()
            is_gen = self.write_stmts(body, ph.body.stmts)
            key = k(("phase", ph))
            w = self.writer(ph.span)
            if not ph.each_player:
                w.fired(key)
                w.line(f"env = [st.current{', None' * frame}]")
                w.write(body)
                return _Phase(ph.name, title, self.compile_fn("st", w, "None"))
            # `do PHASE as p`: the body once, for p
            w.line(f"env = [_p{', None' * frame}]")
            w.line("st.current = _p")
            w.write(body)
            run_for = self.compile_fn("st, _p", w, "None")
        w = self.writer(ph.span)
        w.fired(key)
        if ph.each_from is not None:
            with self.inner(fn=_Fn()):
                fl, fv = self.x(ph.each_from)
            with w.at(ph.each_from.span):
                w.line(f"env = [st.current{', None' * frame}]")
                w.lines(fl)
                w.line(f"_f = {fv}")
                with w.block("if _f is None:"):
                    w.line(f"raise _GameError({k('the first player of the phase is none')}, {k(ph.each_from.span)})")
        else:
            w.line("_f = 0")
        call = f"{k(run_for)}(st, (_f + _i) % st.n)"
        with w.block("for _i in range(st.n):"):
            if self.m.eliminates:  # a player out of the game has no part in it
                with w.block("if (_f + _i) % st.n in st.out:"):
                    w.line("continue")
            w.line(f"yield from {call}" if is_gen else call)
        return _Phase(ph.name, title, self.compile_fn("st", w, "None"), run_for)

    def turns(self, ph, frame, acts, required, at_once, can_pass, once_each, multi) -> Fn:
        """A phase of turns (`turns from FIRST [until C] { actions ... }`), as one generated
        generator function of the state: whose turn it is, the actions that may be taken,
        `once`, `required`, `pass`, `until C [at once]`, `once each`; a turn of one action
        (no `pass`, no `once`) or of several."""
        k = self.k
        with self.inner(fn=_Fn()):
            sl, sv = self.x(ph.start)
            ul, uv = self.x(ph.until) if ph.until is not None else ([], None)
            pl, pv = self.x(ph.pass_cond) if ph.pass_cond is not None else ([], None)
        phase_key, idle_key = k(("phase", ph)), k(("idle", ph))
        prompt, label = k("your turn: choose an action"), k(_action_label)
        none_next = k("the next player is none ('next turn' of nobody)")

        def write_legal(used: bool) -> bool:
            """`legal` = the actions the player may take now (`known`: the options of their first
            choices, worked out by the legality tests); True when some are known."""
            tests, known = self.writer(ph.span), False
            for a in acts:
                ka = k(a)
                with tests.maybe(f"if {k(a.name)} not in used:" if a.once and used else None):
                    if a.req is None:
                        tests.line(f"legal.append({ka})")
                        continue
                    req = self.legal_me.get(a.name)
                    call = f"{k(a.req)}(st, [cur{', None' * a.frame}])" if req is None else f"{k(req)}(st, cur)"
                    if a.first is not None and multi:
                        known = True
                        tests.line(f"r = {call}")
                        with tests.block("if r:"):
                            tests.line(f"legal.append({ka})")
                            with tests.block("if known is None:"):
                                tests.line("known = {}")
                            tests.line(f"known[{ka}] = r")
                    else:
                        with tests.block(f"if {call}:"):
                            tests.line(f"legal.append({ka})")
            w.line("legal = []")
            if known:
                w.line("known = None")
            w.write(tests)
            return known

        w = self.writer(ph.span)
        w.fired(phase_key)
        w.line(f"env = [st.current{', None' * frame}]")
        # (the interactive flavour: run by the flow with _at = (phase, rounds limit, turn or None), it
        # hands st.on_phase each turn's start, `turn` being what it resumes from: see flow())
        resumable = not self.playout
        with w.maybe("if _at is None or _at[2] is None:" if resumable else None):
            w.lines(sl)
            w.line(f"cur = {sv}")
            with w.block("if cur is None:"):
                w.line(f"raise _GameError({k('the first player of the turns is none')}, {k(ph.start.span)})")
            if resumable:
                w.lines(["taken = 0", "idle = 0", "steps = 0"])
        if resumable:
            with w.block("else:"):
                w.line("cur, taken, idle, steps = _at[2]")
            w.lines(["n = st.n", "log = st.log"])
        else:
            w.lines(["n = st.n", "taken = 0", "idle = 0", "steps = 0", "log = st.log"])
        with w.block("while True:"):
            with w.block("if cur is None:"):
                w.line(f"raise _GameError({none_next}, {k(ph.span)})")
            if self.m.eliminates:  # a player out of the game: their turn passes, silently
                with w.block("if cur in st.out:"):
                    w.lines(["taken += 1", "idle += 1"])
                    with w.block("if idle >= n:"):  # (nobody is left in the game)
                        w.line("return")
                    w.line("cur = (cur + 1) % n")
                    w.line("continue")
            w.line("env[0] = st.current = cur")  # `me` in `until` and `pass if` is the player taking the turn
            if resumable:
                with w.block("if _at is not None and st.on_phase is not None:"):
                    w.line("st.on_phase((_at[0], _at[1], (cur, taken, idle, steps)))")
            if uv is not None:
                w.lines(ul)
                with w.block(f"if {uv}:"):
                    w.line("return")
            if once_each:
                with w.block("if taken >= n:"):
                    w.line("return")
            w.line("st.next_player = (cur + 1) % n")
            ask = f"legal[{self.ask('legal', 'cur', prompt, label)}]"
            # (one env list as long as the largest action's frame: a body reads only its own slots)
            env = f"[cur{', None' * max((a.frame for a in acts), default=0)}]"
            run = f"a.body(st, {env})" if self.playout else f"yield from a.body(st, {env})"
            following = "(cur + 1) % n" if once_each else "st.next_player"
            if not multi:
                write_legal(False)
                w.line("taken += 1")
                w.step(k(ph.span))
                with w.block(f"if taken > {MAX_STEPS}:"):
                    w.line(f"raise _GameError({k(f'the phase did not end after {MAX_STEPS} turns')}, {k(ph.span)})")
                with w.block("if legal:"):
                    w.line("idle = 0")
                    w.line(f"a = {ask}")
                    with w.logged("log is not None"):
                        w.line("_log_action(log, cur, a)")
                    w.fired("a.name")
                    if self.reads_taken:
                        w.line("st.turn_used = a.alone")  # `taken(A)` inside the turn's one action
                    w.line(run)
                    if self.reads_taken:
                        w.line("st.turn_used = _NOTHING")
                    w.line(f"cur = {following}")
                with w.block("else:"):  # a player who can do nothing is skipped; if nobody can, the phase is over
                    w.fired(idle_key)
                    w.line("idle += 1")
                    with w.logged("log is not None"):
                        w.line("_log_nothing(log, cur)")
                    with w.block("if idle >= n:"):
                        w.line("return")
                    w.line("cur = (cur + 1) % n")
                return self.compile_fn("st, _at=None" if resumable else "st", w, "None")
            w.line("used = st.turn_used = set()")
            w.line("acted = False")
            with w.block("while True:"):
                known = write_legal(True)
                if can_pass:  # `pass` ends the turn (not while a required action waits)
                    # (written out, one test per required action: no generator made at each step)
                    tests = ([f"({pv})"] if pv is not None else []) + \
                        (["not (" + " or ".join(f"({k(a)} in legal and {k(a.name)} not in used)" for a in required) + ")"]
                         if required else [])
                    w.lines(pl)
                    with w.maybe(f"if {' and '.join(tests)}:" if tests else None):
                        w.line("legal.append(None)")
                    with w.block("if len(legal) == 1 and legal[0] is None:"):
                        w.line("break")
                with w.block("if not legal:"):
                    with w.muted(self.playout), w.block("if not acted and st.fired is not None:"):
                        w.count_fired(idle_key)
                    w.line("break")
                w.line(f"a = {ask}")
                with w.block("if a is None:"):
                    with w.logged("log is not None"):
                        w.line("_log_pass(log, cur)")
                    w.line("break")
                with w.logged("log is not None"):
                    w.line("_log_action(log, cur, a)")
                w.fired("a.name")
                w.lines(["used.add(a.name)", "acted = True", "steps += 1"])
                w.step(k(ph.span))
                with w.block(f"if steps > {MAX_STEPS}:"):
                    w.line(f"raise _GameError({k(f'the phase did not end after {MAX_STEPS} actions')}, {k(ph.span)})")
                if known:  # nothing has changed since they were worked out
                    with w.block("if known is not None and a in known:"):
                        w.line("st.known_opts = (a.first, known[a])")
                w.line(run)
                w.line("st.known_opts = None")
                if at_once:  # `until C at once`: the phase ends mid-turn
                    w.lines(ul)
                    with w.block(f"if {uv}:"):
                        w.line("st.turn_used = set()")
                        w.line("return")
                if not multi:
                    w.line("break")
            w.line("taken += 1")
            w.line("st.turn_used = set()")
            w.line("idle = 0 if acted else idle + 1")  # the phase is over when every player in a row passed or could do nothing
            if not once_each:
                with w.block("if idle >= n:"):
                    w.line("return")
            w.line(f"cur = {following}")
        return self.compile_fn("st, _at=None" if resumable else "st", w, "None")

    def simultaneous_phase(self, ph, info, start, until, acts, at_once, can_pass, pass_cond, required, one_at_a_time) -> Fn:
        """`turns from FIRST simultaneous [if C]`: in each step every player still in the phase
        picks an action (with its first choice) unseen by the others; the picks then resolve in
        seat order from FIRST, each re-checking its requirements and its choice. Passing leaves the
        phase; it ends when nobody is left. With C false, it is played one player at a time."""
        m = self.m
        frame = info.frame
        cond = self.expr(ph.simul_cond) if ph.simul_cond is not None else None
        heads: dict[str, _Head] = {}
        for a in acts:
            body = m.actions[a.name].decl.body.stmts
            h = self.head(head_choice([x for x in body if not isinstance(x, A.Require)][:1]))
            if h is not None:
                heads[a.name] = h
        spec = self.k(_Simul(ph, frame, cond, start, until, acts, at_once, can_pass, pass_cond, required, one_at_a_time, heads))
        w = self.writer(ph.span)
        if self.playout:
            w.line(f"yield from _simultaneous_turns(st, {spec})")
            return self.compile_fn("st", w, "None")
        w.line(f"yield from _simultaneous_turns(st, {spec}, _at)")  # (_at: see _simultaneous_turns)
        return self.compile_fn("st, _at=None", w, "None")

    def head(self, s) -> _Head | None:
        """A choice at the head of an action (statements.head_choices) and those after it, as the
        simultaneous phase asks them with the pick (turns._Head); None for no choice."""
        if s is None:
            return None
        m, g = self.m, self.g
        prompt = s.prompt or ("choose one" if isinstance(s, A.ChooseOne) else f"choose {s.var}")
        if s in m.prompt_holes:
            prompt = (lambda node: lambda st, env, viewer=None: g.prompt_text(node, st, env, viewer))(s)
        if isinstance(s, A.ChooseOne):
            return _Head(s, "one", self.choose_options(s), prompt, _first, None,
                         then=tuple(self.head(head_choice(o.body.stmts)) for o in s.options))
        then = self.head(head_choice(s.body.stmts))
        if isinstance(s, A.ChooseNumber):
            lo, hi, span = self.expr(s.low), self.expr(s.high), s.span
            return _Head(s, "number", lambda st, env: _numbers(lo(st, env), hi(st, env), span), prompt, str,
                         m.slot(s), then=then)
        t = elem(m.types.get(s.coll) or "any")
        cards = t == "card" or t in m.kinds
        if isinstance(s, A.Choose):
            return _Head(s, "choose", self.choose_options(s), prompt, t, m.slot(s), cards, then=then)
        if isinstance(s, A.ChooseSubset):
            return _Head(s, "subset", self.choose_options(s), prompt, "list:" + (t or "any"), m.slot(s), cards,
                         then=then)
        count = self.expr(s.count)
        ck = m.slots.get(s.cond) if s.cond is not None else None  # (what its `where` binds)
        items = self.options_of(s.cond, ck if isinstance(ck, int) else 0, s.coll, s.span)
        return _Head(s, "n", items, prompt, lambda st, p: _n_labeler(st, g, p, t), m.slot(s), cards, count,
                     s.up_to, then)

    # ================================================================ blocks
    def gen_block(self, b: A.Block, skip_requires=False) -> Fn:
        """Compile a block to a generator function (always a generator)."""
        return self._block_fn(b, skip_requires, True)[1]

    def block(self, b: A.Block, skip_requires=False) -> tuple[bool, Fn]:
        """Compile a block to (is_gen, fn): a generator function when it can ask a player."""
        return self._block_fn(b, skip_requires, False)

    def _block_fn(self, b: A.Block, skip_requires: bool, always_gen: bool):
        """One generated function for the whole block, its statements written out inside it."""
        stmts = [s for s in b.stmts if not (skip_requires and isinstance(s, A.Require))]
        w = self.writer()
        with self.inner(fn=_Fn()):
            is_gen = self.write_stmts(w, stmts)
        if always_gen and not is_gen and not self.playout:
            with w.block("if False:"):  # a generator that asks nothing
                w.line("yield")
        return is_gen, self.compile_fn("st, env", w, "None")
