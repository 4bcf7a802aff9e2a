"""House rules: a variant `extends` a game and changes its definitions by name.

`apply_changes` takes the base game's declarations and a variant file's own
declarations and returns the merged declarations, one `Change` record per
change, and the errors of changes that name nothing. The merged game is then
checked like any game; `retarget` moves the errors a change causes inside the
base files to the change itself, with a note at the base.
"""
from __future__ import annotations

import re

import attrs

from ..errors import Diagnostic, Note, Span, did_you_mean
from ..syntax import ast as A

# declaration class -> the word a designer writes for it
KIND_WORDS = {
    A.GameDecl: "game", A.PlayersDecl: "players", A.OptionDecl: "option", A.EnumDecl: "enum",
    A.KindDecl: "kind", A.CardDecl: "card", A.CounterDecl: "counter", A.VarDecl: "var",
    A.ZoneDecl: "zone", A.DefDecl: "def", A.EffectDecl: "effect", A.ActionDecl: "action",
    A.SetupDecl: "setup", A.RoundsDecl: "rounds", A.EndDecl: "end", A.WinnerDecl: "winner",
    A.ReachDecl: "when", A.OnDecl: "on", A.ScenarioDecl: "scenario", A.Phase: "phase",
    A.GameEndDecl: "game end", A.ComponentsDecl: "components", A.ViewDecl: "view",
}
SINGLE = {"game", "players", "setup", "rounds", "end", "winner", "game end", "view"}  # one per game: no name


@attrs.frozen
class Change:
    op: str  # "replace" | "remove" | "set" | "add"
    kind: str
    name: str | None
    span: Span  # in the variant
    base_span: Span | None  # the base definition it changes, if any


def key_of(d) -> tuple[str, str | None]:
    kind = KIND_WORDS.get(type(d), type(d).__name__.lower())
    if isinstance(d, A.WinnerDecl) and d.guard is not None:  # `winner when C:` rules, by their C
        return kind, f"when {A.text_of(d.guard)}"
    if kind in SINGLE:
        return kind, None
    if isinstance(d, A.CardDecl):
        return kind, d.name
    if isinstance(d, A.ScenarioDecl):
        return kind, d.title
    if isinstance(d, A.ComponentsDecl):
        return kind, d.title
    if isinstance(d, A.ReachDecl):
        v = d.value.value if isinstance(d.value, A.Lit) else f"@{d.value.span.line}:{d.value.span.col}"
        return kind, f"{d.counter} reaches {v}"
    if isinstance(d, A.OnDecl):
        return kind, d.event
    return kind, d.name


def describe(kind: str, name: str | None) -> str:
    if kind == "components":
        return f'the components list "{name}"' if name else "the components list"
    if name is None:
        return f"the {kind} rule" if kind in ("end", "winner") else f"the {kind} block" if kind in ("setup", "rounds") \
            else f"the '{kind}' line" if kind in ("game", "players") else kind
    return f"{kind} '{name}'" if kind != "card" else f'card "{name}"'


def apply_changes(base: list, own: list, variant_file: str) -> tuple[list, list[Change], list[Diagnostic]]:
    decls = [d for d in base if not isinstance(d, A.ScenarioDecl)]  # scenarios test the file they are in
    changes: list[Change] = []
    errors: list[Diagnostic] = []

    def index():
        out: dict = {}
        for i, d in enumerate(decls):
            out.setdefault(key_of(d), []).append(i)
        return out

    def rounds_at():
        for i, d in enumerate(decls):
            if isinstance(d, A.RoundsDecl):
                return i
        return None

    def names_of(kind):
        out = [key_of(d)[1] for d in decls if key_of(d)[0] == kind]
        if kind == "phase" and rounds_at() is not None:
            out += [p.name for p in decls[rounds_at()].phases]
        return [n for n in out if n]

    def missing(span, kind, name, verb):
        what = describe(kind, name)
        what = what[len("the "):] if what.startswith("the ") else what  # ("no components list", not "no the ...")
        errors.append(Diagnostic(span, f"there is no {what} in the base game to {verb}"
                                 + did_you_mean(name or "", names_of(kind))))

    changed: dict = {}  # (kind, name) -> the change's span: one change of each name per variant
    for d in own:
        if isinstance(d, A.Extends):
            continue
        key = key_of(d.decl) if isinstance(d, A.Replace) else ("option", d.name) if isinstance(d, A.SetOption) else None
        if key is not None and (key[1] is not None or isinstance(d, A.Replace)):  # (also the rounds, the winner...)
            if key in changed:
                errors.append(Diagnostic(d.span, f"{describe(*key)} is changed twice in this variant: "
                                                 "only the last change would count", notes=(Note(changed[key], "first changed here"),)))
                continue
            changed[key] = d.span
        if isinstance(d, A.Replace):
            new = d.decl
            kind, name = key_of(new)
            if kind == "phase":
                ri = rounds_at()
                phases = list(decls[ri].phases) if ri is not None else []
                at = next((i for i, p in enumerate(phases) if p.name == name), None)
                if at is None:
                    missing(d.span, kind, name, "replace")
                    continue
                changes.append(Change("replace", kind, name, d.span, phases[at].span))
                phases[at] = new
                decls[ri] = attrs.evolve(decls[ri], phases=tuple(phases))
                continue
            hits = index().get((kind, name), [])
            if not hits:
                missing(new.span, kind, name, "replace")
                continue
            changes.append(Change("replace", kind, name, d.span, decls[hits[0]].span))
            if kind == "rounds" and not new.phases:
                new = attrs.evolve(new, phases=decls[hits[0]].phases)
            decls[hits[0]] = new
            for i in reversed(hits[1:]):  # `replace end when` replaces every end condition
                del decls[i]
        elif isinstance(d, A.Remove):
            kind, name = d.kind, d.name
            if kind == "end":
                name = None
            if kind == "phase":
                ri = rounds_at()
                phases = list(decls[ri].phases) if ri is not None else []
                at = next((i for i, p in enumerate(phases) if p.name == name), None)
                if at is None:
                    missing(d.name_span or d.span, kind, name, "remove")
                    continue
                changes.append(Change("remove", kind, name, d.span, phases[at].span))
                del phases[at]
                decls[ri] = attrs.evolve(decls[ri], phases=tuple(phases))
                continue
            hits = index().get((kind, name), [])
            if not hits:
                missing(d.name_span or d.span, kind, name, "remove")
                continue
            changes.append(Change("remove", kind, name, d.span, decls[hits[0]].span))
            for i in reversed(hits):
                del decls[i]
        elif isinstance(d, A.SetOption):
            hits = index().get(("option", d.name), [])
            if not hits:
                other = [k for (k, n) in index() if n == d.name]
                if other:
                    errors.append(Diagnostic(d.name_span, f"'{d.name}' is a {other[0]}, not an option; "
                                             f"change it with 'replace {other[0]} {d.name} ...'"))
                else:
                    missing(d.name_span, "option", d.name, "set")
                continue
            old = decls[hits[0]]
            changes.append(Change("set", "option", d.name, d.span, old.span))
            decls[hits[0]] = attrs.evolve(old, default=d.value, span=d.span)
        elif isinstance(d, A.AddPhase):
            ri = rounds_at()
            if ri is None:
                errors.append(Diagnostic(d.span, "the base game has no rounds to add a phase to"))
                continue
            phases = list(decls[ri].phases)
            if any(p.name == d.phase.name for p in phases):
                errors.append(Diagnostic(d.phase.span, f"the base game already has a phase '{d.phase.name}'; "
                                         f"write 'replace phase {d.phase.name} ...' to change it"))
                continue
            if d.anchor is None:
                at = len(phases)
            else:
                idx = next((i for i, p in enumerate(phases) if p.name == d.anchor), None)
                if idx is None:
                    errors.append(Diagnostic(d.anchor_span or d.span, f"there is no phase '{d.anchor}' in the base game"
                                             + did_you_mean(d.anchor, [p.name for p in phases])))
                    continue
                at = idx if d.where == "before" else idx + 1
            phases.insert(at, d.phase)
            decls[ri] = attrs.evolve(decls[ri], phases=tuple(phases))
            changes.append(Change("add", "phase", d.phase.name, d.span, None))
        else:
            kind, name = key_of(d)
            hits = index().get((kind, name), []) if kind not in ("end", "when", "on") else []
            if hits and kind != "scenario":
                errors.append(Diagnostic(d.span, f"the base game already has {describe(kind, name)}; "
                                         f"write 'replace {kind} ...' to change it",
                                         notes=(Note(decls[hits[0]].span, "the base definition is here"),)))
                continue
            decls.append(d)
            changes.append(Change("add", kind, name, d.span, None))
    return decls, changes, errors


_QUOTED = re.compile(r"'([^']+)'")


def retarget(errors: list[Diagnostic], changes: list[Change], variant_file: str, extends_span: Span,
             text_at=lambda span: "") -> list[Diagnostic]:
    """Errors a variant causes inside its base files, moved onto the change that caused them:
    the change whose name the message quotes, or whose name is written at the error's place."""
    out = []
    for e in errors:
        if e.span.file == variant_file:
            out.append(e)
            continue
        names = set(_QUOTED.findall(e.message)) | set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text_at(e.span)))
        cause = next((c for c in changes if c.name and c.name in names and c.op in ("remove", "replace", "set")), None)
        own = next((n for n in e.notes if n.span.file == variant_file), None)
        if cause is None and own is not None:  # the other side is the variant's own text: the error is there
            rest = tuple(n for n in e.notes if n is not own)
            out.append(Diagnostic(own.span, e.message, notes=(Note(e.span, "in the base game here"),) + rest))
            continue
        if cause is not None and cause.op == "remove":
            msg = f"cannot remove {describe(cause.kind, cause.name)}: the base game still uses it"
            note = Note(e.span, f"it is used here ({e.message})")
        elif cause is not None:
            msg = f"this change to {describe(cause.kind, cause.name)} breaks the base game: {e.message}"
            note = Note(e.span, "in the base game here")
        else:
            msg = f"the changes break the base game: {e.message}"
            note = Note(e.span, "in the base game here")
        span = cause.span if cause is not None else extends_span
        notes = (note,) + ((Note(cause.base_span, "the base definition is here"),)
                           if cause is not None and cause.base_span is not None else ())
        out.append(Diagnostic(span, msg, notes=notes))
    # one error per change and message is enough
    seen, uniq = set(), []
    for d in out:
        k = (d.span, d.message)
        if k not in seen:
            seen.add(k)
            uniq.append(d)
    return uniq
