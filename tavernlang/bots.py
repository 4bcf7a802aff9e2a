"""Bots that play a seat: `random`, `greedy`, `mcts[:ITERATIONS][:rollout=P][:depth=D]` and
`lookahead[:SAMPLES][:until=H]` (`--bots` on run, play, sim, compare, report and lint --simulate;
parse_bot reads one, docs/balance.md tells them).

- ``random`` is the engine's uniform bot: every random seat draws from the one RNG the engine's
  playouts use (``bot_rng(seed)``), so ``--bots random`` plays exactly the games it always did.
- ``greedy`` tries each option and keeps the one after which (up to the next decision of anyone)
  the game's own winner key says the chooser stands best: its first key minus the best of the
  others', then its own keys; ties are broken at random.
- ``mcts:N`` is single-observer information-set Monte Carlo tree search with determinization:
  each of its N iterations samples a world consistent with what the chooser may see (the cards
  it cannot see dealt again at random, kind by kind, among the places it cannot see; the game's
  RNG replaced by one drawn from the bot's own, so chance is sampled, not read from the seed),
  walks one tree shared by all the worlds (UCB1 with availability counts), plays the rest of the
  game out (at random, or by a policy learned in the search: `rollout=mast|greedy`; cut after D
  decisions with `depth=D`, the winner rules read there) and backs up who won and whom each
  player outscored. It keeps the subtree under the option it took for its seat's next decision
  when nothing was learned in between (Searcher._kept_tree).
- ``lookahead:K`` takes each option in K sampled worlds and plays the rest of the round (phase,
  game: `until`) at random; the option after which the chooser stands best on average wins.
- A decision with one option is never searched.

A search needs copies of the game at the decision. A game in progress is a chain of Python
generators, which cannot be copied, so a copy starts where the game can be resumed from: the
interactive flavour hands `st.on_phase` a token at the start of each phase, turn and step of
simultaneous turns, and `game.flow(copy, token)` plays on from a `State.copy()` taken there
(the games here keep the latest: `drive`, `Match.keep_restarts`). A world copies it, replays the
choices made since with an inline agent (the `tav sim` fast path, no log; from the seed when the
decision came before any phase), then changes the replayed State in place at the decision (the
determinization). An iteration costs the few decisions of the turn so far and the random playout
from the decision to the end (benchmarks/bench_search.py counts them).

Every bot's randomness comes from its own RNG seeded from the game's seed and its seat: the same
seed and bots give the same game. This module is a tool above the engine: it drives compiled
games through the runner's public API and reads the State; the engine knows nothing of it.
"""
from __future__ import annotations

import math
import random
import sys
import time
from typing import Any

from .check.model import ANY, LocalRef, as_type
from .engine.common import ENV, HELD_CARDS, HELD_PREFIX, RULE_FAULTS, SECRET_PICKS, frame_spans, located
from .syntax import ast as A
from .engine import runner
from .engine.runner import Match, _TooLong, bot_pick, bot_rng, play_inline, playout
from .errors import GameError

KINDS = ("random", "greedy", "mcts", "lookahead")
DEFAULT_ITERATIONS = 100
DEFAULT_SAMPLES = 4  # lookahead's samples of the rest of the round, per option
MAX_ITERATIONS = 1_000_000
MAX_DEPTH = 1_000_000
UCB_C = 0.7  # exploration constant for rewards in [0, 1]
ROLLOUT_EPSILON = 0.2  # a `rollout=mast` or `greedy` playout takes a random option this often
SEARCH_SALT = 0xB07
ROLLOUTS = ("random", "mast", "greedy")
HORIZONS = ("round", "phase", "end")
SPEC_HELP = ("the bots are random, greedy, mcts[:ITERATIONS][:rollout=random|mast|greedy][:depth=D] and "
             "lookahead[:SAMPLES][:until=round|phase|end]")


class BotSpecError(ValueError):
    """A `--bots` value that names no bot (a usage error)."""


class Bot(tuple):
    """One seat's bot as `--bots` names it: the pair (kind, n) (n: mcts's iterations, lookahead's
    samples, else 0), with a search's settings as attributes: `rollout` (how an MCTS playout
    chooses), `depth` (an MCTS playout cut after this many decisions, None: played to the end)
    and `until` (how far lookahead plays each option out). `str(bot)` is its `--bots` text."""

    def __new__(cls, kind: str, n: int = 0, rollout: str = "random", depth: int | None = None,
                until: str = "round"):
        self = tuple.__new__(cls, (kind, n))
        self.rollout, self.depth, self.until = rollout, depth, until
        return self

    def __getnewargs__(self):  # (pickled to worker processes whole)
        return (self[0], self[1], self.rollout, self.depth, self.until)

    def _settings(self) -> tuple:
        return (self.rollout, self.depth, self.until)

    def __eq__(self, other):
        if isinstance(other, Bot):
            return tuple.__eq__(self, other) and self._settings() == other._settings()
        return tuple.__eq__(self, other) and self._settings() == ("random", None, "round")

    def __ne__(self, other):
        return not self == other

    def __hash__(self):  # (the pair's: a Bot with the default settings equals its pair)
        return tuple.__hash__(self)

    def __str__(self) -> str:
        kind, n = self
        if kind == "mcts":
            return f"mcts:{n}" + (f":rollout={self.rollout}" if self.rollout != "random" else "") + (
                f":depth={self.depth}" if self.depth is not None else "")
        if kind == "lookahead":
            return f"lookahead:{n}" + (f":until={self.until}" if self.until != "round" else "")
        return kind


def _whole(s: str, text: str, what: str, most: int) -> int:
    try:
        n = int(text)
    except ValueError:
        raise BotSpecError(f"'{s}': {what} is a whole number") from None
    if not 1 <= n <= most:
        raise BotSpecError(f"'{s}': {what} is 1 to {most}")
    return n


def parse_bot(s: str) -> Bot:
    """One bot's `--bots` text: `random`, `greedy`, `mcts[:N][:rollout=P][:depth=D]` or
    `lookahead[:K][:until=H]` (the settings in any order, each at most once)."""
    name, *args = [a.strip() for a in s.split(":")]
    name = name.lower()
    if name not in KINDS:
        raise BotSpecError(f"unknown bot '{s}': {SPEC_HELP}")
    if name in ("random", "greedy"):
        if args:
            raise BotSpecError(f"'{s}': {name} takes no ':' argument")
        return Bot(name)
    keys = {"mcts": ("rollout", "depth"), "lookahead": ("until",)}[name]
    n = DEFAULT_ITERATIONS if name == "mcts" else DEFAULT_SAMPLES
    what = "mcts's iterations" if name == "mcts" else "lookahead's samples"
    got: dict[str, str] = {}
    for i, a in enumerate(args):
        key, eq, val = a.partition("=")
        key, val = key.strip().lower(), val.strip().lower()
        if not eq:
            if i != 0:
                raise BotSpecError(f"'{s}': {what} come first ({name}:{n}:{keys[0]}=...)")
            n = _whole(s, a, what, MAX_ITERATIONS)
            continue
        if key not in keys:
            raise BotSpecError(f"'{s}': {name} has no setting '{key}' (its settings: {', '.join(keys)})")
        if key in got:
            raise BotSpecError(f"'{s}': '{key}' is given twice")
        got[key] = val
    if name == "lookahead":
        until = got.get("until", "round")
        if until not in HORIZONS:
            raise BotSpecError(f"'{s}': until is one of {', '.join(HORIZONS)}")
        return Bot(name, n, until=until)
    rollout = got.get("rollout", "random")
    if rollout not in ROLLOUTS:
        raise BotSpecError(f"'{s}': rollout is one of {', '.join(ROLLOUTS)}")
    depth = _whole(s, got["depth"], "depth", MAX_DEPTH) if "depth" in got else None
    return Bot(name, n, rollout=rollout, depth=depth)


def parse_bots(spec: str | None, players: int) -> list[Bot]:
    """`random`, `greedy`, `mcts[...]`, `lookahead[...]` (parse_bot), or a comma list of them,
    one per seat -> one Bot per seat (each the pair (kind, n) with its settings)."""
    if spec is None or spec.strip() == "":
        return [Bot("random")] * players
    out = [parse_bot(s.strip()) for s in spec.split(",")]
    if len(out) == 1:
        return out * players
    if len(out) != players:
        raise BotSpecError(f"{len(out)} bots given for {players} players: give one for all seats or one per seat")
    return out


def describe(bots) -> str:
    """The `--bots` text of these bots: one name when every seat has the same bot."""
    names = [str(b) if isinstance(b, Bot) else str(Bot(*b)) for b in bots]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def all_random(bots: list[tuple[str, int]] | None) -> bool:
    return bots is None or all(k == "random" for k, _ in bots)


def rotate(bots: list[tuple[str, int]], k: int) -> list[tuple[str, int]]:
    """The bots moved k seats on (seat-rotated runs: each bot plays every seat in turn)."""
    k %= len(bots)
    return bots[-k:] + bots[:-k] if k else list(bots)


# ------------------------------------------------------------------ determinization
def _holders(st) -> set[int]:
    """Cards that carry zones of cards (left where they are: their zones go with them)."""
    if st.czone is None:
        return set()
    return {c for row in st.czone.values() for c, z in enumerate(row) if z >= 0}


def determinize(st, p: int, rng: random.Random) -> dict[int, int]:
    """Deal the cards player p cannot see again at random among the places p cannot see, kind by
    kind, in place; returns the map old card -> the card now lying where it lay.

    The places and the cards are taken in a canonical order (zone, position; card number), so two
    states that differ only in what p cannot see give the same world for the same RNG. A card's
    face (face down, who has looked at it) belongs to its place and stays there."""
    g = st.game
    # (what each player knows, st.seen, is kept by the interactive flavour only: a search needs it)
    assert not g.playout, "a search plays the interactive flavour of a game, not game.playouts()"
    skip = _holders(st)
    slots: dict[str, list[tuple[int, int, int]]] = {}
    for z, cards in enumerate(st.zones):  # (a hidden zone on a card is a place like any other)
        for i, c in enumerate(cards):
            if c not in skip and not st.visible(c, p):
                slots.setdefault(g.card_kind[c], []).append((z, i, c))
    sigma: dict[int, int] = {}
    if not slots:
        return sigma
    fd, seen = list(st.facedown), list(st.seen)
    for kind in sorted(slots):
        places = slots[kind]
        cards = sorted(c for _, _, c in places)
        rng.shuffle(cards)
        for (z, i, old), new in zip(places, cards):
            sigma[old] = new
            st.zones[z][i] = new
            st.loc[new] = z
            st.facedown[new] = fd[old]
            st.seen[new] = seen[old]
    if st.zsorted is not None:  # (the fast layout, engine/layout.py: a zone kept in card order stays so)
        for z in {z for places in slots.values() for z, _, _ in places}:
            if st.zsorted[z]:
                st.zones[z].sort()
    _remap_vars(st, sigma)
    return sigma


def _card_type(t: str | None, kinds) -> bool:
    """Is t the type of a card (any card, or a kind's)? (None: no type.)"""
    return t is not None and (t == "card" or t in kinds)


def _remap_vars(st, sigma: dict[int, int]) -> None:
    """Variables that hold a card follow it to its new place."""
    model = st.game.model
    for vi in model.vars.values():
        t = vi.type
        row = st.vars[vi.slot]
        if _card_type(t, model.kinds):
            st.vars[vi.slot] = [sigma.get(v, v) if isinstance(v, int) else v for v in row]
        elif t.list_elem is not None and _card_type(t.list_elem, model.kinds):
            st.vars[vi.slot] = [[sigma.get(c, c) for c in v] if isinstance(v, list) else v for v in row]


def remap_options(opts: list, labeler, sigma: dict[int, int], kinds=()) -> None:
    """The decision's options that are cards, in place: each card follows its place. (A `choose
    N` of cards has a function for its labeler, marked `cards`: its picks, not its "done".)"""
    if not sigma:
        return
    if not isinstance(labeler, str):
        if getattr(labeler, "cards", False):
            for i, o in enumerate(opts):
                if type(o) is int:
                    opts[i] = sigma.get(o, o)
        return
    if labeler == "card" or labeler in kinds:
        for i, o in enumerate(opts):
            opts[i] = sigma.get(o, o)
    elif _card_type(as_type(labeler).list_elem, kinds):
        for i, o in enumerate(opts):
            opts[i] = type(o)(sigma.get(c, c) for c in o)


# ------------------------------------------------------------------ the cards the rules hold
class _Units:
    """Where each body of the rules (an action, an effect, a handler, a phase...) is written, and
    which of its local slots hold a card or a list of cards (from the checked model's types)."""

    def __init__(self, model):
        kinds = model.kinds
        units = [d for d in model.decls if not isinstance(d, A.RoundsDecl)] + [i.decl for i in model.phases]
        self.by_file: dict[str, list] = {}
        for u in units:
            cards, lists = set(), set()
            for n in A.walk(u):
                if isinstance(n, A.Name):
                    ref = model.refs.get(n)
                    if isinstance(ref, LocalRef):
                        t = model.types.get(n) or ANY
                        if _card_type(t, kinds):
                            cards.add(ref.slot)
                        elif _card_type(t.list_elem, kinds):
                            lists.add(ref.slot)
            sp = u.span
            end = (sp.end_line, sp.end_col) if sp.end_line else (10 ** 9, 0)
            self.by_file.setdefault(sp.file, []).append(((sp.line, sp.col), end, cards, lists))

    def at(self, span):
        """(card slots, list-of-card slots) of the body written at this span (None: none)."""
        for start, end, cards, lists in self.by_file.get(span.file, ()):
            if start <= (span.line, span.col) <= end:
                return cards, lists
        return None


_UNITS: dict[int, tuple] = {}  # id(compiled game) -> (game, _Units)


def _units(game) -> _Units:
    hit = _UNITS.get(id(game))
    if hit is None or hit[0] is not game:
        if len(_UNITS) > 64:
            _UNITS.clear()
        hit = _UNITS[id(game)] = (game, _Units(game.model))
    return hit[1]


def remap_held(st, sigma: dict[int, int], frame, stop=None, opts=None, labeler=None, rng=None) -> int:
    """The cards the rules hold at the decision, in place: each follows its place as determinize
    dealt it. First the decision's options when they are cards (`opts`, `labeler`); then, walking
    the running rules from `frame` out (up to the frame of the code `stop`), the local slots of
    each body (`env`) that hold a card or a list of cards, by the types the checker gave them,
    and what the engine marks as held across a decision (`_held_cards` in _simultaneous_turns;
    `_hc...`, the cards a loop or a choice goes through, in generated code). Each list is
    changed once. Then, with `rng`, the picks other players made in a simultaneous choice not
    shown yet (which the player deciding has not seen) are drawn again (`_secret_picks`: the
    engine's redraw of them). These names are declared in engine/common.py (ENV, HELD_CARDS,
    HELD_PREFIX, SECRET_PICKS), where the generator takes them from. Returns how many frames of
    generated code were seen."""
    units = _units(st.game)
    done = {id(z) for z in st.zones}  # (the zones are dealt already)
    get = sigma.get
    if opts is not None and _option_cards(opts, labeler, st.game.model.kinds) is not None:
        remap_options(opts, labeler, sigma, st.game.model.kinds)
        done.add(id(opts))

    def cards(lst):
        if id(lst) in done:
            return
        done.add(id(lst))
        for i, v in enumerate(lst):
            if type(v) is int:
                lst[i] = get(v, v)
            elif isinstance(v, list):
                cards(v)
    seen = 0
    redraws = []
    f = frame
    while f is not None and f.f_code is not stop:
        spans = frame_spans(f)
        loc = f.f_locals
        secret = loc.get(SECRET_PICKS)
        if secret is not None:
            redraws.append(secret)
        held = loc.get(HELD_CARDS)
        if held:
            for lst in held:
                if isinstance(lst, list):
                    cards(lst)
        if spans is not None:
            seen += 1
            for name, v in loc.items():
                if name.startswith(HELD_PREFIX) and isinstance(v, list):
                    cards(v)
            i = f.f_lineno - 2  # (line 1 is the def)
            sp = spans[i] if 0 <= i < len(spans) else None
            sp = sp or next((x for x in spans if x is not None), None)
        else:
            sp = loc.get("span")
        env = loc.get(ENV)
        if isinstance(env, list) and id(env) not in done and sp is not None and hasattr(sp, "line"):
            typed = units.at(sp)
            if typed is not None:
                done.add(id(env))
                card_slots, list_slots = typed
                n = len(env)
                for k in card_slots:
                    if k < n and type(env[k]) is int:
                        env[k] = get(env[k], env[k])
                for k in list_slots:
                    if k < n and isinstance(env[k], list):
                        cards(env[k])
        f = f.f_back
    if rng is not None:
        for redraw in reversed(redraws):  # (outermost first)
            redraw(rng)
    return seen


# ------------------------------------------------------------------ replaying
class _Stop(Exception):
    """Ends a replayed world early (greedy: the option has resolved)."""


def _run(game, st, at=None) -> None:
    for _ in game.flow(st, at):  # pragma: no cover - the agent answers inline
        raise AssertionError("a decision escaped the agent")


def _key(o):
    if isinstance(o, list):
        return tuple(_key(x) for x in o)
    try:
        hash(o)
    except TypeError:
        return repr(o)
    return o


def _rewards(game, st, n: int) -> list[float]:
    """Each player's reward in [0, 1] by the game's winner rules in this state: half its share of
    the win, half the share of the others it beats on the first winner key (a tie counts half),
    so a search learns from the scores as well as from the rare wins of random rollouts."""
    try:
        r = game.result(st)
    except GameError:
        return [0.0] * n
    w = r["winners"]
    share = [(1.0 / len(w) if q in w else 0.0) for q in range(n)]
    keys = r.get("keys") or []
    if n < 2 or len(keys) != n or not all(keys):
        return share
    try:
        first = [k[0] for k in keys]
        beat = [sum(1.0 if first[q] > first[o] else 0.5 if first[q] == first[o] else 0.0
                    for o in range(n) if o != q) / (n - 1) for q in range(n)]
    except TypeError:
        return share
    return [0.5 * share[q] + 0.5 * beat[q] for q in range(n)]


def _standing(game, st, p: int):
    """Greedy's measure of how well p stands: (its first winner key minus the best other's,
    its own keys, its share of the win)."""
    try:
        r = game.result(st)
    except GameError:
        return (0,)
    keys = r.get("keys") or []
    share = (1.0 / len(r["winners"])) if p in r["winners"] else 0.0
    if not keys or not keys[p]:
        return (share,)
    own = keys[p]
    try:
        margin = own[0] - max(keys[q][0] for q in range(len(keys)) if q != p) if len(keys) > 1 else own[0]
        return (margin, *own, share)
    except TypeError:
        return (*own, share)


class Root:
    """The decision a search starts from: the game so far and the options before the chooser.
    `restart`: (a copy of the state where the decision's turn, step or phase began, the flow's
    token to resume there, how many of the choices came before it), or None: from the seed.
    `offered` (the decision's options), `state` (the game at the decision) and `path` (every
    choice made so far) let a search keep its tree from the chooser's previous decision
    (Searcher._kept_tree); a search never reads the state otherwise, and without them (None)
    it starts a new tree each time."""

    __slots__ = ("game", "players", "seed", "options", "history", "player", "n_options", "labeler", "restart",
                 "offered", "state", "path")

    def __init__(self, game, players, seed, options, history, player, n_options, labeler, restart=None,
                 offered=None, state=None, path=None):
        self.game, self.players, self.seed, self.options = game, players, seed, options
        self.player, self.n_options, self.labeler, self.restart = player, n_options, labeler, restart
        self.history = list(history if restart is None else history[restart[2]:])  # (since the restart)
        self.offered, self.state, self.path = offered, state, path

    @classmethod
    def of(cls, match: Match) -> "Root":
        """The match's decision; from now on the match keeps where its turns, steps and phases
        start (a search's worlds resume there; until the first is kept, from the seed)."""
        if match.st.on_phase is None:
            match.keep_restarts()
        d = match.pending
        return cls(match.game, match.players, match.seed, match.options, match.choices, d.player,
                   len(d.options), d.labeler, match.restart, d.options, match.st, match.choices)


class _Node:
    __slots__ = ("children", "visits", "reward", "avail", "player")

    def __init__(self, player: int | None = None):
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.player = player  # who chose the edge into this node


class _Kept:
    """What a search keeps of its tree for the chooser's next decision: the node its choice led
    to, and what must be unchanged for that node to be the next decision's (Searcher._kept_tree)."""

    __slots__ = ("node", "path", "player", "seen")

    def __init__(self, node, path, player, seen):
        self.node, self.path, self.player, self.seen = node, path, player, seen


def _option_cards(opts: list, labeler, kinds) -> list | None:
    """The cards among a decision's options, by its labeler: every option of a card type, the
    cards of options that are lists of cards, the picks of a `choose N` of cards (its labeler
    a function marked `cards`; "done" is no card). None: its options are no cards."""
    if isinstance(labeler, str):
        if _card_type(labeler, kinds):
            return list(opts)
        if _card_type(as_type(labeler).list_elem, kinds):
            return [c for o in opts for c in (o if isinstance(o, list) else [o])]
        return None
    if getattr(labeler, "cards", False):
        return [o for o in opts if type(o) is int]
    return None


def _seen_by(st, p: int) -> frozenset:
    """The cards p can see."""
    visible = st.visible
    return frozenset(c for c in range(len(st.loc)) if visible(c, p))


class Searcher:
    """A bot that needs copies of the game: greedy, lookahead and MCTS. `peek` (tests only)
    searches the true world instead of sampled ones, to show what a bot that peeks would do.
    `bot` gives the search's settings (Bot: rollout, depth, until)."""

    def __init__(self, kind: str, iterations: int, rng: random.Random, peek: bool = False, bot: Bot | None = None):
        self.kind, self.iterations, self.rng, self.peek = kind, iterations, rng, peek
        bot = bot if bot is not None else Bot(kind, iterations)
        self.rollout, self.depth, self.until = bot.rollout, bot.depth, bot.until
        self.searches = 0
        self.skipped = 0  # decisions with one option: taken without a search
        self.reused = 0  # searches that began from the tree of the chooser's previous decision
        self.worlds = 0
        self.failed = 0
        self.seconds = 0.0
        self.played = 0  # decisions its worlds played (replayed to the decision, then searched on)
        self.replayed = 0  # of which replayed to the decision
        self.steps = 0  # the game's work its worlds did (State.steps, engine/budget.py)
        self.kept: _Kept | None = None

    def choose(self, root: Root) -> int:
        """The option to take. A decision with one option is taken without a search (no world
        played, the bot's RNG untouched); the engine asks none such, but a caller may."""
        if root.n_options <= 1:
            self.skipped += 1
            return 0
        t0 = time.perf_counter()
        try:
            if self.kind == "greedy":
                return self._greedy(root)
            if self.kind == "lookahead":
                return self._lookahead(root)
            return self._mcts(root)
        finally:
            self.searches += 1
            self.seconds += time.perf_counter() - t0

    # one world: the game replayed to the root (from the copy where its turn, step or phase began, or
    # from the seed), sampled there, then driven by `decide`
    def _world(self, root: Root, world_rng: random.Random, decide) -> Any:
        game = root.game
        if root.restart is None:
            st, at, before = game.new_state(root.players, root.seed, root.options), None, 0
        else:
            snap, at, before = root.restart
            st = snap.copy()
        hist = root.history
        n_hist = len(hist)
        count = [0]
        rnd = world_rng.random
        most = runner.MAX_DECISIONS - before  # (read here: a test may lower it)

        def agent(p, opts):
            k = count[0]
            count[0] = k + 1
            if k < n_hist:
                return hist[k]
            if k == n_hist:
                if not self.peek:
                    sigma = determinize(st, root.player, world_rng)
                    remap_held(st, sigma, sys._getframe(1), _run.__code__, opts, root.labeler, world_rng)
                    st.rng = random.Random(world_rng.getrandbits(64))
                return decide(st, p, opts, True, rnd)
            if k > most:
                raise _Stop
            return decide(st, p, opts, False, rnd)

        st.agent = agent
        self.worlds += 1
        steps0 = st.steps
        try:
            _run(game, st, at)
        except _Stop:
            pass
        except (GameError, *RULE_FAULTS):
            # a sampled world the rules cannot play on (a card a rule holds by name at the decision
            # was dealt elsewhere, see determinize): it teaches nothing, and the game goes on
            self.failed += 1
            return None
        finally:
            self.played += count[0]
            self.replayed += min(count[0], n_hist)
            self.steps += st.steps - steps0
        return st

    def _greedy(self, root: Root) -> int:
        seed = self.rng.getrandbits(64)  # the same sampled world for every option
        scored = []
        for i in range(root.n_options):
            def decide(st, p, opts, at_root, rnd, i=i):
                if at_root:
                    return i
                raise _Stop  # the option has resolved: the next decision is asked
            st = self._world(root, random.Random(seed), decide)
            if st is not None:
                scored.append((i, _standing(root.game, st, root.player)))
        return self._take_best(scored, root.n_options)

    def _lookahead(self, root: Root) -> int:
        """Each option taken in the same `iterations` sampled worlds, the rest of the round (or
        phase, or game: `until`) played out by random players; the option after which the
        chooser stands best on average (_standing, each part averaged) is taken, ties at random."""
        seeds = [self.rng.getrandbits(64) for _ in range(self.iterations)]
        until = self.until

        def horizon(at):
            if at[2] is None and (until == "phase" or at[0] == 0):  # (a phase, or a round, begins)
                raise _Stop
        scored = []
        for i in range(root.n_options):
            def decide(st, p, opts, at_root, rnd, i=i):
                if at_root:
                    if until != "end":
                        st.on_phase = horizon
                    return i
                return int(rnd() * len(opts))
            vals = []
            for seed in seeds:
                st = self._world(root, random.Random(seed), decide)
                if st is not None:
                    vals.append(_standing(root.game, st, root.player))
            if vals:
                scored.append((i, _mean_standing(vals)))
        return self._take_best(scored, root.n_options)

    def _take_best(self, scored: list, n: int) -> int:
        """Of (option, standing) pairs, an option whose standing is the highest, ties (and standings
        that do not compare) at random; a random option of n when no world could be played."""
        best, best_v = [], None
        for i, v in scored:
            try:
                if best_v is None or v > best_v:
                    best, best_v = [i], v
                elif v == best_v:
                    best.append(i)
            except TypeError:
                best.append(i)
        if not best:
            best = list(range(n))
        return best[int(self.rng.random() * len(best))]

    def _kept_tree(self, root: Root) -> _Node | None:
        """The tree the chooser's previous search left under the option it took, as the root of
        this decision's search, when this decision is its information set: the previous search
        was of the decision just before this one (no one decided in between: the same choices
        since, the same chooser), in every world of that search that took the option the chooser
        decided next with nothing drawn at random between (Searcher._mcts: the worlds, not the
        game's own RNG, which may have drawn or not by what the chooser cannot see), the
        chooser sees the same cards (none shown to it, none hidden), and this decision's options
        are named alike in every sampled world (none is a card the chooser cannot see; no two
        alike). Otherwise None: the worlds of the previous search may not agree with what the
        chooser has learned since (a draw, a roll, a card shown, another's hidden choice)."""
        kept, st = self.kept, root.state
        self.kept = None
        if kept is None or st is None or root.path is None or root.offered is None:
            return None
        if kept.player != root.player or len(root.path) != len(kept.path) or tuple(root.path) != kept.path:
            return None
        if _seen_by(st, root.player) != kept.seen:
            return None
        opts = root.offered
        cards = _option_cards(opts, root.labeler, st.game.model.kinds)
        if cards is not None and not all(type(c) is int and st.visible(c, root.player) for c in cards):
            return None
        keys = [_key(o) for o in opts]
        if len(set(keys)) != len(keys):
            return None
        tree = _Node()
        tree.visits = kept.node.visits
        for i, kk in enumerate(keys):
            c = kept.node.children.get(kk)
            if c is not None:
                tree.children[i] = c
        self.reused += 1
        return tree

    def _keep(self, root: Root, tree: _Node, j: int, moved: set) -> None:
        """Keep the subtree under option j unless a world that took it drew at random or gave
        the next decision to another player (`moved`, by option) before the chooser decided again."""
        st = root.state
        c = tree.children.get(j)
        if st is None or root.path is None or c is None or not c.children or j in moved:
            return
        self.kept = _Kept(c, tuple(root.path) + (j,), root.player, _seen_by(st, root.player))

    def _mcts(self, root: Root) -> int:
        tree = self._kept_tree(root) or _Node()
        game, n = root.game, root.players
        rollout, depth = self.rollout, self.depth
        learn = rollout != "random"
        # rollout=mast / greedy: (player, option) -> [value summed, times taken] over this search's
        # worlds: the rewards of the worlds it was taken in (mast), or the chooser's score gained
        # from taking it to its next decision (greedy)
        stats: dict = {}
        # the root's options after which a world drew at random, or asked another player, before
        # the chooser's next decision: their subtrees are not kept (_keep)
        moved: set = set()
        me = root.player
        for _ in range(self.iterations):
            after: list = []  # (the root's option taken, the world's RNG state then) until the next decision
            path: list[_Node] = []
            node = [tree]  # None once the walk has left the tree (rolling out)
            grown = []  # the edge this iteration added: (children, key)
            taken = []  # mast: (player, option) of every choice after the root
            since: dict = {}  # greedy: player -> (its last option, its score when it took it)
            deep = [0]  # decisions after the root

            def note(st, p, kk):
                if rollout == "mast":
                    taken.append((p, kk))
                    return
                s_now = _score(game, st, p)
                last = since.get(p)
                if last is not None:
                    _add(stats, (p, last[0]), s_now - last[1])
                since[p] = (kk, s_now)

            def decide(st, p, opts, at_root, rnd):
                if after:  # (the first decision after the root)
                    j0, rng0 = after.pop()
                    if p != me or st.rng.getstate() != rng0:
                        moved.add(j0)
                cur = node[0]
                if cur is None:
                    deep[0] += 1
                    if depth is not None and deep[0] > depth:
                        raise _Stop  # cut: the game's own score stands for the rest
                    if not learn:
                        return int(rnd() * len(opts))
                    keys = [_key(o) for o in opts]
                    if rnd() < ROLLOUT_EPSILON:
                        j = int(rnd() * len(opts))
                    else:
                        best_j, best_v = [], None
                        for j, kk in enumerate(keys):
                            t = stats.get((p, kk))
                            v = t[0] / t[1] if t else (0.5 if rollout == "mast" else 0.0)
                            if best_v is None or v > best_v:
                                best_j, best_v = [j], v
                            elif v == best_v:
                                best_j.append(j)
                        j = best_j[int(rnd() * len(best_j))]
                    note(st, p, keys[j])
                    return j
                deep[0] += 1
                keys = range(len(opts)) if at_root else [_key(o) for o in opts]
                ch = cur.children
                untried = []
                for j, kk in enumerate(keys):
                    c = ch.get(kk)
                    if c is None:
                        untried.append((j, kk))
                    else:
                        c.avail += 1
                if untried:
                    j, kk = untried[int(rnd() * len(untried))]
                    c = ch[kk] = _Node(p)
                    c.avail = 1
                    grown.append((ch, kk))
                    path.append(c)
                    node[0] = None  # expanded: the rest is a rollout
                else:
                    j, best_u = 0, -1.0
                    for i, kk in enumerate(keys):
                        c = ch[kk]
                        u = c.reward / c.visits + UCB_C * math.sqrt(math.log(c.avail) / c.visits)
                        if u > best_u:
                            j, best_u = i, u
                    c = ch[keys[j]]
                    path.append(c)
                    node[0] = c
                if learn and not at_root:
                    note(st, p, keys[j])
                if at_root:
                    after.append((j, st.rng.getstate()))
                return j

            st = self._world(root, random.Random(self.rng.getrandbits(64)), decide)
            if st is None:  # a world that could not be played: forgotten
                for ch, kk in grown:
                    ch.pop(kk, None)
                continue
            rewards = _rewards(game, st, n)
            tree.visits += 1
            for c in path:
                c.visits += 1
                c.reward += rewards[c.player]
            for p, kk in taken:
                _add(stats, (p, kk), rewards[p])
            for p, (kk, s0) in since.items():
                _add(stats, (p, kk), _score(game, st, p) - s0)
        # the most visited option; ties at random
        counts = [(tree.children[j].visits if j in tree.children else 0) for j in range(root.n_options)]
        top = max(counts)
        best = [j for j, v in enumerate(counts) if v == top]
        j = best[int(self.rng.random() * len(best))]
        self._keep(root, tree, j, moved)
        return j


def _add(stats: dict, key, v: float) -> None:
    t = stats.get(key)
    if t is None:
        stats[key] = [v, 1]
    else:
        t[0] += v
        t[1] += 1


def _score(game, st, p: int) -> float:
    """p's standing as one number: its first winner key minus the best other's (_standing), or
    its share of the win where the keys are not numbers."""
    v = _standing(game, st, p)[0]
    return float(v) if isinstance(v, (int, float)) else 0.0


def _mean_standing(vals: list[tuple]) -> tuple:
    """The mean of standings (_standing), part by part (parts that are not numbers: the first's)."""
    out = []
    for parts in zip(*vals):
        try:
            out.append(sum(parts) / len(parts))
        except TypeError:
            out.append(parts[0])
    return tuple(out)


# ------------------------------------------------------------------ playing games
class Seats:
    """The bots of one game, seat by seat: random seats share the engine's bot RNG, each search
    bot has its own RNG seeded from the game's seed and its seat."""

    def __init__(self, bots: list[tuple[str, int]], seed: int, peek: bool = False):
        self.bots = bots
        self.random = bot_rng(seed)
        self.search: dict[int, Searcher] = {}
        for p, b in enumerate(bots):
            kind, n = b
            if kind != "random":
                self.search[p] = Searcher(kind, n, random.Random((seed * 1_000_003 + p) * 7919 + SEARCH_SALT), peek,
                                          b if isinstance(b, Bot) else None)

    def choose(self, match: Match) -> int:
        d = match.pending
        s = self.search.get(d.player)
        if s is None:
            return bot_pick(self.random, len(d.options))
        return s.choose(Root.of(match))

    def stats(self) -> dict:
        """Search bots' work: per seat (1 = P1), decisions searched, worlds played, seconds."""
        return {p + 1: {"bot": describe([self.bots[p]]), "decisions": s.searches, "worlds": s.worlds,
                        "failed_worlds": s.failed, "reused_trees": s.reused, "seconds": round(s.seconds, 4)}
                for p, s in self.search.items()}


def drive(game, players: int, seed: int, options: dict | None, bots: list[tuple[str, int]],
          fired: dict | None = None, max_steps: int | None = None, peek: bool = False,
          chosen: dict | None = None):
    """Play one game with these bots straight from the game's generator, without a log:
    -> (state, choices, seats). `fired` counts what ran (`tav lint --simulate`); max_steps: at
    most this many decisions (runner.MAX_DECISIONS); `chosen` counts what each seat chose,
    (seat, prompt, the option's label as the seat reads it) -> times (the game is the same)."""
    if max_steps is None:
        max_steps = runner.MAX_DECISIONS
    st = game.new_state(players, seed, options)
    st.fired = fired
    seats = Seats(bots, seed, peek)
    history: list[int] = []
    restart = None  # the latest point the game can resume from (Root.restart), kept when a seat searches

    def mark(at):
        nonlocal restart
        restart = (st.copy(), at, len(history))
    if seats.search:
        st.on_phase = mark
    gen = game.flow(st)
    try:
        d = next(gen)
        while True:
            s = seats.search.get(d.player)
            if s is None:
                i = bot_pick(seats.random, len(d.options))
            else:
                t = time.monotonic()
                i = s.choose(Root(game, players, seed, options, history, d.player, len(d.options), d.labeler, restart,
                                  d.options, st, history))
                st.deadline += time.monotonic() - t  # (a search's time is its own, not the game's)
            if chosen is not None:
                if d.st is None:
                    d.st = st
                key = (d.player, d.prompt, d.labels()[i])
                chosen[key] = chosen.get(key, 0) + 1
            history.append(i)
            if len(history) > max_steps:
                raise GameError(f"the game did not end after {max_steps} decisions (the last one asked here)", d.span)
            d = gen.send(i)
    except StopIteration:
        pass
    except RULE_FAULTS as e:
        raise located(e) from None
    return st, history, seats


def play_match(match: Match, bots: list[tuple[str, int]] | None, seats: set[int] | None = None, human=None,
               peek: bool = False) -> "Seats":
    """Play a match to the end with these bots (a seat in `seats` is asked of `human`). With only
    random bots this is exactly `runner.play_bots`."""
    bots = bots or [("random", 0)] * match.players
    chooser = Seats(bots, match.seed, peek)
    while not match.over:
        d = match.pending
        if human is not None and seats is not None and d.player in seats:
            i = human(match)
        else:
            i = chooser.choose(match)
        match.apply(i)
    return chooser


def play(game, players: int, seed: int, options: dict | None = None,
         bots: list[tuple[str, int]] | None = None) -> dict:
    """One whole game without a log, as `runner.playout` reports it (plus the bots' work). Only
    random bots: the playout fast path itself."""
    if all_random(bots):
        return playout(game, players, seed, options)
    try:
        st, history, chooser = drive(game, players, seed, options, bots)
        r = game.result(st)
    except GameError as e:
        raise GameError(f"{e} (seed {seed}, {players} players)", e.span) from None
    r["decisions"] = len(history)
    r["forced"] = len(st.forced)  # (decisions with one option, taken without asking)
    r["layout"] = "exact" if game.layout.exact else "fast"
    r["rounds"] = st.round
    r["steps"] = st.steps  # (the game's own work, as runner.playout gives it; not the searches')
    r["seed"] = seed
    r["search"] = chooser.stats()
    return r


def chosen_by_seat(game, players: int, seed: int, options: dict | None, bots) -> dict:
    """One game as `play` plays it (the same choices for the same seed and bots; random seats
    included), with what each seat chose: its result (runner.playout's fields) plus "chosen",
    {seat (1 = P1): {prompt: {label: times}}}, each option as the seat read it (a face-down
    card reads "face-down card"). Decisions with one option are taken by the engine, not
    counted. For a report of what strong bots do beside random ones."""
    tally: dict = {}
    bots = bots or [Bot("random")] * players
    try:
        st, history, _ = drive(game, players, seed, options, bots, chosen=tally)
        r = game.result(st)
    except GameError as e:
        raise GameError(f"{e} (seed {seed}, {players} players)", e.span) from None
    out: dict = {}
    for (p, prompt, label), n in tally.items():
        out.setdefault(p + 1, {}).setdefault(prompt, {})[label] = n
    r.update(decisions=len(history), rounds=st.round, seed=seed, chosen=out)
    return r


def watch(game, players: int, seed: int, options: dict | None, bots) -> dict:
    """One game as `tav sim` plays it (the same choices for the same seed and bots), watched:
    the options of every decision asked, and who leads (by the winner rules) when each round's
    first decision is asked."""
    history = None
    if not all_random(bots):
        _, history, _ = drive(game, players, seed, options, bots)
    st = game.new_state(players, seed, options)
    rnd = bot_rng(seed).random
    branching: list[int] = []
    leaders: list[tuple] = []
    last = [0]

    def agent(p, opts):
        k = len(branching)
        if k > runner.MAX_DECISIONS:
            raise _TooLong
        branching.append(len(opts))
        if st.round != last[0]:
            last[0] = st.round
            if st.round > 1:
                try:
                    leaders.append(tuple(game.result(st)["winners"]))
                except GameError:
                    pass
        return history[k] if history is not None else int(rnd() * len(opts))

    st.agent = agent
    play_inline(game, st, seed, players)
    try:
        r = game.result(st)
    except GameError as e:
        raise GameError(f"{e} (seed {seed}, {players} players)", e.span) from None
    r.update(decisions=len(branching), rounds=st.round, steps=st.steps, seed=seed, branching=branching,
             leaders=leaders + [tuple(r["winners"])])
    return r
