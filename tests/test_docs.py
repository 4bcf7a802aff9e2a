"""Every example in docs/language.md is real.

Each ```tav block of the language reference is written to a file and loaded with
:func:`tavernlang.loader.load`. The first line of a block may be a marker comment
(the same conventions are stated at the top of docs/language.md):

``# preamble``
    The small example game most examples build on. Checked alone, and put in
    front of every fragment. There must be exactly one.
``# fragment``
    Appended to the preamble, then checked.
``# file: NAME.tav``
    Written as NAME.tav beside the other blocks, for the examples that include it.
    Checked through the blocks that include it, not alone.
``# error: TEXT`` / ``# fragment error: TEXT``
    Must fail to load (alone / after the preamble) with a TavError one of whose
    messages contains TEXT.
``# fails: TEXT`` / ``# fragment fails: TEXT``
    Must load, and one of its scenarios must fail with a message containing TEXT.
anything else
    A complete rules file, checked alone.

Every block that loads has its scenarios run (they must pass, unless the block
is marked ``fails``), and when it has phases, a few whole games are played by
random bots, which must finish without an error.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavernlang.check.checker import BUILTIN_FUNCS, BUILTIN_NAMES, BUILTIN_PROPS
from tavernlang.engine.compile import CompiledGame
from tavernlang.engine.runner import playout
from tavernlang.engine.scenario import run_scenario
from tavernlang.errors import TavError
from tavernlang.loader import load

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"
FENCE = re.compile(r"^```tav[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARKER = re.compile(
    r"^#[ \t]*(?:"
    r"(?P<preamble>preamble)"
    r"|file:[ \t]*(?P<file>\S+)"
    r"|(?P<fragment>fragment)?[ \t]*(?:(?P<mode>error|fails):[ \t]*(?P<text>.*?))?"
    r")[ \t]*$"
)
SEEDS = (1, 2, 3)


class Block:
    def __init__(self, text: str, line: int):
        self.text = text
        self.line = line
        first = text.split("\n", 1)[0].strip()
        m = MARKER.match(first)
        self.preamble = bool(m and m.group("preamble"))
        self.file = m.group("file") if m else None
        self.fragment = bool(m and m.group("fragment"))
        self.mode = m.group("mode") if m else None  # None, "error" or "fails"
        self.expect_text = (m.group("text") or "").strip() if m else ""

    def __repr__(self) -> str:
        return f"docs/language.md:{self.line}"


def _blocks() -> list[Block]:
    if not DOC.exists():
        return []
    text = DOC.read_text("utf-8")
    out = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 2  # the block's first line
        out.append(Block(m.group(1), line))
    return out


BLOCKS = _blocks()
CHECKED = [b for b in BLOCKS if b.file is None]


def _preamble() -> str:
    pre = [b for b in BLOCKS if b.preamble]
    assert len(pre) == 1, "docs/language.md needs exactly one '# preamble' block"
    return pre[0].text


def _write_files(tmp_path: Path) -> None:
    for b in BLOCKS:
        if b.file is not None:
            p = tmp_path / b.file
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(b.text, "utf-8")


def _load(block: Block, tmp_path: Path):
    _write_files(tmp_path)
    text = _preamble() + "\n" + block.text if block.fragment else block.text
    path = tmp_path / f"example_{block.line}.tav"
    path.write_text(text, "utf-8")
    return load(path)


def test_the_doc_has_examples():
    assert DOC.exists(), "docs/language.md is missing"
    assert len(CHECKED) >= 20
    _preamble()
    names = {b.file for b in BLOCKS if b.file is not None}
    assert len(names) == len([b for b in BLOCKS if b.file is not None]), "two '# file:' blocks share a name"


@pytest.mark.parametrize("block", CHECKED, ids=repr)
def test_example(block: Block, tmp_path: Path):
    if block.mode == "error":
        with pytest.raises(TavError) as info:
            _load(block, tmp_path)
        messages = [d.message for d in info.value.diagnostics]
        assert any(block.expect_text in msg for msg in messages), (
            f"{block}: expected an error containing {block.expect_text!r}, got {messages}")
        return
    try:
        model = _load(block, tmp_path)
    except TavError as e:
        pytest.fail(f"{block}: the example does not load:\n{e.render()}")
    game = CompiledGame(model)
    failures = []
    for sc in game.scenarios:
        r = run_scenario(game, sc)
        failures += [msg for _, msg in r.failures]
        if block.mode != "fails":
            assert r.passed, f"{block}: scenario '{r.title}' fails:\n{r.transcript()}"
    if block.mode == "fails":
        assert any(block.expect_text in msg for msg in failures), (
            f"{block}: expected a scenario failure containing {block.expect_text!r}, got {failures}")
    if model.phases:
        for players in sorted({model.min_players, model.max_players}):
            for seed in SEEDS:
                r = playout(game, players, seed)
                assert r["winners"] is not None


def _doc_text() -> str:
    return DOC.read_text("utf-8") if DOC.exists() else ""


@pytest.mark.parametrize("name", sorted(BUILTIN_NAMES) + sorted(BUILTIN_FUNCS))
def test_every_builtin_is_documented(name: str):
    assert f"`{name}" in _doc_text(), f"the builtin '{name}' is not in docs/language.md"


@pytest.mark.parametrize("prop", sorted({n for _, n in BUILTIN_PROPS}))
def test_every_builtin_property_is_documented(prop: str):
    assert f".{prop}`" in _doc_text(), f"the property '.{prop}' is not in docs/language.md"
