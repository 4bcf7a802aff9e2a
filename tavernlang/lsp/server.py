"""`tav lsp`: the language server (pygls), over stdin and stdout.

As a rules file is opened or changed: the checker's errors and `tav lint`'s static findings (with
their codes) for every file of its game; hover (a name's kind, type and the comment above its
declaration); go to definition (across includes, from a house rule into its base, and from an
`include`/`extends` path to that file); completion of the names in scope and of keywords; the
outline (document symbols); and `tav fmt` as the formatter. What it knows comes from
:mod:`.analysis`; this module only speaks the protocol.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote

import attrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from ..errors import Span
from ..loader import MAX_RULES_FILE
from . import analysis as An

DEBOUNCE = 0.05  # seconds after the last change before checking again (typing stays smooth)
MAX_DOCUMENT = MAX_RULES_FILE  # characters: a larger open document is not read (one diagnostic says so)
MAX_MESSAGE = 64 * 1024 * 1024  # bytes: a larger message from the client is read past and dropped
_LENGTH = re.compile(rb"content-length:[ \t]*(\d+)[ \t]*\r?\n$", re.I)

_KIND = {  # symbol kind -> (outline kind, completion kind)
    "option": (T.SymbolKind.Constant, T.CompletionItemKind.Constant),
    "enum": (T.SymbolKind.Enum, T.CompletionItemKind.Enum),
    "enum value": (T.SymbolKind.EnumMember, T.CompletionItemKind.EnumMember),
    "kind": (T.SymbolKind.Class, T.CompletionItemKind.Class),
    "attribute": (T.SymbolKind.Property, T.CompletionItemKind.Property),
    "card zone": (T.SymbolKind.Property, T.CompletionItemKind.Property),
    "kind def": (T.SymbolKind.Property, T.CompletionItemKind.Property),
    "card": (T.SymbolKind.Object, T.CompletionItemKind.Value),
    "counter": (T.SymbolKind.Variable, T.CompletionItemKind.Variable),
    "var": (T.SymbolKind.Variable, T.CompletionItemKind.Variable),
    "zone": (T.SymbolKind.Array, T.CompletionItemKind.Variable),
    "def": (T.SymbolKind.Function, T.CompletionItemKind.Function),
    "effect": (T.SymbolKind.Function, T.CompletionItemKind.Function),
    "action": (T.SymbolKind.Method, T.CompletionItemKind.Method),
    "phase": (T.SymbolKind.Event, T.CompletionItemKind.Event),
    "handler": (T.SymbolKind.Event, T.CompletionItemKind.Event),
    "scenario": (T.SymbolKind.Module, T.CompletionItemKind.Module),
    "rounds": (T.SymbolKind.Namespace, T.CompletionItemKind.Keyword),
    "parameter": (T.SymbolKind.Variable, T.CompletionItemKind.Variable),
    "local": (T.SymbolKind.Variable, T.CompletionItemKind.Variable),
    "builtin": (T.SymbolKind.Constant, T.CompletionItemKind.Variable),
}
_COMPLETE = ("option", "enum value", "kind", "counter", "var", "zone", "def", "effect", "action", "phase", "enum")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("tavernlang")
    except PackageNotFoundError:
        return "0"


@attrs.define
class _Refused:
    """A request refused before its handler ran: the error its answer carries."""

    id: int | str
    error: JsonRpcException


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, with two differences:

    - a notification's handler is forgotten once it is done. pygls files each handler it runs
      under the message's id, so that a `$/cancelRequest` can find it; a notification has no id,
      so it is filed under a made-up one that nothing asks for, and (for the built-in handlers of
      didOpen, didChange and didClose) never removed: one entry per edit, for the whole session;
    - a request whose params do not fit its method is answered with an error (pygls logs it
      and never answers, and the client waits for good)."""

    def structure_message(self, data):
        """The message as pygls reads it; a request whose params do not fit, as a _Refused."""
        try:
            return super().structure_message(data)
        except JsonRpcException as e:
            if isinstance(data, dict) and "method" in data and isinstance(data.get("id"), (int, str)):
                return _Refused(data["id"], e)
            raise

    def handle_message(self, message):
        if isinstance(message, _Refused):
            self._send_response(message.id, None, message.error.to_response_error())
            return
        super().handle_message(message)

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        if callback == self._check_handler_result:  # (a notification's)
            fut = self._request_futures.get(msg_id)
            if fut is not None:
                fut.add_done_callback(lambda _f: self._request_futures.pop(msg_id, None))


class TavServer(LanguageServer):
    """What the server keeps between messages, each bounded by what is open:

    - per open document (dropped when it is closed): its entry file, its uri by real path, its
      pending check, its outline (one, for its current version);
    - per entry file of an open document (dropped when its last document is closed): the latest
      analysis, the latest one whose declarations read, the uris it published diagnostics to;
    - syntax trees (analysis.TreeCache): the latest 2 versions of each file, of 256 files.
    """

    def __init__(self) -> None:
        super().__init__("tav-lsp", _version(), protocol_cls=_Protocol)
        self.debounce = DEBOUNCE
        self.entries: dict[str, str] = {}  # document uri -> the entry file checked for it
        self.latest: dict[str, An.Analysis] = {}  # entry -> its last analysis
        self.good: dict[str, An.Analysis] = {}  # entry -> its last analysis whose declarations read
        self.published: dict[str, set[str]] = {}  # entry -> the uris it published diagnostics to
        self.pending: dict[str, asyncio.Task] = {}
        self.uri_of_path: dict[str, str] = {}  # an open document's real path -> its uri, as the client names it
        self.parsed = An.TreeCache()  # syntax trees by (file, bytes): only a changed file is parsed again
        self.outlines: dict[str, tuple] = {}  # open document uri -> (its version, its text, its outline)

    # -------------------------------------------------------------- documents
    def path_of(self, uri: str) -> str:
        return os.path.realpath(to_fs_path(uri) or uri)

    def uri_of(self, span_file: str) -> str:
        real = An.abspath(span_file)
        return self.uri_of_path.get(real) or from_fs_path(real)

    def overlay(self) -> dict[Path, str]:
        out = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            out[Path(self.path_of(uri))] = doc.source
        return out

    def entry_of(self, uri: str, fresh: bool = False) -> str:
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is not None and len(doc.source) > MAX_DOCUMENT:  # (not read: see check)
            return self.path_of(uri)
        if fresh or uri not in self.entries:
            self.entries[uri] = An.entry_for(self.path_of(uri), self.overlay())
        return self.entries[uri]

    def check(self, uri: str) -> An.Analysis:
        """Check the game of a document and publish the diagnostics of each of its files."""
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is not None and len(doc.source) > MAX_DOCUMENT:  # not read: one diagnostic says why
            mb = MAX_DOCUMENT // (1024 * 1024)
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[T.Diagnostic(
                range=T.Range(T.Position(0, 0), T.Position(0, 0)), severity=T.DiagnosticSeverity.Error, source="tav",
                message=f"this document is larger than {mb} MB: tav lsp does not read it (a rules file is far smaller)")]))
            return An.Analysis(self.path_of(uri), [], [], An.SourceCache())
        entry = self.entry_of(uri)
        t0 = time.perf_counter()
        try:
            a = An.analyse(entry, self.overlay(), parsed=self.parsed, names=False)
        except Exception as e:  # a bug of ours: say so at the top of the file, never go silent
            import traceback
            self.window_log_message(T.LogMessageParams(T.MessageType.Error, traceback.format_exc()))
            a = An.Analysis(entry, [], [An.Finding(Span(self.path_of(uri), 1, 1),
                                                   f"tav lsp could not check this file ({type(e).__name__}: {e}); "
                                                   f"`tav check {entry}` may say more", "error")], An.SourceCache())
        self.latest[entry] = a
        if a.decls is not None:
            self.good[entry] = a
        by_uri: dict[str, list[T.Diagnostic]] = {}
        for f in a.files:
            by_uri.setdefault(self.uri_of(f), [])
        by_uri.setdefault(uri, [])
        for fd in a.findings:
            if fd.span.file == "<builtin>":
                continue
            by_uri.setdefault(self.uri_of(fd.span.file), []).append(self.diagnostic(fd, a))
        before = self.published.get(entry, set())
        now = {u for u, ds in by_uri.items() if ds}
        for u in set(by_uri) | before:
            ds = by_uri.get(u, [])
            if ds or u in before or u in self.workspace.text_documents:
                self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=u, diagnostics=ds))
        self.published[entry] = now
        self.window_log_message(T.LogMessageParams(
            T.MessageType.Log, f"checked {entry}: {len(a.findings)} diagnostics in {time.perf_counter() - t0:.3f} s"))
        try:  # its names indexed once the diagnostics are out (else by the first query that needs them)
            asyncio.get_running_loop().call_soon(An.ensure_index, a)
        except RuntimeError:  # (no loop running: a caller outside the server)
            pass
        return a

    def diagnostic(self, fd: An.Finding, a: An.Analysis) -> T.Diagnostic:
        sev = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}.get(
            fd.severity, T.DiagnosticSeverity.Information)
        related = [T.DiagnosticRelatedInformation(T.Location(self.uri_of(n.span.file), self.range(n.span, a)), n.message)
                   for n in fd.notes if n.span.file != "<builtin>"]
        return T.Diagnostic(range=self.range(fd.span, a), message=fd.message, severity=sev,
                            code=fd.code or None, source="tav lint" if fd.code else "tav",
                            related_information=related or None)

    def range(self, sp: Span, a: An.Analysis | None = None) -> T.Range:
        """A span as the client counts (its position encoding: UTF-16 unless it chose another)."""
        line, col = max(sp.line, 1) - 1, max(sp.col, 1) - 1
        text = An._text(a.sources, sp.file) if a is not None else ""
        if sp.end_line and (sp.end_line, sp.end_col) > (sp.line, sp.col):
            end = T.Position(sp.end_line - 1, max(sp.end_col, 1) - 1)
        else:  # a place with no end: the word there (or one character)
            n = 1
            if text:
                off = An.offset_of(text, sp.line, sp.col)
                m = An.WORD.match(text, off)
                n = len(m.group(0)) if m else 1
            end = T.Position(line, col + n)
        rng = T.Range(T.Position(line, col), end)
        if text and not text.isascii():
            rng = self.workspace.position_codec.range_to_client_units(text.split("\n"), rng)
        return rng

    def place(self, uri: str, position: T.Position) -> tuple[int, int]:
        """A client's position in a document as 1-based line and column (code points); a place
        past the end of its line is the line's end, past the last line the document's end."""
        doc = self.workspace.get_text_document(uri)
        p = doc.position_from_client_units(position)
        lines = doc.lines
        width = len(lines[p.line].rstrip("\r\n")) if p.line < len(lines) else 0
        return p.line + 1, min(p.character, width) + 1

    def schedule(self, uri: str) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()

        async def later():
            await asyncio.sleep(self.debounce)
            self.pending.pop(uri, None)
            self.check(uri)
        self.pending[uri] = asyncio.ensure_future(later())

    # -------------------------------------------------------------- the stream
    def start_io(self, stdin=None, stdout=None) -> None:
        """Serve messages from stdin until the client says exit or closes it (see read_messages)."""
        self._stop_event = threading.Event()
        reader = StdinAsyncReader(stdin or sys.stdin.buffer, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(self.read_messages(reader))
        except BrokenPipeError:
            pass  # the client is gone
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def read_messages(self, reader) -> None:
        """Each message of the stream, handled in turn: a header block whose `Content-Length`
        gives the body's bytes. Unlike pygls's own loop, a wrong length loses only the messages
        it runs into: a header line is found where it ends, even glued to the bytes before it
        (the rest of a body longer than its length said), so the next whole message is read. A
        body that is not JSON-RPC is dropped (and said in the log); one over MAX_MESSAGE bytes is
        read past in pieces, never held."""
        length = None
        while not self._stop_event.is_set():
            line = await reader.readline()
            if not line:
                break  # end of input
            m = _LENGTH.search(line)
            if m is not None:
                length = int(m.group(1))
                continue
            if line.strip() or length is None:
                continue  # another header, junk, or a blank line with no length before it
            n, length = length, None
            if n > MAX_MESSAGE:
                while n > 0:
                    piece = await reader.readexactly(min(n, 1 << 20))
                    if not piece:
                        return
                    n -= len(piece)
                self.window_log_message(T.LogMessageParams(T.MessageType.Error, "a message over "
                                                           f"{MAX_MESSAGE // (1024 * 1024)} MB was dropped"))
                continue
            body = await reader.readexactly(n) if n else b""
            if n and not body:
                break
            try:
                message = json.loads(body, object_hook=self.protocol.structure_message)
                self.protocol.handle_message(message)
            except Exception as e:
                self.window_log_message(T.LogMessageParams(
                    T.MessageType.Error, f"a message that is not JSON-RPC was dropped ({type(e).__name__}: {e})"[:1000]))

    # -------------------------------------------------------------- queries
    def document(self, uri: str):
        """The open document of a uri (None for one never opened, or closed, or larger than
        MAX_DOCUMENT: nothing is answered about those)."""
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is None or len(doc.source) > MAX_DOCUMENT:
            return None
        return doc

    def analysis(self, uri: str) -> tuple[An.Analysis, str, str] | tuple[None, None, None]:
        """The latest analysis that knows the document's names, its name for the file, the text
        (Nones for a document not open or too large: see `document`)."""
        if self.document(uri) is None:
            return None, None, None
        entry = self.entry_of(uri)
        a = self.latest.get(entry)
        task = self.pending.pop(uri, None)
        if task is not None:  # an edit not checked yet: check it now, so the answer fits the text
            task.cancel()
        if a is None or task is not None:
            a = self.check(uri)
        if a.decls is None:
            a = self.good.get(entry, a)
        An.ensure_index(a)
        real = self.path_of(uri)
        name = next((f for f in a.files if An.abspath(f) == real), None) or os.path.relpath(real)
        doc = self.workspace.get_text_document(uri)
        return a, name, doc.source

    def location(self, sp: Span, a: An.Analysis) -> T.Location:
        return T.Location(self.uri_of(sp.file), self.range(sp, a))


_FEATURES: list = []  # (the arguments of LanguageServer.feature, the handler), for make_server


def _feature(*args):
    def register(fn):
        _FEATURES.append((args, fn))
        return fn
    return register


def make_server() -> TavServer:
    """A new server with every feature of this module (each test can have its own)."""
    ls = TavServer()
    for args, fn in _FEATURES:
        ls.feature(*args)(fn)
    return ls


@_feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: TavServer, params: T.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.uri_of_path[ls.path_of(uri)] = uri
    ls.entry_of(uri, fresh=True)
    ls.check(uri)


@_feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: TavServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@_feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: TavServer, params: T.DidSaveTextDocumentParams) -> None:
    if ls.workspace.text_documents.get(unquote(params.text_document.uri)) is None:
        return  # (a file saved that is not open: nothing of it is kept)
    ls.entry_of(params.text_document.uri, fresh=True)
    ls.schedule(params.text_document.uri)


@_feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TavServer, params: T.DidCloseTextDocumentParams) -> None:
    """The last open file of a game closed: its diagnostics go (the files are as on disk again)."""
    uri = params.text_document.uri
    entry = ls.entries.pop(uri, None)
    ls.outlines.pop(uri, None)
    real = ls.path_of(uri)
    if ls.uri_of_path.get(real) == uri:
        del ls.uri_of_path[real]
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    if entry is None or entry in ls.entries.values():
        if entry is not None:
            ls.schedule(next(u for u, e in ls.entries.items() if e == entry))  # its text is the disk's now
        return
    for u in ls.published.pop(entry, set()):
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=u, diagnostics=[]))
    ls.latest.pop(entry, None)
    ls.good.pop(entry, None)


@_feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: TavServer, params: T.HoverParams) -> T.Hover | None:
    a, name, text = ls.analysis(params.text_document.uri)
    if a is None:
        return None
    line, col = ls.place(params.text_document.uri, params.position)
    syms = An.lookup(a, name, text, line, col)
    quoted = An.string_at(text, line, col)
    if quoted is not None:  # a card's name (or a scenario's title): that card
        syms = [s for s in a.symbols.get(quoted, []) if s.kind in ("card", "scenario")]
    if not syms:
        return None
    s = syms[0]
    head = f"({s.kind}) {s.name}: {s.detail}" if s.kind != "card" else f'(card) "{s.name}": {s.detail}'
    t = An.type_at(a, name, line, col) if An._text(a.sources, name) == text else None  # (not a stale one)
    parts = [f"```tav\n{head}\n```"]
    if t and s.kind not in ("effect", "action", "phase", "handler") and t not in s.detail:
        parts.append(f"type here: `{t}`")
    if len(syms) > 1:
        parts.append("also: " + ", ".join(f"{x.kind} ({x.detail})" for x in syms[1:4]))
    if s.doc:
        parts.append(s.doc)
    if s.span.file != "<builtin>":
        parts.append(f"declared at {s.name_span}")
    w = An.word_at(text, line, col)
    rng = None
    if w is not None:
        (l1, c1), (l2, c2) = An.place_of(text, w[1]), An.place_of(text, w[2])
        rng = ls.workspace.get_text_document(params.text_document.uri).range_to_client_units(
            T.Range(T.Position(l1 - 1, c1 - 1), T.Position(l2 - 1, c2 - 1)))
    return T.Hover(contents=T.MarkupContent(T.MarkupKind.Markdown, "\n\n".join(parts)), range=rng)


@_feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: TavServer, params: T.DefinitionParams) -> list[T.Location] | None:
    uri = params.text_document.uri
    a, name, text = ls.analysis(uri)
    if a is None:
        return None
    line, col = ls.place(params.text_document.uri, params.position)
    path = An.string_at(text, line, col)
    if path is not None:  # `include "FILE"` or `extends "FILE"`: that file
        off = An.offset_of(text, line, col)
        ls_ = text.rfind("\n", 0, off) + 1
        if re.match(r'\s*(include|extends)\s+"', text[ls_:]):
            from ..loader import resolve_include
            target = resolve_include(Path(ls.path_of(uri)).parent, path)
            if target.is_file():
                return [T.Location(from_fs_path(str(target.resolve())), T.Range(T.Position(0, 0), T.Position(0, 0)))]
        cards = [s for s in a.symbols.get(path, []) if s.kind in ("card", "scenario")]  # a card's name
        return [ls.location(s.name_span, a) for s in cards] or None
    w = An.word_at(text, line, col)
    if w is None:
        return None
    base = An.change_target(a, name, line, col, w[0])
    if base is not None:  # `replace`/`remove`/`set` in a house rule: what it changes in the base
        return [ls.location(base, a)]
    syms = [s for s in An.lookup(a, name, text, line, col) if s.span.file != "<builtin>"]
    return [ls.location(s.name_span, a) for s in syms] or None


@_feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
def completion(ls: TavServer, params: T.CompletionParams) -> T.CompletionList:
    from ..highlight import keywords

    a, name, text = ls.analysis(params.text_document.uri)
    if a is None:
        return T.CompletionList(is_incomplete=False, items=[])
    line, col = ls.place(params.text_document.uri, params.position)
    off = An.offset_of(text, line, col)
    start = off
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    before = text[:start].rstrip(" \t")
    items: dict[str, T.CompletionItem] = {}

    def add(label, kind, detail, doc="", rank=""):
        if label not in items:
            items[label] = T.CompletionItem(label=label, kind=_KIND.get(kind, (None, T.CompletionItemKind.Text))[1],
                                            detail=f"{kind}: {detail}" if detail else kind,
                                            documentation=doc or None, sort_text=f"{rank}{label}" if rank else None)
    if before.endswith(".") and not before.endswith(".."):  # a member: attributes, per-player names, properties
        # the members of the value's type first (a kind's attributes, zones and defs; a player's
        # per-player counters, vars and zones), then its properties, then every other member
        t = An.receiver_type(a, name, text, len(before) - 1)
        kinds = {s.name for ss in a.symbols.values() for s in ss if s.kind == "kind"}
        per_player = ("counter", "var", "zone")
        members = [s for ss in a.symbols.values() for s in ss
                   if s.kind in ("attribute", "kind def", "card zone") or (s.kind in per_player and "per player" in s.detail)]
        own = [s for s in members if (s.container == t if t in kinds else t == "player" and s.kind in per_player)]
        from ..check.checker import BUILTIN_PROPS
        of = "card" if t in kinds else t
        props = [(pt, n, r) for (pt, n), r in BUILTIN_PROPS.items()]
        for s in own:
            add(s.name, s.kind, s.detail, s.doc, "0")
        for pt, n, r in props:
            if pt == of:
                add(n, "builtin", f"{An.show(r)}, a property of every {pt}", rank="1")
        for s in members:
            add(s.name, s.kind, s.detail, s.doc, "2" if t else "")
        for pt, n, r in props:
            add(n, "builtin", f"{An.show(r)}, a property of every {pt}", rank="2" if t else "")
        return T.CompletionList(is_incomplete=False, items=list(items.values()))
    for s in An.locals_at(a, name, An.analysed_place(a, name, text, start)[1]):
        add(s.name, s.kind, s.detail)
    for n, ss in a.symbols.items():
        for s in ss:
            if s.kind in _COMPLETE:
                add(n, s.kind, s.detail, s.doc)
    from ..check.checker import BUILTIN_FUNCS, BUILTIN_NAMES
    for n, t in BUILTIN_NAMES.items():
        add(n, "builtin", An.show(t))
    for n in BUILTIN_FUNCS:
        add(n, "builtin", "function")
    for k in sorted(keywords()):
        if k not in items:
            items[k] = T.CompletionItem(label=k, kind=T.CompletionItemKind.Keyword)
    return T.CompletionList(is_incomplete=False, items=list(items.values()))


@_feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: TavServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    uri = params.text_document.uri
    doc = ls.document(uri)
    if doc is None:
        return []
    hit = ls.outlines.get(uri)
    if hit is not None and hit[0] == doc.version and hit[1] == doc.source:
        return hit[2]
    name = os.path.relpath(ls.path_of(uri))
    sources = An.SourceCache()
    sources.add(name, doc.source)
    a = An.Analysis(name, [name], [], sources)

    def conv(s: An.Symbol) -> T.DocumentSymbol:
        rng = ls.range(s.span, a)
        sel = ls.range(s.name_span, a)
        if not (_within(sel, rng)):
            sel = T.Range(rng.start, rng.start)
        return T.DocumentSymbol(name=s.name if s.kind != "card" else f'"{s.name}"', detail=s.detail,
                                kind=_KIND.get(s.kind, (T.SymbolKind.Key,))[0], range=rng, selection_range=sel,
                                children=[conv(c) for c in s.children] or None)
    out = [conv(s) for s in An.outline(doc.source, name)]
    ls.outlines[uri] = (doc.version, doc.source, out)  # (one per open document: its current version)
    return out


def _within(inner: T.Range, outer: T.Range) -> bool:
    def k(p):
        return (p.line, p.character)
    return k(outer.start) <= k(inner.start) and k(inner.end) <= k(outer.end)


@_feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: TavServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
    uri = params.text_document.uri
    doc = ls.document(uri)
    if doc is None:
        return None
    try:
        from ..fmt import format_text
    except ImportError as e:
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Warning, f"tav fmt is not available: {e}"))
        return None
    from ..errors import TavError
    try:
        new = format_text(doc.source, os.path.relpath(ls.path_of(uri)))
    except TavError as e:  # a file that does not parse is left as it is (its error is a diagnostic)
        ls.window_log_message(T.LogMessageParams(T.MessageType.Info, f"not formatted: {e.diagnostics[0].render()}"))
        return None
    except Exception as e:  # a bug of the formatter's: the text stays as it is, and the user is told
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Error, f"tav fmt failed: {type(e).__name__}: {e}"))
        return None
    if new == doc.source:
        return []
    lines = doc.source.split("\n")
    end = T.Position(len(lines) - 1, len(lines[-1]))
    return [T.TextEdit(T.Range(T.Position(0, 0), end), new)]


def serve() -> None:
    make_server().start_io()
