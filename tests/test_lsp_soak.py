"""`tav lsp` over an editing day: Cavern Tavern edited thousands of times (valid and broken by
turns, with hovers, completions, outlines and definitions between, files closed and opened
again) keeps its memory flat after warm-up, leaves no thread or file open, and keeps each of
its caches within its bound. Driven in process (tests/lsp_session.py) so that the edits are
many; the short session runs by default, the long one with -m slow."""
from __future__ import annotations

import asyncio
import gc
import os
import threading
from pathlib import Path

import pytest
from lsp_session import Session

from tavernlang.lsp import analysis as An

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "cavern_tavern.tav"
BOARD = ROOT / "games" / "cavern_tavern" / "board.tav"
WARM_UP = 100  # edits before the first measure (every cache has filled by then)
RSS_MARGIN = 24 * 1024 * 1024  # bytes the process may grow by from the warm-up to the end
OBJECTS_MARGIN = 0.02  # the share the live Python objects may grow by likewise


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure() -> tuple[int, int]:
    gc.collect()
    return rss(), len(gc.get_objects())


def variant(text: str, i: int) -> str:
    """The i-th edit of the text: valid (a number and a comment changed) and broken by turns."""
    if i % 2:
        return text.replace("{", "", 1) + f"\n# broken {i}\n"  # does not parse
    return text + f"\n# edit {i}\ncounter soak_{i % 7} = {i}\n"


async def soak(edits: int) -> None:
    text, board = GAME.read_text(), BOARD.read_text()
    u, bu = GAME.as_uri(), BOARD.as_uri()
    threads, files = set(threading.enumerate()), set(os.listdir("/proc/self/fd"))
    s = Session(ROOT)
    s.open(u, text)
    start = None
    for i in range(edits):
        s.change(u, variant(text, i))
        if i % 5 == 4:  # typing pauses: a request, answered from a fresh check
            kind = (i // 5) % 4
            if kind == 0:
                assert "result" in s.hover(u, 40, 8)
            elif kind == 1:
                assert "result" in s.request("textDocument/completion", {
                    "textDocument": {"uri": u}, "position": {"line": 40, "character": 8}})
            elif kind == 2:
                assert "result" in s.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})
            else:
                assert "result" in s.request("textDocument/definition", {
                    "textDocument": {"uri": u}, "position": {"line": 40, "character": 8}})
        elif i % 5 == 2:
            await s.settle()  # the debounced check runs
        if i % 50 == 25:  # an included file opened, edited and closed; the game closed and opened again
            s.open(bu, board)
            s.change(bu, board + f"\n# board {i}\n")
            assert "result" in s.hover(bu, 3, 3)
            s.close(bu)
            s.close(u)
            await s.settle()
            s.open(u, variant(text, i))
        if i + 1 == WARM_UP:
            start = measure()
    await s.settle()
    rss_end, objects_end = measure()
    rss_start, objects_start = start
    print(f"RSS {rss_start / 2**20:.1f} -> {rss_end / 2**20:.1f} MB, objects {objects_start} -> {objects_end}")
    assert rss_end - rss_start < RSS_MARGIN, f"grew by {(rss_end - rss_start) / 2**20:.1f} MB"
    assert objects_end - objects_start < OBJECTS_MARGIN * objects_start, \
        f"live objects from {objects_start} to {objects_end}"
    # what the server keeps is what the open document needs
    ls = s.ls
    assert set(ls.entries) == {u} and set(ls.uri_of_path.values()) == {u} and set(ls.outlines) <= {u}
    assert set(ls.latest) == set(ls.good) == {str(GAME)} and set(ls.published) <= {str(GAME)}
    assert not ls.pending and not ls.protocol._request_futures
    assert len(ls.parsed) <= ls.parsed.per_file * len(ls.good[str(GAME)].files)
    assert len(An._CODE_CACHE) <= 64
    s.close(u)
    await s.settle()
    assert not ls.entries and not ls.latest and not ls.good and not ls.published and not ls.uri_of_path
    assert not ls.outlines and not ls.pending
    assert set(threading.enumerate()) <= threads and set(os.listdir("/proc/self/fd")) <= files


def test_three_hundred_edits_keep_memory_flat_and_caches_bounded():
    asyncio.run(soak(300))


@pytest.mark.slow
def test_five_thousand_edits_keep_memory_flat_and_caches_bounded():
    asyncio.run(soak(5000))


def test_the_tree_cache_keeps_the_latest_versions_of_the_latest_files():
    c = An.TreeCache(per_file=2, files=3)
    for k in range(5):
        c[("a.tav", b"%d" % k)] = k
    assert [c.get(("a.tav", b"%d" % k)) for k in range(5)] == [None, None, None, 3, 4]
    c[("b.tav", b"")] = "b"
    c[("c.tav", b"")] = "c"
    assert c.get(("a.tav", b"4")) == 4  # (a file read lately stays)
    c[("d.tav", b"")] = "d"
    assert c.get(("b.tav", b"")) is None and c.get(("a.tav", b"4")) == 4 and len(c) == 4
