"""Compile a checked GameModel once into generated Python source (docs/engine.md).

Every expression becomes a generated function ``f(st, env) -> value`` and every block
either a plain function ``f(st, env)`` or, when it can ask a player something, a
generator function that yields :class:`Decision` objects and receives the chosen
option index; the flow, the phases and the turns are generated functions too
(`_Compiler`, writing with engine/writer.py). ``env`` is a flat list of local slots
fixed by the checker (slot 0 is `me`), so nothing is looked up by name while playing.
"""
from __future__ import annotations

import random
from typing import Any

from ..check.model import GameModel, elem
from ..check.checker import MAX_ROUNDS
from ..errors import GameError
from ..syntax import ast as A
from .budget import counted, self_calling, spend
from .common import RULE_FAULTS, Decision, Fn, _const, located, only_option  # noqa: F401  (Decision is part of the engine's API)
from .expressions import ExpressionCompiler, _Fn
from .writer import Writer, fragment
from .layout import Layout, analyse
from .state import NO_CAP, GameOver, State
from .statements import StatementCompiler, _first, unit_words


class CompiledGame:
    """A game, compiled once; `new_state` makes fresh states for it."""

    def __init__(self, model: GameModel, playout: bool = False, fast: bool = False):
        self.model = model
        self.playout = playout  # the playout flavour (an agent makes every decision): see playouts()
        # the fast layout (engine/layout.py): zones whose order nothing reads kept in card order;
        # other games for a seed than the exact layout's, the same games in distribution
        self.layout = analyse(model) if fast else Layout()
        self.sorted_fams = self.layout.sorted
        self.fast = bool(self.sorted_fams)
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
        c = _Compiler(self)
        c.playout = playout
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
        if self.zone_is_card[f]:
            c = self.zone_holders[f][z - self._zbase(n)[f]]
            return f"{self.zone_names[f]} of {self.card_ref(c)}"
        return self.zone_names[f]

    def zone_text(self, z: int, st: State, viewer: int | None = None) -> str:
        """A zone's label as `viewer` may read it: a zone on a card the viewer may not see names
        no card ("dice of a face-down card")."""
        f = st.zfamily[z]
        if self.zone_is_card[f] and viewer is not None:
            h = st.zholder[z]
            seen = st.vis_mask(h) == (1 << st.n) - 1 if viewer == -1 else st.visible(h, viewer)
            if not seen:  # (viewer -1: the label everyone may read)
                return f"{self.zone_names[f]} of a face-down card"
        return self._zone_label(z, st.n)

    def zone_mask(self, z: int, st: State) -> int:
        """The players who may read a zone's label: all, but for a zone on a card some may not see."""
        if st.zholder is None or st.zholder[z] < 0:
            return (1 << st.n) - 1
        return st.vis_mask(st.zholder[z])

    def log_move(self, st: State, c: int, old: int, z: int) -> None:
        self._compiler._log_move(st, self, c, old, z, None, None)

    def card_ref(self, c: int) -> str:
        """A card's name, with its copy number when the game has several of that name."""
        nm = self.card_name[c]
        return nm if self.copies_of.get(nm, 1) == 1 else f"{nm} #{self.copy_no[c]}"

    def _zbase(self, n: int) -> list[int]:
        out, k = [], 0
        for f, per in enumerate(self.zone_per):
            out.append(k)
            k += n if per else len(self.zone_holders[f]) if self.zone_is_card[f] else 1
        return out

    def _zone_family_of(self, z: int, n: int) -> int:
        base = self._zbase(n)
        for f in range(len(base) - 1, -1, -1):
            if z >= base[f]:
                return f
        return 0

    def card_label(self, c: int, st: State, viewer: int | None = None) -> str:
        """A card's name, with the values of its `var` attributes (a die shows its face); a
        card named by an attribute shows only if the viewer (None: everyone) may see it."""
        slots = self.card_vars[c]
        if not slots:
            return self.card_name[c]
        return f"{self.card_name[c]} (" + ", ".join(f"{n} {self._var_text(st.cvars[i][c], st, t, viewer)}"
                                                  for n, i, t in slots) + ")"

    def _var_text(self, v, st: State, t: str | None, viewer: int | None) -> str:
        """A var attribute's value in a card's label: the cards of a list of cards by their names,
        as a card is (a list may hold the card itself, or a card whose list holds it)."""
        if t == "list:card" and isinstance(v, (list, tuple)):
            return "{" + ", ".join(self.value_text(x, st, "card", viewer) for x in v) + "}"
        return self.value_text(v, st, t, viewer)

    def _template(self, cd: A.CardDecl, kind: str):
        """A card's text template (its own, else its kind's) with each hole resolved to where its
        value lies: ("name",), ("kind",), ("attr", slot, mutable, type) or ("def", name, type)."""
        kinfo = self.model.kinds.get(kind)
        text = cd.text if cd.text is not None else kinfo.decl.text if kinfo is not None else None
        if text is None:
            return None
        out = []
        for part in text.parts:
            if isinstance(part, str):
                out.append(part)
            elif part[0] in kinfo.attrs:
                a = kinfo.attrs[part[0]]
                out.append(("attr", a.slot, a.mutable, a.type))
            elif part[0] in self.model.kind_defs:
                out.append(("def", part[0], self.model.kind_defs[part[0]].type))
            else:
                out.append((part[0],))
        return out

    def card_text(self, c: int, st: State, viewer: int | None = None) -> str | None:
        """How card c reads to people, from its text template and its attributes' values now
        (None: the rules give it no text). Rules text is data here: nothing of it is code."""
        tpl = self.card_templates[c]
        if tpl is None:
            return None
        out = []
        for part in tpl:
            if isinstance(part, str):
                out.append(part)
            elif part[0] == "attr":
                _, slot, mutable, t = part
                out.append(self.text_value((st.cvars if mutable else st.attrs)[slot][c], st, t, viewer))
            elif part[0] == "def":
                d = self.model.kind_defs[part[1]]
                v = self.kdef_cells[part[1]][0](st, [viewer, c] + [None] * d.frame)
                out.append(self.text_value(v, st, part[2], viewer))
            elif part[0] == "kind":
                out.append(self.card_kind[c])
            else:
                out.append(self.card_name[c])
        return "".join(out)

    def text_value(self, v, st: State, t: str | None, viewer: int | None) -> str:
        """A value as a card's text shows it: 3, an enum constant, yes, an effect's title, "A, B" for a list."""
        if v is None:
            return "-"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, (list, tuple)):
            inner = t[5:] if t and t.startswith("list:") else None
            return ", ".join(self.text_value(x, st, inner, viewer) for x in v) if v else "-"
        if t == "effect" and isinstance(v, str):
            return self.effect_titles.get(v, v)
        if t == "card" and isinstance(v, int):
            return self.card_name[v] if viewer is None or st.visible(v, viewer) else "a face-down card"
        if t == "player" and isinstance(v, int):
            return f"P{v + 1}"
        if t == "zone" and isinstance(v, int):
            return self.zone_text(v, st, viewer)
        return str(v)

    def missing_actions(self, offered, st: State, me: int, phase: str | None = None) -> list[tuple[str, str]]:
        """At a turn offering the actions `offered` (their names) to `me` (or in the phase named
        `phase`): the phase's other actions, each with why it is not offered (its first failed
        `require`'s message, else the condition and its place)."""
        names = set(offered)
        phase_given = phase is not None
        phase = next((ph.decl for ph in self.model.phases if ph.decl.actions and (
            ph.name == phase if phase is not None else names <= {r.name for r in ph.decl.actions})), None)
        out = []
        for ref in phase.actions if phase is not None else ():
            a = self.model.actions.get(ref.name)
            if ref.name in names or a is None:
                continue
            why = None
            for r in a.requires:
                env = [me] + [None] * (a.frame + 1)
                try:
                    ok = self._compiler.expr(r.cond)(st, env)
                except RULE_FAULTS:
                    ok = False
                if not ok:
                    sp = r.cond.span
                    ln = self.model.sources.line(sp.file, sp.line) or ""
                    cond = ln[sp.col - 1:sp.end_col - 1] if sp.end_line == sp.line else ln.strip() + " ..."
                    why = r.message or f"it requires {cond} ({sp})"
                    break
            if why is None:
                if phase_given:  # (inside a turn: only what its requirements rule out)
                    continue
                why = "taken already this turn" if ref.once else "nothing to choose for it now"
            out.append((a.decl.title or a.name, why))
        return out

    def value_text(self, v, st: State, t: str | None = None, viewer: int | None = None) -> str:
        """A value as the rules write it: true/false, none, P2, a card's name."""
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if t == "card":
            seen = viewer is None or (st.vis_mask(v) == (1 << st.n) - 1 if viewer == -1 else st.visible(v, viewer))
            return self.card_name[v] if seen else "face-down card"
        return self.label(v, st, t, viewer)

    def card_hiding(self, c: int, st: State, text: str, alt_hidden: str):
        """The hidden part of a log line that names card c by its label: (the players who may read
        it whole, what the others read) or None. A card some may not see reads `alt_hidden`; a card
        all may see whose var attributes name a card some may not see reads with those hidden."""
        full = (1 << st.n) - 1
        mask = st.vis_mask(c)
        lm = full
        for _, i, t in self.card_vars[c]:
            lm &= self.value_mask(st.cvars[i][c], st, t)
        if mask != full:
            return (mask & lm, alt_hidden)
        if lm != full:
            return (lm, text.replace(self.card_label(c, st), self.card_label(c, st, -1)))
        return None

    def value_mask(self, v, st: State, t: str | None) -> int:
        """The players who may see a value: a card (or list of cards) hides from some."""
        if t == "card" and isinstance(v, int):
            return st.vis_mask(v)
        if t == "list:card" and isinstance(v, (list, tuple)):
            m = (1 << st.n) - 1
            for c in v:
                if isinstance(c, int):
                    m &= st.vis_mask(c)
            return m
        return (1 << st.n) - 1

    def label(self, v, st: State, t: str | None = None, viewer: int | None = None) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if v is None:
            return "nothing"
        if t == "player":
            return f"P{v + 1}"
        if t == "card":
            if viewer is not None and not st.visible(v, viewer):
                return "face-down card"
            return self.card_label(v, st, viewer)
        if t == "zone":
            return self.zone_text(v, st, viewer)
        if isinstance(v, (list, tuple)):
            inner = t[5:] if t and t.startswith("list:") else None
            return "{" + ", ".join(self.label(x, st, inner, viewer) for x in v) + "}"
        return str(v)

    # ---------------------------------------------------------------- state
    _TEMPLATES = 64  # initial states kept per game (one per player count and options)

    def playouts(self) -> "CompiledGame":
        """The same game compiled in the playout flavour: every decision is the state's agent's
        (st.agent must be set), so the generated code never suspends (no generators) and a
        decision with one option is taken without recording it. The same games, exactly
        (tests/test_oracle.py); runner.playout uses it."""
        if self.playout:
            return self
        if self._playouts is None:
            self._playouts = CompiledGame(self.model, playout=True, fast=self.fast)
        return self._playouts

    def new_state(self, n: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """A fresh state. When working out the initial state draws nothing from the RNG, it is
        the same for every seed: it is made once per player count and options and copied."""
        try:
            key = (n, tuple(sorted((options or {}).items())))
            hash(key)
        except TypeError:
            return self._fresh_state(n, seed, options)
        tpl = self._templates.get(key)
        if tpl is None:
            tpl = self._fresh_state(n, 0, options)
            if tpl.rng.getstate() != random.Random(0).getstate() or len(self._templates) >= self._TEMPLATES:
                return self._fresh_state(n, seed, options)  # (an initial value drew a random number)
            self._templates[key] = tpl
        st = State(self, n, seed)
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

    def _fresh_state(self, n: int, seed: int, options: dict[str, Any] | None = None) -> State:
        m = self.model
        st = State(self, n, seed)
        st.zbase = self._zbase(n)
        st.zfamily, st.zowner = [], []
        holder = []
        for f, per in enumerate(self.zone_per):
            if self.zone_is_card[f]:
                for c in self.zone_holders[f]:
                    st.zfamily.append(f)
                    st.zowner.append(None)  # worked out from where the card lies (zone_owner)
                    holder.append(c)
                continue
            for p in range(n if per else 1):
                st.zfamily.append(f)
                st.zowner.append(p if per else None)
                holder.append(-1)
        nz = len(st.zfamily)
        st.zfam = [tuple(z for z in range(nz) if st.zfamily[z] == f) for f in range(len(self.zone_per))]
        st.zones = [[] for _ in range(nz)]
        if self.has_card_zones:
            st.zholder = holder
            st.czone = {}
            st.holds = [None] * self.ncards
            for f, holders in enumerate(self.zone_holders):
                if not holders:
                    continue
                row = [-1] * self.ncards
                for i, c in enumerate(holders):
                    row[c] = st.zbase[f] + i
                    drop = self.zone_drop[f].get(self.card_kind[c])
                    if drop is not None:
                        if st.holds[c] is None:
                            st.holds[c] = []
                        span = self.model.card_zones[self.zone_names[f]].decls[self.card_kind[c]].drop.span
                        st.holds[c].append((st.zbase[f] + i, drop, span))
                st.czone[f] = row
            if not any(st.holds):
                st.holds = None
        st.zhidden = [self.zone_vis[f] == "hidden" for f in st.zfamily]
        if self.sorted_fams:
            st.zsorted = [f in self.sorted_fams for f in st.zfamily]
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
        for slot, row in self.attr_rows.items():  # (the same values: the table the generated code reads)
            st.attrs[slot] = row
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
            env[0] = st.zowner[z]  # a per-player zone's capacity is worked out for its owner (`me`)
            if isinstance(fn, dict):  # a zone on a card: its kind's capacity, for that card (`this`)
                fn = fn.get(self.card_kind[st.zholder[z]])
                env[1] = st.zholder[z]
            st.cap[z] = fn(st, env) if fn else None
            env[1] = None
        env[0] = None
        st.capn = [NO_CAP if c is None else c for c in st.cap]
        return st

    def flow(self, st: State):
        """The whole game as a generator of Decisions (generated: _Compiler.flow)."""
        return self._flow(st)

    def final_scoring(self, st: State):
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
        """Who wins and the scores, by the winner rules; a fault in them is a located error."""
        try:
            return self._result(st)
        except RULE_FAULTS as e:
            err = located(e)
            if err.span.file == "<builtin>" and self._ranking is not None:  # the winner rule being read
                err = GameError(str(err), self._ranking.span)
            raise err from None

    def _result(self, st: State) -> dict:
        winner_keys, winner_everyone = self.winner_keys, self.winner_everyone
        rule = None  # which `winner when` rule decided (None: the rule without `when`)
        for i, (guard, ks, ev) in enumerate(self.guarded_winners):  # the first whose C holds decides
            self._ranking = self.model.guarded_winners[i]
            if guard(st, [None] * (self.model.max_frame + 1)):
                winner_keys, winner_everyone, rule = ks, ev, i
                break
        else:
            self._ranking = self.model.winner
        keys = []
        # the score shown is the first key of the deciding rule, or of the rule without `when`
        score_keys = winner_keys or self.winner_keys[:1]
        for p in range(st.n):
            env = [p] + [None] * self.model.max_frame
            keys.append(tuple(k(st, env) for k in score_keys))
        if winner_everyone is not None:
            win = bool(winner_everyone(st, [None] * self.model.max_frame))
            winners = list(range(st.n)) if win else []
        elif keys and keys[0] and winner_keys:
            best = max(keys)
            winners = [p for p in range(st.n) if keys[p] == best]
        else:
            winners = list(range(st.n))
        scores = [k[0] if k else 0 for k in keys]
        out = {"winners": winners, "scores": scores, "keys": [list(k) for k in keys]}
        if rule is not None:
            out["rule"] = rule
        return out



class _Simul:
    """What a phase of simultaneous turns is made of (its rules, compiled): _simultaneous_turns runs it."""
    __slots__ = ("ph", "frame", "cond", "start", "until", "acts", "at_once", "can_pass", "pass_cond", "required",
                 "one_at_a_time", "firsts")

    def __init__(self, ph, frame, cond, start, until, acts, at_once, can_pass, pass_cond, required, one_at_a_time, firsts):
        self.ph, self.frame, self.cond, self.start, self.until, self.acts = ph, frame, cond, start, until, acts
        self.at_once, self.can_pass, self.pass_cond, self.required = at_once, can_pass, pass_cond, required
        self.one_at_a_time, self.firsts = one_at_a_time, firsts


_SIMUL_PROMPT = "at the same time: choose an action"


def _simultaneous_turns(st, sp):
    """`turns from FIRST simultaneous [if C]`: in each step every player still in the phase
    picks an action (with its first choice) unseen by the others; the picks then resolve in
    seat order from FIRST, each re-checking its requirements and its choice. Passing leaves the
    phase; it ends when nobody is left. With C false, it is played one player at a time."""
    ph, frame, cond, start, until, acts = sp.ph, sp.frame, sp.cond, sp.start, sp.until, sp.acts
    at_once, can_pass, pass_cond, required = sp.at_once, sp.can_pass, sp.pass_cond, sp.required
    one_at_a_time, firsts = sp.one_at_a_time, sp.firsts
    span = ph.span
    prompt, action_label = _SIMUL_PROMPT, _action_label
    if st.fired is not None:
        st.fired[("phase", ph)] = st.fired.get(("phase", ph), 0) + 1
    env = [st.current] + [None] * frame
    if cond is not None and not cond(st, env):
        _r = one_at_a_time(st)
        if _r is not None:
            yield from _r
        return
    n = st.n
    first = start(st, env)
    if first is None:
        raise GameError("the first player of the phase is none", ph.start.span)
    inside = [(first + i) % n for i in range(n)]
    used = {p: set() for p in inside}  # what each player took in this phase (`once`, `taken`)
    log = st.log
    steps = 0
    picks, offered = [], []

    def redraw(rng):
        """The picks made so far in this step drawn again at random among what each player
        was offered: a search bot's world (bots.remap_held), the others' picks unseen."""
        cur, tu = st.current, st.turn_used
        for j, (p, a, pre) in enumerate(picks):
            if a is False:
                continue
            legal = offered[j]
            a, pre = legal[int(rng.random() * len(legal))], None
            fc = firsts.get(a.name) if a is not None else None
            if fc is not None:
                st.current, st.turn_used = p, used[p]
                opts = fc[1](st, [p] + [None] * a.frame)
                if opts:
                    pre = [fc[0], opts[int(rng.random() * len(opts))], fc[1]]
            picks[j] = (p, a, pre)
        st.current, st.turn_used = cur, tu
    while inside:
        if until is not None:
            env[0] = st.current = inside[0]
            if until(st, env):
                return
        steps += 1
        spend(st, 1, span)
        if steps > MAX_STEPS:
            raise GameError(f"the phase did not end after {MAX_STEPS} steps", span)
        picks.clear()
        offered.clear()
        _secret_picks = redraw  # noqa: F841
        for p in inside:
            env[0] = st.current = p
            taken = used[p]
            st.turn_used = taken
            legal = []
            for a in acts:
                if a.once and a.name in taken:
                    continue
                if a.req is None or a.req(st, [p] + [None] * a.frame):
                    legal.append(a)
            if not legal:
                picks.append((p, False, None))  # nothing left to do: out of the phase
                offered.append(None)
                continue
            if can_pass and (pass_cond is None or pass_cond(st, env)) and \
                    not any(a.name not in taken for a in required if a in legal):
                legal.append(None)
            if legal == [None]:
                picks.append((p, False, None))
                offered.append(None)
                continue
            i = 0 if len(legal) == 1 and only_option(st, p, legal, prompt, action_label, span) else st.agent(p, legal) if st.agent is not None else \
                (yield Decision(p, legal, prompt, action_label, span))
            a = legal[i]
            offered.append(legal)
            if a is None:
                picks.append((p, None, None))
                continue
            pre = None
            fc = firsts.get(a.name)
            if fc is not None:  # the action's first choice is made now, with the pick
                node, opts_fn, cprompt, lab, _ = fc
                aenv = [p] + [None] * a.frame
                opts = opts_fn(st, aenv)
                j = 0 if len(opts) == 1 and only_option(st, p, opts, cprompt, lab, node.span) else st.agent(p, opts) if st.agent is not None else \
                    (yield Decision(p, opts, cprompt, lab, node.span, st))
                pre = [node, opts[j], opts_fn]
            picks.append((p, a, pre))
        st.turn_used = _NOTHING
        _secret_picks = None  # noqa: F841  (shown from here on)
        # the first choices that are cards, held while the picks resolve (bots.remap_held)
        _held_cards = [pre for _, a, pre in picks if pre is not None and firsts[a.name][4]]  # noqa: F841
        # the picks are shown and resolved in order from FIRST
        for p, a, pre in picks:
            env[0] = st.current = p
            if a is None or a is False:
                inside.remove(p)
                if log is not None:
                    log.append((f"P{p + 1} passes" if a is None else f"P{p + 1} is done", None,
                                {"type": "pass", "player": p}))
                continue
            aenv = [p] + [None] * a.frame
            st.turn_used = used[p]  # `taken(...)` in the requirements: what p took in this phase
            ok = a.req is None or a.req(st, aenv)
            if ok and pre is not None:
                ok = pre[1] in pre[2](st, aenv)
            st.turn_used = _NOTHING
            if not ok:
                if log is not None:
                    log.append((f"P{p + 1}: {a.title} is no longer possible", None,
                                {"type": "refused", "player": p, "action": a.name}))
                continue
            if log is not None:
                log.append((f"P{p + 1}: {a.title}", None, {"type": "action", "player": p, "action": a.name}))
            if st.fired is not None:
                st.fired[a.name] = st.fired.get(a.name, 0) + 1
            used[p].add(a.name)
            st.turn_used = used[p]
            if pre is not None:
                st.preset = {pre[0]: pre[1]}
            _r = a.body(st, aenv)
            if _r is not None:
                yield from _r
            st.preset = None
            st.turn_used = _NOTHING
            if at_once and until(st, env):
                return

class _Phase:
    __slots__ = ("name", "title", "run", "run_for")

    def __init__(self, name, title, run, run_for=None):
        self.name, self.title, self.run = name, title, run
        self.run_for = run_for or (lambda st, p: run(st))  # `do PHASE as p`


_NOTHING: frozenset = frozenset()
MAX_STEPS = 100_000  # actions in one phase: a phase that does not end is an error, not a hang


class _Action:
    __slots__ = ("name", "title", "req", "body", "frame", "once", "required", "alone", "first")

    def __init__(self, name, title, req, body, frame, first=None):
        self.name, self.title, self.req, self.body, self.frame = name, title, req, body, frame
        self.first = first  # its first choice, handed the options the legality check worked out
        self.once = False
        self.required = False
        self.alone = frozenset((name,))  # the turn's actions when it is the only one


def _action_label(a):
    return "pass" if a is None else a.title


def _log_action(log, p, a):
    log.append((f"P{p + 1}: {a.title}", None, {"type": "action", "player": p, "action": a.name}))


def _log_pass(log, p):
    log.append((f"P{p + 1} passes", None, {"type": "pass", "player": p}))


def _log_nothing(log, p):
    log.append((f"P{p + 1} can do nothing", None, {"type": "skip", "player": p}))


TURN_HELPERS = {"_simultaneous_turns": _simultaneous_turns, "_log_action": _log_action, "_log_pass": _log_pass, "_log_nothing": _log_nothing, "_NOTHING": _NOTHING}


class _Compiler(StatementCompiler, ExpressionCompiler):
    """Compiles a checked model once: the flow (setup, rounds, phases, turns) here,
    statements and expressions in their mixins."""

    def runtime_helpers(self) -> dict:
        """The turn helpers, the one addition to runtime.exported (runtime.py cannot import this module)."""
        return TURN_HELPERS

    def __init__(self, game: CompiledGame):
        self.g = game
        self.m = game.model
        super().__init__()
        self.option_fns: dict = {}  # choose statement -> function listing its options
        self.legal_me: dict = {}  # action name -> its legality as `f(st, me)`, for the turn loop (action_legal)

    # ================================================================ top
    def compile_all(self) -> None:
        g, m = self.g, self.m
        self.counted_calls = self_calling(m)  # each call of these is a step of the budget (engine/budget.py)
        g.option_default = [self.expr(o.decl.default) for o in m.options.values()]
        g.card_fields = []
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
            g.card_fields.append(cache[id(cd)])
        # an attribute every card gives as a constant of the rules text: one table for every game,
        # read by the generated code as a constant (not through the state)
        g.attr_rows = {}
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
                g.attr_rows[slot] = row
        self.attr_rows = g.attr_rows
        g.counter_init = [self.expr(c.decl.initial) if c.decl.initial else _const(0) for c in m.counters.values()]
        g.counter_info = [c for c in m.counters.values()]
        g.var_init = [self.expr(v.decl.initial) if v.decl.initial else None for v in m.vars.values()]
        defaults = {"int": 0, "bool": False, "str": ""}
        g.var_default = [defaults.get(v.type) for v in m.vars.values()]
        g.zone_cap = [self.expr(z.decl.capacity) if z.decl.capacity else None for z in m.zones.values()]
        # a zone on cards of several kinds: each kind's own capacity and `drop to`
        g.zone_cap += [{k: self.expr(kz.capacity) for k, kz in cz.decls.items() if kz.capacity is not None}
                       for cz in m.card_zones.values()]
        g.zone_drop = [None] * len(m.zones) + [{k: self.expr(kz.drop) for k, kz in cz.decls.items() if kz.drop is not None}
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
            for d, frame in hs:
                entry = [None, frame, len(d.params)]
                self.handlers[ev].append(entry)
                bodies.append((entry, 0, d.body))
        for entry, at, body in bodies:
            entry[at] = self.gen_block(body)
        g.kdef_cells = {n: [None] for n in m.kind_defs}
        loops = self.counted_calls
        for name, d in m.kind_defs.items():
            f = self.def_body(d, ("kdef", name) in loops)
            g.kdef_cells[name][0] = counted(f, d.decl.span, True) if ("kdef", name) in loops else f
        for name, d in m.defs.items():
            f = self.def_body(d, ("def", name) in loops)
            g.def_cells[name][0] = counted(f, d.decl.span, True) if ("def", name) in loops else f
        g.def_frames = {n: d.frame for n, d in m.defs.items()}
        for name, e in m.effects.items():
            # (a body that asks nothing is a plain function: its callers run it without a generator)
            f = self.block(e.decl.body, skip_requires=True)[1]
            g.effect_cells[name][0] = (self.requires(e), f, e.frame, e)  # (its callers count the steps)
        g.actions = {}
        for name, a in m.actions.items():
            body = self.gen_block(a.decl.body, skip_requires=True)
            g.actions[name] = _Action(name, a.decl.title or name, self.action_legal(a), body, a.frame)
            g.actions[name].first = self.first_choice(a)
        g.setup = self.gen_block(m.setup.decl.body) if m.setup else None
        g.setup_frame = m.setup.frame if m.setup else 1
        g.game_end = self.gen_block(m.game_end.decl.body) if m.game_end else None
        g.game_end_frame = m.game_end.frame if m.game_end else 1
        g.rounds_count = self.expr(m.rounds.count) if m.rounds and m.rounds.count else None
        g.phases = [self.phase(p) for p in m.phases]
        g.end_conds = [self.expr(e.cond) for e in m.end_conds]
        g._flow = self.flow()
        g.winner_keys = [self.expr(k) for k in m.winner.keys] if m.winner else []
        g.winner_everyone = self.expr(m.winner.everyone_if) if m.winner and m.winner.everyone_if else None
        g.guarded_winners = [(self.expr(w.guard), [self.expr(k) for k in w.keys],
                              self.expr(w.everyone_if) if w.everyone_if is not None else None)
                             for w in m.guarded_winners]
        g.scenarios = [self.scenario(sc) for sc in m.scenarios]

    def flow(self):
        """The whole game as one generated generator function of the state: setup, the rounds
        with their phases in order (each under its heading in the log; a phase that did nothing
        leaves none), `end when` at the end of each round, `rounds N`; then `at game end`."""
        g, m, k = self.g, self.m, self.k
        w = self.writer()
        with w.block("try:"):
            if g.setup is not None:  # no one acts in setup: `me` is none
                w.line(f"_r = {k(g.setup)}(st, [None{', None' * g.setup_frame}])")
                with w.block("if _r is not None:"):
                    w.line("yield from _r")
            if g.rounds_count is not None:
                sp = k(m.rounds.count.span)
                w.line(f"_lim = {k(g.rounds_count)}(st, [None{', None' * len(g._pad)}])")
                with w.block("if _lim is not None and _lim < 1:"):
                    w.line(f"raise _GameError(_rounds_msg(_lim, 1), {sp})")
                with w.block(f"if _lim is not None and _lim > {MAX_ROUNDS}:"):
                    w.line(f"raise _GameError(_rounds_msg(_lim, {MAX_ROUNDS}), {sp})")
            with w.block("while True:"):
                w.line("st.round += 1")
                with w.block(f"if st.round > {MAX_ROUNDS}:"):
                    w.line(f"raise _GameError({k(f'the game did not end after {MAX_ROUNDS} rounds (the most a game may have)')}, "
                           f"{k(m.rounds.span if m.rounds is not None else None)})")
                for ph in g.phases:
                    with w.block("if st.log is not None:"):
                        w.line(f"_m = _log_round(st, {k(ph)})")
                    w.line(f"_r = {k(ph.run)}(st)")
                    with w.block("if _r is not None:"):
                        w.line("yield from _r")
                    with w.block("if st.log is not None and len(st.log) == _m:"):
                        w.line("st.log.pop()")
                if g.end_conds:  # `end when` is checked at the end of each round (`end game` ends at once)
                    with w.block("if _g.ended(st):"):
                        w.line("raise _GameOver")
                if g.rounds_count is not None:
                    with w.block("if _lim is not None and st.round >= _lim:"):
                        w.line("raise _GameOver")
        with w.block("except _GameOver:"):
            w.line("pass")
        w.line("yield from _g.final_scoring(st)")
        return self.compile_fn("st", w, "None")

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
        mark = self.marks()
        with self._bound(self.m.slots[first], "_x", first.coll) as v:
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
            if ref and ref[0] == "def" and ref[1] not in seen and ref[1] in self.m.defs:
                if self._costly(self.m.defs[ref[1]].decl.body, seen | {ref[1]}):
                    return True
        return False

    def first_choice(self, a):
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
                                                                  pass_cond, required, multi_turns(True, True, True)))
        return _Phase(ph.name, title, multi_turns(once_each, can_pass, multi))

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
            w.line(f"yield from {call}" if is_gen else call)
        return _Phase(ph.name, title, self.compile_fn("st", w, "None"), run_for)

    def turns(self, ph, frame, acts, required, at_once, can_pass, once_each, multi):
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
        w.lines(sl)
        w.line(f"cur = {sv}")
        with w.block("if cur is None:"):
            w.line(f"raise _GameError({k('the first player of the turns is none')}, {k(ph.start.span)})")
        w.lines(["n = st.n", "taken = 0", "idle = 0", "steps = 0", "log = st.log"])
        with w.block("while True:"):
            with w.block("if cur is None:"):
                w.line(f"raise _GameError({none_next}, {k(ph.span)})")
            w.line("env[0] = st.current = cur")  # `me` in `until` and `pass if` is the player taking the turn
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
                    with w.block("if log is not None:"):
                        w.line("_log_action(log, cur, a)")
                    w.fired("a.name")
                    w.line("st.turn_used = a.alone")  # `taken(A)` inside the turn's one action
                    w.line(run)
                    w.line("st.turn_used = _NOTHING")
                    w.line(f"cur = {following}")
                with w.block("else:"):  # a player who can do nothing is skipped; if nobody can, the phase is over
                    w.fired(idle_key)
                    w.line("idle += 1")
                    with w.block("if log is not None:"):
                        w.line("_log_nothing(log, cur)")
                    with w.block("if idle >= n:"):
                        w.line("return")
                    w.line("cur = (cur + 1) % n")
                return self.compile_fn("st", w, "None")
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
                    with w.block("if not acted and st.fired is not None:"):
                        w.count_fired(idle_key)
                    w.line("break")
                w.line(f"a = {ask}")
                with w.block("if a is None:"):
                    with w.block("if log is not None:"):
                        w.line("_log_pass(log, cur)")
                    w.line("break")
                with w.block("if log is not None:"):
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
        return self.compile_fn("st", w, "None")

    def simultaneous_phase(self, ph, info, start, until, acts, at_once, can_pass, pass_cond, required, one_at_a_time):
        """`turns from FIRST simultaneous [if C]`: in each step every player still in the phase
        picks an action (with its first choice) unseen by the others; the picks then resolve in
        seat order from FIRST, each re-checking its requirements and its choice. Passing leaves the
        phase; it ends when nobody is left. With C false, it is played one player at a time."""
        m = self.m
        frame = info.frame
        cond = self.expr(ph.simul_cond) if ph.simul_cond is not None else None
        firsts = {}
        for a in acts:
            body = m.actions[a.name].decl.body.stmts
            first = next((x for x in body if not isinstance(x, A.Require)), None)
            if isinstance(first, (A.Choose, A.ChooseOne)) and first.chooser is None:
                opts_fn = self.choose_options(first)
                if isinstance(first, A.Choose):
                    ctype = m.types.get(first.coll)
                    t = elem(ctype) if ctype else None
                    firsts[a.name] = (first, opts_fn, first.prompt or f"choose {first.var}", t,
                                      t == "card" or t in m.kinds)
                else:
                    firsts[a.name] = (first, opts_fn, first.prompt or "choose one", _first, False)
        spec = self.k(_Simul(ph, frame, cond, start, until, acts, at_once, can_pass, pass_cond, required, one_at_a_time, firsts))
        w = self.writer(ph.span)
        w.line(f"yield from _simultaneous_turns(st, {spec})")
        return self.compile_fn("st", w, "None")

    # ================================================================ blocks
    def gen_block(self, b: A.Block, skip_requires=False):
        """Compile a block to a generator function (always a generator)."""
        return self._block_fn(b, skip_requires, True)[1]

    def block(self, b: A.Block, skip_requires=False):
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
