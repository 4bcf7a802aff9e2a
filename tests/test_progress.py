"""Games on several processes: results in seed order whatever order the chunks finish in, the
progress bar moved by each chunk as it finishes, drawn only on a terminal's stderr (never in
--json), and `tav lint --simulate --jobs` finding what one process finds."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang.cli import main
from tavernlang.parallel import _in_order, playouts

ROOT = Path(__file__).resolve().parent.parent
LITTLE = str(ROOT / "games" / "little_tavern.tav")


def test_results_in_order_progress_as_chunks_finish():
    heard = []
    finished = [(2, ["e", "f"]), (0, ["a", "b"]), (3, ["g"]), (1, ["c", "d"])]  # the order they finish in
    out = []
    for r in _in_order(iter(finished), lambda n: heard.append((n, len(out)))):
        out.append(r)
    assert out == list("abcdefg")
    # each chunk is heard of when it finishes, before the results it waits for are given back
    assert heard == [(2, 0), (2, 0), (1, 2), (2, 2)]


def test_progress_of_every_game_on_several_processes():
    jobs = [(LITTLE, 3, s, {}) for s in range(1, 41)]
    heard = []
    many = list(playouts(jobs, 2, progress=heard.append))
    assert sum(heard) == 40 and len(heard) > 1  # chunk by chunk
    one = list(playouts(jobs, 1))
    assert many == one


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_the_bar_is_drawn_on_a_terminal_and_json_stays_clean():
    master, slave = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "tavernlang", "sim", LITTLE, "-p", "3", "-g", "60", "--jobs", "2",
                          "--json"], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    screen = b""
    while True:  # (read as it comes: a full terminal would stop the writer)
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        screen += chunk
    out = p.stdout.read()
    p.wait(timeout=120)
    os.close(master)
    assert p.returncode == 0
    assert json.loads(out)["games"] == 60  # stdout is the JSON alone
    assert b"simulating" in screen and b"100%" in screen  # the bar, on the terminal's stderr
    # not a terminal: no bar
    q = subprocess.run([sys.executable, "-m", "tavernlang", "sim", LITTLE, "-p", "3", "-g", "20", "--json"],
                       capture_output=True, env=env, timeout=120)
    assert q.returncode == 0 and b"simulating" not in q.stderr


def test_lint_simulate_on_several_processes_finds_what_one_does():
    def lint(*more):
        r = CliRunner().invoke(main, ["lint", LITTLE, "--simulate", "40", "--format", "json", *more])
        return json.loads(r.stdout)
    one = lint()
    assert one["coverage"][LITTLE]["games"] == 40
    assert lint("--jobs", "2") == one
    err = str(ROOT / "tests" / "lint" / "tav714_runtime_error.tav")
    a = CliRunner().invoke(main, ["lint", err, "--simulate", "12"])
    b = CliRunner().invoke(main, ["lint", err, "--simulate", "12", "--jobs", "2"])
    assert a.exit_code == b.exit_code == 1 and "TAV714" in a.output and a.output == b.output


def test_jobs_and_dask_are_for_simulate():
    r = CliRunner().invoke(main, ["lint", LITTLE, "--jobs", "2"])
    assert r.exit_code == 2 and "--jobs" in r.output
