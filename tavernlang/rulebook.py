"""`tav rules`: a rulebook in plain words, written from the checked rules.

The text is made from the checked model only (its declarations, titles, card texts and the
comments that stand above the declarations, which are the rulebook's own words in the shipped
games), never by running the game: the components with their counts and card texts, the
setup, the round and its phases, each action and effect under its title with what it needs and
what it does, the triggers, the end and the winner, the options. A house rule's page begins with
what it changes against its base (as `tav diff` says it).

The words are the language's, turned into sentences: `me` is "you" where a player acts (in
setup and at game end no one does; in a phase of steps it is the current player), a shared
counter goes up or down (it is nobody's), `table of p` is "p's Table" (a zone's or counter's
title when it has one), `x.colour == Red` is "x's colour is Red", `count(x in Z where C)` is
"the number of x in Z where C". The page is for a player holding it against the printed
rulebook; `tav rules` never changes the rules file.
"""
from __future__ import annotations

import contextlib
import re

from .check.model import (BuiltinRef, ConstRef, CounterRef, DefRef, EffectRef, GameModel, LocalRef, OptionRef,
                          ZoneRef)
from .syntax import ast as A

_BUILTIN_WORDS = {
    "me": "you", "players": "the players", "others": "the other players", "cards": "all the cards",
    "current": "the player whose turn it is", "next_player": "the player who plays next",
    "round": "the round number", "player_count": "the number of players",
    "game_ends": "the game would end now", "winners": "the players who would win now",
    "players_in": "the players still in the game",
}
_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
        ">=": "is at least"}
_NEG_CMP = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by (rounded down)", "%": "modulo"}
_ORD = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}


_NOBODY = "no one"  # `me` where no one acts (setup, at game end): none
_CURRENT = "the current player"  # `me` in a phase of steps: the player who took the last turn
_EACH = "that player"  # `me` in the winner's keys: each player in turn


def _human(name: str) -> str:
    return name.replace("_", " ")


_HOLE = re.compile(r"\{\{|\}\}|\{\s*([A-Za-z_][\w.]*)\s*\}")


def _prompt_words(prompt: str) -> str:
    """A prompt as the rulebook quotes it: a hole by the value it names ("Hand Size *hand size*")."""
    def word(m: re.Match) -> str:
        if m.group(1) is None:
            return m.group(0)[0]
        return "*" + _human(m.group(1).replace("me.", "your ").replace(".", "'s ")) + "*"
    return _HOLE.sub(word, prompt)


class _Words:
    """Expressions and statements of one checked game, in words."""

    def __init__(self, model: GameModel):
        self.m = model
        self.used: set = set()  # (file, line) of the comments already carried
        # the comments that open a paragraph of helpers and the rule they belong to
        self.carried: dict[tuple[str, int], list[tuple[str, int]]] = _paragraph_quotes(model)
        for lines in self.carried.values():
            self.used.update(lines)
        self.me = "you"  # `me` in words: "you" where a player acts (`acting`)

    @contextlib.contextmanager
    def acting(self, who: str):
        """`me` read as `who` inside: where no player acts (setup, at game end: `me` is none; a
        phase of steps: the current player), nothing is given to "you"."""
        saved, self.me = self.me, who
        try:
            yield
        finally:
            self.me = saved

    def comments(self, span) -> list[str]:
        """The comments of a declaration or statement (once: a comment carried is not carried
        again), with those of the paragraph it is the rule of first."""
        head = self.carried.pop((span.file, span.line), [])
        lines = [self.m.sources.line(f, ln) or "" for f, ln in head]
        return _clean([ln.strip() for ln in lines]) + comments_above(self.m, span, self.used)

    # ------------------------------------------------------------ names
    def zone_title(self, name: str) -> str:
        z = self.m.zones.get(name)
        return z.decl.title if z is not None and z.decl.title else _human(name)

    def counter_title(self, name: str) -> str:
        """A shared counter by its title ("the Clock"); a player's by its name ("coins", "points"),
        which is how amounts of it read."""
        c = self.m.counters.get(name)
        return c.decl.title if c is not None and c.decl.title and not c.decl.per_player else _human(name)

    def callable_title(self, name: str) -> str:
        c = self.m.effects.get(name) or self.m.actions.get(name)
        title = getattr(c.decl, "title", None) if c is not None else None
        return f"“{title}”" if title else f"“{_human(name)}”"

    def owner(self, o: str, thing: str) -> str:
        if o == "you":
            return f"your {thing}"
        if o == self.me:
            return f"{o}'s {thing}"
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", o):
            return f"{o}'s {thing}"
        return f"the {thing} of {o}"

    # ------------------------------------------------------------ binders
    def binder(self, var: str, coll, cond):
        """`x in C where C2` as a noun phrase ("Character c") and what is left of the condition:
        the kind a `x is K` names, else the items' type."""
        noun = None
        if isinstance(cond, A.IsKind) and isinstance(cond.obj, A.Name) and cond.obj.name == var:
            noun, cond = cond.kind, None
        elif (isinstance(cond, A.BinOp) and cond.op == "and" and isinstance(cond.left, A.IsKind)
              and isinstance(cond.left.obj, A.Name) and cond.left.obj.name == var):
            noun, cond = cond.left.kind, cond.right
        if noun is None:
            if isinstance(coll, A.EveryZone):
                noun = self.zone_title(coll.zone)
            else:
                t = self.m.types.get(coll)
                noun = {"zone": "card", "list:card": "card", "list:player": "player", "list:int": "number",
                        "list:str": "text", "list:zone": "place", "list:effect": "effect"}.get(t or "")
                if noun is None and t is not None:
                    noun = t.list_enum
        return (f"{noun} {var}" if noun else var), noun, cond

    def _is_var_test(self, cond, var: str):
        """`full(v)`, `empty(v)` or their `not`: (negated, the word), else None."""
        neg = False
        if isinstance(cond, A.Not):
            neg, cond = True, cond.operand
        if (isinstance(cond, A.Call) and cond.name in ("full", "empty") and cond.name not in self.m.defs
                and len(cond.args) == 1 and isinstance(cond.args[0], A.Name) and cond.args[0].name == var):
            return neg, cond.name
        return None

    # ------------------------------------------------------------ expressions
    def e(self, x) -> str:  # noqa: C901 (one case per construct)
        if x is None:
            return "nothing"
        m = self.m
        if isinstance(x, A.Lit):
            v = x.value
            if v is None:
                return "none"
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, str):
                return f"“{v}”"
            return str(v)
        if isinstance(x, A.Name):
            ref = m.refs.get(x)
            if isinstance(ref, BuiltinRef) or x.name in _BUILTIN_WORDS and not isinstance(ref, LocalRef):
                return self.me if x.name == "me" else _BUILTIN_WORDS.get(x.name, _human(x.name))
            match ref:
                case OptionRef():
                    return f"*{x.name}*"
                case CounterRef(whose="me"):
                    return self.owner(self.me, self.counter_title(x.name))
                case CounterRef(whose="shared"):
                    return self.counter_title(x.name)
                case ZoneRef(whose="shared"):
                    z = m.zones.get(x.name)
                    return self.owner(self.me, self.zone_title(x.name)) if z is not None and z.decl.per_player \
                        else self.zone_title(x.name)
                case EffectRef():
                    return self.callable_title(x.name)
                case DefRef():
                    return f"*{_human(x.name)}*"
                case LocalRef() | ConstRef():
                    return x.name
            return _human(x.name)
        if isinstance(x, A.Attr):
            return self.attr(x)
        if isinstance(x, A.Of):
            o = self.e(x.obj)
            if x.name in m.zones:
                return self.owner(o, self.zone_title(x.name))
            if x.name in m.counters:
                return self.owner(o, self.counter_title(x.name))
            return self.owner(o, _human(x.name))
        if isinstance(x, A.Index):
            i = x.index.value if isinstance(x.index, A.Lit) else None
            which = _ORD.get(i, f"item {self.e(x.index)}") if isinstance(i, int) else f"item {self.e(x.index)}"
            return f"the {which} of {self.e(x.obj)}"
        if isinstance(x, A.ListLit):
            return ", ".join(self.e(i) for i in x.items) if x.items else "no items"
        if isinstance(x, A.Call):
            return self.call(x)
        if isinstance(x, A.AllZone):
            return f"the cards of every {self.zone_title(x.zone)}"
        if isinstance(x, A.EveryZone):
            return f"every {self.zone_title(x.zone)}"
        if isinstance(x, A.Quant):
            phrase, noun, cond = self.binder(x.var, x.coll, x.cond)
            where = f" where {self.e(cond)}" if cond is not None else ""
            coll = self.e(x.coll)
            if x.op == "count":
                return f"the number of {_plural(phrase)} in {coll}{where}"
            if x.op == "any":
                return f"there is {_a(noun if noun and cond is None else phrase)} in {coll}{where}"
            if x.op == "every":
                test = self._is_var_test(cond, x.var)
                if test is not None and isinstance(x.coll, A.EveryZone):
                    return f"every {noun} is {'not ' if test[0] else ''}{test[1]}"
                return f"for every {phrase} in {coll}, {self.e(cond)}" if cond is not None else "always"
            if cond is None and noun and isinstance(x.coll, A.Name) and x.coll.name == "cards":
                return f"all the {_plural(noun + ' x').split(' ')[0]}"
            return f"the {_plural(phrase)} in {coll}{where}"
        if isinstance(x, A.AnySubset):
            size = (f" of {self.e(x.low)} to {self.e(x.high)} items" if x.low is not None else "")
            where = f" such that {self.e(x.cond)}" if x.cond is not None else ""
            return f"some group {x.var} of {self.e(x.coll)}{size}{where}"
        if isinstance(x, A.Aggregate):
            where = f" where {self.e(x.cond)}" if x.cond is not None else ""
            what = {"sum": "the total of", "min": "the smallest", "max": "the largest",
                    "distinct": "the different"}.get(x.op, x.op)
            return f"{what} {self.e(x.value)} for each {x.var} in {self.e(x.coll)}{where}"
        if isinstance(x, A.BinOp):
            return self.binop(x)
        if isinstance(x, A.Not):
            return self.negate(x.operand)
        if isinstance(x, A.Neg):
            return f"-{x.operand.value}" if isinstance(x.operand, A.Lit) else f"minus {self.e(x.operand)}"
        if isinstance(x, A.IsKind):
            return f"{self.e(x.obj)} is {_a(x.kind)}"
        if isinstance(x, A.Cond):
            return f"{self.e(x.then)} if {self.e(x.test)}, else {self.e(x.orelse)}"
        if isinstance(x, A.Match):
            arms = []
            for c in x.cases:
                pats = " or ".join(f"“{p[1]}”" if p[0] == "str" else str(p[1]) for p in c.patterns) or "otherwise"
                arms.append(f"{pats}: {self.e(c.value)}")
            return f"by {self.e(x.subject)} ({'; '.join(arms)})"
        return A.text_of(x)

    def attr(self, x: A.Attr) -> str:
        o = self.e(x.obj)
        n = x.name
        if n == "left":
            return f"the player to the left of {o}"
        if n == "right":
            return f"the player to the right of {o}"
        if n == "facedown":
            return f"{o} is face down"
        if n == "eliminated":
            return f"{o} is out of the game"
        if n == "zone":
            return f"the place {o} lies in"
        if n == "size":
            return f"the number of cards in {o}"
        if n == "holder":
            return f"the card {o} lies on"
        if self.m.types.get(x) == "bool":
            return f"{o} is {_human(n)}"
        if n in self.m.counters:
            return self.owner(o, self.counter_title(n))
        if n in self.m.zones or n in self.m.card_zones:
            return self.owner(o, self.zone_title(n))
        return self.owner(o, _human(n))

    def call(self, x: A.Call) -> str:
        a = [self.e(y) for y in x.args]
        n = x.name
        simple = {
            "full": lambda: f"{a[0]} is full", "empty": lambda: f"{a[0]} is empty",
            "free": lambda: f"the free places of {a[0]}", "size": lambda: f"the number of {a[0]}",
            "player": lambda: f"the player in seat {a[0]}", "lesser": lambda: f"the lesser of {a[0]} and {a[1]}",
            "greater": lambda: f"the greater of {a[0]} and {a[1]}", "abs": lambda: f"{a[0]} without its sign",
            "random": lambda: f"a random number from {a[0]} to {a[1]}", "named": lambda: f"the cards named {a[0]}",
            "first": lambda: f"the first {a[0]} of {a[1]}", "top": lambda: f"the top card of {a[0]}",
            "order_from": lambda: f"the players in turn order from {a[0]}",
            "neighbour": lambda: f"the player {a[1]} seats to the left of {a[0]}",
            "allowed": lambda: f"{a[0]} may be done", "taken": lambda: f"{a[0]} was done this turn",
            "range": lambda: f"the numbers from {a[0]} to {a[1]}", "has_word": lambda: f"{a[0]} has the word {a[1]}",
            "text": lambda: a[0], "values": lambda: f"every {a[0]}",
        }
        if n in simple and n not in self.m.defs and n not in self.m.effects:
            try:
                return simple[n]()
            except IndexError:
                pass
        if n in self.m.effects:
            return self.callable_title(n) + (f" ({', '.join(a)})" if a else "")
        return f"*{_human(n)}*({', '.join(a)})" if a else f"*{_human(n)}*"

    def binop(self, x: A.BinOp) -> str:
        if x.op in ("and", "or"):
            def side(y):
                s = self.e(y)
                return f"({s})" if isinstance(y, A.BinOp) and y.op in ("and", "or") and y.op != x.op else s
            return f"{side(x.left)} {x.op} {side(x.right)}"
        if x.op in _CMP:
            held = self.held(x.left)
            if held is not None:
                who, what = held
                how = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most", ">": "more than",
                       ">=": "at least"}[x.op]
                return f"{who} {'have' if who == 'you' else 'has'} {how} {self.e(x.right)} {what}"
            return f"{self.e(x.left)} {_CMP[x.op]} {self.e(x.right)}"
        if x.op in _ARITH:
            def side(y):
                s = self.e(y)
                return f"({s})" if isinstance(y, A.BinOp) and y.op in _ARITH and y.op != x.op else s
            return f"{side(x.left)} {_ARITH[x.op]} {side(x.right)}"
        return f"{self.e(x.left)} {x.op} {self.e(x.right)}"

    def held(self, x):
        """A player's counter (`coins`, `p.coins`): (the player in words, the counter's title)."""
        if isinstance(x, A.Name) and isinstance(ref := self.m.refs.get(x), CounterRef) and ref.whose == "me":
            return self.me, self.counter_title(x.name)
        if isinstance(x, A.Attr) and x.name in self.m.counters and self.m.counters[x.name].decl.per_player:
            return self.e(x.obj), self.counter_title(x.name)
        return None

    def negate(self, y) -> str:
        if isinstance(y, A.Call) and y.name in ("full", "empty") and y.name not in self.m.defs:
            return f"{self.e(y.args[0])} is not {y.name}"
        if isinstance(y, A.BinOp) and y.op in _NEG_CMP:
            return self.binop(A.BinOp(y.span, _NEG_CMP[y.op], y.left, y.right))
        if isinstance(y, A.Attr) and y.name == "facedown":
            return f"{self.e(y.obj)} is face up"
        if isinstance(y, A.Attr) and self.m.types.get(y) == "bool":
            return f"{self.e(y.obj)} is not {_human(y.name)}"
        if isinstance(y, A.Quant) and y.op == "any":
            phrase, _noun, cond = self.binder(y.var, y.coll, y.cond)
            where = f" where {self.e(cond)}" if cond is not None else ""
            return f"there is no {phrase} in {self.e(y.coll)}{where}"
        return f"not ({self.e(y)})" if isinstance(y, A.BinOp) else f"not {self.e(y)}"

    # ------------------------------------------------------------ statements
    def block(self, b: A.Block | None, depth: int = 0) -> list[str]:
        out: list[str] = []
        if b is None:
            return out
        for s in b.stmts:
            cs = self.comments(s.span)
            if cs:
                out.append("  " * depth + f"- *{' '.join(cs)}*")
            out.extend(self.stmt(s, depth))
        return out

    def _line(self, depth: int, text: str) -> str:
        first = re.match(r"[a-z]+", text)
        if first and len(first.group()) > 1 and not text[len(first.group()):].startswith("'"):
            text = text[:1].upper() + text[1:]
        return "  " * depth + "- " + text

    def _chooser(self, ch: A.Chooser | None, verb: str = "choose") -> str:
        if ch is None:
            return verb
        if ch.random:
            return "take at random"
        return f"{self.e(ch.player)} {'chooses' if verb == 'choose' else verb}"

    def stmt(self, s, depth: int) -> list[str]:  # noqa: C901
        L = lambda t: [self._line(depth, t)]  # noqa: E731
        sub = lambda b: self.block(b, depth + 1)  # noqa: E731
        where = lambda c: f" where {self.e(c)}" if c is not None else ""  # noqa: E731
        prompt = lambda p: f" (“{_prompt_words(p)}”)" if p else ""  # noqa: E731
        if isinstance(s, A.Move):
            pos = {"top": " on top", "bottom": " at the bottom"}.get(s.position or "", "")
            face = {"facedown": " face down", "faceup": " face up"}.get(s.face or "", "")
            return L(f"move {self.e(s.what)} to {self.e(s.dest)}{pos}{face}.")
        if isinstance(s, A.Shuffle):
            return L(f"shuffle {self.e(s.zone)}.")
        if isinstance(s, A.Reveal):
            return L(f"reveal {self.e(s.what)}.")
        if isinstance(s, A.Look):
            return L(f"look at {self.e(s.what)} (only {self.me} {'see' if self.me == 'you' else 'sees'} it).")
        if isinstance(s, A.Show):
            return L(f"show {self.e(s.what)} to {self.e(s.to)}.")
        if isinstance(s, A.Gain):
            what = self.counter_title(s.counter)
            amount = self.e(s.amount)
            short = " " not in amount or amount.startswith("*") and amount.endswith("*")
            c = self.m.counters.get(s.counter)
            if s.op in ("gain", "lose") and s.other is None and c is not None and not c.decl.per_player:
                # a shared counter (the Clock, a supply) is nobody's: it goes up or down
                how = "up" if s.op == "gain" else "down"
                return L(f"{what} goes {how} by {amount}." if short else f"{what} goes {how} by: {amount}.")
            if s.op in ("gain", "lose"):
                who = self.e(s.other) if s.other is not None else self.me
                verb = s.op if who == "you" else s.op + "s"
                return L(f"{who} {verb} {amount} {what}." if short else f"{who} {verb} {what}: {amount}.")
            if s.op == "give":
                mine, yours = self.owner(self.me, what), "yours" if self.me == "you" else self.me + "'s"
                return L(f"give {amount} of {mine} to {self.e(s.other)}." if short
                         else f"give {self.e(s.other)} {what} of {yours}: {amount}.")
            return L(f"take {amount} {what} from {self.e(s.other)}." if short
                     else f"take {what} from {self.e(s.other)}: {amount}.")
        if isinstance(s, A.Set):
            return L(f"set {self.e(s.target)} to {self.e(s.value)}.")
        if isinstance(s, A.Swap):
            return L(f"swap {self.e(s.a)} with {self.e(s.b)}.")
        if isinstance(s, A.NextTurn):
            who = self.e(s.player)
            return L("you take the next turn." if who == "you" else f"{who} takes the next turn.")
        if isinstance(s, A.Choose):
            phrase, _n, cond = self.binder(s.var, s.coll, s.cond)
            return L(f"{self._chooser(s.chooser)} {_a(phrase)} from {self.e(s.coll)}{where(cond)}{prompt(s.prompt)}, then:") + sub(s.body)
        if isinstance(s, A.ChooseOne):
            out = L(f"{self._chooser(s.chooser)} one{prompt(s.prompt)}:")
            for o in s.options:
                cond = f" (only if {self.e(o.cond)})" if o.cond is not None else ""
                out.append("  " * (depth + 1) + f"- **{o.label}**{cond}:")
                out.extend(self.block(o.body, depth + 2))
            return out
        if isinstance(s, A.ChooseNumber):
            return L(f"{self._chooser(s.chooser)} a number {s.var} from {self.e(s.low)} to {self.e(s.high)}"
                     f"{prompt(s.prompt)}, then:") + sub(s.body)
        if isinstance(s, A.ChooseSubset):
            size = f", {self.e(s.low)} to {self.e(s.high)} of them" if s.low is not None else ""
            test = f", such that {self.e(s.test)}" if s.test is not None else ""
            return L(f"{self._chooser(s.chooser)} a group {s.var} of {self.e(s.coll)}{where(s.cond)}{size}{test}"
                     f"{prompt(s.prompt)}, then:") + sub(s.body)
        if isinstance(s, A.ChooseN):
            n = ("up to " if s.up_to else "") + self.e(s.count)
            return L(f"{self._chooser(s.chooser)} {n} {s.var} from {self.e(s.coll)}{where(s.cond)}, one at a time"
                     f"{prompt(s.prompt)}, then:") + sub(s.body)
        if isinstance(s, A.For):
            phrase, _n, cond = self.binder(s.var, s.coll, s.cond)
            return L(f"for each {phrase} in {self.e(s.coll)}{where(cond)}:") + sub(s.body)
        if isinstance(s, A.Simultaneous):
            picks = []
            for c in (s, *s.more):
                phrase, _n, cond = self.binder(c.var, c.coll, c.cond)
                picks.append(f"{_a(phrase)} from {self.e(c.coll)}{where(cond)}{prompt(c.prompt)}")
            chooses = picks[0] if len(picks) == 1 else ", ".join(picks[:-1]) + " and " + picks[-1]
            sealed = "" if len(picks) == 1 else " (all before anyone's are shown)"
            return L(f"at the same time, each player {s.pvar} of {self.e(s.players)} chooses {chooses}{sealed}, "
                     "then:") + sub(s.body)
        if isinstance(s, A.Repeat):
            return L(f"as long as {self.e(s.cond)}:") + sub(s.body)
        if isinstance(s, A.If):
            out = L(f"if {self.e(s.test)}:") + sub(s.then)
            e = s.orelse
            while e is not None:
                if len(e.stmts) == 1 and isinstance(e.stmts[0], A.If) and e.stmts[0].span.line == e.span.line:
                    nxt = e.stmts[0]
                    out += [self._line(depth, f"otherwise, if {self.e(nxt.test)}:")] + sub(nxt.then)
                    e = nxt.orelse
                else:
                    out += [self._line(depth, "otherwise:")] + sub(e)
                    e = None
            return out
        if isinstance(s, A.Do):
            as_ = f", as {self.e(s.as_player)}" if s.as_player is not None else ""
            eff = s.effect
            if isinstance(eff, A.Attr):
                return L(f"do what {self.e(eff)} says{as_}.")
            return L(f"do {self.e(eff)}{as_}.")
        if isinstance(s, A.Let):
            return L(f"let {s.var} be {self.e(s.value)}.")
        if isinstance(s, A.Emit):
            args = f" ({', '.join(self.e(a) for a in s.args)})" if s.args else ""
            return L(f"this is the moment “{_human(s.event)}”{args}.")
        if isinstance(s, A.EndGame):
            return L("the game ends now.")
        if isinstance(s, A.Eliminate):
            who = self.e(s.player)
            return L("you are out of the game." if who == "you" else f"{who} is out of the game.")
        if isinstance(s, A.Require):
            msg = f" (“{s.message}”)" if s.message else ""
            return L(f"go on only if {self.e(s.cond)}{msg}.")
        if isinstance(s, A.Log):
            return L(f"announce: “{s.text}”.")
        return L(A.text_of(s) if isinstance(s, A.Expr) else type(s).__name__)


def _plural(phrase: str) -> str:
    """`Character c` -> `Characters c`."""
    head, _, rest = phrase.partition(" ")
    if not rest:
        return phrase
    head = head if head.endswith("s") else head[:-1] + "ies" if head.endswith("y") and head[-2:-1] not in "aeiou" else head + "s"
    return f"{head} {rest}"


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


_DECOR = re.compile(r"^[\s#=\-_*~]*")


_RULE = re.compile(r"^#\s*[-=]{4,}")  # a comment line that begins with a rule of dashes or equals signs


def _is_header(line: str) -> bool:
    """A file's section header (`# ------ Setup`, `# ==== Counting the Till`): a rule of dashes or
    equals signs alone or with a short title, which is layout, not rules. A rule followed by a
    sentence (`# ---- Drawing. Rulings: a deck that runs out ...`) begins a ruling instead."""
    if not _RULE.match(line):
        return False
    title = _DECOR.sub("", line).strip()
    return len(title.split()) <= 8 and title.count("(") == title.count(")") and title.count("[") == title.count("]")


def comments_above(model: GameModel, span, used: set | None = None) -> list[str]:
    """The comment lines that stand right above a declaration or statement (no blank line
    between), and the comment at the end of its first line; tool markers (`tav: ...`) and the
    file's section headers left out. `used`: the comment lines already carried (skipped, and
    added to)."""
    src = model.sources
    used = set() if used is None else used
    out: list[str] = []
    ln = span.line - 1
    while ln >= 1:
        line = src.line(span.file, ln)
        if line is None or not line.strip().startswith("#") or _is_header(line.strip()):
            break
        if (span.file, ln) not in used:
            out.insert(0, line.strip())
            used.add((span.file, ln))
        ln -= 1
    first = src.line(span.file, span.line) or ""
    trailing = _trailing_comment(first)
    if trailing and (span.file, span.line) not in used:
        used.add((span.file, span.line))
        out.append(trailing)
    return _clean(out)


def _clean(comments: list[str]) -> list[str]:
    """Comment lines as text: the `#` and any rule of dashes taken off, tool markers left out."""
    texts = []
    for c in comments:
        t = _DECOR.sub("", c).strip()
        t = re.sub(r"#\s*tav:.*$", "", t).strip()
        if not t or t.startswith("tav:"):
            continue
        texts.append(t)
    return texts


# what a paragraph's opening comment may belong to, besides the definitions it starts with
_RULES = (A.ActionDecl, A.EffectDecl, A.WinnerDecl, A.EndDecl, A.RoundsDecl, A.SetupDecl, A.GameEndDecl,
          A.ReachDecl, A.OnDecl, A.KindDecl)


def _paragraph_quotes(model: GameModel) -> dict[tuple[str, int], list[tuple[str, int]]]:
    """The comment that opens a paragraph (declarations with no blank line between) quotes the
    rule the paragraph is for: when the paragraph begins with definitions (`def`) that work out
    what a rule below them needs, the comment belongs to the paragraph's first action, else its
    first other rule (an effect, the winner...), and when it begins with the types (`enum`) of a
    kind of card, to the kind; not to the first definition, unless that rule has a comment of its
    own. By the line of that rule: the comment lines (file, line). A comment above a later
    declaration of the paragraph stays with that declaration."""
    texts: dict[str, list[str]] = {}

    def line(file: str, ln: int) -> str | None:
        if file not in texts:
            t = model.sources.text(file)
            texts[file] = t.split("\n") if t is not None else []
        ls = texts[file]
        return ls[ln - 1] if 1 <= ln <= len(ls) else None

    starts = {(d.span.file, d.span.line): d for d in model.decls if getattr(d, "span", None) is not None}
    out: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for d in model.decls:
        if not isinstance(d, (A.DefDecl, A.EnumDecl)) or d.span is None:
            continue
        f = d.span.file
        ln = d.span.line - 1
        block = []
        while ln >= 1 and (t := line(f, ln)) is not None and t.strip().startswith("#") and not _is_header(t.strip()):
            block.insert(0, (f, ln))
            ln -= 1
        if not block:
            continue
        above = line(f, ln)
        if above is not None and above.strip() and not _is_header(above.strip()):
            continue  # a comment inside a paragraph: its own declaration's
        rules = []
        ln = d.span.line + 1
        while (t := line(f, ln)) is not None and t.strip() and not _is_header(t.strip()):
            r = starts.get((f, ln))
            if isinstance(r, _RULES):
                rules.append(r)
            ln += 1
        if isinstance(d, A.EnumDecl):  # the types of a kind of card: the kind's
            target = next((r for r in rules if isinstance(r, A.KindDecl)), None)
        else:
            rules = [r for r in rules if not isinstance(r, A.KindDecl)]
            target = next((r for r in rules if isinstance(r, A.ActionDecl)), rules[0] if rules else None)
        if target is None:
            continue
        own = line(f, target.span.line - 1)
        if own is not None and own.strip().startswith("#"):
            continue  # the rule has its own comment: the opening one is the definitions'
        out[(f, target.span.line)] = block
    return out


def _trailing_comment(line: str) -> str | None:
    in_str = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_str = not in_str
        elif ch == "#" and not in_str:
            return line[i:] if line[:i].strip() else None
    return None


# ---------------------------------------------------------------- the page
class _Page:
    def __init__(self, model: GameModel, changes: list[dict] | None, base_path: str | None, source: str):
        self.m = model
        self.w = _Words(model)
        self.changes = changes
        self.base_path = base_path
        self.source = source
        self.lines: list[str] = []

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def notes(self, span) -> list[str]:
        return self.w.comments(span)

    def quote(self, span) -> None:
        cs = self.notes(span)
        if cs:
            self.add(*(f"> {c}" for c in cs))
            self.add("")

    def para(self, text: str) -> None:
        self.add(text, "")

    def render(self) -> str:
        m = self.m
        self.add(f"# {m.title}", "")
        self.para(f"*The rules of {m.title} in plain words, written by `tav rules` from `{self.source}`. "
                  "Quoted lines are the comments of the rules file; the rest says what the rules do.*")
        lo, hi = m.min_players, m.max_players
        self.para(f"For {lo} player{'s' if lo != 1 else ''}." if lo == hi else f"For {lo} to {hi} players.")
        if self.changes is not None:
            self.house_rule()
        self.options()
        self.components()
        self.table()
        self.setup()
        self.rounds()
        self.actions()
        self.effects()
        self.definitions()
        self.triggers()
        self.end()
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"

    # -------------------------------------------------------- sections
    def house_rule(self) -> None:
        import os
        self.add("## What this house rule changes", "")
        own = next((c.span.file for c in self.m.changes if c.span is not None), None)
        if own is not None:  # the comments at the head of the variant's own file
            head = []
            for ln in range(1, 200):
                line = self.m.sources.line(own, ln)
                if line is None or not line.strip().startswith("#"):
                    break
                head.append(_DECOR.sub("", line.strip()).strip())
            if any(head):
                self.add(*(f"> {h}" for h in head if h))
                self.add("")
        base = self.base_path or "?"
        if own is not None and self.base_path:
            base = os.path.relpath(os.path.realpath(self.base_path), os.path.dirname(os.path.realpath(own)))
        self.para(f"This is a house rule of `{base}`. Against that game it changes:")
        if not self.changes:
            self.para("nothing.")
            return
        for c in self.changes:
            self.add(f"- {c['change']}: {c['summary']}")
        self.add("")

    def options(self) -> None:
        opts = list(self.m.options.values())
        if not opts:
            return
        self.add("## Options and modes", "")
        self.para("Chosen before the game starts (`--option NAME=VALUE`).")
        for o in opts:
            d = o.decl
            rng = f", from {A.text_of(d.low)} to {A.text_of(d.high)}" if d.low is not None else ""
            typ = {"int": "a number", "bool": "yes or no", "str": "a text"}.get(o.type, None)
            if typ is None and o.type.enum is not None:
                typ = "one of " + ", ".join(self.m.enums.get(o.type.enum, ()))
            default = A.text_of(d.default)
            if o.type == "bool":
                default = "yes" if default == "true" else "no" if default == "false" else default
            doc = f": {d.doc}" if d.doc else ""
            self.add(f"- **{o.name}** ({typ}{rng}; {default} unless chosen otherwise){doc}.")
            for c in self.notes(d.span):
                self.add(f"  > {c}")
        self.add("")

    def components(self) -> None:
        m = self.m
        self.add("## Components", "")
        lists = [d for d in m.decls if isinstance(d, A.ComponentsDecl)]
        for cl in lists:
            if cl.title:
                self.add(f"### {cl.title}", "")
            self.quote(cl.span)
            for e in cl.entries:
                target = e.kind if e.kind is not None else f"“{e.card}”"
                vals = ", ".join(f"{f.name} {A.text_of(f.value)}" for f in e.fields)
                words = e.label or (target if e.card is not None else f"{target} cards") + (f" with {vals}" if vals else "")
                detail = f" ({target}{': ' + vals if vals else ''})" if e.label else ""
                notes = self.notes(e.span)
                stand = " — *stand-in*" if any("stand-in" in c for c in notes) else ""
                self.add(f"- {e.count} {words}{detail}{stand}")
            self.add("")
        if not lists:
            self.para("The rules declare no components list; the cards they declare are these.")
        self.types()
        self.cards()

    def types(self) -> None:
        """The lists of values the rules name (enums), each with its values, but an option's (its
        values are listed with the options)."""
        m = self.m
        of_options = {o.type.enum for o in m.options.values() if o.type.enum is not None}
        enums = [d for d in m.decls if isinstance(d, A.EnumDecl) and d.name not in of_options]
        if not enums:
            return
        self.add("### Types", "")
        self.para("The rules name these kinds of values:")
        for d in enums:
            self.add(f"- **{d.name}**: {', '.join(d.values)}.")
            self.add(*(f"  > {c}" for c in self.notes(d.span)))
        self.add("")

    def cards(self) -> None:
        m = self.m
        texts = _card_texts(m)
        by_kind: dict[str, list[A.CardDecl]] = {}
        for cd in m.cards:
            by_kind.setdefault(cd.kind, []).append(cd)
        if not by_kind:
            return
        self.add("### The cards", "")
        for kind, cds in by_kind.items():
            n = sum(cd.copies for cd in cds)
            self.add(f"#### {kind} ({n} card{'s' if n != 1 else ''})", "")
            k = m.kinds.get(kind)
            if k is not None:
                self.quote(k.decl.span)
            for cd in cds:
                copies = f" ×{cd.copies}" if cd.copies > 1 else ""
                text = texts.get(cd.name)
                if text is None:
                    vals = ", ".join(f"{f.name} {A.text_of(f.value)}" for f in cd.fields)
                    text = vals
                self.add(f"- **{cd.name}**{copies}" + (f": {text}" if text else ""))
            self.add("")

    def table(self) -> None:
        m = self.m
        if not (m.counters or m.zones or m.vars):
            return
        self.add("## On the table", "")
        if m.counters:
            self.add("Counters and tracks:", "")
            for c in m.counters.values():
                d = c.decl
                who = "each player has" if d.per_player else "the game has"
                start = A.text_of(d.initial) if d.initial is not None else "0"
                rng = f", from {A.text_of(d.low)} to {A.text_of(d.high)}" if d.low is not None else ""
                wrap = " (going round)" if d.wrap else ""
                title = d.title or _human(c.name)
                name = f" ({_human(c.name)})" if title != _human(c.name) else ""
                self.add(f"- {who} **{title}**{name}, starting at {start}{rng}{wrap}.")
                self.add(*(f"  > {c}" for c in self.notes(d.span)))
            self.add("")
        if m.zones:
            self.add("Places for cards:", "")
            for z in m.zones.values():
                d = z.decl
                who = "each player has" if d.per_player else "there is"
                vis = {"public": "face up, seen by all", "private": "seen by its owner only",
                       "hidden": "face down, seen by no one"}.get(d.visibility, d.visibility)
                cap = f", holding at most {A.text_of(d.capacity)}" if d.capacity is not None else ""
                self.add(f"- {who} **{self.w.zone_title(z.name)}** ({vis}{cap}).")
                self.add(*(f"  > {c}" for c in self.notes(d.span)))
            self.add("")
        if m.vars:
            self.add("What the rules keep in mind:", "")
            for v in m.vars.values():
                d = v.decl
                who = "for each player, " if d.per_player else ""
                start = f", at first {self.w.e(d.initial)}" if d.initial is not None else ""
                self.add(f"- {who}**{_human(v.name)}** ({d.type.name}{start}).")
                self.add(*(f"  > {c}" for c in self.notes(d.span)))
            self.add("")

    def setup(self) -> None:
        s = self.m.setup
        if s is None:
            return
        self.add("## Setup", "")
        self.quote(s.decl.span)
        with self.w.acting(_NOBODY):  # no one acts in setup
            self.add(*self.w.block(s.decl.body))
        self.add("")

    def rounds(self) -> None:
        r = self.m.rounds
        if r is None:
            return
        self.add("## A round", "")
        self.quote(r.span)
        if r.count is not None:
            self.para(f"The game lasts {self.w.e(r.count)} rounds. Each round has these phases, in order:")
        else:
            self.para("Rounds follow one another until the game ends. Each round has these phases, in order:")
        for i, p in enumerate(r.phases, 1):
            self.add(f"### {i}. {p.title or _human(p.name)}", "")
            self.quote(p.span)
            self.phase(p)
            if self.lines[-1] != "":
                self.add("")

    def phase(self, p: A.Phase) -> None:
        w = self.w
        if p.body is not None and not p.each_player:
            with w.acting(_CURRENT):  # a phase of steps: `me` is the current player, if anyone
                self.add(*w.block(p.body))
            return
        if p.each_player:
            start = f", starting with {w.e(p.each_from)}" if p.each_from is not None else ""
            self.para(f"Each player in turn{start}:")
            self.add(*w.block(p.body))
            return
        if p.simultaneous:
            self.simultaneous_phase(p)
            return
        self.turns_phase(p)

    def _action_list(self, p: A.Phase, once: str, required: str = "must be taken when allowed") -> str:
        """The phase's actions by their titles, each with its marks (`once`, `required` read as
        the phase makes them)."""
        acts = []
        for a in p.actions:
            must = "and must be taken when allowed" if a.once else required
            flags = [x for x, on in ((once, a.once), (must, a.required)) if on]
            acts.append(self.w.callable_title(a.name) + (f" ({', '.join(flags)})" if flags else ""))
        return "; ".join(acts)

    def turns_phase(self, p: A.Phase) -> None:
        """A phase of turns: who plays, how long a turn is (one action, or several when an
        action is marked `once` or the player may pass) and when it and the phase end."""
        w = self.w
        start = w.e(p.start)
        until = (f", until {w.e(p.until)}" + (" (checked after every action)" if p.until_at_once else "")
                 if p.until is not None else "")
        several = p.can_pass or any(a.once for a in p.actions)
        if p.once_each:
            self.para(f"Each player takes one turn, in seat order starting with {start}{until}.")
        else:
            self.para(f"Players take turns, starting with {start}{until}.")
        if not several:
            self.para("On a turn, a player does one of these actions: " + self._action_list(p, "once a turn") + ".")
        else:
            if p.once_each:
                self.para("A turn is several actions long: a player takes all their actions of this phase in their "
                          "one turn, one after another, and the next player's turn begins only when theirs is over.")
            else:
                self.para("A turn is several actions long: the player takes actions one after another until "
                          "their turn ends.")
            once = "at most once in this phase" if p.once_each else "at most once a turn"
            self.para("On a turn, a player takes any of these actions, one at a time, as often as they may: "
                      + self._action_list(p, once, "must be taken once a turn when allowed") + ".")
            if p.can_pass:
                cond = f" (they may pass only if {w.e(p.pass_cond)})" if p.pass_cond is not None else ""
                self.para(f"The turn ends when the player passes{cond} or can take no more actions.")
            else:
                self.para("The turn ends when the player can take no more actions: they may not pass while "
                          "they can take one.")
        if not p.once_each:
            also = " also" if p.until is not None else ""
            self.para(f"The phase{also} ends once every player in a row has had a turn without taking an action.")

    def simultaneous_phase(self, p: A.Phase) -> None:
        """A phase of turns played by everyone at once: steps of secret picks carried out in seat
        order, `once` meaning once in the phase; with `if C` false, one player after another."""
        w = self.w
        start = w.e(p.start)
        when = f", when {w.e(p.simul_cond)}" if p.simul_cond is not None else ""
        self.para(f"All players play this phase at the same time{when}. In each step, every player still in the "
                  "phase secretly picks one of these actions, or passes; then the picks are carried out in seat "
                  f"order, starting with {start}, each checked again (a pick that is no longer possible is "
                  "dropped, and that player picks again in the next step).")
        self.para("The actions: " + self._action_list(p, "at most once in this phase for each player") + ".")
        cond = f" (they may pass only if {w.e(p.pass_cond)})" if p.can_pass and p.pass_cond is not None else ""
        until = f", or when {w.e(p.until)} (checked before each step)" if p.until is not None else ""
        self.para(f"A player who passes{cond} or can take no more actions leaves the phase for good; the phase "
                  f"ends when every player has left{until}.")
        if p.simul_cond is not None:
            once = [w.callable_title(a.name) for a in p.actions if a.once]
            once_s = f" ({', '.join(once)} at most once)" if once else ""
            self.para(f"Otherwise the phase is played one player at a time: starting with {start}, each player in "
                      f"turn takes all their actions of the phase, one after another{once_s}, until they pass or "
                      "can take no more, and only then does the next player begin.")

    def _callable(self, c, what: str, same: set) -> None:
        w = self.w
        d = c.decl
        title = d.title or _human(d.name)
        if title in same:  # two of the same title: their names tell them apart
            title += f" (`{d.name}`)"
        params = getattr(d, "params", ())
        ps = f" ({', '.join(p.name for p in params)})" if params else ""
        self.add(f"### {title}{ps}", "")
        self.quote(d.span)
        stmts = list(d.body.stmts)
        reqs = []
        while stmts and isinstance(stmts[0], A.Require):
            reqs.append(stmts.pop(0))
        if reqs:
            self.add(f"To {'take' if what == 'action' else 'do'} it:", "")
            for r in reqs:
                msg = f" (“{r.message}”)" if r.message else ""
                self.add(f"- {w.e(r.cond)}{msg}")
            self.add("")
        body = w.block(A.Block(d.body.span, tuple(stmts)))
        if body:
            self.add("What it does:" if reqs else "It does this:", "")
            self.add(*body)
        else:
            self.add("It does nothing more.")
        self.add("")

    def actions(self) -> None:
        if not self.m.actions:
            return
        self.add("## Actions", "")
        self.para("What a player may do on a turn (each phase of turns says which actions it offers).")
        for a in self.m.actions.values():
            self._callable(a, "action", _twice(self.m.actions.values()))

    def effects(self) -> None:
        if not self.m.effects:
            return
        self.add("## Effects", "")
        self.para("Effects are done by the rules, the cards and the actions (“do …”).")
        for e in self.m.effects.values():
            self._callable(e, "effect", _twice(self.m.effects.values()))

    def definitions(self) -> None:
        m = self.m
        if not m.defs and not m.kind_defs:
            return
        self.add("## How things are worked out", "")
        for d in m.defs.values():
            dd = d.decl
            ps = f" of {', '.join(p.name for p in dd.params)}" if dd.params else ""
            self.quote(dd.span)
            self.add(f"- **{_human(d.name)}**{ps}: {self.w.e(dd.body)}.", "")
        for d in m.kind_defs.values():
            self.add(f"- a card's **{_human(d.name)}** ({', '.join(d.kinds)}): {self.w.e(d.decl.body)}.", "")

    def triggers(self) -> None:
        m = self.m
        reach = [d for d in m.decls if isinstance(d, A.ReachDecl)]
        ons = [d for d in m.decls if isinstance(d, A.OnDecl)]
        if not reach and not ons:
            return
        self.add("## Triggers", "")
        for d in reach:
            self.add(f"### When a player's {self.w.counter_title(d.counter)} reaches {self.w.e(d.value)}", "")
            self.quote(d.span)
            self.para(f"({d.pvar} is that player.)")
            self.add(*self.w.block(d.body))
            self.add("")
        for d in ons:
            ps = f" ({', '.join(p.name for p in d.params)})" if d.params else ""
            self.add(f"### At the moment “{_human(d.event)}”{ps}", "")
            self.quote(d.span)
            self.add(*self.w.block(d.body))
            self.add("")

    def end(self) -> None:
        m = self.m
        self.add("## End of the game and the winner", "")
        for d in m.end_conds:
            self.quote(d.span)
            self.para(f"At the end of a round, the game ends if {self.w.e(d.cond)}.")
        if m.rounds is not None and m.rounds.count is not None:
            self.para(f"The game ends after round {self.w.e(m.rounds.count)} at the latest.")
        self.ends()
        if m.game_end is not None:
            self.add("When the game ends, before the winner is known:", "")
            self.quote(m.game_end.decl.span)
            with self.w.acting(_NOBODY):  # no one acts at game end
                self.add(*self.w.block(m.game_end.decl.body))
            self.add("")
        for d in m.guarded_winners + ([m.winner] if m.winner is not None else []):
            self.quote(d.span)
            guard = f"If {self.w.e(d.guard)}: " if d.guard is not None else ("Otherwise: " if m.guarded_winners else "")
            if d.everyone_if is not None:
                self.para(f"{guard}everyone wins together if {self.w.e(d.everyone_if)}; otherwise no one wins.")
                continue
            keys = [self._key(k) for k in d.keys]
            text = f"the player with {keys[0]} wins"
            for k in keys[1:]:
                text += f"; if tied, the one with {k}"
            self.para(f"{guard}{text[:1].upper() + text[1:]}; players still tied share the victory.")
        if m.winner is None and not m.guarded_winners:
            self.para("The rules name no winner: every player wins.")

    def _key(self, k, most: str = "the most") -> str:
        """A winner's key as what a player has the most (or, negated, the fewest) of; `me` is
        each player in turn ("that player")."""
        if isinstance(k, A.Neg):
            return self._key(k.operand, "the fewest")
        if isinstance(k, A.Name) and k.name in self.m.counters:
            return f"{most} {self.w.counter_title(k.name)}"
        with self.w.acting(_EACH):
            text = self.w.e(k)
        for head in ("the number of ", ""):
            if text.startswith(head + _EACH + "'s "):
                return f"{most} {text[len(head + _EACH) + 3:]}"
        return f"{most} {text}"

    def ends(self) -> None:
        """Where the rules end the game at once (`end game`): in which action, effect, phase or
        trigger, and when, each with the quote above the statement it is in."""
        m, w = self.m, self.w
        places: list[tuple[str, A.Block]] = []
        if m.setup is not None:
            places.append(("setup", m.setup.decl.body))
        for p in (m.rounds.phases if m.rounds is not None else ()):
            if p.body is not None:
                places.append((f"the phase “{p.title or _human(p.name)}”", p.body))
        for c in list(m.actions.values()) + list(m.effects.values()):
            places.append((w.callable_title(c.decl.name), c.decl.body))
        for d in m.decls:
            if isinstance(d, A.ReachDecl):
                places.append((f"the trigger when a player's {w.counter_title(d.counter)} reaches {w.e(d.value)}",
                               d.body))
            elif isinstance(d, A.OnDecl):
                places.append((f"the moment “{_human(d.event)}”", d.body))
        for where, body in places:
            found = list(_end_games(body, ()))
            if not found:
                continue
            self.para(f"The game ends at once during {where}:")
            last = None
            for top, conds in found:
                if top is not last:
                    if last is not None:
                        self.add("")
                    last = top
                    qs = comments_above(m, top.span)  # quoted again here: the rule of the end
                    if qs:
                        self.add(*(f"> {q}" for q in qs), "")
                when = " and ".join(w.e(c) if not neg else w.negate(c) for c, neg in conds)
                self.add(f"- {'if ' + when if when else 'whenever it is done'}.")
            self.add("")


def _end_games(b: A.Block | None, conds: tuple, top=None):
    """The `end game` statements of a block: (the block's statement it is in, the conditions
    that lead to it, each (condition, negated))."""
    for st in (b.stmts if b is not None else ()):
        t = top if top is not None else st
        if isinstance(st, A.EndGame):
            yield t, conds
        elif isinstance(st, A.If):
            yield from _end_games(st.then, conds + ((st.test, False),), t)
            yield from _end_games(st.orelse, conds + ((st.test, True),), t)
        elif isinstance(st, A.ChooseOne):
            for o in st.options:
                yield from _end_games(o.body, conds, t)
        elif isinstance(getattr(st, "body", None), A.Block):
            yield from _end_games(st.body, conds, t)


def _twice(callables) -> set:
    seen, out = set(), set()
    for c in callables:
        t = c.decl.title or _human(c.decl.name)
        (out if t in seen else seen).add(t)
    return out


def _card_texts(m: GameModel) -> dict[str, str]:
    """Each card's text, as `tav play` shows it at the start of a game (the engine fills the
    template from the card's values)."""
    from .engine.compile import CompiledGame
    try:
        g = CompiledGame(m)
        st = g.new_state(max(m.min_players, 1), 1)
    except Exception:  # a game that cannot start still has a rulebook: its cards then read by their values
        return {}
    out: dict[str, str] = {}
    for c, name in enumerate(g.card_name):
        if name not in out:
            t = g.card_text(c, st, None)
            if t is not None:
                out[name] = t
    return out


def rulebook(model: GameModel, base: GameModel | None = None, source: str | None = None) -> str:
    """The rulebook of a checked game as Markdown; for a variant, `base` is its base game."""
    changes = None
    if base is not None:
        from .diff import diff_games
        changes = diff_games(base, model)
    return _Page(model, changes, model.base_path, source or model.path).render()
