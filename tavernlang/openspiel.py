"""Any rules file as an OpenSpiel game, for OpenSpiel's search, CFR and evaluation tools.

    from tavernlang.openspiel import load_game
    game = load_game("path/to/game.tav", players=2)
    state = game.new_initial_state()        # a chance node: which game seed is played
    state.apply_action(0)                   # seed first_seed + 0
    state.legal_actions()                   # [0, .., k-1]: the engine's options, by number

The game is registered with OpenSpiel as ``tavernlang``, so ``pyspiel.load_game(
"tavernlang(rules=/abs/path.tav,players=2)")`` makes it too (and so do OpenSpiel's own
serialization and tests, which load a game again from its string).

How the rules appear to OpenSpiel (docs/openspiel.md says why):

- Chance is one explicit chance node at the start that picks the game seed among ``seeds``
  equally likely ones (``first_seed`` .. ``first_seed + seeds - 1``); everything random in the
  game is then a function of that seed and the choices, as in the engine. No seat sees the
  seed. With ``seeds=1`` there is no chance node and the game is deterministic.
- Every decision is a sequential move of the seat that decides. A phase played at the same
  time is asked of its seats one at a time by the engine; a seat does not see the picks made
  before its own until they are resolved, so the sequential game with imperfect information is
  the same game.
- Action ``i`` is option ``i`` of the engine's legal list (``Match.legal()``), written
  ``"i: LABEL"``; the number of distinct actions is the bound read from the rules (as the
  PettingZoo adapter's).
- Strings and tensors of a seat come only from what that seat may see (``Match.view`` and the
  log as it reads it).

Only the engine's public API is used: ``tavernlang.compile_file``, the checked model and ``Match``.
"""
from __future__ import annotations

import math
import os
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as _e:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "tavernlang.openspiel needs the optional extra 'openspiel' (open-spiel, numpy): "
        "pip install -e '.[openspiel]'  (or pip install 'tavernlang[openspiel]')"
        f"; missing: {_e.name or _e}") from _e

from .adapters import DEFAULT_MAX_ACTIONS, _checked_options, _Encoding, action_bound
from .errors import GameError

__all__ = ["load_game", "TavernGame", "TavernState", "SHORT_NAME", "DEFAULT_SEEDS", "REWARDS"]

SHORT_NAME = "tavernlang"
DEFAULT_SEEDS = 1000  # the chance node's outcomes: game seeds first_seed .. first_seed + seeds - 1
REWARDS = ("win", "zero_sum", "score")

# the game's parameters and their defaults (OpenSpiel fills in the ones a game string leaves out)
_DEFAULTS: dict[str, Any] = {
    "rules": "",            # the rules file (an absolute path: the game string loads it again)
    "players": 2,
    "options": "",          # the game's options, NAME:VALUE;NAME:VALUE (as tav run -o NAME=VALUE)
    "seeds": DEFAULT_SEEDS,
    "first_seed": 1,
    "reward": "win",
    "max_actions": 0,       # 0: the bound read from the rules, at most DEFAULT_MAX_ACTIONS
}


def load_game(rules, players: int = 2, options: dict[str, Any] | None = None, seeds: int = DEFAULT_SEEDS,
              first_seed: int = 1, reward: str = "win", max_actions: int | None = None) -> "TavernGame":
    """The game of `rules` with `players` seats as a pyspiel game.

    rules: a rules file (a game or a house rule), or a game compiled by `tavernlang.compile_file`
    (its rules file is the one loaded again from the game's string).
    options: the game's options by name, with Python values (as `tav run -o NAME=VALUE`).
    seeds, first_seed: the chance node at the start picks one of `seeds` game seeds, from
    `first_seed` on, each as likely (seed S is the game `tav run --seed S` plays for the same
    choices); `seeds=1`: no chance node, always game seed `first_seed`.
    reward: "win" (1 to every winner, 0 to the others), "zero_sum" (the winners share N, every
    seat pays 1: +1/-1 at 2 players, 0 for a shared win) or "score" (the winner rule's score).
    max_actions: the number of distinct actions; by default the bound read from the rules, at
    most DEFAULT_MAX_ACTIONS. A decision with more options stops the game with an error that
    says which number to pass.
    """
    from . import CompiledGame

    if isinstance(rules, CompiledGame):
        path = os.path.abspath(str(rules.model.path))
        _COMPILED[path] = (_mtime(path), rules)
    else:
        path = os.path.abspath(str(rules))
    params = {
        "rules": path,
        "players": players,
        "options": _options_text(options or {}),
        "seeds": seeds,
        "first_seed": first_seed,
        "reward": reward,
        "max_actions": 0 if max_actions is None else max_actions,
    }
    for name in ("players", "seeds", "first_seed", "max_actions"):
        if isinstance(params[name], bool) or not isinstance(params[name], int):
            raise ValueError(f"{name} must be a whole number, not {params[name]!r}")
    return pyspiel.load_game(SHORT_NAME, params)


# ---------------------------------------------------------------- the rules, compiled once
_COMPILED: dict[str, tuple[float, Any]] = {}


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return -1.0


def _compiled(path: str):
    """The compiled game of a rules file, compiled again only when the file changed."""
    from . import compile_file
    t = _mtime(path)
    hit = _COMPILED.get(path)
    if hit is None or hit[0] != t:
        hit = _COMPILED[path] = (t, compile_file(path))
    return hit[1]


def _options_text(options: dict[str, Any]) -> str:
    """Options as one game parameter: NAME:VALUE;NAME:VALUE (a bool as true or false)."""
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict of the game's options by name, not {options!r}")
    out = []
    for name, v in options.items():
        text = ("true" if v else "false") if isinstance(v, bool) else str(v)
        if any(c in text for c in ";,()=") or any(c in str(name) for c in ":;,()="):
            raise ValueError(f"option '{name}': {text!r} cannot be written in an OpenSpiel game string")
        out.append(f"{name}:{text}")
    return ";".join(out)


def _options_from_text(game, text: str) -> dict[str, Any]:
    """The options of a game string, each given its type by the rules (checked afterwards)."""
    out: dict[str, Any] = {}
    for pair in filter(None, str(text).split(";")):
        name, sep, raw = pair.partition(":")
        if not sep:
            raise ValueError(f"options: '{pair}' should be NAME:VALUE")
        o = game.model.options.get(name)
        t = o.type if o is not None else "str"
        if t == "bool" and raw in ("true", "false"):
            out[name] = raw == "true"
        elif t == "int":
            try:
                out[name] = int(raw)
            except ValueError:
                raise ValueError(f"option '{name}' is a whole number, not {raw!r}") from None
        else:
            out[name] = raw
    return out


# ---------------------------------------------------------------- what the game is
class _Spec:
    """The game behind a pyspiel game: compiled rules, seats, options, seeds, the encoding."""

    def __init__(self, params: dict[str, Any]):
        from . import Match

        self.params = params
        path = str(params["rules"])
        if not path:
            raise ValueError("the game needs its rules file: load_game(PATH, ...) or tavernlang(rules=PATH,...)")
        self.game = g = _compiled(path)
        if g.model.rounds is None:
            raise ValueError(f"{path} has no 'rounds' block, so there is no game to play")
        n = params["players"]
        if not isinstance(n, int) or not g.min_players <= n <= g.max_players:
            raise ValueError(f"{g.title} is for {g.min_players} to {g.max_players} players, not {n}")
        self.players = n
        self.options = _checked_options(g, _options_from_text(g, params["options"]))
        self.seeds, self.first_seed = params["seeds"], params["first_seed"]
        if self.seeds < 1:
            raise ValueError(f"seeds must be 1 or more, not {self.seeds}")
        self.reward = params["reward"]
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {self.reward!r}")
        if self.reward == "zero_sum" and n < 2:
            raise ValueError("reward 'zero_sum' needs 2 players or more")
        self.Match = Match
        probe = Match(g, n, self.first_seed, self.options, log=False)  # a bad option fails here, as GameError
        self.enc = _Encoding(g, n, probe.view(None))
        self.action_bound, self.bound_reasons = action_bound(g, n)
        given = params["max_actions"]
        if given == 0:
            bound = self.action_bound
            given = DEFAULT_MAX_ACTIONS if bound is None else max(2, min(bound, DEFAULT_MAX_ACTIONS))
        if given < 1:
            raise ValueError(f"max_actions must be a positive whole number, not {given}")
        self.max_actions = given

    def utility(self) -> tuple[Any, float, float, float | None]:
        """OpenSpiel's utility kind and the returns' range, for the reward chosen."""
        U = pyspiel.GameType.Utility
        n, m = self.players, self.game.model
        rules = ([m.winner] if m.winner is not None else []) + list(m.guarded_winners)
        # every winner rule says `everyone if C` (or there is none: everyone wins): all win or none do
        everyone_or_nobody = all(w.everyone_if is not None for w in rules)
        if self.reward == "zero_sum":
            return U.ZERO_SUM, -1.0, float(n - 1), 0.0
        if self.reward == "win":
            return (U.IDENTICAL if everyone_or_nobody or n == 1 else U.GENERAL_SUM), 0.0, 1.0, None
        low, high = self.score_range(rules)
        return (U.IDENTICAL if n == 1 else U.GENERAL_SUM), low, high, None

    def score_range(self, rules) -> tuple[float, float]:
        """The scores' range where the rules give it: one winner rule, `highest C` of a counter
        declared `in LOW..HIGH` with numbers; otherwise unbounded."""
        from .syntax import ast as A
        unknown = (-math.inf, math.inf)
        if len(rules) != 1 or rules[0].guard is not None or not rules[0].keys:
            return unknown
        key = rules[0].keys[0]
        c = self.game.model.counters.get(key.name) if isinstance(key, A.Name) else None
        if c is None:
            return unknown
        lo, hi = (getattr(e, "value", None) for e in (c.decl.low, c.decl.high))
        if type(lo) is not int or type(hi) is not int:
            return unknown
        return float(lo), float(hi)

    def returns(self, result: dict) -> list[float]:
        n, winners = self.players, result["winners"]
        if self.reward == "win":
            return [1.0 if p in winners else 0.0 for p in range(n)]
        if self.reward == "zero_sum":
            if not winners:
                return [0.0] * n
            return [(n / len(winners) if p in winners else 0.0) - 1.0 for p in range(n)]
        return [float(s) for s in result["scores"]]


def _game_type(spec: _Spec | None = None) -> "pyspiel.GameType":
    T = pyspiel.GameType
    utility = spec.utility()[0] if spec is not None else T.Utility.GENERAL_SUM
    g = spec.game if spec is not None else None
    return T(
        short_name=SHORT_NAME,
        long_name=f"tavernlang: {g.title}" if g is not None else "tavernlang: any rules file",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=(T.ChanceMode.DETERMINISTIC if spec is not None and spec.seeds == 1
                     else T.ChanceMode.EXPLICIT_STOCHASTIC),
        information=T.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=g.max_players if g is not None else 100,
        min_num_players=g.min_players if g is not None else 1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
        default_loadable=False,  # (it needs a rules file: tavernlang(rules=PATH))
    )


class TavernGame(pyspiel.Game):
    """A rules file with a number of seats, options and seeds, as a pyspiel game."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        spec = _spec_for(params)
        from .engine.runner import MAX_DECISIONS
        utility, low, high, total = spec.utility()
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.max_actions,
            max_chance_outcomes=spec.seeds if spec.seeds > 1 else 0,
            num_players=spec.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=MAX_DECISIONS)  # the engine stops a game that goes on longer
        super().__init__(_game_type(spec), info, params)
        self.spec = spec

    @property
    def compiled(self):
        """The engine's compiled game (tavernlang.CompiledGame)."""
        return self.spec.game

    def observation_layout(self) -> dict:
        """Where each part of the observation tensor lies (as TavernEnv.observation_layout)."""
        return self.spec.enc.layout()

    def new_initial_state(self):
        return TavernState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self.spec, iig_obs_type, params)


# ---------------------------------------------------------------- a game in progress
class _Line:
    """One Match and the path it has played: `marks[i]` stands for the state after its first i
    choices. States copied from one another share a line while they follow it, so a copy costs
    nothing until it goes its own way (then it replays its choices on a line of its own).

    trail (when the match keeps its log): each decision as (seat, log lines before it, prompt,
    option number, label)."""

    def __init__(self, m, track: bool):
        self.m, self.track = m, track
        self.marks: list[object] = [object()]
        self.deciders: list[tuple[int, int]] = []  # who decided at each mark, among how many options
        self.trail: list[tuple] = []
        self.views: dict = {}  # Match.view by seat at the line's end (a view is costly: asked often)

    def view(self, viewer: int | None) -> dict:
        v = self.views.get(viewer)
        if v is None:
            v = self.views[viewer] = self.m.view(viewer)
        return v

    def apply(self, i: int) -> None:
        m = self.m
        self.views = {}
        self.deciders.append((m.pending.player, len(m.pending.options)))
        if self.track:
            d = m.pending
            # (m.st.log is the log Match.log_lines reads, one line per entry)
            self.trail.append((d.player, len(m.st.log), d.prompt, i, m.legal()[i]))
        m.apply(i)
        self.marks.append(object())


class _Play:
    """The engine's side of a state: its seed, its choices, and where it stands on a line (a
    Match that reached those choices, made again from them when needed, as a save replays)."""

    def __init__(self, spec: _Spec, seed: int | None):
        self.spec, self.seed = spec, seed
        self.choices: list[int] = []
        self.track = False  # the match keeps its log (asked for once an information state is)
        self.line: _Line | None = None
        self.mark: object = None

    def _on_line(self) -> bool:
        ln, n = self.line, len(self.choices)
        return ln is not None and len(ln.marks) > n and ln.marks[n] is self.mark and (ln.track or not self.track)

    def behind(self) -> tuple[int, int] | None:
        """Who decides now and among how many options, when a copy of this state has gone on
        from here along its line (so its match is past this state)."""
        ln, n = self.line, len(self.choices)
        if self._on_line() and len(ln.marks) > n + 1:
            return ln.deciders[n]
        return None

    @property
    def match(self):
        ln = self.line
        if not (self._on_line() and len(ln.marks) == len(self.choices) + 1):
            s = self.spec
            ln = self.line = _Line(s.Match(s.game, s.players, self.seed, s.options, log=self.track), self.track)
            for i in self.choices:
                ln.apply(i)
            self.mark = ln.marks[-1]
        return ln.m

    def view(self, viewer: int | None) -> dict:
        """What seat `viewer` sees now (None: everything), as Match.view (do not change it)."""
        self.match
        return self.line.view(viewer)

    @property
    def trail(self) -> list[tuple]:
        self.match
        return self.line.trail

    def tracked(self):
        """The match with its log and trail (replayed with them the first time)."""
        self.track = True
        return self.match

    def legal_count(self) -> int:
        m = self.match
        k = len(m.pending.options)
        if k > self.spec.max_actions:
            span = getattr(m.pending, "span", None)
            where = f" at {span}" if span is not None else ""
            raise GameError(f"a decision{where} ('{m.pending.prompt}') offers {k} options, more than this game's "
                            f"{self.spec.max_actions} distinct actions; load it with max_actions={k} or more"
                            + (f" (no bound could be read from the rules: {self.spec.bound_reasons[0]})"
                               if self.spec.bound_reasons else ""))
        return k

    def apply(self, i: int) -> None:
        n = len(self.choices)
        ln = self.line
        if self._on_line() and len(ln.marks) > n + 1 and ln.m.choices[n] == i:  # a copy went this way already
            self.choices.append(i)
            self.mark = ln.marks[n + 1]
            return
        m = self.match
        if not 0 <= i < self.legal_count():
            raise ValueError(f"action {i} is not legal here: the legal actions are 0..{len(m.pending.options) - 1}")
        self.line.apply(i)
        self.choices.append(i)
        self.mark = self.line.marks[-1]

    def __deepcopy__(self, memo):
        c = _Play.__new__(_Play)
        c.spec, c.seed, c.choices, c.track = self.spec, self.seed, list(self.choices), self.track
        c.line, c.mark = self.line, self.mark
        return c

    def __getstate__(self):  # (OpenSpiel serializes a state by pickling its attributes)
        return {"params": dict(self.spec.params), "seed": self.seed, "choices": list(self.choices), "track": self.track}

    def __setstate__(self, data):
        self.spec = _spec_for(data["params"])
        self.seed, self.choices, self.track = data["seed"], list(data["choices"]), data["track"]
        self.line, self.mark = None, None


_SPECS: dict[tuple, _Spec] = {}


def _spec_for(params: dict) -> _Spec:
    """The game behind these parameters, made once (OpenSpiel loads a game again from its
    string to read a serialized state)."""
    params = {**_DEFAULTS, **params}
    key = tuple(sorted(params.items())) + (id(_compiled(str(params["rules"]))) if params["rules"] else None,)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = _Spec(params)
    return spec


class TavernState(pyspiel.State):
    """A game in progress: a chance node for the seed, then the engine's decisions."""

    def __init__(self, game: TavernGame):
        super().__init__(game)
        s = game.spec
        self._play = _Play(s, s.first_seed if s.seeds == 1 else None)

    # ------------------------------------------------------------ OpenSpiel's API
    def current_player(self):
        p = self._play
        if p.seed is None:
            return pyspiel.PlayerId.CHANCE
        b = p.behind()
        if b is not None:
            return b[0]
        m = p.match
        return pyspiel.PlayerId.TERMINAL if m.over else m.to_act()

    def _legal_actions(self, player):
        p = self._play
        if p.seed is None:
            return []
        b = p.behind()
        if b is not None:
            return list(range(b[1])) if player == b[0] else []
        if p.match.over or player != p.match.to_act():
            return []
        return list(range(p.legal_count()))

    def chance_outcomes(self):
        k = self._play.spec.seeds
        return [(i, 1.0 / k) for i in range(k)] if self._play.seed is None else []

    def _apply_action(self, action):
        p = self._play
        if p.seed is None:
            if not 0 <= action < p.spec.seeds:
                raise ValueError(f"chance outcome {action} is not one of the {p.spec.seeds} seeds")
            p.seed = p.spec.first_seed + int(action)
            return
        p.apply(int(action))

    def _action_to_string(self, player, action):
        p = self._play
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {p.spec.first_seed + action}"
        if p.seed is not None and not p.match.over and p.match.to_act() == player:
            labels = p.match.legal()
            if 0 <= action < len(labels):
                return f"{action}: {labels[action]}"  # (numbered as tav play does: two options may read alike)
        return f"option {action}"

    def is_terminal(self):
        p = self._play
        return p.seed is not None and p.behind() is None and p.match.over

    def returns(self):
        p = self._play
        if p.seed is None or not p.match.over:
            return [0.0] * p.spec.players
        return p.spec.returns(p.match.result)

    def __str__(self):
        """The whole table (a spectator's view: not for a seat)."""
        p = self._play
        if p.seed is None:
            return "(the game seed is not chosen yet)"
        m = p.match
        head = f"seed {p.seed}, {len(p.choices)} decisions"
        if m.over:
            head += "; game over: " + ", ".join(f"P{i + 1} {s}" for i, s in enumerate(m.result["scores"]))
        return head + "\n" + _view_text(p.view(None))

    # ------------------------------------------------------------ what a seat knows
    def seat_observation(self, viewer: int | None) -> str:
        """What seat `viewer` sees now (None: everything)."""
        p = self._play
        if p.seed is None:
            return "(the game has not started)"
        m = p.match
        text = _view_text(p.view(viewer))
        if m.over:
            text += "\ngame over: winners " + (", ".join(f"P{w + 1}" for w in m.result["winners"]) or "none")
        return text

    def seat_history(self, viewer: int | None, me: int) -> str:
        """Seat `me`'s record of the game: every log line as `viewer` reads it (None: as
        written), its own decisions in place (the option it chose, by number and label), then
        what it sees now."""
        p = self._play
        out = [f"P{me + 1} of {p.spec.players}"]
        if p.seed is not None:
            m = p.tracked()
            lines = m.log_lines(viewer)
            at = 0
            for who, n, prompt, i, label in p.trail:
                if who != me and viewer is not None:
                    continue
                out.extend(lines[at:n])
                at = max(at, n)
                out.append(f">> P{who + 1} chose {i}: {label} ({prompt})")
            out.extend(lines[at:])
        out.append("-- now --")
        out.append(self.seat_observation(viewer))
        return "\n".join(out)


def _view_text(view: dict) -> str:
    out = [f"round {view['round']}, current {view['current']}"
           + (f", {view['to_act']} to act" if "to_act" in view else "")]
    for name, v in view["counters"].items():
        out.append(f"{name}: {', '.join(map(str, v)) if isinstance(v, list) else v}")
    for name, cards in view["zones"].items():
        out.append(f"{name}: {' | '.join(cards)}" if cards else f"{name}: (empty)")
    if "prompt" in view:
        out.append(f"{view['prompt']}: " + "; ".join(f"{i}: {lab}" for i, lab in enumerate(view["options"])))
    return "\n".join(out)


class _Observer:
    """OpenSpiel's observer (the PyObserver interface): a seat's observation (tensor and
    string) or, with perfect recall, its information state (a string)."""

    def __init__(self, spec: _Spec, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        P = pyspiel.PrivateInfoType
        if not iig_obs_type.public_info or iig_obs_type.private_info == P.NONE:
            raise ValueError("tavernlang games observe what a seat sees (private_info SINGLE_PLAYER) or "
                             "everything (ALL_PLAYERS); a public-only observation is not supported")
        self.everything = iig_obs_type.private_info == P.ALL_PLAYERS
        self.perfect_recall = iig_obs_type.perfect_recall
        self.enc = spec.enc
        if self.perfect_recall:
            self.tensor, self.dict = None, {}
        else:
            self.tensor = np.zeros(spec.enc.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: TavernState, player: int) -> None:
        if self.tensor is None:
            return
        p = state._play
        if p.seed is None:
            self.tensor.fill(0)
            self.tensor[self.enc.off_me + player] = 1
            return
        self.tensor[:] = self.enc.encode(p.view(None if self.everything else player), player)

    def string_from(self, state: TavernState, player: int) -> str:
        viewer = None if self.everything else player
        if self.perfect_recall:
            return state.seat_history(viewer, player)
        return f"P{player + 1}\n" + state.seat_observation(viewer)


pyspiel.register_game(_game_type(), TavernGame)
