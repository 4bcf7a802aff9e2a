"""`tav lsp` driven by a real LSP client (pytest-lsp) over the server process's stdin and stdout:
diagnostics and lint findings as a file is opened and edited, hover, go to definition (across
includes, from a house rule into its base, from an include's path), completion, the outline and
formatting. One server serves the whole module; waits have a time-out only so that a broken
server fails instead of hanging (no duration is asserted)."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parent.parent
PUBLISH = T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
WAIT = 30.0  # seconds before a wait gives up (a hang is a failure, not a measurement)

pytestmark = pytest.mark.asyncio(loop_scope="module")

GAME = '''\
# The Test Inn
game "Test Inn"
players 2..3
include "parts.tav"

# Coins in front of you.
counter coins per player = 0 in 0..20
zone deck: shared hidden  # the mugs, face down
zone hand: per player private

# A number nothing reads.
def spare: int = 3

# Pour a drink: its price in coins.
effect pour(n: int) {
  gain n coins
}

action serve "serve a mug" {
  require not empty(deck)
  choose c in deck "pick" {
    move c to hand of me
    do pour(c.price)
  }
}

setup { move cards to deck  shuffle deck }
rounds 3 { phase serving "Serve" turns from player(1) once_each { actions serve } }
winner: highest coins

# What a player has paid (a counter named as the mugs' attribute).
counter price per player = 0
'''
PARTS = '''\
# A mug of something.
kind Mug { price: int = 1 }
card "Ale" x4: Mug { price: 2 }
'''
HOUSE = '''\
# Every pour earns one coin more.
extends "game.tav"

replace effect pour(n: int) {
  gain n + 1 coins
}
'''


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("inn")
    (d / ".tavroot").write_text("")
    (d / "game.tav").write_text(GAME)
    (d / "parts.tav").write_text(PARTS)
    (d / "house.tav").write_text(HOUSE)
    return d


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "tavernlang", "lsp", "--stdio"]))  # (--stdio: as VS Code's client starts it)
async def client(lsp_client: LanguageClient, project: Path):
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=T.ClientCapabilities(), root_uri=project.as_uri()))
    yield
    await lsp_client.shutdown_session()


def uri(p: Path) -> str:
    return p.resolve().as_uri()


async def wait_diagnostics(client: LanguageClient, u: str, pred) -> list[T.Diagnostic]:
    """The document's diagnostics, once a published set satisfies pred."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        got = client.diagnostics.get(u)
        if got is not None and pred(got):
            return got
        left = deadline - loop.time()
        if left <= 0:
            raise AssertionError(f"no diagnostics for {u} as expected; the last: {got}")
        try:
            await asyncio.wait_for(client.wait_for_notification(PUBLISH), timeout=left)
        except asyncio.TimeoutError:
            pass


def open_doc(client: LanguageClient, p: Path, text: str | None = None) -> str:
    u = uri(p)
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
        uri=u, language_id="tav", version=1, text=p.read_text() if text is None else text)))
    return u


_versions: dict[str, int] = {}


def change(client: LanguageClient, u: str, text: str) -> None:
    _versions[u] = _versions.get(u, 1) + 1
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(uri=u, version=_versions[u]),
        [T.TextDocumentContentChangeWholeDocument(text=text)]))


def pos(text: str, needle: str, k: int = 0) -> T.Position:
    """The place of the k-th character of the first NEEDLE in text."""
    i = text.index(needle) + k
    return T.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


async def test_lint_findings_with_their_codes_on_open(client: LanguageClient, project: Path):
    u = open_doc(client, project / "game.tav")
    ds = await wait_diagnostics(client, u, lambda ds: any(d.code == "TAV401" for d in ds))
    unused = next(d for d in ds if d.code == "TAV401")
    assert unused.severity == T.DiagnosticSeverity.Warning and unused.source == "tav lint"
    assert "spare" in unused.message and unused.range.start.line == 11
    assert not [d for d in ds if d.severity == T.DiagnosticSeverity.Error]


async def test_every_checker_error_with_its_range_after_an_edit(client: LanguageClient, project: Path):
    u = open_doc(client, project / "game.tav")
    bad = GAME.replace("gain n coins", "gain n coinz").replace("move c to hand of me", "move c to hnd of me")
    change(client, u, bad)
    ds = await wait_diagnostics(client, u, lambda ds: sum(d.severity == T.DiagnosticSeverity.Error for d in ds) >= 2)
    errs = sorted((d for d in ds if d.severity == T.DiagnosticSeverity.Error), key=lambda d: d.range.start.line)
    assert "coinz" in errs[0].message and "did you mean 'coins'" in errs[0].message
    assert errs[0].range.start == pos(bad, "coinz") and errs[0].range.end == pos(bad, "coinz", 5)
    assert "hnd" in errs[1].message and errs[1].range.start == pos(bad, "hnd")
    assert all(d.source == "tav" and not d.code for d in errs)
    # a syntax error, then the fix: the errors go away
    change(client, u, GAME.replace("require not empty(deck)", "require not empty(deck"))
    ds = await wait_diagnostics(client, u, lambda ds: any("unexpected" in d.message for d in ds))
    assert [d.range.start.line for d in ds if d.severity == T.DiagnosticSeverity.Error] == [20]
    # columns as the client counts them (UTF-16): a beer mug is two units
    wide = GAME.replace("  gain n coins\n", '  log "\U0001F37A"  gain n coinz\n')
    change(client, u, wide)
    ds = await wait_diagnostics(client, u, lambda ds: any("coinz" in d.message for d in ds))
    assert next(d for d in ds if "coinz" in d.message).range.start == T.Position(15, 19)
    change(client, u, GAME)
    await wait_diagnostics(client, u, lambda ds: ds and not any(d.severity == T.DiagnosticSeverity.Error for d in ds))


async def test_an_included_files_error_is_published_for_that_file(client: LanguageClient, project: Path):
    u = open_doc(client, project / "game.tav")
    pu = open_doc(client, project / "parts.tav", PARTS.replace("price: 2", "price: cheap"))
    ds = await wait_diagnostics(client, pu, lambda ds: any("cheap" in d.message for d in ds))
    assert ds[0].range.start.line == 2
    change(client, pu, PARTS)
    await wait_diagnostics(client, pu, lambda ds: not any("cheap" in d.message for d in ds))
    assert u in client.diagnostics
    # closed unsaved, the file is the disk's again: its error goes
    change(client, pu, PARTS.replace("price: 2", "price: cheap"))
    await wait_diagnostics(client, pu, lambda ds: any("cheap" in d.message for d in ds))
    client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(pu)))
    await wait_diagnostics(client, pu, lambda ds: not any("cheap" in d.message for d in ds))


async def test_hover_gives_kind_type_and_the_comment_above(client: LanguageClient, project: Path):
    u = open_doc(client, project / "game.tav")
    await wait_diagnostics(client, u, lambda ds: True)
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(u), pos(GAME, "coins\n}", 1)))
    text = h.contents.value
    assert "(counter) coins: int, per player, in 0..20" in text and "Coins in front of you." in text
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(u), pos(GAME, "pour(c.price)")))
    assert "(effect) pour: effect(n: int)" in h.contents.value and "its price in coins" in h.contents.value
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(u), pos(GAME, "price)")))
    assert "(attribute) price: int, an attribute of Mug" in h.contents.value and "A mug of something." in h.contents.value
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(u), pos(GAME, "c.price")))
    assert "(local) c: Mug" in h.contents.value or "(local) c: card" in h.contents.value
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(u), pos(GAME, "deck)")))
    assert "(zone) deck: zone, shared, hidden" in h.contents.value and "the mugs, face down" in h.contents.value
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(u), pos(GAME, "me\n")))
    assert "(builtin) me: player" in h.contents.value
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(u), pos(GAME, "\n\n# Coins", 1)))
    assert h is None
    pu = open_doc(client, project / "parts.tav")
    h = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(pu), pos(PARTS, 'Ale"')))
    assert '(card) "Ale": card of kind Mug, x4' in h.contents.value


async def _definition(client, u, p) -> list[T.Location]:
    got = await client.text_document_definition_async(T.DefinitionParams(T.TextDocumentIdentifier(u), p))
    assert got, "no definition"
    return got if isinstance(got, list) else [got]


async def test_definition_across_includes_and_from_a_house_rule(client: LanguageClient, project: Path):
    u = open_doc(client, project / "game.tav")
    await wait_diagnostics(client, u, lambda ds: True)
    # a kind's attribute, declared in the included file (not the counter of the same name)
    [loc] = await _definition(client, u, pos(GAME, "price)", 2))
    assert loc.uri == uri(project / "parts.tav") and loc.range.start == pos(PARTS, "price:")
    [loc] = await _definition(client, u, pos(GAME, "counter price", 9))  # a declaration's own name
    assert loc.uri == u and loc.range.start == pos(GAME, "price per player")
    # a local: the choose that binds it
    [loc] = await _definition(client, u, pos(GAME, "c to hand"))
    assert loc.uri == u and loc.range.start == pos(GAME, "c in deck")
    # an effect's parameter
    [loc] = await _definition(client, u, pos(GAME, "gain n coins", 5))
    assert loc.range.start == pos(GAME, "n: int")
    # the include's path: that file
    [loc] = await _definition(client, u, pos(GAME, 'parts.tav"', 2))
    assert loc.uri == uri(project / "parts.tav")
    # a house rule: a name it uses, and what its `replace` replaces, are in the base
    hu = open_doc(client, project / "house.tav")
    await wait_diagnostics(client, hu, lambda ds: True)
    [loc] = await _definition(client, hu, pos(HOUSE, "coins"))
    assert loc.uri == u and loc.range.start == pos(GAME, "coins per player")
    [loc] = await _definition(client, hu, pos(HOUSE, "pour(", 1))
    assert loc.uri == u and loc.range.start.line == pos(GAME, "effect pour").line
    [loc] = await _definition(client, hu, pos(HOUSE, 'game.tav"'))
    assert loc.uri == u


async def test_completion_of_names_in_scope_and_keywords(client: LanguageClient, project: Path):
    u = open_doc(client, project / "game.tav")
    await wait_diagnostics(client, u, lambda ds: True)
    text = GAME.replace("    do pour(c.price)\n", "    do pour(c.price)\n    gain 1 co\n")
    change(client, u, text)
    got = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(u), pos(text, "co\n", 2)))
    labels = {i.label: i for i in got.items}
    assert {"coins", "c", "pour", "serve", "deck", "hand", "me", "size", "choose", "move", "facedown"} <= set(labels)
    assert "n" not in labels  # pour's parameter is not in scope in serve
    assert labels["coins"].kind == T.CompletionItemKind.Variable and labels["choose"].kind == T.CompletionItemKind.Keyword
    # while the file does not parse (a statement half typed), from the last text that did
    change(client, u, GAME)
    await wait_diagnostics(client, u, lambda ds: not any(d.severity == T.DiagnosticSeverity.Error for d in ds))
    text3 = GAME.replace("    do pour(c.price)\n", "    do pour(c.price)\n    move \n")
    change(client, u, text3)
    await wait_diagnostics(client, u, lambda ds: any("unexpected" in d.message for d in ds))
    got = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(u), pos(text3, "move \n", 5)))
    labels = {i.label for i in got.items}
    assert {"c", "coins", "hand", "me"} <= labels and "n" not in labels
    text2 = GAME.replace("do pour(c.price)", "do pour(c.)")
    change(client, u, text2)
    got = await client.text_document_completion_async(T.CompletionParams(T.TextDocumentIdentifier(u), pos(text2, "c.)", 2)))
    labels = {i.label for i in got.items}
    assert {"price", "coins", "name", "owner"} <= labels and "choose" not in labels
    change(client, u, GAME)
    await wait_diagnostics(client, u, lambda ds: not any(d.severity == T.DiagnosticSeverity.Error for d in ds))


async def test_document_symbols(client: LanguageClient, project: Path):
    u = open_doc(client, project / "game.tav")
    got = await client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(u)))
    names = [(s.name, s.kind) for s in got]
    assert ("pour", T.SymbolKind.Function) in names and ("serve", T.SymbolKind.Method) in names
    assert ("coins", T.SymbolKind.Variable) in names and ("deck", T.SymbolKind.Array) in names
    rounds = next(s for s in got if s.name == "rounds")
    assert [(c.name, c.kind) for c in rounds.children] == [("serving", T.SymbolKind.Event)]
    pour = next(s for s in got if s.name == "pour")
    assert pour.selection_range.start == pos(GAME, "pour(n") and pour.range.start == pos(GAME, "effect pour")
    pu = open_doc(client, project / "parts.tav")
    got = await client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(pu)))
    assert [(s.name, s.kind) for s in got] == [("Mug", T.SymbolKind.Class), ('"Ale"', T.SymbolKind.Object)]
    assert [c.name for c in got[0].children] == ["price"]


async def test_formatting_is_tav_fmt(client: LanguageClient, project: Path):
    from tavernlang import fmt

    messy = GAME.replace("  gain n coins\n", "      gain   n coins\n")
    u = open_doc(client, project / "game.tav", messy)
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(
        T.TextDocumentIdentifier(u), T.FormattingOptions(tab_size=2, insert_spaces=True)))
    want = fmt.format_text(messy, str(project / "game.tav"))
    assert want != messy
    assert len(edits) == 1 and edits[0].new_text == want and edits[0].range.start == T.Position(0, 0)
    assert edits[0].range.end == T.Position(messy.count("\n"), 0)  # the whole text
    change(client, u, want)
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(
        T.TextDocumentIdentifier(u), T.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits is not None and len(edits) == 0  # formatted already
    change(client, u, GAME.replace("require not empty(deck)", "require not empty(deck"))
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(
        T.TextDocumentIdentifier(u), T.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert not edits  # a file that does not parse is left as it is
    change(client, u, GAME)


async def test_without_the_extra_it_says_which_to_install():
    code = ("import sys; sys.modules['pygls'] = None; sys.argv = ['tav', 'lsp']\n"
            "from tavernlang.cli import main; main()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2
    assert "pip install 'tavernlang[lsp]'" in out.stderr and "Traceback" not in out.stderr


async def test_a_seed_game_across_its_includes(client: LanguageClient):
    """Cavern Tavern as shipped: no error, and its names lead into the files it includes."""
    from tavernlang.lsp.analysis import analyse

    game = ROOT / "games" / "cavern_tavern.tav"
    text = game.read_text()
    u = open_doc(client, game)
    ds = await wait_diagnostics(client, u, lambda ds: True)
    assert not [d for d in ds if d.severity == T.DiagnosticSeverity.Error]
    board = ROOT / "games" / "cavern_tavern" / "board.tav"
    [loc] = await _definition(client, u, pos(text, 'cavern_tavern/board.tav"', 2))
    assert loc.uri == uri(board)
    # a name declared in board.tav and used in the entry file: its definition is in board.tav
    a = analyse(str(board), lint=False)
    declared_there = sorted((s for ss in a.symbols.values() for s in ss
                             if Path(s.name_span.file).resolve() == board and s.kind in ("zone", "counter", "def", "effect")),
                            key=lambda s: (s.name_span.line, s.name_span.col))
    used = [s for s in declared_there if f" {s.name}" in text or f"({s.name}" in text]
    assert used, "no name of board.tav is used in cavern_tavern.tav"
    s = used[0]
    i = text.find(f" {s.name}") + 1 if f" {s.name}" in text else text.find(f"({s.name}") + 1
    locs = await _definition(client, u, pos(text[:i] + "\0", "\0"))
    assert any(loc.uri == uri(board) and loc.range.start.line == s.name_span.line - 1 for loc in locs)


async def test_every_declared_and_bound_name_is_found_where_it_is_written():
    """The places the server points at (definitions, outline) are the names themselves, in every
    game and example (the analysis alone, no server)."""
    from tavernlang.lsp.analysis import analyse, offset_of

    files = sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "examples").rglob("*.tav"))
    seen, parsed = 0, {}  # (house rules share their bases' trees)
    for f in files:
        a = analyse(str(f), lint=False, parsed=parsed)
        assert a.decls is not None, f
        for s in [s for ss in a.symbols.values() for s in ss] + [lc.symbol for lc in a.locals]:
            t = a.sources.text(s.name_span.file)
            if t is None:
                continue
            sp = s.name_span
            got = t[offset_of(t, sp.line, sp.col):offset_of(t, sp.end_line, sp.end_col)]
            want = s.name if s.kind not in ("card", "scenario") else f'"{s.name}"'
            if s.kind == "card" and got.startswith('"') and "{" in got:  # a card of a run: the run's name template
                want = got if f"card {got}" in t or f"card {got} " in t else want
            if s.name == "this":
                continue  # `this` in a kind's def stands for the kind's card: it points at the kind
            assert got == want, f"{sp}: {s.kind} {s.name} found as {got!r}"
            seen += 1
    assert seen > 1000


@pytest.mark.skipif(shutil.which("node") is None, reason="no node here")
async def test_the_vscode_extension_starts_tav_lsp_for_tav_files():
    out = subprocess.run(["node", str(ROOT / "tests" / "editors" / "vscode_activate.js"), str(ROOT / "editors" / "vscode")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    made = json.loads(out.stdout)["made"]
    assert made[0]["server"]["command"] == "tav" and made[0]["server"]["args"] == ["lsp"]
    assert {"scheme": "file", "language": "tav"} in made[0]["opts"]["documentSelector"]
    assert made[1] == "started"
    pkg = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    assert pkg["contributes"]["configuration"]["properties"]["tavernlang.server.command"]["default"] == ["tav", "lsp"]
