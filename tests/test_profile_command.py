"""`tav profile`: the Python bytecodes a game's code executes in random games, by rules line."""
from __future__ import annotations

import json

import pytest

WORK = '''game "Work"
players 2..3
counter points per player
kind Token { value: int }
card "t" x20: Token { value: 1 }
zone pile: shared public
setup { move cards to pile }
def light: int = 1
def heavy: int = count(a in pile where count(b in pile where b.value == a.value) > 0)  # each against each
action cheap "cheap" { gain light points }
action dear "dear" { gain heavy points }
rounds 3 {
  phase p "Play" turns from player(1) once_each { actions cheap, dear }
}
winner: highest points
'''


@pytest.fixture
def work(tmp_path):
    def write(text=WORK):
        f = tmp_path / "work.tav"
        f.write_text(text)
        return f
    return write


def _profile(tav, path, *args):
    r = tav("profile", path, "-p", 2, "-g", 6, "--json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_the_rule_that_works_most_comes_first_with_its_place_and_text(tav, work):
    d = _profile(tav, work())
    top = d["lines"][0]
    assert (top["line"], top["text"]) == (11, 'action dear "dear" { gain heavy points }')
    assert top["share"] > 0.5
    assert d["lines"][0]["bytecodes"] >= d["lines"][1]["bytecodes"] >= d["lines"][-1]["bytecodes"]


def test_the_lines_add_up_to_the_whole(tav, work):
    d = _profile(tav, work())
    assert sum(r["bytecodes"] for r in d["lines"]) == d["bytecodes"] > 0
    assert d["bytecodes_per_decision"] == round(d["bytecodes"] / d["decisions"], 1)


def test_a_cheaper_writing_of_a_rule_counts_less_at_its_line(tav, work):
    dear = {r["line"]: r["bytecodes"] for r in _profile(tav, work())["lines"]}
    cheaper = WORK.replace("count(a in pile where count(b in pile where b.value == a.value) > 0)",
                           "count(a in pile where a.value > 0)")
    cheap = {r["line"]: r["bytecodes"] for r in _profile(tav, work(cheaper))["lines"]}
    assert cheap[11] * 5 < dear[11]  # (one pass over the pile against twenty)
    assert cheap[10] == dear[10]  # the other action's work unchanged


def test_the_same_seeds_count_the_same(tav, work):
    assert _profile(tav, work()) == _profile(tav, work())


def test_what_runs_outside_every_rule_is_counted_apart(tav, work):
    d = _profile(tav, work())
    engine = [r for r in d["lines"] if r["file"] is None]
    assert len(engine) == 1 and engine[0]["bytecodes"] > 0 and "engine" in engine[0]["text"]


def test_the_text_lists_lines_by_share(tav, work):
    f = work()
    r = tav("profile", f, "-p", 2, "-g", 3, "--top", 2)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("Work: 3 random games, 2 players, seeds 1..3")
    assert "bytecodes of Python per decision" in lines[1]
    assert "work.tav:11  action dear" in lines[3]  # (comments left out)
    assert "# each against each" not in r.output
    assert "more lines (--top N shows more)" in lines[-1]


def test_errors_are_places_and_usage_errors_exit_2(tav, work):
    f = work(WORK.replace("gain heavy points", "gain heavy point"))
    r = tav("profile", f, "-p", 2)
    assert r.exit_code == 1
    assert f"{f}:11:" in r.output and "error:" in r.output
    r = tav("profile", work(), "-p", 9)
    assert r.exit_code == 2
    r = tav("profile", work(), "-p", 2, "-g", 0)
    assert r.exit_code == 2
