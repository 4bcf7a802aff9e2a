"""Random playouts on several processes (`tav sim --jobs`, `tav compare --jobs`).

Workers are forked from the process that compiled the game (where the OS forks; elsewhere each
compiles the rules file once) and play the seeds they are handed in large chunks; results come
back in seed order, so a run with any number of jobs reports exactly what one job reports.
With one job nothing is forked.
"""
from __future__ import annotations

import multiprocessing as mp
from typing import Any, Iterator

_GAMES: dict[str, Any] = {}  # in a worker: rules file -> compiled game


def _compiled(path: str):
    g = _GAMES.get(path)
    if g is None:
        from . import compile_file
        g = _GAMES[path] = compile_file(path)
    return g


def _one(game, players: int, seed: int, options, bots=None) -> dict:
    """One playout; a game that stops with an error gives a record of it instead of a result
    (`{"error": message, "span": place, "seed": seed}`), so a long run goes on and reports it.
    `bots` (a parsed `--bots`, see bots.py): None or all random is the random playout itself."""
    from .engine.runner import playout
    from .errors import GameError
    try:
        if bots is None:
            return playout(game, players, seed, options)
        from .bots import play
        return play(game, players, seed, options, bots)
    except GameError as e:
        return {"error": str(e), "span": e.span, "seed": seed, "players": players}


def _play(job: tuple) -> dict:
    path, players, seed, options, *bots = job
    return _one(_compiled(path), players, seed, options, *bots)


def playouts(jobs: list[tuple], n_jobs: int, local: dict | None = None) -> Iterator[dict]:
    """The results of `jobs` (rules file, players, seed, options[, bots]), in order. `local` maps a
    rules file to its game compiled in this process (used when there is a single job)."""
    if n_jobs <= 1:
        for path, players, seed, options, *bots in jobs:
            game = (local or {}).get(path) or _compiled(path)
            yield _one(game, players, seed, options, *bots)
        return
    try:  # forked workers inherit the games compiled here: nothing is imported, parsed or compiled again
        ctx = mp.get_context("fork")
        _GAMES.update(local or {})
    except ValueError:  # no fork on this OS: workers import tavernlang and compile the rules afresh
        ctx = mp.get_context("spawn")
    # a few large chunks per worker: results come back in chunks, still in seed order (games with
    # search bots are long: small chunks, so the workers stay busy to the end)
    slow = any(len(j) > 4 and j[4] is not None for j in jobs)
    chunk = 1 if slow else max(1, len(jobs) // (n_jobs * 4))
    with ctx.Pool(n_jobs) as pool:
        yield from pool.imap(_play, jobs, chunksize=chunk)
