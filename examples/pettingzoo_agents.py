"""A random agent and a masked-greedy agent playing a rules file through PettingZoo's AEC API.

    pip install -e '.[rl]'
    python examples/pettingzoo_agents.py                       # Little Tavern, 3 players
    python examples/pettingzoo_agents.py games/tavern_masters.tav --players 2 --games 10

Seat 1 is played first by the random agent, then by the greedy one, on the same seeds, with
random agents in the other seats. The random agent picks uniformly among the legal actions
(the observation's action_mask). The greedy agent looks one action ahead on a fork of the
env (a copy of the game at this point: it shares the game's future randomness, so this
baseline peeks at what no player could see) and takes the action after which its own
counters add up highest in its own observation, or that wins outright. Nothing here knows
the game: it is the same for any rules file whose score is a counter.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from tavernlang.pettingzoo import env as make_env

ROOT = Path(__file__).resolve().parent.parent


def random_agent(env, agent, obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def greedy_agent(env, agent, obs, rng):
    legal = np.flatnonzero(obs["action_mask"])
    if len(legal) == 1:
        return int(legal[0])
    me = env.agent_name_mapping[agent]
    layout = env.observation_layout()
    mine = [layout["counters"][name].start + me for name in layout["per_player_counters"]]  # at my seat
    best, best_value = [], None
    for a in legal:
        f = env.fork()
        f.step(int(a))
        if f.match.over:  # the game ended: a win is worth more than any counter
            value = 1e9 if me in f.match.result["winners"] else -1e9
        else:
            value = float(f.observe(agent)["observation"][mine].sum())
        if best_value is None or value > best_value:
            best, best_value = [int(a)], value
        elif value == best_value:
            best.append(int(a))
    return int(rng.choice(best))


def play(env, seat1_agent, seed: int) -> float:
    """One game; seat 1's share of the win (1 alone, 1/k in a k-way tie, 0 a loss)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    share = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            if agent == "player_1":
                share = reward / max(1, len(info["winners"]))
            env.step(None)
            continue
        pick = seat1_agent if agent == "player_1" else random_agent
        env.step(pick(env, agent, obs, rng))
    return share


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="?", default=str(ROOT / "games" / "little_tavern.tav"))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    env = make_env(args.rules, players=args.players)
    seeds = range(args.seed, args.seed + args.games)
    for label, agent in (("random", random_agent), ("greedy", greedy_agent)):
        wins = sum(play(env, agent, s) for s in seeds)
        print(f"{label:6} agent in seat 1: {wins:.1f} wins in {args.games} games "
              f"(an even share is {args.games / args.players:.1f})")


if __name__ == "__main__":
    main()
