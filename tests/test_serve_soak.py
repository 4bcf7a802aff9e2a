"""`tav serve` over a long day: hundreds of bots-only tables opened through the API and played
to the end (some watched through a page's socket, the others by asking their state) keep the
server's memory flat after warm-up, leave no thread, file or socket open, and keep what the
server holds within its bounds: finished tables beyond `Server.keep_finished` are let go (with
their tokens, locks, bot drivers and pages), so a server is never full of finished games. The
short day runs by default, the long one (500 tables) with -m slow."""
from __future__ import annotations

import gc
import os
import threading
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from test_lsp_soak import measure  # noqa: E402
from test_secrecy import _game  # noqa: E402
from test_web import RECEIVE_WITHIN, _recv  # noqa: E402

from tavernlang.web import tables  # noqa: E402
from tavernlang.web.app import make_app  # noqa: E402
from tavernlang.web.tables import Server  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
GAME = "games/little_tavern.tav"


@pytest.fixture(autouse=True)
def _scripted_pages(monkeypatch):
    """The soak asks for its tables' states at machine speed: the per-connection rate of the
    web server (tested in test_web.py) is lifted."""
    from tavernlang.web import app as web
    monkeypatch.setattr(web, "RATE", 1e9)
    monkeypatch.setattr(web, "BURST", 1_000_000)


BATCH = 10  # tables opened at once (their bots play side by side)
RSS_MARGIN = 24 * 1024 * 1024  # bytes the process may grow by from the warm-up to the end
OBJECTS_MARGIN = 0.05  # the share the live Python objects may grow by likewise


def _played(client, links: dict, watch: bool) -> dict:
    """The table of these links played to its end: its last state (seen through the watcher's
    page, or asked for until the game is over)."""
    if watch:
        with client.websocket_connect(links["watch"].replace("/t/", "/ws/")) as ws:
            msg = _recv(ws)
            while msg["result"] is None and msg["error"] is None:
                msg = _recv(ws)
        return msg
    url = "/api" + links["watch"] + "/state"
    polls = int(RECEIVE_WITHIN * 100)  # (asked every 10 ms: a bound so that the test never hangs)
    for _ in range(polls):
        msg = client.get(url).json()
        if msg["result"] is not None or msg["error"] is not None:
            return msg
        time.sleep(0.01)
    raise AssertionError(f"table {links['table']} had not ended after {polls} asks for its state")


def soak(n_tables: int, keep_finished: int, warm_up: int) -> None:
    threads, files = set(threading.enumerate()), set(os.listdir("/proc/self/fd"))
    server = Server(_game(GAME), GAME)
    server.keep_finished = keep_finished
    app = make_app(server, bot_delay=0)
    hub = app.state.hub
    start = None
    gone = []
    with TestClient(app) as client:
        for first in range(0, n_tables, BATCH):
            made = []
            for seed in range(first, first + BATCH):
                r = client.post("/api/tables", json={"players": 2 + seed % 2, "seats": ["random", "greedy", "random"][:2 + seed % 2],
                                                     "seed": seed})
                assert r.status_code == 200, r.text
                made.append(r.json())
            for k, links in enumerate(made):
                msg = _played(client, links, watch=k % 3 == 0)
                assert msg["error"] is None and msg["result"]["winners"], (links, msg["error"])
            gone.append(made[0])
            assert len(server.tables) <= keep_finished + BATCH
            assert set(server.by_token) == {tok for t in server.tables.values() for tok in t.tokens}
            assert set(hub.locks) <= set(server.tables) and set(hub.conns) <= set(server.tables)
            assert set(hub.drivers) <= set(server.tables)
            if first + BATCH == warm_up:
                start = measure()
        rss_end, objects_end = measure()
        # a table let go is gone for good: its links answer as a wrong token does
        assert client.get("/api" + gone[0]["watch"] + "/state").status_code == 404
        assert client.get("/api" + gone[-1]["watch"] + "/state").status_code == 200
    rss_start, objects_start = start
    print(f"{n_tables} tables: RSS {rss_start / 2**20:.1f} -> {rss_end / 2**20:.1f} MB, "
          f"objects {objects_start} -> {objects_end}")
    assert rss_end - rss_start < RSS_MARGIN, f"grew by {(rss_end - rss_start) / 2**20:.1f} MB"
    assert objects_end - objects_start < OBJECTS_MARGIN * objects_start, \
        f"live objects from {objects_start} to {objects_end}"
    assert not hub.conns and not hub.drivers
    for th in set(threading.enumerate()) - threads:  # (the worker threads stop once the server's loop has ended)
        th.join(RECEIVE_WITHIN)
    gc.collect()
    assert set(threading.enumerate()) <= threads and set(os.listdir("/proc/self/fd")) <= files


def test_forty_bots_only_tables_keep_memory_flat_and_what_the_server_holds_bounded():
    soak(40, keep_finished=5, warm_up=20)


@pytest.mark.slow
def test_five_hundred_bots_only_tables_keep_memory_flat_and_what_the_server_holds_bounded():
    soak(500, keep_finished=tables.KEEP_FINISHED, warm_up=100)


def _bots_only(server, seed):
    t = server.create({"players": 2, "seats": ["random", "random"], "seed": seed})
    while t.bot_to_move():
        t.bot_step()
    assert t.match.over
    return t


def test_a_server_lets_the_first_finished_tables_go_and_keeps_every_live_one():
    server = Server(_game(GAME), GAME)
    server.keep_finished = 2
    dropped = []
    server.on_drop.append(dropped.append)
    live = server.create({"players": 2, "seats": ["human", "random"], "seed": 1})
    done = [_bots_only(server, seed) for seed in range(4)]
    assert dropped == done[:1]  # (the fourth made room: three finished, two kept)
    server.create({"players": 2, "seats": ["human", "random"], "seed": 2})
    assert dropped == done[:2]
    assert live.id in server.tables and set(server.tables) >= {done[2].id, done[3].id}
    assert not any(t is done[0] for t, _ in server.by_token.values())


def test_a_server_full_of_live_tables_refuses_a_new_one_and_makes_room_from_finished_ones(monkeypatch):
    monkeypatch.setattr(tables, "MAX_TABLES", 3)
    server = Server(_game(GAME), GAME)
    finished = _bots_only(server, 0)
    live = [server.create({"players": 2, "seats": ["human", "random"], "seed": s}) for s in (1, 2)]
    assert finished.id in server.tables  # (within keep_finished)
    third = server.create({"players": 2, "seats": ["human", "random"], "seed": 3})  # room made: the finished one goes
    assert set(server.tables) == {t.id for t in live + [third]}
    with pytest.raises(tables.WebError, match="3 tables already"):
        server.create({"players": 2, "seats": ["human", "random"], "seed": 4})
