"""`tav serve --replay`: a saved game (played by bots) replayed read-only over the WebSocket API,
stepping forward and back, from each seat's view and the public one."""
from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import anyio  # noqa: E402
from test_secrecy import _game  # noqa: E402
from test_web import Checked, _checking  # noqa: E402

from tavernlang import play  # noqa: E402
from tavernlang.bots import Seats, parse_bots  # noqa: E402
from tavernlang.engine.runner import Match  # noqa: E402
from tavernlang.web import tables  # noqa: E402
from tavernlang.web.app import make_app  # noqa: E402
from tavernlang.web.tables import ReplayTable, Server  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PATH = "games/little_tavern.tav"
DEADLINE = 60.0  # seconds a test waits for one message before it fails


@pytest.fixture(autouse=True)
def _scripted_pages(monkeypatch):
    """The scripted pages of these tests send at machine speed: the per-page rate is lifted
    (the test of the rate sets its own)."""
    from tavernlang.web import app as web
    monkeypatch.setattr(web, "RATE", 1e9)
    monkeypatch.setattr(web, "BURST", 1_000_000)


def _receive(ws, seconds: float = DEADLINE) -> dict:
    """The next JSON message of the socket, or a failure after `seconds` (never a test that hangs)."""
    async def get():
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()
    message = ws.portal.call(get)
    ws._raise_on_close(message)
    return json.loads(message["text"])


def _saved_game(seed: int = 11, path: str = PATH) -> tuple[Match, dict]:
    """A three-player game played to its end by bots, and its save (as `tav play`'s `s` writes it)."""
    g = _game(path)
    m = Match(g, 3, seed, explain=True)
    seats = Seats(parse_bots("random,greedy,random", 3), seed)
    while not m.over:
        m.apply(seats.choose(m))
    data = m.save(path, g.model.sources.all_text())
    data.update(seats=[2], bots="random,greedy,random")
    return m, data


def _replay(data: dict, seen: list | None = None):
    server = Server(_game(data["rules"]), data["rules"])
    t = server.replay(json.dumps(data).encode())
    app = make_app(server, bot_delay=0)
    if seen is not None:
        check = _checking(server, seen)

        def observe(table, seats, msg):  # (each message checked against the match of the step it shows)
            check(table, seats, msg)
            assert table.match.watch.problems == [], table.match.watch.problems
        app.state.hub.observe = observe
    return server, t, app


def _token(server, t) -> str:
    return server.links(t)["watch"].rsplit("/", 1)[1]


def _go(ws, step: int) -> dict:
    ws.send_json({"type": "step", "step": step})
    msg = _receive(ws)
    assert msg["type"] == "state" and msg["replay"]["step"] == step, msg
    return msg


def _as(ws, seat: int) -> dict:
    ws.send_json({"type": "seat", "seat": seat})
    msg = _receive(ws)
    assert msg["type"] == "state" and msg["seat"] == (seat or None), msg
    return msg


def test_a_replay_starts_at_step_zero_where_nobody_decides():
    m, data = _saved_game()
    server, t, app = _replay(data)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{_token(server, t)}") as ws:
        first = _receive(ws)
        assert first["replay"] == {"step": 0, "steps": len(m.choices)}
        assert first["seat"] is None and first["decision"] is None and first["result"] is None
        assert first["who"] == ["random", "person", "random"]
        for seat in (1, 2, 3):
            assert _as(ws, seat)["decision"] is None  # (read-only: even the seat to decide is offered nothing)


def test_stepping_forward_to_the_end_gives_the_games_result_and_log():
    m, data = _saved_game()
    server, t, app = _replay(data)
    n = len(m.choices)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{_token(server, t)}") as ws:
        _receive(ws)
        msg = _as(ws, 1)
        log = [e["text"] for e in msg["log"]]
        for k in range(1, n + 1):
            msg = _go(ws, k)
            assert msg["log_start"] == len(log)  # (forward: the lines after those the page has)
            log += [e["text"] for e in msg["log"]]
    assert t.match.st.snapshot() == m.st.snapshot()
    assert msg["result"]["scores"] == list(m.result["scores"])
    assert msg["result"]["winners"] == [p + 1 for p in m.result["winners"]]
    assert log == [line for line, _ in play.log_entries(m, 0)]


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_stepping_back_to_step_k_shows_what_a_fresh_match_replayed_to_k_shows(seat):
    m, data = _saved_game()
    server, t, app = _replay(data)
    n = len(m.choices)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{_token(server, t)}") as ws:
        _receive(ws)
        if seat:
            _as(ws, seat)
        _go(ws, n)
        for k in (n - 1, n // 2, 7, 1, 0):
            msg = _go(ws, k)
            fresh = Match(m.game, m.players, m.seed, m.options, explain=True)
            for i in m.choices[:k]:
                fresh.apply(i)
            viewer = seat - 1 if seat else m.players
            assert msg["view"] == (play.view_lines(fresh, viewer) if seat else tables._public_view(fresh))
            assert msg["cards"] == tables._card_texts(fresh, viewer)
            assert msg["log_start"] == 0  # (back: the whole log of step k)
            assert [e["text"] for e in msg["log"]] == [line for line, _ in play.log_entries(fresh, viewer)]
            assert msg["to_act"] == (None if fresh.over else fresh.pending.player + 1)
            assert msg["round"] == fresh.st.round
            assert t.match.st.snapshot() == fresh.st.snapshot()


def _replay_checked(path: str, seed: int) -> ReplayTable:
    """Every message of a replay checked by the secrecy oracle for the view it is sent for, at
    every step forward, after steps back, and after a change of seat (a leak fails an assertion)."""
    m, data = _saved_game(seed, path)
    seen: list = []
    server, t, app = _replay(data, seen)
    n = len(m.choices)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{_token(server, t)}") as ws:
        _receive(ws)
        for seat in (1, 2, 3, 0):
            _as(ws, seat)
            for k in range(1, n + 1, 3 if seat else 1):
                _go(ws, k)
            _go(ws, n)
            for k in (n // 2, n // 3, 0):
                _go(ws, k)
            ws.send_json({"type": "why", "line": 1})
            assert _receive(ws)["type"] == "why"
    assert {p for p, _ in seen} == {0, 1, 2, 3}
    return t


@pytest.mark.parametrize("path, seed", [("games/cavern_tavern.tav", 5), ("games/tavern_masters.tav", 2)])
def test_a_seats_replay_shows_it_only_what_that_seat_may_see(path, seed, monkeypatch):
    monkeypatch.setattr(tables, "Match", Checked)
    t = _replay_checked(path, seed)
    assert isinstance(t.match, Checked) and t.match.watch.problems == []


def test_the_oracle_on_a_replay_finds_a_seat_shown_another_seats_view(monkeypatch):
    """The check can fail: a replay that shows each seat the next seat's cards (and the public
    view P1's) is caught."""
    monkeypatch.setattr(tables, "Match", Checked)
    monkeypatch.setattr(ReplayTable, "viewer", lambda self, seat: 0 if seat is None else (seat + 1) % 3)
    with pytest.raises(AssertionError, match="problems|internal error: AssertionError"):
        _replay_checked("games/cavern_tavern.tav", 5)


def test_wrong_steps_and_bad_messages_get_an_error_and_the_replay_goes_on():
    m, data = _saved_game()
    server, t, app = _replay(data)
    n = len(m.choices)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{_token(server, t)}") as ws:
        _receive(ws)
        _go(ws, 3)
        for bad, says in [
            ({"type": "step", "step": -1}, f"there is no step -1 (0 to {n})"),
            ({"type": "step", "step": n + 1}, f"there is no step {n + 1} (0 to {n})"),
            ({"type": "step", "step": "4"}, "a step is a whole number"),
            ({"type": "step", "step": 4.0}, "a step is a whole number"),
            ({"type": "step", "step": True}, "a step is a whole number"),
            ({"type": "step"}, "a step is a whole number"),
            ({"type": "seat", "seat": 4}, "a seat is a number from 1 to 3"),
            ({"type": "seat", "seat": "P1"}, "a seat is a number from 1 to 3"),
            ({"type": "seat", "seat": False}, "a seat is a number from 1 to 3"),
            ({"type": "choose", "decision": 3, "option": 1}, "this is a replay: no decision can be made"),
            ({"type": "undo"}, "this is a replay"),
            ({"type": "shuffle"}, "unknown message type 'shuffle': step, seat"),
            ("[1, 2]", 'a message must be a JSON object with a "type"'),
            ("not json", "a message must be a JSON object"),
        ]:
            ws.send_text(bad if isinstance(bad, str) else json.dumps(bad))
            msg = _receive(ws)
            assert msg["type"] == "error" and says in msg["message"], (bad, msg)
        assert t.step == 3 and len(t.match.choices) == 3
        assert _go(ws, 4)["seat"] is None  # (the replay goes on, still the public view)


def test_a_live_table_refuses_the_replay_messages():
    """A page of a live table cannot change seat or step: those are a replay's alone."""
    server = Server(_game(PATH), PATH)
    app = make_app(server, bot_delay=0)
    with TestClient(app) as client:
        links = client.post("/api/tables", json={"players": 2, "seats": ["human", "human"], "seed": 3}).json()
        tok = links["links"][0]["url"].rsplit("/", 1)[1]
        with client.websocket_connect(f"/ws/{tok}") as ws:
            assert _receive(ws)["seat"] == 1
            for bad in ({"type": "seat", "seat": 2}, {"type": "step", "step": 0}):
                ws.send_json(bad)
                msg = _receive(ws)
                assert msg["type"] == "error" and "unknown message type" in msg["message"]
            ws.send_json({"type": "state"})
            assert _receive(ws)["seat"] == 1


def _serve(args, monkeypatch):
    """`tav serve ... --replay` run as a click command, with uvicorn replaced: -> (the result, the
    app it would have served or None)."""
    from click.testing import CliRunner

    import uvicorn

    from tavernlang.cli import main
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    return CliRunner().invoke(main, ["serve", PATH, *args]), (served[0] if served else None)


@pytest.mark.parametrize("damage, says", [
    (lambda d: json.dumps(dict(d, choices=d["choices"][:-1] + [999])), "the save does not replay"),
    (lambda d: json.dumps(dict(d, choices="all")), "the save file is damaged: 'choices'"),
    (lambda d: json.dumps(dict(d, rules_sha256="0" * 64)), "the rules file has changed since this game was saved"),
    (lambda d: json.dumps(dict(d, format=0)), "not a tavernlang save file"),
    (lambda d: json.dumps(dict(d, seats=[9])), "'seats' must be seats from 1 to 3"),
    (lambda d: json.dumps(d)[:-20], "the save is not JSON"),
])
def test_tav_serve_replay_with_a_damaged_save_exits_2_with_the_reason(damage, says, tmp_path, monkeypatch):
    _, data = _saved_game()
    f = tmp_path / "damaged.json"
    f.write_text(damage(data))
    r, app = _serve(["--replay", str(f)], monkeypatch)
    assert r.exit_code == 2 and says in r.output and "--replay" in r.output, r.output
    assert app is None  # (refused before any server starts)


def test_tav_serve_replay_with_no_file_exits_2(tmp_path, monkeypatch):
    r, app = _serve(["--replay", str(tmp_path / "none.json")], monkeypatch)
    assert r.exit_code == 2 and "cannot read the save" in r.output and app is None


def test_tav_serve_replay_serves_the_replay_and_prints_its_link(tmp_path, monkeypatch):
    _, data = _saved_game()
    f = tmp_path / "game.json"
    f.write_text(json.dumps(data))
    r, app = _serve(["--replay", str(f)], monkeypatch)
    assert r.exit_code == 0, r.output
    (t,) = app.state.server.tables.values()
    assert isinstance(t, ReplayTable) and t.step == 0 and t.saved.choices == data["choices"]
    assert f"/t/{t.watch_token}" in r.output


@pytest.fixture
def chromium():
    """Headless Chromium as tests/test_web_browser.py starts it (skipped where it is missing)."""
    wb = pytest.importorskip("test_web_browser")  # (skips without playwright)
    if not wb.Path(wb.CHROMIUM).exists():
        pytest.skip("no chromium (apt-get install chromium)")
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))  # (see test_web_browser's browser fixture)
    try:
        pw = wb.sync_api.sync_playwright().start()
        b = pw.chromium.launch(executable_path=wb.CHROMIUM, headless=True, args=wb.ARGS)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    yield b
    b.close()
    pw.stop()


def test_the_replay_page_steps_and_changes_seat_in_a_browser(chromium):
    """The page's controls in headless Chromium: Forward and Back move the replay, the seat
    selector shows that seat's view, and no decision is offered."""
    import socket
    import threading

    import uvicorn
    m, data = _saved_game()
    server, t, app = _replay(data)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    u = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    th = threading.Thread(target=u.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    try:
        for _ in range(1000):
            if u.started:
                break
            th.join(0.01)
        page = chromium.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"http://127.0.0.1:{sock.getsockname()[1]}{server.links(t)['watch']}")
        n = len(m.choices)
        page.wait_for_selector(f"#step:text('step 0 of {n}')")
        assert page.is_disabled("#back") and page.inner_text("#who") == "replay: public view"
        page.click("#forward")
        page.wait_for_selector(f"#step:text('step 1 of {n}')")
        page.click("#forward")
        page.wait_for_selector(f"#step:text('step 2 of {n}')")
        page.click("#back")
        page.wait_for_selector(f"#step:text('step 1 of {n}')")
        page.select_option("#viewas", "2")
        page.wait_for_selector("#who:text(\"replay: P2's view\")")
        fresh = Match(m.game, m.players, m.seed, m.options)
        fresh.apply(m.choices[0])
        assert page.inner_text("#view").split() == " ".join(play.view_lines(fresh, 1)).split()
        assert page.query_selector_all("#decision button.opt") == []
        live = server.create({"players": 2, "seats": ["human", "human"], "seed": 1})
        page.goto(f"http://127.0.0.1:{sock.getsockname()[1]}{server.links(live)['links'][0]['url']}")
        page.wait_for_selector("#decision button.opt")
        assert not page.is_visible("#replay")  # (a live table's page has no replay bar)
    finally:
        u.should_exit = True
        th.join(10)
        sock.close()


def _games_out(tmp_path, *args) -> "Path":
    """A --games-out file of `tav sim` (its records)."""
    from click.testing import CliRunner

    from tavernlang.cli import main
    out = tmp_path / "games.jsonl"
    r = CliRunner().invoke(main, ["sim", PATH, "-p", "3", "--games", "4", "--seed", "5", "--games-out", str(out), *args])
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("args", [[], ["--exact"], ["--bots", "random,greedy,random"]])
def test_tav_serve_replays_a_game_of_a_games_out_file_as_it_was_played(args, tmp_path, monkeypatch):
    out = _games_out(tmp_path, *args)
    rec = [json.loads(line) for line in out.read_text().splitlines()][2]
    r, app = _serve(["--replay", str(out), "--seed", str(rec["seed"])], monkeypatch)
    assert r.exit_code == 0, r.output
    (t,) = app.state.server.tables.values()
    assert isinstance(t, ReplayTable) and t.step == 0
    end = t.saved
    assert [p + 1 for p in end.result["winners"]] == rec["winners"] and end.result["scores"] == rec["scores"]
    assert len(end.choices) == rec["decisions"] and end.game.layout.exact == (rec["layout"] == "exact")
    assert f"/t/{t.watch_token}" in r.output


def test_a_games_out_replay_needs_a_seed_it_holds_and_a_record_that_replays(tmp_path, monkeypatch):
    out = _games_out(tmp_path)
    r, app = _serve(["--replay", str(out)], monkeypatch)
    assert r.exit_code == 2 and "--seed" in r.output and app is None
    r, app = _serve(["--replay", str(out), "--seed", "99"], monkeypatch)
    assert r.exit_code == 2 and "no game of seed 99" in r.output and app is None
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    recs[0]["scores"] = [s + 1 for s in recs[0]["scores"]]  # (not the game this seed plays)
    out.write_text("".join(json.dumps(x) + "\n" for x in recs))
    r, app = _serve(["--replay", str(out), "--seed", str(recs[0]["seed"])], monkeypatch)
    assert r.exit_code == 2 and "does not end as the record says" in r.output and app is None
    r, app = _serve(["--seed", "5"], monkeypatch)
    assert r.exit_code == 2 and "--replay GAMES.jsonl" in r.output
