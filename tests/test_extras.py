"""An adapter whose optional extra is not installed says which extra to install."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("module, missing, extra", [("pettingzoo", "pettingzoo", "rl"),
                                                    ("openspiel", "pyspiel", "openspiel")])
def test_a_missing_extra_names_the_install_command(module, missing, extra):
    code = textwrap.dedent(f"""
        import sys
        sys.modules["{missing}"] = None  # as if the [{extra}] extra were not installed
        try:
            import tavernlang.{module}
        except ImportError as e:
            print(e)
        else:
            print("imported")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT).stdout
    assert f"pip install -e '.[{extra}]'" in out
