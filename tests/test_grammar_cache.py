"""The analysed grammar is cached in the user's cache directory (start-up speed), keyed by the
grammar, Lark and Python; a damaged cache file is ignored."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

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
