"""The games of the peer benchmark (benchmarks/peers: Pig, Goofspiel and Liar's Dice as
OpenSpiel plays them) check clean and play to the end, and the benchmark counts a game's moves
as OpenSpiel does. OpenSpiel itself is not needed: only tavernlang's side is played here."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.peers.bench_peers import FORCED_MOVES, GAMES, tav_stats_game
from tavernlang import compile_file, playout

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "benchmarks" / "peers"
SEEDS = range(12)


@pytest.fixture(scope="module")
def games():
    return {name: compile_file(PEERS / f"{name}.tav", fast=True) for name in GAMES}


def test_the_peer_folder_holds_exactly_the_benchmarked_games():
    assert sorted(p.stem for p in PEERS.glob("*.tav")) == sorted(GAMES)


def test_pig_ends_with_one_winner_the_only_player_at_the_target(games):
    for seed in SEEDS:
        r = playout(games["pig"], 2, seed)
        assert r["winners"] == [max(range(2), key=lambda p: r["scores"][p])] and max(r["scores"]) >= 100, seed
        assert min(r["scores"]) < 100, seed


def test_goofspiel_plays_its_twelve_bidding_rounds_and_shares_out_at_most_91_points(games):
    for seed in SEEDS:
        r = playout(games["goofspiel"], 2, seed)
        assert r["decisions"] == 24 and r["rounds"] == 13, seed
        assert sum(r["scores"]) <= 91, seed  # the prizes Ace to King: ties discard theirs
        assert r["winners"] == [p for p in range(2) if r["scores"][p] == max(r["scores"])], seed


def test_liars_dice_ends_at_the_first_call_with_one_winner(games):
    for seed in SEEDS:
        r = playout(games["liars_dice"], 2, seed)
        assert len(r["winners"]) == 1 and 2 <= r["decisions"] <= 13, seed


@pytest.mark.parametrize("name, extra", [("pig", {1}), ("goofspiel", {0}), ("liars_dice", {0, 1})])
def test_the_benchmark_counts_as_moves_the_forced_decisions_openspiel_asks(games, name, extra):
    # Pig: the winner's last stop, forced once the target is reached; Goofspiel: never (its last
    # cards are played without asking); Liar's Dice: the call after the highest bid, sometimes
    # (its turn of one action is not a move).
    seen = set()
    for seed in SEEDS:
        _, moves, choices = tav_stats_game(games[name], seed, FORCED_MOVES[name])
        assert choices == playout(games[name], 2, seed)["decisions"], seed
        seen.add(moves - choices)
    assert seen == extra
