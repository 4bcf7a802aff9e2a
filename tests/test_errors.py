"""Every error is a place: broken rules files must end as located diagnostics.

A bad rules file -- a syntax error, an unknown name, a wrong type, garbage
bytes, a missing include -- must end as ``FILE:LINE:COL: error: message``, then
the source line and a caret, exit code 1, and never a Python traceback. This
file checks that with

* a corpus of small broken rules files, ``tests/errors/*.tav``, each carrying
  its expected diagnostics inline (format below), loaded in-process with
  ``tavernlang.loader.load`` and compared exactly (no missing, no extra errors);
* the real CLI (``python -m tavernlang check``) run once over the whole corpus;
* generated hostile inputs (random bytes, invalid UTF-8, NUL bytes, very deep
  nesting, missing and cyclic includes, empty files), run through the CLI;
* hypothesis property tests: for any text, any bytes and any mutation of
  ``games/little_tavern.tav``, ``load`` either succeeds or raises ``TavError``
  whose diagnostics all have a place (line >= 1, col >= 1).

Inline expectation format (in ``tests/errors/*.tav``)
------------------------------------------------------
An annotation is a ``#`` comment, usually at the end of the line it is about::

    def a = coin        # E: unknown name 'coin' (did you mean 'coins'?)
    def b = coin        # E@9: unknown name 'coin'
    counter pot = 0     # N@1: 'pot' is first defined here

``# E: TEXT``
    The checker reports an error on THIS line whose message contains TEXT.
``# E@COL: TEXT``
    The same, and the error starts at column COL (1-based, as printed).
``# N: TEXT`` / ``# N@COL: TEXT``
    Some reported error carries a note placed on THIS line (at COL) whose
    message contains TEXT (e.g. the "first defined here" note of a duplicate).

TEXT is matched as a substring; ``<...>`` inside TEXT stands for any text, so
``# E: unexpected end of file<...>'}'`` needs both pieces, in that order.
Several annotations may share a line (``# E@5: ... # E@20: ...``). Trailing
spaces are ignored.

The comparison is exact in both directions: every ``E`` annotation must match
its own reported error, and every reported error must be matched by an
annotation, so a file that lists several errors proves the checker reports
more than the first one. Likewise every reported note must be annotated.

A line ``# XFAIL: REASON`` anywhere in a file says the file documents a bug in
the tool: its annotations give what the tool SHOULD report, and the corpus
test for it is marked ``xfail(strict=True, reason=REASON)``, so it starts
failing (XPASS) once the bug is fixed and the marker can go. Files that
document a *missed* error also contain one control error the tool does find,
so that the CLI test (which wants at least one located error per file) holds.
"""
from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavernlang.errors import Diagnostic, TavError
from tavernlang.loader import load

ROOT = Path(__file__).resolve().parent.parent
ERRORS = Path(__file__).resolve().parent / "errors"
CORPUS = sorted(ERRORS.glob("*.tav"))
LITTLE_TAVERN = ROOT / "games" / "little_tavern.tav"

# ----------------------------------------------------------------------------- expectations

_ANNOTATION = re.compile(r"#\s*([EN])(?:@(\d+))?:[ \t]*")
_XFAIL = re.compile(r"^\s*#\s*XFAIL:\s*(.+?)\s*$")
_HEADER = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
_CARET = re.compile(r"^    \s*\^~*$")


class Expect:
    """One annotation: an error (E) or a note (N) expected on a line."""

    def __init__(self, kind: str, line: int, col: int | None, text: str):
        self.kind, self.line, self.col, self.text = kind, line, col, text

    def matches(self, line: int, col: int, message: str) -> bool:
        if line != self.line or (self.col is not None and col != self.col):
            return False
        pos = 0
        for frag in self.text.split("<...>"):
            i = message.find(frag, pos)
            if i < 0:
                return False
            pos = i + len(frag)
        return True

    def __repr__(self) -> str:
        at = f"{self.line}" + (f":{self.col}" if self.col is not None else "")
        return f"{self.kind}@{at}: {self.text}"


def expectations(path: Path) -> tuple[list[Expect], list[Expect], str | None]:
    """The file's expected errors, expected notes and XFAIL reason."""
    errors: list[Expect] = []
    notes: list[Expect] = []
    xfail = None
    text = path.read_bytes().decode("utf-8")
    for n, line in enumerate(text.split("\n"), start=1):
        m = _XFAIL.match(line)
        if m:
            xfail = m.group(1)
            continue
        hits = list(_ANNOTATION.finditer(line))
        for i, h in enumerate(hits):
            end = hits[i + 1].start() if i + 1 < len(hits) else len(line)
            e = Expect(h.group(1), n, int(h.group(2)) if h.group(2) else None, line[h.end():end].rstrip())
            (errors if e.kind == "E" else notes).append(e)
    return errors, notes, xfail


def reported(path: Path) -> tuple[list[Diagnostic], TavError | None]:
    try:
        load(path)
    except TavError as e:
        return list(e.diagnostics), e
    return [], None


def _corpus_params():
    out = []
    for p in CORPUS:
        reason = expectations(p)[2]
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(p, id=p.stem, marks=marks))
    return out


def _same_file(diag_file: str, path: Path) -> bool:
    return Path(diag_file).resolve() == path.resolve()


# ----------------------------------------------------------------------------- the corpus


def test_corpus_is_well_formed():
    assert len(CORPUS) >= 25
    for p in CORPUS:
        errs, _, _ = expectations(p)
        assert errs, f"{p.name} has no '# E' annotation"
        for e in errs:
            assert e.text, f"{p.name}:{e.line}: empty expectation"
    # many files list several errors: the checker must report them all, not only the first
    assert sum(len(expectations(p)[0]) >= 5 for p in CORPUS) >= 15


@pytest.mark.parametrize("path", _corpus_params())
def test_corpus_diagnostics(path: Path):
    want_errors, want_notes, _ = expectations(path)
    got, err = reported(path)
    rendered = err.render() if err else "(no diagnostics: the file loaded cleanly)"

    for d in got:
        assert _same_file(d.span.file, path), f"diagnostic in another file: {d.span}: {d.message}"

    # errors: a one-to-one matching, most specific expectations first
    unmatched = list(got)
    missing = []
    for e in sorted(want_errors, key=lambda e: e.col is None):
        hit = next((d for d in unmatched if e.matches(d.span.line, d.span.col, d.message)), None)
        if hit is None:
            missing.append(e)
        else:
            unmatched.remove(hit)

    # notes: every expected note exists, every reported note is expected
    got_notes = {(n.span.line, n.span.col, n.message) for d in got for n in d.notes}
    missing_notes = [e for e in want_notes if not any(e.matches(*n) for n in got_notes)]
    extra_notes = [n for n in got_notes if not any(e.matches(*n) for e in want_notes)]

    problems = []
    problems += [f"  expected, not reported:  {e!r}" for e in missing]
    problems += [f"  reported, not expected:  {d.span.line}:{d.span.col}: {d.message}" for d in unmatched]
    problems += [f"  expected note missing:   {e!r}" for e in missing_notes]
    problems += [f"  unexpected note:         {ln}:{c}: {m}" for ln, c, m in sorted(extra_notes)]
    assert not problems, f"{path.name}:\n" + "\n".join(problems) + "\n--- the tool printed:\n" + rendered


# ----------------------------------------------------------------------------- the real CLI


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TAV_DEBUG", None)  # with it the CLI re-raises engine bugs as tracebacks
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _tav_check(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tavernlang", "check", *args], cwd=cwd, env=_env(),
                          capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=120)


def _headers(stderr: str) -> list[tuple[int, re.Match]]:
    lines = stderr.splitlines()
    return [(i, m) for i, line in enumerate(lines) if (m := _HEADER.match(line))]


@pytest.fixture(scope="module")
def corpus_cli():
    """One `tav check` over the whole corpus (relative names, run from tests/errors)."""
    return _tav_check([p.name for p in CORPUS], ERRORS)


def test_cli_corpus_exit_code_and_total(corpus_cli):
    r = corpus_cli
    assert r.returncode == 1, r.stderr[-2000:]
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    assert "internal error" not in r.stderr
    total = sum(len(reported(p)[0]) for p in CORPUS)
    assert r.stderr.rstrip().splitlines()[-1] == f"{total} errors"


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_cli_corpus_file(corpus_cli, path: Path):
    lines = corpus_cli.stderr.splitlines()
    mine = [(i, m) for i, m in _headers(corpus_cli.stderr) if m["file"] == path.name]
    assert mine, f"no '{path.name}:LINE:COL: error:' line in the CLI output"
    for i, m in mine:
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1
        # FILE:LINE:COL: error: message / the source line / a caret under the column
        assert i + 2 < len(lines) and _CARET.match(lines[i + 2]), f"no caret line after {lines[i]!r}"
        caret_col = lines[i + 2].index("^") - 4 + 1
        assert caret_col == int(m["col"]), f"caret at column {caret_col}, not {m['col']}: {lines[i]!r}"
    # the CLI prints exactly what the loader reports
    got = sorted((int(m["line"]), int(m["col"]), m["msg"]) for _, m in mine)
    assert got == sorted((d.span.line, d.span.col, d.message) for d in reported(path)[0])


# ----------------------------------------------------------------------------- hostile inputs


def _nested_blocks(n: int) -> bytes:
    return ("game \"Deep\"\neffect e {\n" + "if true { " * n + 'log "x"' + " }" * n + "\n}\n").encode()


_random_bytes = random.Random(20240501).randbytes(4096)

# name -> (files to write, file to check, allowed exit codes, expected place, message substring)
# A place is (file, line, col); col None means any column; no place means "any place in the target".
HOSTILE = {
    "random_bytes": ({"input.tav": _random_bytes}, "input.tav", {1}, None, None),
    "invalid_utf8_mid_line": ({"input.tav": b'game "T"\nplayers 2..4\ncounter x = 1 \xff 2\n'},
                              "input.tav", {1}, ("input.tav", 3, 15), "not valid UTF-8"),
    "nul_byte": ({"input.tav": b'game "T"\nplayers 2..4\ncounter x = 1\x00\n'},
                 "input.tav", {1}, ("input.tav", 3, 14), "NUL byte"),
    "parens_10000": ({"input.tav": b"def x = " + b"(" * 10_000 + b"1" + b")" * 10_000 + b"\n"},
                     "input.tav", {0, 1}, None, None),
    "chain_5000": ({"input.tav": b"def x = " + b" + ".join([b"1"] * 5_000) + b"\n"}, "input.tav", {0, 1}, None, None),
    "nested_blocks_300": ({"input.tav": _nested_blocks(300)}, "input.tav", {1}, None, None),
    "include_missing": ({"main.tav": b'game "T"\nplayers 2..4\ninclude "missing.tav"\n'},
                        "main.tav", {1}, ("main.tav", 3, 1), "cannot include 'missing.tav'"),
    "include_cycle": ({"a.tav": b'game "T"\nplayers 2..4\ninclude "b.tav"\n', "b.tav": b'# b\ninclude "a.tav"\n'},
                      "a.tav", {1}, ("b.tav", 2, 1), "include cycle"),
    "missing_file": ({}, "nowhere.tav", {2}, None, "does not exist"),  # a usage error, as for every command
    # a file that declares nothing is an error (it would pass check, then have no game to run)
    "empty": ({"input.tav": b""}, "input.tav", {1}, ("input.tav", 1, 1), "this file is empty"),
    "only_comment": ({"input.tav": b"# nothing here yet\n"}, "input.tav", {1}, ("input.tav", 1, 1), "this file is empty"),
    "only_comment_no_newline": ({"input.tav": b"# nothing here yet"}, "input.tav", {1}, ("input.tav", 1, 1),
                                "this file is empty"),
    # inputs for the xfail tests below
    "invalid_utf8_after_accent": ({"input.tav": b'players 2..4\ngame "Th\xc3\xa9o \xff"\n'}, "input.tav", {1},
                                  ("input.tav", 2, None), "not valid UTF-8"),  # the column: see the xfail test
    "byte_order_mark": ({"input.tav": b'\xef\xbb\xbfgame "T"\nplayers 2..4\n'}, "input.tav", {0, 1}, None, None),
    "form_feed": ({"input.tav": b'game "T"\x0c\nplayers 2..4\ndef x = nope\n'}, "input.tav", {1},
                  ("input.tav", 3, 9), "unknown name 'nope'"),
    "eof_after_form_feeds": ({"input.tav": b'game "T"\naction a { # a\x0cb\x0cc\x0cd\n'}, "input.tav", {1},
                             None, "unexpected end of file"),
    "line_separator_in_comment": ({"input.tav": 'game "T"  # a\u2028b\nplayers 2..4\ndef x = nope\n'.encode()},
                                  "input.tav", {1}, ("input.tav", 3, 9), "unknown name 'nope'"),
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """Write every hostile case to its own folder and run `tav check` on each, in parallel."""
    base = tmp_path_factory.mktemp("hostile")

    def run(name):
        files, target, *_ = HOSTILE[name]
        d = base / name
        d.mkdir()
        for fname, data in files.items():
            (d / fname).write_bytes(data)
        return name, (d, _tav_check([target], d))

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(run, HOSTILE))


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_cli(hostile, name):
    files, target, codes, place, text = HOSTILE[name]
    _, r = hostile[name]
    assert r.returncode in codes, r.stderr[-2000:]
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    assert "internal error" not in r.stderr
    if r.returncode == 0:
        assert r.stderr == "" and r.stdout == ""
        return
    if r.returncode == 2:  # a wrong command line (a path that does not exist): click's usage error
        assert text in r.stderr and "Usage:" in r.stderr, r.stderr
        return
    heads = _headers(r.stderr)
    assert heads, f"no FILE:LINE:COL: error: line in:\n{r.stderr[:2000]}"
    lines = r.stderr.splitlines()
    for i, m in heads:
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1
        if target in files:  # a file that exists has a source line and a caret under the error
            assert i + 2 < len(lines) and _CARET.match(lines[i + 2]), f"no caret line after {lines[i]!r}"
    if place is not None:
        file, line, col = place
        assert any(m["file"] == file and int(m["line"]) == line and (col is None or int(m["col"]) == col)
                   and text in m["msg"] for _, m in heads), r.stderr[:2000]


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_in_process(hostile, name):
    """The same inputs through `load`: TavError with places, or success; nothing else escapes."""
    files, target, codes, place, text = HOSTILE[name]
    d, _ = hostile[name]
    try:
        load(d / target)
    except TavError as e:
        assert 1 in codes or 2 in codes  # (a missing file: a usage error for the command line, located for load)
        assert e.diagnostics
        for diag in e.diagnostics:
            assert diag.span.line >= 1 and diag.span.col >= 1
        e.render()
        if place is not None:
            file, line, col = place
            assert any(_same_file(diag.span.file, d / file) and diag.span.line == line
                       and (col is None or diag.span.col == col) and text in diag.message
                       for diag in e.diagnostics), e.render()
    else:
        assert 0 in codes


def test_invalid_utf8_column_counts_characters(hostile):
    _, r = hostile["invalid_utf8_after_accent"]
    assert "input.tav:2:12: error: the file is not valid UTF-8 text (byte 0xff)" in r.stderr


def test_deep_blocks_say_nesting_is_too_deep(hostile):
    _, r = hostile["nested_blocks_300"]
    heads = [m for _, m in _headers(r.stderr)]
    assert len(heads) == 1
    assert "nesting is too deep" in heads[0]["msg"]
    assert int(heads[0]["line"]) == 3  # the blocks are all on line 3


def test_long_sum_is_not_blamed_on_includes(hostile):
    _, r = hostile["chain_5000"]
    if r.returncode == 0:
        return
    heads = [m for _, m in _headers(r.stderr)]
    assert heads and all("include" not in m["msg"] for m in heads)
    assert all(int(m["line"]) == 1 and int(m["col"]) >= 9 for m in heads)  # somewhere in the expression


def test_byte_order_mark_is_accepted(hostile):
    _, r = hostile["byte_order_mark"]
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("name", ["form_feed", "line_separator_in_comment"])
def test_excerpt_shows_the_reported_line(hostile, name):
    _, r = hostile[name]
    lines = r.stderr.splitlines()
    (i, m), = _headers(r.stderr)
    assert (m["line"], m["col"]) == ("3", "9")
    assert lines[i + 1] == "    def x = nope"


def test_end_of_file_error_is_on_a_real_line(hostile):
    _, r = hostile["eof_after_form_feeds"]
    (_, m), = _headers(r.stderr)
    assert "unexpected end of file" in m["msg"]
    assert m["line"] == "2"


# ----------------------------------------------------------------------------- properties


def _load_or_located(path: Path) -> None:
    """`load` succeeds, or raises TavError whose diagnostics (and notes) all have a place.

    (That the line is inside the file is not asserted here: it is not true today for
    files with form feeds or U+2028, see test_end_of_file_error_is_on_a_real_line.)
    """
    try:
        load(path)
    except TavError as e:
        assert e.diagnostics, "a TavError without diagnostics"
        for d in e.diagnostics:
            for span in [d.span] + [n.span for n in d.notes]:
                assert span.line >= 1 and span.col >= 1, f"no place: {span}: {d.message}"
        e.render()


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    (d / "little_tavern").mkdir()
    shutil.copy(ROOT / "games" / "little_tavern" / "cards.tav", d / "little_tavern" / "cards.tav")
    return d


_PROPS = settings(max_examples=200, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_TOKENS = ['{', '}', '(', ')', '[', ']', ',', ':', '=', '..', '.', '"', '"x"', '#', '\n', ' ', '1', '-', '+', '*',
           '==', '<', 'game', 'players', 'counter', 'per', 'player', 'zone', 'kind', 'card', 'def', 'effect',
           'action', 'setup', 'rounds', 'phase', 'turns', 'from', 'actions', 'end', 'when', 'winner', 'highest',
           'if', 'then', 'else', 'for', 'in', 'where', 'choose', 'do', 'require', 'set', 'move', 'to', 'gain',
           'coins', 'me', 'players', 'count', 'sum', 'match', '=>', 'include', 'scenario', 'expect', 'x', 'p', 'c',
           'true', 'none', 'all', 'every', 'of', 'is', 'int', 'bool']


@_PROPS
@given(text=st.text(max_size=400))
def test_any_text_loads_or_fails_with_places(fuzz_dir, text):
    path = fuzz_dir / "text.tav"
    path.write_bytes(text.encode("utf-8"))
    _load_or_located(path)


@_PROPS
@given(data=st.binary(max_size=400))
def test_any_bytes_load_or_fail_with_places(fuzz_dir, data):
    path = fuzz_dir / "bytes.tav"
    path.write_bytes(data)
    _load_or_located(path)


@_PROPS
@given(tokens=st.lists(st.sampled_from(_TOKENS), max_size=60))
def test_token_soup_loads_or_fails_with_places(fuzz_dir, tokens):
    text = " ".join(tokens)
    path = fuzz_dir / "soup.tav"
    path.write_bytes(text.encode("utf-8"))
    _load_or_located(path)


_LT_TEXT = LITTLE_TAVERN.read_text(encoding="utf-8")
_edit = st.tuples(st.integers(0, len(_LT_TEXT)), st.integers(0, 8),
                  st.one_of(st.just(""), st.characters(), st.sampled_from(_TOKENS)))


@_PROPS
@given(edits=st.lists(_edit, min_size=1, max_size=6))
def test_mutated_little_tavern_loads_or_fails_with_places(fuzz_dir, edits):
    text = _LT_TEXT
    for pos, n_deleted, inserted in edits:
        pos = min(pos, len(text))
        text = text[:pos] + inserted + text[pos + n_deleted:]
    path = fuzz_dir / "little_tavern.tav"  # beside little_tavern/cards.tav, so the include resolves
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    _load_or_located(path)
