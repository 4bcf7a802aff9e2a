"""`tav serve` in a real browser: headless Chromium (Debian's `chromium`, driven by Playwright's
Python package) opens a table from the lobby and plays a whole Little Tavern game by clicking;
a hot-seat table shows its cover. Skipped when Playwright or the browser is missing.

    TAV_SCREENSHOTS=1 pytest -q tests/test_web_browser.py    # writes docs/web/*.png again
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("TAV_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium (apt-get install chromium)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-dev-shm-usage", "--disable-extensions", "--no-first-run"]


@pytest.fixture
def serve():
    """A real server on a free loopback port, in a thread: serve(FILE) -> its base URL."""
    import uvicorn

    from tavernlang import compile_file
    from tavernlang.web.app import make_app
    from tavernlang.web.tables import Server
    running = []

    def start(path: str, bot_delay: float = 0.05) -> str:
        server = Server(compile_file(str(ROOT / path)), path)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        u = uvicorn.Server(uvicorn.Config(make_app(server, bot_delay), log_level="warning"))
        th = threading.Thread(target=u.run, kwargs={"sockets": [sock]}, daemon=True)
        th.start()
        running.append((u, th, sock))
        for _ in range(1000):
            if u.started:
                break
            th.join(0.01)
        return f"http://127.0.0.1:{sock.getsockname()[1]}"
    yield start
    for u, th, sock in running:
        u.should_exit = True
        th.join(10)
        sock.close()


@pytest.fixture
def browser():
    """Chromium, started without the address-space limit that `tav`'s commands set on the test
    process when a test runs one in-process (engine/budget.py): Chromium reserves far more
    address space than it uses and does not start under it."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    except (ImportError, ValueError, OSError):
        resource = None
    try:
        pw = sync_api.sync_playwright().start()
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    finally:
        if resource is not None:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    yield b
    b.close()
    pw.stop()


def _shots(tmp_path) -> Path:
    out = ROOT / "docs" / "web" if os.environ.get("TAV_SCREENSHOTS") == "1" else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out


def test_a_whole_little_tavern_game_is_played_by_clicking(serve, browser, tmp_path):
    base = serve("games/little_tavern.tav")
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    page.goto(base + "/")
    page.wait_for_selector("#seat2")
    assert page.inner_text("#title") == "Little Tavern"
    page.select_option("#players", "2")
    page.select_option("#seat2", "random")
    page.fill("#seed", "1")
    page.screenshot(path=str(_shots(tmp_path) / "lobby.png"))
    page.click("#create")
    link = page.wait_for_selector("#made a")
    page.goto(link.get_attribute("href") if link.get_attribute("href").startswith("http")
              else base + link.get_attribute("href"))
    shot = False
    for _ in range(500):
        page.wait_for_selector("#decision button.opt:not([disabled]), #result:not([hidden])")
        if page.is_visible("#result"):
            break
        if not shot and page.locator("#log li").count() > 20:
            card = page.locator("#view .card").first
            if card.count():
                card.hover()
            page.screenshot(path=str(_shots(tmp_path) / "table.png"))
            shot = True
        page.locator("#decision button.opt:not([disabled])").first.click()
    else:
        raise AssertionError("the game did not end")
    result = page.inner_text("#result")
    assert "Game over" in result and "(winner)" in result and "<- you" in result
    page.screenshot(path=str(_shots(tmp_path) / "result.png"))
    assert page.inner_text("#error") == ""


def test_a_hot_seat_table_covers_the_screen_between_seats(serve, browser, tmp_path):
    import json
    import urllib.request
    base = serve("games/little_tavern.tav")
    req = urllib.request.Request(base + "/api/tables", method="POST", data=json.dumps(
        {"players": 2, "seats": ["human", "human"], "seed": 2, "hotseat": True}).encode())
    links = json.loads(urllib.request.urlopen(req, timeout=30).read())
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(base + links["links"][0]["url"])
    page.wait_for_selector("#cover:not([hidden])")
    first = page.inner_text("#cover-text")
    assert first.startswith("Pass the device to P")
    page.screenshot(path=str(_shots(tmp_path) / "hotseat-cover.png"))
    page.click("#cover-ok")
    assert page.is_hidden("#cover")
    for _ in range(50):  # decide until the other person's turn brings the cover back
        page.locator("#decision button.opt:not([disabled])").first.click()
        page.wait_for_function("document.querySelector('#decision button.opt:not([disabled])') !== null"
                               " || !document.querySelector('#cover').hidden")
        if page.is_visible("#cover"):
            break
    else:
        raise AssertionError("the cover did not come back")
    assert page.inner_text("#cover-text") != first


def test_a_cavern_tavern_decision_reads_its_cards_text_on_the_page(serve, browser, tmp_path):
    """The buttons carry each option's card text as `tav play` prints it, and a card of the
    table shows its text when hovered."""
    import json
    import urllib.request

    from tavernlang import compile_file
    from tavernlang.engine.runner import Match
    from tavernlang.play import _option_lines
    base = serve("games/cavern_tavern.tav")
    req = urllib.request.Request(base + "/api/tables", method="POST", data=json.dumps(
        {"players": 2, "seats": ["human", "random"], "seed": 5}).encode())
    links = json.loads(urllib.request.urlopen(req, timeout=30).read())
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(base + links["links"][0]["url"])
    page.wait_for_selector("#decision button.opt")
    shown = [re.sub(r"^(\d+)\.\s*", r"\1. ", b.inner_text().replace("\n", " — ", 1))
             for b in page.locator("#decision button.opt").all()]
    m = Match(compile_file(str(ROOT / "games/cavern_tavern.tav")), 2, 5, explain=True)
    assert shown == [line.strip() for line in _option_lines(m, 0)]  # (the lines of `tav play`)
    assert any(" — " in s for s in shown)
    page.locator("#decision button.opt").first.click()
    page.wait_for_selector("#view .card")
    page.locator("#view .card").first.hover()
    page.wait_for_selector("#tip:not([hidden])")
    assert page.inner_text("#tip").strip()
    page.screenshot(path=str(_shots(tmp_path) / "cavern_tavern.png"))


def test_two_browsers_trade_in_a_tavern_masters_day(serve, browser, tmp_path):
    """P1 and P2 at their own browsers (each its own context, as two machines): the first of
    them to act in the Day offers a trade, the other is asked and accepts at their own page, and
    both logs show it."""
    import json
    import urllib.request
    base = serve("games/tavern_masters.tav", bot_delay=0)
    req = urllib.request.Request(base + "/api/tables", method="POST", data=json.dumps(
        {"players": 2, "seats": ["human", "human"], "seed": 3}).encode())
    links = json.loads(urllib.request.urlopen(req, timeout=30).read())
    pages = []
    for link in links["links"]:
        page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
        page.goto(base + link["url"])
        pages.append(page)
    for page in pages:
        page.wait_for_selector("#view")
    offered = accepted = False
    offerer = None

    def open_decision():
        for k, page in enumerate(pages):
            box = page.locator("#decision[data-decision]")
            if box.count() and page.locator("#decision button.opt:not([disabled])").count():
                return k, page, int(box.get_attribute("data-decision"))
        return None
    for _ in range(400):
        found = None
        for _ in range(500):
            found = open_decision()
            if found:
                break
            pages[0].wait_for_timeout(20)
        assert found, "no page shows a decision"
        k, page, did = found
        buttons = page.locator("#decision button.opt:not([disabled])")
        labels = [b.inner_text() for b in buttons.all()]
        pick = 0
        if not offered and any("offer a trade" in lab for lab in labels):
            pick, offered, offerer = next(i for i, lab in enumerate(labels) if "offer a trade" in lab), True, k
        elif any(lab.split("\n")[0].endswith("accept") for lab in labels):
            pick, accepted = next(i for i, lab in enumerate(labels) if lab.split("\n")[0].endswith("accept")), True
            assert offered and k != offerer  # (the other one is asked)
            page.screenshot(path=str(_shots(tmp_path) / "tavern_masters_trade.png"))
        buttons.nth(pick).click()
        if accepted:
            break
        for _ in range(500):  # the next decision, at either page
            nxt = open_decision()
            if nxt and nxt[2] > did:
                break
            pages[0].wait_for_timeout(20)
    assert offered and accepted
    for page in pages:
        page.wait_for_function("[...document.querySelectorAll('#log li')]"
                               ".some(li => li.textContent.includes(\"chooses 'accept' (accept the trade: \"))")
    assert pages[0].inner_text("#error") == pages[1].inner_text("#error") == ""
