"""Rule family 4 (TAV4xx): definitions never used.

A name counts as used when any rule, end condition, winner rule, declaration or
scenario reads it (its own body aside). Declarations of the standard library
are never reported: a library offers more than one game uses.
"""
from __future__ import annotations

from ..errors import Note
from .rule import finding, rule


def _uses(ctx, key, own=None):
    f = ctx.facts
    return [n for n in f.reads.get(key, ()) if f.unit_of.get(n) is not own]


@rule("TAV401", "unused-def", "a definition (`def`) that nothing uses, or that only rules never reached use")
def unused_def(ctx):
    f = ctx.facts
    for u in f.units:
        if u.kind != "def" or f.is_library(u) or u in f.helpers:
            continue
        refs = [n for n in f.refs_by.get(("def", u.name), ()) if f.unit_of.get(n) is not u]
        if not refs:
            yield finding("TAV401", u.node, f"definition '{u.name}' is never used")
            continue
        users = {f.unit_of[n] for n in refs}
        if all(x not in f.reached and x.kind not in ("scenario", "def") for x in users):
            notes = [Note(n.span, f"used by {f.unit_of[n].describe()}, which is never reached") for n in refs[:4]]
            yield finding("TAV401", u.node, f"definition '{u.name}' is only used by rules that are never reached", notes)


@rule("TAV402", "unused-option", "an option that no rule reads: setting it changes nothing")
def unused_option(ctx):
    f, m = ctx.facts, ctx.model
    for o in m.options.values():
        if f.is_library(o.decl) or _uses(ctx, ("option", o.name), f.unit_of.get(o.decl)):
            continue
        yield finding("TAV402", o.decl, f"option '{o.name}' is never read: setting it changes nothing")


@rule("TAV403", "never-read", "a counter or variable that no rule, end condition or winner rule ever reads")
def never_read(ctx):
    f, m = ctx.facts, ctx.model
    for kind, table in (("counter", m.counters), ("variable", m.vars)):
        key = "counter" if kind == "counter" else "var"
        for name, info in table.items():
            if f.is_library(info.decl) or _uses(ctx, (key, name), f.unit_of.get(info.decl)):
                continue
            if key == "counter" and info.triggers:
                continue  # a `when ... reaches` watches it
            writes = len(f.gains.get(name, ())) if key == "counter" else 0
            writes += len(f.sets.get((key, name), ()))
            tail = f" (it is changed {writes} time{'s' if writes != 1 else ''} in the rules, for nothing)" if writes else ""
            yield finding("TAV403", info.decl, f"{kind} '{name}' is never read: no rule, end condition or winner "
                                               f"rule looks at it{tail}")


@rule("TAV404", "kind-without-cards", "a kind of card of which the game has no card")
def kind_without_cards(ctx):
    f, m = ctx.facts, ctx.model
    have = {cd.kind for cd in m.cards}
    for k in m.kinds.values():
        if k.name in have or f.is_library(k.decl):
            continue
        yield finding("TAV404", k.decl, f"kind '{k.name}' has no cards: no 'card ...: {k.name}' declares one")


@rule("TAV405", "unused-attribute", "a card attribute that no rule ever reads")
def unused_attribute(ctx):
    f, m = ctx.facts, ctx.model
    for k in m.kinds.values():
        if f.is_library(k.decl):
            continue
        for ad in k.decl.attrs:
            info = m.attrs_by_name.get(ad.name)
            if info is None or info.kinds[0] != k.name:
                continue  # reported once, at its first kind
            if f.reads.get(("attr", ad.name)):
                continue
            yield finding("TAV405", ad, f"attribute '{ad.name}' of kind '{k.name}' is never read by any rule")


RULES = (unused_def, unused_option, never_read, kind_without_cards, unused_attribute)
