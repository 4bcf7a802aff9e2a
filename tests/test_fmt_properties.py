"""Properties of `tav fmt`: it changes only whitespace.

Over files drawn from the grammar (tests/test_grammar_fuzz.py's strategies) and over mutants
of every shipped rules file (whitespace and line breaks changed, comments and `# tav: ...`
suppression comments put at the ends of lines): formatting is idempotent, keeps the syntax
tree (compared without places, as tests/test_fmt.py does), keeps every comment on the line of
the same code token (a `# tav:` comment on the line of every token it was on), and `tav fmt`
refuses a file that does not parse: exit 1, the file untouched. The default suite draws a few
of each; `pytest -m slow tests/test_fmt_properties.py` draws many more."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from lark import Token

from tavernlang.cli import main
from tavernlang.errors import TavError
from tavernlang.fmt import _lark, format_text
from tavernlang.syntax.parser import parse
from test_fmt import shape
from test_grammar_fuzz import FILES, GAMES

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted(p for d in ("games", "examples", "stdlib") for p in (ROOT / d).rglob("*.tav"))
NOTES = ["# note", "#", "#x", "# tav: ignore[TAV101]", "# tav: ignore[TAV101, TAV203] the reason",
         "#tav: ignore[TAV999]", "# a # b", '# "s" {']

_FAST = settings(max_examples=15, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
_SLOW = settings(max_examples=1000, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _tokens(text: str) -> list[Token]:
    tree = _lark().parse(text.replace("\r\n", "\n"))
    return sorted(tree.scan_values(lambda v: isinstance(v, Token)), key=lambda t: t.start_pos)


def _lines(text: str) -> tuple[list[Token], dict[int, list[int]], dict[int, str]]:
    """The tokens, the indices of the tokens on each line, and the comment ending each line."""
    toks = _tokens(text)
    code = [False] * (len(text) + 1)
    on: dict[int, list[int]] = {}
    for k, t in enumerate(toks):
        code[t.start_pos:t.end_pos] = [True] * (t.end_pos - t.start_pos)
        on.setdefault(t.line, []).append(k)
    notes: dict[int, str] = {}
    for n, line in enumerate(text.split("\n"), 1):
        start = sum(len(x) + 1 for x in text.split("\n")[:n - 1])
        for c, ch in enumerate(line):
            if ch == "#" and not code[start + c]:
                notes[n] = line[c:].rstrip()
                break
    return toks, on, notes


def anchors(text: str) -> list[tuple]:
    """Each comment and where it stands: ('end', the token before it on its line) or ('own',
    the token after it, None at the end of the file)."""
    toks, on, notes = _lines(text)
    out = []
    for n, c in sorted(notes.items()):
        if n in on:
            out.append((c, "end", on[n][-1]))
        else:
            after = next((k for k, t in enumerate(toks) if t.line > n), None)
            out.append((c, "own", after))
    return out


def suppressions(text: str) -> list[tuple[str, list[int]]]:
    """Each `# tav:` comment at the end of a line of code and the tokens on its line."""
    _, on, notes = _lines(text)
    return [(c, on[n]) for n, c in sorted(notes.items()) if n in on and c.lstrip("# ").startswith("tav:")]


def assert_only_whitespace_changes(text: str) -> str:
    out = format_text(text, "f.tav")
    assert format_text(out, "f.tav") == out, "formatting twice changes the file again"
    assert shape(parse(out, "f")) == shape(parse(text, "f")), "formatting changed the syntax tree"
    assert [str(t) for t in _tokens(out)] == [str(t) for t in _tokens(text)], "the tokens changed"
    assert anchors(out) == anchors(text), "a comment left the line of its code token"
    before, after = suppressions(text), suppressions(out)
    assert [c for c, _ in after] == [c for c, _ in before]
    for (c, was), (_, now) in zip(before, after):
        assert set(was) <= set(now), f"a token left the line its {c!r} suppresses"
    return out


# ---------------------------------------------------------------- mutants of the shipped rules files

@st.composite
def mutants(draw, paths=RULES):
    """A shipped rules file with the whitespace between its tokens changed (spaces, indentation,
    line breaks added and removed where no comment is), and comments put at the ends of lines."""
    path = draw(st.sampled_from(paths), label="file")
    text = path.read_text("utf-8")
    toks = _tokens(text)
    out, prev = [], 0
    for t in toks:
        gap = text[prev:t.start_pos]
        if "#" not in gap:
            roll = draw(st.integers(0, 9))
            if "\n" in gap and roll < 3:  # a line break removed
                gap = " "
            elif "\n" in gap:
                gap = "\n" * draw(st.integers(1, 3)) + " " * draw(st.integers(0, 9))
            elif prev and roll == 0:  # a line break added
                gap = "\n" + " " * draw(st.integers(0, 6))
            else:
                gap = " " * draw(st.integers(1 if gap else 0, 3))
        out.append(gap)
        out.append(text[t.start_pos:t.end_pos])
        prev = t.end_pos
    out.append(text[prev:])
    return with_comments(draw, "".join(out))


def with_comments(draw, text: str) -> str:
    """Comments put at the ends of some lines that have none (suppressions among them)."""
    has = set(_lines(text)[2])
    lines = text.split("\n")
    for n in range(len(lines)):
        if n + 1 not in has and draw(st.integers(0, 5)) == 0:
            lines[n] += " " * draw(st.integers(0, 3)) + draw(st.sampled_from(NOTES))
    return "\n".join(lines)


@st.composite
def drawn_with_comments(draw):
    return with_comments(draw, draw(st.one_of(FILES, GAMES)))


@_FAST
@given(text=mutants())
def test_mutants_of_the_shipped_rules_files_change_only_in_whitespace(text):
    assert_only_whitespace_changes(text)


@_FAST
@given(text=drawn_with_comments())
def test_files_drawn_from_the_grammar_change_only_in_whitespace(text):
    assert_only_whitespace_changes(text)


@pytest.mark.slow
@_SLOW
@given(text=mutants())
def test_mutants_of_the_shipped_rules_files_change_only_in_whitespace_long(text):
    assert_only_whitespace_changes(text)


@pytest.mark.slow
@_SLOW
@given(text=drawn_with_comments())
def test_files_drawn_from_the_grammar_change_only_in_whitespace_long(text):
    assert_only_whitespace_changes(text)


# ---------------------------------------------------------------- what the properties found

@pytest.mark.parametrize("text, want", [
    # statements of a block on several lines share a line that ends in a suppression
    ('game "g"\naction a "a" {\n  gain 1 c  gain 2 c # tav: ignore[TAV101]\n}\n',
     'game "g"\naction a "a" {\n  gain 1 c  gain 2 c  # tav: ignore[TAV101]\n}\n'),
    # the first statement on the line of the block's '{'
    ('game "g"\naction a "a" { gain 1 c # tav: ignore[TAV101]\n}\n',
     'game "g"\naction a "a" { gain 1 c  # tav: ignore[TAV101]\n}\n'),
    # two declarations, and a statement with its block's '}'
    ('game "g" counter c = 1 # tav: ignore[TAV1]\naction a "a" {\n gain 1 c }  # tav: ignore[TAV101]\n',
     'game "g"  counter c = 1  # tav: ignore[TAV1]\naction a "a" {\n  gain 1 c }  # tav: ignore[TAV101]\n'),
])
def test_the_tokens_of_a_line_ending_in_a_comment_stay_on_its_line(text, want):
    assert assert_only_whitespace_changes(text) == want


# ---------------------------------------------------------------- a file that does not parse

BREAKERS = ["}", "{", "(", "@", ")", ",", "= =", '"', "game"]


@st.composite
def broken(draw):
    """A mutant with a token dropped or a stray one put in, that no longer parses."""
    text = draw(st.one_of(mutants(), drawn_with_comments()))
    toks = _tokens(text)
    if not toks:  # (a file of comments only)
        return text + "\n}\n"
    t = toks[draw(st.integers(0, len(toks) - 1))]
    if draw(st.booleans()):
        text = text[:t.start_pos] + text[t.end_pos:]
    else:
        text = text[:t.start_pos] + draw(st.sampled_from(BREAKERS)) + " " + text[t.start_pos:]
    try:
        parse(text.encode("utf-8"), "f.tav")
    except TavError:
        return text
    reject()


def assert_refused(tmp_path: Path, text: str) -> None:
    f = tmp_path / "broken.tav"
    f.write_bytes(text.encode("utf-8"))
    r = CliRunner().invoke(main, ["fmt", str(f)])
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"{f}:") and ": error: " in r.stderr and "Traceback" not in r.stderr
    assert f.read_bytes() == text.encode("utf-8"), "a file that does not parse was changed"


@settings(max_examples=10, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(text=broken())
def test_fmt_refuses_a_file_that_does_not_parse_and_leaves_it_untouched(tmp_path, text):
    assert_refused(tmp_path, text)


@pytest.mark.slow
@_SLOW
@given(text=broken())
def test_fmt_refuses_a_file_that_does_not_parse_and_leaves_it_untouched_long(tmp_path, text):
    assert_refused(tmp_path, text)
