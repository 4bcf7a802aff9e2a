"""Games on several processes or a Dask cluster (`--jobs`, `--dask` of sim, compare, report and
lint --simulate).

Workers are forked from the process that compiled the game (where the OS forks; elsewhere each
compiles the rules file once) and play the seeds they are handed in chunks; the chunks finish
in any order (a progress callback hears of each as it does), and the results are given back in
seed order, so a run with any number of jobs reports exactly what one job reports. With one job
nothing is forked.
"""
from __future__ import annotations

import logging

import multiprocessing as mp
from typing import Any, Iterator

_GAMES: dict[Any, Any] = {}  # in a worker: a game's key (game_key, or a rules file alone) -> compiled game
# chunks of random playouts per worker: enough that the last chunk to finish leaves the other
# workers idle for little (with 4 a chunk, a run of half a second left one core idle ~50 ms)
CHUNKS = 16


def game_key(path: str, game) -> tuple[str, frozenset]:
    """What a job names its game by: the rules file and its layout, as the zone families kept in
    card order (engine/layout.py; none: the exact layout), so a worker that compiles it afresh
    compiles the same game. (A rules file alone names its game in the exact layout.)"""
    return (path, game.layout.sorted)


def _compiled(key):
    g = _GAMES.get(key)
    if g is None:
        from .engine.compile import CompiledGame
        from .engine.layout import Layout
        from .loader import load
        path, sorted_fams = key if isinstance(key, tuple) else (key, frozenset())
        g = _GAMES[key] = CompiledGame(load(path), layout=Layout(sorted_fams))
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
    except MemoryError as e:  # (the process's limit, engine/budget.py): this game is reported, the run goes on
        from .engine.budget import out_of_memory
        from .engine.common import located
        err = out_of_memory(located(e).span)
        return {"error": str(err), "span": err.span, "seed": seed, "players": players}


def _play(job: tuple, fn=None) -> dict:
    path, *args = job
    if fn is not None:
        return fn(_compiled(path), *args)
    return _one(_compiled(path), *args)


def _play_chunk(chunk: list[tuple], fn=None) -> list[dict]:
    """A chunk of games on a worker; each rules file is compiled once per worker process."""
    return [_play(job, fn) for job in chunk]


def _play_numbered(task: tuple) -> tuple[int, list[dict]]:
    k, chunk, fn = task
    return k, _play_chunk(chunk, fn)


def _chunk_size(jobs: list[tuple], workers: int, fn=None, cluster: bool = False) -> int:
    """A few chunks per worker; games with search bots are long: small chunks (on a cluster, one
    game each), so the workers stay busy to the end and a progress bar moves."""
    slow = fn is None and any(len(j) > 4 and j[4] is not None for j in jobs)
    if slow:
        return 1 if cluster else max(1, len(jobs) // (workers * 16))
    return max(1, min(500, len(jobs) // (workers * CHUNKS)))


def _in_order(finished, progress) -> Iterator[dict]:
    """The results of chunks that finish in any order ((k, results) pairs), in the order of k;
    `progress(n)` is told of each chunk's n games as it finishes."""
    waiting: dict[int, list] = {}
    nxt = 0
    for k, results in finished:
        if progress is not None:
            progress(len(results))
        waiting[k] = results
        while nxt in waiting:
            yield from waiting.pop(nxt)
            nxt += 1


def playouts(jobs: list[tuple], n_jobs: int, local: dict | None = None, dask: str | None = None,
             progress=None, fn=None) -> Iterator[dict]:
    """The results of `jobs` (game key, players, seed, options[, bots]), in order: a game key is a
    rules file (its exact layout) or game_key's (file, layout). `local` maps a key to its game
    compiled in this process (used when there is a single job). `dask`: the
    address of a Dask scheduler to play on instead (see `dask_playouts`). `progress(n)`: told as
    games finish, chunk by chunk, whatever their order. `fn`: another task than a playout, a
    module-level function called as fn(game, *rest of the job) on the worker."""
    if dask is not None:
        yield from dask_playouts(jobs, dask, progress=progress, fn=fn)
        return
    if n_jobs <= 1:
        for path, *args in jobs:
            game = (local or {}).get(path) or _compiled(path)
            r = fn(game, *args) if fn is not None else _one(game, *args)
            if progress is not None:
                progress(1)
            yield r
        return
    try:  # forked workers inherit the games compiled here: nothing is imported, parsed or compiled again
        ctx = mp.get_context("fork")
        _GAMES.update(local or {})
        if fn is None:  # (random playouts: their flavour and initial states)
            _warm(jobs)
    except ValueError:  # no fork on this OS: workers import tavernlang and compile the rules afresh
        ctx = mp.get_context("spawn")
    size = _chunk_size(jobs, n_jobs, fn)
    tasks = [(k, jobs[i:i + size], fn) for k, i in enumerate(range(0, len(jobs), size))]
    import gc
    gc.freeze()  # (what the workers inherit is left out of their collections: no copy of its pages)
    try:
        with ctx.Pool(n_jobs) as pool:
            yield from _in_order(pool.imap_unordered(_play_numbered, tasks), progress)
    finally:
        gc.unfreeze()


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
        # (its processes' logs silenced but for the worst: a worker that loses the scheduler while
        # the cluster shuts down logs a traceback, though every game was played and returned)
        cluster = LocalCluster(n_workers=int(n or 2), threads_per_worker=1, dashboard_address=None,
                               silence_logs=logging.CRITICAL)
        return Client(cluster), cluster
    try:
        return Client(address, timeout=10), None
    except (OSError, TimeoutError, ValueError) as e:
        raise DaskError(f"no Dask scheduler at '{address}': {e}") from None


def dask_playouts(jobs: list[tuple], address: str, chunk: int | None = None, progress=None,
                  fn=None, wait: float | None = None) -> Iterator[dict]:
    """The games played on a Dask cluster in chunks of seeds, results in the order of `jobs` (the
    same as on one process). Rules files are read by the workers at their absolute paths: a
    cluster of several machines needs the same checkout at the same place on each. A cluster with
    no worker is waited for `wait` seconds (worker_wait() by default), at the start and whenever
    every worker has left, then the run stops with a DaskError."""
    import os
    def absolute(key):  # (a game's key: its file and its layout's sorted zone families, or its file)
        return (os.path.abspath(key[0]), key[1]) if isinstance(key, tuple) else os.path.abspath(key)
    jobs = [(absolute(j[0]),) + tuple(j[1:]) for j in jobs]
    client, cluster = dask_client(address)
    limit = worker_wait() if wait is None else wait
    try:
        _await_workers(client, address, limit)
        workers = max(1, _workers(client))
        size = chunk or _chunk_size(jobs, workers, fn, cluster=True)
        tasks = [(k, jobs[i:i + size], fn) for k, i in enumerate(range(0, len(jobs), size))]
        futures = client.map(_play_numbered, tasks, pure=False)
        # each chunk as it finishes (for the progress bar), the results in order
        yield from _in_order(_finished(client, futures, address, limit), progress)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


WORKER_WAIT = 60.0  # seconds a run waits for a Dask worker when the cluster has none


def worker_wait() -> float:
    """How long a run waits for a Dask worker: TAV_DASK_WAIT (seconds) or WORKER_WAIT."""
    import os
    text = os.environ.get("TAV_DASK_WAIT", "")
    try:
        value = float(text) if text else WORKER_WAIT
    except ValueError:
        raise DaskError(f"TAV_DASK_WAIT='{text}' is not a number of seconds") from None
    if not value > 0:
        raise DaskError(f"TAV_DASK_WAIT='{text}' must be more than 0 seconds")
    return value


def _workers(client) -> int:
    return len(client.scheduler_info().get("workers", {}))


def _say_waiting(address: str, limit: float, why: str) -> None:
    import sys
    print(f"{why}: waiting up to {limit:g} s for a worker at {address} (TAV_DASK_WAIT sets how long)",
          file=sys.stderr, flush=True)


def _await_workers(client, address: str, limit: float) -> None:
    """Return when the cluster has a worker; say so on stderr while it has none."""
    if _workers(client):
        return
    _say_waiting(address, limit, "the Dask cluster has no worker")
    try:
        client.wait_for_workers(1, timeout=limit)
    except TimeoutError:
        raise DaskError(f"no Dask worker joined the scheduler at '{address}' in {limit:g} s") from None


def _finished(client, futures: list, address: str, limit: float, poll: float = 1.0) -> Iterator:
    """The futures' results as they finish; stops with a DaskError when the cluster has had no
    worker for `limit` seconds while games were left to play (they would never be played)."""
    import time
    from distributed import wait
    left, alone_since = set(futures), None
    while left:
        try:
            done = wait(list(left), timeout=poll, return_when="FIRST_COMPLETED").done
        except TimeoutError:  # (nothing finished within poll seconds)
            done = set()
        for f in done:
            left.discard(f)
            yield f.result()
        if done or _workers(client):
            alone_since = None
            continue
        if alone_since is None:
            alone_since = time.monotonic()
            _say_waiting(address, limit, f"every Dask worker has left, {len(left)} chunks of games unplayed")
        elif time.monotonic() - alone_since > limit:
            raise DaskError(f"every Dask worker left the scheduler at '{address}' and none came back in "
                            f"{limit:g} s: {len(left)} chunks of games were not played")


class progress_bar:
    """A progress bar on the terminal for `total` games, moved by the chunks as they finish
    (`with progress_bar("simulating", n) as tick: ... playouts(..., progress=tick)`). Drawn on
    stderr, and only when stderr is a terminal: what a command prints on stdout (its --json
    too) is never mixed with it. `tick` is None when no bar is drawn."""

    def __init__(self, label: str, total: int, stream=None):
        import sys
        self.label, self.total = label, total
        self.stream = stream if stream is not None else sys.stderr
        self.bar = None

    def __enter__(self):
        isatty = getattr(self.stream, "isatty", None)
        if self.total <= 0 or not (isatty and isatty()):
            return None
        import click
        self.bar = click.progressbar(length=self.total, label=self.label, file=self.stream, show_eta=True)
        self.bar.__enter__()
        return self.bar.update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False
