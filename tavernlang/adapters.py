"""What the adapters to agent frameworks (`pettingzoo.py`, `openspiel.py`) share: a bound on
the options of any decision read from the checked rules (the size of an action space), the fixed
encoding of a seat's view as a vector of numbers, and a game's options checked by name.

Only the engine's public API is used: the checked model and what `Match.view` returns.
"""
from __future__ import annotations

import re

import numpy as np  # (both extras that use this module, rl and openspiel, bring numpy)

from .check.model import BuiltinRef, DefRef, Type

DEFAULT_MAX_ACTIONS = 512  # the action space's size when the checked game gives no smaller sound bound


# ---------------------------------------------------------------- the action space's bound
def action_bound(game, players: int) -> tuple[int | None, list[str]]:
    """A bound on the number of options of any decision of `game` with `players` seats, read
    from the checked rules, and why (None: some decision has no bound we can prove: a `choose
    number` whose range is not written as numbers, or a list we cannot size)."""
    from .syntax import ast as A

    m = game.model
    ncards = sum(cd.copies for cd in m.cards)
    nzones = sum((players if z.decl.per_player else 1) for z in m.zones.values())
    nzones += sum(ncards for _ in m.card_zones)  # (at most one zone per card for each name)
    enum_max = max((len(v) for v in m.enums.values()), default=0)
    reasons: list[str] = []
    worst = [1]

    def lit(e) -> int | None:
        v = getattr(e, "value", None)
        return v if isinstance(e, A.Node) and type(v) is int else None

    defs = {d.name: d for d in m.decls if isinstance(d, A.DefDecl)}
    domain = {"list:player": players, "list:card": ncards, "list:zone": nzones, "list:bool": 2}

    def coll_size(e, seen: frozenset = frozenset()) -> int | None:
        """At most how many items a list holds, where that is sure: a zone's cards (each card
        lies in one place), the cards or the zones of a family, players, others, cards, a
        written list, a def's list, a filter of a bounded list, a sum of bounded lists, either
        branch of an if; distinct values, by their list or their type (an enum's values).
        Anything else (a parameter's or a let's list, a range up to a counter) has no bound here."""
        t = m.types.get(e, Type(""))
        if isinstance(e, A.ListLit):
            return len(e.items)
        if t == "zone" or isinstance(e, A.AllZone):
            return ncards
        if isinstance(e, A.EveryZone):
            return nzones
        if isinstance(e, A.Quant) and e.op == "filter":
            return coll_size(e.coll, seen)
        if isinstance(e, A.Aggregate) and e.op == "distinct":
            n = coll_size(e.coll, seen)
            d = len(m.enums.get(t.list_enum, ())) if t.list_enum is not None else domain.get(t)
            return min(x for x in (n, d) if x is not None) if (n, d) != (None, None) else None
        if isinstance(e, A.BinOp) and e.op == "+" and t.is_list:
            a, b = coll_size(e.left, seen), coll_size(e.right, seen)
            return None if a is None or b is None else a + b
        if isinstance(e, A.Cond):
            a, b = coll_size(e.then, seen), coll_size(e.orelse, seen)
            return None if a is None or b is None else max(a, b)
        if isinstance(e, A.Call) and e.name == "values" and t.list_enum is not None:
            return len(m.enums.get(t.list_enum, ()))
        if isinstance(e, A.Call) and e.name == "first" and len(e.args) == 2:
            return coll_size(e.args[1], seen)
        if isinstance(e, A.Call) and e.name == "range" and len(e.args) == 2:
            lo, hi = num_bound(e.args[0], low=True), num_bound(e.args[1])
            return None if lo is None or hi is None else max(0, hi - lo + 1)
        ref = m.refs.get(e) if isinstance(e, (A.Name, A.Call)) else None
        if isinstance(ref, BuiltinRef) and isinstance(e, A.Name):  # players, others, cards
            return players if t == "list:player" else ncards if t == "list:card" else None
        name = e.name if isinstance(e, (A.Name, A.Call)) else None
        if isinstance(ref, DefRef) and name in defs and name not in seen:
            return coll_size(defs[name].body, seen | {name})
        return None

    def num_bound(e, low: bool = False) -> int | None:
        """A written number; for a high end, also a counter's declared highest value, the size
        of a bounded list, the lesser of two numbers one of which is bounded."""
        v = lit(e)
        if v is not None or low:
            return v
        if isinstance(e, A.Call) and e.name == "size" and len(e.args) == 1:
            return coll_size(e.args[0])
        if isinstance(e, A.Quant) and e.op == "count":
            return coll_size(e.coll)
        if isinstance(e, A.Call) and e.name == "lesser" and len(e.args) == 2:
            known = [b for b in (num_bound(e.args[0]), num_bound(e.args[1])) if b is not None]
            return min(known) if known else None
        if isinstance(e, A.Attr) and e.name in m.counters:
            return lit(m.counters[e.name].decl.high) if m.counters[e.name].decl.high is not None else None
        if isinstance(e, A.Name) and e.name in m.counters and not m.counters[e.name].decl.per_player:
            return lit(m.counters[e.name].decl.high) if m.counters[e.name].decl.high is not None else None
        return None

    def note(n: int | None, node, what: str) -> None:
        if n is None:
            reasons.append(f"{node.span}: {what} has no bound read from the rules")
            worst[0] = None
            return
        if worst[0] is not None:
            worst[0] = max(worst[0], n)

    def walk(node) -> None:
        chooser = getattr(node, "chooser", None)
        if chooser is not None and chooser.random:  # the game picks: no decision
            pass
        elif isinstance(node, A.ChooseOne):
            note(len(node.options), node, "choose one of")
        elif isinstance(node, A.ChooseNumber):
            lo, hi = num_bound(node.low, low=True), num_bound(node.high)
            note(None if lo is None or hi is None else max(1, hi - lo + 1), node, "choose number")
        elif isinstance(node, A.ChooseSubset):
            n = coll_size(node.coll)
            note(None if n is None else min(4096, 2 ** min(n, 13)), node, "choose subset")
        elif isinstance(node, (A.Choose, A.ChooseN)):
            n = coll_size(node.coll)
            note(None if n is None else n + (1 if isinstance(node, A.ChooseN) and node.up_to else 0), node, "choose")
        elif isinstance(node, (A.Simultaneous, A.SimulChoice)):
            note(coll_size(node.coll), node, "simultaneously choose")
        for child in _children(node):
            walk(child)

    for d in m.decls:
        walk(d)
    note(len(m.actions) + 1, m.decls[0] if m.decls else None, "a turn's actions")  # each action, and pass
    return worst[0], reasons


def _children(node):
    import attrs
    from .syntax import ast as A
    if not attrs.has(type(node)):
        return
    for f in attrs.fields(type(node)):
        v = getattr(node, f.name, None)
        if isinstance(v, A.Node):
            yield v
        elif isinstance(v, (tuple, list)):
            for x in v:
                if isinstance(x, A.Node):
                    yield x


# ---------------------------------------------------------------- the observation's encoding
class _Encoding:
    """The fixed layout of an observation, from the checked game and a first full view."""

    def __init__(self, game, players: int, probe_view: dict):
        m = game.model
        self.n = players
        self.names: list[str] = []
        kind_of: dict[str, str] = {}
        for cd in m.cards:
            if cd.name not in kind_of:
                kind_of[cd.name] = cd.kind
                self.names.append(cd.name)
        self.kinds = list(m.kinds)
        # the `var` attributes a card's label shows (a die's face): an int is summed per zone, a
        # bool counted when true, an enum counted per value
        self.var_feats: list[tuple[str, str | None]] = []
        self.label_attrs: dict[str, list[tuple[str, str]]] = {}
        for k, info in m.kinds.items():
            quiet = {ad.name for ad in info.decl.attrs if getattr(ad, "unlabelled", False)}
            shown = [(a.name, a.type) for a in info.attrs.values() if a.mutable and a.name not in quiet]
            self.label_attrs[k] = shown
            for a, t in shown:
                if t.enum is not None:
                    for v in m.enums.get(t.enum, ()):
                        if (a, v) not in self.var_feats:
                            self.var_feats.append((a, v))
                elif t in ("int", "bool") and (a, None) not in self.var_feats:
                    self.var_feats.append((a, None))
        self.kind_of = kind_of
        V, K, W = len(self.names), len(self.kinds), len(self.var_feats)
        self.name_ix = {nm: i for i, nm in enumerate(self.names)}
        self.kind_ix = {k: V + i for i, k in enumerate(self.kinds)}
        self.var_ix = {f: V + K + i for i, f in enumerate(self.var_feats)}
        self.HIDDEN, self.OTHER = V + K + W, V + K + W + 1
        self.width = V + K + W + 2  # per zone
        self.zones = self._zone_list(m, probe_view)
        self.zone_ix = {z: i for i, z in enumerate(self.zones)}
        self._block_cache: dict[str, int] = {}
        self.counters: list[tuple[str, int]] = []
        self.per_player: list[str] = []  # counters the view gives one value per player of
        for name, v in probe_view["counters"].items():
            self.counters.append((name, len(v) if isinstance(v, list) else 1))
            if isinstance(v, list):
                self.per_player.append(name)
        # the vector: me, to_act, current (one-hot seats), round, counters, zones
        self.off_me, self.off_to_act, self.off_current = 0, players, 2 * players
        self.off_round = 3 * players
        self.off_counters = self.off_round + 1
        self.counter_off: dict[str, tuple[int, int]] = {}
        o = self.off_counters
        for name, w in self.counters:
            self.counter_off[name] = (o, w)
            o += w
        self.off_zones = o
        self.size = o + len(self.zones) * self.width
        low = np.zeros(self.size, dtype=np.float32)
        low[self.off_counters:self.off_zones] = -np.inf
        self.low = low
        self._label_cache: dict[str, tuple] = {}

    def _zone_list(self, m, probe_view: dict) -> list[str]:
        """The zones with a block, in order: every zone of a first full view (the zones each
        card holds, one per card, among them), then those of a face-down card."""
        zones = list(probe_view["zones"])
        zones += [f"{cz} of a face-down card" for cz in m.card_zones if f"{cz} of a face-down card" not in zones]
        return zones + ["(other zones)"]

    def _zone_block(self, zname: str) -> int:
        """The block of the view's zone `zname` (a zone with none: `(other zones)`)."""
        return self.zone_ix.get(zname, self.zone_ix["(other zones)"])

    def feature_names(self) -> list[str]:
        """The name of each number of the vector, in order: `me=P1`, `to_act=P1`,
        `current=P1`, ..., `round`, each counter (`points[P1]`, ... for one per player), then
        `ZONE: FEATURE` for each zone's block: card names (`hand of P1: Ace`), kinds (`hand of
        P1: kind Card`), shown `var` attributes (`value`, `colour=Red`), `hidden`, `other`."""
        lay = self.layout()
        out = [""] * lay["size"]
        for what in ("me", "to_act", "current"):
            for k, i in enumerate(range(lay[what].start, lay[what].stop)):
                out[i] = f"{what}=P{k + 1}"
        out[lay["round"]] = "round"
        for name, sl in lay["counters"].items():
            for k, i in enumerate(range(sl.start, sl.stop)):
                out[i] = f"{name}[P{k + 1}]" if name in self.per_player else name
        feats = list(lay["zone_features"])  # (a kind may share a card's name: kinds say so)
        for j, k in enumerate(self.kinds):
            feats[len(self.names) + j] = f"kind {k}"
        for zone, sl in lay["zones"].items():
            for f, i in zip(feats, range(sl.start, sl.stop)):
                out[i] = f"{zone}: {f}"
        return out

    def layout(self) -> dict:
        z = self.off_zones
        return {
            "size": self.size,
            "me": slice(self.off_me, self.off_me + self.n),
            "to_act": slice(self.off_to_act, self.off_to_act + self.n),
            "current": slice(self.off_current, self.off_current + self.n),
            "round": self.off_round,
            "counters": {name: slice(o, o + w) for name, (o, w) in self.counter_off.items()},
            "per_player_counters": list(self.per_player),
            "zones": {name: slice(z + i * self.width, z + (i + 1) * self.width) for i, name in enumerate(self.zones)},
            "zone_features": (self.names + self.kinds + [f"{a}={v}" if v is not None else a for a, v in self.var_feats]
                              + ["hidden", "other"]),
        }

    def _features(self, label: str) -> tuple:
        """(index, amount) pairs a card label adds to its zone's block."""
        f = self._label_cache.get(label)
        if f is not None:
            return f
        if label == "?":
            f = ((self.HIDDEN, 1),)
        else:
            name, rest = self._split(label)
            if name is None:
                f = ((self.OTHER, 1),)
            else:
                kind = self.kind_of[name]
                out = [(self.name_ix[name], 1), (self.kind_ix[kind], 1)]
                if rest:
                    for a, v in _parse_attrs(rest, self.label_attrs.get(kind, [])):
                        if (a, v) in self.var_ix:
                            out.append((self.var_ix[(a, v)], 1))
                        elif (a, None) in self.var_ix:
                            if v == "true":
                                out.append((self.var_ix[(a, None)], 1))
                            elif re.fullmatch(r"-?\d+", v):
                                out.append((self.var_ix[(a, None)], int(v)))
                f = tuple(out)
        if len(self._label_cache) < 100_000:
            self._label_cache[label] = f
        return f

    def _split(self, label: str) -> tuple[str | None, str]:
        if label in self.name_ix:
            return label, ""
        i = label.find(" (")
        while i >= 0:  # a name may itself hold " (": the first prefix that is a card's name
            if label[:i] in self.name_ix and label.endswith(")"):
                return label[:i], label[i + 2:-1]
            i = label.find(" (", i + 1)
        return None, ""

    def encode(self, view: dict, me: int) -> np.ndarray:
        vec = np.zeros(self.size, dtype=np.float32)
        vec[self.off_me + me] = 1
        ta = view.get("to_act")
        if ta is not None:
            vec[self.off_to_act + int(ta[1:]) - 1] = 1
        vec[self.off_current + int(view["current"][1:]) - 1] = 1
        vec[self.off_round] = view["round"]
        for name, v in view["counters"].items():
            o = self.counter_off.get(name)
            if o is None:
                continue
            if isinstance(v, list):
                vec[o[0]:o[0] + min(o[1], len(v))] = [int(x) if x is not None else 0 for x in v[:o[1]]]
            elif v is not None:
                vec[o[0]] = int(v)
        width, zoff = self.width, self.off_zones
        feats, block = self._features, self._zone_block
        for zname, cards in view["zones"].items():
            if not cards:
                continue
            base = zoff + width * block(zname)
            for lab in cards:
                for i, a in feats(lab):
                    vec[base + i] += a
        return vec


class _CompactEncoding(_Encoding):
    """The compact layout: `_Encoding`'s, with the zones each card holds (`token of <card>`,
    `token of a face-down card`, one zone per card) counted together, one block for each such
    name (`token of cards`, the sum over every card), and no block for a zone no rules declare
    (the full layout's `(other zones)` stays, for labels of no declared zone)."""

    def _zone_list(self, m, probe_view: dict) -> list[str]:
        zones = []
        for z, info in m.zones.items():
            zones += [f"{z} of P{k + 1}" for k in range(self.n)] if info.decl.per_player else [z]
        self._families = {f"{cz} of ": f"{cz} of cards" for cz in m.card_zones}
        return zones + list(self._families.values()) + ["(other zones)"]

    def _zone_block(self, zname: str) -> int:
        b = self._block_cache.get(zname)
        if b is None:
            b = self.zone_ix.get(zname)
            if b is None:
                b = self.zone_ix["(other zones)"]
                for head, family in self._families.items():
                    if zname.startswith(head):
                        b = self.zone_ix[family]
                        break
            if len(self._block_cache) < 100_000:
                self._block_cache[zname] = b
        return b


def _parse_attrs(rest: str, attrs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """'value 4, raised 0' -> [('value', '4'), ('raised', '0')], by the kind's shown attributes
    in order (a value may itself hold ', ': a card's name)."""
    out = []
    s = rest
    for j, (a, _) in enumerate(attrs):
        if not s.startswith(a + " "):
            break
        s = s[len(a) + 1:]
        if j + 1 < len(attrs):
            cut = s.find(", " + attrs[j + 1][0] + " ")
            v, s = (s, "") if cut < 0 else (s[:cut], s[cut + 2:])
        else:
            v, s = s, ""
        out.append((a, v))
    return out


def _checked_options(game, options: dict) -> dict:
    """The game's options by name, each of its type (a range is checked by the engine)."""
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict of the game's options by name, not {options!r}")
    known = game.model.options
    out = {}
    for name, v in options.items():
        o = known.get(name)
        if o is None:
            raise ValueError(f"{game.title} has no option '{name}'"
                             + (f"; its options: {', '.join(known)}" if known else "; it has no options"))
        t = o.type
        if t == "bool" and not isinstance(v, bool):
            raise ValueError(f"option '{name}' is true or false (a bool), not {v!r}")
        if t == "int" and (isinstance(v, bool) or not isinstance(v, int)):
            raise ValueError(f"option '{name}' is a whole number, not {v!r}")
        if t.enum is not None and v not in game.model.enums.get(t.enum, ()):
            raise ValueError(f"option '{name}' is one of {', '.join(game.model.enums.get(t.enum, ()))}, not {v!r}")
        out[name] = v
    return out
