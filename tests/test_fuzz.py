"""Fuzzing: rules files made by mutating the seed files (Dice Tavern, Little Tavern, Tavern
Masters, the Taverns of Tiefenthal, subset sums) and by a small grammar of
declarations, run through `tav check`, `tav run` and `tav test` with a small step budget.
Whatever the file, tav exits 0, 1 or 2, never with an internal error or a traceback, every
error has a place (FILE:LINE:COL), and every run ends within its budget.

The default suite tries a few dozen files; `pytest -m slow tests/test_fuzz.py` tries thousands
(TAV_FUZZ_EXAMPLES sets how many). A file that hangs would stop the run: a watchdog fails the
example after WATCHDOG seconds (a hang, not a measure of speed)."""
from __future__ import annotations

import os
import re
import shutil
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavernlang.cli import main
from tavernlang.engine import budget

ROOT = Path(__file__).resolve().parent.parent
SEEDS = {  # entry file -> the folders it includes from (copied beside the mutant)
    "examples/dice_tavern.tav": [],
    "games/little_tavern.tav": ["games/little_tavern"],
    "tests/subset_sums.tav": [],
    "games/tavern_masters.tav": ["games/tavern_masters"],
    "games/taverns_of_tiefenthal.tav": ["games/taverns_of_tiefenthal"],
}
PLACED = re.compile(r"^\S+:\d+:\d+: error: ")
WATCHDOG = 120
FAST = 12  # examples of each fuzzer in the default suite
SLOW = int(os.environ.get("TAV_FUZZ_EXAMPLES", "1500"))

TOKENS = ["{", "}", "(", ")", "[", "]", ",", ":", "=", "==", "<", "+", "-", "*", "/", "..", " x3 ", "\n",
          "if", "else", "for", "in", "repeat while", "choose", "subset", "number", "move", "to", "gain", "lose",
          "set", "do", "emit", "let", "next turn", "end game", "log", "me", "players", "cards", "none", "true",
          "0", "1", "-1", "7", "100000", "999999999999999999", "range(1, 1000000)", "\"s\"", "x", "c", "p",
          "effect e", "def d", "action a", "rounds", "phase", "turns from player(1)", "when", "on", "include"]


def _budget(monkeypatch):
    monkeypatch.setattr(budget, "LIMITS", dict(budget.LIMITS, steps=300_000, log=20_000))
    monkeypatch.setenv("TAV_MAX_STEPS", "300000")
    monkeypatch.setenv("TAV_MAX_LOG", "20000")


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang(f"no answer after {WATCHDOG} s")


def _run_all(path: Path) -> None:
    """check, run and test one file: exit codes, no internal error, every error placed."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(WATCHDOG)
    try:
        for args in (["check", str(path)], ["run", str(path), "-p", "2", "--seed", "3"],
                     ["test", str(path)]):
            r = CliRunner().invoke(main, args)
            out = r.output
            assert r.exit_code in ((0, 1, 2, 5) if args[0] == "test" else (0, 1, 2)), \
                (args, r.exit_code, out[-3000:], r.exc_info)  # (tav test without scenarios: 5)
            assert not isinstance(r.exception, _Hang), (args, path.read_text()[:3000])
            assert "internal error" not in out and "Traceback" not in out, (args, out[-3000:], path.read_text()[:3000])
            if r.exit_code == 1:
                errs = [ln for ln in out.splitlines() if ": error: " in ln or ln.startswith("error: ")]
                assert errs or "failed" in out or "FAIL" in out, (args, out[-3000:])
                unplaced = [ln for ln in errs if not PLACED.match(ln)]
                assert not unplaced, (args, unplaced, path.read_text()[:3000])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    for entry, folders in SEEDS.items():
        for f in folders:
            shutil.copytree(ROOT / f, d / Path(f).name, dirs_exist_ok=True)
    return d


@st.composite
def mutants(draw):
    entry = draw(st.sampled_from(sorted(SEEDS)))
    text = (ROOT / entry).read_text("utf-8")
    for _ in range(draw(st.integers(1, 4))):
        n = len(text)
        i = draw(st.integers(0, max(0, n - 1)))
        j = min(n, i + draw(st.integers(0, 40)))
        op = draw(st.sampled_from(["delete", "duplicate", "token", "number", "swap"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "token":
            text = text[:i] + " " + draw(st.sampled_from(TOKENS)) + " " + text[i:]
        elif op == "number":
            nums = list(re.finditer(r"\b\d+\b", text))
            if nums:
                m = draw(st.sampled_from(nums))
                v = draw(st.sampled_from([0, -1, 2, 13, 10 ** 6, 10 ** 9, 10 ** 18 - 1, 10 ** 18]))
                text = text[:m.start()] + str(v) + text[m.end():]
        else:
            k = draw(st.integers(0, max(0, n - 1)))
            text = text[:i] + text[k:k + 20] + text[i + 20:]
    return Path(entry).name, text


NAMES = st.sampled_from(["c", "k", "me.c", "size(z)", "count(x in z where x.v > 1)", "sum(x.v for x in z)"])
NUMS = st.sampled_from(["0", "1", "2", "3", "-1", "1000", "100000", "999999999"])


@st.composite
def expressions(draw, depth=0):
    if depth > 2 or draw(st.booleans()):
        return draw(st.one_of(NAMES, NUMS))
    a, b = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    op = draw(st.sampled_from(["+", "-", "*", "/", "%"]))
    return f"({a} {op} {b})"


@st.composite
def statements(draw, depth=0):
    e = draw(expressions())
    forms = [f"gain {e} c", f"lose {e} c", f"set k = {e}", f"set x.v = {e}" if depth else f"gain {e} c",
             "move top(z) to y", "shuffle z", f"log \"{draw(st.sampled_from(['a', 'b']))}\""]
    if depth < 3:
        body = " ".join(draw(st.lists(statements(depth + 1), min_size=1, max_size=3)))
        forms += [f"if {e} > {draw(NUMS)} {{ {body} }} else {{ {body} }}",
                  f"for x in z {{ {body} }}", f"for i in range(1, {draw(NUMS)}) {{ {body} }}",
                  f"repeat while k < {draw(NUMS)} {{ set k = k + 1  {body} }}",
                  f"choose x in z \"pick\" {{ {body} }}", f"choose number n in 0..{draw(NUMS)} \"n\" {{ gain n c }}",
                  f"choose subset s of z size 0..{draw(st.integers(0, 5))} if sum(q.v for q in s) == {draw(NUMS)} "
                  f"\"s\" {{ gain size(s) c }}",
                  f"do e({e})"]
    return draw(st.sampled_from(forms))


@st.composite
def games(draw):
    stmts = " ".join(draw(st.lists(statements(), min_size=1, max_size=4)))
    eff = " ".join(draw(st.lists(statements(1), min_size=1, max_size=2)))
    copies = draw(st.sampled_from([1, 3, 20, 60]))
    rounds = draw(st.sampled_from([1, 3, 50, 10000]))
    rec = draw(st.sampled_from(["", "do e(n - 1)  do e(n - 1)", "do e(n)"]))
    return ('game "F"\nplayers 2\ncounter c per player = 1\ncounter k = 0\nkind K { var v: int = 1 }\n'
            f'card "k" x{copies}: K\nzone z: shared public\nzone y: shared public\n'
            'setup { move cards to z }\n'
            f'effect e(n: int) {{ if n > 0 {{ {eff}  {rec} }} }}\n'
            f'action a "a" {{ {stmts} }}\n'
            f'rounds {rounds} {{ phase p "P" turns from player(1) once_each {{ actions a }} }}\n'
            'winner: highest c\n'
            'scenario "s" players 2 { run { do a } expect true }\n')


def _fuzz_mutant(copies, monkeypatch, m):
    name, text = m
    _budget(monkeypatch)
    f = copies / f"mut_{name}"
    f.write_text(text, "utf-8")
    _run_all(f)


def _fuzz_game(tmp_path, monkeypatch, text):
    _budget(monkeypatch)
    f = tmp_path / "gen.tav"
    f.write_text(text, "utf-8")
    _run_all(f)


_FAST = settings(max_examples=FAST, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))
_SLOW = settings(max_examples=SLOW, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@_FAST
@given(m=mutants())
def test_mutated_seed_files(copies, monkeypatch, m):
    _fuzz_mutant(copies, monkeypatch, m)


@_FAST
@given(text=games())
def test_generated_games(tmp_path, monkeypatch, text):
    _fuzz_game(tmp_path, monkeypatch, text)


@pytest.mark.slow
@_SLOW
@given(m=mutants())
def test_mutated_seed_files_long(copies, monkeypatch, m):
    _fuzz_mutant(copies, monkeypatch, m)


@pytest.mark.slow
@_SLOW
@given(text=games())
def test_generated_games_long(tmp_path, monkeypatch, text):
    _fuzz_game(tmp_path, monkeypatch, text)
