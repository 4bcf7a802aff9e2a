"""The analysed grammar is cached in the user's cache directory (start-up speed), keyed by the
grammar, Lark and Python; a damaged cache file is ignored."""
from __future__ import annotations

import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LT = ROOT / "games" / "little_tavern.tav"


def check(cache_home: Path, *extra_env) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home), PYTHONPATH=str(ROOT))
    env.pop("TAV_NO_CACHE", None)
    env.update(dict(extra_env))
    return subprocess.run([sys.executable, "-m", "tavernlang", "check", str(LT)], env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_grammar_cache_is_made_used_and_survives_damage(tmp_path):
    r = check(tmp_path)
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "tavernlang"
    files = list(folder.glob("grammar-*.lark-cache"))
    assert len(files) == 1
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # only its user may write the pickle
    files[0].write_bytes(b"not a cache\n\x00\x01garbage")
    r = check(tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    r = check(tmp_path, ("TAV_NO_CACHE", "1"))  # and it can be turned off
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------- syntax trees
def _parse_here(monkeypatch, cache_home: Path):
    from tavernlang.syntax import parser
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_home))
    monkeypatch.delenv("TAV_NO_CACHE", raising=False)
    return parser


def test_a_file_s_syntax_tree_is_kept_and_read_back_the_same(monkeypatch, tmp_path):
    parser = _parse_here(monkeypatch, tmp_path)
    text = LT.read_text("utf-8")
    fresh = parser.parse(text, "little_tavern.tav")
    trees = list((tmp_path / "tavernlang" / "trees").glob("*.tree"))
    assert len(trees) == 1
    calls = []
    monkeypatch.setattr(parser, "_lark", lambda: calls.append(1) or (_ for _ in ()).throw(AssertionError("parsed")))
    again = parser.parse(text, "little_tavern.tav")  # read back: Lark is not asked
    assert repr(again) == repr(fresh) and again is not fresh and not calls
    assert again.decls[0].span == fresh.decls[0].span


def test_a_changed_text_or_name_is_parsed_afresh(monkeypatch, tmp_path):
    parser = _parse_here(monkeypatch, tmp_path)
    text = LT.read_text("utf-8")
    parser.parse(text, "little_tavern.tav")
    changed = text.replace("counter coins per player = 3", "counter coins per player = 4")
    assert changed != text
    f = parser.parse(changed, "little_tavern.tav")
    assert "= 4" in f.source
    g = parser.parse(text, "other.tav")  # the places name the file: another entry
    assert g.span.file == "other.tav"
    assert len(list((tmp_path / "tavernlang" / "trees").glob("*.tree"))) == 3


def test_a_damaged_tree_is_parsed_afresh_and_rewritten(monkeypatch, tmp_path):
    parser = _parse_here(monkeypatch, tmp_path)
    text = LT.read_text("utf-8")
    fresh = parser.parse(text, "little_tavern.tav")
    (entry,) = (tmp_path / "tavernlang" / "trees").glob("*.tree")
    entry.write_bytes(b"\x80\x05garbage")
    assert repr(parser.parse(text, "little_tavern.tav")) == repr(fresh)
    assert repr(parser._TreeCache(str(entry)).load()) == repr(fresh)  # rewritten whole


def test_no_tree_is_kept_when_the_cache_is_off_or_for_a_short_file(monkeypatch, tmp_path):
    parser = _parse_here(monkeypatch, tmp_path)
    parser.parse('game "Tiny"\nplayers 2..2\n', "tiny.tav")
    monkeypatch.setenv("TAV_NO_CACHE", "1")
    parser.parse(LT.read_text("utf-8"), "little_tavern.tav")
    assert not list((tmp_path / "tavernlang").glob("trees/*.tree"))


def test_the_trees_kept_are_bounded(monkeypatch, tmp_path):
    parser = _parse_here(monkeypatch, tmp_path)
    monkeypatch.setattr(parser, "CACHE_ENTRIES", 4)
    text = LT.read_text("utf-8")
    for i in range(6):
        parser.parse(text + f"\n# {i}\n", "little_tavern.tav")
    assert len(list((tmp_path / "tavernlang" / "trees").glob("*.tree"))) <= 4


# ---------------------------------------------------------------- attacks (QA)
@pytest.mark.parametrize("loose", ["tavernlang", "tavernlang/trees"])
def test_a_cache_folder_others_may_write_is_not_read(monkeypatch, tmp_path, loose):
    parser = _parse_here(monkeypatch, tmp_path)
    text = LT.read_text("utf-8")
    parser.parse(text, "little_tavern.tav")
    (entry,) = (tmp_path / "tavernlang" / "trees").glob("*.tree")
    marker = tmp_path / "code-ran"
    entry.write_bytes(pickle.dumps(_Planted(str(marker))))
    (tmp_path / loose).chmod(0o777)  # anyone may write here: what it holds is not the user's own
    parser.parse(text, "little_tavern.tav")
    assert not marker.exists(), "a pickle another user could have written was unpickled"


class _Planted:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (self.path,))


def test_a_damaged_entry_that_still_unpickles_is_parsed_afresh(monkeypatch, tmp_path):
    parser = _parse_here(monkeypatch, tmp_path)
    text = LT.read_text("utf-8")
    fresh = parser.parse(text, "little_tavern.tav")
    (entry,) = (tmp_path / "tavernlang" / "trees").glob("*.tree")
    data = entry.read_bytes()
    assert data.count(b"\x8c\x03var") == 1
    entry.write_bytes(data.replace(b"\x8c\x03var", b"\x8c\x03war"))  # one bit: 'v' (0x76) -> 'w' (0x77)
    again = parser.parse(text, "little_tavern.tav")
    assert repr(again) == repr(fresh)


def test_a_changed_span_class_parses_afresh(tmp_path):
    pkg = tmp_path / "src"
    shutil.copytree(ROOT / "tavernlang", pkg / "tavernlang", ignore=shutil.ignore_patterns("__pycache__"))
    game = tmp_path / "game"
    shutil.copytree(ROOT / "games" / "little_tavern", game / "little_tavern")
    bad = LT.read_text("utf-8").replace("counter coins per player = 3", "counter coins per player = zz")
    (game / "lt.tav").write_text(bad)
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(pkg))
    env.pop("TAV_NO_CACHE", None)

    def run():
        return subprocess.run([sys.executable, "-m", "tavernlang", "check", "lt.tav"], cwd=game, env=env,
                              capture_output=True, text=True, timeout=120)
    first = run()
    assert first.returncode == 1 and "unknown name 'zz'" in first.stderr + first.stdout
    errors_py = pkg / "tavernlang" / "errors.py"
    src = errors_py.read_text()
    src = src.replace("    end_col: int = 0\n", "    end_col: int = 0\n    offset: int = -1\n", 1)
    src = src.replace('return f"{self.file}:{self.line}:{self.col}"',
                      'return f"{self.file}:{self.line}:{self.col}" + ("" if self.offset else "")', 1)
    errors_py.write_text(src)
    second = run()
    assert "internal error" not in second.stderr and (second.stdout, second.stderr) == (first.stdout, first.stderr)


def test_a_cache_folder_whose_name_is_not_utf8_is_no_error(tmp_path):
    env = {k.encode(): v.encode() for k, v in os.environ.items() if k not in ("TAV_NO_CACHE", "XDG_CACHE_HOME")}
    env[b"XDG_CACHE_HOME"] = os.fsencode(tmp_path) + b"/cache-\xff"
    env[b"PYTHONPATH"] = os.fsencode(ROOT)
    r = subprocess.run([sys.executable, "-m", "tavernlang", "check", str(LT)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "internal error" not in r.stderr, r.stderr


def test_a_byte_order_mark_moves_no_place(monkeypatch, tmp_path):
    parser = _parse_here(monkeypatch, tmp_path)
    f = parser.parse('\ufeffgame "Tiny"\nplayers 2..2\n', "tiny.tav")
    assert (f.decls[0].span.line, f.decls[0].span.col) == (1, 1)
