"""`--dask` on a cluster without workers: a bounded wait that says what it waits for, then a
clear error, never a run that waits for ever."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang.cli import main
from tavernlang import parallel

ROOT = Path(__file__).resolve().parent.parent
LITTLE = str(ROOT / "games" / "little_tavern.tav")


@pytest.fixture(scope="module")
def empty_scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_a_cluster_with_no_worker_is_waited_for_then_a_usage_error(empty_scheduler, monkeypatch):
    monkeypatch.setenv("TAV_DASK_WAIT", "0.5")
    r = CliRunner().invoke(main, ["sim", LITTLE, "-p", "2", "-g", "4", "--dask", empty_scheduler])
    assert r.exit_code == 2, r.output
    assert "waiting up to 0.5 s for a worker" in r.output  # (stderr: said while it waits)
    assert "no Dask worker joined the scheduler" in r.output and "Traceback" not in r.output


def test_games_left_when_every_worker_has_gone_end_in_an_error(empty_scheduler, capsys):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(empty_scheduler) as client:
        futures = client.map(lambda x: x, [1, 2], pure=False)  # nobody to play them
        with pytest.raises(parallel.DaskError, match="2 chunks of games were not played"):
            list(parallel._finished(client, futures, empty_scheduler, limit=0.3, poll=0.1))
    assert "every Dask worker has left" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["soon", "0", "-3"])
def test_the_wait_must_be_a_positive_number_of_seconds(monkeypatch, text):
    monkeypatch.setenv("TAV_DASK_WAIT", text)
    with pytest.raises(parallel.DaskError, match="TAV_DASK_WAIT"):
        parallel.worker_wait()


def test_the_wait_defaults_to_a_minute(monkeypatch):
    monkeypatch.delenv("TAV_DASK_WAIT", raising=False)
    assert parallel.worker_wait() == parallel.WORKER_WAIT == 60.0
