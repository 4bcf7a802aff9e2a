"""`tav serve`: whole games of every seed game played through the HTTP and WebSocket API by
scripted seats, every message each page is sent checked with the secrecy oracle of the engine
tests (test_secrecy.py), and the requests a page or a stranger can get wrong: each a clear
error, and the table goes on."""
from __future__ import annotations

import json
import random
import threading
from pathlib import Path

import anyio
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from test_secrecy import RULES_TEXT, CheckedLog, Watch, _game  # noqa: E402

from tavernlang.engine.runner import Match  # noqa: E402
from tavernlang.web import tables  # noqa: E402
from tavernlang.web.app import make_app  # noqa: E402
from tavernlang.web.tables import Server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.tav"))
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
RECEIVE_WITHIN = 60.0  # seconds a test waits for one message of the server before it fails


@pytest.fixture(autouse=True)
def _scripted_pages(monkeypatch):
    """The scripted pages of these tests send at machine speed: the per-page rate is lifted
    (the test of the rate sets its own)."""
    from tavernlang.web import app as web
    monkeypatch.setattr(web, "RATE", 1e9)
    monkeypatch.setattr(web, "BURST", 1_000_000)


def _recv(ws, within: float = RECEIVE_WITHIN) -> dict:
    """The next message a page is sent (`receive_json` with a deadline): a message that never
    comes fails the test with a message instead of stalling the run. (Starlette's test socket
    has no timeout of its own: this waits on its stream in its event loop, bounded.)"""
    rx = ws._send_rx  # (an AttributeError here: starlette's test socket changed; fix this helper)

    async def receive():
        with anyio.fail_after(within):
            return await rx.receive()
    try:
        message = ws.portal.call(receive)
    except TimeoutError:
        raise AssertionError(f"the page {ws.scope['path']} was sent nothing for {within} s") from None
    ws._raise_on_close(message)
    return json.loads(message["text"])


class PublicWatch(Watch):
    """The oracle's Watch with one more reader: the watcher's page, a seat past the last. It may
    read a name only when every player may (a card shown to all is shown to each player)."""

    def __init__(self, game, st):
        super().__init__(game, st)
        self.known.append(set())

    def secret(self, p, n) -> bool:
        if p == len(self.known) - 1:
            return any(super(PublicWatch, self).secret(q, n) for q in self.st.players)
        return super().secret(p, n)


class PublicCheckedLog(CheckedLog):
    """The oracle's checked log, each line also checked (and learned from) for the watcher."""

    def append(self, entry):
        super().append(entry)
        text, hidden, data = entry
        if data.get("type") in RULES_TEXT:
            return
        n = len(self.w.known) - 1
        self.w.check(n, text if hidden is None else hidden[1], f"log line {len(self)}")


class Checked(Match):
    """A match whose log is checked by the secrecy oracle from the setup's first line on; its
    Watch also checks every message the server sends."""

    def _step(self, send):
        if not hasattr(self, "watch"):
            self.watch = PublicWatch(self.game, self.st)
            self.watch.learn()
            self.st.log = PublicCheckedLog(self.watch)
        super()._step(send)


def _strings(msg: dict):
    """The texts of a message that name cards, each alone. Left out, as the oracle leaves out
    the log lines the rules wrote: the rules' own words, which may name a kind of card (a card's
    text, a log line of an effect's title or a `log` statement, the messages of `w`)."""
    yield from msg.get("view", ())
    yield from msg.get("cards", {})  # (the labels of the cards shown; their texts are the rules')
    for e in msg.get("log", ()):
        if e["kind"] not in RULES_TEXT:
            yield e["text"]
        yield from (n for n in e["notes"] if n.startswith("(= "))  # (a gain's terms; else a card's text)
    d = msg.get("decision")
    if d:
        yield d["prompt"]
        yield from (o["label"] for o in d["options"])
    r = msg.get("result")
    if r:
        yield from r["why"]
    yield from msg.get("lines", ())  # why N
    if msg.get("type") == "card" and ":" in msg.get("text", ""):
        yield msg["text"].split(":", 1)[0]  # (the card's name; then its text)


def _checking(server: Server, seen: list):
    """The hub's observer: each message checked for the seat it is sent to, as it is sent."""
    def observe(t, seats, msg):
        w = t.match.watch
        seat = t.seat_for(seats)
        p = t.match.players if seat is None else seat
        w.learn()
        for text in _strings(msg):
            w.check(p, text, f"a message to {'the watcher' if seat is None else f'P{seat + 1}'}: {msg['type']}")
        seen.append((p, msg["type"]))
    return observe


@pytest.fixture
def checked(monkeypatch):
    monkeypatch.setattr(tables, "Match", Checked)


def _client(path: str, seen: list | None = None):
    server = Server(_game(path), path)
    app = make_app(server, bot_delay=0)
    if seen is not None:
        app.state.hub.observe = _checking(server, seen)
    return server, app


def _play(client, links: dict, rng: random.Random, extra=None) -> dict:
    """Play the table to its end: each person's seat from its own socket, a random option each
    time. The watcher's page, sent every change, says whose decision it is (a person's decision
    holds the table still until it is made). -> the last state of each page."""
    socks = {}
    by_seat = {}
    for link in links["links"]:
        tok = link["url"].rsplit("/", 1)[1]
        socks[tok] = ws = client.websocket_connect(f"/ws/{tok}").__enter__()
        for s in link["seats"]:
            by_seat[s] = (tok, ws)
    watcher = client.websocket_connect(f"/ws/{links['watch'].rsplit('/', 1)[1]}").__enter__()
    last = {}
    try:
        for _ in range(100_000):
            pub = _recv(watcher)
            assert pub["type"] == "state" and pub["error"] is None, pub
            assert pub["decision"] is None  # (a watcher decides nothing)
            if pub["result"] is not None:
                last["watch"] = pub
                break
            k = pub["to_act"]
            if k not in by_seat:
                continue  # a bot is to move: it moves by itself
            tok, ws = by_seat[k]
            while True:
                m = _recv(ws)
                assert m["type"] == "state", m
                last[tok] = m
                d = m["decision"]
                if d is not None and m["seat"] == k and d["id"] == pub["decision_id"]:
                    break
            if extra is not None:
                extra(ws, m)
            ws.send_json({"type": "choose", "decision": d["id"], "option": rng.randrange(len(d["options"])) + 1})
        else:
            raise AssertionError("the game did not end")
        for tok, ws in socks.items():  # each page gets the end
            while True:
                m = _recv(ws)
                if m["type"] == "state":
                    last[tok] = m
                    if m["result"] is not None:
                        break
    finally:
        for ws in [*socks.values(), watcher]:
            ws.__exit__(None, None, None)
    return last


def _reply(ws, kind: str) -> dict:
    """The answer to a page's question (a state pushed meanwhile is passed over)."""
    while True:
        r = _recv(ws)
        if r["type"] != "state":
            assert r["type"] == kind, r
            return r


def _ask_why(ws, m):
    """A person's page asks `why` of its last log line and the text of a card it may see."""
    last = m["log_start"] + len(m["log"])
    if last:
        ws.send_json({"type": "why", "line": last})
        assert _reply(ws, "why")["lines"][0].startswith(f"{last}. ")
    if m["cards"]:
        ws.send_json({"type": "card", "name": sorted(m["cards"])[0]})
        assert "no card is named" not in _reply(ws, "card")["text"]
    if m["decision"]["id"] % 5 == 0:  # (now and then: `w` works out every action's requirements)
        ws.send_json({"type": "why_not"})
        assert _reply(ws, "why_not")["text"]


@pytest.mark.parametrize("path", GAMES)
def test_whole_games_played_through_the_api_show_no_seat_a_card_it_may_not_see(path, checked):
    """Two people at their own pages, a bot (but in the longest game) and a watcher; every
    message checked for its reader at the moment it is sent; the game ends with a result every
    page shows alike."""
    seen: list = []
    server, app = _client(path, seen)
    players = 2 if "tiefenthal" in path else 3  # (Tiefenthal at 3 plays three times as many decisions)
    seats = ["human", "human"] + ["random"] * (players - 2)
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"players": players, "seats": seats, "seed": 7})
        assert r.status_code == 200, r.text
        links = r.json()
        assert len(links["links"]) == 2 and len({x["url"] for x in links["links"]}) == 2
        last = _play(client, links, random.Random(7), extra=_ask_why)
        t = server.tables[links["table"]]
        assert t.match.watch.problems == []
        assert t.match.over and t.error is None
    results = {json.dumps(m["result"]["scores"]) for m in last.values()}
    assert len(results) == 1 and json.loads(results.pop()) == t.match.result["scores"]
    readers = {p for p, _ in seen}
    assert readers >= {0, 1, players}  # both people and the watcher were checked
    assert {"why", "card", "why_not"} <= {kind for _, kind in seen}


def _in_order(states: list) -> None:
    """A page's states: each newer than the one before, its log lines following on without a gap
    or a repeat."""
    versions = [m["version"] for m in states]
    assert versions == sorted(set(versions)), versions
    for a, b in zip(states, states[1:]):
        assert b["log_start"] == a["log_start"] + len(a["log"]), (a["version"], b["version"])


def test_a_page_that_connects_while_a_bot_moves_gets_that_move_once(monkeypatch):
    """The watcher's page connects while a bot's move is being made (its socket waits for the
    table): it is sent the state after that move once, then each later one. The same state
    twice would tell a page again that a decision it has made is open."""
    _, app = _client("games/little_tavern.tav")
    gate = threading.Semaphore(0)
    bot_step = tables.Table.bot_step

    def gated(self):
        assert gate.acquire(timeout=RECEIVE_WITHIN), "the test never let the bot move"
        return bot_step(self)
    monkeypatch.setattr(tables.Table, "bot_step", gated)
    with TestClient(app) as client:
        links = client.post("/api/tables", json={"players": 2, "seats": ["random", "human"], "seed": 1}).json()
        with client.websocket_connect(links["watch"].replace("/t/", "/ws/")) as watcher:
            for _ in range(1000):  # (the bot's first move is being made: now it may move on)
                gate.release()
            got = [_recv(watcher)]
            while got[-1]["to_act"] != 2:  # (then the person decides, and the watcher is told)
                got.append(_recv(watcher))
            with client.websocket_connect(links["links"][0]["url"].replace("/t/", "/ws/")) as ws:
                d = _recv(ws)["decision"]
                ws.send_json({"type": "choose", "decision": d["id"], "option": 1})
                got.append(_recv(watcher))
    _in_order(got)


def test_a_page_gets_its_asked_state_and_the_next_change_in_order(monkeypatch):
    """The state a page asks for (the whole log) is held up on its way (a slow socket) while the
    bot moves: the page still gets the state it asked for first and the bot's move after it,
    never an older state after a newer one."""
    from starlette.websockets import WebSocket
    server = Server(_game("games/little_tavern.tav"), "games/little_tavern.tav")
    app = make_app(server, bot_delay=1.0)  # (the bot moves a second after the table is made)
    send_text = WebSocket.send_text
    hold = {"asked": False, "made": None, "later": False}

    async def slow(ws, data):
        msg = json.loads(data)
        if msg["type"] == "state" and hold["asked"] and not hold["later"]:
            if hold["made"] is None:  # (the asked state: held until a newer one is handed on)
                hold["made"] = msg["version"]
                made = 0
                for _ in range(1000):  # (or half a second after the table has made a newer one)
                    made += next(iter(server.tables.values())).version > hold["made"]
                    if hold["later"] or made > 50:
                        break
                    await anyio.sleep(0.01)
            elif msg["version"] > hold["made"]:
                hold["later"] = True
        await send_text(ws, data)
    monkeypatch.setattr(WebSocket, "send_text", slow)
    with TestClient(app) as client:
        links = client.post("/api/tables", json={"players": 2, "seats": ["random", "human"], "seed": 1}).json()
        with client.websocket_connect(links["watch"].replace("/t/", "/ws/")) as watcher:
            first = _recv(watcher)
            hold["asked"] = True
            watcher.send_json({"type": "state"})
            asked = _recv(watcher)
            got = [asked]
            while got[-1]["to_act"] != 2 and got[-1]["result"] is None:
                got.append(_recv(watcher))
    assert first["type"] == "state" and hold["made"] is not None
    assert asked["log_start"] == 0, f"the page was sent version {asked['version']} before the state it asked for"
    _in_order(got)


def test_a_page_sent_nothing_fails_the_test_instead_of_waiting():
    """The tests' receive has a deadline: a page whose table stands still (a person's decision)
    is sent nothing more, and waiting for it fails."""
    _, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        _, (tok, _) = _table(client)
        with client.websocket_connect(f"/ws/{tok}") as ws:
            assert _recv(ws)["type"] == "state"
            with pytest.raises(AssertionError, match="was sent nothing for 0.2 s"):
                _recv(ws, within=0.2)


def test_the_oracle_on_the_messages_finds_a_leak(checked, monkeypatch):
    """The check can fail: a server that sends each seat the whole table (the view of nobody in
    particular, every card shown) is caught."""
    seen: list = []
    path = "games/little_tavern.tav"
    server, app = _client(path, seen)
    monkeypatch.setattr(tables.play, "view_lines", lambda m, seat:
                        [f"    all: {', '.join(m.game.card_name[c] for z in m.st.zones for c in z)}"])
    with TestClient(app) as client:
        links = client.post("/api/tables", json={"players": 2, "seats": ["human", "random"], "seed": 1}).json()
        tok = links["links"][0]["url"].rsplit("/", 1)[1]
        with client.websocket_connect(f"/ws/{tok}") as ws:
            assert _recv(ws)["type"] == "state"
        problems = server.tables[links["table"]].match.watch.problems
    assert problems and problems[0][0] == 0, problems


def test_a_hot_seat_table_shows_each_person_only_their_own_seat(checked):
    """One link plays both people's seats; each state is the view of the seat whose decision it
    is, checked for that seat."""
    seen: list = []
    path = "games/little_tavern.tav"
    server, app = _client(path, seen)
    with TestClient(app) as client:
        links = client.post("/api/tables", json={"players": 3, "seats": ["human", "random", "human"],
                                                 "seed": 3, "hotseat": True}).json()
        assert links["hotseat"] and [x["seats"] for x in links["links"]] == [[1, 3]]
        _play(client, links, random.Random(3))
        assert server.tables[links["table"]].match.watch.problems == []
    assert {p for p, _ in seen} >= {0, 2}


def _table(client, path="games/little_tavern.tav"):
    links = client.post("/api/tables", json={"players": 2, "seats": ["human", "human"], "seed": 2}).json()
    return links, [x["url"].rsplit("/", 1)[1] for x in links["links"]]


def test_a_wrong_token_is_refused_and_gives_no_seat():
    _, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        _table(client)
        assert client.get("/api/t/not-a-token/state").status_code == 404
        assert "wrong or old token" in client.get("/api/t/not-a-token/state").json()["error"]
        assert client.get("/t/not-a-token").status_code == 404
        assert client.get("/api/t/not-a-token/save").status_code == 404
        with client.websocket_connect("/ws/not-a-token") as ws:
            m = _recv(ws)
            assert m["type"] == "error" and "wrong or old token" in m["message"]


def test_a_seat_cannot_decide_for_another_seat():
    _, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        links, (t1, t2) = _table(client)
        s1 = client.get(f"/api/t/{t1}/state").json()
        other = t2 if s1["to_act"] == 1 else t1
        mine = t1 if other == t2 else t2
        with client.websocket_connect(f"/ws/{other}") as ws:
            m = _recv(ws)
            assert m["decision"] is None
            ws.send_json({"type": "choose", "decision": s1["decision_id"], "option": 1})
            e = _recv(ws)
            assert e["type"] == "error" and "not yours" in e["message"]
        assert client.get(f"/api/t/{mine}/state").json()["decision"]["id"] == 0


def test_malformed_and_oversized_messages_get_errors_and_the_table_goes_on():
    _, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        links, toks = _table(client)
        k = client.get(f"/api/t/{toks[0]}/state").json()["to_act"]
        tok = toks[k - 1]
        with client.websocket_connect(f"/ws/{tok}") as ws:
            d = _recv(ws)["decision"]
            bad = ["not json", "[1, 2]", '{"no": "type"}', '{"type": "dance"}', "x" * 10_000,
                   '{"type": "choose", "decision": "0", "option": 1}',
                   '{"type": "choose", "decision": 0, "option": 99}',
                   '{"type": "why", "line": "three"}', '{"type": "card", "name": 5}']
            for text in bad:
                ws.send_text(text)
                m = _recv(ws)
                assert m["type"] == "error" and m["message"], (text, m)
            ws.send_bytes(b"\xff\xfe")
            assert _recv(ws)["type"] == "error"
            ws.send_json({"type": "choose", "decision": d["id"], "option": 1})
            m = _recv(ws)
            assert m["type"] == "state" and m["version"] == 1


def test_a_stale_decision_is_refused_and_the_page_gets_the_current_one():
    _, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        _, toks = _table(client)
        hot = client.post("/api/tables", json={"players": 2, "seats": ["human", "human"], "seed": 2,
                                               "hotseat": True}).json()
        tok = hot["links"][0]["url"].rsplit("/", 1)[1]
        with client.websocket_connect(f"/ws/{tok}") as ws:
            d = _recv(ws)["decision"]
            ws.send_json({"type": "choose", "decision": d["id"], "option": 1})
            assert _recv(ws)["type"] == "state"
            ws.send_json({"type": "choose", "decision": d["id"], "option": 1})  # (a second click)
            m = _recv(ws)
            assert m["type"] == "error" and "no longer open" in m["message"]
            ws.send_json({"type": "state"})
            m = _recv(ws)
            assert m["type"] == "state" and m["decision"]["id"] == d["id"] + 1 and m["log_start"] == 0


def test_a_save_downloaded_loads_into_a_new_table_at_the_same_decision():
    server, app = _client("games/cavern_tavern.tav")
    with TestClient(app) as client:
        links = client.post("/api/tables", json={"players": 2, "seats": ["human", "greedy"], "seed": 4}).json()
        tok = links["links"][0]["url"].rsplit("/", 1)[1]
        with client.websocket_connect(f"/ws/{tok}") as ws:
            for _ in range(3):
                m = _recv(ws)
                while m["decision"] is None:
                    m = _recv(ws)
                ws.send_json({"type": "choose", "decision": m["decision"]["id"], "option": 1})
        saved = client.get(f"/api/t/{tok}/save")
        assert saved.headers["content-disposition"].startswith("attachment")
        data = saved.json()
        assert data["seats"] == [1] and data["bots"] == "random,greedy" and len(data["choices"]) >= 3
        again = client.post("/api/load", content=saved.content)
        assert again.status_code == 200, again.text
        new = server.tables[again.json()["table"]]
        old = server.tables[links["table"]]
        assert new.match.choices == old.match.choices[:len(new.match.choices)]
        assert new.match.st.snapshot() == Match.load(server.game, data).st.snapshot()


@pytest.mark.parametrize("make, says", [
    (lambda d: b"{not json", "not JSON"),
    (lambda d: b"[]", "not a JSON object"),
    (lambda d: json.dumps(dict(d, choices=[0, 99999])).encode(), "does not replay"),
    (lambda d: json.dumps(dict(d, rules_sha256="0" * 64)).encode(), "rules file has changed"),
    (lambda d: json.dumps(dict(d, seats=[7])).encode(), "'seats'"),
    (lambda d: json.dumps(dict(d, bots="wizard")).encode(), "'bots'"),
    (lambda d: json.dumps(dict(d, bot_rng=[1, [2], None])).encode(), "random generator"),
    (lambda d: json.dumps(dict(d, hotseat="yes")).encode(), "'hotseat' must be true or false"),
    (lambda d: json.dumps(dict(d, state_sha256="0" * 64)).encode(), "saved state differs"),
    (lambda d: json.dumps(dict(d, options={"win_coins": 0})).encode(), "it is in 1..1000"),
    (lambda d: b" " * (tables.MAX_SAVE_BYTES + 1), "larger than"),
])
def test_a_crafted_save_is_refused_with_a_clear_error_and_the_server_goes_on(make, says):
    server, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        links = client.post("/api/tables", json={"players": 2, "seats": ["human", "random"], "seed": 2}).json()
        toks = [x["url"].rsplit("/", 1)[1] for x in links["links"]]
        data = client.get(f"/api/t/{toks[0]}/save").json()
        r = client.post("/api/load", content=make(data))
        assert r.status_code == 400 and says in r.json()["error"], r.text
        assert len(server.tables) == 1
        assert client.get(f"/api/t/{toks[0]}/state").json()["error"] is None


def test_a_fault_in_one_table_stops_that_table_alone(monkeypatch):
    """An exception while a table moves is shown on that table; the server and its other tables
    go on."""
    server, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        _, (a, _) = _table(client)
        _, (b, _) = _table(client)
        ta, _ = server.lookup(a)
        monkeypatch.setattr(ta.match, "apply", lambda i: 1 / 0)
        k = client.get(f"/api/t/{a}/state").json()["to_act"]
        tok = server_token(server, ta, k)
        with client.websocket_connect(f"/ws/{tok}") as ws:
            d = _recv(ws)["decision"]
            ws.send_json({"type": "choose", "decision": d["id"], "option": 1})
            m = _recv(ws)
            assert "ZeroDivisionError" in m["error"] and m["decision"] is None
            ws.send_json({"type": "choose", "decision": d["id"], "option": 1})
            assert "this table has stopped" in _recv(ws)["message"]
        assert server.faults and "ZeroDivisionError" in server.faults[-1]
        assert client.get(f"/api/t/{b}/state").json()["error"] is None
        assert client.get("/api/game").status_code == 200


def server_token(server, t, k: int) -> str:
    return next(tok for tok, seats in t.tokens.items() if seats == frozenset({k - 1}))


def test_the_lobby_offers_the_options_as_tav_info_gives_them():
    from click.testing import CliRunner

    from tavernlang.cli import main
    _, app = _client("games/tavern_masters.tav")
    with TestClient(app) as client:
        got = client.get("/api/game").json()
        for page in ("/", "/static/lobby.js", "/static/table.js", "/static/style.css"):
            assert client.get(page).status_code == 200
    info = json.loads(CliRunner().invoke(main, ["info", "games/tavern_masters.tav", "--json"]).output)
    assert got["options"] == info["options"] and got["players"] == info["players"]


@pytest.mark.parametrize("req, says", [
    ({"players": 9, "seats": ["human"] * 9}, "players"),
    ({"players": 2, "seats": ["human"]}, "one seat kind per player"),
    ({"players": 2, "seats": ["human", "wizard"]}, "unknown bot"),
    ({"players": 2, "seats": ["human", "mcts:0"]}, "iterations"),
    ({"players": 2, "seats": ["human", "mcts:1000000"]}, "at most 20000 iterations"),
    ({"players": 2, "seats": ["human", "random"], "options": {"nope": 1}}, "unknown option"),
    ({"players": 2, "seats": ["human", "random"], "options": {"win_coins": 0}}, "must be in"),
    ({"players": 2, "seats": ["human", "random"], "seed": "x"}, "seed"),
])
def test_a_wrong_new_table_is_refused_with_its_reason(req, says):
    server, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        r = client.post("/api/tables", json=req)
        assert r.status_code == 400 and says in r.json()["error"], r.text
        assert client.post("/api/tables", content=b"{").status_code == 400
    assert server.tables == {}


def test_undo_at_a_hot_seat_table_goes_back_to_the_last_decision_and_nowhere_else():
    server, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        hot = client.post("/api/tables", json={"players": 3, "seats": ["human", "random", "human"], "seed": 4,
                                               "hotseat": True}).json()
        tok = hot["links"][0]["url"].rsplit("/", 1)[1]
        t = server.lookup(tok)[0]
        with client.websocket_connect(f"/ws/{tok}") as ws:
            m = _recv(ws)
            assert m["undo"] is False
            ws.send_json({"type": "undo"})
            assert "nothing to undo" in _recv(ws)["message"]
            before = (list(t.match.choices), m["view"], m["log_start"] + len(m["log"]))
            ws.send_json({"type": "choose", "decision": m["decision"]["id"], "option": 2})
            m = _recv(ws)
            while m["decision"] is None:
                m = _recv(ws)
            assert m["undo"] is True and len(t.match.choices) > len(before[0])
            after = list(t.match.choices)
            ws.send_json({"type": "undo"})
            m = _recv(ws)
            assert m["type"] == "state" and t.match.choices == before[0]
            assert m["view"] == before[1] and m["log_start"] == 0 and len(m["log"]) == before[2]
            ws.send_json({"type": "choose", "decision": m["decision"]["id"], "option": 2})  # (the same)
            again = _recv(ws)
            while again["decision"] is None:
                again = _recv(ws)
        assert t.match.choices == after  # (the same pick again: the bots choose as before)
        plain = client.post("/api/tables", json={"players": 2, "seats": ["human", "random"], "seed": 4}).json()
        with client.websocket_connect(plain["links"][0]["url"].replace("/t/", "/ws/")) as ws:
            _recv(ws)
            ws.send_json({"type": "undo"})
            assert "hot-seat tables only" in _recv(ws)["message"]


def test_tav_serve_is_a_command_that_checks_its_options_before_it_serves(tmp_path):
    """`tav serve` is listed by `tav --help`; a wrong option or a file with no game stops it
    with a message before any server starts (exit 2 and 1)."""
    from click.testing import CliRunner

    from tavernlang.cli import main
    assert "serve" in CliRunner().invoke(main, ["--help"]).output
    r = CliRunner().invoke(main, ["serve", "games/little_tavern.tav", "-o", "nope=1"])
    assert r.exit_code == 2 and "unknown option 'nope'" in r.output
    f = tmp_path / "nogame.tav"
    f.write_text('game "No Game"\nplayers 2\n')
    r = CliRunner().invoke(main, ["serve", str(f)])
    assert r.exit_code == 1 and "no 'rounds' block" in r.output


def test_a_flood_from_one_page_is_dropped_past_its_limit_then_closed_and_the_table_goes_on(monkeypatch):
    """A page may send BURST messages at once and RATE a second: the first message past that
    gets an error, the next are dropped unanswered, and past REFUSED of them the socket is
    closed (1008). Other pages of the table are not held back, and a page that slows down is
    answered again. (The clock is held still, so that no message is earned back meanwhile.)"""
    from starlette.websockets import WebSocketDisconnect

    from tavernlang.web import app as web
    now = [1000.0]
    monkeypatch.setattr(web, "clock", lambda: now[0])
    monkeypatch.setattr(web, "REFUSED", 5)
    monkeypatch.setattr(web, "RATE", 20.0)
    monkeypatch.setattr(web, "BURST", 40)
    _, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        links, toks = _table(client)
        with client.websocket_connect(f"/ws/{toks[0]}") as ws, client.websocket_connect(f"/ws/{toks[1]}") as other:
            _recv(ws), _recv(other)
            for _ in range(web.BURST):
                ws.send_json({"type": "state"})
                assert _recv(ws)["type"] == "state"
            ws.send_json({"type": "state"})
            m = _recv(ws)
            assert m["type"] == "error" and "too many messages" in m["message"], m
            ws.send_json({"type": "state"})  # (dropped, unanswered)
            other.send_json({"type": "state"})
            assert _recv(other)["type"] == "state"
            now[0] += 1.0  # a second later: RATE messages earned back
            for _ in range(int(web.RATE)):
                ws.send_json({"type": "state"})
                assert _recv(ws)["type"] == "state"
            for _ in range(web.REFUSED + 1):
                ws.send_json({"type": "state"})
            assert _recv(ws)["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                _recv(ws)
            assert closed.value.code == 1008
            other.send_json({"type": "state"})
            assert _recv(other)["type"] == "state"


def test_a_table_of_several_people_gives_no_page_the_seed_or_the_save_before_the_end():
    """The seed and the rules fix every shuffle: at a table of people on separate pages, no page
    is told the seed, and no seat downloads the save (which holds it), until the game is over;
    then both are given. A table of one person shows its own seed, and saves."""
    _, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        links, toks = _table(client)
        for tok in toks + [links["watch"].rsplit("/", 1)[1]]:
            s = client.get(f"/api/t/{tok}/state").json()
            assert s["seed"] is None and s["save"] is False, s
            r = client.get(f"/api/t/{tok}/save")
            assert r.status_code == 403 and "error" in r.json(), r.text
        _play(client, links, random.Random(1))
        for tok in toks:
            s = client.get(f"/api/t/{tok}/state").json()
            assert s["seed"] == 2 and s["save"] is True
            assert client.get(f"/api/t/{tok}/save").json()["seed"] == 2
        solo = client.post("/api/tables", json={"players": 2, "seats": ["human", "random"], "seed": 5}).json()
        tok = solo["links"][0]["url"].rsplit("/", 1)[1]
        s = client.get(f"/api/t/{tok}/state").json()
        assert s["seed"] == 5 and s["save"] is True
        assert client.get(f"/api/t/{tok}/save").json()["seed"] == 5


def test_a_save_names_no_card_to_the_seat_that_downloads_it():
    """A save keeps a hash of the state, never the state: the cards hidden from the seat that
    saved are named nowhere in it."""
    server, app = _client("games/tavern_masters.tav")
    with TestClient(app) as client:
        new = {"players": 3, "seats": ["human", "random", "random"], "seed": 3}
        links = client.post("/api/tables", json=new).json()
        tok = links["links"][0]["url"].rsplit("/", 1)[1]
        text = client.get(f"/api/t/{tok}/save").text
        t = server.tables[links["table"]]
        w = Watch(t.match.game, t.match.st)
        w.learn()
        w.check(0, text, "the save")
        assert w.problems == [] and "state_sha256" in json.loads(text)


def test_a_flood_of_http_requests_from_one_connection_is_answered_429_past_its_limit(monkeypatch):
    """An HTTP connection may make BURST requests at once and RATE a second: past that each
    request is answered 429 without being handled (no table opened), and a second later it is
    served again. (The clock is held still, then moved.)"""
    from tavernlang.web import app as web
    now = [1000.0]
    monkeypatch.setattr(web, "clock", lambda: now[0])
    monkeypatch.setattr(web, "RATE", 20.0)
    monkeypatch.setattr(web, "BURST", 40)
    server, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        new = {"players": 2, "seats": ["human", "random"]}
        codes = [client.post("/api/tables", json=new).status_code for _ in range(web.BURST + 5)]
        assert codes == [200] * web.BURST + [429] * 5
        assert len(server.tables) == web.BURST
        r = client.get("/api/game")
        assert r.status_code == 429 and "too many requests" in r.json()["error"] and r.headers["retry-after"] == "1"
        now[0] += 1.0
        assert client.get("/api/game").status_code == 200


def test_an_oversized_or_endless_request_body_is_refused_unread():
    """A new table's request over 64 KB, a save over 2 MB, is refused, whether its
    Content-Length says so or it comes in pieces with none."""
    from tavernlang.web import app as web
    server, app = _client("games/little_tavern.tav")
    with TestClient(app) as client:
        big = b'{"players": 2, "seats": ["human", "random"], "pad": "' + b"x" * web.MAX_FORM + b'"}'
        r = client.post("/api/tables", content=big)
        assert r.status_code == 400 and "larger than 64000 bytes" in r.json()["error"]

        def pieces():
            for _ in range(100):
                yield b"x" * 10_000
        r = client.post("/api/tables", content=pieces())
        assert r.status_code == 400 and "larger than 64000 bytes" in r.json()["error"]
        r = client.post("/api/load", content=(b"y" * 10_000 for _ in range(300)))
        assert r.status_code == 400 and "larger than" in r.json()["error"]
    assert server.tables == {}
