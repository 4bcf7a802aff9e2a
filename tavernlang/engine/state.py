"""The generic state store: players, counters, variables, zones of cards, one RNG.

Everything is kept in slot-indexed lists (slots come from the checker), so the
hot path never hashes a name. Cards are ints, players are ints (seat - 1),
zones are ints. Names appear only when a state is rendered.
"""
from __future__ import annotations

import bisect
import random
from typing import Any, Callable

from ..errors import GameError
from .budget import deadline, first_limit


NO_CAP = 1 << 62  # the capacity of a zone without one, as a number (more cards than any game has)


class GameOver(Exception):
    """Raised by `end game` (or an end condition) to stop the flow."""


class State:
    __slots__ = ("n", "players", "counters", "vars", "zones", "loc", "facedown", "seen", "cvars",
                 "opt", "current", "next_player", "round", "rng", "log", "decisions", "attrs",
                 "zbase", "zfam", "zowner", "zfamily", "zhidden", "zprivate", "cap", "capn", "all_cards", "fired", "game", "agent", "turn_used", "offered", "views", "preset",
                 "zholder", "czone", "holds", "known_opts", "why", "explain", "steps", "step_limit", "deadline",
                 "bot_random", "bot_count", "bot_max", "forced", "zsorted", "on_phase", "out")

    # What `copy` does with each slot (tests/test_state_copy.py holds these to __slots__):
    # what play changes, copied (lists of lists and the values in them, which may be lists)...
    COPIED = ("counters", "vars", "zones", "loc", "facedown", "seen", "cvars", "all_cards", "rng",
              "turn_used", "preset", "known_opts", "current", "next_player", "round", "decisions",
              "steps", "step_limit", "out")
    # ...what only the initial values set, shared (never changed in place once the state is made)...
    SHARED = ("game", "n", "players", "opt", "attrs", "zbase", "zfam", "zowner", "zfamily", "zhidden",
              "zprivate", "cap", "capn", "zholder", "czone", "holds", "zsorted")
    # ...and what belongs to one run of the game (its log, its agent, its counts, its time), as a
    # new state has it: a copy plays on silently, its decisions handed out, with time of its own
    FRESH = ("log", "why", "explain", "fired", "agent", "bot_random", "bot_count", "bot_max",
             "offered", "views", "deadline", "on_phase", "forced")

    def __init__(self, game, n: int, seed: int):
        self.game = game
        self.n = n
        self.players = list(range(n))
        self.rng = random.Random(seed)
        self.current = 0
        self.next_player = 0
        self.out: list[int] = []  # the players eliminated (`eliminate P`), in the order they went out
        self.round = 0
        self.decisions = 0
        self.steps = 0  # work done, against the game's budget (engine/budget.py)
        self.step_limit = first_limit()
        self.deadline = deadline()  # when the game's time is up (checked with the steps: engine/budget.py)
        self.log: list | None = None
        self.why: dict = {}  # a log line's index -> the span of the rules statement that wrote it (explanations)
        self.explain: Any = None  # an Explainer (engine/explain.py) when each gain's terms are wanted, else None
        self.fired: dict | None = None
        # who decides without suspending the game: (player, options) -> index, or None
        # to hand every decision out as a Decision (interactive play, scenarios)
        self.agent: Callable[[int, list], int] | None = None
        # the uniform random bot, written into the playout flavour's code (runner.playout): its
        # random(), a counter of its decisions (itertools.count) and their bound; None: st.agent decides
        self.bot_random: Callable[[], float] | None = None
        self.bot_count: Callable[[], int] | None = None
        self.bot_max = 0
        self.forced: list = []  # one entry for each decision with one option, taken without asking
        self.turn_used: set = set()  # the actions taken in the turn being played (`taken(A)`)
        self.offered: dict | None = None  # scenarios: prompt -> the labels offered, each time it was asked
        self.views: dict | None = None  # scenarios: prompt -> (who was asked, what each player could see), each time it was asked
        self.preset: dict | None = None  # a simultaneous phase's picks: choose statement -> the option chosen ahead
        self.known_opts = None  # (choose statement, its options) just worked out by the turn's legality check
        # filled by the compiled game's init
        self.counters: list[list[int]] = []
        self.vars: list[list[Any]] = []
        self.zones: list[list[int]] = []
        self.loc: list[int] = []
        self.facedown: list[bool] = []
        self.seen: list[int] = []
        self.cvars: list[list[Any]] = []
        self.attrs: list[list[Any]] = []
        self.opt: list[Any] = []
        self.zbase: list[int] = []
        self.zfam: list[tuple[int, ...]] = []  # each zone family's zones (a per-player family's n zones, in seat order)
        self.zowner: list[int | None] = []
        self.zfamily: list[int] = []
        self.zhidden: list[bool] = []
        self.zprivate: list[bool] = []
        self.cap: list[int | None] = []
        self.capn: list[int] = []  # each zone's capacity, NO_CAP for none: `full(z)` is len(zones[z]) >= capn[z]
        self.all_cards: list[int] = []
        # zones on cards (none in a game without them): each zone's holder card (-1: none), each
        # card-zone family's zone for each card, and the zones a card drops when it moves
        self.zholder: list[int] | None = None
        self.czone: dict | None = None
        self.holds: list | None = None
        # the fast layout (engine/layout.py): each zone kept in card order, or None (no zone is)
        self.zsorted: list[bool] | None = None
        # called at the start of each phase (the interactive flavour) with where the game can be
        # resumed from there: `game.flow(st.copy(), at)` (a search's worlds, bots.py); None: nothing
        self.on_phase: Callable[[tuple], None] | None = None

    def copy(self) -> "State":
        """The game as it stands, to play on apart: what play changes is copied (COPIED), what
        only the initial values set is shared (SHARED), and the copy has no log, no agent and
        nothing counted, as a new state (FRESH)."""
        c = State.__new__(State)
        for name in State.SHARED:
            setattr(c, name, getattr(self, name))
        c.counters = [list(r) for r in self.counters]
        c.vars = [_copied(r) for r in self.vars]
        c.cvars = [_copied(r) for r in self.cvars]
        c.zones = [list(z) for z in self.zones]
        c.loc, c.facedown, c.seen = list(self.loc), list(self.facedown), list(self.seen)
        c.all_cards = list(self.all_cards)
        c.rng = random.Random.__new__(random.Random)  # (unseeded: the state is set from self's)
        c.rng.setstate(self.rng.getstate())
        tu = self.turn_used
        c.turn_used = set(tu) if type(tu) is set else tu  # (a frozenset is never changed)
        c.preset = dict(self.preset) if self.preset is not None else None
        ko = self.known_opts
        c.known_opts = (ko[0], _copied(ko[1])) if ko is not None else None
        c.current, c.next_player, c.round, c.decisions = self.current, self.next_player, self.round, self.decisions
        c.steps, c.step_limit = self.steps, self.step_limit
        c.out = list(self.out)
        c.log = None
        c.why = {}
        c.explain = c.fired = c.agent = c.bot_random = c.bot_count = c.offered = c.views = c.on_phase = None
        c.bot_max = 0
        c.forced = []
        c.deadline = deadline()
        return c

    # ---------------------------------------------------------------- cards
    def move(self, c: int, z: int, top: bool = True, face: str | None = None, me: int | None = None) -> None:
        old = self.loc[c]
        if old >= 0:
            self.leaves(c, old)
        if self.holds is not None and self.holds[c] is not None and old >= 0 and old != z:
            self.drop_held(c, old)
        if old >= 0:
            self.zones[old].remove(c)
        if self.zsorted is not None and self.zsorted[z]:
            bisect.insort(self.zones[z], c)
        elif top:
            self.zones[z].append(c)
        else:
            self.zones[z].insert(0, c)
        self.loc[c] = z
        if face is None:
            hid = self.zhidden
            if hid[z]:
                self.facedown[c] = True
                self.seen[c] = 0
            elif old < 0 or hid[old]:
                self.facedown[c] = False
            elif self.zprivate[z]:  # a face-down card taken into a hand: its owner looks at it
                owner = self.zowner[z]
                assert owner is not None  # (a private zone is a player's)
                self.seen[c] |= 1 << owner
        elif face == "facedown":
            self.facedown[c] = True
            self.seen[c] = (1 << me) if me is not None else 0
        else:
            self.facedown[c] = False

    def leaves(self, c: int, z: int) -> None:
        """Card c is about to leave zone z: what its owner saw stays seen (a face-up card of a
        private zone, given away, is still known to the player it belonged to)."""
        owner = self.zowner[z]
        if owner is not None and self.zprivate[z] and not self.facedown[c]:
            self.seen[c] |= 1 << owner

    def move_everything(self, z: int, face: str | None = None, me: int | None = None) -> None:
        """Every card into zone z, in card order (what moving each card in turn gives)."""
        old = self.loc
        hid = self.zhidden
        fd, seen = self.facedown, self.seen
        for cards in self.zones:
            cards.clear()
        self.zones[z].extend(self.all_cards)
        self.loc = [z] * len(old)
        if face is None and hid[z]:  # into a hidden pile: every card face down, seen by no one
            fd[:] = [True] * len(old)
            seen[:] = [0] * len(old)
            return
        for c, o in enumerate(old):
            if o >= 0:
                self.leaves(c, o)
            if face is None:
                if hid[z]:
                    fd[c] = True
                    seen[c] = 0
                elif o < 0 or hid[o]:
                    fd[c] = False
            elif face == "facedown":
                fd[c] = True
                seen[c] = (1 << me) if me is not None else 0
            else:
                fd[c] = False

    def drop_held(self, c: int, old: int) -> None:
        """Card c leaves zone `old`: the cards on its `drop to` zones go there first."""
        owner = self.zone_owner(old)
        assert self.holds is not None  # (called for a card that holds zones)
        for z, target, span in self.holds[c]:
            if self.zones[z]:
                try:
                    dest = target(self, [owner] + [None] * (self.game.model.max_frame + 1))
                except (TypeError, IndexError, KeyError, AttributeError):  # a none in it: nobody's zone
                    dest = None
                if dest is None:
                    raise GameError(f"the cards on {self.game.card_name[c]} have nowhere to drop ('drop to' is none here)", span)
                for x in list(self.zones[z]):
                    self.move(x, dest)
                    if self.log is not None:
                        self.game.log_move(self, x, z, dest)

    def lands_on_itself(self, c: int, z: int) -> bool:
        """Would card c, moved into zone z, lie on itself (z is on c, or on a card on c...)?"""
        if self.zholder is None:
            return False
        for _ in range(10_000):
            h = self.zholder[z]
            if h < 0:
                return False
            if h == c:
                return True
            z = self.loc[h]
            if z < 0:
                return False
        return True

    def zone_owner(self, z: int) -> int | None:
        """The player a zone belongs to; a zone on a card belongs to the owner of the card's zone."""
        o = self.zowner[z]
        if o is not None or self.zholder is None:
            return o
        for _ in range(64):
            h = self.zholder[z]
            if h < 0:
                return None
            z = self.loc[h]
            if z < 0:
                return None
            o = self.zowner[z]
            if o is not None:
                return o
        return None

    def swap(self, a: int, b: int) -> None:
        za, zb = self.loc[a], self.loc[b]
        if self.holds is not None and za != zb:  # each card leaves its zone: what they drop, drops
            if self.holds[a] is not None:
                self.drop_held(a, za)
            if self.holds[b] is not None:
                self.drop_held(b, zb)
        self.leaves(a, za)
        self.leaves(b, zb)
        la, lb = self.zones[za], self.zones[zb]
        ia, ib = la.index(a), lb.index(b)
        la[ia], lb[ib] = b, a
        self.loc[a], self.loc[b] = zb, za
        if self.zsorted is not None:  # (the fast layout: a zone kept in card order stays so, and only it)
            if self.zsorted[za]:
                la.sort()  # (two of its own cards swapped, too)
            if self.zsorted[zb] and zb != za:
                lb.sort()

    def view(self) -> tuple:
        """What decides who sees which card, as it is now (for `visible(..., view)` later)."""
        return list(self.seen), list(self.facedown), list(self.loc)

    def visible(self, c: int, p: int | None, view: tuple | None = None) -> bool:
        """May player p see which card c is? (p None: the omniscient view.) `view`: as it was
        when `view()` was taken."""
        if p is None:
            return True
        seen, facedown, loc = (self.seen, self.facedown, self.loc) if view is None else view
        if seen[c] >> p & 1:
            return True
        if facedown[c]:
            return False
        z = loc[c]
        if z < 0:
            return True
        v = self.game.zone_vis[self.zfamily[z]]
        if v == "public":
            return True
        if v == "private":
            return self.zowner[z] == p
        return False

    def vis_mask(self, c: int) -> int:
        return sum(1 << p for p in self.players if self.visible(c, p))

    # ---------------------------------------------------------------- data
    def snapshot(self) -> dict:
        """The whole store as JSON-able data (names, not slots)."""
        g = self.game
        return {
            "round": self.round,
            "current": self.current,
            "next_player": self.next_player,
            "counters": {name: list(self.counters[i]) for name, i in g.counter_slots.items()},
            "vars": {name: _jsonable(self.vars[i]) for name, i in g.var_slots.items()},
            "zones": {g._zone_label(z, self.n): [g.card_name[c] for c in cards] for z, cards in enumerate(self.zones)},
            "facedown": [c for c in self.all_cards if self.facedown[c]],
            "rng": _rng_state(self.rng),
            "decisions": self.decisions,
        } | ({"out": list(self.out)} if self.out else {})


def _copied(v):
    """A value with every list in it copied (the values a variable holds may be lists of lists)."""
    if type(v) is list:
        return [_copied(x) if type(x) is list else x for x in v]
    return v


def _jsonable(v):
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


def _rng_state(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]
