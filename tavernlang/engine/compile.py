"""Compile a checked GameModel once into closures.

Every expression becomes ``f(st, env) -> value`` and every statement either a
plain function ``f(st, env)`` or, when it can ask a player something, a
generator function that yields :class:`Decision` objects and receives the
chosen option index. ``env`` is a flat list of local slots fixed by the
checker (slot 0 is `me`), so nothing is looked up by name while playing.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable

from ..check.checker import BUILTIN_PROPS  # noqa: F401  (documentation of props)
from ..check.model import CARD, ZONE, GameModel, elem
from ..errors import GameError, Span
from ..syntax import ast as A
from .state import GameOver, State

Fn = Callable[[State, list], Any]
MAX_SUBSETS = 4096


class Decision:
    """A pending choice: who decides, among which options."""

    __slots__ = ("player", "options", "prompt", "labeler", "span", "st")

    def __init__(self, player, options, prompt, labeler, span=None, st=None):
        self.player = player
        self.options = options
        self.prompt = prompt
        self.labeler = labeler  # a function, or the options' type name (labelled by the game)
        self.span = span
        self.st = st

    def labels(self) -> list[str]:
        lab = self.labeler
        if lab is None or isinstance(lab, str):
            st = self.st
            p, g = self.player, st.game
            if lab == "card":  # the chooser sees only what they may see
                return [g.card_label(o, st) if st.visible(o, p) else "face-down card" for o in self.options]
            if lab == "list:card":
                return ["{" + ", ".join(g.card_label(c, st) if st.visible(c, p) else "face-down card" for c in o) + "}"
                        for o in self.options]
            return [st.game.label(o, st, lab) for o in self.options]
        return [lab(o) for o in self.options]


def _const(v):
    return lambda st, env: v


class CompiledGame:
    """A game, compiled once; `new_state` makes fresh states for it."""

    def __init__(self, model: GameModel):
        self.model = model
        self.title = model.title
        self.min_players, self.max_players = model.min_players, model.max_players
        self.counter_slots = {c.name: c.slot for c in model.counters.values()}
        self.var_slots = {v.name: v.slot for v in model.vars.values()}
        self.zone_names = [z.name for z in model.zones.values()]
        self.zone_per = [z.decl.per_player for z in model.zones.values()]
        self.zone_vis = [z.decl.visibility for z in model.zones.values()]
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
        self.kind_mask = {k: [ck == k for ck in self.card_kind] for k in model.kinds}
        self.card_vars = []
        for ck in self.card_kind:
            kinfo = model.kinds.get(ck)
            self.card_vars.append([(a.name, a.slot) for a in kinfo.attrs.values() if a.mutable] if kinfo else [])
        self.effect_cells: dict[str, list] = {n: [None] for n in model.effects}
        self.def_cells: dict[str, list] = {n: [None] for n in model.defs}
        self.effect_titles = {n: (e.decl.title or n) for n, e in model.effects.items()}
        self._pad = [None] * model.max_frame
        c = _Compiler(self)
        self._compiler = c
        c.compile_all()

    def compiler_expr_value(self, e, st: State):
        """Evaluate a constant expression of the rules (option bounds and the like)."""
        return self._compiler.expr(e)(st, [None] * (self.model.max_frame + 1))

    # ---------------------------------------------------------------- naming
    def zone_name(self, z: int, st: State | None = None) -> str:
        return self._zone_label(z, self._n_for_names)

    _n_for_names = 1

    def _zone_label(self, z: int, n: int) -> str:
        f = self._zone_family_of(z, n)
        if self.zone_per[f]:
            return f"{self.zone_names[f]} of P{z - self._zbase(n)[f] + 1}"
        return self.zone_names[f]

    def _zbase(self, n: int) -> list[int]:
        out, k = [], 0
        for per in self.zone_per:
            out.append(k)
            k += n if per else 1
        return out

    def _zone_family_of(self, z: int, n: int) -> int:
        base = self._zbase(n)
        for f in range(len(base) - 1, -1, -1):
            if z >= base[f]:
                return f
        return 0

    def card_label(self, c: int, st: State) -> str:
        """A card's name, with the values of its `var` attributes (a die shows its face)."""
        slots = self.card_vars[c]
        if not slots:
            return self.card_name[c]
        return f"{self.card_name[c]} (" + ", ".join(f"{n} {st.cvars[i][c]}" for n, i in slots) + ")"

    def label(self, v, st: State, t: str | None = None) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if v is None:
            return "nothing"
        if t == "player":
            return f"P{v + 1}"
        if t == "card":
            return self.card_label(v, st)
        if t == "zone":
            return self._zone_label(v, st.n)
        if isinstance(v, (list, tuple)):
            inner = t[5:] if t and t.startswith("list:") else None
            return "{" + ", ".join(self.label(x, st, inner) for x in v) + "}"
        return str(v)

    # ---------------------------------------------------------------- state
    def new_state(self, n: int, seed: int, options: dict[str, Any] | None = None) -> State:
        m = self.model
        st = State(self, n, seed)
        st.zbase = self._zbase(n)
        nz = sum(n if per else 1 for per in self.zone_per)
        st.zones = [[] for _ in range(nz)]
        st.zfamily, st.zowner = [], []
        for f, per in enumerate(self.zone_per):
            for p in range(n if per else 1):
                st.zfamily.append(f)
                st.zowner.append(p if per else None)
        st.zhidden = [self.zone_vis[f] == "hidden" for f in st.zfamily]
        st.zprivate = [self.zone_vis[f] == "private" and st.zowner[z] is not None for z, f in enumerate(st.zfamily)]
        st.loc = [-1] * self.ncards
        st.facedown = [False] * self.ncards
        st.seen = [0] * self.ncards
        st.all_cards = list(range(self.ncards))
        env = [None] * (m.max_frame + 1)
        st.opt = [None] * len(m.options)
        options = dict(options or {})
        for o in m.options.values():
            st.opt[o.slot] = options.pop(o.name) if o.name in options else self.option_default[o.slot](st, env)
        if options:
            raise GameError(f"unknown option '{next(iter(options))}'")
        for o in m.options.values():
            d = o.decl
            if d.low is not None and d.high is not None:
                lo, hi = self._compiler.expr(d.low)(st, env), self._compiler.expr(d.high)(st, env)
                v = st.opt[o.slot]
                if not (isinstance(v, int) and lo <= v <= hi):
                    raise GameError(f"option '{o.name}' is {v}, outside its range {lo}..{hi}", d.span)
        st.attrs = [[None] * self.ncards for _ in m.attrs_by_name]
        st.cvars = [[None] * self.ncards for _ in m.attrs_by_name]
        for c in range(self.ncards):
            for slot, fn in self.card_fields[c]:
                v = fn(st, env)
                st.attrs[slot][c] = v
                st.cvars[slot][c] = v
        # every counter and variable exists (0 / none) before any initial value is worked out, so
        # an initial value may read another; a per-player one is worked out for each player (`me`)
        st.counters = [[0] * (n if ci.decl.per_player else 1) for ci in m.counters.values()]
        st.vars = [[self.var_default[vi.slot]] * (n if vi.decl.per_player else 1) for vi in m.vars.values()]
        for ci in m.counters.values():
            fn = self.counter_init[ci.slot]
            row = st.counters[ci.slot]
            for p in range(len(row)):
                env[0] = p if ci.decl.per_player else None
                row[p] = fn(st, env)
        for vi in m.vars.values():
            fn = self.var_init[vi.slot]
            if fn is None:
                continue
            row = st.vars[vi.slot]
            for p in range(len(row)):
                env[0] = p if vi.decl.per_player else None
                row[p] = fn(st, env)
        env[0] = None
        st.cap = [None] * nz
        for z in range(nz):
            fn = self.zone_cap[st.zfamily[z]]
            st.cap[z] = fn(st, env) if fn else None
        return st

    def flow(self, st: State):
        """The whole game as a generator of Decisions."""
        try:
            if self.setup is not None:
                yield from self.setup(st, [None] * (self.setup_frame + 1))  # no one acts in setup: `me` is none
            limit = self.rounds_count(st, [None] + self._pad) if self.rounds_count else None
            if limit is not None and limit < 1:
                raise GameError(f"the game has {limit} rounds: it needs at least 1", self.model.rounds.count.span)
            while True:
                st.round += 1
                if st.round > 10_000:
                    raise GameError("the game did not end after 10000 rounds")
                for ph in self.phases:
                    if st.log is not None:
                        st.log.append((f"-- round {st.round}: {ph.title} --", None, {"type": "phase", "round": st.round, "phase": ph.name}))
                    yield from ph.run(st)
                # `end when` is checked at the end of each round (`end game` ends at once)
                if self.ended(st):
                    raise GameOver
                if limit is not None and st.round >= limit:
                    raise GameOver
        except GameOver:
            return

    def ended(self, st: State) -> bool:
        for c in self.end_conds:
            if c(st, [st.current] + self._pad):
                return True
        return False

    def result(self, st: State) -> dict:
        keys = []
        for p in range(st.n):
            env = [p] + [None] * self.model.max_frame
            keys.append(tuple(k(st, env) for k in self.winner_keys))
        if self.winner_everyone is not None:
            win = bool(self.winner_everyone(st, [None] * self.model.max_frame))
            winners = list(range(st.n)) if win else []
        elif keys and keys[0]:
            best = max(keys)
            winners = [p for p in range(st.n) if keys[p] == best]
        else:
            winners = list(range(st.n))
        scores = [k[0] if k else 0 for k in keys]
        return {"winners": winners, "scores": scores, "keys": [list(k) for k in keys]}


class _Phase:
    __slots__ = ("name", "title", "run")

    def __init__(self, name, title, run):
        self.name, self.title, self.run = name, title, run


class _Action:
    __slots__ = ("name", "title", "req", "body", "frame", "once")

    def __init__(self, name, title, req, body, frame):
        self.name, self.title, self.req, self.body, self.frame = name, title, req, body, frame
        self.once = False


class _Compiler:
    def __init__(self, game: CompiledGame):
        self.g = game
        self.m = game.model
        self.option_fns: dict = {}  # choose statement -> function listing its options

    # ================================================================ top
    def compile_all(self) -> None:
        g, m = self.g, self.m
        g.option_default = [self.expr(o.decl.default) for o in m.options.values()]
        g.card_fields = []
        cache: dict[int, list] = {}
        for cd in g.card_decl:
            if id(cd) not in cache:
                fields = {}
                k = m.kinds.get(cd.kind)
                if k is not None:
                    for an, info in k.attrs.items():
                        if info.decl.default is not None:
                            fields[info.slot] = self.expr(info.decl.default)
                for f in cd.fields:
                    info = m.attrs_by_name.get(f.name)
                    if info is not None:
                        fields[info.slot] = self.expr(f.value)
                cache[id(cd)] = list(fields.items())
            g.card_fields.append(cache[id(cd)])
        g.counter_init = [self.expr(c.decl.initial) if c.decl.initial else _const(0) for c in m.counters.values()]
        g.counter_info = [c for c in m.counters.values()]
        g.var_init = [self.expr(v.decl.initial) if v.decl.initial else None for v in m.vars.values()]
        defaults = {"int": 0, "bool": False, "str": ""}
        g.var_default = [defaults.get(v.type) for v in m.vars.values()]
        g.zone_cap = [self.expr(z.decl.capacity) if z.decl.capacity else None for z in m.zones.values()]
        # triggers on counters
        self.reach: dict[int, list] = {}
        for d, frame in m.reach:
            ci = m.counters[d.counter]
            self.reach.setdefault(ci.slot, []).append((self.expr(d.value), self.gen_block(d.body), frame, m.slots[d], d))
        self.handlers = {ev: [(self.gen_block(d.body), frame, len(d.params)) for d, frame in hs]
                         for ev, hs in m.handlers.items()}
        for name, d in m.defs.items():
            g.def_cells[name][0] = self.expr(d.decl.body)
        g.def_frames = {n: d.frame for n, d in m.defs.items()}
        for name, e in m.effects.items():
            g.effect_cells[name][0] = (self.requires(e), self.gen_block(e.decl.body, skip_requires=True), e.frame, e)
        g.actions = {}
        for name, a in m.actions.items():
            body = self.gen_block(a.decl.body, skip_requires=True)
            g.actions[name] = _Action(name, a.decl.title or name, self.action_legal(a), body, a.frame)
        g.setup = self.gen_block(m.setup.decl.body) if m.setup else None
        g.setup_frame = m.setup.frame if m.setup else 1
        g.rounds_count = self.expr(m.rounds.count) if m.rounds and m.rounds.count else None
        g.phases = [self.phase(p) for p in m.phases]
        g.end_conds = [self.expr(e.cond) for e in m.end_conds]
        g.winner_keys = [self.expr(k) for k in m.winner.keys] if m.winner else []
        g.winner_everyone = self.expr(m.winner.everyone_if) if m.winner and m.winner.everyone_if else None
        g.scenarios = [self.scenario(sc) for sc in m.scenarios]

    def scenario(self, info):
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
        req = self.requires(a)
        first = next((st for st in a.decl.body.stmts if not isinstance(st, A.Require)), None)
        if isinstance(first, (A.Choose, A.ChooseSubset, A.ChooseOne)) and not (first.chooser and first.chooser.random):
            self.stmt(first)  # registers its option function
            opts = self.option_fns[first]
            if req is None:
                return lambda st, env: bool(opts(st, env))
            return lambda st, env: req(st, env) and bool(opts(st, env))
        return req

    def requires(self, c) -> Fn | None:
        if not c.requires:
            return None
        fns = [self.expr(r.cond) for r in c.requires]
        if len(fns) == 1:
            return fns[0]

        def req(st, env):
            for f in fns:
                if not f(st, env):
                    return False
            return True
        return req

    def phase(self, info) -> _Phase:
        g = self.g
        ph = info.decl
        frame = info.frame
        title = ph.title or ph.name
        if ph.body is not None:
            body = self.gen_block(ph.body)

            def run_steps(st):
                if st.fired is not None:
                    st.fired[("phase", ph)] = st.fired.get(("phase", ph), 0) + 1
                env = [st.current] + [None] * frame
                yield from body(st, env)
            return _Phase(ph.name, title, run_steps)
        start = self.expr(ph.start)
        until = self.expr(ph.until) if ph.until is not None else None
        acts = []
        for ref in ph.actions:
            a = g.actions[ref.name]
            b = _Action(a.name, a.title, a.req, a.body, a.frame)
            b.once = ref.once
            acts.append(b)
        can_pass = ph.can_pass
        pass_cond = self.expr(ph.pass_cond) if ph.pass_cond is not None else None
        once_each = ph.once_each
        multi = can_pass or any(a.once for a in acts)

        def action_label(a):
            return "pass" if a is None else a.title

        reqs = [(a, a.req, a.frame) for a in acts]
        if not multi:
            def run_turns(st):
                if st.fired is not None:
                    st.fired[("phase", ph)] = st.fired.get(("phase", ph), 0) + 1
                env = [st.current] + [None] * frame
                cur = start(st, env)
                n = st.n
                taken = 0
                idle = 0
                log = st.log
                while True:
                    env[0] = st.current = cur  # `me` in `until` is the player whose turn it would be
                    if until is not None and until(st, env):
                        return
                    if once_each and taken >= n:
                        return
                    st.current = cur
                    st.next_player = (cur + 1) % n
                    legal = []
                    for a, req, fr in reqs:
                        if req is None or req(st, [cur] + [None] * fr):
                            legal.append(a)
                    taken += 1
                    if legal:
                        idle = 0
                        agent = st.agent
                        a = legal[agent(cur, legal) if agent is not None else
                                  (yield Decision(cur, legal, "your turn: choose an action", action_label))]
                        if log is not None:
                            log.append((f"P{cur + 1}: {a.title}", None, {"type": "action", "player": cur, "action": a.name}))
                        if st.fired is not None:
                            st.fired[a.name] = st.fired.get(a.name, 0) + 1
                        yield from a.body(st, [cur] + [None] * a.frame)
                        cur = st.next_player if not once_each else (cur + 1) % n
                    else:
                        # a player who can do nothing is skipped; if nobody can, the phase is over
                        if st.fired is not None:
                            st.fired[("idle", ph)] = st.fired.get(("idle", ph), 0) + 1
                        idle += 1
                        if log is not None:
                            log.append((f"P{cur + 1} can do nothing", None, {"type": "skip", "player": cur}))
                        if idle >= n:
                            return
                        cur = (cur + 1) % n
            return _Phase(ph.name, title, run_turns)

        def run_turns(st):
            if st.fired is not None:
                st.fired[("phase", ph)] = st.fired.get(("phase", ph), 0) + 1
            env = [st.current] + [None] * frame
            cur = start(st, env)
            n = st.n
            taken = 0
            idle = 0
            log = st.log
            while True:
                env[0] = st.current = cur  # `me` in `until` and `pass if` is the player taking the turn
                if until is not None and until(st, env):
                    return
                if once_each and taken >= n:
                    return
                st.current = cur
                st.next_player = (cur + 1) % n
                used = set()
                acted = False
                while True:
                    aenv_me = [cur]
                    legal = []
                    for a in acts:
                        if a.once and a.name in used:
                            continue
                        if a.req is None:
                            legal.append(a)
                        else:
                            e2 = aenv_me + [None] * a.frame
                            if a.req(st, e2):
                                legal.append(a)
                    if multi and can_pass and (pass_cond is None or pass_cond(st, env)):
                        legal.append(None)
                    if not legal:
                        if not acted and st.fired is not None:
                            st.fired[("idle", ph)] = st.fired.get(("idle", ph), 0) + 1
                        break
                    i = st.agent(cur, legal) if st.agent is not None else \
                        (yield Decision(cur, legal, "your turn: choose an action", action_label))
                    a = legal[i]
                    if a is None:
                        if log is not None:
                            log.append((f"P{cur + 1} passes", None, {"type": "pass", "player": cur}))
                        break
                    if log is not None:
                        log.append((f"P{cur + 1}: {a.title}", None, {"type": "action", "player": cur, "action": a.name}))
                    if st.fired is not None:
                        st.fired[a.name] = st.fired.get(a.name, 0) + 1
                    used.add(a.name)
                    acted = True
                    yield from a.body(st, [cur] + [None] * a.frame)
                    if not multi:
                        break
                taken += 1
                # the phase is over when every player in a row passed or could do nothing
                idle = 0 if acted else idle + 1
                if idle >= n and not once_each:
                    return
                cur = st.next_player if not once_each else (cur + 1) % n
        return _Phase(ph.name, title, run_turns)

    # ================================================================ blocks
    def gen_block(self, b: A.Block, skip_requires=False):
        """Compile a block to a generator function (always a generator)."""
        is_gen, fn = self.block(b, skip_requires)
        if is_gen:
            return fn

        def wrap(st, env):
            fn(st, env)
            return
            yield  # noqa: unreachable - makes this a generator
        return wrap

    def block(self, b: A.Block, skip_requires=False):
        parts = []
        for s in b.stmts:
            if skip_requires and isinstance(s, A.Require):
                continue
            parts.append(self.stmt(s))
        if not any(gen for gen, _ in parts):
            fns = [f for _, f in parts]
            if len(fns) == 0:
                return False, lambda st, env: None
            if len(fns) == 1:
                return False, fns[0]
            if len(fns) == 2:
                f1, f2 = fns

                def two(st, env):
                    f1(st, env)
                    f2(st, env)
                return False, two

            def plain(st, env):
                for f in fns:
                    f(st, env)
            return False, plain

        # merge runs of plain statements, so the generator steps over fewer parts
        merged: list = []
        for is_g, f in parts:
            if not is_g and merged and not merged[-1][0]:
                prev = merged[-1][1]
                merged[-1] = (False, (lambda a, b: (lambda st, env: (a(st, env), b(st, env))))(prev, f))
            else:
                merged.append((is_g, f))
        if len(merged) == 1:
            return True, merged[0][1]
        if len(merged) == 2:
            (g1, f1), (g2, f2) = merged
            if not g1:
                def pre_gen(st, env):
                    f1(st, env)
                    yield from f2(st, env)
                return True, pre_gen
            if not g2:
                def gen_post(st, env):
                    yield from f1(st, env)
                    f2(st, env)
                return True, gen_post

        def gen(st, env):
            for is_g, f in merged:
                if is_g:
                    yield from f(st, env)
                else:
                    f(st, env)
        return True, gen

    # ================================================================ statements
    def stmt(self, s: A.Stmt):
        meth = getattr(self, "s_" + type(s).__name__)
        return meth(s)

    def cards_of(self, e: A.Expr) -> Fn:
        """An expression giving a card, a list of cards or a zone -> list of cards (a copy)."""
        f = self.expr(e)
        t = self.m.types.get(e)
        if t == CARD:
            return lambda st, env: [f(st, env)]
        if t == ZONE:
            return lambda st, env: list(st.zones[f(st, env)])
        return lambda st, env: list(f(st, env))

    @staticmethod
    def _log_move(st, g, c, old, z, face, me) -> None:
        src = g._zone_label(old, st.n) if old >= 0 else "(out of play)"
        to = g._zone_label(z, st.n)
        mask = st.vis_mask(c) | ((1 << me) if face == "facedown" and me is not None else 0)
        st.log.append((f"{g.card_name[c]}: {src} -> {to}", (mask, f"a card: {src} -> {to}"),
                       {"type": "move", "card": g.card_name[c], "from": src, "to": to}))

    def s_Move(self, s: A.Move):
        span = s.span
        dest = self.expr(s.dest)
        top = s.position != "bottom"
        face = s.face
        g = self.g
        log_move = self._log_move
        if self.m.types.get(s.what) == CARD:  # one card: the common case
            kc, kz = self.local_slot(s.what), self.local_slot(s.dest)
            if kc is not None and kz is not None:  # `move c to t`, both local names
                def move_locals(st, env, span=span):
                    c, z = env[kc], env[kz]
                    if c is None:
                        return
                    if z is None:
                        raise GameError("move to nowhere (the destination is none)", span)
                    old = st.loc[c]
                    st.move(c, z, top, face, env[0])
                    if st.log is not None:
                        log_move(st, g, c, old, z, face, env[0])
                return False, move_locals
            single = self.expr(s.what)

            def move1(st, env, span=span):
                c = single(st, env)
                if c is None:
                    return
                z = dest(st, env)
                if z is None:
                    raise GameError("move to nowhere (the destination is none)", span)
                old = st.loc[c]
                st.move(c, z, top, face, env[0])
                if st.log is not None:
                    log_move(st, g, c, old, z, face, env[0])
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
                    old = st.loc[c]
                    st.move(c, z, top, face, env[0])
                    if log is not None and not many:
                        log_move(st, g, c, old, z, face, env[0])
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

        def apply(st, p, delta):
            row = st.counters[slot]
            old = row[p]
            v = old + delta
            if lo is not None or hi is not None:
                env = [p]
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

        def fire(st, p, old, new, delta):
            """Run the triggers of the spaces passed, in the order the marker passes them
            (on a wrap-around track, a space is passed once per lap)."""
            if delta <= 0:
                return
            hits = []
            for value, body, frame, pslot, decl in trig:
                env = [p] + [None] * frame
                env[pslot] = p
                t = value(st, env)
                if wrap:
                    low, high = lo(st, env), hi(st, env)
                    if not low <= t <= high:
                        continue  # a space off the track is never reached
                    size = high - low + 1
                    steps = min(delta, 100 * size)
                    first = (t - old) % size or size  # the first step that lands on t
                    hits.extend((i, t, body, env, decl) for i in range(first, steps + 1, size))
                elif old < t <= new:
                    hits.append((t - old, t, body, env, decl))
            hits.sort(key=lambda h: h[0])
            for _, t, body, env, decl in hits:
                if st.fired is not None:
                    st.fired[("when", decl)] = st.fired.get(("when", decl), 0) + 1
                if st.log is not None:
                    st.log.append((f"P{p + 1}'s {name} reaches {t}", None, {"type": "reach", "player": p, "counter": name, "space": t}))
                yield from body(st, env)
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
                text = f"P{p + 1} gains {a} {name}" if per else f"{name} +{a}"
            elif op == "lose":
                old, new = apply(st, p, -a)
                changes = []
                text = f"P{p + 1} loses {a} {name}" if per else f"{name} -{a}"
            else:
                q = other(st, env)
                giver, getter = (p, q) if op == "give" else (q, p)
                have = st.counters[slot][giver]
                a = max(0, min(a, have))
                old, new = apply(st, getter, a)
                a = new - old  # only what the receiver can hold moves
                apply(st, giver, -a)
                changes = [(getter, old, new, a)]
                text = f"P{giver + 1} gives {a} {name} to P{getter + 1}"
            if st.log is not None:
                st.log.append((text + f" (now {new})", None, {"type": op, "counter": name, "amount": a, "player": p, "now": new}))
            return changes

        if fire is None:
            return False, do

        def gen(st, env, span=span):
            for p, old, new, a in do(st, env):
                yield from fire(st, p, old, new, a)
        return True, gen

    def s_Set(self, s: A.Set):
        span = s.span
        ref = self.m.refs[s.target]
        val = self.expr(s.value)
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

                def setv(st, env, span=span):
                    c = obj(st, env)
                    v = val(st, env)
                    st.cvars[slot][c] = v
                    if st.log is not None:
                        st.log.append((f"{g.card_name[c]}: {aname} = {v}", (st.vis_mask(c), f"a card: {aname} changed"),
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
            st.swap(x, y)
            if st.log is not None:
                st.log.append((f"swap {g.card_name[x]} and {g.card_name[y]}", (st.vis_mask(x) & st.vis_mask(y), "swap two cards"),
                               {"type": "swap", "a": g.card_name[x], "b": g.card_name[y]}))
        return False, swap

    def s_NextTurn(self, s: A.NextTurn):
        span = s.span
        p = self.expr(s.player)

        def nxt(st, env, span=span):
            st.next_player = p(st, env)
        return False, nxt

    def labeler(self, t: str | None):
        g = self.g

        def lab(v, st=None):
            return g.label(v, self._label_state, t)
        return lab

    _label_state = None

    def _decide(self, st, env, chooser_fn, is_random, opts, prompt, t, span):
        """Shared by the choose statements: returns the chosen option or yields a Decision."""

    def chooser(self, ch: A.Chooser | None):
        if ch is None:
            return False, None
        if ch.random:
            return True, None
        return False, self.expr(ch.player)

    def s_Choose(self, s: A.Choose):
        span = s.span
        coll = self.expr(s.coll)
        ctype = self.m.types.get(s.coll)
        is_zone = ctype == ZONE
        t = elem(ctype) if ctype else None
        k = self.m.slots[s]
        filt = self.filter(s.cond, k)
        is_random, by = self.chooser(s.chooser)
        body_gen, body = self.block(s.body)
        prompt = s.prompt or f"choose {s.var}"
        g = self.g

        src_of = self.coll(s.coll)

        def options(st, env, span=span):
            return filt(st, env, src_of(st, env))
        self.option_fns[s] = options

        mask, rest = self._kind_split(s.cond, k)
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

        def gen(st, env, span=span):
            if is_random:
                x = pick(st, env)
                if x is None:
                    return
                if st.log is not None:
                    if t == "card":
                        st.log.append((f"at random: {g.card_label(x, st)} ({prompt})", (st.vis_mask(x), f"at random: a card ({prompt})"),
                                       {"type": "random", "prompt": prompt, "choice": g.card_name[x]}))
                    else:
                        st.log.append((f"at random: {g.label(x, st, t)} ({prompt})", None,
                                       {"type": "random", "prompt": prompt, "choice": g.label(x, st, t)}))
            else:
                opts = filt(st, env, src_of(st, env))
                if not opts:
                    return
                p = by(st, env) if by is not None else env[0]
                i = st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, t, span, st))
                x = opts[i]
                if st.log is not None:
                    hidden = None
                    if t == "card":
                        mask = st.vis_mask(x)
                        if mask != (1 << st.n) - 1:
                            hidden = (mask, f"P{p + 1} chooses a face-down card ({prompt})")
                    st.log.append((f"P{p + 1} chooses {g.label(x, st, t)} ({prompt})", hidden,
                                   {"type": "choice", "player": p, "prompt": prompt, "choice": g.label(x, st, t)}))
            env[k] = x
            if body_gen:
                yield from body(st, env)
            else:
                body(st, env)
        return True, gen

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
                i = st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, lambda v: v[0], span))
                o = opts[i]
                if st.log is not None:
                    st.log.append((f"P{p + 1} chooses '{o[0]}' ({prompt})", None,
                                   {"type": "choice", "player": p, "prompt": prompt, "choice": o[0]}))
            if st.fired is not None:
                st.fired[("option", s, o[0])] = st.fired.get(("option", s, o[0]), 0) + 1
            yield from o[2](st, env)
        return True, gen

    def s_ChooseNumber(self, s: A.ChooseNumber):
        span = s.span
        lo, hi = self.expr(s.low), self.expr(s.high)
        k = self.m.slots[s]
        is_random, by = self.chooser(s.chooser)
        body = self.gen_block(s.body)
        prompt = s.prompt or f"choose {s.var}"

        def gen(st, env, span=span):
            opts = list(range(lo(st, env), hi(st, env) + 1))
            if not opts:
                return
            if is_random:
                x = opts[int(st.rng.random() * len(opts))]
            else:
                p = by(st, env) if by is not None else env[0]
                x = opts[st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, str, span))]
                if st.log is not None:
                    st.log.append((f"P{p + 1} chooses {x} ({prompt})", None, {"type": "choice", "player": p, "prompt": prompt, "choice": x}))
            env[k] = x
            yield from body(st, env)
        return True, gen

    def s_ChooseSubset(self, s: A.ChooseSubset):
        span = s.span
        coll = self.cards_of(s.coll) if self.m.types.get(s.coll) in (ZONE,) else self.expr(s.coll)
        t = elem(self.m.types.get(s.coll) or "any")
        lo = self.expr(s.low) if s.low is not None else _const(0)
        hi = self.expr(s.high) if s.high is not None else None
        cond = self.expr(s.cond) if s.cond is not None else None
        ck = self.m.slots.get(s.cond) if s.cond is not None else None
        k = self.m.slots[s]
        test = self.expr(s.test) if s.test is not None else None
        is_random, by = self.chooser(s.chooser)
        body = self.gen_block(s.body)
        prompt = s.prompt or f"choose {s.var}"
        g = self.g

        def options(st, env, span=span):
            items = list(coll(st, env))
            if cond is not None:
                keep = []
                for x in items:
                    env[ck] = x
                    if cond(st, env):
                        keep.append(x)
                items = keep
            a = max(0, lo(st, env))
            b = min(len(items), hi(st, env)) if hi is not None else len(items)
            opts = []
            for size in range(a, b + 1):
                for combo in itertools.combinations(items, size):
                    if test is not None:
                        env[k] = list(combo)
                        if not test(st, env):
                            continue
                    opts.append(list(combo))
                    if len(opts) > MAX_SUBSETS:
                        raise GameError(f"more than {MAX_SUBSETS} subsets to choose from", span)
            return opts
        self.option_fns[s] = options

        def gen(st, env, span=span):
            opts = options(st, env)
            if not opts:
                return
            if is_random:
                x = opts[int(st.rng.random() * len(opts))]
            else:
                p = by(st, env) if by is not None else env[0]
                x = opts[st.agent(p, opts) if st.agent is not None else
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
            yield from body(st, env)
        return True, gen

    def s_For(self, s: A.For):
        span = s.span
        coll = self.expr(s.coll)
        is_zone = self.m.types.get(s.coll) == ZONE
        k = self.m.slots[s]
        cond = self.expr(s.cond) if s.cond is not None else None
        body_gen, body = self.block(s.body)
        if not body_gen:
            def loop(st, env, span=span):
                src = coll(st, env)
                for x in list(st.zones[src] if is_zone else src):
                    env[k] = x
                    if cond is None or cond(st, env):
                        body(st, env)
            return False, loop

        def gen(st, env, span=span):
            src = coll(st, env)
            for x in list(st.zones[src] if is_zone else src):
                env[k] = x
                if cond is None or cond(st, env):
                    yield from body(st, env)
        return True, gen

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

        def gen(st, env, span=span):
            chosen = []
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
                i = st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, t, span, st))
                chosen.append((p, opts[i]))
            if st.log is not None and chosen:
                st.log.append((f"all choose at once ({prompt}):", None, {"type": "simultaneous", "prompt": prompt}))
                for p, x in chosen:
                    hidden = None
                    if t == "card":
                        mask = st.vis_mask(x)
                        if mask != (1 << st.n) - 1:
                            hidden = (mask, f"  P{p + 1} chose a card they may not show")
                    st.log.append((f"  P{p + 1} chose {g.label(x, st, t)}", hidden,
                                   {"type": "choice", "player": p, "prompt": prompt, "choice": g.label(x, st, t)}))
            me = env[0]
            for p, x in chosen:
                env[ps] = p
                env[cs] = x
                env[0] = p  # each player acts for themself
                yield from body(st, env)
            env[0] = me
        return True, gen

    def s_If(self, s: A.If):
        span = s.span
        test = self.expr(s.test)
        tg, then = self.block(s.then)
        eg, orelse = self.block(s.orelse) if s.orelse is not None else (False, None)
        if not tg and not eg:
            if orelse is None:
                def if_(st, env, span=span):
                    if test(st, env):
                        then(st, env)
            else:
                def if_(st, env, span=span):
                    if test(st, env):
                        then(st, env)
                    else:
                        orelse(st, env)
            return False, if_
        then_g = self.gen_block(s.then)
        else_g = self.gen_block(s.orelse) if s.orelse is not None else None

        def gen(st, env, span=span):
            if test(st, env):
                yield from then_g(st, env)
            elif else_g is not None:
                yield from else_g(st, env)
        return True, gen

    def s_Do(self, s: A.Do):
        span = s.span
        e = s.effect
        ref = self.m.refs.get(e)
        as_p = self.expr(s.as_player) if s.as_player is not None else None
        g = self.g
        if ref is not None and ref[0] == "effect" and isinstance(e, (A.Name, A.Call)):
            cell = g.effect_cells[ref[1]]
            args = [self.expr(a) for a in e.args] if isinstance(e, A.Call) else []
            title = g.effect_titles[ref[1]]
            name = ref[1]
            titled = self.m.effects[name].decl.title is not None

            def gen(st, env, span=span):
                req, body, frame, _ = cell[0]
                me = as_p(st, env) if as_p is not None else env[0]
                env2 = [me] + [a(st, env) for a in args]
                env2 += [None] * (frame - len(env2))
                if req is not None and not req(st, env2):
                    return
                if st.log is not None and titled:
                    st.log.append((f"effect: {title}", None, {"type": "effect", "effect": name}))
                if st.fired is not None:
                    st.fired[name] = st.fired.get(name, 0) + 1
                yield from body(st, env2)
            return True, gen
        if ref is not None and ref[0] == "phase":
            pname = ref[1]

            def run_phase(st, env, span=span):
                ph = next(x for x in g.phases if x.name == pname)
                if st.log is not None:
                    st.log.append((f"-- phase: {ph.title} --", None, {"type": "phase", "phase": pname}))
                yield from ph.run(st)
            return True, run_phase
        if ref is not None and ref[0] == "action":
            name = ref[1]

            def run_action(st, env, span=span):
                act = g.actions[name]
                me = as_p(st, env) if as_p is not None else env[0]
                env2 = [me] + [None] * act.frame
                if act.req is not None and not act.req(st, env2):
                    if st.log is not None:
                        st.log.append((f"P{me + 1} may not {act.title}", None, {"type": "refused", "action": name}))
                    return
                if st.log is not None:
                    st.log.append((f"P{me + 1}: {act.title}", None, {"type": "action", "player": me, "action": name}))
                if st.fired is not None:
                    st.fired[name] = st.fired.get(name, 0) + 1
                yield from act.body(st, env2)
            return True, run_action
        val = self.expr(e)

        def dyn(st, env, span=span):
            name = val(st, env)
            if name is None:
                return
            if name not in g.effect_cells:
                raise GameError(f"'{name}' is not an effect", span)
            req, body, frame, _ = g.effect_cells[name][0]
            me = as_p(st, env) if as_p is not None else env[0]
            env2 = [me] + [None] * frame
            if req is not None and not req(st, env2):
                return
            if st.log is not None and self.m.effects[name].decl.title is not None:
                st.log.append((f"effect: {g.effect_titles[name]}", None, {"type": "effect", "effect": name}))
            if st.fired is not None:
                st.fired[name] = st.fired.get(name, 0) + 1
            yield from body(st, env2)
        return True, dyn

    def s_Let(self, s: A.Let):
        span = s.span
        v = self.expr(s.value)
        k = self.m.slots[s]

        def let(st, env, span=span):
            env[k] = v(st, env)
        return False, let

    def s_Emit(self, s: A.Emit):
        span = s.span
        args = [self.expr(a) for a in s.args]
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
                yield from body(st, env2)
        return True, gen

    def s_EndGame(self, s: A.EndGame):
        span = s.span
        def end(st, env, span=span):
            raise GameOver
        return False, end

    def s_Require(self, s: A.Require):
        span = s.span
        # a leading require is compiled as the precondition; nothing to run
        return False, lambda st, env: None

    def s_Log(self, s: A.Log):
        span = s.span
        text = s.text

        def log(st, env, span=span):
            if st.log is not None:
                st.log.append((text, None, {"type": "log", "text": text}))
        return False, log

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
                and self.local_slot(call.args[0]) == k and self.m.refs.get(call) == ("builtin", call.name):
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
            f = self.expr(e)
            return lambda st, env: st.zones[f(st, env)]
        return self.expr(e)

    def e_Lit(self, e):
        return _const(e.value)

    def e_ListLit(self, e):
        items = [self.expr(x) for x in e.items]
        return lambda st, env: [f(st, env) for f in items]

    def e_Name(self, e):
        ref = self.m.refs[e]
        kind = ref[0]
        if kind == "local":
            k = ref[1]
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
            cell = self.g.def_cells[ref[1]]
            frame = self.m.defs[ref[1]].frame
            return lambda st, env: cell[0](st, [env[0]] + [None] * frame)
        if kind in ("effect", "action", "phase"):
            return _const(ref[1])
        raise AssertionError(ref)  # pragma: no cover

    def local_slot(self, e) -> int | None:
        """The env slot an expression reads, if it is just a local name (or `me`)."""
        if isinstance(e, A.Name):
            ref = self.m.refs.get(e)
            if ref == ("builtin", "me"):
                return 0
            if ref is not None and ref[0] == "local":
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
                def zowner_local(st, env):
                    z = env[k]
                    return None if z is None else st.zowner[z]
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
                    def owner(st, env):
                        z = st.loc[obj(st, env)]
                        return None if z < 0 else st.zowner[z]
                    return owner
            if t == ZONE:
                if name == "owner":
                    def zowner(st, env):
                        z = obj(st, env)
                        return None if z is None else st.zowner[z]
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
            return lambda st, env: True
        if isinstance(e.coll, A.EveryZone) and op in ("every", "any") and isinstance(e.cond, (A.Call, A.Not)):
            # every(t in every Z where full/empty/not full/not empty(t)): one loop, no calls
            neg = isinstance(e.cond, A.Not)
            call = e.cond.operand if neg else e.cond
            if isinstance(call, A.Call) and call.name in ("full", "empty") and len(call.args) == 1 \
                    and self.local_slot(call.args[0]) == k and self.m.refs.get(call) == ("builtin", call.name):
                fam = self.m.refs[e.coll][1]
                want_full = call.name == "full"
                every = op == "every"

                def zones_test(st, env):
                    b = st.zbase[fam]
                    zs, caps = st.zones, st.cap
                    for z in range(b, b + st.n):
                        cap = caps[z]
                        hit = (cap is not None and len(zs[z]) >= cap) if want_full else not zs[z]
                        if neg:
                            hit = not hit
                        if every and not hit:
                            return False
                        if not every and hit:
                            return True
                    return every
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

    def e_Aggregate(self, e):
        coll = self.coll(e.coll)
        k = self.m.slots[e]
        cond = self.expr(e.cond) if e.cond is not None else None
        val = self.expr(e.value)
        op = e.op

        skip_none = op != "distinct"

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
        args = [self.expr(a) for a in e.args]
        if ref[0] == "def":
            cell = self.g.def_cells[ref[1]]
            frame = self.m.defs[ref[1]].frame
            pad = [None] * max(0, frame - 1 - len(args))
            if len(args) == 1:
                a0 = args[0]
                return lambda st, env: cell[0](st, [env[0], a0(st, env)] + pad)
            return lambda st, env: cell[0](st, [env[0]] + [a(st, env) for a in args] + pad)
        if ref[0] == "effect":
            return _const(ref[1])
        n = ref[1]
        span = e.span
        types = [self.m.types.get(a) for a in e.args]
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
            return lambda st, env: list(c(st, env))[: max(0, a(st, env))]
        if n == "allowed":
            a = args[0]
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
                return req is None or bool(req(st, [env[0]] + [None] * frame))
            return allowed
        if n == "range":
            a, b = args
            return lambda st, env: list(range(a(st, env), b(st, env) + 1))
        if n == "order_from":
            a = args[0]

            def order(st, env):
                p = a(st, env)
                return [(p + i) % st.n for i in range(st.n)]
            return order
        raise AssertionError(n)  # pragma: no cover
