"""One pass over a checked GameModel: what every lint rule reads.

:class:`Facts` walks every declaration once with the generic :func:`ast.walk`
and records

- the *units* of the rules (the setup, each phase, effect, action, def, trigger,
  handler, end condition, the winner rule, every data declaration, scenarios),
  and for every node its unit and its parent;
- the nodes of each syntax type (``facts.nodes(A.BinOp)``);
- the edges between units (``do``, calls, names, listed actions, ``emit``,
  gains that can fire a ``when ... reaches``) and the units that the flow of a
  game reaches from its roots (setup, phases, end, winner, data);
- what the reached rules write (gains, sets, moves) and what anything reads.

Scenarios are tests, not the game: they are never a root, and their writes do
not count, but a name used by a scenario counts as used.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

import attrs

from ..check.model import (CardAttrRef, CounterRef, DefRef, EffectRef, GameModel, OptionRef, PhaseRef, Ref,
                           SelfAttrRef, VarRef, ZoneFamilyRef, ZoneRef)
from ..errors import Span
from ..syntax import ast as A


@attrs.define(eq=False)
class Unit:
    """A piece of the rules that runs (or is read) as a whole."""

    kind: str  # setup, phase, effect, action, def, when, on, end, winner, rounds,
    #            scenario, option, kind, card, counter, var, zone
    name: str | None
    node: A.Node  # the declaration (a Phase for a phase)
    roots: tuple  # the nodes to walk
    nodes: list = attrs.field(factory=list)

    @property
    def span(self) -> Span:
        return self.node.span

    def describe(self) -> str:
        if self.kind == "when":
            d = self.node
            return f"'when {d.counter} of {d.pvar} reaches ...'"
        if self.kind == "on":
            return f"'on {self.name}'"
        if self.kind in ("setup", "winner", "rounds", "game end"):
            return f"the {self.kind}"
        if self.kind == "end":
            return "an 'end when'"
        if self.kind == "def":
            return f"definition '{self.name}'"
        return f"{self.kind} '{self.name}'"


def _stdlib_dirs() -> list[Path]:
    from ..loader import stdlib_dir

    out = [stdlib_dir().resolve()]
    here = Path(__file__).resolve().parent.parent
    for p in (here / "_stdlib", here.parent / "stdlib"):
        if p.is_dir() and p.resolve() not in out:
            out.append(p.resolve())
    return out


class Facts:
    """``dead`` maps the blocks that can never run to the condition that rules them
    out (an `if` that never holds...); ``blocked`` maps actions and effects whose
    `require` never holds to that requirement. Both come from a first pass (see
    :func:`.compare.dead_regions`): their rules count neither as reached nor as
    written. ``scenarios=False`` leaves the scenarios out altogether."""

    def __init__(self, model: GameModel, scenarios: bool = True, dead: dict | None = None,
                 blocked: dict | None = None):
        self.m = model
        self.with_scenarios = scenarios
        self.dead_roots: dict = dict(dead or {})
        self.blocked: dict = dict(blocked or {})
        self.units: list[Unit] = []
        self.unit_of: dict[A.Node, Unit] = {}
        self.parent: dict[A.Node, A.Node] = {}
        self._by_type: dict[type, list] = {}
        self.cache: dict = {}  # shared results of the analyses (values, comparisons)
        self._lib: dict[str, bool] = {}
        self._collect_units()
        for u in self.units:
            self._index(u)
        self.dead_nodes: set = set()
        for root in self.dead_roots:
            self.dead_nodes.update(A.walk(root))
        self._edges()
        self._reach()
        self._reads_writes()

    # ------------------------------------------------------------ units
    def _add(self, kind, name, node, roots) -> Unit:
        u = Unit(kind, name, node, tuple(r for r in roots if r is not None))
        self.units.append(u)
        return u

    def _collect_units(self) -> None:
        m = self.m
        for o in m.options.values():
            d = o.decl
            self._add("option", o.name, d, (d.default, d.low, d.high))
        for k in m.kinds.values():
            self._add("kind", k.name, k.decl, (k.decl,))
        for cd in m.cards:
            self._add("card", cd.name, cd, (cd,))
        for c in m.counters.values():
            d = c.decl
            self._add("counter", c.name, d, (d.initial, d.low, d.high))
        for v in m.vars.values():
            self._add("var", v.name, v.decl, (v.decl.initial,))
        for z in m.zones.values():
            self._add("zone", z.name, z.decl, (z.decl.capacity,))
        for d in m.defs.values():
            self._add("def", d.name, d.decl, (d.decl,))
        for e in m.effects.values():
            self._add("effect", e.name, e.decl, (e.decl,))
        for a in m.actions.values():
            self._add("action", a.name, a.decl, (a.decl,))
        if m.setup is not None:
            self._add("setup", None, m.setup.decl, (m.setup.decl,))
        if getattr(m, "game_end", None) is not None:
            self._add("game end", None, m.game_end.decl, (m.game_end.decl,))
        if m.rounds is not None:
            self._add("rounds", None, m.rounds, (m.rounds.count,))
            for ph in m.phases:
                self.parent[ph.decl] = m.rounds
                self._add("phase", ph.name, ph.decl, (ph.decl,))
        for e in m.end_conds:
            self._add("end", None, e, (e,))
        if m.winner is not None:
            self._add("winner", None, m.winner, (m.winner,))
        for w in m.guarded_winners:
            self._add("winner", None, w, (w,))
        for d, _ in m.reach:
            self._add("when", d.counter, d, (d,))
        for ev, hs in m.handlers.items():
            for d, _ in hs:
                self._add("on", ev, d, (d,))
        if self.with_scenarios:
            for s in m.scenarios:
                self._add("scenario", s.decl.title, s.decl, (s.decl,))

    def _index(self, u: Unit) -> None:
        unit_of, parent, by_type = self.unit_of, self.parent, self._by_type
        nodes = u.nodes
        for root in u.roots:
            for n in A.walk(root):
                unit_of[n] = u
                nodes.append(n)
                by_type.setdefault(type(n), []).append(n)
                for c in A.children(n):
                    parent[c] = n

    def nodes(self, *types) -> Iterable:
        for t in types:
            yield from self._by_type.get(t, ())

    def unit_nodes(self, u: Unit, *types) -> Iterable:
        return (n for n in u.nodes if isinstance(n, types))

    # ------------------------------------------------------------ places
    def is_library(self, node_or_unit) -> bool:
        """Declared in the standard library (which offers more than a game uses)."""
        span = node_or_unit.span
        f = span.file
        hit = self._lib.get(f)
        if hit is None:
            try:
                p = Path(f).resolve()
                hit = any(d in p.parents for d in _stdlib_dirs())
            except (OSError, ValueError):
                hit = False
            self._lib[f] = hit
        return hit

    def dead_cond(self, node):
        """The condition that rules out the block a node is in, or None."""
        if node not in self.dead_nodes:
            return None
        n = node
        while n is not None:
            if n in self.dead_roots:
                return self.dead_roots[n]
            n = self.parent.get(n)
        return None

    def in_scenario(self, node) -> bool:
        u = self.unit_of.get(node)
        return u is not None and u.kind == "scenario"

    def source(self, node) -> str:
        """The rules text of a node (its first line when it spans several)."""
        sp = node.span
        line = self.m.sources.line(sp.file, sp.line)
        if line is None:
            return "?"
        if sp.end_line == sp.line and sp.end_col > sp.col:
            return line[sp.col - 1: sp.end_col - 1]
        return line[sp.col - 1:].rstrip() + " ..."

    def source_at(self, sp: Span) -> str:
        line = self.m.sources.line(sp.file, sp.line)
        if line is None:
            return ""
        if sp.end_line == sp.line and sp.end_col > sp.col:
            return line[sp.col - 1: sp.end_col - 1]
        return line[sp.col - 1:]

    def option_name(self, slot: int) -> str:
        for o in self.m.options.values():
            if o.slot == slot:
                return o.name
        return "?"

    def counter_name(self, slot: int) -> str:
        for c in self.m.counters.values():
            if c.slot == slot:
                return c.name
        return "?"

    def var_name(self, slot: int) -> str:
        for v in self.m.vars.values():
            if v.slot == slot:
                return v.name
        return "?"

    def zone_name(self, fam: int) -> str:
        for z in self.m.zones.values():
            if z.slot == fam:
                return z.name
        return "?"

    def attr_name(self, slot: int) -> str:
        for a in self.m.attrs_by_name.values():
            if a.slot == slot:
                return a.name
        return "?"

    # ------------------------------------------------------------ locals
    def binder(self, name: A.Name):
        """(binder node, role) of a local name: role is 'elem' (an item of a
        collection), 'list' (a picked subset), 'number', 'let', 'player' or
        ('param', i)."""
        key = ("binder", name)
        if key in self.cache:
            return self.cache[key]
        out = None
        child, p = name, self.parent.get(name)
        n = name.name
        while p is not None and out is None:
            out = _binds(p, child, n)
            child, p = p, self.parent.get(p)
        self.cache[key] = out
        return out

    # ------------------------------------------------------------ edges
    def _edges(self) -> None:
        m = self.m
        self.by_name: dict[tuple[str, str], list[Unit]] = {}
        for u in self.units:
            if u.name is not None:
                self.by_name.setdefault((u.kind, u.name), []).append(u)
        when_by_counter: dict[str, list[Unit]] = {}
        for u in self.units:
            if u.kind == "when":
                when_by_counter.setdefault(u.name, []).append(u)
        self.runs: dict[Unit, set] = {}  # unit -> units it runs or reads
        self.values: dict[Unit, set] = {}  # unit -> effects it names as a value
        self.dynamic_do: set = set()  # units with a `do EXPR` that is not a name
        self.emits: dict[str, list] = {}  # event -> Emit nodes
        self.refs_by: dict[tuple[str, str], list] = {}  # (kind, name) -> referring nodes
        dead = self.dead_nodes
        for u in self.units:
            runs, vals = set(), set()
            for n in u.nodes:
                ref = m.refs.get(n) if isinstance(n, (A.Name, A.Call)) else None
                if isinstance(ref, _RUNNABLE):
                    self.refs_by.setdefault((ref.kind, ref.name), []).append(n)
                elif isinstance(n, A.ActionRef):
                    self.refs_by.setdefault(("action", n.name), []).append(n)
                elif isinstance(n, A.Emit):
                    self.emits.setdefault(n.event, []).append(n)
                if n in dead:
                    continue  # written, but never run
                if isinstance(ref, _RUNNABLE):
                    par = self.parent.get(n)
                    as_do = isinstance(par, A.Do) and par.effect is n
                    if isinstance(ref, DefRef) or as_do:
                        runs.update(self.by_name.get((ref.kind, ref.name), ()))
                    elif isinstance(ref, EffectRef) and not ref.is_action:
                        vals.add(ref.name)
                elif isinstance(n, A.Do):
                    if not isinstance(m.refs.get(n.effect), (EffectRef, PhaseRef)):
                        self.dynamic_do.add(u)
                elif isinstance(n, A.ActionRef):
                    runs.update(self.by_name.get(("action", n.name), ()))
                elif isinstance(n, A.Emit):
                    runs.update(self.by_name.get(("on", n.event), ()))
                elif isinstance(n, A.Gain) and n.op != "lose":
                    runs.update(when_by_counter.get(n.counter, ()))
            self.runs[u] = runs
            self.values[u] = vals

    def _reach(self) -> None:
        roots = [u for u in self.units if u.kind in (
            "setup", "game end", "phase", "rounds", "end", "winner", "option", "kind", "card", "counter", "var", "zone")]
        reached = set(roots)
        work = list(roots)
        blocked = {u for u in self.units if u.node in self.blocked}
        dynamic = False
        while True:
            while work:
                u = work.pop()
                if u in self.dynamic_do:
                    dynamic = True
                for v in self.runs[u]:
                    if v not in reached and v not in blocked:
                        reached.add(v)
                        work.append(v)
            if dynamic:  # `do e.effect`: any effect named as a value may run
                for u in list(reached):
                    for name in self.values[u]:
                        for v in self.by_name.get(("effect", name), ()):
                            if v not in reached and v not in blocked:
                                reached.add(v)
                                work.append(v)
            if not work:
                break
        self.reached: set = reached
        self.has_dynamic_do = dynamic
        # what the scenarios run: test helpers, not rules to report as never used
        scen = [u for u in self.units if u.kind == "scenario"]
        helpers, work = set(scen), list(scen)
        while work:
            u = work.pop()
            for v in self.runs[u]:
                if v not in helpers:
                    helpers.add(v)
                    work.append(v)
        self.helpers: set = helpers - reached

    def game_units(self) -> Iterable[Unit]:
        """The reached units: what a game may run or read."""
        return (u for u in self.units if u in self.reached)

    # ------------------------------------------------------------ reads, writes
    def _reads_writes(self) -> None:
        m = self.m
        self.gains: dict[str, list] = {c: [] for c in m.counters}  # reached gain/lose/give/take
        self.sets: dict[tuple[str, str], list] = {}  # (counter|var|cvar, name) -> reached Set nodes
        self.moves: list = []  # reached Move nodes
        self.reads: dict[tuple[str, str], list] = {}  # (counter|var|cattr|option|zone, name) -> nodes, anywhere
        set_targets = set()
        for n in self.nodes(A.Set):
            set_targets.add(n.target)
        dead = self.dead_nodes
        for u in self.units:
            game = u in self.reached and u.kind != "scenario"
            for n in u.nodes:
                if n in dead and not isinstance(n, (A.Name, A.Attr, A.Of, A.AllZone, A.EveryZone)):
                    continue
                if isinstance(n, A.Gain):
                    if game and n.counter in self.gains:
                        self.gains[n.counter].append(n)
                elif isinstance(n, A.Set):
                    if game:
                        ref = m.refs.get(n.target)
                        if ref is not None:
                            key = self._slot_key(ref)
                            if key is not None:
                                self.sets.setdefault(key, []).append(n)
                elif isinstance(n, A.Move):
                    if game:
                        self.moves.append(n)
                elif isinstance(n, (A.Name, A.Attr, A.Of, A.AllZone, A.EveryZone)):
                    ref = m.refs.get(n)
                    if ref is None or n in set_targets:
                        continue
                    key = self._slot_key(ref)
                    if key is not None:
                        self.reads.setdefault(key, []).append(n)

    def _slot_key(self, ref: Ref) -> tuple[str, str] | None:
        match ref:
            case CounterRef(slot=s):
                return ("counter", self.counter_name(s))
            case VarRef(slot=s):
                return ("var", self.var_name(s))
            case CardAttrRef(slot=s) | SelfAttrRef(slot=s):  # (self: in a kind's def, the card's own)
                return ("attr", self.attr_name(s))
            case OptionRef(slot=s):
                return ("option", self.option_name(s))
            case ZoneRef(whose="shared" | "player", slot=s) | ZoneFamilyRef(slot=s):
                return ("zone", self.zone_name(s))
        return None


_RUNNABLE = (DefRef, EffectRef, PhaseRef)  # what a name can run or read: by_name's keys are (kind, name)


def _binds(p, child, n):
    if isinstance(p, (A.Quant, A.Aggregate)):
        if p.var == n and child is not p.coll:
            return p, "elem"
    elif isinstance(p, A.Choose):
        if p.var == n and child is not p.coll and not isinstance(child, A.Chooser):
            return p, "elem"
    elif isinstance(p, A.For):
        if p.var == n and child is not p.coll:
            return p, "elem"
    elif isinstance(p, A.ChooseSubset):
        if p.var == n:
            if child is p.cond:
                return p, "elem"
            if child is p.test or child is p.body:
                return p, "list"
    elif isinstance(p, A.ChooseN):
        if p.var == n:
            if child is p.cond:
                return p, "elem"
            if child is p.body:
                return p, "list"
    elif isinstance(p, A.ChooseNumber):
        if p.var == n and child is p.body:
            return p, "number"
    elif isinstance(p, A.SimulChoice):
        if p.var == n and child is p.cond:
            return p, "elem"
    elif isinstance(p, A.Simultaneous):
        if p.pvar == n and child is not p.players:
            return p, "player"
        after = [c for c in p.more if c is child]  # (a later choice reads the earlier ones)
        for c in reversed(p.more):  # (the last choice of that name is the one the body reads)
            if c.var == n and (child is p.body or after and p.more.index(after[0]) > p.more.index(c)):
                return c, "elem"
        if p.var == n and (child is p.cond or child is p.body or after):
            return p, "elem"
    elif isinstance(p, A.Block):
        hit = None
        for s in p.stmts:
            if s is child:
                break
            if isinstance(s, A.Let) and s.var == n:
                hit = s
        if hit is not None:
            return hit, "let"
    elif isinstance(p, (A.DefDecl, A.EffectDecl, A.OnDecl)):
        for i, prm in enumerate(p.params):
            if prm.name == n:
                return p, ("param", i)
    elif isinstance(p, A.ReachDecl):
        if p.pvar == n:
            return p, "player"
    return None
