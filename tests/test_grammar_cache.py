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
