"""A `tav lsp` server driven in this process through pygls's own message handling (the path a
message from stdin takes after its bytes are read): for tests that make thousands of edits, or
count what the server does, without a pipe in between."""
from __future__ import annotations

import asyncio
import collections
import itertools
import json

from tavernlang.lsp.server import TavServer, make_server


class Sink:
    """The server's writer: keeps the answers to requests (until taken) and the last messages."""

    def __init__(self) -> None:
        self.answers: dict = {}
        self.last: collections.deque = collections.deque(maxlen=50)
        self.count = 0

    def write(self, data: bytes) -> None:
        body = json.loads(data.split(b"\r\n\r\n", 1)[1])
        self.count += 1
        if "id" in body and "method" not in body:
            self.answers[body["id"]] = body
        else:
            self.last.append(body)

    def close(self) -> None:
        pass


class Session:
    """One server, initialized with ROOT as its workspace."""

    def __init__(self, root, debounce: float = 0.0) -> None:
        self.ls: TavServer = make_server()
        self.ls.debounce = debounce
        self.out = Sink()
        self.ls.protocol.set_writer(self.out)
        self.ids = itertools.count(1)
        self.versions: dict[str, int] = {}
        self.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def notify(self, method: str, params) -> None:
        self._handle({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params):
        """The answer to a request (its whole JSON-RPC message: "result" or "error")."""
        i = next(self.ids)
        self._handle({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return self.out.answers.pop(i)

    def _handle(self, msg: dict) -> None:
        p = self.ls.protocol
        p.handle_message(json.loads(json.dumps(msg), object_hook=p.structure_message))

    def open(self, uri: str, text: str) -> None:
        self.versions[uri] = 1
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tav", "version": 1,
                                                              "text": text}})

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] = self.versions.get(uri, 1) + 1
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": self.versions[uri]},
                                               "contentChanges": [{"text": text}]})

    def close(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def hover(self, uri: str, line: int, character: int):
        return self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": character}})

    def diagnostics(self, uri: str) -> list | None:
        """The diagnostics last published for uri among the last messages (None: none there)."""
        for m in reversed(self.out.last):
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return m["params"]["diagnostics"]
        return None

    async def settle(self) -> None:
        """Let the debounced checks run."""
        for _ in range(3):
            await asyncio.sleep(self.ls.debounce + 0.001)
