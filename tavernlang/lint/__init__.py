"""`tav lint`: rules that can never take effect, found statically and by simulation.

Every rule is a :class:`~.rule.Rule` with a stable code, collected in
:data:`RULES` (one module per family, documented in docs/lint.md):

========  ==================================================================
TAV1xx    conditions that can never hold, from value ranges (:mod:`.ranges`)
TAV2xx    rules no flow reaches (:mod:`.reach`)
TAV3xx    components never brought into play (:mod:`.components`)
TAV4xx    definitions never used (:mod:`.unused`)
TAV5xx    house-rules variants that cut something off (:mod:`.variants`)
TAV6xx    loops and rounds with no progress toward an end (:mod:`.progress`)
TAV7xx    dynamic coverage and well-formedness, by simulation (:mod:`.coverage`)
TAV8xx    costs that can explode: subsets, recursions (:mod:`.costs`)
TAV0xx    the linter's own: suppressions without a reason, or that match nothing
========  ==================================================================

``lint_model(model)`` runs the static rules on a checked :class:`GameModel`;
``lint_path(path)`` loads a file, lints it and applies the in-file suppressions
(``# tav: ignore[TAV101] the reason``, on the line of the finding).
"""
from __future__ import annotations

import re
from typing import Iterable

import attrs

from ..errors import Span, TavError
from . import components, costs, progress, ranges, reach, unused, variants
from .facts import Facts
from .rule import Finding, Rule, finding, rule
from .values import Values

RULES: tuple[Rule, ...] = (ranges.RULES + reach.RULES + components.RULES + unused.RULES + variants.RULES
                           + progress.RULES + costs.RULES)


@rule("TAV001", "suppression-without-reason", "a '# tav: ignore[CODE]' comment that does not say why")
def _no_reason(ctx):
    return ()


@rule("TAV002", "unused-suppression", "a '# tav: ignore[CODE]' comment that matches no finding on its line")
def _unused_suppression(ctx):
    return ()


#: the linter's own rules (reported while applying suppressions)
META_RULES: tuple[Rule, ...] = (_no_reason, _unused_suppression)

# families that only make sense for a whole game (a file with a `rounds` block)
_GAME_ONLY = ("TAV2", "TAV3", "TAV4", "TAV6")


def all_rules() -> tuple[Rule, ...]:
    from .coverage import RULES as DYNAMIC

    return META_RULES + RULES + DYNAMIC


def parse_codes(text: str | Iterable[str] | None) -> tuple[str, ...]:
    if text is None:
        return ()
    if isinstance(text, str):
        text = [text]
    out = []
    for t in text:
        out.extend(x.strip().upper() for x in t.split(",") if x.strip())
    return tuple(out)


def enabled(code: str, select=(), ignore=()) -> bool:
    if select and not any(code.startswith(s) for s in select):
        return False
    return not any(code.startswith(s) for s in ignore)


@attrs.define
class Context:
    """What a rule reads: the model, its facts, its value analysis, and the codes asked for."""

    model: object
    facts: Facts
    values: Values
    select: tuple = ()
    ignore: tuple = ()

    @property
    def is_game(self) -> bool:
        return self.model.rounds is not None

    def enabled(self, code: str) -> bool:
        return enabled(code, self.select, self.ignore)


def make_context(model, select=(), ignore=(), scenarios: bool = True) -> Context:
    """Index the model, then index it again without the blocks that can never run
    (found with the first index's value ranges), so that what only they do counts
    as never done."""
    from .compare import dead_regions

    fixed = variants.fixed_options(model)
    facts = Facts(model, scenarios)
    ctx = Context(model, facts, Values(facts, fixed), tuple(select), tuple(ignore))
    dead, blocked = dead_regions(ctx)
    if dead or blocked:
        facts = Facts(model, scenarios, dead, blocked)
        ctx = Context(model, facts, Values(facts, fixed), tuple(select), tuple(ignore))
    return ctx


def lint_model(model, select=(), ignore=(), scenarios: bool = True) -> list[Finding]:
    """The static findings of a checked game (suppressions not applied)."""
    select, ignore = parse_codes(select), parse_codes(ignore)
    ctx = make_context(model, select, ignore, scenarios)
    variant = bool(variants.changes_of(model))
    out: list[Finding] = []
    for r in RULES:
        if variant and r.code.startswith("TAV5"):
            continue  # applied below, to the others' findings
        if not ctx.enabled(r.code) and not (variant and ctx.enabled("TAV501")):
            continue
        if not ctx.is_game and r.code.startswith(_GAME_ONLY):
            continue
        out.extend(r(ctx))
    if variant:
        out = variants.apply_variant(ctx, out, lambda base: lint_model(base, scenarios=False))
    out = [f for f in out if ctx.enabled(f.code)]
    return _dedupe(out)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in sorted(findings, key=Finding.sort_key):
        key = (f.code, f.span.file, f.span.line, f.span.col, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


# ---------------------------------------------------------------- suppressions
SUPPRESS = re.compile(r"#\s*tav:\s*ignore\[([^\]]*)\][ \t]*(.*?)\s*$")


@attrs.frozen
class Suppression:
    span: Span
    codes: tuple[str, ...]
    reason: str


def suppressions(sources, files: Iterable[str]) -> dict[tuple[str, int], Suppression]:
    out = {}
    for f, i, line, mt in sources.tav_comments(SUPPRESS, files):
        codes = parse_codes(mt.group(1))
        col = mt.start() + 1
        reason = mt.group(2).split("#", 1)[0].strip()  # a further comment is not the reason
        out[(f, i)] = Suppression(Span(f, i, col, i, len(line.rstrip()) + 1), codes, reason)
    return out


def apply_suppressions(model, findings: list[Finding], checked=lambda code: True,
                       select=(), ignore=()) -> list[Finding]:
    """Drop the findings suppressed on their line (with a reason); report suppressions
    without a reason (TAV001) and those that match nothing that was checked (TAV002). A house
    rule's lint leaves out its base game's findings, so the base's suppressions are not
    reported as matching nothing there (only those of the variant's own files are)."""
    own = {c.span.file for c in variants.changes_of(model)} or None
    files = model.sources.files()
    sups = suppressions(model.sources, files)
    used: set = set()
    out = []
    for f in findings:
        s = sups.get((f.span.file, f.span.line))
        if s is not None and s.reason and f.code in s.codes:
            used.add((s.span.file, s.span.line, f.code))
            continue
        out.append(f)
    for (file, line), s in sups.items():
        if not s.reason:
            if enabled("TAV001", select, ignore):
                out.append(Finding("TAV001", s.span, "a suppression must say why: write "
                                   f"'# tav: ignore[{','.join(s.codes) or 'CODE'}] the reason'",
                                   rule=_no_reason.name))
            continue
        for code in s.codes:
            if (file, line, code) in used or not checked(code) or (own is not None and file not in own):
                continue
            if enabled("TAV002", select, ignore):
                out.append(Finding("TAV002", s.span, f"the suppression of {code} matches no finding on this line",
                                   rule=_unused_suppression.name))
    return _dedupe(out)


def lint_path(path, select=(), ignore=(), model=None, extra=None, overlay=None):
    """Load a rules file and lint it: (findings with suppressions applied, model or None).
    A file that does not load gives its errors as TAV000 findings. `extra(model)`, if
    given, returns more findings (the simulation's) to suppress along with the static ones.
    `overlay`: texts to read instead of files (the loader's; standard input)."""
    from ..loader import load

    select, ignore = parse_codes(select), parse_codes(ignore)
    if model is None:
        try:
            model = load(path, overlay=overlay)
        except TavError as e:
            return [Finding("TAV000", d.span, f"error: {d.message}", tuple(d.notes), rule="rules-error")
                    for d in e.diagnostics], None
    found = lint_model(model, select, ignore)
    static = {r.code for r in RULES}
    game_only = model.rounds is None
    more = extra(model) if extra is not None else None
    if more is not None:
        found += [f for f in more if enabled(f.code, select, ignore)]

    def checked(code):
        if code.startswith("TAV7"):  # whether a simulated game shows it depends on N, the seeds and the
            return False  # options: an unmatched suppression of it says nothing, so it is never reported
        return code in static and enabled(code, select, ignore) and not (game_only and code.startswith(_GAME_ONLY))
    return apply_suppressions(model, found, checked, select, ignore), model


__all__ = ["RULES", "META_RULES", "Finding", "Rule", "Context", "lint_model", "lint_path", "apply_suppressions",
           "make_context", "all_rules", "finding"]
