"""tavernlang against OpenSpiel's Python API on three games both can play: Pig, Goofspiel and
Liar's Dice (the .tav files beside this one, with OpenSpiel's default parameters).

    python benchmarks/peers/bench_peers.py [--seconds 2] [--rounds 5] [--games pig ...]
    python benchmarks/peers/bench_peers.py --stats 2000 [--games pig ...]

Needs OpenSpiel: pip install -e '.[bench]'.

--stats N: N games of uniformly random play on each side, their statistics side by side with
95% intervals, and whether the intervals overlap (the two are the same game only if they do):

- P1 wins: the share of games the first player wins outright (OpenSpiel: its return is the
  highest and no other player's equals it; tav: P1 is the only winner). A draw (Goofspiel's
  tie, Pig stopped at the horizon) is not a win.
- moves: the length of a game in moves, as OpenSpiel counts them: the player actions in its
  history (chance outcomes left out; a simultaneous turn is one action of each player). A
  move with one legal action is in OpenSpiel's history when a player is asked it (Pig's stop
  once the target is reached, Liar's Dice's call after the highest bid), not when OpenSpiel
  plays it itself (Goofspiel's last card). tav takes every decision of one option without
  asking; its moves are its choices plus the forced decisions that OpenSpiel asks (the
  prompts in FORCED_MOVES below).
- choices: the decisions with at least two options, counted alike on both sides (on tav's
  side, the `decisions` of a playout, what `tav sim` reports).

The tav side plays the engine's uniform bot (seed s: tavernlang's bot generator of seed s,
the game's own generator for chance); the OpenSpiel side a random.Random(s) for the players'
actions and chance alike.

Default: games per second of CPU time (time.process_time), in one interleaved run: for each
of --rounds rounds, each game is played for --seconds by tav (`tavernlang.playout` of the
rules compiled once with compile_file(fast=True), as `tav sim` plays them) and then by
OpenSpiel (the plain loop of `openspiel_playout`); the medians and their ratio
tav/OpenSpiel are printed. No test asserts a duration: this is where speed is measured.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # this checkout's tavernlang

from tavernlang import compile_file, playout  # noqa: E402
from tavernlang.engine.runner import bot_rng, play_inline  # noqa: E402

GAMES = ["pig", "goofspiel", "liars_dice"]  # the .tav file here and OpenSpiel's short name
PLAYERS = 2
TURN = "your turn: choose an action"  # the prompt of a turn's choice of action
# Per game, the prompts of the tav decisions that OpenSpiel asks even with one legal action,
# so counts as moves: Pig's turn whose only action is to stop, Liar's Dice's call after the
# highest bid. (Goofspiel's last bids, and Liar's Dice's turn of its one action, are not moves
# of OpenSpiel.)
FORCED_MOVES = {"pig": {TURN}, "goofspiel": set(), "liars_dice": {"your bid, or Liar!"}}
Z95 = 1.959963984540054


def load_pyspiel():
    try:
        import pyspiel
    except ImportError:
        sys.exit("bench_peers.py needs OpenSpiel (open-spiel): pip install -e '.[bench]'")
    return pyspiel


# ---------------------------------------------------------------- one game on each side
def openspiel_playout(game, rng: random.Random):
    """One game of uniformly random play, as a Python user of OpenSpiel writes it: the chance
    outcome sampled by its probabilities, each player's action uniformly among the legal ones."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def openspiel_stats_game(game, seed: int) -> tuple[bool, int, int]:
    """(P1 wins, moves, choices) of one random game: the loop above, counting."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    choices = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            legal = [state.legal_actions(p) for p in range(game.num_players())]
            choices += sum(len(la) > 1 for la in legal)
            state.apply_actions([rng.choice(la) for la in legal])
        else:
            legal = state.legal_actions()
            choices += len(legal) > 1
            state.apply_action(rng.choice(legal))
    r = state.returns()
    moves = sum(1 for pa in state.full_history() if pa.player >= 0)
    return r[0] > max(r[1:]), moves, choices


def tav_stats_game(game, seed: int, forced_moves: set[str]) -> tuple[bool, int, int]:
    """(P1 wins, moves, choices) of one game by tav's uniform bot: the game played by
    runner.playout's bot, in the flavour that records the decisions of one option by prompt."""
    st = game.new_state(PLAYERS, seed)
    st.offered = {}  # prompt -> the options of each decision of one option (engine/common.only_option)
    rnd = bot_rng(seed).random
    choices = 0

    def agent(player, opts):
        nonlocal choices
        choices += 1
        return int(rnd() * len(opts))

    st.agent = agent
    play_inline(game, st, seed, PLAYERS)
    forced = sum(len(v) for prompt, v in st.offered.items() if prompt in forced_moves)
    return game.result(st)["winners"] == [0], choices + forced, choices


# ---------------------------------------------------------------- statistics
def wilson(k: int, n: int) -> tuple[float, float, float]:
    p = k / n
    d = 1 + Z95 ** 2 / n
    c = (p + Z95 ** 2 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return p, c - h, c + h


def mean_ci(xs: list[int]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    h = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, m - h, m + h


def overlap(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    return a[1] <= b[2] + 1e-12 and b[1] <= a[2] + 1e-12


def stats(names: list[str], n: int) -> bool:
    pyspiel = load_pyspiel()
    print(f"uniform random play, {n} games a side, 95% intervals; moves as OpenSpiel counts them")
    print(f"  {'game':11s} {'statistic':9s} {'tavernlang':>26s} {'OpenSpiel':>26s}  overlap")
    same = True
    for name in names:
        game = compile_file(HERE / f"{name}.tav")
        osg = pyspiel.load_game(name)
        tav = [tav_stats_game(game, s, FORCED_MOVES[name]) for s in range(n)]
        osp = [openspiel_stats_game(osg, s) for s in range(n)]
        rows = [("P1 wins", wilson(sum(w for w, _, _ in tav), n), wilson(sum(w for w, _, _ in osp), n), "{:.3f}"),
                ("moves", mean_ci([m for _, m, _ in tav]), mean_ci([m for _, m, _ in osp]), "{:.2f}"),
                ("choices", mean_ci([c for _, _, c in tav]), mean_ci([c for _, _, c in osp]), "{:.2f}")]
        for stat, a, b, f in rows:
            ok = overlap(a, b)
            same &= ok
            cell = lambda x: f"{f.format(x[0])} [{f.format(x[1])}, {f.format(x[2])}]"  # noqa: E731
            print(f"  {name:11s} {stat:9s} {cell(a):>26s} {cell(b):>26s}  {'yes' if ok else 'NO'}")
    return same


# ---------------------------------------------------------------- speed
def games_per_second(play, seconds: float) -> float:
    """Games of `play(i)` (i = 0, 1, ...) per second of this process's CPU time, for `seconds`."""
    clock = time.process_time
    t0 = clock()
    games = 0
    while clock() - t0 < seconds:
        play(games)
        games += 1
    return games / (clock() - t0)


def speed(names: list[str], seconds: float, rounds: int) -> None:
    pyspiel = load_pyspiel()
    tav = {name: compile_file(HERE / f"{name}.tav", fast=True) for name in names}
    osg = {name: pyspiel.load_game(name) for name in names}
    for name in names:  # warm up: the playout flavour compiled, the first states made
        playout(tav[name], PLAYERS, 0)
        openspiel_playout(osg[name], random.Random(0))
    print(f"random playouts, games per second of CPU time: {seconds:g} s a measurement, "
          f"median of {rounds} interleaved rounds")
    runs: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in names}
    for r in range(rounds):
        for name in names:
            base = r * 1_000_000
            runs[name][0].append(games_per_second(lambda i: playout(tav[name], PLAYERS, base + i), seconds))
            rng = random.Random(base)
            runs[name][1].append(games_per_second(lambda i: openspiel_playout(osg[name], rng), seconds))
    print(f"  {'game':11s} {'tavernlang':>12s} {'OpenSpiel':>12s}  tav/OpenSpiel")
    for name in names:
        t, o = statistics.median(runs[name][0]), statistics.median(runs[name][1])
        print(f"  {name:11s} {t:12.1f} {o:12.1f}  {t / o:6.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stats", type=int, default=None, metavar="N",
                    help="compare the statistics of N random games a side instead of the speed")
    ap.add_argument("--games", nargs="*", default=GAMES, choices=GAMES)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of one measurement")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the median is printed)")
    a = ap.parse_args()
    if a.stats is not None:
        sys.exit(0 if stats(a.games, a.stats) else 1)
    speed(a.games, a.seconds, a.rounds)


if __name__ == "__main__":
    main()
