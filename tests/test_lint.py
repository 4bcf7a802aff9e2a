"""`tav lint`: the corpus of seeded defects and their clean twins, the seed games,
the documentation of every rule, the command line and the JSON output."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import compile_file, playout
from tavernlang.check.model import GameModel
from tavernlang.lint import RULES, all_rules, lint_path
from tavernlang.lint.command import lint

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "lint"
DOC = ROOT / "docs" / "lint.md"
SEED_GAMES = sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "examples").glob("*.tav"))
EXPECT = re.compile(r"#\s*expect:\s*((?:TAV\d{3}\s*)+)")
SIMULATE = re.compile(r"^#.*?\bsimulate:\s*(\d+)(?:\s+players:\s*(\d+))?(?:\s+max-steps:\s*(\d+))?", re.M)
HAS_VARIANTS = hasattr(GameModel(), "changes")


def _run(*args):
    return CliRunner().invoke(lint, [str(a) for a in args], catch_exceptions=False)


def _sim_args(text: str) -> list[str]:
    m = SIMULATE.search(text)
    if m is None:
        return []
    out = ["--simulate", m.group(1)]
    if m.group(2):
        out += ["--players", m.group(2)]
    if m.group(3):
        out += ["--max-steps", m.group(3)]
    return out


def _findings(path: Path, text: str) -> set[tuple[int, str]]:
    r = _run(path, "--format", "json", *_sim_args(text))
    assert r.exit_code in (0, 1), r.output
    data = json.loads(r.stdout if hasattr(r, "stdout") else r.output)
    return {(f["line"], f["code"]) for f in data["findings"]}


def _corpus(clean: bool):
    files = sorted(p for p in CORPUS.glob("*.tav") if p.name.endswith(".clean.tav") == clean)
    out = []
    for p in files:
        marks = []
        if p.name.startswith("tav5"):  # house-rules variants
            marks.append(pytest.mark.skipif(not HAS_VARIANTS, reason="variants (extends) are not in the loader yet"))
        out.append(pytest.param(p, id=p.stem, marks=marks))
    return out


# ---------------------------------------------------------------- the corpus
@pytest.mark.parametrize("path", _corpus(clean=False))
def test_seeded_defect_gives_its_expected_finding(path: Path):
    text = path.read_text("utf-8")
    want = set()
    for i, line in enumerate(text.split("\n"), 1):
        m = EXPECT.search(line)
        if m:
            want |= {(i, c) for c in m.group(1).split()}
    assert want, f"{path.name} expects no finding: add '# expect: CODE' on the line of its defect"
    assert _findings(path, text) == want


@pytest.mark.parametrize("path", _corpus(clean=True))
def test_clean_twin_has_no_finding(path: Path):
    assert _findings(path, path.read_text("utf-8")) == set()


def test_every_bad_file_has_a_clean_twin():
    bad = {p.name[:-4] for p in CORPUS.glob("*.tav") if not p.name.endswith(".clean.tav")}
    clean = {p.name[:-10] for p in CORPUS.glob("*.clean.tav")}
    assert bad <= clean, f"no clean twin for {sorted(bad - clean)}"


def test_the_corpus_seeds_every_rule():
    seeded = set()
    for p in CORPUS.glob("*.tav"):
        for m in EXPECT.finditer(p.read_text("utf-8")):
            seeded |= set(m.group(1).split())
    missing = sorted(r.code for r in all_rules() if r.code not in seeded)
    assert not missing, f"no corpus file seeds {missing}"


# ---------------------------------------------------------------- the seed games
def test_every_seed_game_lints_clean():
    for path in SEED_GAMES:
        found, model = lint_path(path)
        assert model is not None
        assert found == [], "\n".join(f.render() for f in found)


# How fast static lint is, is measured in benchmarks/bench_lint.py: no test asserts a duration
# (the machines are shared, and a timed assertion fails under load).


def test_little_tavern_json_with_simulation(snapshot, monkeypatch):
    monkeypatch.chdir(ROOT)
    r = _run("games/little_tavern.tav", "--format", "json", "--simulate", "20", "--seed", "1")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout if hasattr(r, "stdout") else r.output[r.output.index("{"):])
    assert data == snapshot


def test_fire_counting_does_not_change_games():
    game = compile_file(ROOT / "games" / "little_tavern.tav")
    for seed in range(5):
        fired: dict = {}
        a = playout(game, 3, seed)
        b = playout(game, 3, seed, fired=fired)
        assert a == b
        assert fired


# ---------------------------------------------------------------- the command
def test_text_output_and_exit_codes():
    bad = CORPUS / "tav401_unused_def.tav"
    r = _run(bad)
    assert r.exit_code == 1
    assert "tav401_unused_def.tav:5:1: TAV401 definition 'double' is never used\n" in r.output
    assert _run(CORPUS / "tav401_unused_def.clean.tav").exit_code == 0


def test_select_and_ignore():
    bad = CORPUS / "tav001_suppression_without_reason.tav"
    assert {c for _, c in _findings(bad, "")} == {"TAV001", "TAV401"}
    r = _run(bad, "--select", "TAV4", "--format", "json")
    assert [f["code"] for f in json.loads(r.output)["findings"]] == ["TAV401"]
    r = _run(bad, "--ignore", "TAV001,TAV401")
    assert r.exit_code == 0
    r = _run(bad, "--select", "TAV9")
    assert r.exit_code == 2


def test_a_file_that_does_not_load_is_reported(tmp_path):
    f = tmp_path / "broken.tav"
    f.write_text('game "x"\naction a { gain 1 coin }\n')
    r = _run(f)
    assert r.exit_code == 1
    assert "TAV000 error: unknown counter 'coin'" in r.output


def test_list_rules_names_every_code():
    r = _run("--list-rules")
    assert r.exit_code == 0
    for rule in all_rules():
        assert rule.code in r.output


def test_codes_are_unique_and_stable():
    codes = [r.code for r in all_rules()]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"TAV\d{3}", c) for c in codes)
    assert len(RULES) >= 20


def test_runs_as_a_module():
    r = subprocess.run([sys.executable, "-m", "tavernlang.lint.command", str(CORPUS / "tav201_effect_never_run.tav")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1
    assert "TAV201" in r.stdout


# ---------------------------------------------------------------- the documentation
FENCE = re.compile(r"^```tav[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARK = re.compile(r"^#\s*(bad|good):\s*(TAV\d{3})(.*)$|^#\s*file:\s*(\S+)")


def _doc_blocks():
    text = DOC.read_text("utf-8")
    out = []
    for m in FENCE.finditer(text):
        body = m.group(1)
        first = body.split("\n", 1)[0]
        mk = MARK.match(first)
        if mk is None:
            continue
        line = text.count("\n", 0, m.start()) + 2
        if mk.group(4):
            out.append(("file", mk.group(4), body, line))
        else:
            out.append((mk.group(1), mk.group(2), body, line, mk.group(3)))
    return out


def test_every_rule_is_documented_with_a_bad_and_a_good_example():
    text = DOC.read_text("utf-8")
    blocks = _doc_blocks()
    for r in all_rules():
        assert f"`{r.code}`" in text and r.name in text, f"{r.code} ({r.name}) is not in docs/lint.md"
        kinds = {b[0] for b in blocks if b[0] != "file" and b[1] == r.code}
        assert kinds == {"bad", "good"}, f"{r.code} needs a bad and a good example in docs/lint.md"


@pytest.mark.skipif(not HAS_VARIANTS, reason="variants (extends) are not in the loader yet")
def test_documented_examples_lint_as_they_say(tmp_path):
    blocks = _doc_blocks()
    for b in blocks:
        if b[0] == "file":
            (tmp_path / b[1]).write_text(b[2], "utf-8")
    for kind, code, body, line, *rest in (b for b in blocks if b[0] != "file"):
        path = tmp_path / f"{code}_{kind}_{line}.tav"
        path.write_text(body, "utf-8")
        codes = {c for _, c in _findings(path, body)}
        if kind == "bad":
            assert code in codes, f"docs/lint.md:{line}: the bad example of {code} gives {sorted(codes)}"
        else:
            assert codes == set(), f"docs/lint.md:{line}: the good example of {code} gives {sorted(codes)}"


def test_simulation_varies_options_unless_fixed():
    path = CORPUS / "tav701_option_varied.clean.tav"
    r = _run(path, "--format", "json", "--simulate", "8", "--players", "2")
    data = json.loads(r.stdout)
    assert not data["findings"] and data["coverage"][str(path)]["options_varied"] == ["late_bar"]
    # fixed with -o, the option is not varied, and the late bar never opens
    r = _run(path, "--format", "json", "--simulate", "8", "--players", "2", "-o", "late_bar=false")
    codes = {f["code"] for f in json.loads(r.stdout)["findings"]}
    assert "TAV701" in codes
    r = _run(path, "--format", "json", "--simulate", "8", "--players", "2", "--no-vary-options")
    assert "TAV701" in {f["code"] for f in json.loads(r.stdout)["findings"]}


def test_a_simulation_suppression_never_reports_matching_nothing(tmp_path):
    """A suppression of a dynamic finding that N simulated games happen not to show is not stale:
    no TAV002 for it, with or without --simulate."""
    f = tmp_path / "g.tav"
    f.write_text('game "G"\nplayers 2\ncounter vp per player = 0\n'
                 'action work "work" { gain 1 vp }  # tav: ignore[TAV701] taken in every game, for this test\n'
                 'rounds 1 { phase p "P" turns from player(1) once_each { actions work } }\nwinner: highest vp\n')
    for args in ([], ["--simulate", "5"]):
        r = _run(f, *args)
        assert r.exit_code == 0 and "TAV002" not in r.output, (args, r.output)
