"""Names -> definitions and slots, types, arities: the checker.

It reads every declaration first, then checks every body, collecting all the
errors it finds (each with a place and, for unknown names, a did-you-mean).
Its output is a :class:`GameModel` with side tables the engine compiles from.
"""
from __future__ import annotations

from ..errors import Diagnostic, Note, Span, did_you_mean
from ..syntax import ast as A
from .manifest import check_components
from .model import (ANY, BOOL, CARD, EFFECT, INT, JOIN, NONE, PLAYER, STR, ZONE, AttrInfo, BuiltinRef, Callable,
                    CardAttrRef, CardZoneInfo, ConstRef, CounterInfo, CounterRef, DefRef, EffectRef, GameModel,
                    JoinRef, KindDefRef, KindInfo, LocalRef, OptionInfo, OptionRef, PhaseInfo, PhaseRef, PropRef, Ref,
                    ScenarioInfo, SelfAttrRef, SelfDefRef, SelfZoneRef, Type, ValuesRef, VarInfo, VarRef,
                    ZoneFamilyRef, ZoneInfo, ZoneRef, as_type, elem, list_of, show)

MAX_COPIES = 10_000  # copies of one card: a box of a game holds far fewer
MAX_ROUNDS = 10_000  # rounds of a game: `rounds N` with more is an error, and so is a game not over after them
MAX_PLAYERS = 100  # a loop over the players is bounded by this (engine/budget.py)
MAX_CARDS = 100_000  # cards of one game: a loop over them is bounded by this (engine/budget.py)

# Names every game has, with their types.
BUILTIN_NAMES = {
    "me": PLAYER, "players": list_of(PLAYER), "others": list_of(PLAYER), "cards": list_of(CARD),
    "current": PLAYER, "next_player": PLAYER, "round": INT, "player_count": INT,
    "game_ends": BOOL,  # the `end when` conditions hold now
    "winners": list_of(PLAYER),  # who would win if the game ended now (by the `winner:` rule)
    "players_in": list_of(PLAYER),  # the players not eliminated, in seat order
}
# Builtin functions: name -> (parameter types, result type). "T" is generic.
BUILTIN_FUNCS = {
    "full": ((ZONE,), BOOL), "empty": (("coll",), BOOL), "free": ((ZONE,), INT),
    "size": (("coll",), INT), "player": ((INT,), PLAYER), "neighbour": ((PLAYER, INT), PLAYER),
    "lesser": ((INT, INT), INT), "greater": ((INT, INT), INT), "abs": ((INT,), INT),
    "random": ((INT, INT), INT), "named": ((STR,), list_of(CARD)), "first": ((INT, "coll"), "same"),
    "top": ((ZONE,), CARD), "order_from": ((PLAYER,), list_of(PLAYER)),
    "allowed": ((EFFECT,), BOOL), "taken": ((EFFECT,), BOOL), "offered": ((STR,), list_of(STR)),
    "saw": ((PLAYER, CARD, STR), BOOL),  # scenarios: could PLAYER see which card CARD is when PROMPT was asked?
    "asked": ((STR,), PLAYER),  # scenarios: the player asked PROMPT
    "range": ((INT, INT), list_of(INT)),
    "has_word": ((STR, STR), BOOL),  # WORD is a whole word (or words) of TEXT, in any case
    "text": ((ANY,), STR),  # a value as text: an enum value's name, a number, a card's name, "P2"
}
# Properties every object of a type has: (type, name) -> result type.
BUILTIN_PROPS = {
    (PLAYER, "left"): PLAYER, (PLAYER, "right"): PLAYER, (PLAYER, "seat"): INT, (PLAYER, "eliminated"): BOOL,
    (CARD, "name"): STR, (CARD, "kind"): STR, (CARD, "facedown"): BOOL, (CARD, "zone"): ZONE,
    (CARD, "owner"): PLAYER, (CARD, "holder"): CARD, (ZONE, "owner"): PLAYER, (ZONE, "size"): INT, (ZONE, "capacity"): INT,
}
TYPE_NAMES = {"int": INT, "bool": BOOL, "str": STR, "player": PLAYER, "card": CARD, "zone": ZONE,
              "effect": EFFECT}


class _Frame:
    def __init__(self):
        self.next = 1  # slot 0 is `me`


class _Scope:
    def __init__(self, frame: _Frame, parent: "_Scope | None" = None):
        self.frame, self.parent = frame, parent
        self.names: dict[str, tuple[int, Type]] = {}  # name -> (slot, type)
        self.kinds: dict[str, frozenset] = {}  # name -> the kinds its card (or its list's cards) may be, when known

    def child(self) -> "_Scope":
        return _Scope(self.frame, self)

    def bind(self, name: str, type_: str, kinds: frozenset | None = None) -> int:
        slot = self.frame.next
        self.frame.next += 1
        self.names[name] = (slot, as_type(type_))
        if kinds is not None:
            self.kinds[name] = kinds
        else:
            self.kinds.pop(name, None)
        return slot

    def lookup_kinds(self, name: str) -> frozenset | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.kinds.get(name)
            s = s.parent
        return None

    def lookup(self, name: str) -> tuple[int, Type] | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> set[str]:
        s: _Scope | None = self
        out: set[str] = set()
        while s is not None:
            out |= set(s.names)
            s = s.parent
        return out


def _settable(ref: Ref | None) -> bool:
    """Can `set` change what the name resolved to: a variable, a counter (not the implied
    `me`'s), a card's `var` attribute."""
    match ref:
        case VarRef() | CounterRef(whose="shared" | "player") | CardAttrRef(mutable=True):
            return True
    return False


def compatible(want: str, got: str) -> bool:
    want, got = as_type(want), as_type(got)
    if want == got or ANY in (want, got) or got == NONE:
        return True
    if want.is_list and got == ZONE:
        return want == list_of(CARD)
    w, g = want.list_elem, got.list_elem
    if w is not None and g is not None:
        return compatible(w, g)
    return False


class Checker:
    def __init__(self, decls: list[A.Decl], model: GameModel):
        self.decls = decls
        self.m = model
        self.errors: list[Diagnostic] = []
        self.implicit_me = False  # in `winner:` keys, `coins` means `me.coins`
        self.in_expect = False  # checking a scenario's `expect` lines
        self.in_do = False  # resolving the NAME of `do NAME`
        self.no_me: str | None = None  # where `me` is nobody (a winner rule's condition), for the error
        self.frames: list[_Frame] = []  # every frame made, for the largest one
        self.leading_requires: set = set()
        self.kind_self: tuple[KindInfo, int] | None = None  # in a kind's `def`: (the kind, the slot of `this`)
        self.def_state: dict[str, str] = {}  # def name -> "checking" / "done"
        # the kinds a card-typed expression (or a list of cards' items) may have, where the checker
        # can know them (a kind-typed parameter, `x is K` in a binder's condition, named("..."));
        # an expression missing here may be a card of any kind
        self.card_kinds: dict[A.Node, frozenset] = {}
        self.card_errors: set = set()  # (place, message) of each error found in a card, for `once_per_run`

    def _frame(self) -> _Frame:
        f = _Frame()
        self.frames.append(f)
        return f

    # ------------------------------------------------------------ reporting
    def err(self, span: Span, msg: str, notes=()) -> None:
        self.errors.append(Diagnostic(span, msg, notes=tuple(notes)))

    # ------------------------------------------------------------ pass 1
    def collect(self) -> None:
        m = self.m
        seen: dict[str, A.Node] = {}
        value_spans: dict[str, Span] = {}

        def define(name: str, node: A.Node, what: str) -> bool:
            if name in seen or name in BUILTIN_NAMES or name in BUILTIN_FUNCS:
                prev = seen.get(name)
                notes = [Note(prev.span, f"'{name}' is first defined here")] if prev else []
                self.err(node.span, f"{what} '{name}' is already defined" + ("" if prev else " (a builtin name)"), notes)
                return False
            seen[name] = node
            return True

        games = [d for d in self.decls if isinstance(d, A.GameDecl)]
        if games:
            m.title, m.title_span = games[0].title, games[0].span
        for g2 in games[1:]:
            self.err(g2.span, "a game has one 'game' declaration", [Note(games[0].span, "the first one is here")])
        first_players = None
        for d in self.decls:
            if isinstance(d, A.PlayersDecl):
                if first_players is not None:
                    self.err(d.span, "a game has one 'players' declaration", [Note(first_players.span, "the first one is here")])
                    continue
                first_players = d
                if d.low < 1 or d.high < d.low:
                    self.err(d.span, f"players {d.low}..{d.high} is not a range of player counts")
                elif d.high > MAX_PLAYERS:
                    self.err(d.span, f"players {d.low}..{d.high}: a game has at most {MAX_PLAYERS} players")
                m.min_players, m.max_players = d.low, d.high
            elif isinstance(d, A.OptionDecl):
                if define(d.name, d, "option"):
                    m.options[d.name] = OptionInfo(d.name, len(m.options), self.type_of(d.type), d)
            elif isinstance(d, A.EnumDecl):
                if define(d.name, d, "enum"):
                    m.enums[d.name] = d.values
                    for v, vs in zip(d.values, d.value_spans):
                        if v in value_spans:
                            self.err(vs, f"enum value '{v}' is already defined", [Note(value_spans[v], f"'{v}' is first defined here")])
                        elif v in seen:
                            self.err(vs, f"enum value '{v}' is already defined", [Note(seen[v].span, f"'{v}' is first defined here")])
                        else:
                            value_spans[v] = vs
                            m.enum_of[v] = d.name
            elif isinstance(d, A.KindDecl):
                if define(d.name, d, "kind"):
                    m.kinds[d.name] = KindInfo(d.name, d)
                self.check_unit(d, "a kind's", 'unit "die" "dice"')
            elif isinstance(d, A.CounterDecl):
                if define(d.name, d, "counter"):
                    m.counters[d.name] = CounterInfo(d.name, len(m.counters), d)
                self.check_unit(d, "a counter's", 'unit "coin" "coins"')
            elif isinstance(d, A.VarDecl):
                if define(d.name, d, "variable"):
                    m.vars[d.name] = VarInfo(d.name, len(m.vars), ANY, d)
            elif isinstance(d, A.ZoneDecl):
                if define(d.name, d, "zone"):
                    m.zones[d.name] = ZoneInfo(d.name, len(m.zones), d)
            elif isinstance(d, A.DefDecl):
                if define(d.name, d, "definition"):
                    m.defs[d.name] = Callable(d.name, d, [])
            elif isinstance(d, A.EffectDecl):
                if define(d.name, d, "effect"):
                    m.effects[d.name] = Callable(d.name, d, [])
            elif isinstance(d, A.ActionDecl):
                if define(d.name, d, "action"):
                    m.actions[d.name] = Callable(d.name, d, [])
            elif isinstance(d, A.GameEndDecl):
                if m.game_end is not None:
                    self.err(d.span, "a game has one 'at game end' block", [Note(m.game_end.decl.span, "the first one is here")])
                else:
                    m.game_end = Callable("game end", d, [])
            elif isinstance(d, A.SetupDecl):
                if m.setup is not None:
                    self.err(d.span, "a game has one setup block", [Note(m.setup.decl.span, "the first one is here")])
                else:
                    m.setup = Callable("setup", d, [])
            elif isinstance(d, A.RoundsDecl):
                if m.rounds is not None:
                    self.err(d.span, "a game has one rounds block", [Note(m.rounds.span, "the first one is here")])
                else:
                    m.rounds = d
            elif isinstance(d, A.EndDecl):
                m.end_conds.append(d)
            elif isinstance(d, A.ViewDecl):
                if m.view is not None:
                    self.err(d.span, "a game has one view", [Note(m.view.span, "the first one is here")])
                else:
                    m.view = d
            elif isinstance(d, A.WinnerDecl) and d.guard is not None:
                m.guarded_winners.append(d)
            elif isinstance(d, A.WinnerDecl):
                if m.winner is not None:
                    self.err(d.span, "a game has one winner rule without 'when'", [Note(m.winner.span, "the first one is here")])
                m.winner = d
        for v in m.enum_of:
            if v in seen and not isinstance(seen[v], A.EnumDecl):
                self.err(seen[v].span, f"'{v}' is already an enum value")
        # var types, kind attributes (after enums and kinds are known)
        for vi in m.vars.values():
            vi.type = self.type_of(vi.decl.type)
        card_props = {n for (t, n) in BUILTIN_PROPS if t == CARD}
        for k in m.kinds.values():
            for ad in k.decl.attrs:
                if ad.name in card_props:
                    self.err(ad.span, f"'{ad.name}' is a property every card has (c.{ad.name}): name the attribute otherwise")
                t = self.type_of(ad.type)
                if ad.name in k.attrs:
                    self.err(ad.span, f"kind '{k.name}' already has an attribute '{ad.name}'")
                    continue
                prev = m.attrs_by_name.get(ad.name)
                if prev is not None:
                    if prev.type != t or prev.mutable != ad.mutable:
                        self.err(ad.span, f"attribute '{ad.name}' is declared with another type or mutability in kind '{prev.kinds[0]}'",
                                 [Note(prev.decl.span, "declared here")])
                    info = prev
                else:
                    info = AttrInfo(ad.name, t, ad.mutable, len(m.attrs_by_name), ad)
                    m.attrs_by_name[ad.name] = info
                info.kinds.append(k.name)
                k.attrs[ad.name] = info
        for k in m.kinds.values():  # after every kind's attributes: zones and values on cards
            for kz in k.decl.zones:  # zones on each card of the kind
                if kz.name in m.attrs_by_name:
                    self.err(kz.span, f"'{kz.name}' is already an attribute of kind '{m.attrs_by_name[kz.name].kinds[0]}': "
                                      "a zone on a card needs a name of its own")
                    continue
                if kz.name in card_props:
                    self.err(kz.span, f"'{kz.name}' is a property every card has (c.{kz.name}): name the zone otherwise")
                    continue
                if kz.name in k.attrs or kz.name in [z.name for z in k.decl.zones[:k.decl.zones.index(kz)]]:
                    self.err(kz.span, f"kind '{k.name}' already has a '{kz.name}'")
                    continue
                if kz.name in m.zones:
                    self.err(kz.span, f"zone '{kz.name}' is already defined", [Note(m.zones[kz.name].decl.span, "first defined here")])
                    continue
                if kz.visibility == "private":
                    self.err(kz.span, "a zone on a card is public or hidden: it belongs to whoever holds the card")
                cz = m.card_zones.get(kz.name)
                if cz is None:
                    cz = m.card_zones[kz.name] = CardZoneInfo(kz.name, len(m.zones) + len(m.card_zones), kz)
                elif cz.decl.visibility != kz.visibility:
                    self.err(kz.span, f"zone '{kz.name}' is declared with another visibility in kind '{cz.kinds[0]}'",
                             [Note(cz.decl.span, "declared here")])
                cz.kinds.append(k.name)
                cz.decls[k.name] = kz
            for kd in k.decl.defs:  # derived values of each card of the kind
                if kd.name in m.attrs_by_name and kd.name not in k.attrs:
                    self.err(kd.span, f"'{kd.name}' is already an attribute of kind '{m.attrs_by_name[kd.name].kinds[0]}': "
                                      "a kind's value needs a name of its own")
                    continue
                if kd.name in card_props:
                    self.err(kd.span, f"'{kd.name}' is a property every card has (c.{kd.name}): name the value otherwise")
                    continue
                if kd.name in k.attrs or kd.name in m.card_zones:
                    self.err(kd.span, f"kind '{k.name}' already has a '{kd.name}'")
                    continue
                prev_def = m.kind_defs.get(kd.name)
                if prev_def is not None:
                    self.err(kd.span, f"'{kd.name}' is already a value of kind '{prev_def.kinds[0]}': a kind's value has a name of its own",
                             [Note(prev_def.decl.span, "declared here")])
                    continue
                kdi = Callable(kd.name, kd, [("this", CARD)], self.type_of(kd.type))
                kdi.kinds.append(k.name)
                m.kind_defs[kd.name] = kdi
        for k in m.kinds.values():
            if k.decl.text is not None:
                self.check_card_text(k.decl.text, k)
        card_names: dict = {}
        for d in self.decls:
            if isinstance(d, A.CardDecl):
                before = len(self.errors)
                if d.name in card_names:
                    self.err(d.span, f'card "{d.name}" is already defined; give its copies as x{card_names[d.name].copies + d.copies}',
                             [Note(card_names[d.name].span, "first defined here")])
                card_names.setdefault(d.name, d)
                if d.kind not in m.kinds:
                    self.err(d.kind_span, f"unknown kind '{d.kind}'" + did_you_mean(d.kind, m.kinds))
                elif d.text is not None:
                    self.check_card_text(d.text, m.kinds[d.kind])
                self.once_per_run(before)
                m.cards.append(d)
            elif isinstance(d, A.CardRunError):
                self.err(d.span, d.message)
            elif isinstance(d, A.ReachDecl):
                c = m.counters.get(d.counter)
                if c is None:
                    self.err(d.counter_span, f"unknown counter '{d.counter}'" + did_you_mean(d.counter, m.counters))
                elif not c.decl.per_player:
                    self.err(d.counter_span, f"counter '{d.counter}' is not per player; 'when ... of P reaches' needs a per-player counter")
                else:
                    c.triggers.append(d)
            elif isinstance(d, A.OnDecl):
                m.handlers.setdefault(d.event, [])
            elif isinstance(d, A.ScenarioDecl):
                m.scenarios.append(ScenarioInfo(d))
        # signatures
        for cb in list(m.defs.values()) + list(m.effects.values()):
            cb.params = [(p.name, self.type_of(p.type)) for p in cb.decl.params]
            for i, (pn, _) in enumerate(cb.params):
                if pn in [q for q, _ in cb.params[:i]]:
                    self.err(cb.decl.params[i].span, f"parameter '{pn}' appears twice")
        for cb in m.defs.values():
            cb.type = self.type_of(cb.decl.type) if cb.decl.type else ANY

    def once_per_run(self, before: int) -> None:
        """The cards of a run (`card "Bid {n}" for n in 1..13`) share their declaration's place:
        an error found in several of them (the errors since `before`) is reported once."""
        fresh = []
        for d in self.errors[before:]:
            key = (d.span, d.message)
            if key not in self.card_errors:
                fresh.append(d)
            self.card_errors.add(key)
        self.errors[before:] = fresh

    def check_unit(self, d, whose: str, example: str) -> None:
        """A counter's or a kind's unit, what the log calls one of it and several: words, one line."""
        for w in d.unit or ():
            if w is not None and (not w.strip() or w != w.strip() or any(ch in w for ch in "\n\t{}")):
                self.err(d.unit_span or d.span, f"{whose} unit is a word or a few on one line, without spaces around "
                         f"or braces, not {w!r:.40} (for instance: {example})")

    def check_card_text(self, text: A.CardText, k: KindInfo) -> None:
        """A card text's holes name the card's `name` or `kind`, or an attribute or value of its kind."""
        known = ["name", "kind"] + list(k.attrs) + [kd.name for kd in k.decl.defs]
        for part in text.parts:
            if isinstance(part, tuple) and part[0] not in known:
                self.err(part[1], f"kind '{k.name}' has no attribute '{part[0]}' for its card text"
                         + did_you_mean(part[0], known))

    def prompt_holes(self, s: A.Node, prompt: str, sc: _Scope) -> None:
        """A choice's prompt's holes, as in card text: `{NAME}` or `{NAME.ATTR}` names a value
        where the choice is (a local, a definition, an option, a var; `me.coins`); `{{` and
        `}}` are braces. Recorded in the model's prompt_holes, by the choice."""
        span = s.span
        parts: list = []
        lit: list[str] = []
        i = 0
        while i < len(prompt):
            ch = prompt[i]
            if ch in "{}" and prompt[i + 1:i + 2] == ch:
                lit.append(ch)
                i += 2
                continue
            if ch == "}":
                self.err(span, f"a '}}' in the prompt '{prompt}' closes no '{{' (write '}}}}' for a brace)")
                return
            if ch == "{":
                j = prompt.find("}", i)
                path = prompt[i + 1:j].strip().split(".") if j >= 0 else [""]
                if not all(x.isidentifier() for x in path):
                    self.err(span, f"a '{{' in the prompt '{prompt}' opens a hole that names a value, like "
                             "'{hand_size}' or '{me.coins}' (write '{{' for a brace)")
                    return
                e: A.Expr = A.Name(span, path[0])
                for x in path[1:]:
                    e = A.Attr(span, e, x)
                before = len(self.errors)
                t = self.expr(e, sc)
                if len(self.errors) > before:
                    return
                parts += ["".join(lit), (e, t)]
                lit = []
                i = j + 1
                continue
            lit.append(ch)
            i += 1
        parts.append("".join(lit))
        self.m.prompt_holes[s] = tuple(parts)

    def int_value(self, e: A.Expr | None) -> int | None:
        """The value of a literal integer expression (None if it is not one)."""
        if isinstance(e, A.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
            return e.value
        if isinstance(e, A.Neg):
            v = self.int_value(e.operand)
            return -v if v is not None else None
        return None

    def is_constant(self, e) -> bool:
        if isinstance(e, A.Lit):
            return True
        if isinstance(e, A.Name):
            m = self.m
            known = (e.name in BUILTIN_NAMES or e.name in m.options or e.name in m.counters or e.name in m.vars
                     or e.name in m.zones or e.name in m.defs or e.name in m.effects or e.name in m.actions)
            return e.name in m.enum_of or not known  # an unknown name gets its own error
        if isinstance(e, A.Neg):
            return self.is_constant(e.operand)
        if isinstance(e, A.BinOp) and e.op in ("+", "-", "*", "/", "%"):
            return self.is_constant(e.left) and self.is_constant(e.right)
        return False

    def type_of(self, t: A.TypeRef) -> Type:
        if t.list:
            return list_of(self.type_of(A.TypeRef(t.span, t.name)))
        n = t.name
        if n in TYPE_NAMES:
            return TYPE_NAMES[n]
        if n in self.m.enums:
            return Type.enum_named(n)
        if n in self.m.kinds:
            return CARD
        self.err(t.span, f"unknown type '{n}'" + did_you_mean(n, list(TYPE_NAMES) + list(self.m.enums) + list(self.m.kinds)))
        return ANY

    # ------------------------------------------------------------ pass 2
    def check_all(self) -> None:
        m = self.m
        for o in m.options.values():
            od = o.decl
            if o.type.is_list:
                self.err(od.type.span, f"an option cannot be a list (option '{o.name}'): make it a number, "
                                      "yes/no, a string or an enum")
                continue
            for e in (od.default, od.low, od.high):
                if e is not None and not self.is_constant(e):
                    self.err(e.span, f"option '{o.name}' needs a constant here: a number, a string, true/false or an enum value")
            t = self.expr(od.default, None)
            self.expect(od.default, o.type, t, "option default")
            for b in (od.low, od.high):
                if b is not None:
                    self.expect(b, INT, self.expr(b, None), "option bound")
            lits = [x.value for x in (od.default, od.low, od.high) if isinstance(x, A.Lit)]
            ints = [v for v in lits if isinstance(v, int) and not isinstance(v, bool)]
            if od.low is not None and len(ints) == 3:
                dv, low, high = ints
                if not low <= dv <= high:
                    self.err(od.default.span, f"the default {dv} is outside the option's range {low}..{high}")
        for k in m.kinds.values():
            for kz in k.decl.zones:
                if kz.capacity is not None:  # it may read the card's own attributes, as a kind's def does
                    self.no_me = "the capacity of a zone on a card"
                    fr = self._frame()
                    sc = _Scope(fr)
                    this = sc.bind("this", CARD, frozenset((k.name,)))
                    assert this == 1  # the engine gives the card in slot 1 (compile.new_state)
                    self.kind_self = (k, this)
                    self.expect(kz.capacity, INT, self.expr(kz.capacity, sc), "capacity")
                    self.kind_self = None
                    self.no_me = None
                if kz.drop is not None:  # worked out with `me` = the owner of the zone the card leaves
                    self.expect(kz.drop, ZONE, self.expr(kz.drop, _Scope(self._frame())), "where the cards drop")
            for kd in k.decl.defs:
                info = m.kind_defs.get(kd.name)
                if info is None or info.decl is not kd:
                    continue
                fr = self._frame()
                sc = _Scope(fr)
                this = sc.bind("this", CARD, frozenset((k.name,)))
                self.kind_self = (k, this)
                t = self.expr(kd.body, sc)
                self.kind_self = None
                self.expect(kd.body, info.type, t, f"value of '{kd.name}'")
                info.frame = fr.next
            for ad in k.decl.attrs:
                if ad.unlabelled and not ad.mutable:
                    self.err(ad.span, f"only a 'var' attribute can be unlabelled: labels show a card's name "
                                      f"and its var attributes, never '{ad.name}'")
                if ad.default is not None:
                    self.expect(ad.default, k.attrs[ad.name].type, self.expr(ad.default, None), f"default of '{ad.name}'")
        total = 0  # cards of the game, against MAX_CARDS
        for cd in m.cards:
            before = len(self.errors)
            ck = m.kinds.get(cd.kind)
            if cd.copies < 1:
                self.err(cd.span, "a card needs at least one copy")
            elif cd.copies > MAX_COPIES:
                self.err(cd.span, f"x{cd.copies} is too many copies of one card (at most {MAX_COPIES})")
            elif 0 < cd.copies <= MAX_COPIES:
                total += cd.copies
                if total > MAX_CARDS >= total - cd.copies:
                    self.err(cd.span, f"with this card the game has more than {MAX_CARDS} cards (the most a game may have)")
            if ck is not None:
                given = {f.name for f in cd.fields}
                missing = [a.name for a in ck.decl.attrs if a.default is None and not a.mutable and a.name not in given]
                if missing:
                    self.err(cd.span, f"card '{cd.name}' gives no value for " + ", ".join(f"'{x}'" for x in missing)
                             + f" (kind {ck.name} has no default)", [Note(ck.decl.span, f"kind {ck.name} is declared here")])
            for f in cd.fields:
                if ck is None:
                    continue
                ai = ck.attrs.get(f.name)
                if ai is None:
                    self.err(f.span, f"kind '{ck.name}' has no attribute '{f.name}'" + did_you_mean(f.name, ck.attrs))
                    self.expr(f.value, None)
                    continue
                self.expect(f.value, ai.type, self.expr(f.value, None), f"attribute '{f.name}'")
            self.once_per_run(before)
        for c in m.counters.values():
            for e in (c.decl.initial, c.decl.low, c.decl.high):
                if e is not None:
                    self.expect(e, INT, self.expr(e, None), "counter value")
            lo, hi, init = (self.int_value(x) for x in (c.decl.low, c.decl.high, c.decl.initial))
            if lo is not None and hi is not None and lo > hi:
                self.err((c.decl.low or c.decl).span, f"the range {lo}..{hi} of '{c.name}' is empty")
            elif init is not None and ((lo is not None and init < lo) or (hi is not None and init > hi)):
                self.err((c.decl.initial or c.decl).span, f"'{c.name}' starts at {init}, outside its range {lo}..{hi}")
        for v in m.vars.values():
            if v.decl.initial is not None:
                self.expect(v.decl.initial, v.type, self.expr(v.decl.initial, None), "initial value")
        for z in m.zones.values():
            if z.decl.capacity is not None:
                if not z.decl.per_player:  # a per-player zone's capacity is worked out for its owner
                    self.no_me = "the capacity of a shared zone"
                self.expect(z.decl.capacity, INT, self.expr(z.decl.capacity, None), "capacity")
                self.no_me = None
                cap = self.int_value(z.decl.capacity)
                if cap is not None and cap < 0:
                    self.err(z.decl.capacity.span, f"a zone cannot hold {cap} cards")
        for df in m.defs.values():
            self.check_def(df)
        for ef in m.effects.values():
            self.callable_body(ef, ef.decl.body, allow_requires=True)
        for ac in m.actions.values():
            self.callable_body(ac, ac.decl.body, allow_requires=True)
        if m.setup is not None:
            self.callable_body(m.setup, m.setup.decl.body)
        if m.game_end is not None:
            self.callable_body(m.game_end, m.game_end.decl.body)
        if m.rounds is not None:
            if not m.rounds.phases:
                self.err(m.rounds.span, "rounds need at least one phase: rounds [N] { phase ... }")
            if m.rounds.count is not None:
                self.expect(m.rounds.count, INT, self.expr(m.rounds.count, None), "number of rounds")
                rc = m.rounds.count
                rv = -rc.operand.value if isinstance(rc, A.Neg) and isinstance(rc.operand, A.Lit) else \
                    rc.value if isinstance(rc, A.Lit) else None
                if isinstance(rv, int) and not isinstance(rv, bool) and rv < 1:
                    self.err(rc.span, f"a game needs at least 1 round, not {rv}")
                elif isinstance(rv, int) and not isinstance(rv, bool) and rv > MAX_ROUNDS:
                    self.err(rc.span, f"a game has at most {MAX_ROUNDS} rounds, not {rv}")
            names: dict[str, A.Phase] = {}
            for ph in m.rounds.phases:
                if ph.name in names:
                    self.err(ph.span, f"phase '{ph.name}' is already defined", [Note(names[ph.name].span, "first defined here")])
                names[ph.name] = ph
                pinfo = PhaseInfo(ph.name, ph)
                fr = self._frame()
                sc = _Scope(fr)
                if ph.body is not None:
                    if ph.each_from is not None:
                        self.expect(ph.each_from, PLAYER, self.expr(ph.each_from, sc), "first player of the phase")
                    self.block(ph.body, sc)
                else:
                    assert ph.start is not None  # (the grammar's `turns from EXPR`)
                    self.expect(ph.start, PLAYER, self.expr(ph.start, sc), "first player of the turns")
                    if ph.until is not None:
                        self.expect(ph.until, BOOL, self.expr(ph.until, sc), "'until' condition")
                    if ph.pass_cond is not None:
                        self.expect(ph.pass_cond, BOOL, self.expr(ph.pass_cond, sc), "'pass' condition")
                    if ph.simul_cond is not None:
                        self.expect(ph.simul_cond, BOOL, self.expr(ph.simul_cond, sc), "'simultaneous' condition")
                    if ph.simultaneous and ph.until_at_once:
                        self.err(ph.span, "a simultaneous phase has no 'until ... at once': its 'until' is checked before "
                                          "each step, so no pick made is lost")
                    if ph.simultaneous and ph.once_each:
                        self.err(ph.span, "a simultaneous phase has no 'once_each': everyone plays until they pass "
                                          "(played one player at a time, each player has one turn for the whole phase)")
                    seen = set()
                    for ref in ph.actions:
                        if ref.name not in m.actions:
                            self.err(ref.span, f"unknown action '{ref.name}'" + did_you_mean(ref.name, m.actions))
                        if ref.name in seen:
                            self.err(ref.span, f"action '{ref.name}' is listed twice")
                        seen.add(ref.name)
                pinfo.frame = fr.next
                m.phases.append(pinfo)
        for ec in m.end_conds:
            self.expect(ec.cond, BOOL, self.expr(ec.cond, _Scope(self._frame())), "end condition")
        if m.view is not None:
            self.view(m.view)
        for w in m.guarded_winners + ([m.winner] if m.winner is not None else []):
            fr = self._frame()
            sc = _Scope(fr)
            if w.guard is not None:
                self.no_me = "the condition of a 'winner when' rule"
                self.expect(w.guard, BOOL, self.expr(w.guard, sc), "condition of the winner rule")
                self.no_me = None
            self.implicit_me = True  # `me` is the player being ranked
            for key in w.keys:
                self.expect(key, INT, self.expr(key, sc), "winner key")
            self.implicit_me = False
            if w.everyone_if is not None:
                self.no_me = "'everyone if'"
                self.expect(w.everyone_if, BOOL, self.expr(w.everyone_if, sc), "winning condition")
                self.no_me = None
        if m.guarded_winners and m.winner is None:
            self.err(m.guarded_winners[0].span, "a game with 'winner when' rules needs one winner rule without 'when' too (the rule for every other game)")
        for d in self.decls:
            if isinstance(d, A.ReachDecl):
                fr = self._frame()
                sc = _Scope(fr)
                slot = sc.bind(d.pvar, PLAYER)
                self.m.slots[d] = slot
                self.expect(d.value, INT, self.expr(d.value, sc), "track space")
                self.block(d.body, sc)
                m.reach.append((d, fr.next))
            elif isinstance(d, A.OnDecl):
                fr = self._frame()
                sc = _Scope(fr)
                for p in d.params:
                    sc.bind(p.name, self.type_of(p.type), self.kinds_of_type(p.type))
                self.block(d.body, sc)
                m.handlers[d.event].append((d, fr.next))
        for s in m.scenarios:
            self.scenario(s)

    def check_def(self, d: Callable) -> None:
        """Check a def's body once; a def used before its line is checked first, so that its
        worked-out type is known where it is used (a def that uses itself keeps 'any')."""
        state = self.def_state.get(d.name)
        if state is not None:
            return
        self.def_state[d.name] = "checking"
        saved = (self.implicit_me, self.in_expect, self.in_do, self.no_me, self.kind_self)
        self.implicit_me = self.in_expect = self.in_do = False
        self.no_me = self.kind_self = None
        fr = self._frame()
        sc = _Scope(fr)
        for p, (pn, pt) in zip(d.decl.params, d.params):
            sc.bind(pn, pt, self.kinds_of_type(p.type))
        t = self.expr(d.decl.body, sc)
        if d.decl.type is not None:
            self.expect(d.decl.body, d.type, t, f"result of '{d.name}'")
        else:
            d.type = t
        d.frame = fr.next
        self.implicit_me, self.in_expect, self.in_do, self.no_me, self.kind_self = saved
        self.def_state[d.name] = "done"

    def scenario(self, s: ScenarioInfo) -> None:
        d = s.decl
        m = self.m
        if not (m.min_players <= d.players <= m.max_players):
            self.err(d.span, f"this game is for {m.min_players} to {m.max_players} players, not {d.players}")
        for name, e, sp in d.options:
            o = m.options.get(name)
            if o is None:
                self.err(sp, f"unknown option '{name}'" + did_you_mean(name, m.options))
                continue
            self.expect(e, o.type, self.expr(e, None), f"option '{name}'")
        for word, where, first in d.repeated:
            self.err(where, f"a scenario has one '{word}' block", [Note(first, "the first one is here")])
        fr = self._frame()
        sc = _Scope(fr)
        if d.given is not None:
            self.block(d.given, sc)
        if d.run is not None:
            self.block(d.run, sc)
        self.in_expect = True  # offered(...) reads the decisions the scenario answered
        for e, _ in d.expects:
            self.expect(e, BOOL, self.expr(e, sc), "expectation")
        self.in_expect = False
        s.frame = fr.next

    def callable_body(self, c: Callable, body: A.Block, allow_requires=False) -> None:
        fr = self._frame()
        sc = _Scope(fr)
        decl_params = getattr(c.decl, "params", None) or ()
        for i, (pn, pt) in enumerate(c.params):
            sc.bind(pn, pt, self.kinds_of_type(decl_params[i].type) if i < len(decl_params) else None)
        leading = True
        for st in body.stmts:
            if isinstance(st, A.Require):
                if not (allow_requires and leading):
                    self.err(st.span, "'require' must come first in an action or effect")
                c.requires.append(st)
                self.leading_requires.add(st)
            else:
                leading = False
        self.block(body, sc)
        c.frame = fr.next

    # ------------------------------------------------------------ statements
    def block(self, b: A.Block, sc: _Scope) -> None:
        sc = sc.child()
        for st in b.stmts:
            self.stmt(st, sc)

    def expect(self, node: A.Node, want: str, got: str, what: str) -> None:
        if not compatible(want, got):
            self.err(node.span, f"{what} should be {show(want)}, not {show(got)}")

    def coll(self, e: A.Expr, sc: _Scope | None, what: str) -> str:
        t = self.expr(e, sc)
        el = elem(t)
        if el is None:
            self.err(e.span, f"{what} should be a list or a zone, not {show(t)}")
            return ANY
        return el

    def chooser(self, ch: A.Chooser | None, sc: _Scope) -> None:
        if ch is not None and ch.player is not None:
            self.expect(ch.player, PLAYER, self.expr(ch.player, sc), "the chooser")

    def _bind_picks(self, s, el: str, sc: _Scope) -> _Scope:
        """`choose subset` and `choose N`: in the `where` condition NAME is one item, in the rest
        the list picked. Gives the scope of the rest."""
        inner = sc.child()
        ks = self.bound_kinds(s.var, s.coll, s.cond)
        if s.cond is not None:
            c2 = inner.child()
            self.m.slots[s.cond] = c2.bind(s.var, el, ks)
            self.expect(s.cond, BOOL, self.expr(s.cond, c2), "condition")
        self.m.slots[s] = inner.bind(s.var, list_of(el), ks)
        return inner

    def stmt(self, s: A.Stmt, sc: _Scope) -> None:
        m = self.m
        prompt = getattr(s, "prompt", None)
        if isinstance(prompt, str) and ("{" in prompt or "}" in prompt):
            self.prompt_holes(s, prompt, sc)
        if isinstance(s, A.Move):
            t = self.expr(s.what, sc)
            if t == NONE:
                self.err(s.what.span, "move of nothing: this is always none, never a card")
            elif not (compatible(CARD, t) or compatible(list_of(CARD), t)):
                self.err(s.what.span, f"can only move cards, a list of cards or a zone's cards, not {show(t)}")
            self.expect(s.dest, ZONE, self.expr(s.dest, sc), "destination")
        elif isinstance(s, A.Shuffle):
            self.expect(s.zone, ZONE, self.expr(s.zone, sc), "shuffled thing")
        elif isinstance(s, (A.Reveal, A.Look)):
            t = self.expr(s.what, sc)
            if not (compatible(CARD, t) or compatible(list_of(CARD), t)):
                self.err(s.what.span, f"can only reveal or look at cards, not {show(t)}")
        elif isinstance(s, A.Gain):
            self.expect(s.amount, INT, self.expr(s.amount, sc), "amount")
            c = m.counters.get(s.counter)
            if c is None:
                self.err(s.counter_span, f"unknown counter '{s.counter}'" + did_you_mean(s.counter, m.counters))
            elif not c.decl.per_player and s.op in ("give", "take"):
                self.err(s.counter_span, f"counter '{s.counter}' is shared; only per-player counters can be given or taken")
            elif not c.decl.per_player and s.other is not None:
                self.err(s.other.span, f"counter '{s.counter}' is shared; it has no owner to name")
            if s.other is not None:
                word = "from" if s.op in ("lose", "take") else "to"
                self.expect(s.other, PLAYER, self.expr(s.other, sc), f"the player after '{word}'")
        elif isinstance(s, A.Set):
            vt = self.expr(s.value, sc)
            before = len(self.errors)
            tt = self.expr(s.target, sc)
            ref = m.refs.get(s.target)
            if len(self.errors) > before:
                pass  # the target is wrong already; one error is enough
            elif not _settable(ref):
                self.err(s.target.span, "only a variable, a counter or a 'var' attribute can be set")
            self.expect(s.value, tt, vt, "new value")
        elif isinstance(s, A.Swap):
            self.expect(s.a, CARD, self.expr(s.a, sc), "swapped thing")
            self.expect(s.b, CARD, self.expr(s.b, sc), "swapped thing")
        elif isinstance(s, A.NextTurn):
            self.expect(s.player, PLAYER, self.expr(s.player, sc), "next player")
        elif isinstance(s, A.Eliminate):
            self.expect(s.player, PLAYER, self.expr(s.player, sc), "eliminated player")
            m.eliminates = True
        elif isinstance(s, A.Choose):
            el = self.coll(s.coll, sc, "the options")
            inner = sc.child()
            m.slots[s] = inner.bind(s.var, el, self.bound_kinds(s.var, s.coll, s.cond))
            if s.cond is not None:
                self.expect(s.cond, BOOL, self.expr(s.cond, inner), "condition")
            self.chooser(s.chooser, sc)
            self.block(s.body, inner)
        elif isinstance(s, A.ChooseOne):
            self.chooser(s.chooser, sc)
            labels = set()
            for o in s.options:
                if o.label in labels:
                    self.err(o.span, f"two options are labelled '{o.label}'")
                labels.add(o.label)
                if o.cond is not None:
                    self.expect(o.cond, BOOL, self.expr(o.cond, sc), "condition")
                self.block(o.body, sc)
        elif isinstance(s, A.ChooseNumber):
            self.expect(s.low, INT, self.expr(s.low, sc), "lowest number")
            self.expect(s.high, INT, self.expr(s.high, sc), "highest number")
            self.chooser(s.chooser, sc)
            inner = sc.child()
            m.slots[s] = inner.bind(s.var, INT)
            self.block(s.body, inner)
        elif isinstance(s, A.ChooseSubset):
            el = self.coll(s.coll, sc, "the options")
            for b in (s.low, s.high):
                if b is not None:
                    self.expect(b, INT, self.expr(b, sc), "subset size")
            self.chooser(s.chooser, sc)
            inner = self._bind_picks(s, el, sc)
            if s.test is not None:
                self.expect(s.test, BOOL, self.expr(s.test, inner), "subset condition")
            self.block(s.body, inner)
        elif isinstance(s, A.For):
            el = self.coll(s.coll, sc, "the loop")
            inner = sc.child()
            m.slots[s] = inner.bind(s.var, el, self.bound_kinds(s.var, s.coll, s.cond))
            if s.cond is not None:
                self.expect(s.cond, BOOL, self.expr(s.cond, inner), "condition")
            self.block(s.body, inner)
        elif isinstance(s, A.ChooseN):
            self.expect(s.count, INT, self.expr(s.count, sc), "how many to choose")
            el = self.coll(s.coll, sc, "the options")
            self.chooser(s.chooser, sc)
            self.block(s.body, self._bind_picks(s, el, sc))
        elif isinstance(s, A.Show):
            t = self.expr(s.what, sc)
            if not (compatible(CARD, t) or compatible(list_of(CARD), t)):
                self.err(s.what.span, f"can only show cards, not {show(t)}")
            tt = self.expr(s.to, sc)
            if tt == NONE:
                self.err(s.to.span, "show to nobody: this is always none, never a player")
            self.expect(s.to, PLAYER, tt, "the player shown to")
        elif isinstance(s, A.Simultaneous):
            pel = self.coll(s.players, sc, "the players")
            self.expect(s.players, list_of(PLAYER), list_of(pel), "the players")
            inner = sc.child()
            ps = inner.bind(s.pvar, PLAYER)
            el = self.coll(s.coll, inner, "the options")
            cs = inner.bind(s.var, el, self.bound_kinds(s.var, s.coll, s.cond))
            m.slots[s] = (ps, cs)
            if s.cond is not None:
                self.expect(s.cond, BOOL, self.expr(s.cond, inner), "condition")
            names = {s.pvar: "the player", s.var: "the first choice"}
            for more in s.more:  # each player's next choices, sealed with the first (in their scope)
                if more.var in names:
                    self.err(more.span, f"'{more.var}' is already {names[more.var]} of this 'simultaneously': "
                                        "give each choice its own name")
                names[more.var] = "a choice"
                if more.prompt is not None and ("{" in more.prompt or "}" in more.prompt):
                    self.prompt_holes(more, more.prompt, inner)
                el = self.coll(more.coll, inner, "the options")
                m.slots[more] = inner.bind(more.var, el, self.bound_kinds(more.var, more.coll, more.cond))
                if more.cond is not None:
                    self.expect(more.cond, BOOL, self.expr(more.cond, inner), "condition")
            self.block(s.body, inner)
        elif isinstance(s, A.Repeat):
            self.expect(s.cond, BOOL, self.expr(s.cond, sc), "'repeat while' condition")
            self.block(s.body, sc)
        elif isinstance(s, A.If):
            self.expect(s.test, BOOL, self.expr(s.test, sc), "condition")
            self.block(s.then, sc)
            if s.orelse is not None:
                self.block(s.orelse, sc)
        elif isinstance(s, A.Do):
            self.in_do = isinstance(s.effect, A.Name)
            t = self.expr(s.effect, sc, effect_call=True)
            self.in_do = False
            ref = m.refs.get(s.effect)
            if s.as_player is not None and isinstance(ref, PhaseRef) and m.rounds is not None:
                ph = next((x for x in m.rounds.phases if x.name == ref.name), None)
                if ph is not None and not ph.each_player:
                    self.err(s.as_player.span, f"'do {ph.name} as P' runs a phase for one player: phase '{ph.name}' is not "
                                               "played 'for each player'")
            self.expect(s.effect, EFFECT, t, "what 'do' runs")
            if s.as_player is not None:
                self.expect(s.as_player, PLAYER, self.expr(s.as_player, sc), "the player after 'as'")
        elif isinstance(s, A.Let):
            t = self.expr(s.value, sc)
            m.slots[s] = sc.bind(s.var, t, self.card_kinds.get(s.value))
        elif isinstance(s, A.Emit):
            if s.event not in m.handlers:
                self.err(s.span, f"no 'on {s.event}' handles this event" + did_you_mean(s.event, m.handlers))
            ts = [self.expr(a, sc) for a in s.args]
            for d in self.decls:
                if isinstance(d, A.OnDecl) and d.event == s.event:
                    if len(d.params) != len(s.args):
                        self.err(s.span, f"'on {s.event}' takes {len(d.params)} argument(s), not {len(s.args)}",
                                 [Note(d.span, "the handler is here")])
                        continue
                    for a, t, p in zip(s.args, ts, d.params):
                        self.expect(a, self.type_of(p.type), t, f"argument '{p.name}' of '{s.event}'")
        elif isinstance(s, A.Require):
            if s not in self.leading_requires:
                self.err(s.span, "'require' must come first in an action or effect")
            self.expect(s.cond, BOOL, self.expr(s.cond, sc), "requirement")
        elif isinstance(s, (A.EndGame, A.Log)):
            pass
        else:  # pragma: no cover - the grammar has no other statements
            self.err(s.span, "unknown statement")

    # ------------------------------------------------------------ expressions
    def view(self, v: A.ViewDecl) -> None:
        """`view { ... }`: each name a zone or counter, shared in a titled group, a player's in a
        `per player` group (a zone on cards in either), each once; a group's `if` a condition
        of the game (no `me`)."""
        m = self.m
        seen: dict = {}
        for grp in v.groups:
            if grp.cond is not None:
                self.no_me = "a view group's 'if'"
                self.expect(grp.cond, BOOL, self.expr(grp.cond, _Scope(self._frame())), "condition of the view group")
                self.no_me = None
            for name, sp in grp.names:
                if name in seen:
                    self.err(sp, f"'{name}' is in the view twice", [Note(seen[name], "first here")])
                    continue
                seen[name] = sp
                if name in m.card_zones:
                    continue
                decl = m.zones[name].decl if name in m.zones else m.counters[name].decl if name in m.counters \
                    else m.vars[name].decl if name in m.vars else None
                if decl is None:
                    self.err(sp, f"the view shows zones, counters and vars: '{name}' is none of them"
                             + did_you_mean(name, list(m.zones) + list(m.counters) + list(m.card_zones) + list(m.vars)))
                elif decl.per_player and not grp.per_player:
                    self.err(sp, f"'{name}' is a zone, counter or var of each player: put it in a 'per player' group of the view")
                elif not decl.per_player and grp.per_player:
                    self.err(sp, f"'{name}' is shared: put it in a titled group of the view, not 'per player'")

    def expr(self, e: A.Expr, sc: _Scope | None, effect_call: bool = False) -> Type:
        t = as_type(self._expr(e, sc, effect_call))
        self.m.types[e] = t
        ks = self._kinds(e, sc) if t == CARD or t == list_of(CARD) else None
        if ks is not None:
            self.card_kinds[e] = ks
        else:
            self.card_kinds.pop(e, None)
        return t

    # ------------------------------------------------------------ the kinds of cards
    def kinds_of_type(self, t: A.TypeRef | None) -> frozenset | None:
        """`Order` or `list of Order` as a type: its cards are Orders."""
        if t is not None and t.name in self.m.kinds:
            return frozenset((t.name,))
        return None

    def _attr_kinds(self, name: str) -> frozenset | None:
        """The kinds an attribute's value (a card) may be: known if every kind declaring it gives a kind."""
        out: set[str] = set()
        for k in self.m.kinds.values():
            for ad in k.decl.attrs:
                if ad.name == name:
                    ks = self.kinds_of_type(ad.type)
                    if ks is None:
                        return None
                    out |= ks
        return frozenset(out) if out else None

    def bound_kinds(self, var: str, coll: A.Expr, cond: A.Expr | None) -> frozenset | None:
        """The kinds of a binder's cards: its collection's, narrowed by `var is K` conjuncts of its condition."""
        ks = self.card_kinds.get(coll)
        todo = [cond] if cond is not None else []
        while todo:
            c = todo.pop()
            if isinstance(c, A.BinOp) and c.op == "and":
                todo += [c.left, c.right]
            elif isinstance(c, A.IsKind) and isinstance(c.obj, A.Name) and c.obj.name == var and c.kind in self.m.kinds:
                ks = frozenset((c.kind,)) if ks is None else ks & {c.kind}
        return ks or None  # contradictory conditions: say nothing

    def _kinds(self, e: A.Expr, sc: _Scope | None) -> frozenset | None:
        """The kinds the card (or the list's cards) given by e may be; None if any kind."""
        m = self.m
        ref = m.refs.get(e)
        if isinstance(e, A.Name):
            match ref:
                case LocalRef() if sc is not None:
                    return sc.lookup_kinds(e.name)
                case VarRef(whose="shared"):
                    return self.kinds_of_type(m.vars[e.name].decl.type)
                case DefRef():
                    return self.kinds_of_type(m.defs[e.name].decl.type)
            return None
        if isinstance(e, (A.Attr, A.Of)):
            match ref:
                case CardAttrRef():
                    return self._attr_kinds(e.name)
                case VarRef(whose="player"):
                    return self.kinds_of_type(m.vars[e.name].decl.type)
            return None
        if isinstance(e, A.Call):
            match ref:
                case DefRef(name=e.name):
                    return self.kinds_of_type(m.defs[e.name].decl.type)
                case BuiltinRef(name="named") if len(e.args) == 1 and isinstance(e.args[0], A.Lit) \
                        and isinstance(e.args[0].value, str):
                    named = {cd.kind for cd in m.cards if cd.name == e.args[0].value and cd.kind in m.kinds}
                    return frozenset(named) if named else None
                case BuiltinRef(name="first") if len(e.args) == 2:
                    return self.card_kinds.get(e.args[1])
            return None
        if isinstance(e, A.Index):
            return self.card_kinds.get(e.obj)
        if isinstance(e, A.Quant) and e.op == "filter":
            return self.bound_kinds(e.var, e.coll, e.cond)
        parts = e.items if isinstance(e, A.ListLit) else (e.then, e.orelse) if isinstance(e, A.Cond) \
            else (e.left, e.right) if isinstance(e, A.BinOp) and isinstance(ref, JoinRef) else None
        if parts:  # a list, a choice between two cards, two lists joined: any of theirs
            out: set[str] = set()
            for x in parts:
                if m.types.get(x) == NONE:
                    continue
                ks = self.card_kinds.get(x)
                if ks is None:
                    return None
                out |= ks
            return frozenset(out) if out else None
        return None

    def _name(self, e: A.Name, sc: _Scope | None) -> str:
        m = self.m
        n = e.name
        if sc is not None:
            hit = sc.lookup(n)
            if hit is not None:
                m.refs[e] = LocalRef(hit[0])
                return hit[1]
        if self.kind_self is not None and sc is not None:  # a kind's def: its own attributes by name
            k, this = self.kind_self
            if n in k.attrs:
                a = k.attrs[n]
                m.refs[e] = SelfAttrRef(this, a.slot, a.mutable)
                return a.type
            cz = m.card_zones.get(n)
            if cz is not None and k.name in cz.kinds:
                m.refs[e] = SelfZoneRef(this, cz.slot)
                return ZONE
            kd = m.kind_defs.get(n)
            if kd is not None and k.name in kd.kinds:
                m.refs[e] = SelfDefRef(this, n)
                return kd.type
        if n == "me" and self.no_me:
            self.err(e.span, f"'me' is nobody in {self.no_me}: it speaks of all the players (say 'player(1)', or use 'every(p in players where ...)')")
        if n in BUILTIN_NAMES:
            m.refs[e] = BuiltinRef(n)
            return BUILTIN_NAMES[n]
        if self.in_do:  # `do NAME`: an effect, action or phase, even if a zone has that name
            if n in m.effects or n in m.actions:
                m.refs[e] = EffectRef(n, n not in m.effects)
                return EFFECT
            if m.rounds is not None and n in {ph.name for ph in m.rounds.phases}:
                m.refs[e] = PhaseRef(n)
                return EFFECT
        if n in m.options:
            m.refs[e] = OptionRef(m.options[n].slot)
            return m.options[n].type
        if n in m.counters:
            c = m.counters[n]
            if c.decl.per_player and self.implicit_me:
                m.refs[e] = CounterRef(c.slot, "me")
                return INT
            if c.decl.per_player:
                self.err(e.span, f"counter '{n}' is per player: say whose, as '{n} of me' or 'p.{n}'")
                return INT
            m.refs[e] = CounterRef(c.slot, "shared")
            return INT
        if n in m.vars:
            v = m.vars[n]
            if v.decl.per_player:
                self.err(e.span, f"variable '{n}' is per player: say whose, as '{n} of me'")
                return v.type
            m.refs[e] = VarRef(v.slot, "shared")
            return v.type
        if n in m.zones:
            z = m.zones[n]
            if z.decl.per_player:
                self.err(e.span, f"zone '{n}' is per player: say whose ('{n} of me'), or use 'all {n}' or 'every {n}'")
                return ZONE
            m.refs[e] = ZoneRef(z.slot, "shared")
            return ZONE
        if n in m.enum_of:
            m.refs[e] = ConstRef(n)
            return Type.enum_named(m.enum_of[n])
        if n in m.defs:
            d = m.defs[n]
            if d.decl.type is None:
                self.check_def(d)
            if d.params:
                self.err(e.span, f"'{n}' takes {len(d.params)} argument(s)")
            m.refs[e] = DefRef(n)
            return d.type
        if n in m.effects:
            m.refs[e] = EffectRef(n, False)
            return EFFECT
        if n in m.actions:
            m.refs[e] = EffectRef(n, True)
            return EFFECT
        if m.rounds is not None and n in {ph.name for ph in m.rounds.phases}:
            m.refs[e] = PhaseRef(n)
            return EFFECT
        cands = set(BUILTIN_NAMES) | set(m.options) | set(m.counters) | set(m.vars) | set(m.zones) \
            | set(m.enum_of) | set(m.defs) | set(m.effects) | set(m.actions)
        if sc is not None:
            cands |= sc.all_names()
        self.err(e.span, f"unknown name '{n}'" + did_you_mean(n, cands))
        return ANY

    def _prop(self, e: A.Expr, obj: A.Expr, name: str, sc, name_span: Span) -> str:
        m = self.m
        before = len(self.errors)
        t = self.expr(obj, sc)
        if t == ANY:
            if len(self.errors) == before and isinstance(obj, (A.Call, A.Name)) \
                    and self.def_state.get(obj.name) == "checking":  # a def used in its own body
                self.err(obj.span, f"cannot tell what this is, to read its '{name}': give the def a result type "
                                   "(def NAME(...): TYPE = ...)")
            return ANY
        if t == PLAYER:
            if name in m.counters:
                c = m.counters[name]
                if not c.decl.per_player:
                    self.err(name_span, f"counter '{name}' is shared, not per player")
                m.refs[e] = CounterRef(c.slot, "player")
                return INT
            if name in m.vars and m.vars[name].decl.per_player:
                m.refs[e] = VarRef(m.vars[name].slot, "player")
                return m.vars[name].type
            if name in m.zones:
                z = m.zones[name]
                if not z.decl.per_player:
                    self.err(name_span, f"zone '{name}' is shared, not per player")
                m.refs[e] = ZoneRef(z.slot, "player")
                return ZONE
        if t == CARD and (name in m.card_zones or name in m.kind_defs):  # `dice of s`, `d.pips`
            cz = m.card_zones.get(name)
            kdef = m.kind_defs[name] if cz is None else None
            declared_by = cz.kinds if cz is not None else kdef.kinds if kdef is not None else []
            ks = self.card_kinds.get(obj)
            if ks is not None and not any(k in declared_by for k in ks):
                what = "zone" if cz is not None else "value"
                self.err(name_span, f"kind '{sorted(ks)[0]}' has no {what} '{name}' (kind '{declared_by[0]}' has)")
                return ANY
            if cz is not None:
                m.refs[e] = ZoneRef(cz.slot, "card")
                return ZONE
            m.refs[e] = KindDefRef(name)
            return kdef.type if kdef is not None else ANY
        if t == CARD and (CARD, name) not in BUILTIN_PROPS and (ks := self.card_kinds.get(obj)) is not None \
                and not any(name in m.kinds[k].attrs for k in ks):
            kl = sorted(ks)
            have = sorted({a for k in kl for a in m.kinds[k].attrs} | {n for (tt, n) in BUILTIN_PROPS if tt == CARD}
                          | {x.name for k in kl for x in getattr(m.kinds[k].decl, "zones", ()) + getattr(m.kinds[k].decl, "defs", ())})
            which = f"kind '{kl[0]}' has" if len(kl) == 1 else \
                "kinds " + ", ".join(f"'{k}'" for k in kl[:-1]) + f" and '{kl[-1]}' have"
            self.err(name_span, f"{which} no attribute '{name}'" + did_you_mean(name, have))
            return ANY
        if t == CARD and name in m.attrs_by_name:
            a = m.attrs_by_name[name]
            m.refs[e] = CardAttrRef(a.slot, a.mutable)
            return a.type
        if (t, name) in BUILTIN_PROPS:
            m.refs[e] = PropRef(t, name)
            return BUILTIN_PROPS[(t, name)]
        cands = [n for (tt, n) in BUILTIN_PROPS if tt == t]
        if t == PLAYER:
            cands += [c for c, i in m.counters.items() if i.decl.per_player]
            cands += [z for z, i in m.zones.items() if i.decl.per_player]
            cands += [v for v, i in m.vars.items() if i.decl.per_player]
        if t == CARD:
            cands += list(m.attrs_by_name)
        self.err(name_span, f"{show(t)} has no '{name}'" + did_you_mean(name, cands))
        return ANY

    def _binder(self, e, var: str, coll: A.Expr, sc, what: str):
        el = self.coll(coll, sc, what)
        inner = (sc or _Scope(self._frame())).child()
        self.m.slots[e] = inner.bind(var, el, self.bound_kinds(var, coll, getattr(e, "cond", None)))
        return inner, el

    def _expr(self, e: A.Expr, sc: _Scope | None, effect_call: bool) -> str:
        m = self.m
        if isinstance(e, A.Lit):
            v = e.value
            return NONE if v is None else BOOL if isinstance(v, bool) else INT if isinstance(v, int) else STR
        if isinstance(e, A.Name):
            return self._name(e, sc)
        if isinstance(e, A.Attr):
            return self._prop(e, e.obj, e.name, sc, e.span)
        if isinstance(e, A.Of):
            return self._prop(e, e.obj, e.name, sc, e.name_span)
        if isinstance(e, A.Index):
            lt = self.expr(e.obj, sc)
            self.expect(e.index, INT, self.expr(e.index, sc), "index")
            if elem(lt) is None and lt != ANY:
                self.err(e.obj.span, f"only a list or a zone can be indexed, not {show(lt)}")
                return ANY
            return lt.elem or ANY
        if isinstance(e, A.ListLit):
            ts = [self.expr(x, sc) for x in e.items]
            t0 = next((t for t in ts if t not in (ANY, NONE)), ANY)
            for x, t in zip(e.items, ts):
                self.expect(x, t0, t, "list item")
            return list_of(t0)
        if isinstance(e, A.Call):
            return self._call(e, sc, effect_call)
        if isinstance(e, (A.AllZone, A.EveryZone)):
            z = m.zones.get(e.zone)
            if z is None:
                self.err(e.span, f"unknown zone '{e.zone}'" + did_you_mean(e.zone, m.zones))
                return ANY
            if not z.decl.per_player:
                self.err(e.span, f"zone '{e.zone}' is shared; 'all'/'every' need a per-player zone")
            m.refs[e] = ZoneFamilyRef(z.slot)
            return list_of(CARD) if isinstance(e, A.AllZone) else list_of(ZONE)
        if isinstance(e, A.Quant):
            inner, el = self._binder(e, e.var, e.coll, sc, f"{e.op}(...)")
            if e.cond is not None:
                self.expect(e.cond, BOOL, self.expr(e.cond, inner), "condition")
            if e.op == "filter":
                return list_of(el)
            return INT if e.op == "count" else BOOL
        if isinstance(e, A.AnySubset):
            el = self.coll(e.coll, sc, "any(subset ...)")
            for b in (e.low, e.high):
                if b is not None:
                    self.expect(b, INT, self.expr(b, sc), "subset size")
            inner = (sc or _Scope(self._frame())).child()
            self.m.slots[e] = inner.bind(e.var, list_of(el))
            if e.cond is not None:
                self.expect(e.cond, BOOL, self.expr(e.cond, inner), "condition")
            return BOOL
        if isinstance(e, A.Aggregate):
            inner, _ = self._binder(e, e.var, e.coll, sc, f"{e.op}(...)")
            if e.cond is not None:
                self.expect(e.cond, BOOL, self.expr(e.cond, inner), "condition")
            vt = self.expr(e.value, inner)
            if e.op == "distinct":
                return list_of(vt)
            self.expect(e.value, INT, vt, f"value to {e.op}")
            return INT
        if isinstance(e, A.BinOp):
            lt, rt = self.expr(e.left, sc), self.expr(e.right, sc)
            if e.op in ("and", "or"):
                self.expect(e.left, BOOL, lt, f"left side of '{e.op}'")
                self.expect(e.right, BOOL, rt, f"right side of '{e.op}'")
                return BOOL
            if e.op in ("==", "!="):
                if not (compatible(lt, rt) or compatible(rt, lt)):
                    self.err(e.span, f"cannot compare {show(lt)} with {show(rt)}")
                return BOOL
            if e.op == "+" and (lt.is_list or rt.is_list or (lt == ZONE and rt == ZONE)):
                # joining lists (a zone joins as the list of its cards)
                l2 = list_of(CARD) if lt == ZONE else lt
                r2 = list_of(CARD) if rt == ZONE else rt
                if not (compatible(l2, r2) or compatible(r2, l2)):
                    self.err(e.span, f"cannot join {show(lt)} and {show(rt)}")
                m.refs[e] = JOIN
                return l2 if elem(l2) not in (ANY, NONE) else r2
            self.expect(e.left, INT, lt, f"left side of '{e.op}'")
            self.expect(e.right, INT, rt, f"right side of '{e.op}'")
            return BOOL if e.op in ("<", "<=", ">", ">=") else INT
        if isinstance(e, A.Not):
            self.expect(e.operand, BOOL, self.expr(e.operand, sc), "operand of 'not'")
            return BOOL
        if isinstance(e, A.Neg):
            self.expect(e.operand, INT, self.expr(e.operand, sc), "operand of '-'")
            return INT
        if isinstance(e, A.IsKind):
            self.expect(e.obj, CARD, self.expr(e.obj, sc), "left side of 'is'")
            if e.kind not in m.kinds:
                self.err(e.span, f"unknown kind '{e.kind}'" + did_you_mean(e.kind, m.kinds))
            return BOOL
        if isinstance(e, A.Cond):
            self.expect(e.test, BOOL, self.expr(e.test, sc), "condition")
            ta, tb = self.expr(e.then, sc), self.expr(e.orelse, sc)
            if not (compatible(ta, tb) or compatible(tb, ta)):
                self.err(e.span, f"both branches should have one type, not {show(ta)} and {show(tb)}")
            return ta if ta not in (NONE, ANY) else tb
        if isinstance(e, A.Match):
            st = self.expr(e.subject, sc)
            case_t: Type | None = None
            for case in e.cases:
                for kind, v in case.patterns:
                    if kind == "name":
                        if v not in m.enum_of:
                            self.err(case.span, f"unknown value '{v}'" + did_you_mean(v, m.enum_of))
                        elif st.enum is not None and m.enum_of[v] != st.enum:
                            self.err(case.span, f"'{v}' is a {m.enum_of[v]}, not a {st.enum}")
                    elif kind == "int" and not compatible(INT, st):
                        self.err(case.span, f"a number cannot match {show(st)}")
                    elif kind == "str" and not compatible(STR, st):
                        self.err(case.span, f"a string cannot match {show(st)}")
                t = self.expr(case.value, sc)
                if case_t is None or case_t in (NONE, ANY):
                    case_t = t
                elif not compatible(case_t, t):
                    self.err(case.value.span, f"every case should give {show(case_t)}, not {show(t)}")
            return case_t or ANY
        self.err(e.span, "unknown expression")  # pragma: no cover
        return ANY

    def _call(self, e: A.Call, sc, effect_call: bool) -> str:
        m = self.m
        n = e.name
        if n in m.defs or n in m.effects:
            c = m.defs.get(n) or m.effects[n]
            is_eff = n in m.effects
            if not is_eff and c.decl.type is None:
                self.check_def(c)
            if is_eff and not effect_call:
                self.err(e.span, f"effect '{n}' can only be run with 'do'")
            if len(e.args) != len(c.params):
                self.err(e.span, f"'{n}' takes {len(c.params)} argument(s), not {len(e.args)}",
                         [Note(c.decl.span, f"'{n}' is defined here")])
            for a, (pn, pt) in zip(e.args, c.params):
                self.expect(a, pt, self.expr(a, sc), f"argument '{pn}'")
            for a in e.args[len(c.params):]:
                self.expr(a, sc)
            m.refs[e] = EffectRef(n, False) if is_eff else DefRef(n)
            return EFFECT if is_eff else c.type
        if n == "values" and n not in m.defs:  # values(ENUM): the enum's values in order
            arg = e.args[0] if len(e.args) == 1 else None
            if isinstance(arg, A.Name) and arg.name in m.enums:
                m.refs[e] = ValuesRef(arg.name)
                return list_of(Type.enum_named(arg.name))
            self.err(arg.span if arg is not None else e.span, "values(...) takes the name of an enum"
                     + (did_you_mean(arg.name, m.enums) if isinstance(arg, A.Name) else ""))
            return list_of(ANY)
        if n in BUILTIN_FUNCS:
            ps, rt = BUILTIN_FUNCS[n]
            if n == "taken" and len(e.args) == 1 and isinstance(e.args[0], A.Name) \
                    and e.args[0].name not in m.actions and e.args[0].name in m.effects:
                self.err(e.args[0].span, f"taken(...) takes an action of a phase of turns; '{e.args[0].name}' is an effect")
            if n == "offered" and not self.in_expect:
                self.err(e.span, "offered(...) is for a scenario's 'expect' lines: it reads the decisions the scenario answered")
            if n == "offered" and len(e.args) == 2:  # offered(PROMPT, N): the N-th time it was asked
                ps = (STR, INT)
            if n == "saw" and not self.in_expect:
                self.err(e.span, "saw(...) is for a scenario's 'expect' lines: it reads what a player could see "
                                 "at the decisions the scenario answered")
            if n == "saw" and len(e.args) == 4:  # saw(PLAYER, CARD, PROMPT, N): the N-th time it was asked
                ps = (PLAYER, CARD, STR, INT)
            if n == "asked" and not self.in_expect:
                self.err(e.span, "asked(...) is for a scenario's 'expect' lines: it reads who was asked the decisions "
                                 "the scenario answered")
            if n == "asked" and len(e.args) == 2:  # asked(PROMPT, N): the N-th time it was asked
                ps = (STR, INT)
            if n == "allowed" and len(e.args) == 2:  # allowed(ACTION, PLAYER): may that player take it?
                ps = (EFFECT, PLAYER)
            if len(e.args) != len(ps):
                self.err(e.span, f"'{n}' takes {len(ps)} argument(s), not {len(e.args)}")
            ts = [self.expr(a, sc) for a in e.args]
            for a, p, t in zip(e.args, ps, ts):
                if p == "coll":
                    if elem(t) is None:
                        self.err(a.span, f"argument of '{n}' should be a list or a zone, not {show(t)}")
                else:
                    self.expect(a, p, t, f"argument of '{n}'")
            m.refs[e] = BuiltinRef(n)
            if rt == "same":
                t = ts[-1] if ts else ANY
                return list_of(CARD) if t == ZONE else t
            return rt
        if effect_call:
            self.err(e.span, f"unknown effect '{n}'" + did_you_mean(n, list(m.effects) + list(m.actions)))
        else:
            self.err(e.span, f"unknown function '{n}'" + did_you_mean(n, list(BUILTIN_FUNCS) + list(m.defs) + list(m.effects)))
        for a in e.args:
            self.expr(a, sc)
        return ANY


def check(decls: list[A.Decl], model: GameModel) -> list[Diagnostic]:
    c = Checker(decls, model)
    c.collect()
    c.check_all()
    check_components(c, [d for d in decls if isinstance(d, A.ComponentsDecl)])
    model.max_frame = max([f.next for f in c.frames] + [2])
    return c.errors
