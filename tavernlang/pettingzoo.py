"""Any rules file as a PettingZoo AEC environment.

    from tavernlang.pettingzoo import env
    e = env("path/to/game.tav", players=3, seed=1)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_1`` .. ``player_N``. Each decision of the game is one step of the agent
who decides; option ``i`` of the action space is option ``i`` of the engine's legal list
(``Match.legal()``), and ``action_mask`` marks the ``k`` legal ones (always the first ``k``).
An observation is built only from ``Match.view(agent)``, what that seat may see, encoded in a
fixed layout worked out from the checked game (see :meth:`TavernEnv.observation_layout` and
docs/pettingzoo.md). Rewards come at the end, from the winner rule.

Only the engine's public API is used: ``tavernlang.compile_file``, the checked model and ``Match``.
"""
from __future__ import annotations

import re
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as _e:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "tavernlang.pettingzoo needs the optional extra 'rl' (pettingzoo, gymnasium, numpy): "
        "pip install -e '.[rl]'  (or pip install 'tavernlang[rl]')"
        f"; missing: {_e.name or _e}") from _e

from .check.model import BuiltinRef, DefRef, Type
from .errors import GameError

__all__ = ["env", "TavernEnv", "DEFAULT_MAX_ACTIONS", "agent_name"]

DEFAULT_MAX_ACTIONS = 512  # the action space's size when the checked game gives no smaller sound bound
REWARDS = ("win", "score")


def agent_name(seat: int) -> str:
    """The agent of seat `seat` (0-based): player_1 for seat 0."""
    return f"player_{seat + 1}"


def env(rules_path: str, players: int, options: dict[str, Any] | None = None, seed: int | None = None,
        render_mode: str | None = None, reward: str = "win", max_actions: int | None = None) -> "TavernEnv":
    """A PettingZoo AEC environment playing the game of `rules_path` with `players` seats.

    rules_path: a rules file, or a game compiled by `tavernlang.compile_file` (to make many
    envs of one game without compiling it again).
    options: the game's options by name (as `tav run -o NAME=VALUE`, with Python values).
    seed: the game seed of the first `reset()` without a seed (`reset(seed=S)` plays seed S,
    the same game as `tav run --seed S` for the same choices).
    reward: "win" (+1 to every winner, so a shared win gives each +1; 0 otherwise) or "score"
    (each player's final score by the winner rule).
    max_actions: the action space's size; by default a bound worked out from the checked game,
    at most DEFAULT_MAX_ACTIONS. A decision with more options stops the game with an error
    that says which size to pass.
    """
    return TavernEnv(rules_path, players=players, options=options, seed=seed, render_mode=render_mode,
                     reward=reward, max_actions=max_actions)


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
        elif isinstance(node, A.Simultaneous):
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
        self.zones = list(probe_view["zones"])
        self.zones += [f"{cz} of a face-down card" for cz in m.card_zones if f"{cz} of a face-down card" not in self.zones]
        self.zones.append("(other zones)")
        self.zone_ix = {z: i for i, z in enumerate(self.zones)}
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
        zix, width, zoff = self.zone_ix, self.width, self.off_zones
        other = zix["(other zones)"]
        feats = self._features
        for zname, cards in view["zones"].items():
            if not cards:
                continue
            base = zoff + width * zix.get(zname, other)
            for lab in cards:
                for i, a in feats(lab):
                    vec[base + i] += a
        return vec


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


# ---------------------------------------------------------------- the environment
class TavernEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "tavernlang_v0", "is_parallelizable": False}

    def __init__(self, rules_path: str, players: int, options: dict[str, Any] | None = None,
                 seed: int | None = None, render_mode: str | None = None, reward: str = "win",
                 max_actions: int | None = None):
        super().__init__()
        from . import CompiledGame, Match, compile_file

        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])} or None, "
                             f"not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if isinstance(rules_path, CompiledGame):  # compiled once, for many envs
            self.game, self.rules_path = rules_path, rules_path.model.path
        else:
            self.rules_path = str(rules_path)
            self.game = compile_file(self.rules_path)
        g = self.game
        if g.model.rounds is None:
            raise ValueError(f"{self.rules_path} has no 'rounds' block, so there is no game to play")
        if not isinstance(players, int) or not g.min_players <= players <= g.max_players:
            raise ValueError(f"{g.title} is for {g.min_players} to {g.max_players} players, not {players}")
        self.players = players
        self.options = _checked_options(g, options or {})
        self.render_mode = render_mode
        self.reward_kind = reward
        self._Match = Match
        probe = Match(g, players, 0, self.options, log=False)  # a bad option fails here, as GameError
        self._enc = _Encoding(g, players, probe.view(None))
        bound, self.bound_reasons = action_bound(g, players)
        if max_actions is None:
            max_actions = DEFAULT_MAX_ACTIONS if bound is None else max(2, min(bound, DEFAULT_MAX_ACTIONS))
        if not isinstance(max_actions, int) or max_actions < 1:
            raise ValueError(f"max_actions must be a positive whole number, not {max_actions!r}")
        self.max_actions = max_actions
        self.action_bound = bound

        self.possible_agents = [agent_name(p) for p in range(players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        obs_box = spaces.Box(low=self._enc.low, high=np.full(self._enc.size, np.inf, dtype=np.float32),
                             dtype=np.float32)
        mask_box = spaces.Box(low=0, high=1, shape=(max_actions,), dtype=np.int8)
        self._obs_spaces = {a: spaces.Dict({"observation": obs_box, "action_mask": mask_box})
                            for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng(seed)
        self._next_seed = seed
        self.match = None
        self._obs_cache = None
        self._log_shown = 0

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def observation_layout(self) -> dict:
        """Where each part of the observation vector lies: seats (one-hot), round, counters by
        name (`per_player_counters`: those with a value per seat, in seat order), zones by label
        (each a block of `zone_features`: counts of card names, of kinds, sums or counts of
        shown `var` attributes, then cards hidden from the agent, then cards of a label it did
        not expect)."""
        return self._enc.layout()

    # ------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game. seed: the game seed (the same seed, the same game for the same
        actions); without one, the env's seed on the first reset, then seeds drawn from it.
        options (Gymnasium's reset options) are not game options and are ignored: those are
        fixed when the env is made, as they may change the game."""
        if seed is not None:
            game_seed = int(seed)
            self._seed_rng = np.random.default_rng(game_seed)
        elif self._next_seed is not None:
            game_seed = int(self._next_seed)
        else:
            game_seed = int(self._seed_rng.integers(0, 2 ** 31 - 1))
        self._next_seed = None
        self.game_seed = game_seed
        self.match = self._Match(self.game, self.players, game_seed, self.options, log=self.render_mode is not None)
        self._obs_cache = None
        self._log_shown = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._sync()

    def _sync(self) -> None:
        """After the game moved: whose step it is, or the end and its rewards."""
        m = self.match
        if m.over:
            r = m.result
            if self.reward_kind == "win":
                self.rewards = {a: (1 if p in r["winners"] else 0) for p, a in enumerate(self.possible_agents)
                                if a in self.agents}
            else:
                self.rewards = {a: r["scores"][p] for p, a in enumerate(self.possible_agents) if a in self.agents}
            self.terminations = {a: True for a in self.agents}
            for a in self.agents:
                self.infos[a] = {"winners": [agent_name(p) for p in r["winners"]],
                                 "scores": {agent_name(p): s for p, s in enumerate(r["scores"])}}
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            k = len(m.legal())
            if k > self.max_actions:
                view = m.view(None)
                span = getattr(m.pending, "span", None)
                where = f" at {span}" if span is not None else ""
                raise GameError(f"a decision{where} ('{view.get('prompt')}') offers {k} options, more than this "
                                f"environment's {self.max_actions} actions; make it with max_actions={k} or more"
                                + (f" (no bound could be read from the rules: {self.bound_reasons[0]})"
                                   if self.bound_reasons else ""))
            self._legal_count = k
            self.agent_selection = self.possible_agents[m.to_act()]
        self._accumulate_rewards()

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        m = self.match
        key = (id(m), len(m.choices), m.over, p)  # (observing twice between steps views once)
        if self._obs_cache is None or self._obs_cache[0] != key:
            mask = np.zeros(self.max_actions, dtype=np.int8)
            if not m.over and m.to_act() == p:
                mask[:self._legal_count] = 1
            self._obs_cache = (key, self._enc.encode(m.view(p), p), mask)
        _, vec, mask = self._obs_cache
        return {"observation": vec.copy(), "action_mask": mask.copy()}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action: the game is not over")
        i = int(action)
        if not 0 <= i < self._legal_count:
            raise ValueError(f"action {i} is not legal for {agent} here: the legal actions are 0..{self._legal_count - 1} "
                             f"(see the observation's action_mask)")
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        self.match.apply(i)
        self._sync()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------ helpers
    def legal_count(self) -> int:
        """How many actions are legal now (the first ones of the action space; 0 at the end)."""
        return 0 if self.match is None or self.match.over else self._legal_count

    def legal_labels(self) -> list[str]:
        """The acting agent's options by label, as `tav play` shows them (index = action)."""
        return [] if self.match is None else self.match.legal()

    def prompt(self) -> str | None:
        m = self.match
        return None if m is None or m.over else m.view(m.to_act()).get("prompt")

    def fork(self) -> "TavernEnv":
        """An independent copy of this env at the same point of the same game (by replaying its
        choices, `Match.save`/`Match.load`). It shares the game's future randomness, so looking
        ahead with it sees what no player could (the next card drawn): fine for baselines."""
        e = TavernEnv.__new__(TavernEnv)
        e.__dict__.update(self.__dict__)
        e.match = self._Match.load(self.game, self.match.save(self.rules_path), log=self.render_mode is not None)
        e._obs_cache = None
        e.agents = list(self.agents)
        e.rewards, e._cumulative_rewards = dict(self.rewards), dict(self._cumulative_rewards)
        e.terminations, e.truncations = dict(self.terminations), dict(self.truncations)
        e.infos = {a: dict(v) for a, v in self.infos.items()}
        return e

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: make the env with "
                                  "render_mode='ansi' (returns the text) or 'human' (prints it)")
            return None
        text = self._render_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _render_text(self) -> str:
        m = self.match
        if m is None:
            return "(no game: call reset())"
        lines = m.log_lines()
        new, self._log_shown = lines[self._log_shown:], len(lines)
        v = m.view(None)
        out = list(new)
        out.append(f"-- {self.game.title}, seed {self.game_seed}, round {v['round']}, current {v['current']}")
        for name, val in v["counters"].items():
            out.append(f"   {name}: {val}")
        for name, cards in v["zones"].items():
            if cards:
                out.append(f"   {name}: {' | '.join(cards)}")
        if m.over:
            r = m.result
            out.append("   game over: winners " + (", ".join(agent_name(p) for p in r["winners"]) or "none")
                       + "; scores " + ", ".join(f"{agent_name(p)} {s}" for p, s in enumerate(r["scores"])))
        else:
            out.append(f"   {agent_name(m.to_act())} to choose ({v.get('prompt')}): "
                       + "; ".join(f"{i}: {lab}" for i, lab in enumerate(m.legal())))
        return "\n".join(out)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"TavernEnv({self.game.title}, {self.players} players)"
