"""What `tav lsp` answers, and how much work an answer costs: completion after `x.` offers the
members of x's type first; a document version is checked once, its names indexed once and its
outline made once, however many requests ask about it. Driven in process (tests/lsp_session.py)
so that the work can be counted."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_session import Session

from tavernlang.lsp import analysis as An

GAME = '''\
game "Two Trays"
players 2..3

kind Mug { price: int = 1, size: int = 2 }
kind Coin { value: int = 1 }
card "Ale" x4: Mug { price: 2 }
card "Penny" x4: Coin { value: 1 }

counter coins per player = 0
var tips: int per player = 0
zone deck: shared hidden
zone hand: per player private

effect sip(m: Mug, p: player) {
  gain m.price coins
  move m to hand of p
}

action serve {
  choose c in deck "pick" { move c to hand of me }
}

setup { move cards to deck  shuffle deck }
rounds 3 { phase serving turns from player(1) once_each { actions serve } }
winner: highest coins
'''


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / ".tavroot").write_text("")
    (tmp_path / "game.tav").write_text(GAME)
    return tmp_path


def labels_in_order(answer) -> list[str]:
    items = answer["result"]["items"]
    return [i["label"] for i in sorted(items, key=lambda i: i.get("sortText") or i["label"])]


def complete_after(s: Session, u: str, text: str, needle: str) -> list[str]:
    """The labels offered right after NEEDLE, once the document's text is TEXT, best first."""
    async def edit():  # (the server's debounce needs a running loop)
        s.change(u, text)
    asyncio.run(edit())
    i = text.index(needle) + len(needle)
    line = text.count("\n", 0, i)
    return labels_in_order(s.request("textDocument/completion", {
        "textDocument": {"uri": u}, "position": {"line": line, "character": i - (text.rfind("\n", 0, i) + 1)}}))


def test_completion_after_a_kinds_value_offers_its_attributes_first(project):
    s = Session(project)
    u = (project / "game.tav").as_uri()
    s.open(u, GAME)
    got = complete_after(s, u, GAME.replace("gain m.price coins", "gain m. coins"), "gain m.")
    assert set(got[:2]) == {"price", "size"}
    assert got.index("name") < got.index("value")  # a card's properties before another kind's attributes
    assert got.index("coins") > got.index("owner")


def test_completion_after_a_player_offers_per_player_names_first(project):
    s = Session(project)
    u = (project / "game.tav").as_uri()
    s.open(u, GAME)
    got = complete_after(s, u, GAME.replace("move m to hand of p\n", "move m to hand of p\n  gain 1 p.\n"), "gain 1 p.")
    assert set(got[:3]) == {"coins", "tips", "hand"}
    assert set(got[3:7]) == {"left", "right", "seat", "eliminated"}
    assert {"price", "value", "size"} <= set(got[7:])


def test_completion_after_a_name_of_unknown_type_offers_every_member(project):
    s = Session(project)
    u = (project / "game.tav").as_uri()
    s.open(u, GAME)
    got = complete_after(s, u, GAME.replace("gain m.price coins", "gain nosuch. coins"), "gain nosuch.")
    assert {"price", "size", "value", "coins", "hand", "name", "seat", "size"} <= set(got)


@pytest.fixture
def counted(monkeypatch):
    """How often the analysis checks a game, indexes its names and makes an outline."""
    calls = {"analyse": 0, "index": 0, "outline": 0}
    for fn in calls:
        real = getattr(An, fn)

        def counting(*args, _real=real, _fn=fn, **kw):
            calls[_fn] += 1
            return _real(*args, **kw)
        monkeypatch.setattr(An, fn, counting)
    return calls


def test_each_document_version_is_checked_indexed_and_outlined_once(project, counted):
    async def run():
        s = Session(project, debounce=0.01)
        u = (project / "game.tav").as_uri()
        s.open(u, GAME)
        await s.settle()
        assert counted == {"analyse": 1, "index": 1, "outline": 0}  # (the index made while idle)
        for k in range(5):
            pos = {"textDocument": {"uri": u}, "position": {"line": 14 + k % 2, "character": 8}}
            assert s.request("textDocument/hover", pos)["result"] is not None
            s.request("textDocument/completion", pos)
            s.request("textDocument/definition", pos)
            assert s.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})["result"]
        assert counted == {"analyse": 1, "index": 1, "outline": 1}
        s.change(u, GAME + "\n# a comment\n")
        await s.settle()
        for k in range(3):
            s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 14, "character": 8}})
            s.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})
        assert counted == {"analyse": 2, "index": 2, "outline": 2}
        s.change(u, GAME + "\n# another\n")  # a request before the debounced check: checked now, once
        s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 14, "character": 8}})
        await s.settle()
        s.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 14, "character": 8}})
        assert counted["analyse"] == 3 and counted["index"] == 3
    asyncio.run(run())
