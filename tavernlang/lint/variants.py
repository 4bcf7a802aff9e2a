"""Rule family 5 (TAV5xx): house-rules variants.

A variant (`extends "base.tav"` and then `replace`, `remove`, `set OPTION =`,
`add phase`) is linted as a whole game; a finding that appears in the base
game's files only because of the variant is then reported at the change that
causes it (TAV501), with the thing it cut off. Findings the base game has on
its own belong to the base and are left to linting the base. A variant plays
with the values it sets: `set mode = Calm` switches off every branch that needs
another mode. A `replace` that repeats the base word for word is TAV502.

The loader describes the changes on the model as ``model.changes``: records with
``op`` ("replace" | "remove" | "set" | "add"), ``kind``, ``name``, ``span`` (in
the variant) and ``base_span`` (the base definition, or None).
"""
from __future__ import annotations

from pathlib import Path

from ..errors import Note, Span, TavError
from ..syntax import ast as A
from .rule import Finding, finding, rule


def changes_of(model) -> list:
    return list(getattr(model, "changes", None) or [])


def variant_decls(model) -> list:
    """The top-level declarations of the variant's own file (parsed again), or []."""
    try:
        from ..syntax.parser import parse

        return list(parse(Path(model.path).read_bytes(), str(model.path)).decls)
    except (OSError, TavError):
        return []


def fixed_options(model) -> dict:
    """Options a variant fixes with `set OPTION = VALUE`: name -> value expression
    (the loader makes it the option's default; the variant plays with that value)."""
    out = {}
    for c in changes_of(model):
        if getattr(c, "op", None) == "set" and getattr(c, "kind", None) == "option":
            o = model.options.get(c.name)
            if o is not None:
                out[c.name] = o.decl.default
    return out


def base_path(model) -> Path | None:
    bp = getattr(model, "base_path", None)
    if bp:
        return Path(bp)
    Extends = getattr(A, "Extends", None)
    if Extends is None:
        return None
    for d in variant_decls(model):
        if isinstance(d, Extends):
            from ..loader import resolve_include

            return resolve_include(Path(model.path).resolve().parent, d.path)
    return None


def _unit_at(facts, span: Span):
    """The innermost unit of a model whose declaration contains `span`."""
    best = None
    for u in facts.units:
        s = u.node.span
        if s.file != span.file:
            continue
        end = (s.end_line or s.line, s.end_col or s.col)
        if (s.line, s.col) <= (span.line, span.col) <= end:
            if best is None or (s.line, s.col) >= (best.node.span.line, best.node.span.col):
                best = u
    return best


def _mentions(facts, unit, subject) -> bool:
    """Does `unit` (or what it runs) use `subject`?"""
    seen, work = {unit}, [unit]
    while work:
        u = work.pop()
        if u is subject:
            return True
        for v in facts.runs.get(u, ()):
            if v not in seen:
                seen.add(v)
                work.append(v)
    key = {"option": "option", "counter": "counter", "var": "var", "zone": "zone"}.get(subject.kind)
    if key is None:
        return False
    for n in facts.reads.get((key, subject.name), ()):
        if facts.unit_of.get(n) in seen:
            return True
    return False


def _part(ctx, fd: Finding) -> str:
    """What a condition at a finding's place guards: a requirement, a branch, a condition."""
    f = ctx.facts
    node = next((n for n in f.nodes(A.BinOp) if n.span == fd.span), None)
    child, p = node, f.parent.get(node) if node is not None else None
    while p is not None:
        if isinstance(p, A.Require):
            return "the requirement"
        if isinstance(p, (A.If, A.ChoiceOption)) or (getattr(p, "cond", None) is child and
                                                     isinstance(p, (A.Choose, A.For, A.Simultaneous))):
            return "a branch"
        if isinstance(p, (A.EndDecl,)):
            return "the end condition"
        child, p = p, f.parent.get(p)
    return "a condition"


def _describe_change(ch) -> str:
    op, kind, name = getattr(ch, "op", "?"), getattr(ch, "kind", "?"), getattr(ch, "name", None)
    return f"{op} {kind}" + (f" '{name}'" if name else "")


def _attribute(ctx, fd: Finding, changes, base_facts):
    subject = _unit_at(base_facts, fd.span) if base_facts is not None else None
    src = ctx.facts.source_at(fd.span) if hasattr(ctx.facts, "source_at") else ""
    for ch in changes:
        if getattr(ch, "op", "") == "set" and getattr(ch, "name", None) and \
                (f"'{ch.name}'" in fd.message or ch.name in src):
            return ch, subject
    if subject is not None:
        for ch in changes:
            bu = _unit_at(base_facts, ch.base_span) if getattr(ch, "base_span", None) is not None else None
            if bu is not None and bu is not subject and _mentions(base_facts, bu, subject):
                return ch, subject
    for ch in changes:
        if getattr(ch, "name", None) and (f"'{ch.name}'" in fd.message or f'"{ch.name}"' in fd.message):
            return ch, subject
    for ch in changes:
        if getattr(ch, "op", "") == "remove" and getattr(ch, "name", None) and ch.name in fd.message:
            return ch, subject
    return (changes[0] if changes else None), subject


def apply_variant(ctx, findings: list, lint_base) -> list:
    """Turn the findings a variant adds to its base game into TAV501 at the changes
    (and drop the base's own findings); add TAV502 for changes that change nothing."""
    model = ctx.model
    changes = changes_of(model)
    if not changes:
        return findings
    own_file = changes[-1].span.file  # a variant's own changes come after its base's
    changes = [c for c in changes if c.span.file == own_file]
    path = base_path(model)
    base = None
    if path is not None:
        try:
            from ..loader import load

            base = load(path)
        except TavError:
            base = None
    if base is None:
        return findings
    from .facts import Facts

    base_facts = Facts(base, scenarios=False)
    base_keys = {(f.code, f.span.file, f.span.line, f.span.col) for f in lint_base(base)}
    base_files = set(getattr(base.sources, "_texts", {}) or ()) | {u.node.span.file for u in base_facts.units}
    want_501 = ctx.enabled("TAV501")
    out, cut = [], {}
    for fd in findings:
        if fd.span.file not in base_files:
            out.append(fd)  # in the variant's own rules
            continue
        if (fd.code, fd.span.file, fd.span.line, fd.span.col) in base_keys:
            continue  # the base game has it anyway
        ch, subject = _attribute(ctx, fd, changes, base_facts)
        if ch is None:
            out.append(fd)
            continue
        cut.setdefault(id(ch), (ch, []))[1].append((fd, subject))
    if want_501:
        for ch, items in cut.values():
            for fd, subject in items:
                what = subject.describe() if subject is not None else "a rule"
                if fd.code.startswith("TAV1") or fd.code in ("TAV205",):
                    part = _part(ctx, fd)
                    what = f"{what} ({fd.span})" if part == "the requirement" else f"{part} of {what} ({fd.span})"
                notes = [Note(fd.span, f"{fd.code}: {fd.message}")]
                if getattr(ch, "base_span", None) is not None:
                    notes.append(Note(ch.base_span, "the option in the base game" if ch.op == "set"
                                      else "the base definition it changes"))
                out.append(finding("TAV501", ch.span, f"{_describe_change(ch)} cuts off {what} of the base game: "
                                                      f"{fd.message}", notes))
    if ctx.enabled("TAV502"):
        out.extend(_no_effect(ctx, changes))
    return out


def _text(sources, span: Span) -> str:
    """The rules text of a span, without comments, spaces collapsed."""
    lines = []
    last = span.end_line or span.line
    for i in range(span.line, last + 1):
        line = sources.line(span.file, i) or ""
        if i == last and span.end_col:
            line = line[: span.end_col - 1]
        if i == span.line:
            line = line[span.col - 1:]
        lines.append(line.split("#", 1)[0] if '"' not in line else line)
    return " ".join(" ".join(lines).split())


def _no_effect(ctx, changes):
    sources = ctx.model.sources
    for ch in changes:
        if getattr(ch, "op", "") != "replace" or getattr(ch, "base_span", None) is None:
            continue
        new = _text(sources, ch.span)
        if new.startswith("replace "):
            new = new[len("replace "):]
        if new and new == _text(sources, ch.base_span):
            yield finding("TAV502", ch.span, f"{_describe_change(ch)} changes nothing: the new declaration is the "
                                             "base game's, word for word", [Note(ch.base_span, "the base definition")])


@rule("TAV501", "variant-cuts-off",
      "in a house-rules variant, a change that makes something of the base game unreachable or unused")
def variant_cuts_off(ctx):
    return ()  # reported by apply_variant, after the other rules


@rule("TAV502", "variant-no-effect", "in a house-rules variant, a 'replace' whose new declaration is the base's, word for word")
def variant_no_effect(ctx):
    return ()  # reported by apply_variant


RULES = (variant_cuts_off, variant_no_effect)
