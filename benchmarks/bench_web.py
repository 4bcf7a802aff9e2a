"""`tav serve` on loopback: the round trip from a click to the next decision shown, memory per
open table, and many bots-only tables at once.

    python benchmarks/bench_web.py [--games 1] [--tables 20] [--seconds 300]

A real server (uvicorn, --bot-delay 0) on a free 127.0.0.1 port; for each seed game a person at
P1 (a WebSocket client choosing at random) against random bots: the median time from sending a
choice to receiving the state with P1's next decision (the bots' moves in between included).
Then memory: what opening --tables tables of Cavern Tavern at their first decision allocates
(tracemalloc), per table. Then --tables bots-only Little Tavern tables at once, watched
through their public links until every game has ended (or --seconds pass): how many finished.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ["games/little_tavern.tav", "games/cavern_tavern.tav", "games/tavern_masters.tav",
         "games/taverns_of_tiefenthal.tav"]


def start(path: str):
    import uvicorn

    from tavernlang import compile_file
    from tavernlang.web import app as web
    from tavernlang.web.app import make_app
    from tavernlang.web.tables import Server
    web.RATE, web.BURST = 1e9, 10**6  # (a scripted page clicks at machine speed: no person's rate applies)
    server = Server(compile_file(str(ROOT / path)), path)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    u = uvicorn.Server(uvicorn.Config(make_app(server, 0), log_level="warning", ws_max_size=64_000))
    th = threading.Thread(target=u.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    while not u.started:
        time.sleep(0.01)
    return server, u, th, f"127.0.0.1:{sock.getsockname()[1]}"


async def post(host: str, path: str, body: dict) -> dict:
    r, w = await asyncio.open_connection(*host.split(":"))
    data = json.dumps(body).encode()
    w.write(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    raw = await r.read()
    w.close()
    return json.loads(raw.split(b"\r\n\r\n", 1)[1])


async def round_trips(host: str, seed: int) -> list[float]:
    import websockets
    links = await post(host, "/api/tables", {"players": 2, "seats": ["human", "random"], "seed": seed})
    rng = random.Random(seed)
    out = []
    async with websockets.connect(f"ws://{host}/ws/{links['links'][0]['url'].rsplit('/', 1)[1]}",
                                  max_size=None) as ws:
        sent, last = None, -1
        while True:
            m = json.loads(await ws.recv())
            if m["type"] != "state":
                continue
            if m["result"] is not None:
                return out
            if m["decision"] is not None and m["decision"]["id"] > last:  # (a newer decision than the one answered)
                if sent is not None:
                    out.append(time.perf_counter() - sent)
                sent, last = time.perf_counter(), m["decision"]["id"]
                await ws.send(json.dumps({"type": "choose", "decision": m["decision"]["id"],
                                          "option": rng.randrange(len(m["decision"]["options"])) + 1}))


async def watch_all(host: str, n: int, seconds: float) -> int:
    import websockets
    made = [await post(host, "/api/tables", {"players": 3, "seats": ["random"] * 3, "seed": k}) for k in range(n)]

    async def one(links) -> bool:
        async with websockets.connect(f"ws://{host}/ws/{links['watch'].rsplit('/', 1)[1]}", max_size=None) as ws:
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "state" and (m["result"] is not None or m["error"]):
                    return m["error"] is None
    try:
        done = await asyncio.wait_for(asyncio.gather(*(one(x) for x in made)), seconds)
    except asyncio.TimeoutError:
        return -1
    return sum(done)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1, help="games per seed game for the round trips")
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=300)
    a = ap.parse_args()
    for path in GAMES:
        server, u, th, host = start(path)
        times = []
        for seed in range(1, a.games + 1):
            times += asyncio.run(round_trips(host, seed))
        times.sort()
        print(f"{Path(path).stem}: {len(times)} round trips, median {statistics.median(times) * 1000:.1f} ms, "
              f"90th percentile {times[int(len(times) * 0.9)] * 1000:.1f} ms")
        if path.endswith("cavern_tavern.tav"):
            import tracemalloc
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            for seed in range(a.tables):
                t = server.create({"players": 2, "seats": ["human", "random"], "seed": 100 + seed})
                t.state(frozenset({0}))
            used = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
            print(f"  memory: {used / a.tables / 2 ** 20:.2f} MB per open table at its first decision "
                  f"({a.tables} tables; the process: {rss_mb():.0f} MB resident)")
        u.should_exit = True
        th.join(10)
    server, u, th, host = start("games/little_tavern.tav")
    t0 = time.perf_counter()
    done = asyncio.run(watch_all(host, a.tables, a.seconds))
    print(f"{a.tables} bots-only Little Tavern tables at once: "
          + (f"{done} finished with a result in {time.perf_counter() - t0:.1f} s" if done >= 0 else
             f"not all finished in {a.seconds} s"))
    u.should_exit = True
    th.join(10)


if __name__ == "__main__":
    main()
