"""`--dask ADDRESS`: games played on a Dask cluster give what one process gives."""
from __future__ import annotations

import json
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parent.parent
LITTLE = str(ROOT / "games" / "little_tavern.tav")
THIRTY = str(ROOT / "examples" / "little_tavern" / "thirty_coins.tav")


@pytest.fixture(scope="module")
def scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _same(d):
    return {k: v for k, v in d.items() if k not in ("seconds", "playouts_per_s", "decisions_per_s", "jobs")}


def test_sim_on_dask_reports_what_one_process_does(tav, scheduler):
    one = json.loads(tav("sim", LITTLE, "-p", "3", "-g", "30", "--seed", "3", "--json").output)
    r = tav("sim", LITTLE, "-p", "3", "-g", "30", "--seed", "3", "--json", "--dask", scheduler)
    assert r.exit_code == 0, r.output
    assert _same(json.loads(r.output)) == _same(one)
    bots = ["--bots", "greedy,random,random", "--rotate"]
    one = json.loads(tav("sim", LITTLE, "-p", "3", "-g", "4", "--json", *bots).output)
    two = json.loads(tav("sim", LITTLE, "-p", "3", "-g", "4", "--json", "--dask", scheduler, *bots).output)
    one.pop("search"), two.pop("search")
    assert _same(one) == _same(two)


def test_compare_on_dask(tav, scheduler):
    args = ["compare", LITTLE, THIRTY, "-p", "3", "-g", "12", "--json"]
    assert json.loads(tav(*args).output) == json.loads(tav(*args, "--dask", scheduler).output)


def test_no_scheduler_is_a_usage_error(tav):
    r = tav("sim", LITTLE, "-p", "3", "-g", "2", "--dask", "local:x")
    assert r.exit_code == 2 and "--dask" in r.output and "Traceback" not in r.output


def test_report_on_dask(tav, scheduler):
    args = ["report", LITTLE, "-p", "3", "-g", "10", "--skill-games", "2", "--skill-bot", "greedy", "--json"]
    one, two = json.loads(tav(*args).output), json.loads(tav(*args, "--dask", scheduler).output)
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_lint_simulate_on_dask(tav, scheduler):
    """lint's coverage from the workers: what fired in each game comes back, the same findings."""
    args = ["lint", LITTLE, "--simulate", "30", "--format", "json"]
    one, two = tav(*args), tav(*args, "--dask", scheduler)
    assert one.exit_code == two.exit_code
    assert json.loads(two.stdout) == json.loads(one.stdout)
    assert sum(1 for r in json.loads(one.stdout)["coverage"][LITTLE]["rules"] if r["fired"]) > 10
    err = str(ROOT / "tests" / "lint" / "tav714_runtime_error.tav")  # an error's place comes back too
    a, b = tav("lint", err, "--simulate", "8"), tav("lint", err, "--simulate", "8", "--dask", scheduler)
    assert a.exit_code == b.exit_code == 1 and "TAV714" in a.output and a.output == b.output


def test_progress_follows_the_chunks_on_dask(scheduler):
    from tavernlang.parallel import dask_playouts
    jobs = [(LITTLE, 3, s, {}) for s in range(1, 13)]
    heard = []
    got = list(dask_playouts(jobs, scheduler, chunk=3, progress=heard.append))
    assert heard == [3, 3, 3, 3]
    from tavernlang.parallel import playouts
    assert got == list(playouts(jobs, 1))
