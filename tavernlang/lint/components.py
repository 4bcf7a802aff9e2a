"""Rule family 3 (TAV3xx): components never brought into play.

Every card starts out of play; only rules that read `cards` (or `named(...)`)
can take one out. A zone gets cards only from a reached `move ... to` it; cards
leave it only through rules that name it (draw, choose, count, move its cards)
or read every card of the game.
"""
from __future__ import annotations

from ..check.model import BuiltinRef, DefRef, LocalRef, PropRef, ZoneFamilyRef, ZoneRef
from ..errors import Note
from ..syntax import ast as A
from .rule import finding, rule

ALL = None  # "any zone": a destination the analysis cannot pin down


def _game_nodes(ctx, *types):
    f = ctx.facts
    for n in f.nodes(*types):
        u = f.unit_of.get(n)
        if u is not None and u in f.reached and u.kind != "scenario":
            yield n


def dest_zones(ctx, e, seen=None):
    """The zone families an expression giving a zone may denote (ALL if unknown)."""
    f, m = ctx.facts, ctx.model
    seen = seen if seen is not None else set()
    if e in seen:
        return set()
    seen.add(e)
    ref = m.refs.get(e)
    if isinstance(e, A.Cond):
        a, b = dest_zones(ctx, e.then, seen), dest_zones(ctx, e.orelse, seen)
        return ALL if a is ALL or b is ALL else a | b
    if isinstance(ref, ZoneRef) and ref.whose in ("shared", "player"):
        return {f.zone_name(ref.slot)}
    if isinstance(ref, PropRef) and ref.name == "zone":
        return set()  # where the card already is: no new zone
    if isinstance(ref, DefRef):
        return dest_zones(ctx, m.defs[ref.name].decl.body, seen)
    if isinstance(ref, LocalRef):
        b = f.binder(e)
        if b is None:
            return ALL
        node, role = b
        if role == "elem":
            return _coll_zones(ctx, node.coll, seen)
        if role == "let":
            return dest_zones(ctx, node.value, seen)
        if isinstance(role, tuple):
            args = ctx.values.call_args(node, role[1])
            if args is None:
                return ALL
            out = set()
            for a in args:
                z = dest_zones(ctx, a, seen)
                if z is ALL:
                    return ALL
                out |= z
            return out
    return ALL


def _coll_zones(ctx, coll, seen):
    m = ctx.model
    ref = m.refs.get(coll)
    if isinstance(coll, A.EveryZone) and isinstance(ref, ZoneFamilyRef):
        return {ctx.facts.zone_name(ref.slot)}
    if isinstance(coll, A.Quant) and coll.op == "filter":
        return _coll_zones(ctx, coll.coll, seen)
    if isinstance(coll, A.ListLit):
        out = set()
        for x in coll.items:
            z = dest_zones(ctx, x, seen)
            if z is ALL:
                return ALL
            out |= z
        return out
    if isinstance(ref, DefRef):
        return _coll_zones(ctx, m.defs[ref.name].decl.body, seen)
    return ALL


def receiving_zones(ctx):
    key = "receiving_zones"
    f = ctx.facts
    if key not in f.cache:
        out = set()
        for mv in _game_nodes(ctx, A.Move):
            z = dest_zones(ctx, mv.dest)
            if z is ALL:
                out = ALL
                break
            out |= z
        f.cache[key] = out
    return f.cache[key]


def _is_setup_deal(ctx, n) -> bool:
    """`move cards to Z` (or a filter or `first` of them) in the setup: dealing the box
    out reads no zone."""
    f = ctx.facts
    u = f.unit_of.get(n)
    if u is None or u.kind != "setup":
        return False
    child, par = n, f.parent.get(n)
    while isinstance(par, (A.Quant, A.Call)) and (getattr(par, "coll", None) is child or child in getattr(par, "args", ())):
        if isinstance(par, A.Quant) and par.op != "filter":
            return False
        child, par = par, f.parent.get(par)
    return isinstance(par, A.Move) and par.what is child


def _all_card_reads(ctx):
    """Reached uses of `cards` / `named(...)`: each can see a card wherever it is."""
    m = ctx.model
    for n in _game_nodes(ctx, A.Name, A.Call):
        ref = m.refs.get(n)
        if isinstance(ref, BuiltinRef) and ref.name in ("cards", "named"):
            yield n


@rule("TAV301", "zone-never-filled", "a zone that no reached rule ever moves a card into")
def zone_never_filled(ctx):
    f, m = ctx.facts, ctx.model
    got = receiving_zones(ctx)
    if got is ALL:
        return
    for z in m.zones.values():
        if z.name in got or f.is_library(z.decl):
            continue
        notes = []
        for mv in f.nodes(A.Move):
            dz = dest_zones(ctx, mv.dest)
            if dz is not ALL and z.name in dz:
                u = f.unit_of[mv]
                where = f"scenario '{u.name}'" if u.kind == "scenario" else f"{u.describe()}, which is never reached"
                notes.append(Note(mv.span, f"only {where} moves cards here"))
        yield finding("TAV301", z.decl, f"zone '{z.name}' never receives a card: no reached rule moves cards into it",
                      notes[:4])


@rule("TAV302", "zone-never-emptied",
      "a zone that receives cards, but that no rule ever draws from, looks into or counts")
def zone_never_read(ctx):
    f, m = ctx.facts, ctx.model
    got = receiving_zones(ctx)
    if got is ALL:
        return
    if any(not _is_setup_deal(ctx, n) for n in _all_card_reads(ctx)):
        return  # some rule sees every card, wherever it lies
    for z in m.zones.values():
        if z.name not in got or f.is_library(z.decl):
            continue
        read = False
        for n in f.reads.get(("zone", z.name), ()):
            u = f.unit_of.get(n)
            if u is None or u.kind == "scenario" or (u not in f.reached and u.node not in f.blocked):
                continue  # (the requirements of a blocked action are still looked at)
            par = f.parent.get(n)
            if isinstance(par, A.Move) and par.dest is n or isinstance(par, A.Shuffle):
                continue  # putting cards in, or shuffling them, takes none out
            read = True
            break
        if not read:
            yield finding("TAV302", z.decl,
                          f"zone '{z.name}' receives cards but nothing ever takes them out, looks at them or counts "
                          f"them: no reached rule names '{z.name}' except to move cards into it or shuffle it")


def _picked_cards(ctx, n):
    """The cards a use of `cards`/`named` can take into play, or None for none (a count)."""
    f, v = ctx.facts, ctx.values
    par = f.parent.get(n)
    if isinstance(n, A.Call):  # named("...")
        return v.cards_in(n)
    if isinstance(par, A.Quant) and par.coll is n:
        if par.op != "filter":
            return None  # count/any/every only read
        return v.whole() if par.cond is None else v.filter_cards(v.universe, par.cond, par)
    if isinstance(par, (A.Choose, A.For, A.ChooseSubset, A.ChooseN, A.Simultaneous, A.SimulChoice)) and par.coll is n:
        return v.whole() if par.cond is None else v.filter_cards(v.universe, par.cond, par)
    if isinstance(par, A.Aggregate) and par.coll is n:
        return None
    return v.whole()


@rule("TAV303", "card-never-in-play", "cards that no rule ever takes out of the box (every card starts out of play)")
def card_never_in_play(ctx):
    f, m = ctx.facts, ctx.model
    if not m.cards or m.rounds is None:
        return
    uses = list(_all_card_reads(ctx))
    brought = set()
    for n in uses:
        got = _picked_cards(ctx, n)
        if got is not None:
            brought |= {id(cd) for cd, _ in got}
    missing = [cd for cd in m.cards if id(cd) not in brought and cd.kind in m.kinds and not f.is_library(cd)]
    if not missing:
        return
    picks = [Note(n.span, f"`{f.source(f.parent.get(n) if isinstance(f.parent.get(n), (A.Quant,)) else n)}` "
                          "takes cards out of the box") for n in uses if _picked_cards(ctx, n) is not None][:3]
    if len(missing) == len(m.cards):
        yield finding("TAV303", missing[0],
                      f"no card is ever brought into play: all {sum(cd.copies for cd in missing)} cards start out of "
                      "play and no reached rule moves `cards` (or `named(...)`) anywhere", picks)
        return
    for cd in missing:
        yield finding("TAV303", cd, f"card '{cd.name}' ({cd.kind}) is never brought into play: every card starts out "
                                    "of play, and the rules that take cards out of it never pick this one", picks)


RULES = (zone_never_filled, zone_never_read, card_never_in_play)
