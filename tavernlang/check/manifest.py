"""The box's contents against the cards the rules declare: `components { 48 Order ... }`.

A components list gives, as a rulebook's component list does, how many cards of a kind (or
of one name, or of a kind with given attribute values) the box holds. Every line is checked
against the declared cards, and every declared card must be counted by some line: each
mismatch is an error at one place with a note at the other.

In a house rule (a variant), the base game's list describes the base game's box: it is
checked when the base is, and in the variant only if the variant adds or replaces a list
(a house rule that leaves cards out plays with part of the same box).
"""
from __future__ import annotations

from typing import Any

from ..errors import Note, did_you_mean
from ..syntax import ast as A
from .model import ConstRef, DefRef, EffectRef, PhaseRef

_UNKNOWN = object()  # a value the rules work out (not a constant written on the card)


_CONSTANT_NAMES = (ConstRef, EffectRef, PhaseRef)  # what a name may be and still be a constant


def const_value(m, e, seen: frozenset = frozenset()) -> Any:
    """The value of a constant written on a card or in a components line: numbers, strings,
    true/false/none, names (enum values, effects), a def without parameters giving one of
    those, lists of those; _UNKNOWN otherwise (an option, a variable: worked out by the rules)."""
    if isinstance(e, A.Lit):
        return ("lit", type(e.value).__name__, e.value)
    if isinstance(e, A.Name):
        ref = m.refs.get(e)
        if ref is None or isinstance(ref, _CONSTANT_NAMES):  # (no ref: an unknown name, reported already)
            return ("name", e.name)
        if isinstance(ref, DefRef) and e.name not in seen:
            d = m.defs.get(e.name)
            if d is not None and not d.params:
                return const_value(m, d.decl.body, seen | {e.name})
        return _UNKNOWN
    if isinstance(e, A.Neg):
        v = const_value(m, e.operand, seen)
        return ("lit", "int", -v[2]) if v is not _UNKNOWN and v[0] == "lit" and v[1] == "int" else _UNKNOWN
    if isinstance(e, A.ListLit):
        items = tuple(const_value(m, x, seen) for x in e.items)
        return _UNKNOWN if any(x is _UNKNOWN for x in items) else ("list", items)
    return _UNKNOWN


def card_value(m, cd: A.CardDecl, attr: str) -> Any:
    """A card's value of `attr` as written: its own field, else its kind's default."""
    for f in cd.fields:
        if f.name == attr:
            return const_value(m, f.value)
    k = m.kinds.get(cd.kind)
    ad = next((a for a in k.decl.attrs if a.name == attr), None) if k is not None else None
    if ad is None or ad.default is None:
        return ("lit", "NoneType", None)
    return const_value(m, ad.default)


def applies(m) -> bool:
    if m.base_path is None:
        return True
    return any(c.kind == "components" and c.op in ("add", "replace") for c in m.changes)


def _copies(n: int) -> str:
    return f"{n} cop{'y' if n == 1 else 'ies'}"


def check_components(ch, lists: list[A.ComponentsDecl]) -> None:
    """Check every components list of the game (`ch`: the Checker, for its errors and types)."""
    m = ch.m
    if not lists or not applies(m):
        return
    by_name: dict[str, A.CardDecl] = {}
    for cd in m.cards:
        by_name.setdefault(cd.name, cd)
    counted: set[int] = set()  # ids of the card declarations some line counts
    titles: dict = {}
    for cl in lists:
        if cl.title in titles:
            what = f'a components list "{cl.title}"' if cl.title else "an untitled components list"
            ch.err(cl.span, f"the game already has {what}: give each list its own title",
                   [Note(titles[cl.title].span, "the first one is here")])
        titles.setdefault(cl.title, cl)
        for e in cl.entries:
            _entry(ch, m, e, by_name, counted)
    first = lists[0]
    where = Note(first.span, "the components list is here")
    uncovered: dict[str, list[A.CardDecl]] = {}
    for cd in m.cards:
        if id(cd) not in counted and cd.kind in m.kinds:
            uncovered.setdefault(cd.kind, []).append(cd)
    for kind, cds in uncovered.items():
        every = [cd for cd in m.cards if cd.kind == kind]
        if len(cds) == len(every) and len(cds) > 1:
            n = sum(cd.copies for cd in cds)
            ch.err(m.kinds[kind].decl.span, f"the {n} cards of kind '{kind}' are in no components list: "
                                            f"add a line such as '{n} {kind}'", [where])
        else:
            for cd in cds:
                ch.err(cd.span, f'card "{cd.name}" ({_copies(cd.copies)}) is in no components list: '
                                f'add a line such as \'{cd.copies} "{cd.name}"\'', [where])


def _entry(ch, m, e: A.ComponentEntry, by_name: dict, counted: set) -> None:
    if e.count < 0:
        ch.err(e.count_span, "a box cannot hold fewer than no cards")
    if e.kind is not None:
        k = m.kinds.get(e.kind)
        if k is None:
            hint = f' (a card is written in quotes: "{e.kind}")' if e.kind in by_name else did_you_mean(e.kind, m.kinds)
            ch.err(e.target_span, f"unknown kind '{e.kind}'" + hint)
            return
        pool = [cd for cd in m.cards if cd.kind == e.kind]
        kinds = {e.kind: k}
    else:
        assert e.card is not None  # (a line names a kind or a card)
        cd = by_name.get(e.card)
        if cd is None:
            ch.err(e.target_span, f'no card is named "{e.card}"' + did_you_mean(e.card, by_name))
            return
        pool = [cd]
        kinds = {cd.kind: m.kinds[cd.kind]} if cd.kind in m.kinds else {}
    want = {}
    for f in e.fields:
        infos = [k.attrs.get(f.name) for k in kinds.values()]
        if not infos or any(i is None for i in infos):
            known = [a for k in kinds.values() for a in k.attrs]
            kname = next(iter(kinds), "?")
            ch.err(f.span, f"kind '{kname}' has no attribute '{f.name}'" + did_you_mean(f.name, known))
            return
        before = len(ch.errors)
        ch.expect(f.value, infos[0].type, ch.expr(f.value, None), f"attribute '{f.name}'")
        if len(ch.errors) > before:
            return
        v = const_value(m, f.value)
        if v is _UNKNOWN:
            ch.err(f.value.span, "a components line names its cards by constants: a number, a string, "
                                 "true or false, an enum value or a list of those")
            return
        want[f.name] = (v, f)
    hits = []
    for cd in pool:
        ok = True
        for name, (v, f) in want.items():
            cv = card_value(m, cd, name)
            if cv is _UNKNOWN:
                ch.err(f.span, f"card \"{cd.name}\"'s '{name}' is worked out by the rules: a components line "
                               "cannot compare it", [Note(cd.span, f'card "{cd.name}" is declared here')])
                return
            if cv != v:
                ok = False
                break
        if ok:
            hits.append(cd)
    for cd in hits:
        counted.add(id(cd))
    have = sum(cd.copies for cd in hits)
    if have == e.count:
        return
    what = _what(e)
    if e.card is not None and not e.fields:
        cd = pool[0]
        ch.err(e.span, f"the components list has {e.count} {what}, the rules declare {have}",
               [Note(cd.span, f'card "{cd.name}" is declared here with {_copies(cd.copies)}')])
        return
    notes = [Note(cd.span, f"{_copies(cd.copies)} declared here") for cd in hits[:3]]
    if len(hits) > 3:
        notes.append(Note(hits[3].span, f"and {len(hits) - 3} more card declarations from here "
                                        f"({sum(cd.copies for cd in hits[3:])} copies)"))
    if not hits:
        first = next(iter(kinds.values()))
        notes = [Note(first.decl.span, f"kind '{first.name}' is declared here; no card of it"
                                       + (" has these values" if e.fields else " is declared"))]
    ch.err(e.span, f"the components list has {e.count} {what}, the rules declare {have}", notes)


def _what(e: A.ComponentEntry) -> str:
    target = e.kind if e.kind is not None else f'"{e.card}"'
    if e.fields:
        target += " { " + ", ".join(f"{f.name}: {A.text_of(f.value)}" for f in e.fields) + " }"
    return target
