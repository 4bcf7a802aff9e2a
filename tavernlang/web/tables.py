"""The tables of `tav serve`, without the web: a game, its seats (people and bots), the tokens
that give a page its seat(s), and what each seat may see, as JSON-ready dicts.

Everything a seat reads is made by the functions `tav play` prints (play.py): the view, the
options with their card text, the log for people, `w` and `why N`; a table never sends a seat
anything those functions would not show that seat at the terminal. A save is `tav play`'s
save (the same fields), so `tav play --load` resumes a web table and a web table loads a save
of `tav play`.
"""
from __future__ import annotations

import json
import secrets
import traceback

from ..bots import BotSpecError, Seats, parse_bots
from ..engine.runner import Match
from ..errors import GameError, TavError
from .. import play
from ..options import describe_options

MAX_TABLES = 200  # tables one server keeps at once (each holds a whole game)
KEEP_FINISHED = 50  # finished tables a server keeps (their pages still load); older ones are let go
MAX_SAVE_BYTES = 2_000_000  # an uploaded save
MAX_MESSAGE = 4096  # one message of a page
MAX_MCTS = 20_000  # a web table's mcts iterations (a lobby is open to whoever reaches the server)


class WebError(Exception):
    """A request that cannot be done (a wrong token, a stale decision, a damaged save): its
    message is sent back to the page, and the table goes on."""


def game_info(game) -> dict:
    """The game as the lobby offers it: its name, player counts and options, each with its type,
    default, range or values and description (the fields of `tav info --json`)."""
    opts = describe_options(game)
    return {"name": game.title, "players": {"min": game.min_players, "max": game.max_players},
            "options": opts, "seat_kinds": ["human", "random", "greedy", "mcts:N"]}


def parse_seats(seats, players: int) -> tuple[set[int], list[tuple[str, int]]]:
    """The lobby's seats ("human", "random", "greedy", "mcts:N", one per seat) -> the people's
    seats and the bots of every seat (a person's seat: 'random', never asked)."""
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise WebError(f"give one seat kind per player ({players}): human, random, greedy or mcts:N")
    humans = {p for p, s in enumerate(seats) if s.strip().lower() == "human"}
    try:
        bots = parse_bots(",".join("random" if p in humans else s for p, s in enumerate(seats)), players)
    except BotSpecError as e:
        raise WebError(str(e)) from None
    if any(k == "mcts" and n > MAX_MCTS for k, n in bots):
        raise WebError(f"a web table's mcts bots search at most {MAX_MCTS} iterations")
    return humans, bots


def _bots_spec(bots) -> str:
    from ..bots import describe
    return ",".join(describe([b]) for b in bots)


def _option_value(game, name: str, value):
    """An option's value from the lobby, checked as `-o NAME=VALUE` is (options.py)."""
    import click
    from ..options import parse_options
    raw = "true" if value is True else "false" if value is False else str(value)
    try:
        return parse_options(game, (f"{name}={raw}",))[name]
    except click.BadParameter as e:
        raise WebError(e.message) from None


class Table:
    """One game at one table: its match, who plays each seat, and the tokens of its pages."""

    def __init__(self, server, tid: str, match: Match, humans: set[int], bots, hotseat: bool):
        self.server, self.id, self.match = server, tid, match
        self.humans, self.bots, self.hotseat = set(humans), bots, hotseat
        self.seats = Seats(bots, match.seed)
        self.error: str | None = None  # what stopped the table (a rules error, a fault of the server)
        self.version = 0  # grows with every change: a page's state says which it shows
        self.tokens: dict[str, frozenset[int]] = {}
        self.active = min(self.humans) if self.humans else None  # hot seat: the person at the screen
        if hotseat and self.humans:
            self.tokens[secrets.token_urlsafe(18)] = frozenset(self.humans)
        else:
            for p in sorted(self.humans):
                self.tokens[secrets.token_urlsafe(18)] = frozenset({p})
        self._public = None  # (version, the public view's lines)
        self.undos: list = []  # hot seat: at each person's decision, (decisions before it, the bots' RNG states)
        self.epoch = 0  # grows when the game is played again from an earlier point (undo): pages get the whole log
        self.watch_token = secrets.token_urlsafe(18)  # the public view (a bots-only table is watched)
        self.tokens[self.watch_token] = frozenset()
        self.ended: int | None = None  # the server's count of finished tables when this one finished

    def _mark_end(self) -> None:
        """Note whether the table has finished (its game over, or stopped by an error): a
        finished table is numbered in the order tables finish; one played on again (an undo)
        is not finished."""
        if self.error is None and not self.match.over:
            self.ended = None
        elif self.ended is None:
            self.ended = self.server.finish_count = self.server.finish_count + 1

    # ------------------------------------------------------------ playing
    @property
    def decision_id(self) -> int | None:
        """The pending decision's number: the decisions made before it."""
        return None if self.match.over else len(self.match.choices)

    def bot_to_move(self) -> bool:
        m = self.match
        return self.error is None and not m.over and m.pending.player not in self.humans

    def _guard(self, fn):
        """Run a step of the game; a fault of the rules or of the server stops this table only,
        with the message (and the rules place, where there is one) shown on it."""
        try:
            fn()
        except GameError as e:
            self.error = e.diagnostic().render(self.match.game.model.sources)
        except TavError as e:
            self.error = e.render()
        except RecursionError:
            self.error = "error: the rules nest too deeply to run"
        except Exception as e:  # a fault of the server: on this table, never the whole server
            self.error = f"internal error: {type(e).__name__}: {e}"
            self.server.log_fault(self, traceback.format_exc())
        self.version += 1
        self._mark_end()

    def bot_step(self) -> None:
        """One bot decision (the caller waits --bot-delay before it)."""
        if not self.bot_to_move():
            return
        m = self.match
        self._guard(lambda: m.apply(self.seats.choose(m)))

    def choose(self, seats: frozenset[int], decision, option) -> None:
        """A person's pick: option number `option` (1 = the first, as `tav play` numbers them) of
        decision `decision` (its id from the state the page shows)."""
        m = self.match
        if self.error is not None:
            raise WebError("this table has stopped: " + self.error.splitlines()[0])
        if m.over:
            raise WebError("the game is over")
        if type(decision) is not int or type(option) is not int:
            raise WebError("a choice needs a decision id and an option number (whole numbers)")
        if decision != self.decision_id:
            raise WebError(f"decision {decision} is no longer open (the table is at decision {self.decision_id}): "
                           "the page now shows the current one")
        if m.pending.player not in seats:
            raise WebError(f"it is P{m.pending.player + 1}'s decision, not yours")
        if not 1 <= option <= len(m.pending.options):
            raise WebError(f"there is no option {option} (1 to {len(m.pending.options)})")
        if self.hotseat:
            self.undos.append((len(m.choices), self.seats.random.getstate(),
                               {p: b.rng.getstate() for p, b in self.seats.search.items()}))
        self._guard(lambda: m.apply(option - 1))

    def undo(self, seats: frozenset[int]) -> None:
        """Hot seat only: back to the last person's decision before this one, as `tav play`'s `u`
        (the game played again without it; the bots choose as before)."""
        if not self.hotseat or not seats:
            raise WebError("undo is for hot-seat tables only")
        if not self.undos:
            raise WebError("nothing to undo (no decision has been made at this table since it was opened)")
        k, bot_state, search_states = self.undos.pop()

        def back():
            self.match = play._replay(self.match, k)
            self.seats.random.setstate(bot_state)
            for p, b in self.seats.search.items():
                b.rng.setstate(search_states[p])
            self.error = None
        self._guard(back)
        self.epoch += 1

    # ------------------------------------------------------------ what a page sees
    def seat_for(self, seats: frozenset[int]) -> int | None:
        """The seat whose eyes a page looks through: its own; at a hot-seat table, the person
        whose decision it is (else the last one who decided); None: the public view."""
        if not seats:
            return None
        if len(seats) == 1:
            return next(iter(seats))
        m = self.match
        if not m.over and m.pending.player in seats:
            self.active = m.pending.player
        return self.active if self.active in seats else min(seats)

    def state(self, seats: frozenset[int], log_from: int = 0) -> dict:
        """Everything the page of these seats shows now: only what its seat may see (a fault
        while making it stops the table, and the page shows that)."""
        try:
            return self._state(seats, log_from)
        except Exception as e:
            self.error = f"internal error: {type(e).__name__}: {e}"
            self.server.log_fault(self, traceback.format_exc())
            return {"type": "state", "table": self.id, "version": self.version, "title": self.match.game.title,
                    "error": self.error, "seat": None, "players": self.match.players, "view": [], "cards": {},
                    "log": [], "decision": None, "result": None, "to_act": None, "decision_id": None, "hotseat": self.hotseat,
                    "humans": sorted(p + 1 for p in self.humans), "who": [], "round": None, "phase": None,
                    "seed": self.match.seed if self.seed_shown() else None, "save": False}

    def _state(self, seats: frozenset[int], log_from: int) -> dict:
        m, g = self.match, self.match.game
        seat = self.seat_for(seats)
        out = {"type": "state", "table": self.id, "version": self.version, "title": g.title,
               "players": m.players, "seed": m.seed if self.seed_shown() else None, "hotseat": self.hotseat,
               "save": bool(seats) and self.save_refused() is None,
               "seat": None if seat is None else seat + 1, "undo": self.hotseat and bool(self.undos),
               "humans": sorted(p + 1 for p in self.humans),
               "who": [("person" if p in self.humans else _bots_spec([b])) for p, b in enumerate(self.bots)],
               "error": self.error, "round": m.st.round}
        out["phase"] = next((text for text, _, data in reversed(m.st.log or []) if data.get("type") == "phase"), None)
        viewer = self.viewer(seat)
        if seat is not None:
            out["view"] = play.view_lines(m, viewer)
        else:  # (the same for every watcher: made once a change)
            if self._public is None or self._public[0] != self.version:
                self._public = (self.version, _public_view(m))
            out["view"] = self._public[1]
        out["cards"] = _card_texts(m, viewer)
        kinds = [data.get("type") for _, _, data in (m.st.log or [])[log_from:]]
        out["log_start"] = log_from  # (the log from line log_from + 1 on: a page has the lines before)
        out["log"] = [{"n": i, "text": line, "notes": [n.strip() for n in notes], "kind": kinds[i - 1 - log_from]}
                      for i, (line, notes) in enumerate(play.log_entries(m, viewer, log_from), log_from + 1)]
        out["to_act"] = None if m.over else m.pending.player + 1
        out["decision_id"] = self.decision_id
        out["decision"] = None
        if not m.over and seat is not None and m.pending.player == seat and self.error is None:
            opts = []
            for line in play._option_lines(m, seat):
                head, _, text = line.strip().partition(". ")[2].partition(" — ")
                opts.append({"label": head, "text": text})
            out["decision"] = {"id": self.decision_id, "prompt": m.pending.prompt, "options": opts}
        out["result"] = None
        if m.over:
            r = m.result
            out["result"] = {"scores": list(r["scores"]), "winners": [p + 1 for p in r["winners"]],
                             "why": _winner_lines(m, viewer)}
        return out

    def viewer(self, seat: int | None) -> int:
        """The seat number to look through: a seat, or for the public view one past the last
        seat (a player who holds nothing and is shown nothing hidden)."""
        return self.match.players if seat is None else seat

    def why(self, seats: frozenset[int], n) -> dict:
        seat = self.seat_for(seats)
        if type(n) is not int:
            raise WebError("'why' needs a log line number")
        return {"type": "why", "line": n, "lines": play.explain(self.match, self.viewer(seat), n)}

    def why_not(self, seats: frozenset[int]) -> dict:
        """`w`: the actions not offered to the seat now, each with its first failed requirement."""
        seat, m = self.seat_for(seats), self.match
        if seat is None or m.over or m.pending.player != seat:
            raise WebError("'why not' answers at your own decision")
        return {"type": "why_not", "text": play._why_lines(m, seat)}

    def card(self, seats: frozenset[int], name) -> dict:
        seat = self.seat_for(seats)
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise WebError("'card' needs a card's name or an option's number")
        return {"type": "card", "name": name, "text": play._card_info(self.match, self.viewer(seat), name.strip())}

    # ------------------------------------------------------------ the seed
    def seed_shown(self) -> bool:
        """Whether a page is told the seed: from the seed and the rules every shuffle can be
        worked out, so while the game is on only a table of one person (its own game against
        bots) shows it."""
        return self.match.over or len(self.humans) <= 1

    def save_refused(self) -> str | None:
        """Why a seat's page may not download the save now (None: it may). A save holds the
        seed: at a table of people on separate pages, it is theirs when the game is over."""
        if len(self.humans) > 1 and not self.hotseat and not self.match.over:
            return ("a save holds the seed, from which the other seats' hidden cards can be worked out: "
                    "at a table of several people it can be downloaded when the game is over")
        return None

    # ------------------------------------------------------------ saving
    def save(self) -> dict:
        """`tav play`'s save of this table: rules, seed, choices, the people's seats, the bots."""
        m = self.match
        data = m.save(self.server.file, self.server.rules_bytes)
        data["seat"] = min(self.humans) + 1 if self.humans else 1
        data["seats"] = sorted(p + 1 for p in self.humans)
        data["bot_rng"] = play._rng_to_json(self.seats.random)
        data["bots"] = _bots_spec(self.bots)
        data["search_rng"] = {str(p): play._rng_to_json(b.rng) for p, b in self.seats.search.items()}
        data["hotseat"] = self.hotseat
        return data


class ReplayTable(Table):
    """A saved game replayed, read-only: its match is the game replayed from the seed to step k
    (the save's first k choices), k from 0 to the number of choices. No seat decides; a page
    chooses whose eyes it looks through (a seat, or the public view) and which step it shows."""

    def __init__(self, server, tid: str, saved: Match, bots, people: set[int]):
        super().__init__(server, tid, replay_to(saved, 0), set(), bots, False)
        self.saved, self.people = saved, set(people)  # (the seats people played: shown, never asked)
        self.step = 0

    def view_as(self, seat) -> frozenset[int]:
        """The seats of a page that looks through seat `seat` (1 to players; 0 or None: the public view)."""
        if seat is None or (type(seat) is int and seat == 0):
            return frozenset()
        if type(seat) is not int or not 1 <= seat <= self.match.players:
            raise WebError(f"a seat is a number from 1 to {self.match.players} (0 or null: the public view)")
        return frozenset({seat - 1})

    @property
    def steps(self) -> int:
        return len(self.saved.choices)

    def bot_to_move(self) -> bool:
        return False  # (nobody moves at a replay: its steps are the save's)

    def _mark_end(self) -> None:
        self.ended = None  # (a replay is read, never finished: the server keeps it)

    def choose(self, seats, decision, option) -> None:
        raise WebError("this is a replay: no decision can be made (step forward or back)")

    def undo(self, seats) -> None:
        raise WebError("this is a replay: step back instead of undo")

    def goto(self, k) -> None:
        """To step k: forward by the save's next choices, back by replaying from the seed."""
        if type(k) is not int:
            raise WebError("a step is a whole number")
        if not 0 <= k <= self.steps:
            raise WebError(f"there is no step {k} (0 to {self.steps})")
        if k == self.step:
            return
        if k < self.step:
            def back():
                self.match = replay_to(self.saved, k)
            self._guard(back)
            self.epoch += 1  # (pages get the whole log of step k)
        else:
            m = self.match
            self._guard(lambda: [m.apply(i) for i in self.saved.choices[self.step:k]])
        self.step = len(self.match.choices)  # (k, but where a fault stopped the replay)

    def _state(self, seats: frozenset[int], log_from: int) -> dict:
        out = super()._state(seats, log_from)
        out["decision"] = None
        out["replay"] = {"step": self.step, "steps": self.steps}
        out["humans"] = sorted(p + 1 for p in self.people)
        out["who"] = [("person" if p in self.people else _bots_spec([b])) for p, b in enumerate(self.bots)]
        return out


def replay_to(saved: Match, k: int) -> Match:
    """A new match of the saved game with its first k choices made."""
    m = Match(saved.game, saved.players, saved.seed, saved.options, explain=True)
    for i in saved.choices[:k]:
        m.apply(i)
    return m


def _public_view(m: Match) -> list[str]:
    """The table as nobody in particular sees it (`Match.view` of no seat): counters, then each
    non-empty zone with the cards every seat may see, identical cards counted."""
    v = m.view(m.players)
    out = [f"-- round {v['round']} --"]
    for name, val in v["counters"].items():
        vals = ", ".join(f"P{p + 1} {x}" for p, x in enumerate(val)) if isinstance(val, list) else str(val)
        out.append(f"  {name.replace('_', ' ')}: {vals}")
    for zone, cards in v["zones"].items():
        if not cards:
            continue
        seen = [c for c in cards if c != "?"]
        hidden = len(cards) - len(seen)
        parts = ([play._counted(seen)] if seen else []) + (
            [f"{hidden} face-down card" + ("s" if hidden != 1 else "")] if hidden else [])
        out.append(f"    {zone}: " + ", ".join(parts))
    return out


def _card_texts(m: Match, seat: int) -> dict:
    """The text of each card the seat may see now, by its label (a page shows it on hover)."""
    g, st = m.game, m.st
    out = {}
    for c in range(g.ncards):
        if st.loc[c] < 0 or not st.visible(c, seat):
            continue
        label = g.card_label(c, st, seat)
        if label not in out:
            text = g.card_text(c, st, seat)
            if text:
                out[label] = text
    return out


def _winner_lines(m: Match, seat: int) -> list[str]:
    from ..engine.explain import tree
    if m.st.explain is None or not m.st.log:
        return []
    return tree(m.st.explain.found.get(len(m.st.log) - 1), seat)


class Server:
    """The tables of one rules file."""

    def __init__(self, game, file: str, fixed_options: dict | None = None):
        self.game, self.file = game, file
        self.rules_bytes = game.model.sources.all_text()
        self.fixed = dict(fixed_options or {})  # `tav serve -o`: the lobby's defaults
        self.tables: dict[str, Table] = {}
        self.by_token: dict[str, tuple[Table, frozenset[int]]] = {}
        self.faults: list[str] = []  # the last faults of the server, with their tracebacks
        self.report = None  # a callable given each fault's text (`tav serve` prints it)
        self.keep_finished = KEEP_FINISHED
        self.finish_count = 0  # tables finished so far (orders them: the first finished goes first)
        self.on_drop: list = []  # callables given each table the server lets go (the web side forgets it)

    def log_fault(self, table, text: str) -> None:
        self.faults.append(f"table {table.id}:\n{text}")
        del self.faults[:-20]
        if self.report is not None:
            self.report(self.faults[-1])

    def info(self) -> dict:
        data = game_info(self.game)
        for name, v in self.fixed.items():
            data["options"][name]["default"] = v
        return data

    def lookup(self, token) -> tuple[Table, frozenset[int]]:
        hit = self.by_token.get(token) if isinstance(token, str) else None
        if hit is None:
            raise WebError("no table has this link (a wrong or old token)")
        return hit

    def _add(self, match: Match, humans: set[int], bots, hotseat: bool) -> Table:
        return self._register(lambda tid: Table(self, tid, match, humans, bots, hotseat))

    def _register(self, make) -> Table:
        """A new table, make(its id), with its tokens known to the server (finished tables past
        `keep_finished`, or past MAX_TABLES with this one, are let go first: the first finished first)."""
        self._let_go_finished(1)
        if len(self.tables) >= MAX_TABLES:
            raise WebError(f"this server has {MAX_TABLES} tables already")
        tid = secrets.token_hex(4)
        while tid in self.tables:
            tid = secrets.token_hex(4)
        t = make(tid)
        t._mark_end()
        self.tables[tid] = t
        for tok, seats in t.tokens.items():
            self.by_token[tok] = (t, seats)
        return t

    def _let_go_finished(self, coming: int) -> None:
        """Drop the finished tables past `keep_finished`, and as many more as there must be room
        for `coming` new ones within MAX_TABLES (live tables are never dropped)."""
        finished = sorted((t for t in self.tables.values() if t.ended is not None), key=lambda t: t.ended)
        extra = max(len(finished) - self.keep_finished, len(self.tables) + coming - MAX_TABLES)
        for t in finished[:max(0, extra)]:
            self.drop(t)

    def create(self, req) -> Table:
        """A new table from the lobby's form: players, options, seats, seed, hot seat."""
        if not isinstance(req, dict):
            raise WebError("a new table needs a JSON object")
        g = self.game
        players = req.get("players")
        if type(players) is not int or not g.min_players <= players <= g.max_players:
            raise WebError(f"{g.title} is for {g.min_players} to {g.max_players} players")
        seed = req.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if type(seed) is not int or not 0 <= seed < 2 ** 63:
            raise WebError("the seed must be a whole number from 0 (or left out: a random one)")
        opts = dict(self.fixed)
        given = req.get("options") or {}
        if not isinstance(given, dict):
            raise WebError("options must be an object of NAME: VALUE")
        for name, value in given.items():
            if not isinstance(name, str) or name not in g.model.options:
                raise WebError(f"unknown option {str(name)[:60]!r}")
            opts[name] = _option_value(g, name, value)
        humans, bots = parse_seats(req.get("seats"), players)
        m = _guarded_match(lambda: Match(g, players, seed, opts, explain=True))
        return self._add(m, humans, bots, bool(req.get("hotseat")) and len(humans) > 1)

    def _loaded(self, body: bytes) -> tuple[dict, Match]:
        """A save's JSON and its game replayed, checked as `tav play --load` checks one."""
        if len(body) > MAX_SAVE_BYTES:
            raise WebError(f"the save is larger than {MAX_SAVE_BYTES} bytes")
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise WebError(f"the save is not JSON: {e}") from None
        if not isinstance(data, dict):
            raise WebError("the save file is damaged: not a JSON object")
        g = self.game
        try:
            m = Match.load(g, data, rules_text=self.rules_bytes, explain=True)
        except GameError as e:
            where = data.get("rules")
            if isinstance(where, str) and where != self.file and "rules" in str(e):
                raise WebError(f"{e} (this save belongs to {where:.200}, not {self.file})") from None
            raise WebError(str(e)) from None
        except RecursionError:
            raise WebError("the save does not replay: the rules nest too deeply") from None
        return data, m

    def _saved_bots(self, data: dict, m: Match):
        spec = data.get("bots")
        if spec is not None and not isinstance(spec, str):
            raise WebError("the save file is damaged: 'bots' must be a --bots text")
        try:
            return parse_bots(spec, m.players)
        except BotSpecError as e:
            raise WebError(f"the save file is damaged: 'bots': {e}") from None

    def replay_record(self, rec: dict) -> ReplayTable:
        """A read-only table replaying one game of a `--games-out` record (`tav sim`, `compare`,
        `report`): played again from its seed with its options and bots, in the layout it was
        played in, and checked to end as the record says."""
        from ..bots import all_random, play_match
        from ..engine.compile import CompiledGame
        from ..engine.layout import layout_for
        from ..engine.runner import play_bots

        try:
            seed, scores = rec["seed"], rec["scores"]
            options = dict(rec.get("options") or {})
            players = len(scores)
            bots = parse_bots(rec.get("bots") or None, players)
        except (KeyError, TypeError, ValueError, BotSpecError) as e:
            raise WebError(f"the record is damaged: {e}") from None
        if type(seed) is not int:
            raise WebError("the record is damaged: 'seed' must be a whole number")
        layouts = {"fast": [False], "exact": [True]}.get(rec.get("layout"), [False, True])
        want = (rec.get("winners"), scores, rec.get("rounds"), rec.get("decisions"))
        for exact in layouts:
            g = self.game if self.game.layout.exact == exact else CompiledGame(self.game.model, layout=layout_for(self.game.model, exact))
            try:
                m = Match(g, players, seed, options, explain=True)
                if all_random(bots):
                    play_bots(m)
                else:
                    play_match(m, bots)
            except (GameError, ValueError, TypeError) as e:
                raise WebError(f"the game of seed {seed} does not replay: {e}") from None
            r = m.result
            if ([p + 1 for p in r["winners"]], list(r["scores"]), m.st.round, len(m.choices)) == \
                    (want[0], list(want[1]), want[2], want[3]):
                return self._register(lambda tid: _guarded_table(lambda: ReplayTable(self, tid, m, bots, set())))
        raise WebError(f"the game of seed {seed} does not end as the record says (other rules, options or "
                       "bots than the run that wrote it?)")

    def replay(self, body: bytes) -> ReplayTable:
        """A read-only table replaying a save (checked as `tav play --load` checks one), at step 0."""
        data, saved = self._loaded(body)
        people = data.get("seats") or [data.get("seat", 1)]
        if not (isinstance(people, list) and people and all(type(k) is int and 1 <= k <= saved.players for k in people)):
            raise WebError(f"the save file is damaged: 'seats' must be seats from 1 to {saved.players}")
        bots = self._saved_bots(data, saved)
        return self._register(lambda tid: _guarded_table(lambda: ReplayTable(self, tid, saved, bots,
                                                                             {k - 1 for k in people})))

    def load(self, body: bytes, hotseat: bool = False) -> Table:
        """A table from an uploaded save, checked as `tav play --load` checks one."""
        data, m = self._loaded(body)
        saved = data.get("seats") or [data.get("seat", 1)]
        if not (isinstance(saved, list) and saved and all(type(k) is int and 1 <= k <= m.players for k in saved)):
            raise WebError(f"the save file is damaged: 'seats' must be seats from 1 to {m.players}")
        humans = {k - 1 for k in saved}
        bots = self._saved_bots(data, m)
        hot = data.get("hotseat", hotseat)
        if type(hot) is not bool:
            raise WebError(f"the save file is damaged: 'hotseat' must be true or false, not {hot!r:.40}")
        t = self._add(m, humans, bots, hot and len(humans) > 1)
        try:
            if "bot_rng" in data:
                play._rng_from_json(t.seats.random, data["bot_rng"])
            rngs = data.get("search_rng") or {}
            if not isinstance(rngs, dict):
                raise TypeError
            for k, st in rngs.items():
                if int(k) in t.seats.search:
                    play._rng_from_json(t.seats.search[int(k)].rng, st)
        except (TypeError, ValueError, IndexError, KeyError, OverflowError):
            self.drop(t)
            raise WebError("the save file is damaged: 'bot_rng' or 'search_rng' is not the state of a random generator") from None
        return t

    def drop(self, t: Table) -> None:
        self.tables.pop(t.id, None)
        for tok in t.tokens:
            self.by_token.pop(tok, None)
        for forget in self.on_drop:
            forget(t)

    def links(self, t: Table) -> dict:
        seats = []
        for tok, s in t.tokens.items():
            if s:
                seats.append({"seats": sorted(p + 1 for p in s), "url": f"/t/{tok}"})
        return {"table": t.id, "seed": t.match.seed, "players": t.match.players, "hotseat": t.hotseat,
                "links": seats, "watch": f"/t/{t.watch_token}"}


def _guarded_match(make) -> Match:
    """A new match; a rules error while setting it up is the request's error."""
    try:
        return make()
    except GameError as e:
        raise WebError(str(e)) from None


def _guarded_table(make) -> ReplayTable:
    """A new replay table; a rules error while replaying its step 0 is the request's error."""
    try:
        return make()
    except GameError as e:
        raise WebError(str(e)) from None
