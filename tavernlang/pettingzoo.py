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

from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as _e:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "tavernlang.pettingzoo needs the optional extra 'rl' (pettingzoo, gymnasium, numpy): "
        "pip install -e '.[rl]'  (or pip install 'tavernlang[rl]')"
        f"; missing: {_e.name or _e}") from _e

from .adapters import DEFAULT_MAX_ACTIONS, _checked_options, _CompactEncoding, _Encoding, action_bound  # noqa: F401
from .errors import GameError

__all__ = ["env", "TavernEnv", "DEFAULT_MAX_ACTIONS", "agent_name"]

REWARDS = ("win", "score")
OBSERVATIONS = ("compact", "full")


def _is_whole(action) -> bool:
    return isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))


def agent_name(seat: int) -> str:
    """The agent of seat `seat` (0-based): player_1 for seat 0."""
    return f"player_{seat + 1}"


def env(rules_path: str, players: int, options: dict[str, Any] | None = None, seed: int | None = None,
        render_mode: str | None = None, reward: str = "win", max_actions: int | None = None,
        observation: str = "compact", illegal_reward: float | None = None) -> "TavernEnv":
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
    observation: "compact" (a block of card counts per zone, the zones each card holds counted
    together per name) or "full" (a block per zone of the view, each card's zones included);
    `observation_features()` names each number.
    illegal_reward: None (an action outside the action mask raises ValueError) or a number (as
    PettingZoo's TerminateIllegalWrapper: the game ends, the agent who chose it gets this reward,
    every other agent 0).
    """
    return TavernEnv(rules_path, players=players, options=options, seed=seed, render_mode=render_mode,
                     reward=reward, max_actions=max_actions, observation=observation,
                     illegal_reward=illegal_reward)


# ---------------------------------------------------------------- the environment
class TavernEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "tavernlang_v0", "is_parallelizable": False}

    def __init__(self, rules_path: str, players: int, options: dict[str, Any] | None = None,
                 seed: int | None = None, render_mode: str | None = None, reward: str = "win",
                 max_actions: int | None = None, observation: str = "compact",
                 illegal_reward: float | None = None):
        super().__init__()
        from . import CompiledGame, Match, compile_file

        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])} or None, "
                             f"not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        if illegal_reward is not None and (isinstance(illegal_reward, bool)
                                           or not isinstance(illegal_reward, (int, float))):
            raise ValueError(f"illegal_reward must be a number or None, not {illegal_reward!r}")
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
        probe_view = probe.view(None)
        self._state_enc = _Encoding(g, players, probe_view)
        self.observation_kind = observation
        self._enc = _CompactEncoding(g, players, probe_view) if observation == "compact" else self._state_enc
        self.illegal_reward = illegal_reward
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
        se = self._state_enc
        self.state_space = spaces.Box(low=se.low, high=np.full(se.size, np.inf, dtype=np.float32),
                                      dtype=np.float32)  # state(): the whole table, the full layout
        self._seed_rng = np.random.default_rng(seed)
        self._next_seed = seed
        self.match = None
        self._obs_cache = None
        self._log_shown = 0
        self._ended_illegally = False

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
        not expect). In the compact layout (the default) a zone of each card is not a block of
        its own: `token of cards` counts what every card's `token` zone holds."""
        return self._enc.layout()

    def observation_features(self) -> list[str]:
        """The name of each number of the observation vector, in order (`me=P1`, `round`,
        `points[P2]`, `hand of P1: Ace`, `hand of P2: hidden`, ...)."""
        return self._enc.feature_names()

    def state_layout(self) -> dict:
        """Where each part of `state()` lies: the full observation layout."""
        return self._state_enc.layout()

    def state(self) -> np.ndarray:
        """The whole table (`Match.view(None)`: every card by label, those hidden from every
        seat too) in the full layout (`state_layout()`), with `me` all zero and no card counted
        as hidden: a global state for centralised training, not an observation to give an agent.
        Before `reset()`: AssertionError, as PettingZoo's OrderEnforcingWrapper."""
        if self.match is None:
            EnvLogger.error_state_before_reset()
        se = self._state_enc
        vec = se.encode(self.match.view(None), 0)
        vec[se.off_me:se.off_me + self.players] = 0
        return vec

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
        self._ended_illegally = False
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
        """What `agent` sees now, and its action mask. An agent whose game is over (or was
        removed after it) still observes the last table, with an all-zero mask. Before
        `reset()`: AssertionError, as PettingZoo's OrderEnforcingWrapper."""
        if self.match is None:
            EnvLogger.error_observe_before_reset()
        p = self.agent_name_mapping[agent]
        m = self.match
        ended = self._ended_illegally
        key = (id(m), len(m.choices), m.over, ended, p)  # (observing twice between steps views once)
        if self._obs_cache is None or self._obs_cache[0] != key:
            mask = np.zeros(self.max_actions, dtype=np.int8)
            if not m.over and not ended and m.to_act() == p:
                mask[:self._legal_count] = 1
            self._obs_cache = (key, self._enc.encode(m.view(p), p), mask)
        _, vec, mask = self._obs_cache
        return {"observation": vec.copy(), "action_mask": mask.copy()}

    def step(self, action) -> None:
        """Play `action` for `agent_selection`, following PettingZoo's wrappers: before `reset()`,
        AssertionError (OrderEnforcingWrapper); once every agent is removed, a warning and
        nothing else; for a terminated agent, only None (removes it; anything else:
        ValueError); an action outside the action space, AssertionError
        (AssertOutOfBoundsWrapper); one inside it but outside the action mask, ValueError, or
        with `illegal_reward` set, the end of the game as TerminateIllegalWrapper ends it."""
        if self.match is None:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not (_is_whole(action) and self.action_space(agent).contains(action)):
            raise AssertionError(f"action is not in action space: {action!r} (a whole number "
                                 f"0..{self.max_actions - 1}; None only once {agent}'s game is over)")
        i = int(action)
        if not 0 <= i < self._legal_count:
            if self.illegal_reward is None:
                raise ValueError(f"action {i} is not legal for {agent} here: the legal actions are "
                                 f"0..{self._legal_count - 1} (see the observation's action_mask)")
            self._end_illegally(agent)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        self.match.apply(i)
        self._sync()
        if self.render_mode == "human":
            self.render()

    def _end_illegally(self, agent) -> None:
        """The game ends as PettingZoo's TerminateIllegalWrapper ends it: every agent terminated
        and truncated, `agent` rewarded `illegal_reward`, every other agent 0."""
        EnvLogger.warn_on_illegal_move()
        self._ended_illegally = True
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0)
        self.rewards[agent] = float(self.illegal_reward)
        for a in self.agents:
            self.infos[a] = {"illegal_action": agent}
        self._accumulate_rewards()
        self._deads_step_first()

    # ------------------------------------------------------------ helpers
    def legal_count(self) -> int:
        """How many actions are legal now (the first ones of the action space; 0 at the end)."""
        return 0 if self.match is None or self.match.over or self._ended_illegally else self._legal_count

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
