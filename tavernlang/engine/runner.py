"""Driving a compiled game: matches, bots, playouts, saving and loading.

A :class:`Match` is one game in progress: at any point it says whose decision
it is and which options are legal; :meth:`Match.apply` advances it to the next
decision. All randomness of the game comes from the RNG in its state, so the
seed and the list of choices fix a game; a save holds both (plus the state, to
verify), and loading replays the choices to resume exactly where it stopped.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import random
import time
from typing import Any

from ..errors import GameError, Span
from . import budget
from .common import MAX_DECISIONS, RULE_FAULTS, _TooLong, located  # noqa: F401  (located is part of the runner's API)
from .compile import CompiledGame, Decision
from .state import State

SAVE_FORMAT = "tavernlang-save/1"
BOT_SALT = 0x5EED




def bot_rng(seed: int) -> random.Random:
    return random.Random(seed * 1_000_003 + BOT_SALT)


def bot_pick(rng: random.Random, k: int) -> int:
    """The random bot's choice among k options (uniform)."""
    return int(rng.random() * k)


class Match:
    def __init__(self, game: CompiledGame, players: int, seed: int, options: dict[str, Any] | None = None,
                 log: bool = True, explain: bool = False):
        if not game.min_players <= players <= game.max_players:
            raise GameError(f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}")
        self.game = game
        self.players = players
        self.seed = seed
        self.options = dict(options or {})
        self.st: State = game.new_state(players, seed, self.options)
        self.st.log = [] if log else None
        if explain and log:  # each gain's terms, for `why N` and --explain (engine/explain.py)
            from .explain import Explainer
            self.st.explain = Explainer(game)
        self.choices: list[int] = []
        # where the game can be resumed from, once keep_restarts() is asked: (a copy of the state
        # where the latest turn, step or phase began, the flow's token for it, the choices before it)
        self.restart: tuple[State, tuple, int] | None = None
        self._gen = game.flow(self.st)
        self.pending: Decision | None = None
        self.result: dict | None = None
        self._left: float = budget.LIMITS["seconds"]  # the engine's time left (the time to decide is not counted)
        self._step(None)

    # ------------------------------------------------------------ driving
    def _step(self, send: int | None) -> None:
        st = self.st
        st.deadline = time.monotonic() + self._left
        try:
            self.pending = next(self._gen) if send is None else self._gen.send(send)
        except RULE_FAULTS as e:
            raise located(e) from None
        except StopIteration:
            self.pending = None
            self.result = self.game.result(self.st)
            if self.st.log is not None:
                r = self.result
                if self.st.explain is not None:
                    self.st.explain.winner(self.st, r)
                self.st.log.append((
                    "game over: " + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(r["scores"])) +
                    "; winner" + ("s " if len(r["winners"]) != 1 else " ") +
                    (", ".join(f"P{p + 1}" for p in r["winners"]) or "none") +
                    ("; out of the game, first out first: " + ", ".join(f"P{p + 1}" for p in r["out"]) if r.get("out") else ""),
                    None, {"type": "end", **r}))
        finally:
            self._left = st.deadline - time.monotonic()

    def keep_restarts(self) -> None:
        """From now on, keep a copy of the state where each turn, step of simultaneous turns and
        phase begins: where the game can be resumed from (`self.restart`, the latest; a search
        bot's worlds start there: `game.flow(copy, token)`, engine/compile.py's flow)."""
        st = self.st

        def mark(at: tuple) -> None:
            self.restart = (st.copy(), at, len(self.choices))
        st.on_phase = mark

    @property
    def over(self) -> bool:
        return self.pending is None

    def to_act(self) -> int | None:
        return None if self.pending is None else self.pending.player

    def legal(self) -> list[str]:
        return [] if self.pending is None else self.pending.labels()

    def apply(self, index: int) -> None:
        d = self.pending
        if d is None:
            raise GameError("the game is over")
        if not 0 <= index < len(d.options):
            raise GameError(f"option {index} is not one of the {len(d.options)} legal options")
        self.choices.append(index)
        self.st.decisions += 1
        if len(self.choices) > MAX_DECISIONS:
            raise GameError(f"the game did not end after {MAX_DECISIONS} decisions (the last one asked here)", d.span)
        self._step(index)

    # ------------------------------------------------------------ views
    def log_lines(self, viewer: int | None = None) -> list[str]:
        """The log as `viewer` may read it (None: the rules' log, no seat's): a line some may not
        read whole reads as they may; a choice's prompt and an action's title read in the third
        person but to the player who made them (Presentation.for_reader)."""
        out = []
        g = self.game
        for text, hidden, data in self.st.log or []:
            if hidden is not None and viewer is not None and not (hidden[0] >> viewer & 1):
                text = hidden[1]
            out.append(g.for_reader(text, data, viewer))
        return out

    def events(self) -> list[dict]:
        """The log as structured data; players are given by seat number (1 = P1), as in results."""
        out = []
        for _, _, data in self.st.log or []:
            if isinstance(data.get("player"), int):
                data = dict(data, player=data["player"] + 1)
            if "winners" in data:
                data = dict(data, winners=[p + 1 for p in data["winners"]])
            out.append(data)
        return out

    def view(self, p: int | None) -> dict:
        """What player p may see (p None: everything)."""
        st, g = self.st, self.game
        zones: dict = {}
        for z, cards in enumerate(st.zones):
            shown = [g.card_label(c, st, p) if st.visible(c, p) else "?" for c in cards]
            if g.zone_vis[st.zfamily[z]] == "hidden" and p is not None:
                shown = sorted(x for x in shown if x != "?") + ["?"] * shown.count("?")
            name = g.zone_key(z, st, p)
            zones[name] = zones.get(name, []) + shown if name in zones else shown
        view = {
            "round": st.round,
            "current": f"P{st.current + 1}",
            "counters": {name: (list(st.counters[i]) if len(st.counters[i]) > 1 or g.model.counters[name].decl.per_player
                                else st.counters[i][0])
                         for name, i in g.counter_slots.items()},
            "zones": zones,
        }
        if self.pending is not None:
            view["to_act"] = f"P{self.pending.player + 1}"
            if p is None or self.pending.player == p:
                view["prompt"] = self.pending.prompt
                view["options"] = self.legal()
        return view

    # ------------------------------------------------------------ saving
    def save(self, rules_path: str, rules_text: bytes | None = None) -> dict:
        data = {
            "format": SAVE_FORMAT,
            "rules": rules_path,
            "rules_sha256": hashlib.sha256(rules_text).hexdigest() if rules_text is not None else None,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "choices": list(self.choices),
            "state_sha256": state_digest(self.st),
        }
        if not self.game.layout.exact:  # (a game of the fast layout, engine/layout.py: it replays only in that layout)
            data["layout"] = "fast"
        return data

    @classmethod
    def load(cls, game: CompiledGame, data: dict, log: bool = True, rules_text: bytes | None = None,
             explain: bool = False) -> "Match":
        """Resume a saved game: replay its choices under the same rules (refused if they changed)."""
        players, seed, choices, options = check_save(game, data)
        saved_exact = data.get("layout") != "fast"
        if saved_exact != game.layout.exact:
            raise GameError("this game was saved in the exact layout: it replays only in that layout" if saved_exact
                            else "this game was saved in the fast layout (tav run --fast): it replays only in that layout")
        want = data.get("rules_sha256")
        if rules_text is not None and want and hashlib.sha256(rules_text).hexdigest() != want:
            raise GameError("the rules file has changed since this game was saved; "
                            "load it with the rules it was played with")
        m = cls(game, players, seed, options, log=log, explain=explain)
        data = dict(data, choices=choices)
        for i in data["choices"]:
            if m.pending is None or not 0 <= i < len(m.pending.options):
                raise GameError("the save does not replay with these rules (were they changed?)")
            m.apply(i)
        if "state" in data:  # (a save that holds the whole state, as saves once did)
            same = json.loads(json.dumps(m.st.snapshot())) == data["state"]
        else:
            same = state_digest(m.st) == data["state_sha256"]
        if not same:
            raise GameError("the saved state differs from the replayed one (were the rules changed?)")
        return m


def state_digest(st: State) -> str:
    """A hash of the whole state: what a save keeps of it to check a replay against. (Never the
    state itself: a save would name every hidden card to whoever reads it.)"""
    return hashlib.sha256(json.dumps(st.snapshot(), sort_keys=True).encode()).hexdigest()


def _whole(v) -> bool:
    return type(v) is int  # (not a bool, not a float such as 1e309 or Infinity)


def check_save(game: CompiledGame, data) -> tuple[int, int, list[int], dict]:
    """A save's fields, each checked against the rules it belongs to: a GameError naming the
    first field that is wrong (a save edited by hand is checked as closely as the rules)."""
    def bad(field, why):
        return GameError(f"the save file is damaged: '{field}' {why}")
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise GameError("not a tavernlang save file")
    for field in ("players", "seed", "choices"):
        if field not in data:
            raise bad(field, "is missing")
    players, seed, choices = data["players"], data["seed"], data["choices"]
    if not _whole(players) or not game.min_players <= players <= game.max_players:
        raise bad("players", f"must be a whole number from {game.min_players} to {game.max_players}, not {players!r:.40}")
    if not _whole(seed) or abs(seed) > 2 ** 63:
        raise bad("seed", f"must be a whole number of at most 2^63, not {seed!r:.40}")
    if not isinstance(choices, list) or not all(_whole(i) and 0 <= i < 1 << 31 for i in choices):
        raise bad("choices", "must be a list of option numbers (whole numbers from 0)")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise bad("options", f"must be a table of option names and values, not {type(options).__name__}")
    for name, v in options.items():
        o = game.model.options.get(name)
        if o is None:
            raise bad("options", f"names '{name:.40}', which is not an option of {game.title}")
        t = o.type
        if t == "bool" and type(v) is not bool:
            raise bad("options", f"gives '{name}' as {v!r:.40}: it is true or false")
        if t == "int" and not _whole(v):
            raise bad("options", f"gives '{name}' as {v!r:.40}: it is a whole number")
        if t.enum is not None and v not in game.model.enums[t.enum]:
            raise bad("options", f"gives '{name}' as {v!r:.40}: it is one of {', '.join(game.model.enums[t.enum])}")
        if t == "str" and not isinstance(v, str):
            raise bad("options", f"gives '{name}' as {v!r:.40}: it is a text")
        low, high = o.decl.low, o.decl.high
        if t == "int" and low is not None and high is not None:
            st = game.new_state(game.min_players, 0)
            lo, hi = game.evaluate(low, st), game.evaluate(high, st)
            if not lo <= v <= hi:
                raise bad("options", f"gives '{name}' as {v}: it is in {lo}..{hi}")
    for field in ("rules_sha256", "state_sha256"):
        v = data.get(field)
        if v is not None and not (isinstance(v, str) and len(v) == 64 and all(ch in "0123456789abcdef" for ch in v)):
            raise bad(field, f"must be a sha256 in hex (64 digits 0-9, a-f), not {v!r:.40}")
    if "state" not in data and "state_sha256" not in data:
        raise bad("state_sha256", "is missing")
    if data.get("layout", "fast") != "fast":
        raise bad("layout", f"must be \"fast\" or left out (the exact layout), not {data['layout']!r:.40}")
    return players, seed, choices, options


def play_inline(game: CompiledGame, st: State, seed: int, players: int) -> None:
    """Play a game whose agent makes every decision inline (st.agent) to its end; whatever stops
    it is a GameError at its place, naming the seed (an agent raises _TooLong past MAX_DECISIONS)."""
    try:
        for _ in game.flow(st):  # pragma: no cover - nothing is yielded with an agent
            raise AssertionError("a decision escaped the agent")
    except _TooLong as e:  # placed at the rules that asked the last decision
        raise GameError(f"the game did not end after {MAX_DECISIONS} decisions (the last one asked here) "
                        f"(seed {seed}, {players} players)", located(e).span) from None
    except RULE_FAULTS as e:
        err = located(e)
        raise GameError(f"{err} (seed {seed}, {players} players)", err.span) from None
    except GameError as e:
        raise GameError(f"{e} (seed {seed}, {players} players)", e.span) from None


def playout(game: CompiledGame, players: int, seed: int, options: dict[str, Any] | None = None,
            fired: dict | None = None) -> dict:
    """One whole game by uniformly random bots, without a log: a playout (the playout flavour's
    code, every decision the bot's, inline)."""
    if fired is None:  # (lint's coverage counts what fires: the interactive flavour counts it)
        game = game.playouts()
    elif game.playout:
        raise ValueError("a playout that counts what fires plays the interactive flavour, not game.playouts()")
    st = game.new_state(players, seed, options)
    st.fired = fired
    # bots decide inline: the game never suspends. The uniform bot is written into the playout
    # flavour's code (int(bot_random() * k), each decision counted by bot_count); st.agent is for
    # a caller's lint coverage run (the interactive flavour) and for other bots (bots.py)
    rnd = bot_rng(seed).random
    counter = itertools.count(1).__next__
    st.bot_random, st.bot_count, st.bot_max = rnd, counter, MAX_DECISIONS

    def agent(player, opts):
        if counter() > MAX_DECISIONS:
            raise _TooLong
        return int(rnd() * len(opts))

    st.agent = agent
    play_inline(game, st, seed, players)
    decisions = counter() - 1
    r = game.result(st)
    r["decisions"] = decisions
    r["forced"] = len(st.forced)  # (decisions with one option, taken without asking: not in "decisions")
    r["layout"] = "exact" if game.layout.exact else "fast"  # (the game a seed replays: tav run [--fast])
    r["rounds"] = st.round
    r["steps"] = st.steps  # the work the game took, against its budget (engine/budget.py)
    r["seed"] = seed
    return r


def play_bots(match: Match, seats: set[int] | None = None, human=None) -> None:
    """Play a match to the end; bots choose at random (seeded from the match seed)."""
    rng = bot_rng(match.seed)
    while not match.over:
        d = match.pending
        assert d is not None  # (a match not over waits on a decision)
        if human is not None and seats is not None and d.player in seats:
            i = human(match)
        else:
            i = bot_pick(rng, len(d.options))
        match.apply(i)
