"""What one iteration of a search bot costs, in playouts (and, with --winrate, how often it wins).

The decisions (and the steps of work, `State.steps`) its sampled worlds play, to reach the
decision and then to search on from it, over the decisions (and steps) of the whole game it plays in, and over those of a random
playout of the game (the mean of --playouts seeds).

    python benchmarks/bench_search.py [--games games/little_tavern.tav ...] [--players 4] [--seed 1]
                                      [--bots mcts:2] [--games-per 1]
                                      [--playouts 20] [--exact]

--games-per games per rules file (1), the search bot in seat 1 against random bots, seeds from
--seed (the games' decisions and steps are their mean): the counts are the same on every run
(no clock is read), so two checkouts compare figure for figure. A world replays the choices
from the copy where the decision's turn (or step, or phase) began, or from the seed for a
decision before any phase, and then plays the game out at random (bots.py): `replayed` is the
first part, in decisions.

    python benchmarks/bench_search.py --winrate [--games games/little_tavern.tav ...] [--players 4]
                                      [--bots mcts:50] [--games-per 200] [--seed 1]

--winrate plays --games-per games of each rules file, the bot of --bots against random bots in
the other seats, seat-rotated (game i puts it in seat i mod players), seeds from --seed, at 4
players (or the most the game allows, when fewer), and prints the bot's share of the wins (a
shared win counts its share; chance is 1/players) with its 95% Wilson interval, and the CPU time
(time.process_time) per game, one line per game played so far every --every games and at the end.
--no-kept-trees starts every MCTS search from a new tree (never the subtree the seat's previous
search left under its choice, Searcher._kept_tree): the same budget with and without the trees
kept, for measuring what keeping them is worth.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tavernlang import compile_file  # noqa: E402
from tavernlang.balance import wilson  # noqa: E402
from tavernlang.bots import Searcher, drive, parse_bot, parse_bots, play, rotate  # noqa: E402
from tavernlang.engine.runner import playout  # noqa: E402

GAMES = ["games/little_tavern.tav", "games/cavern_tavern.tav", "games/tavern_masters.tav",
         "games/taverns_of_tiefenthal.tav", "examples/dice_tavern.tav"]


def measure(path: Path, players: int, seed: int, bot: str, exact: bool, playouts: int, games: int = 1) -> dict:
    """`games` games from `seed`, summed: the worlds' work per world, over the games' own per game."""
    game = compile_file(path) if exact else compile_file(path, fast=True)
    players = max(game.min_players, min(players, game.max_players))
    bots = parse_bots(bot, 1) + [("random", 0)] * (players - 1)
    decisions = steps = searches = worlds = played = replayed = wsteps = 0
    for g in range(games):
        st, history, seats = drive(game, players, seed + g, None, bots)
        s = seats.search[0]
        decisions, steps = decisions + len(history), steps + st.steps
        searches, worlds = searches + s.searches, worlds + s.worlds
        played, replayed, wsteps = played + s.played, replayed + s.replayed, wsteps + s.steps
    decisions, steps = decisions / games, steps / games  # (a game's, on average)
    rs = [playout(game, players, seed + i) for i in range(playouts)]
    mean_d = sum(r["decisions"] for r in rs) / max(1, playouts)
    mean_s = sum(r["steps"] for r in rs) / max(1, playouts)
    per_d, per_s = played / max(1, worlds), wsteps / max(1, worlds)
    return {"game": path.stem, "players": players, "decisions": decisions, "steps": steps,
            "searches": searches, "worlds": worlds,
            "decisions/world": per_d, "replayed/world": replayed / max(1, worlds), "steps/world": per_s,
            "playouts/iteration (decisions)": per_d / max(1, decisions),
            "playouts/iteration (steps)": per_s / max(1, steps),
            "random playout": (mean_d, mean_s),
            "random playouts/iteration": (per_d / max(1, mean_d), per_s / max(1, mean_s))}


def winrate(path: Path, players: int, seed: int, bot: str, games: int, every: int = 0, exact: bool = False) -> dict:
    """`games` games, the bot against random bots, seat-rotated: its share of the wins with its
    95% interval, and CPU seconds per game (the whole game: the search and the random seats)."""
    import time
    game = compile_file(path) if exact else compile_file(path, fast=True)
    players = max(game.min_players, min(players, game.max_players))
    field = [parse_bot(bot)] + parse_bots("random", players - 1)
    wins, cpu = 0.0, 0.0
    r = {}
    for i in range(games):
        bots = rotate(field, i)
        t = time.process_time()
        res = play(game, players, seed + i, None, bots)
        cpu += time.process_time() - t
        seat = i % players
        if seat in res["winners"]:
            wins += 1 / len(res["winners"])
        n = i + 1
        rate, lo, hi = wilson(wins, n)
        r = {"game": path.stem, "players": players, "bot": str(field[0]), "games": n, "wins": wins,
             "rate": rate, "low": lo, "high": hi, "chance": 1 / players, "cpu_per_game": cpu / n}
        if (every and n % every == 0) or n == games:
            print(f"{r['game']:28} {players:>2} {r['bot']:>22} {n:>6} {wins:>7.1f} "
                  f"{100 * rate:>6.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}] {r['cpu_per_game']:>9.2f}", flush=True)
    return r


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=GAMES, help="rules files (from the checkout's root)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="mcts:2", help="the search bot of seat 1 (mcts:N or greedy)")
    ap.add_argument("--games-per", type=int, default=1, help="games per rules file, seeds from --seed")
    ap.add_argument("--playouts", type=int, default=20, help="random playouts (seeds from --seed) to measure against")
    ap.add_argument("--exact", action="store_true", help="the exact layout (default: the fast one, as tav sim)")
    ap.add_argument("--winrate", action="store_true", help="the bot's win rate against random bots, seat-rotated")
    ap.add_argument("--every", type=int, default=0, help="--winrate: a line every N games as well")
    ap.add_argument("--no-kept-trees", action="store_true",
                    help="every MCTS search starts from a new tree (for measuring what the kept trees are worth)")
    a = ap.parse_args(argv)
    if a.no_kept_trees:
        Searcher._keep = lambda self, *args: None  # (nothing kept: _kept_tree finds nothing)
    if a.winrate:
        print(f"{'game':28} {'p':>2} {'bot':>22} {'games':>6} {'wins':>7} {'win rate [95%]':>22} {'CPU s/game':>10}")
        for g in a.games:
            winrate(ROOT / g, a.players, a.seed, a.bots, a.games_per, a.every, a.exact)
        return
    print(f"{'game':28} {'p':>2} {'decisions':>9} {'steps':>8} {'searches':>8} {'worlds':>7} "
          f"{'dec/world':>9} {'replayed':>8}  {'per iteration: this game':>24}  {'a random playout':>16}")
    print(f"{'':77} {'(decisions, steps)':>24}  {'(decisions, steps)':>18}")
    for g in a.games:
        r = measure(ROOT / g, a.players, a.seed, a.bots, a.exact, a.playouts, a.games_per)
        print(f"{r['game']:28} {r['players']:>2} {r['decisions']:>9.1f} {r['steps']:>8.0f} {r['searches']:>8} "
              f"{r['worlds']:>7} {r['decisions/world']:>9.1f} {r['replayed/world']:>8.1f} "
              f"{r['playouts/iteration (decisions)']:>16.3f} {r['playouts/iteration (steps)']:>7.3f}"
              f"{r['random playouts/iteration'][0]:>12.3f} {r['random playouts/iteration'][1]:>7.3f}", flush=True)


if __name__ == "__main__":
    main()
