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


def _one(game, players: int, seed: int, options, bots=None, traced: bool = False) -> dict:
    """One playout; a game that stops with an error gives a record of it instead of a result
    (`{"error": message, "span": place, "seed": seed}`), so a long run goes on and reports it.
    `bots` (a parsed `--bots`, see bots.py): None or all random is the random playout itself.
    `traced`: the game as `tav report` watches it (bots.watch: the same game, with its
    branching and leaders)."""
    from .engine.runner import playout
    from .errors import GameError
    try:
        if traced:
            from .bots import watch
            return watch(game, players, seed, options, bots)
        if bots is None:
            return playout(game, players, seed, options)
        from .bots import play
        return play(game, players, seed, options, bots)
    except GameError as e:
        return {"error": str(e), "span": e.span, "seed": seed, "players": players}


def _play(job: tuple) -> dict:
    path, players, seed, options, *bots = job
    return _one(_compiled(path), players, seed, options, *bots)


def playouts(jobs: list[tuple], n_jobs: int, local: dict | None = None, dask: str | None = None) -> Iterator[dict]:
    """The results of `jobs` (rules file, players, seed, options[, bots]), in order. `local` maps a
    rules file to its game compiled in this process (used when there is a single job). `dask`: the
    address of a Dask scheduler to play on instead (see `dask_playouts`)."""
    if dask is not None:
        yield from dask_playouts(jobs, dask)
        return
    if n_jobs <= 1:
        for path, players, seed, options, *bots in jobs:
            game = (local or {}).get(path) or _compiled(path)
            yield _one(game, players, seed, options, *bots)
        return
    try:  # forked workers inherit the games compiled here: nothing is imported, parsed or compiled again
        ctx = mp.get_context("fork")
        _GAMES.update(local or {})
        _warm(jobs)
    except ValueError:  # no fork on this OS: workers import tavernlang and compile the rules afresh
        ctx = mp.get_context("spawn")
    # a few large chunks per worker: results come back in chunks, still in seed order (games with
    # search bots are long: small chunks, so the workers stay busy to the end)
    slow = any(len(j) > 4 and j[4] is not None for j in jobs)
    chunk = max(1, len(jobs) // (n_jobs * 16)) if slow else max(1, len(jobs) // (n_jobs * 4))
    with ctx.Pool(n_jobs) as pool:
        yield from pool.imap(_play, jobs, chunksize=chunk)


def _warm(jobs: list[tuple]) -> None:
    """Before forking: what every worker's first game would make for itself, made once here
    (the playout flavour of each game, the initial state of each player count and options)."""
    from .errors import GameError
    seen = set()
    for path, players, _, options, *bots in jobs:
        key = (path, players, repr(sorted((options or {}).items())))
        if key in seen or path not in _GAMES:
            continue
        seen.add(key)
        try:
            _GAMES[path].playouts().new_state(players, 0, options)
        except GameError:  # (reported by the game that meets it)
            pass


class DaskError(RuntimeError):
    """No Dask, or no scheduler at the address (a usage error)."""


def _play_chunk(chunk: list[tuple]) -> list[dict]:
    """On a Dask worker: a chunk of games; each rules file is compiled once per worker process."""
    return [_play(job) for job in chunk]


def dask_client(address: str):
    """A client of the scheduler at `address` (tcp://HOST:8786), or of a cluster started here
    with `local` / `local:N` (N worker processes)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DaskError("--dask needs dask.distributed: pip install 'tavernlang[dask]' "
                        "(from a checkout: pip install -e '.[dask]')") from None
    if address == "local" or address.startswith("local:"):
        n = address.partition(":")[2]
        if n and not n.isdigit():
            raise DaskError(f"'{address}': local:N takes a number of workers")
        cluster = LocalCluster(n_workers=int(n or 2), threads_per_worker=1, dashboard_address=None)
        return Client(cluster), cluster
    try:
        return Client(address, timeout=10), None
    except (OSError, TimeoutError, ValueError) as e:
        raise DaskError(f"no Dask scheduler at '{address}': {e}") from None


def dask_playouts(jobs: list[tuple], address: str, chunk: int | None = None) -> Iterator[dict]:
    """The games played on a Dask cluster in chunks of seeds, results in the order of `jobs` (the
    same as on one process). Rules files are read by the workers at their absolute paths: a
    cluster of several machines needs the same checkout at the same place on each."""
    import os
    jobs = [(os.path.abspath(j[0]),) + tuple(j[1:]) for j in jobs]
    client, cluster = dask_client(address)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        slow = any(len(j) > 4 and j[4] is not None for j in jobs)
        size = chunk or (1 if slow else max(1, min(500, len(jobs) // (workers * 4))))
        chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
        futures = client.map(_play_chunk, chunks, pure=False)
        for f in futures:  # in order: each chunk as soon as it and those before it are done
            yield from f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
