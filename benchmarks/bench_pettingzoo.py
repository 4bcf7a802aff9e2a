"""PettingZoo env steps/s against `tav sim`'s decisions/s, on the same games and seeds.

    python benchmarks/bench_pettingzoo.py [--games little_tavern cavern_tavern ...] [-n 20] [--json]

For each game (at its player count below, or --players), plays seeds 1..n four ways, each with
uniformly random choices:

- sim: `tav sim`'s fast path (runner.playout: bots decide inline, no log), decisions/s;
- match: `Match.apply` one decision at a time (what the env drives), decisions/s;
- env, no obs: the AEC loop with `last(observe=False)`, agent steps/s (one step per decision;
  the steps of terminated agents at the end are not counted);
- env: the AEC loop as an agent sees it, an observation (`Match.view` encoded) and a masked
  random action every step, agent steps/s;

then one observation 100 steps into seed 1, split into the engine's `Match.view` and its
encoding (µs each).

No test asserts a duration: this is where speed is measured (docs/pettingzoo.md).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tavernlang import Match, compile_file, playout
from tavernlang.engine.runner import bot_pick, bot_rng
from tavernlang.pettingzoo import env as make_env

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {"little_tavern": 3, "cavern_tavern": 3, "tavern_masters": 3, "taverns_of_tiefenthal": 3}


def bench(name: str, players: int, n: int) -> dict:
    path = str(ROOT / "games" / f"{name}.tav")
    game = compile_file(path)
    seeds = range(1, n + 1)
    out = {"game": name, "players": players, "games": n}

    t0 = time.perf_counter()
    decisions = sum(playout(game, players, s)["decisions"] for s in seeds)
    out["sim_decisions_per_s"] = decisions / (time.perf_counter() - t0)
    out["decisions"] = decisions

    t0 = time.perf_counter()
    applied = 0
    for s in seeds:
        m = Match(game, players, s, log=False)
        rng = bot_rng(s)
        while not m.over:
            m.apply(bot_pick(rng, len(m.legal())))
            applied += 1
    out["match_decisions_per_s"] = applied / (time.perf_counter() - t0)

    e = make_env(game, players=players)
    for key, observe in (("env_noobs_steps_per_s", False), ("env_steps_per_s", True)):
        steps = 0
        t0 = time.perf_counter()
        for s in seeds:
            e.reset(seed=s)
            rng = np.random.default_rng(s)
            for agent in e.agent_iter():
                if observe:
                    obs, _, term, trunc, _ = e.last()
                    if term or trunc:
                        e.step(None)
                        continue
                    e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                else:
                    _, _, term, trunc, _ = e.last(observe=False)
                    if term or trunc:
                        e.step(None)
                        continue
                    e.step(int(rng.integers(e.legal_count())))
                steps += 1
        out[key] = steps / (time.perf_counter() - t0)
    # one observation split in two: the engine's view, then its encoding (100 steps into seed 1)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(100):
        if e.match.over:
            break
        e.step(int(rng.integers(e.legal_count())))
    seat = e.agent_name_mapping[e.agent_selection]
    t0 = time.perf_counter()
    for _ in range(200):
        view = e.match.view(seat)
    t1 = time.perf_counter()
    for _ in range(200):
        e._enc.encode(view, seat)
    out["view_us"] = (t1 - t0) / 200 * 1e6
    out["encode_us"] = (time.perf_counter() - t1) / 200 * 1e6
    out["obs_size"] = e.observation_layout()["size"]
    out["env_vs_sim"] = out["env_steps_per_s"] / out["sim_decisions_per_s"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(PLAYERS))
    ap.add_argument("--players", "-p", type=int, default=None)
    ap.add_argument("-n", type=int, default=20, help="games (seeds 1..n) per measurement")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [bench(g, args.players or PLAYERS[g], args.n) for g in args.games]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'game':24} {'p':>2} {'decisions':>9} {'sim dec/s':>10} {'Match dec/s':>11} "
          f"{'env steps/s (no obs)':>20} {'env steps/s':>11} {'obs size':>8} {'env/sim':>7} {'view µs':>8} {'encode µs':>9}")
    for r in rows:
        print(f"{r['game']:24} {r['players']:>2} {r['decisions']:>9} {r['sim_decisions_per_s']:>10.0f} "
              f"{r['match_decisions_per_s']:>11.0f} {r['env_noobs_steps_per_s']:>20.0f} {r['env_steps_per_s']:>11.0f} "
              f"{r['obs_size']:>8} {r['env_vs_sim']:>7.2f} {r['view_us']:>8.0f} {r['encode_us']:>9.0f}")


if __name__ == "__main__":
    main()
