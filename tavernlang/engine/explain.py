"""Why a number is what it is: a gain's, a loss's or a winner decision's derivation, term by term.

Off unless a Match is made with ``explain=True``: then the engine hands each gain or loss it
logs to :meth:`Explainer.gain` (statements._log_gain, inside the ``st.log`` branch of a gain,
so a simulation without a log pays nothing), with the statement's env, and the match hands the
result to :meth:`Explainer.winner`. Every term's value comes from the same generated evaluator
the game runs: the compiler's ``expr()`` of that sub-expression, compiled once and cached. This
module only chooses which sub-expressions to show and binds what a def's parameters, a kind's
def's card or a sum's name would hold; it never works a rule out by itself.

A derivation is JSON-able: ``{"text", "value", "at", "parts"?, "times"?, "because"?, "items"?}``;
``mask`` (the seats that may read a term: it names or counts no card hidden from them) is kept
for rendering and left out of JSON (:func:`public`).
"""
from __future__ import annotations

import json
from typing import Any

from ..check.model import (ANY, BuiltinRef, CardAttrRef, CounterRef, DefRef, JoinRef, KindDefRef, SelfDefRef, Type,
                           VarRef)
from ..syntax import ast as A
from .common import RULE_FAULTS

MAX_DEPTH = 8  # terms inside terms, at most
MAX_PARTS = 24  # terms of one sum shown, at most (the rest summed up as one)
ARITH = ("+", "-", "*", "/", "%")


class Explainer:
    def __init__(self, game):
        self.g, self.m = game, game.model
        self.fns: dict = {}
        self.found: dict = {}  # a log line's index -> its derivation (None: nothing to break down)
        self.full = 0
        self._reads: dict = {}

    # ------------------------------------------------------------ called by the engine
    def gain(self, st, env, node, p, a, new) -> None:
        """A gain or loss is about to be logged (at index len(st.log)); the counter has changed."""
        i = len(st.log)
        if isinstance(node.amount, A.Lit) or env is None:
            return
        ci = self.m.counters[node.counter]
        if ci.slot in self._counters_read(node.amount):
            return  # its amount reads the counter it changed: the terms now would not be the terms then
        d = self._safely(st, lambda: self.derive(st, list(env), node.amount, 0))
        if d is None:
            return
        if d["value"] != a and node.op in ("gain", "lose"):
            return  # (never expected: the amount evaluated twice must agree)
        if d["value"] != a:
            d["note"] = f"asked {d['value']}; {a} moved (no more than there was)"
        self.found[i] = d

    def winner(self, st, result) -> None:
        """The winner decision is about to be logged: each key of the deciding rule, per player."""
        m = self.m
        rule = m.guarded_winners[result["rule"]] if "rule" in result else m.winner
        if rule is None:
            return
        pad = [None] * (m.max_frame + 1)

        def work():
            keys = []
            for k in rule.keys:
                keys.append({"text": _src(m, k), "players": [self.derive(st, [p] + pad, k, 0) for p in range(st.n)]})
            return {"rule": str(rule.span), "text": (m.sources.line(rule.span.file, rule.span.line) or "").strip(),
                    "keys": keys, "winners": [p + 1 for p in result["winners"]]}
        d = self._safely(st, work)
        if d is not None:
            self.found[len(st.log)] = d

    def _safely(self, st, work):
        """Run work() leaving the game as it was: the RNG, the step budget (an explanation is
        never a step of the game); a fault while explaining gives no explanation."""
        rng, steps, limit = st.rng.getstate(), st.steps, st.step_limit
        self.full = (1 << st.n) - 1
        try:
            return work()
        except RULE_FAULTS:
            return None
        finally:
            st.rng.setstate(rng)
            st.steps, st.step_limit = steps, limit

    # ------------------------------------------------------------ terms
    def val(self, st, env, e, cards=False) -> Any:
        key = (e, cards)
        f = self.fns.get(key)
        if f is None:
            f = self.fns[key] = self.g.function_of(e, "cards" if cards else "value")
        return f(st, env)

    def _coll(self, st, env, e):
        key = ("coll", e)
        f = self.fns.get(key)
        if f is None:
            f = self.fns[key] = self.g.function_of(e, "collection")
        return list(f(st, env))

    def _label(self, st, v, t):
        return self.g.text_value(v, st, t, None) if t != "card" or not isinstance(v, int) else self.g.card_label(v, st)

    def _mask(self, st, v, t):
        return self.g.value_mask(v, st, t)

    def derive(self, st, env, e, depth) -> dict:
        m = self.m
        v = self.val(st, env, e)
        t = m.types.get(e)
        node = {"text": _src(m, e), "value": _plain(v, st, self, t), "at": str(e.span), "mask": self.full}
        if depth >= MAX_DEPTH:
            return node
        ref = m.refs.get(e)
        if isinstance(ref, DefRef) and isinstance(e, (A.Call, A.Name)):
            d = m.defs[ref.name]
            args = list(e.args) if isinstance(e, A.Call) else []
            vals = [self.val(st, env, a, self.g.argument_as_cards(d, i, a)) for i, a in enumerate(args)]
            types = [p[1] for p in d.params]
            node["text"] = ref.name + ("(" + ", ".join(self._label(st, x, ty) for x, ty in zip(vals, types)) + ")" if args else "")
            for x, ty in zip(vals, types):
                node["mask"] &= self._mask(st, x, ty)
            env2 = [env[0], *vals] + [None] * max(0, d.frame - 1 - len(vals))
            node["at"], node["def"] = str(d.decl.span), True
            self._into(node, self.derive(st, env2, d.decl.body, depth + 1))
        elif isinstance(ref, KindDefRef) and isinstance(e, (A.Attr, A.Of)):
            c = self.val(st, env, e.obj)
            d = m.kind_defs[ref.name]
            if c is not None:
                node["text"], node["attr"] = f"{e.name} of {self._label(st, c, 'card')}", True
                node["mask"] &= self._mask(st, c, "card")
                node["at"], node["def"] = str(d.decl.span), True
                self._into(node, self.derive(st, [env[0], c] + [None] * d.frame, d.decl.body, depth + 1))
        elif isinstance(e, (A.Attr, A.Of)) and (isinstance(ref, CardAttrRef)
                                                or isinstance(ref, (CounterRef, VarRef)) and ref.whose == "player"):
            o = self.val(st, env, e.obj)
            ot = m.types.get(e.obj)
            node["text"], node["attr"] = f"{e.name} of {self._label(st, o, ot)}", True
            node["mask"] &= self._mask(st, o, ot)
            if isinstance(ref, CardAttrRef) and not ref.mutable and ot == "card" and isinstance(o, int):  # where the card says it
                f = next((f for f in self.g.card_decl[o].fields if f.name == e.name), None)
                node["at"] = str(f.span if f is not None and hasattr(f, "span") else self.g.card_decl[o].span)
        elif isinstance(e, A.Aggregate) and e.op in ("sum", "min", "max"):
            k = m.slots[e]
            parts = []
            for x in self._coll(st, env, e.coll):
                env2 = list(env)
                env2[k] = x
                if e.cond is not None and not self.val(st, env2, e.cond):
                    continue
                p = self.derive(st, env2, e.value, depth + 1)
                xt = _item_type(m.types.get(e.coll))
                if not _names_item(p, e):  # a term that does not say which item it is for: say it
                    branch = p.get("because") and len(p["parts"]) == 1 and _literal(p["parts"][0]["text"])
                    p["text"] = self._label(st, x, xt) + ("" if branch else f": {p['text']}")
                    p["mask"] &= self._mask(st, x, xt)
                parts.append(p)
            node["parts"], node["agg"] = _grouped(parts), e.op
        elif isinstance(e, A.Quant) and e.op == "count":
            k = m.slots[e]
            xt = _item_type(m.types.get(e.coll))
            items = []
            for x in self._coll(st, env, e.coll):
                env2 = list(env)
                env2[k] = x
                if e.cond is None or self.val(st, env2, e.cond):
                    items.append(self._label(st, x, xt))
                    node["mask"] &= self._mask(st, x, xt)
            node["items"] = _counted(items)
        elif isinstance(e, A.Call) and ref == BuiltinRef("size") and m.types.get(e.args[0]) != "zone":
            at = m.types.get(e.args[0])
            xt = at.list_elem if at is not None else None
            xs = self._coll(st, env, e.args[0])
            node["items"] = _counted([self._label(st, x, xt) for x in xs])
            for x in xs:
                node["mask"] &= self._mask(st, x, xt)
        elif isinstance(e, A.BinOp) and e.op in ARITH and not isinstance(ref, JoinRef):
            node["op"] = e.op
            node["parts"] = [self.derive(st, env, e.left, depth + 1), self.derive(st, env, e.right, depth + 1)]
        elif isinstance(e, A.Neg):
            node["op"] = "-"
            node["parts"] = [self.derive(st, env, e.operand, depth + 1)]
        elif isinstance(e, A.Cond):
            held = bool(self.val(st, env, e.test))
            node["because"] = f"{_src(m, e.test)}: {'yes' if held else 'no'}"
            node["parts"] = [self.derive(st, env, e.then if held else e.orelse, depth + 1)]
        elif isinstance(e, A.Match):
            subj = self.val(st, env, e.subject)
            arm = next((c for c in e.cases if subj in [pv for _, pv in c.patterns]), None) \
                or next((c for c in e.cases if not c.patterns), None)
            if arm is not None:
                node["because"] = f"{_src(m, e.subject)} is {self._label(st, subj, m.types.get(e.subject))}"
                node["parts"] = [self.derive(st, env, arm.value, depth + 1)]
                node["at"] = str(arm.value.span)
        for p in node.get("parts", ()):
            node["mask"] &= p["mask"]
        return node

    @staticmethod
    def _into(node, body):
        """A def's node takes its body's working: a branch's reason, the body's terms."""
        if "because" in body:
            node["because"] = body["because"]
            node["parts"] = body["parts"]
        elif body.get("parts") or body.get("items") is not None:
            node["parts"] = [body]
        elif body["text"] != node["text"] and not _literal(body["text"]):
            node["parts"] = [body]
        node["mask"] &= body["mask"]

    def _counters_read(self, e) -> set:
        """The counter slots an expression reads (through the defs it calls)."""
        got = self._reads.get(e)
        if got is not None:
            return got
        m = self.m
        out: set = set()
        todo, seen = [e], set()
        while todo:
            x = todo.pop()
            for n in A.walk(x):
                match m.refs.get(n):
                    case CounterRef(slot=s):
                        out.add(s)
                    case DefRef(name=name) | KindDefRef(name=name) | SelfDefRef(name=name) as ref if name not in seen:
                        seen.add(name)
                        d = (m.defs if isinstance(ref, DefRef) else m.kind_defs).get(name)
                        if d is not None:
                            todo.append(d.decl.body)
        self._reads[e] = out
        return out


# ---------------------------------------------------------------- shaping and reading
def _item_type(t: Type | None) -> Type | None:
    """The type of what a list or zone of type t holds (None for anything else, any included)."""
    return t.elem if t is not None and t != ANY else None


def _src(m, e) -> str:
    """An expression as the rules file writes it (one line)."""
    sp = e.span
    if sp.end_line == sp.line and sp.end_col > sp.col:
        ln = m.sources.line(sp.file, sp.line) or ""
        text = ln[sp.col - 1:sp.end_col - 1]
        if text:
            return text
    if isinstance(e, A.Lit):
        return repr(e.value) if isinstance(e.value, str) else str(e.value)
    ln = (m.sources.line(sp.file, sp.line) or "")[sp.col - 1:].strip()
    return (ln + " ...") if ln else type(e).__name__


def _plain(v, st, ex, t):
    """A value as JSON holds it: a number, yes/no, a label for a card, a player, a list."""
    if isinstance(v, bool) or isinstance(v, int) and t != "card" and t != "player" and t != "zone":
        return v
    return ex._label(st, v, t)


def _literal(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _names_item(p, e) -> bool:
    """A sum's term that already says which item it is about (a def called with it, `x.attr`)."""
    return bool(p.get("def") or p.get("attr"))


def _key(p) -> str:
    return json.dumps({k: v for k, v in p.items() if k != "times"}, sort_keys=True, default=str)


def _grouped(parts: list) -> list:
    """Identical terms once, with how many times: bonus(Knight) 2 ×2."""
    out: dict = {}
    for p in parts:
        k = _key(p)
        if k in out:
            out[k]["times"] = out[k].get("times", 1) + 1
        else:
            out[k] = p
    got = list(out.values())
    if len(got) > MAX_PARTS:
        rest = got[MAX_PARTS - 1:]
        total = sum(p["value"] * p.get("times", 1) for p in rest if isinstance(p["value"], int) and not isinstance(p["value"], bool))
        mask = -1
        for p in rest:
            mask &= p["mask"]
        got = got[:MAX_PARTS - 1] + [{"text": f"{len(rest)} more terms", "value": total, "at": None, "mask": mask}]
    return got


def _counted(labels: list) -> list:
    counts: dict = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    return [f"{lab} ×{k}" if k > 1 else lab for lab, k in counts.items()]


def public(d) -> Any:
    """A derivation as JSON gives it (for `tav run --json`: everything, nothing masked)."""
    if isinstance(d, dict):
        return {k: public(v) for k, v in d.items() if k != "mask"}
    if isinstance(d, list):
        return [public(x) for x in d]
    return d


def _short(at: str | None) -> str:
    """games/my_game.tav:31:1 -> my_game.tav:31"""
    if not at:
        return ""
    parts = at.rsplit(":", 2)
    return f"{parts[0].rsplit('/', 1)[-1]}:{parts[1]}" if len(parts) == 3 else at


def _deepest_at(p) -> str | None:
    """Where a term's value comes from: the def it reaches through one call after another."""
    at = p.get("at")
    while len(p.get("parts") or ()) == 1 and p["parts"][0].get("def"):
        p = p["parts"][0]
        at = p.get("at") or at
    return at


def _hidden(p, viewer) -> bool:
    return viewer is not None and not (p["mask"] >> viewer & 1)


def _val_text(p) -> str:
    v = p["value"]
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def summary(d, viewer=None) -> str | None:
    """One line: the terms of a gain's amount ("bonus(Knight) 2 ×2 (my_game.tav:31), ...");
    None when there is nothing to break down. `viewer`: the seat reading (None: everything)."""
    if d is None or "keys" in d:
        return None
    if _hidden(d, viewer):
        return "worked out from what you may not see"
    if not (d.get("parts") or d.get("items") is not None or d.get("def") or d.get("attr")):
        return None  # a number chosen or kept by the rules (a let, a choice): nothing to break down
    note = f" ({d['note']})" if d.get("note") else ""
    if d.get("def") or "because" in d or d.get("attr"):
        rest = _terms(d, viewer)
        return _one(d, viewer) + (f" = {rest}" if rest else "") + note
    return (_terms(d, viewer) or _one(d, viewer)) + note


def _one(p, viewer) -> str:
    s = f"{p['text']} {_val_text(p)}" + (f" ×{p['times']}" if p.get("times", 1) > 1 else "")
    at = _deepest_at(p) if p.get("def") or p.get("attr") else None
    if p.get("items") is not None:
        s += ": " + (", ".join(p["items"]) or "none")
    return s + (f" ({_short(at)})" if at else "")


def _terms(p, viewer) -> str:
    """What a term is made of, on one line: a sum's terms, an operation's operands, a def's or
    a branch's working (through one wrapper after another), a count's items."""
    seen = 0
    while len(p.get("parts") or ()) == 1 and not p.get("agg") and not p.get("op") and seen < MAX_DEPTH:
        q = p["parts"][0]
        if not (q.get("parts") or q.get("items") is not None) or _hidden(q, viewer):
            if _hidden(q, viewer):
                return "worked out from what you may not see"
            return "" if _literal(q["text"]) else _one(q, viewer)
        p, seen = q, seen + 1
    parts = p.get("parts") or ()
    if any(_hidden(q, viewer) for q in parts):
        return "worked out from what you may not see"
    if not parts:
        return ", ".join(p["items"]) if p.get("items") and seen else ""
    if p.get("op") and len(parts) == 2:
        return f" {p['op']} ".join(q["text"] if _literal(q["text"]) else _one(q, viewer) for q in parts)
    return ", ".join(_one(q, viewer) for q in parts)


def tree(d, viewer=None, indent: str = "  ") -> list[str]:
    """Every term, one a line, indented under the term it is part of, each with its place."""
    if d is None:
        return []
    if "keys" in d:
        return _winner_tree(d, viewer, indent)
    out: list[str] = []

    def walk(p, ind):
        if _hidden(p, viewer):
            out.append(f"{ind}{_val_text(p)}: worked out from what you may not see")
            return
        s = f"{ind}{p['text']} = {_val_text(p)}" + (f" ×{p['times']}" if p.get("times", 1) > 1 else "")
        if p.get("items") is not None:
            s += ": " + (", ".join(p["items"]) or "none")
        extra = [x for x in (p.get("at") and _short(p["at"]), p.get("because"), p.get("note")) if x]
        out.append(s + (f"   ({'; '.join(extra)})" if extra else ""))
        parts = p.get("parts") or ()
        if any(_hidden(q, viewer) for q in parts):
            out.append(f"{ind}  (its terms are worked out from what you may not see)")
            return
        for q in parts:
            if _literal(q["text"]) and not q.get("parts"):
                continue  # (a number of the rules: already in the line above)
            walk(q, ind + "  ")
    walk(d, indent)
    return out


def _winner_tree(d, viewer, indent) -> list[str]:
    out = [f"{indent}decided by {_short(d['rule'])}: {d['text']}"]
    for i, k in enumerate(d["keys"]):
        head = "highest" if i == 0 else "then, among those tied, highest"
        vals = ", ".join(f"P{p + 1} {_val_text(x) if not _hidden(x, viewer) else '?'}" for p, x in enumerate(k["players"]))
        out.append(f"{indent}  {head} {k['text']}: {vals}")
        for p, x in enumerate(k["players"]):
            s = summary(x, viewer)
            if s and x.get("parts"):
                out.append(f"{indent}    P{p + 1}: {s}")
    out.append(f"{indent}  winner" + ("s" if len(d["winners"]) != 1 else "") + ": " +
               (", ".join(f"P{p}" for p in d["winners"]) or "none"))
    return out
