"""The web side of `tav serve` (Starlette): the lobby and table pages, a small JSON API, and one
WebSocket per open page that pushes its seat's state whenever the table moves.

    GET  /                      the lobby (static/index.html)
    GET  /api/game              the game: name, player counts, options (as `tav info --json`)
    POST /api/tables            a new table: {players, options, seats, seed, hotseat} -> its links
    POST /api/load              a new table from a save (the body: the save's JSON) -> its links
    GET  /t/TOKEN               a table page (static/table.html)
    GET  /api/t/TOKEN/state     the state the seat(s) of TOKEN may see
    GET  /api/t/TOKEN/save      the table's save (`tav play --load` resumes it)
    WS   /ws/TOKEN              pushes {"type": "state", ...}; takes {"type": "choose", "decision":
                                ID, "option": N}, {"type": "why", "line": N}, {"type": "why_not"},
                                {"type": "card", "name": TEXT}, {"type": "state"}, {"type":
                                "undo"} (hot seat); answers a bad one with
                                {"type": "error", "message": ...}. A replay's page (`tav serve
                                --replay`) also sends {"type": "step", "step": K} (0 to the
                                save's choices: every page of the replay goes there) and
                                {"type": "seat", "seat": N} (1 to players; 0: the public view).
                                A page sends at most RATE messages a second (BURST at once):
                                past that its messages are dropped (the first with an error),
                                and past REFUSED dropped in a row the socket is closed (1008).
                                An HTTP connection makes at most as many requests (past that: 429).

The engine runs in worker threads, one step of one table at a time (each table has its lock);
bots move `bot_delay` seconds after the decision before theirs.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict, deque
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import tables
from .tables import ReplayTable, Server, Table, WebError

STATIC = Path(__file__).resolve().parent / "static"
MAX_FORM = 64_000  # a new table's request
MAX_FRAME = 64_000  # a WebSocket frame: uvicorn refuses a larger one unread (tav serve passes it as ws_max_size)
RATE = 20.0  # messages a second one page may send, on average
BURST = 40  # messages one page may send at once, beyond the rate
REFUSED = 200  # messages past the rate after which the page is closed (a flood, not a fast hand)
MAX_CONNECTIONS = 10_000  # HTTP connections whose rate is remembered
clock = time.monotonic


class _Conn:
    """One open page: its socket, its seats, how much of the log it has been sent, and the
    messages waiting to go to it, in the order they were made."""

    def __init__(self, ws: WebSocket, seats: frozenset[int]):
        self.ws, self.seats = ws, seats
        self.sent_log = 0
        self.viewer = None  # the seat whose log it was sent (a hot-seat page changes seat)
        self.epoch = 0  # the table's epoch it was sent (an undo: the whole log again)
        self.version = -1  # the table's version of the last state it was given
        self.outbox: deque[dict] = deque()
        self.sending = asyncio.Lock()  # one sender at a time: the messages leave in order
        self.limit = _Bucket()  # the messages it may send

    def allow(self) -> bool:
        return self.limit.allow()

    @property
    def refused(self) -> int:
        return self.limit.refused


class _Bucket:
    """What one connection may send (a token bucket): RATE messages or requests a second on
    average, BURST at once."""

    def __init__(self):
        self.tokens, self.refill = float(BURST), clock()
        self.refused = 0  # refused since it last kept to the rate

    def allow(self) -> bool:
        """Whether one more may go now; one past the rate is refused (and counted)."""
        now = clock()
        self.tokens = min(float(BURST), self.tokens + (now - self.refill) * RATE)
        self.refill = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False


class _HttpLimit:
    """ASGI middleware: each HTTP connection (the client's address and port) may make RATE
    requests a second, BURST at once; a request past that is answered 429 and not handled. The
    buckets of the last MAX_CONNECTIONS connections are kept."""

    def __init__(self, app):
        self.app = app
        self.buckets: OrderedDict = OrderedDict()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            key = tuple(scope.get("client") or ())
            b = self.buckets.pop(key, None) or _Bucket()
            self.buckets[key] = b
            while len(self.buckets) > MAX_CONNECTIONS:
                self.buckets.popitem(last=False)
            if not b.allow():
                reply = JSONResponse({"error": f"too many requests: a connection may make {RATE:g} a second "
                                      f"({BURST} at once)"}, status_code=429, headers={"Retry-After": "1"})
                await reply(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Hub:
    """The tables' locks, bot drivers and open pages.

    Every message to a page is made and queued on its connection while the table's lock is
    held, so each page's queue is in the order the table changed; `flush` sends a page's queue
    in that order, one sender at a time. A page is queued a pushed state only when the table has
    changed since the last state it was given (a page that connects while a change is being
    pushed gets that state once)."""

    def __init__(self, server: Server, bot_delay: float):
        self.server, self.bot_delay = server, bot_delay
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, set[_Conn]] = {}
        self.drivers: dict[str, asyncio.Task] = {}
        self.observe = None  # a callable(table, seats, message) given every message before it is sent
        server.on_drop.append(self.forget)

    def lock(self, t: Table) -> asyncio.Lock:
        return self.locks.setdefault(t.id, asyncio.Lock())

    def forget(self, t: Table) -> None:
        """The server has let the table go: its lock, its pages' set and its bot driver go too
        (a page still open on it keeps its table, and `leave` forgets the rest when it closes)."""
        task = self.drivers.get(t.id)
        if task is not None and task.done():
            del self.drivers[t.id]
        self._tidy(t)

    def _tidy(self, t: Table) -> None:
        """The lock and the empty set of pages of a table the server has let go, once no page
        and no bot driver uses them."""
        if not self.conns.get(t.id):
            self.conns.pop(t.id, None)
        if t.id not in self.server.tables and t.id not in self.conns and t.id not in self.drivers:
            self.locks.pop(t.id, None)

    def leave(self, t: Table, conn: _Conn) -> None:
        """A page has closed: it is no longer sent the table's states; a table's empty set of
        pages goes, and so does the lock of a table the server has let go."""
        self.conns.get(t.id, set()).discard(conn)
        self._tidy(t)

    def message(self, t: Table, conn: _Conn | None, seats: frozenset[int]) -> dict:
        """The state for a page (run under the table's lock): the log from what it has."""
        start = 0
        if conn is not None:
            seat = t.seat_for(seats)
            if conn.viewer != seat or conn.epoch != t.epoch:
                conn.viewer, conn.epoch, conn.sent_log = seat, t.epoch, 0
            start = conn.sent_log
        msg = t.state(seats, start)
        if conn is not None:
            conn.sent_log = start + len(msg["log"])
            conn.version = t.version
        if self.observe is not None:
            self.observe(t, seats, msg)
        return msg

    def _changed(self, t: Table, conn: _Conn) -> bool:
        """Whether the table has moved since the last state this page was given."""
        return conn.version != t.version or conn.epoch != t.epoch or conn.viewer != t.seat_for(conn.seats)

    def queue(self, conn: _Conn, msg: dict) -> None:
        conn.outbox.append(msg)

    async def flush(self, conn: _Conn) -> None:
        """Send the page everything queued for it, in order (a page that has gone is forgotten,
        and the table goes on)."""
        async with conn.sending:
            while conn.outbox:
                msg = conn.outbox.popleft()
                try:
                    await conn.ws.send_text(json.dumps(msg))
                except Exception:
                    conn.outbox.clear()
                    for conns in self.conns.values():
                        conns.discard(conn)
                    return

    async def queue_states(self, t: Table) -> list[_Conn]:
        """(Under the table's lock) each open page of the table that has not seen its change is
        queued its new state. -> those pages."""
        def make():
            conns = [c for c in self.conns.get(t.id, ()) if self._changed(t, c)]
            return conns, [self.message(t, c, c.seats) for c in conns]
        conns, msgs = await run_in_threadpool(make)
        for c, m in zip(conns, msgs):
            self.queue(c, m)
        return conns

    async def push(self, t: Table) -> None:
        """Every open page of the table gets its new state."""
        async with self.lock(t):
            conns = await self.queue_states(t)
        for c in conns:
            await self.flush(c)

    def drive(self, t: Table) -> None:
        """Let the bots move, one at a time, until a person is to decide (or the game ends)."""
        task = self.drivers.get(t.id)
        if task is None or task.done():
            self.drivers[t.id] = asyncio.get_running_loop().create_task(self._drive(t))

    async def _drive(self, t: Table) -> None:
        try:
            await self._moves(t)
        finally:
            if self.drivers.get(t.id) is asyncio.current_task():
                del self.drivers[t.id]
                self._tidy(t)

    async def _moves(self, t: Table) -> None:
        try:
            while True:
                async with self.lock(t):  # (the match is read only under its lock: a step may be running)
                    if not t.bot_to_move():
                        return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                async with self.lock(t):
                    await run_in_threadpool(t.bot_step)
                    conns = await self.queue_states(t)
                for c in conns:
                    await self.flush(c)
        except Exception as e:  # a fault of the server while bots move: on this table alone
            import traceback
            self.server.log_fault(t, traceback.format_exc())
            async with self.lock(t):
                t.error = f"internal error: {type(e).__name__}: {e}"
                t.version += 1  # (a change: every page is sent it)
            try:
                await self.push(t)
            except Exception:
                self.server.log_fault(t, traceback.format_exc())


def make_app(server: Server, bot_delay: float = 0.5) -> Starlette:
    hub = Hub(server, bot_delay)

    def err(message: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def body(request: Request, limit: int) -> bytes:
        """The request's body, refused past `limit` bytes (read no further than that)."""
        size = request.headers.get("content-length")
        if size is not None and size.isdigit() and int(size) > limit:
            raise WebError(f"the upload is larger than {limit} bytes")
        got = bytearray()
        async for chunk in request.stream():
            got += chunk
            if len(got) > limit:
                raise WebError(f"the upload is larger than {limit} bytes")
        return bytes(got)

    async def lobby(request: Request):
        return FileResponse(STATIC / "index.html")

    async def game(request: Request):
        return JSONResponse(server.info())

    async def new_table(request: Request):
        try:
            raw = await body(request, MAX_FORM)
            try:
                req = json.loads(raw)
            except ValueError:
                raise WebError("a new table needs a JSON object") from None
            t = await run_in_threadpool(server.create, req)
        except WebError as e:
            return err(str(e))
        hub.drive(t)
        return JSONResponse(server.links(t))

    async def load(request: Request):
        try:
            raw = await body(request, tables.MAX_SAVE_BYTES)
            t = await run_in_threadpool(server.load, raw)
        except WebError as e:
            return err(str(e))
        hub.drive(t)
        return JSONResponse(server.links(t))

    async def table_page(request: Request):
        if request.path_params["token"] not in server.by_token:
            return err("no table has this link (a wrong or old token)", 404)
        return FileResponse(STATIC / "table.html")

    async def state(request: Request):
        try:
            t, seats = server.lookup(request.path_params["token"])
        except WebError as e:
            return err(str(e), 404)
        async with hub.lock(t):
            msg = await run_in_threadpool(hub.message, t, None, seats)
        return JSONResponse(msg)

    async def save(request: Request):
        try:
            t, seats = server.lookup(request.path_params["token"])
        except WebError as e:
            return err(str(e), 404)
        if not seats:
            return err("a watcher's link cannot save the table", 403)
        async with hub.lock(t):
            refused = t.save_refused()
            data = None if refused else await run_in_threadpool(t.save)
        if refused:
            return err(refused, 403)
        name = Path(server.file).stem + f"-{t.id}.tavsave.json"
        return Response(json.dumps(data), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def socket(ws: WebSocket):
        await ws.accept()
        try:
            t, seats = server.lookup(ws.path_params["token"])
        except WebError as e:
            await ws.send_text(json.dumps({"type": "error", "message": str(e)}))
            await ws.close(code=4404)
            return
        conn = _Conn(ws, seats)
        try:
            async with hub.lock(t):
                hub.conns.setdefault(t.id, set()).add(conn)
                hub.queue(conn, await run_in_threadpool(hub.message, t, conn, seats))
            await hub.flush(conn)
            while True:
                event = await ws.receive()
                if event["type"] == "websocket.disconnect":
                    break
                if not conn.allow():
                    if conn.refused > REFUSED:
                        await ws.close(code=1008, reason="too many messages")
                        break
                    if conn.refused == 1:
                        hub.queue(conn, {"type": "error", "message": f"too many messages: a page may send "
                                         f"{RATE:g} a second ({BURST} at once): the messages past that are dropped, "
                                         "and a page that keeps on is closed"})
                        await hub.flush(conn)
                    continue
                text = event.get("text")
                if text is None:
                    text = (event.get("bytes") or b"").decode("utf-8", "replace")
                reply = await _answer(hub, t, conn, text)
                if reply is not None:
                    hub.queue(conn, reply)
                await hub.flush(conn)
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(t, conn)

    routes = [
        Route("/", lobby),
        Route("/api/game", game),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/load", load, methods=["POST"]),
        Route("/t/{token}", table_page),
        Route("/api/t/{token}/state", state),
        Route("/api/t/{token}/save", save),
        WebSocketRoute("/ws/{token}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(_HttpLimit)])
    app.state.hub = hub
    app.state.server = server
    return app


async def _answer(hub: Hub, t: Table, conn: _Conn, text: str) -> dict | None:
    """A page's message -> the reply to that page; None: the reply (a change's new states to
    every page, or the answer made under the table's lock) is queued already, in order."""
    if len(text) > tables.MAX_MESSAGE:
        return {"type": "error", "message": f"a message may be at most {tables.MAX_MESSAGE} characters"}
    try:
        msg = json.loads(text)
    except ValueError:
        return {"type": "error", "message": "a message must be a JSON object"}
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return {"type": "error", "message": 'a message must be a JSON object with a "type"'}
    kind = msg["type"]
    try:
        if kind in ("choose", "undo"):
            async with hub.lock(t):
                if kind == "choose":
                    await run_in_threadpool(t.choose, conn.seats, msg.get("decision"), msg.get("option"))
                else:
                    await run_in_threadpool(t.undo, conn.seats)
                conns = await hub.queue_states(t)
            for c in conns:
                await hub.flush(c)
            hub.drive(t)
            return None
        if kind in ("why", "card", "why_not"):
            def look():
                out = (t.why(conn.seats, msg.get("line")) if kind == "why" else t.card(conn.seats, msg.get("name"))
                       if kind == "card" else t.why_not(conn.seats))
                if hub.observe is not None:
                    hub.observe(t, conn.seats, out)
                return out
            async with hub.lock(t):
                hub.queue(conn, await run_in_threadpool(look))
            return None
        if kind == "step" and isinstance(t, ReplayTable):
            async with hub.lock(t):
                await run_in_threadpool(t.goto, msg.get("step"))
                conns = await hub.queue_states(t)
                if conn not in conns:  # (a step to where the replay is: the page is answered all the same)
                    hub.queue(conn, await run_in_threadpool(hub.message, t, conn, conn.seats))
            for c in conns:
                await hub.flush(c)
            return None
        if kind == "seat" and isinstance(t, ReplayTable):  # (a replay's seats are all open; never a live table's)
            seats = t.view_as(msg.get("seat"))
            async with hub.lock(t):
                conn.seats = seats
                hub.queue(conn, await run_in_threadpool(hub.message, t, conn, conn.seats))
            return None
        if kind == "state":
            async with hub.lock(t):
                conn.sent_log = 0
                hub.queue(conn, await run_in_threadpool(hub.message, t, conn, conn.seats))
            return None
    except WebError as e:
        return {"type": "error", "message": str(e)}
    except Exception as e:  # a fault of the server answering one page: that page is told
        import traceback
        hub.server.log_fault(t, traceback.format_exc())
        return {"type": "error", "message": f"internal error: {type(e).__name__}: {e}"}
    known = "step, seat, why, why_not, card or state" if isinstance(t, ReplayTable) else \
        "choose, undo, why, why_not, card or state"
    return {"type": "error", "message": f"unknown message type {kind[:40]!r}: {known}"}
