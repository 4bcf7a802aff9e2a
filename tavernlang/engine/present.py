"""How a compiled game's values read to people: zone and card labels, card text, values as the
rules write them, and who may read them (visibility masks).

`Presentation` is a base of `CompiledGame` (engine/compile.py): its methods read the game's
tables (card_name, card_kind, card_vars, card_templates, copies_of, copy_no, zone_names,
zone_per, zone_is_card, zone_holders, _zbase, kdef_cells, effect_titles, model), evaluate its
expressions (evaluate) and read the state they are given; they change neither.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..check.model import OptionRef, as_type
from ..syntax import ast as A
from .common import RULE_FAULTS

if TYPE_CHECKING:
    from ..check.model import GameModel, Type
    from .state import State

_SECOND = {"you": "they", "your": "their", "yours": "theirs", "yourself": "themselves",
           "you're": "they're", "you've": "they've", "you'll": "they'll", "you'd": "they'd"}
_SECOND_WORD = re.compile(r"\b(?:you(?:r|rs|rself|'re|'ve|'ll|'d)?)\b(?!')", re.IGNORECASE)


def third_person(text: str) -> str:
    """Words the rules address to a player ("your Character", "you can't hold more") as the
    other players read them ("their Character", "they can't hold more")."""
    def swap(m: re.Match) -> str:
        w = m.group(0)
        out = _SECOND[w.lower()]
        return out[0].upper() + out[1:] if w[0].isupper() else out
    return _SECOND_WORD.sub(swap, text)


class Presentation:
    """Labels, text and visibility of a compiled game's values (mixed into CompiledGame)."""

    if TYPE_CHECKING:  # the game's tables and what it evaluates with, set by CompiledGame
        model: GameModel
        card_name: list[str]
        card_kind: list[str]
        card_vars: list[list[tuple[str, int, Type]]]
        card_templates: list
        copies_of: dict[str, int]
        copy_no: list[int]
        zone_names: list[str]
        zone_per: list[bool]
        zone_is_card: list[bool]
        zone_holders: list[list[int]]
        kdef_cells: Any
        effect_titles: dict[str, str]

        def _zbase(self, n: int) -> list[int]: ...

        def evaluate(self, e: A.Expr, st: State, env: list | None = None) -> Any: ...

    def zone_name(self, z: int, st: State) -> str:
        """Zone z's label in st's game ("table of P2"): zone numbers depend on the player count."""
        return self._zone_label(z, st.n)

    def _zone_label(self, z: int, n: int) -> str:
        f = self._zone_family_of(z, n)
        if self.zone_per[f]:
            return f"{self.zone_names[f]} of P{z - self._zbase(n)[f] + 1}"
        if self.zone_is_card[f]:
            c = self.zone_holders[f][z - self._zbase(n)[f]]
            return f"{self.zone_names[f]} of {self.card_ref(c)}"
        return self.zone_names[f]

    def zone_text(self, z: int, st: State, viewer: int | None = None) -> str:
        """A zone's label as `viewer` may read it (None: the rules' log; -1: the label everyone
        may read): a zone on a card names its card where it lies now ("guests of P2's Table 1",
        "guests of your Table 1" to P2, place_ref); a zone on a card the viewer may not see
        names no card ("dice of a face-down card")."""
        f = st.zfamily[z]
        if self.zone_is_card[f]:
            assert st.zholder is not None  # (a game with zones on cards keeps their holders)
            h = st.zholder[z]
            if not self._seen(h, st, viewer):
                return f"{self.zone_names[f]} of a face-down card"
            return f"{self.zone_names[f]} of {self.place_ref(h, st, viewer)}"
        return self._zone_label(z, st.n)

    def zone_key(self, z: int, st: State, viewer: int | None = None) -> str:
        """A zone's label that stays the same the whole game (Match.view's keys): by the rules'
        names, a zone on a card by the card's number ("dice of Cashbox #2"), but "dice of a
        face-down card" where `viewer` may not see the card."""
        f = st.zfamily[z]
        if self.zone_is_card[f] and viewer is not None:
            assert st.zholder is not None  # (a game with zones on cards keeps their holders)
            if not self._seen(st.zholder[z], st, viewer):
                return f"{self.zone_names[f]} of a face-down card"
        return self._zone_label(z, st.n)

    @staticmethod
    def _seen(c: int, st: State, viewer: int | None) -> bool:
        """May `viewer` see card c (None: the rules' log sees all; -1: everyone)?"""
        if viewer is None:
            return True
        return st.vis_mask(c) == (1 << st.n) - 1 if viewer == -1 else st.visible(c, viewer)

    def place_ref(self, c: int, st: State, viewer: int | None = None) -> str:
        """Card c named as the card a zone lies on, where it lies now: by its name when the game
        has one card of that name; in a public zone of a player, by its owner and (when several
        of its name lie there) its place among them, "P2's Table 1" ("your Table 1" to the owner
        `viewer`); on another card, as lying on it ("Noble 2 on P2's Table 1"); elsewhere by its
        number among the cards of its name ("Table #7")."""
        nm = self.card_name[c]
        if self.copies_of.get(nm, 1) == 1:
            return nm
        z = st.loc[c]
        if z < 0 or st.zhidden[z]:  # (out of play, or in a hidden zone: its neighbours unsaid)
            return self.card_ref(c)
        same = [x for x in st.zones[z] if self.card_name[x] == nm]
        nth = f" {same.index(c) + 1}" if len(same) > 1 else ""
        h = st.zholder[z] if st.zholder is not None else -1
        if h >= 0:
            on = self.place_ref(h, st, viewer) if self._seen(h, st, viewer) else "a face-down card"
            return f"{nm}{nth} on {on}"
        o = st.zowner[z]
        if o is None:
            return self.card_ref(c)
        return ("your " if o == viewer else f"P{o + 1}'s ") + nm + nth

    def zone_mask(self, z: int, st: State) -> int:
        """The players who may read a zone's label: all, but for a zone on a card some may not see."""
        if st.zholder is None or st.zholder[z] < 0:
            return (1 << st.n) - 1
        return st.vis_mask(st.zholder[z])

    def prompt_text(self, choice: A.Node, st: State, env: list, viewer: int | None = None) -> str:
        """A prompt with holes: each hole filled in with its value now, in the frame `env` of the
        choice that asks it, as card text shows values ("card to discard (Hand Size 7)"), as
        everyone may read it (the log's), or as the chooser `viewer` asked it may ("accept Ale
        for your Barrel?" to a player shown the Ale). The generated code calls it for a prompt
        with holes only."""
        out = []
        for x in self.model.prompt_holes[choice]:
            if isinstance(x, str):
                out.append(x)
                continue
            e, t = x
            try:
                v = self.evaluate(e, st, env)
            except RULE_FAULTS:
                v = None
            out.append(self._public_text(v, st, str(t), -1 if viewer is None else viewer))
        return "".join(out)

    def _public_text(self, v, st: State, t: str, viewer: int = -1) -> str:
        """A value as `viewer` may read it (-1: everyone, as in the log every player reads): a
        card they may not see is "a face-down card", a zone on such a card names no card."""
        elem = t[5:] if t.startswith("list:") else None
        if elem is not None and isinstance(v, (list, tuple)):
            return ", ".join(self._public_text(x, st, elem, viewer) for x in v) if v else "-"
        if (t == "card" or t in self.model.kinds) and isinstance(v, int):
            return self.card_name[v] if self._seen(v, st, viewer) else "a face-down card"
        if t == "zone" and isinstance(v, int):
            return self.zone_text(v, st, viewer)
        return self.text_value(v, st, t, None)

    def for_reader(self, text: str, data: dict, viewer: int | None) -> str:
        """A log line as `viewer` reads it (None: the log of no seat, `tav run`'s): a choice's
        prompt and the title of an action or effect, written to the player who chose or acts
        ("your Character"), read in the third person by everyone else ("P2 chooses Cornelius (their
        Character)"); the chooser reads them as they were asked. A zone on a card of a player
        ("guests of P2's Table 1") reads "your" to that player ("guests of your Table 1")."""
        if isinstance(viewer, int) and viewer >= 0:
            text = self._owned_places(text, data, f"P{viewer + 1}'s ")
        p = data.get("player")
        if not isinstance(p, int) or p == viewer:
            return text
        prompt = data.get("prompt")
        if isinstance(prompt, str):
            return text.replace(f"({prompt})", f"({third_person(prompt)})")
        if data.get("type") in ("action", "refused") and data.get("action") in self.model.actions:
            a = self.model.actions[data["action"]]
            title = a.decl.title or a.name
            return text.replace(title, third_person(title), 1)
        if data.get("type") == "effect" and data.get("effect") in self.effect_titles:
            title = self.effect_titles[data["effect"]]
            return text.replace(title, third_person(title), 1)
        return text

    def _owned_places(self, text: str, data: dict, own: str) -> str:
        """The zones on cards a log line names (a move's, a shuffle's, a choice's) with the
        reader's own cards as "your" ("P2's Table 1" -> "your Table 1" where `own` is "P2's ")."""
        for key in ("from", "to", "zone", "choice"):
            lab = data.get(key)
            if isinstance(lab, str) and own in lab and lab in text and any(
                    on_card and lab.startswith(f"{nm} of ") for nm, on_card in zip(self.zone_names, self.zone_is_card)):
                text = text.replace(lab, lab.replace(own, "your "))
        return text

    def card_ref(self, c: int) -> str:
        """A card's name, with its copy number when the game has several of that name."""
        nm = self.card_name[c]
        return nm if self.copies_of.get(nm, 1) == 1 else f"{nm} #{self.copy_no[c]}"

    def _zone_family_of(self, z: int, n: int) -> int:
        base = self._zbase(n)
        for f in range(len(base) - 1, -1, -1):
            if z >= base[f]:
                return f
        return 0

    def card_label(self, c: int, st: State, viewer: int | None = None) -> str:
        """A card's name, with the values of its `var` attributes (a die shows its face); a
        card named by an attribute shows only if the viewer (None: everyone) may see it."""
        slots = self.card_vars[c]
        if not slots:
            return self.card_name[c]
        return f"{self.card_name[c]} (" + ", ".join(f"{n} {self._var_text(st.cvars[i][c], st, t, viewer)}"
                                                  for n, i, t in slots) + ")"

    def _var_text(self, v, st: State, t: str | None, viewer: int | None) -> str:
        """A var attribute's value in a card's label: the cards of a list of cards by their names,
        as a card is (a list may hold the card itself, or a card whose list holds it)."""
        if t == "list:card" and isinstance(v, (list, tuple)):
            return "{" + ", ".join(self.value_text(x, st, "card", viewer) for x in v) + "}"
        return self.value_text(v, st, t, viewer)

    def _template(self, cd: A.CardDecl, kind: str):
        """A card's text template (its own, else its kind's) with each hole resolved to where its
        value lies: ("name",), ("kind",), ("attr", slot, mutable, type) or ("def", name, type)."""
        kinfo = self.model.kinds.get(kind)
        text = cd.text if cd.text is not None else kinfo.decl.text if kinfo is not None else None
        if text is None:
            return None
        assert kinfo is not None  # (a card's text is its own or its kind's: every card has a known kind)
        out: list = []
        for part in text.parts:
            if isinstance(part, str):
                out.append(part)
            elif part[0] in kinfo.attrs:
                a = kinfo.attrs[part[0]]
                out.append(("attr", a.slot, a.mutable, a.type))
            elif part[0] in self.model.kind_defs:
                out.append(("def", part[0], self.model.kind_defs[part[0]].type))
            else:
                out.append((part[0],))
        return out

    def card_text(self, c: int, st: State, viewer: int | None = None) -> str | None:
        """How card c reads to people, from its text template and its attributes' values now
        (None: the rules give it no text). Rules text is data here: nothing of it is code."""
        tpl = self.card_templates[c]
        if tpl is None:
            return None
        out = []
        for part in tpl:
            if isinstance(part, str):
                out.append(part)
            elif part[0] == "attr":
                _, slot, mutable, t = part
                out.append(self.text_value((st.cvars if mutable else st.attrs)[slot][c], st, t, viewer))
            elif part[0] == "def":
                d = self.model.kind_defs[part[1]]
                v = self.kdef_cells[part[1]][0](st, [viewer, c] + [None] * d.frame)
                out.append(self.text_value(v, st, part[2], viewer))
            elif part[0] == "kind":
                out.append(self.card_kind[c])
            else:
                out.append(self.card_name[c])
        return "".join(out)

    def text_value(self, v, st: State, t: str | None, viewer: int | None) -> str:
        """A value as a card's text shows it: 3, an enum constant, yes, an effect's title, "A, B" for a list."""
        if v is None:
            return "-"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, (list, tuple)):
            inner = as_type(t).list_elem if t else None
            return ", ".join(self.text_value(x, st, inner, viewer) for x in v) if v else "-"
        if t == "effect" and isinstance(v, str):
            return self.effect_titles.get(v, v)
        if t == "card" and isinstance(v, int):
            return self.card_name[v] if viewer is None or st.visible(v, viewer) else "a face-down card"
        if t == "player" and isinstance(v, int):
            return f"P{v + 1}"
        if t == "zone" and isinstance(v, int):
            return self.zone_text(v, st, viewer)
        return str(v)

    def missing_actions(self, offered, st: State, me: int, phase: str | None = None) -> list[tuple[str, str]]:
        """At a turn offering the actions `offered` (their names) to `me` (or in the phase named
        `phase`): the phase's other actions, each with why it is not offered (its first failed
        `require`'s message, else the condition and its place)."""
        names = set(offered)
        phase_given = phase is not None
        found = next((ph.decl for ph in self.model.phases if ph.decl.actions and (
            ph.name == phase if phase is not None else names <= {r.name for r in ph.decl.actions})), None)
        out = []
        for ref in found.actions if found is not None else ():
            a = self.model.actions.get(ref.name)
            if ref.name in names or a is None:
                continue
            why = None
            env = [me] + [None] * (a.frame + 1)
            for r in a.requires:
                if not self._holds(r.cond, st, env):
                    if self._options_only(r.cond):
                        why = ""  # (ruled out by the game's options: never offered in this game)
                        break
                    if r.message:
                        why = r.message
                        break
                    # (no message: the first part of `A and B and ...` that is false, as written)
                    part = r.cond
                    while isinstance(part, A.BinOp) and part.op == "and":
                        part = part.left if not self._holds(part.left, st, env) else part.right
                    sp = part.span
                    ln = self.model.sources.line(sp.file, sp.line) or ""
                    cond = ln[sp.col - 1:sp.end_col - 1] if sp.end_line == sp.line else ln.strip() + " ..."
                    why = f"it requires {cond} ({sp})"
                    break
            if why == "":
                continue
            if why is None:
                if phase_given:  # (inside a turn: only what its requirements rule out)
                    continue
                why = "taken already this turn" if ref.once else self._nothing_to_choose(a.decl)
            out.append((a.decl.title or a.name, why))
        return out

    def _options_only(self, cond: A.Expr) -> bool:
        """Does a condition read nothing but the game's options (so that it holds, or fails,
        the whole game through)?"""
        for x in A.walk(cond):
            if isinstance(x, A.Name):
                if not isinstance(self.model.refs.get(x), OptionRef):
                    return False
            elif not isinstance(x, (A.Lit, A.Not, A.BinOp)):
                return False
        return True

    def _holds(self, cond: A.Expr, st: State, env: list) -> bool:
        try:
            return bool(self.evaluate(cond, st, env))
        except RULE_FAULTS:
            return False

    def _nothing_to_choose(self, decl) -> str:
        """Why an action whose requirements hold is not offered: its first choice (by its
        prompt, the words the player would be asked) has no option open now."""
        for x in A.walk(decl.body):
            prompt = getattr(x, "prompt", None)
            if isinstance(x, A.Stmt) and isinstance(prompt, str) and prompt:
                return f"nothing to choose for it now: no option is open for \"{prompt}\""
        return "nothing to choose for it now"

    def value_text(self, v, st: State, t: str | None = None, viewer: int | None = None) -> str:
        """A value as the rules write it: true/false, none, P2, a card's name."""
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if t == "card":
            seen = viewer is None or (st.vis_mask(v) == (1 << st.n) - 1 if viewer == -1 else st.visible(v, viewer))
            return self.card_name[v] if seen else "face-down card"
        return self.label(v, st, t, viewer)

    def card_hiding(self, c: int, st: State, text: str, alt_hidden: str) -> tuple[int, str] | None:
        """The hidden part of a log line that names card c by its label: (the players who may read
        it whole, what the others read) or None. A card some may not see reads `alt_hidden`; a card
        all may see whose var attributes name a card some may not see reads with those hidden."""
        full = (1 << st.n) - 1
        mask = st.vis_mask(c)
        lm = full
        for _, i, t in self.card_vars[c]:
            lm &= self.value_mask(st.cvars[i][c], st, t)
        if mask != full:
            return (mask & lm, alt_hidden)
        if lm != full:
            return (lm, text.replace(self.card_label(c, st), self.card_label(c, st, -1)))
        return None

    def value_mask(self, v, st: State, t: str | None) -> int:
        """The players who may see a value: a card (or list of cards) hides from some."""
        if t == "card" and isinstance(v, int):
            return st.vis_mask(v)
        if t == "list:card" and isinstance(v, (list, tuple)):
            m = (1 << st.n) - 1
            for c in v:
                if isinstance(c, int):
                    m &= st.vis_mask(c)
            return m
        return (1 << st.n) - 1

    def label(self, v, st: State, t: str | None = None, viewer: int | None = None) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if v is None:
            return "nothing"
        if t == "player":
            return f"P{v + 1}"
        if t == "card":
            if viewer is not None and not st.visible(v, viewer):
                return "face-down card"
            return self.card_label(v, st, viewer)
        if t == "zone":
            return self.zone_text(v, st, viewer)
        if isinstance(v, (list, tuple)):
            inner = as_type(t).list_elem if t else None
            return "{" + ", ".join(self.label(x, st, inner, viewer) for x in v) + "}"
        return str(v)
