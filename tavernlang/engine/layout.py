"""Which zones may be kept in card order: a game's `Layout` (`CompiledGame(model, layout=...)`).

The exact layout, `Layout()`, keeps every zone in the order play leaves it; the fast layout,
`analyse(model)` (`compile_file(path, fast=True)`), keeps the zones it may in card order.

A hidden shared zone whose order the rules never read (it is only drawn from at random,
counted, tested for a kind, moved into and shuffled) plays the same games *in distribution*
whatever order its cards lie in. The fast layout keeps such a zone sorted by card number:
cards declared together make one run, so `any(x in Z where x is K)` and a random draw of a
kind are a bisection, not a walk, and `shuffle Z` has nothing to do. The games are other games
for a seed than the exact layout's (the random numbers are drawn otherwise), the same games in
distribution (tests/test_layout.py); `tav sim` plays it unless `--exact`, `tav run --fast`
replays one of its games.

The analysis is a whitelist: every place the rules name the zone (or a zone that may be it,
such as `c.zone`) must be one of the uses below, else the zone keeps the exact layout.
"""
from __future__ import annotations

import attrs

from ..check.model import ZONE, GameModel, LocalRef, SelfZoneRef, ZoneRef
from ..syntax import ast as A

# the builtins of a zone that do not read the order of its cards
_ORDER_FREE_CALLS = {"size", "empty", "full", "free"}
_ORDER_FREE_PROPS = {"owner", "size", "capacity"}
_SKIPPED = (A.ViewDecl, A.ScenarioDecl)  # read by the exact layout only (tav play's view, scenarios)


def _order_free(e, parent, field, grand) -> bool:
    """Is the zone-valued expression e, at `field` of `parent`, used without reading the order of
    its cards?"""
    p = parent
    if isinstance(p, A.Choose):
        return field == "coll" and p.chooser is not None and p.chooser.random  # drawn at random
    if isinstance(p, A.Quant):
        return field == "coll" and p.op in ("any", "count", "every")
    if isinstance(p, A.Aggregate):
        if field != "coll":
            return False
        if p.op in ("sum", "min", "max"):
            return True
        # the distinct values in their order of first appearance: only their number is order-free
        return p.op == "distinct" and isinstance(grand, A.Call) and grand.name == "size"
    if isinstance(p, A.Call):
        return p.name in _ORDER_FREE_CALLS
    if isinstance(p, A.BinOp):
        return p.op in ("==", "!=")
    if isinstance(p, A.Attr):
        return p.name in _ORDER_FREE_PROPS
    if isinstance(p, A.Move):
        return field == "dest"
    if isinstance(p, A.Shuffle):
        return True
    return False


@attrs.define
class Layout:
    """A game's layout: the zone families kept in card order (none: the exact layout, `Layout()`),
    and for each hidden shared zone that is not, the first place that reads its order (a span)
    or why."""

    sorted: frozenset = frozenset()  # the zone families kept in card order (their slots)
    kept: dict = attrs.field(factory=dict)  # zone name -> (span or None, reason)

    @property
    def exact(self) -> bool:
        """No zone is kept in card order: a seed plays the game `tav run --seed N` plays."""
        return not self.sorted


def layout_for(m: GameModel, exact: bool) -> Layout:
    """The layout a tool plays `m` in: the exact one, or the fast one (`analyse`)."""
    return Layout() if exact else analyse(m)


def analyse(m: GameModel) -> Layout:
    """The fast layout of m: each hidden shared zone whose order no rule reads kept in card order."""
    candidates = {z.slot: z.name for z in m.zones.values()
                  if not z.decl.per_player and z.decl.visibility == "hidden"}
    if not candidates:
        return Layout()
    kept: dict = {}
    # locals bound over `every Z` are zones of that family (never a shared one)
    family_locals = set()
    dynamic_reads: list = []  # (span, what) of a zone value that may be any zone, where its order is read
    for d in m.decls:
        if isinstance(d, _SKIPPED):
            continue
        stack: list = [(d, None, None, None)]
        while stack:
            node, parent, field, grand = stack.pop()
            for fname, ch in A.named_children(node):
                stack.append((ch, node, fname, parent))
            if isinstance(node, (A.Choose, A.For, A.Quant)) and isinstance(node.coll, A.EveryZone):
                k = m.slots.get(node)
                if k is not None:
                    family_locals.add((id(d), k))
            if parent is None or m.types.get(node) != ZONE:
                continue
            ref = m.refs.get(node)
            if isinstance(ref, ZoneRef) and ref.whose == "shared":
                if ref.slot in candidates and ref.slot not in kept and not _order_free(node, parent, field, grand):
                    kept[ref.slot] = (node.span, f"its order is read here ({type(parent).__name__})")
                continue
            if isinstance(ref, (ZoneRef, SelfZoneRef)):
                continue  # (a zone of a per-player family or on a card: never a shared zone)
            # (`zone of c` is `c.zone`, and `target of p` a zone variable: like an Attr, a zone
            # that may be any of them; `hand of p` is a per-player zone, skipped above)
            if isinstance(node, A.EveryZone):
                continue
            if isinstance(node, A.Name) and isinstance(ref, LocalRef) and (id(d), ref.slot) in family_locals:
                continue
            if not _order_free(node, parent, field, grand):
                dynamic_reads.append((node.span, type(parent).__name__))
    if dynamic_reads:  # a zone value that may be any of them (c.zone, a zone variable): none is sorted
        sp, what = dynamic_reads[0]
        for f in candidates:
            kept.setdefault(f, (sp, f"a zone that may be this one has its order read here ({what})"))
    sorted_fams = frozenset(f for f in candidates if f not in kept)
    return Layout(sorted_fams, {candidates[f]: v for f, v in kept.items()})
