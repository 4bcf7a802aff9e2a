"""`tav fmt`: one canonical layout, idempotent, that never changes what a file means and keeps
every comment where it was (docs/formatting.md)."""
from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token

from tavernlang import compile_file, playout
from tavernlang.cli import main
from tavernlang.errors import Span, TavError
from tavernlang.fmt import WIDTH, _lark, format_text
from tavernlang.syntax import ast as A
from tavernlang.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for d in ("games", "stdlib", "examples", "tests/scenarios") for p in (ROOT / d).rglob("*.tav"))
# every rules file in the repository but the error corpus (broken on purpose)
ALL = sorted(p for p in ROOT.rglob("*.tav") if "errors" not in p.relative_to(ROOT).parts[:2]
             and not any(part.startswith(".") for part in p.relative_to(ROOT).parts))


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def shape(n):
    """A syntax tree without its places: what the file means, whatever its layout."""
    if isinstance(n, A.Node):
        return (type(n).__name__,) + tuple(shape(getattr(n, f.name)) for f in attrs.fields(type(n))
                                           if f.name != "source")
    if isinstance(n, (tuple, list)):
        return tuple(shape(x) for x in n)
    if isinstance(n, Span):
        return None
    return n


def comments(text: str) -> list[tuple[str, bool]]:
    """Each comment in order, and whether it ends a line of code (else it has a line of its own)."""
    src = text.replace("\r\n", "\n").lstrip("\ufeff")
    code = [False] * (len(src) + 1)  # the offsets a token covers ('#' in a string is no comment)
    for t in _lark().parse(src).scan_values(lambda v: isinstance(v, Token)):
        code[t.start_pos:t.end_pos] = [True] * (t.end_pos - t.start_pos)
    out, i = [], 0
    while i < len(src):
        if src[i] == "#" and not code[i]:
            j = src.find("\n", i)
            j = len(src) if j < 0 else j
            line_start = src.rfind("\n", 0, i) + 1
            out.append((src[i:j].rstrip(), src[line_start:i].strip() != ""))
            i = j
        else:
            i += 1
    return out


def suppressed_lines(text: str) -> list[tuple[str, str]]:
    """The code of each line that carries a '# tav:' comment, without its spacing, and the comment."""
    out = []
    for line in text.split("\n"):
        m = re.search(r"#\s*tav:.*$", line)
        if m and line[:m.start()].strip():
            out.append((re.sub(r"\s+", "", line[:m.start()]), m.group(0).rstrip()))
    return out


# ---------------------------------------------------------------- every rules file


@pytest.mark.parametrize("path", ALL, ids=_rel)
def test_formatting_keeps_meaning_and_comments_and_is_idempotent(path):
    text = path.read_text("utf-8")
    out = format_text(text, _rel(path))
    if out != text:  # (a formatted file: all of this holds trivially)
        assert shape(parse(out, "f")) == shape(parse(text, "f")), "formatting changed the syntax tree"
        assert format_text(out, _rel(path)) == out, "formatting twice changes the file again"
        assert comments(out) == comments(text), "a comment moved, changed or was lost"
        assert suppressed_lines(out) == suppressed_lines(text), "a '# tav:' comment left the line it suppresses"
    for n, line in enumerate(out.split("\n"), 1):
        assert line == line.rstrip(), f"line {n}: trailing whitespace"
        assert "\t" not in line[: len(line) - len(line.lstrip())], f"line {n}: a tab in the indentation"
    assert out.endswith("\n") and not out.endswith("\n\n")


@pytest.mark.parametrize("path", SHIPPED, ids=_rel)
def test_every_shipped_rules_file_is_formatted(path):
    text = path.read_text("utf-8")
    assert format_text(text, _rel(path)) == text, f"run: tav fmt {_rel(path)}"


def test_the_error_corpus_is_refused_with_places_not_tracebacks():
    refused = 0
    for p in sorted((ROOT / "tests" / "errors").rglob("*.tav")):
        data = p.read_bytes()
        try:
            parse(data, p.name)
        except TavError:
            with pytest.raises(TavError) as e:
                format_text(data.decode("utf-8", "replace"), p.name)
            d = e.value.diagnostics[0]
            assert d.span.file == p.name and d.span.line >= 1 and d.span.col >= 1
            refused += 1
            continue
        format_text(data.decode("utf-8"), p.name)  # what parses, formats
    assert refused > 5


# ---------------------------------------------------------------- playing the formatted games

GAME_SEEDS = {"little_tavern": (3, range(1, 9)), "cavern_tavern": (3, range(1, 3)),
              "tavern_masters": (3, range(1, 4)), "taverns_of_tiefenthal": (3, range(1, 3))}


@pytest.fixture(scope="module")
def formatted_tree(tmp_path_factory):
    """A copy of games/ and examples/ with every file run through the formatter."""
    root = tmp_path_factory.mktemp("formatted")
    (root / ".tavroot").write_text("")
    for d in ("games", "examples"):
        shutil.copytree(ROOT / d, root / d)
        for p in (root / d).rglob("*.tav"):
            p.write_text(format_text(p.read_text("utf-8"), str(p)), "utf-8")
    return root


@pytest.mark.parametrize("name", sorted(GAME_SEEDS))
def test_formatted_games_play_the_same_games(formatted_tree, name):
    players, seeds = GAME_SEEDS[name]
    before = compile_file(ROOT / "games" / f"{name}.tav")
    after = compile_file(formatted_tree / "games" / f"{name}.tav")
    for seed in seeds:
        assert playout(after, players, seed) == playout(before, players, seed), f"seed {seed}"
    runner = CliRunner()
    logs = []
    for root in (ROOT, formatted_tree):
        r = runner.invoke(main, ["run", str(root / "games" / f"{name}.tav"), "--players", str(players),
                                 "--seed", str(seeds[0]), "--json"])
        assert r.exit_code == 0, r.output
        out = json.loads(r.output)
        # (a gain's "at" is the place of its statement: formatting may move it, play is the same)
        out["log"] = [{k: v for k, v in e.items() if k != "at"} for e in out["log"]]
        logs.append(out)
    assert logs[0] == logs[1] and logs[0]["log"]


def test_a_formatted_house_rule_changes_its_game_as_before(formatted_tree):
    variants = [p for p in sorted((ROOT / "examples").rglob("*.tav"))
                if re.search(r"^extends ", p.read_text("utf-8"), re.M)]
    assert len(variants) >= 4
    for p in variants[::2]:  # every other one: each compiles its base game too
        q = formatted_tree / p.relative_to(ROOT)
        a, b = compile_file(p), compile_file(q)
        assert a.title == b.title
        assert playout(a, a.min_players, 1) == playout(b, b.min_players, 1), _rel(p)


# ---------------------------------------------------------------- property: only whitespace matters

def _tokens(text: str) -> list[Token]:
    tree = _lark().parse(text)
    return sorted(tree.scan_values(lambda v: isinstance(v, Token)), key=lambda t: t.start_pos)


SAMPLES = [p for p in SHIPPED if p.stat().st_size < 6000]


def _respace(text: str, draw, newlines: bool) -> str:
    """The text with the whitespace between its tokens changed at random: spaces and
    indentation only (lines without a comment at their end), or new line breaks too."""
    toks = _tokens(text)
    lines = text.split("\n")
    commented = {i + 1 for i, ln in enumerate(lines) if "#" in ln}  # (a '#' in a string too: left alone)
    out, prev = [], 0
    for t in toks:
        gap = text[prev:t.start_pos]
        line = text.count("\n", 0, t.start_pos) + 1
        if "#" not in gap and line not in commented and (text.count("\n", 0, prev) + 1) not in commented:
            if "\n" in gap:
                head, _, _ = gap.rpartition("\n")
                gap = head.replace(" ", "") + "\n" + " " * draw(st.integers(0, 9))
            elif newlines and prev and draw(st.integers(0, 5)) == 0:
                gap = "\n" + " " * draw(st.integers(0, 6))
            else:
                gap = " " * draw(st.integers(1 if gap else 0, 3))
        out.append(gap)
        out.append(text[t.start_pos:t.end_pos])
        prev = t.end_pos
    out.append(text[prev:])
    return "".join(out)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_spacing_and_indentation_never_matter(data):
    path = data.draw(st.sampled_from(SAMPLES), label="file")
    text = path.read_text("utf-8")
    messy = _respace(text, data.draw, newlines=False)
    assert shape(parse(messy, "f")) == shape(parse(text, "f"))
    assert format_text(messy) == format_text(text)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_new_line_breaks_keep_meaning_and_comments(data):
    path = data.draw(st.sampled_from(SAMPLES), label="file")
    text = path.read_text("utf-8")
    messy = _respace(text, data.draw, newlines=True)
    out = format_text(messy)
    assert shape(parse(out, "f")) == shape(parse(text, "f"))
    assert format_text(out) == out
    assert comments(out) == comments(text)


# ---------------------------------------------------------------- the layout, rule by rule

def fmt(text: str) -> str:
    return format_text(text.lstrip("\n"))


def test_indentation_and_spacing_are_canonical():
    assert fmt("""
game   "g"
counter  coins per player=3 in 0 .. 9
def f( x : int ) :int=  - x+count( y in players where y . coins>x )
action a   "a"{
        require f ( 1 )>=0
  choose p in players "who" at random{ gain 1 coins to p }
    }
""") == """game "g"
counter coins per player = 3 in 0..9
def f(x: int): int = -x + count(y in players where y.coins > x)
action a "a" {
  require f(1) >= 0
  choose p in players "who" at random { gain 1 coins to p }
}
"""


def test_a_block_on_several_lines_has_one_statement_a_line_and_its_brace_alone():
    assert fmt("""
effect e
{ gain 1 coins  lose 1 coins
  if true { log "x" } }
effect one { gain 1 coins  lose 1 coins }
effect none {}
""") == """effect e {
  gain 1 coins
  lose 1 coins
  if true { log "x" }
}
effect one { gain 1 coins  lose 1 coins }
effect none { }
"""


def test_blank_lines_at_most_one_and_none_inside_braces():
    assert fmt("""


game "g"



counter c = 1
effect e {

  gain 1 c


  lose 1 c

}


""") == """game "g"

counter c = 1
effect e {
  gain 1 c

  lose 1 c
}
"""


def test_comments_stay_where_they_are():
    src = """# header

game "g"        # the title
counter c = 1 # one space before
effect e {
        # about the first statement
  gain 1 c   # trailing
    # before the brace
}
# the end
"""
    assert fmt(src) == """# header

game "g"        # the title
counter c = 1  # one space before
effect e {
  # about the first statement
  gain 1 c   # trailing
  # before the brace
}
# the end
"""


def test_a_long_condition_breaks_before_and_or_outside_brackets_first():
    cond = " and ".join(f"count(x in players where x.coins > {i} and x.coins < {i + 10}) > 0" for i in range(4))
    out = fmt(f'counter coins per player = 0\neffect e {{\n  if {cond} {{\n    gain 1 coins\n  }}\n}}\n')
    lines = out.split("\n")
    assert all(len(ln) <= WIDTH for ln in lines)
    assert lines[2].startswith("  if count(") and lines[3].startswith("      and count(")  # +4: a block header
    assert lines[-4] == "    gain 1 coins"


def test_a_long_card_list_breaks_after_commas_lined_up_inside_its_brace():
    fields = ", ".join(f"f{i}: {i}" for i in range(30))
    kinds = ", ".join(f"f{i}: int" for i in range(30))
    out = fmt(f'kind K {{ {kinds} }}\ncard "A long card name": K {{ {fields} }}\n')
    lines = out.split("\n")[:-1]
    assert all(len(ln) <= WIDTH for ln in lines)
    card = [ln for ln in lines if ln.startswith('card "A long')][0]
    col = card.index("{") + 2
    rest = lines[lines.index(card) + 1:]
    assert rest and all(ln[:col].strip() == "" and ln[col] == "f" for ln in rest)


def test_a_long_one_line_block_opens_up_first():
    out = fmt('counter coins per player = 0\neffect e { ' + "  ".join(["gain 1 coins"] * 12) + ' }\n')
    assert out == "counter coins per player = 0\neffect e {\n" + "  gain 1 coins\n" * 12 + "}\n"


def test_a_line_ending_in_a_comment_is_never_broken():
    line = "effect e { " + "  ".join(["gain 1 coins"] * 12) + " }  # tav: ignore[TAV501] the reason"
    out = fmt("counter coins per player = 0\n" + line + "\n")
    assert out.split("\n")[1] == line


def test_an_expect_condition_stays_on_one_line_as_the_scenario_log_quotes_it():
    cond = " and ".join(f"count(x in players where x.coins > {i}) == 0" for i in range(5))
    src = f'game "g"\ncounter coins per player = 0\nscenario "s" players 2 {{\n  expect {cond}\n   and true "why"\n}}\n'
    out = format_text(src)
    assert f"\n  expect {cond} and true\n    \"why\"\n" in out
    assert format_text(out) == out


def test_answers_line_up_after_the_keyword_or_hang_under_it():
    base = 'game "g"\nrounds 1 { phase p { log "x" } }\n'
    aligned = fmt(base + 'scenario "s" players 2 {\n  answers "a", "b",\n   "c"\n  run { log "y" }\n}\n')
    assert '  answers "a", "b",\n          "c"\n' in aligned
    hanging = fmt(base + 'scenario "s" players 2 {\n  answers\n "a", "b",\n      "c"\n  run { log "y" }\n}\n')
    assert '  answers\n    "a", "b",\n    "c"\n' in hanging


def test_a_file_that_does_not_parse_is_a_located_error():
    with pytest.raises(TavError) as e:
        format_text('game "g"\naction a { require 1 = 2 }\n', "bad.tav")
    d = e.value.diagnostics[0]
    assert (d.span.file, d.span.line, d.span.col) == ("bad.tav", 2, 22)
    assert "require 1 = 2" in e.value.render() and "^" in e.value.render()


def test_empty_and_comment_only_files():
    assert format_text("") == ""
    assert format_text("\n\n") == ""
    assert format_text("  # just a comment  \n\n\n# and another") == "# just a comment\n\n# and another\n"
    assert format_text('\ufeffgame "g"\r\n') == 'game "g"\n'


# ---------------------------------------------------------------- tav fmt


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "good.tav"
    good.write_text('game "g"\n')
    messy = tmp_path / "sub" / "messy.tav"
    messy.parent.mkdir()
    messy.write_text('game   "g"\ncounter c=1\n')
    (tmp_path / "sub" / "notes.txt").write_text("not rules")
    return tmp_path, good, messy


def test_fmt_rewrites_files_in_place_and_lists_them(files):
    root, good, messy = files
    r = CliRunner().invoke(main, ["fmt", str(root)])
    assert r.exit_code == 0, r.output
    assert r.output.split() == [str(messy)]
    assert messy.read_text() == 'game "g"\ncounter c = 1\n'
    assert good.read_text() == 'game "g"\n'
    r = CliRunner().invoke(main, ["fmt", str(root)])
    assert (r.exit_code, r.output) == (0, "")


def test_fmt_check_lists_what_would_change_and_changes_nothing(files):
    root, good, messy = files
    r = CliRunner().invoke(main, ["fmt", "--check", str(good), str(messy)])
    assert r.exit_code == 1
    assert r.output.split() == [str(messy)]
    assert messy.read_text() == 'game   "g"\ncounter c=1\n'
    assert CliRunner().invoke(main, ["fmt", "--check", str(good)]).exit_code == 0


def test_fmt_diff_prints_a_unified_diff(files):
    root, good, messy = files
    r = CliRunner().invoke(main, ["fmt", "--diff", str(root)])
    assert r.exit_code == 0
    assert f"--- {messy}\n" in r.output and "\n-counter c=1\n" in r.output and "\n+counter c = 1\n" in r.output
    assert messy.read_text() == 'game   "g"\ncounter c=1\n'
    assert CliRunner().invoke(main, ["fmt", "--diff", "--check", str(root)]).exit_code == 1
    good.write_text('game "g"')  # no newline at the end
    r = CliRunner().invoke(main, ["fmt", "--diff", str(good)])
    assert '-game "g"\n\\ No newline at end of file\n+game "g"\n' in r.output


def test_fmt_a_file_that_does_not_parse(files):
    root, good, messy = files
    bad = root / "bad.tav"
    bad.write_text('game "g"\naction a {\n  move x\n}\n')
    r = CliRunner().invoke(main, ["fmt", str(bad), str(messy)])
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{bad}:4:1: error: ")
    assert "\n    }\n    ^\n" in r.stderr and "Traceback" not in r.stderr
    assert messy.read_text() == 'game "g"\ncounter c = 1\n'  # the others are still formatted
    bad.write_bytes(b'game "\xff"\n')
    r = CliRunner().invoke(main, ["fmt", str(bad)])
    assert r.exit_code == 1 and r.stderr.startswith(f"{bad}:1:7: error: ")


def test_fmt_usage_errors_exit_2(tmp_path):
    r = CliRunner().invoke(main, ["fmt", str(tmp_path / "missing.tav")])
    assert r.exit_code == 2
    assert CliRunner().invoke(main, ["fmt"]).exit_code == 2
    assert CliRunner().invoke(main, ["fmt", "--nope", str(tmp_path)]).exit_code == 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
