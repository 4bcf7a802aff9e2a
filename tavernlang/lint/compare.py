"""Comparisons that can never hold, found once and shared by the rules that
report them (by the source of the bound that rules them out: a dice total, a
count of cards, a track, a resource nothing grants, an option's range, or
plain values)."""
from __future__ import annotations

from ..check.model import INT, DefRef, OptionRef
from ..syntax import ast as A
from .values import CMP, INF, Iv, fmt

# which source of a bound decides the finding's code, most telling first
TAG_CODES = (("total", "TAV101"), ("count", "TAV102"), ("track", "TAV103"), ("never", "TAV104"),
             ("option", "TAV205"))


def _code(tags) -> str:
    for tag, code in TAG_CODES:
        if tag in tags:
            return code
    return "TAV105"


def impossible_comparisons(ctx) -> list[tuple[str, A.BinOp, str]]:
    """(code, comparison, message) for every comparison of the rules (scenarios aside)
    that is false whatever happens."""
    f = ctx.facts
    key = "impossible_comparisons"
    if key in f.cache:
        return f.cache[key]
    out = []
    for n in f.nodes(A.BinOp):
        if n.op not in CMP or f.in_scenario(n):
            continue
        r = _check(ctx, n)
        if r is not None:
            out.append((r[0], n, r[1]))
    # one finding per cause: a comparison inside another that can never hold (a filter
    # inside a count) is explained by the outer one
    hit = {n for _, n, _ in out}

    def nested(n):
        p = f.parent.get(n)
        while p is not None:
            if p in hit:
                return True
            p = f.parent.get(p)
        return False
    out = [x for x in out if not nested(x[1])]
    f.cache[key] = out
    return out


def _check(ctx, n: A.BinOp):
    m, v, f = ctx.model, ctx.values, ctx.facts
    enums = m.enum_of
    lt, rt = m.types.get(n.left), m.types.get(n.right)
    op = n.op
    if lt == INT and rt == INT:
        a, b = v.iv(n.left), v.iv(n.right)
        if op == "!=":
            if a.const and b.const and a.lo == b.lo:
                return "TAV105", f"`{f.source(n)}` can never hold: both sides are always {fmt(a.lo)}"
            return None
        if a.const and b.const and a.lo_tag == b.lo_tag == "literal":
            if _check_consts(a.lo, op, b.lo):
                return None
            return "TAV105", f"`{f.source(n)}` can never hold: it compares two constants"
        # small.hi is below big.lo: the left side too small, or the right side
        if op in (">", ">=", "==") and (a.hi < b.lo or (op == ">" and a.hi <= b.lo)):
            return _explain(ctx, n, a, b, n.left, n.right, {">": "more than ", ">=": "at least ", "==": ""}[op])
        if op in ("<", "<=", "==") and (b.hi < a.lo or (op == "<" and b.hi <= a.lo)):
            return _explain(ctx, n, b, a, n.right, n.left, {"<": "more than ", "<=": "at least ", "==": ""}[op])
        return None
    if op in ("==", "!="):
        sa, sb = v.vals(n.left), v.vals(n.right)
        if sa is None or sb is None:
            return None
        code = "TAV205" if _is_option(m, n.left) or _is_option(m, n.right) else "TAV105"
        if op == "==" and not (sa & sb):
            for side, other, s in ((n.left, n.right, sb), (n.right, n.left, sa)):
                if len(s) == 1:
                    val = next(iter(s))
                    if _is_option(m, side):
                        name = f.option_name(_option_slot(m, side))
                        can = sorted(sa if side is n.left else sb, key=str)
                        if name in v.fixed:
                            tail = f": the variant sets option '{name}' to {_show(can[0], enums)}"
                        else:
                            tail = f": option '{name}' can only be " + " or ".join(_show(x, enums) for x in can)
                        return code, f"`{f.source(n)}` can never hold{tail}"
                    return code, (f"`{f.source(n)}` can never hold: `{f.source(side)}` is never "
                                  f"{_show(val, enums)}{_among(v.vals(side), enums)}")
            return code, f"`{f.source(n)}` can never hold: the two sides never have the same value"
        if op == "!=" and len(sa) == 1 and sa == sb:
            return code, f"`{f.source(n)}` can never hold: both sides are always {_show(next(iter(sa)), enums)}"
    return None


def _is_option(m, e) -> bool:
    return isinstance(e, A.Name) and isinstance(m.refs.get(e), OptionRef)


def _option_slot(m, e) -> int:
    ref = m.refs[e]
    assert isinstance(ref, OptionRef)
    return ref.slot


def _check_consts(a, op, b) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]


def _show(v, enums=()) -> str:
    if isinstance(v, str) and v in enums:
        return v  # an enum value is written bare
    if isinstance(v, str):
        return f'"{v}"'
    if v is None:
        return "none"
    return str(v).lower() if isinstance(v, bool) else str(v)


def _among(vals, enums=()) -> str:
    vals = sorted((x for x in vals or () if x is not None), key=str)
    if not vals:
        return ""
    shown = [_show(x, enums) for x in vals]
    if len(vals) <= 6:
        return " (it is " + ", ".join(shown[:-1]) + (" or " if len(vals) > 1 else "") + shown[-1] + ")"
    return f" (it is one of {len(vals)} values: {', '.join(shown[:4])}, ...)"


def _explain(ctx, n, small: Iv, big: Iv, small_e, big_e, word: str):
    """`small_e` is at most small.hi, below the least value of `big_e`: say why."""
    f = ctx.facts
    tags = (small.hi_tag, big.lo_tag)
    code = _code(tags)
    head = f"`{f.source(n)}` can never hold: "
    subject_small = _code((small.hi_tag,)) == code or big.lo_tag in ("", "literal")
    if subject_small and small.hi_why and big.lo > -INF:
        what = small.what or f"`{f.source(small_e)}`"
        need = fmt(big.lo) if big.const else f"{fmt(big.lo)} (the least `{f.source(big_e)}` can be)"
        if small.hi_tag in ("total", "count"):
            return code, head + f"it needs {what} of {word}{need}; {small.hi_why}"
        return code, head + f"it needs {what} to be {word}{need}; {small.hi_why}"
    if not subject_small and big.lo_why and small.hi < INF:
        what = big.what or f"`{f.source(big_e)}`"
        other = fmt(small.hi) if small.const else f"{fmt(small.hi)} (the most `{f.source(small_e)}` can be)"
        return code, head + f"{what} is at least {fmt(big.lo)} ({big.lo_why}), above {other}"
    left = f"`{f.source(small_e)}` is at most {fmt(small.hi)}" + (f" ({small.hi_why})" if small.hi_why else "")
    right = f"`{f.source(big_e)}` is at least {fmt(big.lo)}" + (f" ({big.lo_why})" if big.lo_why else "")
    return code, head + f"{left}, and {right}"


def can_hold(ctx, e, why: list) -> bool:
    """False when condition e is false whatever happens (its reasons appended to `why`)."""
    m = ctx.model
    if isinstance(e, A.Lit):
        if e.value is False:
            why.append((e, "`false` never holds"))
            return False
        return True
    if isinstance(e, A.BinOp):
        if e.op == "and":
            return can_hold(ctx, e.left, why) and can_hold(ctx, e.right, why)
        if e.op == "or":
            a = can_hold(ctx, e.left, why)
            b = can_hold(ctx, e.right, why)
            return a or b
        if e.op in CMP:
            r = _check(ctx, e)
            if r is not None:
                why.append((e, r[1]))
                return False
        return True
    if isinstance(e, A.Quant) and e.op == "any" and e.cond is not None:
        return can_hold(ctx, e.cond, why)
    if isinstance(e, A.Name) and isinstance(ref := m.refs.get(e), DefRef):
        return can_hold(ctx, m.defs[ref.name].decl.body, why)
    return True


def dead_regions(ctx):
    """(dead, blocked): the blocks that can never run, each with the condition that
    rules it out (an `if`, a `choose`/`for` filter, an option of a `choose`), and the
    actions and effects one of whose requirements never holds."""
    f, m = ctx.facts, ctx.model
    dead, blocked = {}, {}
    for u in f.units:
        if u.kind == "scenario":
            continue
        if u.kind in ("action", "effect"):
            c = (m.actions if u.kind == "action" else m.effects).get(u.name)
            for r in (c.requires if c is not None else ()):
                if not can_hold(ctx, r.cond, []):
                    blocked[u.node] = r.cond
                    break
        for n in u.nodes:
            if isinstance(n, A.If):
                if not can_hold(ctx, n.test, []):
                    dead[n.then] = n.test
            elif isinstance(n, A.ChoiceOption):
                if n.cond is not None and not can_hold(ctx, n.cond, []):
                    dead[n.body] = n.cond
            elif isinstance(n, (A.Choose, A.ChooseN, A.For, A.Simultaneous)):
                if n.cond is not None and not can_hold(ctx, n.cond, []):
                    dead[n.body] = n.cond
    return dead, blocked
