"""A plain `pip install .` into a fresh virtualenv gives a working `tav`,
with the grammar and stdlib/ shipped inside the package."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(os.environ.get("TAV_SKIP_INSTALL_TEST") == "1", reason="TAV_SKIP_INSTALL_TEST=1")
def test_pip_install_into_a_fresh_venv(tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    tav = env_dir / "bin" / "tav"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(ROOT)], check=True, timeout=600)
    work = tmp_path / "elsewhere"  # not the repository: nothing may come from the source tree
    work.mkdir()
    # a rules file that uses the installed stdlib
    (work / "dice.tav").write_text(
        'game "Dice check"\nplayers 1..2\ninclude "stdlib/dice.tav"\ncard "d6" x2: Die\n'
        'zone tray: shared public\ncounter total = 0\n'
        'setup { move cards to tray }\n'
        'rounds 1 { phase roll { for d in tray { do roll(d) } set total = pips(tray) } }\n'
        'winner: everyone if total >= 2\n'
    )
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    out = subprocess.run([str(tav), "check", "dice.tav", str(ROOT / "games" / "little_tavern.tav")],
                         cwd=work, capture_output=True, text=True, env=clean_env, timeout=120)
    assert out.returncode == 0, out.stderr
    out = subprocess.run([str(tav), "run", str(ROOT / "games" / "little_tavern.tav"), "--players", "3", "--seed", "1",
                          "--json"], cwd=work, capture_output=True, text=True, env=clean_env, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["winners"] and data["decisions"] > 0
    out = subprocess.run([str(tav), "run", "dice.tav", "--players", "1", "--json"], cwd=work,
                         capture_output=True, text=True, env=clean_env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["winners"] == [1]
    # the package really came from site-packages, with its stdlib inside
    loc = subprocess.run([str(py), "-c", "import tavernlang.loader as l; print(l.stdlib_dir())"],
                         cwd=work, capture_output=True, text=True, env=clean_env)
    assert "site-packages" in loc.stdout and "_stdlib" in loc.stdout
