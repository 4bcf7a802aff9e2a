"""`tav lsp`'s diagnostics latency: the time from an edit sent by a client to the diagnostics
that answer it, on Cavern Tavern (15 files, 430 names).

    python benchmarks/bench_lsp.py [--edits 20] [--file games/cavern_tavern.tav]

A real client (pygls's) starts `python -m tavernlang lsp`, opens the file (the first check, with
the grammar and every include read cold), then makes --edits pairs of edits: one that adds an
error (an effect gaining a counter that does not exist), timed until the diagnostics that name it
arrive; and one that takes it out again, timed until diagnostics without it arrive. The edit is
also made in an included file (the board), whose game is checked for it. The times include the
server's debounce (tavernlang/lsp/server.py DEBOUNCE) and the round trip through the pipes.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent


class Client(LanguageClient):
    def __init__(self):
        super().__init__("bench-lsp", "1")
        self.events: list[tuple[float, T.PublishDiagnosticsParams]] = []
        self.arrived = asyncio.Event()

        @self.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diags(params: T.PublishDiagnosticsParams):
            self.events.append((time.perf_counter(), params))
            self.arrived.set()

        @self.feature(T.WINDOW_LOG_MESSAGE)
        def _log(params):
            pass

    async def until(self, uri: str, pred) -> float:
        """The time diagnostics for uri satisfying pred arrived (waiting for them)."""
        start = len(self.events)
        while True:
            for t, p in self.events[start:]:
                if p.uri == uri and pred(p.diagnostics):
                    return t
            start = len(self.events)
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), timeout=60)


def stats(xs: list[float]) -> str:
    xs = sorted(x * 1000 for x in xs)
    p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
    return f"median {statistics.median(xs):6.1f} ms  p90 {p90:6.1f} ms  min {xs[0]:6.1f} ms  max {xs[-1]:6.1f} ms"


async def run(file: Path, included: Path | None, edits: int) -> None:
    c = Client()
    await c.start_io(sys.executable, "-m", "tavernlang", "lsp")
    await c.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities(), root_uri=ROOT.as_uri()))
    c.initialized(T.InitializedParams())

    async def session(path: Path, label: str) -> None:
        uri = path.resolve().as_uri()
        text = path.read_text()
        t0 = time.perf_counter()
        c.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "tav", 1, text)))
        t1 = await c.until(uri, lambda ds: True)
        print(f"{label}: open (first check) {1000 * (t1 - t0):.1f} ms")
        version = 1
        add, fix = [], []
        for k in range(edits):
            probe = f"nosuch_{k}"
            for new, pred, out in ((text + f"\neffect lsp_probe_{k} {{ gain 1 {probe} }}\n",
                                    lambda ds: any(probe in d.message for d in ds), add),
                                   (text, lambda ds: not any(probe in d.message for d in ds), fix)):
                version += 1
                t0 = time.perf_counter()
                c.text_document_did_change(T.DidChangeTextDocumentParams(
                    T.VersionedTextDocumentIdentifier(version=version, uri=uri), [T.TextDocumentContentChangeWholeDocument(new)]))
                out.append(await c.until(uri, pred) - t0)
        print(f"{label}: edit adds an error, {edits} times:   {stats(add)}")
        print(f"{label}: edit removes it, {edits} times:      {stats(fix)}")
        c.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri)))

    await session(file, file.relative_to(ROOT).as_posix())
    if included is not None:
        await session(included, f"{included.relative_to(ROOT).as_posix()} (checked through its game)")
    await c.shutdown_async(None)
    c.exit(None)
    await c.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--file", default="games/cavern_tavern.tav")
    ap.add_argument("--included", default="games/cavern_tavern/board.tav", help="an included file to edit too ('' for none)")
    a = ap.parse_args()
    inc = ROOT / a.included if a.included else None
    asyncio.run(run(ROOT / a.file, inc, a.edits))


if __name__ == "__main__":
    main()
