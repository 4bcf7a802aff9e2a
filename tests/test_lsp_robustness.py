"""`tav lsp` takes whatever a client sends and stays up: a real server process (`python -m
tavernlang lsp`) fed raw bytes on its stdin (malformed JSON-RPC, a wrong Content-Length, a 10 MB
document, places past the end, documents never opened, a document that never parses, rapid edits
and cancellations); after each, it still answers a hover. Waits have a time-out only so that a
dead server fails instead of hanging (no duration is asserted)."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "cavern_tavern.tav"
WAIT = 60.0  # seconds before a wait gives up


class Raw:
    """A server process, and the messages it writes (read by a thread into a queue)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "tavernlang", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.got: queue.Queue = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.next_id = 0
        self.answers: dict = {}
        self.notes: list = []

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.got.put(None)
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line == b"\r\n" and length is not None:
                    break
            self.got.put(json.loads(out.read(length)))

    def send_bytes(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params) -> None:
        self.send({"method": method, "params": params})

    def ask(self, method: str, params) -> int:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def answer(self, i, wait: float = WAIT) -> dict:
        """The answer to request i (its whole message), waiting for it."""
        import time
        deadline = time.monotonic() + wait
        while i not in self.answers:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no answer to request {i}")
            try:
                m = self.got.get(timeout=left)
            except queue.Empty:
                continue
            if m is None:
                raise AssertionError(f"the server ended (exit code {self.proc.wait()}) before answering {i}")
            if "id" in m and "method" not in m:
                self.answers[m["id"]] = m
            else:
                self.notes.append(m)
        return self.answers.pop(i)

    def request(self, method: str, params) -> dict:
        return self.answer(self.ask(method, params))

    def hover(self, uri: str, line: int, character: int) -> dict:
        return self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": character}})

    def close(self) -> None:
        try:
            self.answer(self.ask("shutdown", None), wait=10)
            self.notify("exit", None)
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=10)


GAME_TEXT = GAME.read_text()
HOVER_AT = next((i, ln.index("counter") + 8) for i, ln in enumerate(GAME_TEXT.split("\n")) if ln.startswith("counter"))


def started() -> Raw:
    s = Raw()
    got = s.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
    assert "capabilities" in got["result"]
    s.notify("initialized", {})
    s.notify("textDocument/didOpen", {"textDocument": {"uri": GAME.as_uri(), "languageId": "tav", "version": 1,
                                                       "text": GAME_TEXT}})
    return s


@pytest.fixture(scope="module")
def server():
    s = started()
    yield s
    s.close()


@pytest.fixture
def own_server():
    s = started()
    yield s
    s.close()


def still_answers(s: Raw) -> None:
    """The server is up: a hover on the game's first counter is answered with it."""
    got = s.hover(GAME.as_uri(), *HOVER_AT)
    assert "(counter)" in got["result"]["contents"]["value"], got


def test_a_hover_is_answered(server):
    still_answers(server)


def test_malformed_json_is_ignored(server):
    for body in (b"{not json", b"[]", b"null", b'{"jsonrpc": "2.0"}', b'{"jsonrpc": "1.0", "id": 5, "method": "x"}',
                 b"\xff\xfe\x00garbage", b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover"}'):
        server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        still_answers(server)


def test_a_header_without_a_length_is_ignored(server):
    server.send_bytes(b"Content-Type: application/vscode-jsonrpc\r\n\r\n")
    server.send_bytes(b"Content-Length: abc\r\n\r\n")
    still_answers(server)


def test_a_wrong_content_length_loses_that_message_only(own_server):
    server = own_server
    body = json.dumps({"jsonrpc": "2.0", "method": "initialized", "params": {}}).encode()
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(body) - 10) + body)  # too short: the rest is junk
    still_answers(server)
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(body) + 40) + body)  # too long: eats into the next
    lost = server.ask("textDocument/hover", {"textDocument": {"uri": GAME.as_uri()},
                                             "position": {"line": HOVER_AT[0], "character": HOVER_AT[1]}})
    still_answers(server)
    server.answers.pop(lost, None)


def test_unknown_methods_and_bad_params_are_answered_with_errors(server):
    got = server.request("tav/nosuch", {})
    assert got["error"]["code"] == -32601  # method not found
    server.notify("tav/nosuch", {})  # (a notification of an unknown method: ignored)
    got = server.request("textDocument/hover", {"textDocument": {"uri": GAME.as_uri()}, "position": "here"})
    assert "error" in got
    got = server.request("textDocument/hover", {"textDocument": {"uri": GAME.as_uri()},
                                                "position": {"line": -1, "character": 0}})
    assert "error" in got
    server.notify("textDocument/didChange", {"textDocument": {"uri": GAME.as_uri()}, "contentChanges": 7})
    still_answers(server)


def test_places_past_the_end_of_a_line_or_the_document(server):
    u = GAME.as_uri()
    for line, character in ((HOVER_AT[0], 10_000), (10**6, 0), (10**6, 10**6), (0, 2**31 - 1)):
        for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
            got = server.request(method, {"textDocument": {"uri": u}, "position": {"line": line, "character": character}})
            assert "result" in got, (method, line, character, got)
    still_answers(server)


def test_documents_never_opened_get_empty_answers(server):
    for u in ((ROOT / "games" / "cavern_tavern" / "board.tav").as_uri(), (ROOT / "nosuch.tav").as_uri(),
              "untitled:Untitled-1", "not a uri"):
        p = {"textDocument": {"uri": u}, "position": {"line": 0, "character": 0}}
        assert server.request("textDocument/hover", p)["result"] is None
        assert server.request("textDocument/definition", p)["result"] is None
        assert server.request("textDocument/completion", p)["result"]["items"] == []
        assert server.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})["result"] == []
        assert server.request("textDocument/formatting", {"textDocument": {"uri": u},
                                                          "options": {"tabSize": 2, "insertSpaces": True}})["result"] is None
        server.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": "x"}]})
        server.notify("textDocument/didSave", {"textDocument": {"uri": u}})
        server.notify("textDocument/didClose", {"textDocument": {"uri": u}})
    still_answers(server)


def test_a_ten_megabyte_document_is_refused_with_one_diagnostic(server):
    big = ROOT / "games" / "big.tav"  # (never written: its text is the editor's)
    u = big.as_uri()
    text = ("# " + "x" * 98 + "\n") * (10 * 1024 * 1024 // 100)
    server.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "tav", "version": 1, "text": text}})
    got = server.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 5, "character": 5}})
    assert got["result"] is None
    assert server.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})["result"] == []
    diags = [m["params"]["diagnostics"] for m in server.notes
             if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == u]
    assert diags and "larger than 4 MB" in diags[-1][0]["message"]
    server.notify("textDocument/didClose", {"textDocument": {"uri": u}})
    still_answers(server)


def test_a_document_that_never_parses(server):
    u = (ROOT / "games" / "junk.tav").as_uri()
    junk = "}}}{{{ \x01 \"unclosed\n" + "game game game\n" * 50 + "\x00"
    server.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "tav", "version": 1, "text": junk}})
    for k, method in enumerate(("textDocument/hover", "textDocument/definition", "textDocument/completion")):
        got = server.request(method, {"textDocument": {"uri": u}, "position": {"line": k, "character": 3}})
        assert "result" in got, got
    assert server.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})["result"] == []
    server.notify("textDocument/didClose", {"textDocument": {"uri": u}})
    still_answers(server)


def test_rapid_edits_and_cancellations(server):
    u = GAME.as_uri()
    for v in range(2, 60):
        text = GAME_TEXT if v % 3 else GAME_TEXT.replace("{", "", 1)
        server.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": v}, "contentChanges": [{"text": text}]})
        i = server.ask("textDocument/completion", {"textDocument": {"uri": u}, "position": {"line": 3, "character": 0}})
        server.notify("$/cancelRequest", {"id": i})
        server.notify("$/cancelRequest", {"id": 10**9})  # (one never made)
    server.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": 60}, "contentChanges": [{"text": GAME_TEXT}]})
    still_answers(server)


def test_finding_a_files_game_walks_a_bounded_part_of_its_folders(tmp_path, monkeypatch):
    """The server looks for the game that includes an opened file through the project's folders:
    at most MAX_WALK entries of them, no hidden folder (a document opened in a huge folder, or at
    the root of the disk, does not send it through the whole disk)."""
    from tavernlang.lsp import analysis as An

    (tmp_path / ".tavroot").write_text("")
    data = tmp_path / "data.tav"
    data.write_text("counter x = 0\n")
    for folder in ("zz", ".hidden"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "game.tav").write_text('game "G"\nplayers 2\ninclude "../data.tav"\n')
    assert An.entry_for(str(data)) == str((tmp_path / "zz" / "game.tav").resolve())
    (tmp_path / "zz" / "game.tav").unlink()
    assert An.entry_for(str(data)) == str(data.resolve())  # (not the hidden folder's)
    (tmp_path / "zz" / "game.tav").write_text('game "G"\nplayers 2\ninclude "../data.tav"\n')
    for k in range(50):
        (tmp_path / f"filler{k}.txt").write_text("")
    monkeypatch.setattr(An, "MAX_WALK", 20)
    assert An.entry_for(str(data)) == str(data.resolve())  # the game lies past the bound
