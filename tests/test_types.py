"""mypy (pinned in the test extra, configured in pyproject.toml) finds no error in the syntax,
check and engine packages."""
from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent
CHECKED = [ROOT / "tavernlang" / "syntax", ROOT / "tavernlang" / "check", ROOT / "tavernlang" / "engine"]


def test_mypy_finds_no_error_in_the_syntax_check_and_engine_packages(tmp_path):
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(tmp_path / "mypy_cache"), *map(str, CHECKED)])
    assert status == 0, f"mypy found errors:\n{out}{err}"
