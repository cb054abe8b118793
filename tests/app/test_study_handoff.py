"""Pages hand their studies to the scheduler named by DASK_SCHEDULER_ADDRESS and reuse the disk cache."""

import pandas as pd
import pytest

from engine.experiments import reimherr_fig1, runner
from ui import studies

PARAMS = reimherr_fig1.Config(reps=6, seed=4, ns=(10,), block=3)


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MPE_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_without_the_variable_the_study_runs_in_process_and_is_cached(monkeypatch, cache_dir):
    monkeypatch.delenv(studies.SCHEDULER_VARIABLE, raising=False)
    assert studies.scheduler_address() is None
    first = studies.run("reimherr-fig1", PARAMS)
    assert len(list(cache_dir.iterdir())) == 1
    monkeypatch.setattr(reimherr_fig1, "tasks", lambda params: pytest.fail("should come from the cache"))
    pd.testing.assert_frame_equal(studies.run("reimherr-fig1", PARAMS)["summary"], first["summary"])


@pytest.mark.slow
def test_the_variable_hands_the_study_to_that_scheduler(monkeypatch):
    from distributed import LocalCluster

    seen = []
    monkeypatch.setattr(runner, "_client", _spy(runner._client, seen))
    with LocalCluster(n_workers=1, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as cluster:
        monkeypatch.setenv(studies.SCHEDULER_VARIABLE, f" {cluster.scheduler_address} ")
        remote = studies.run("reimherr-fig1", PARAMS)
    assert seen == [(None, cluster.scheduler_address)]
    local = runner.run("reimherr-fig1", PARAMS)
    pd.testing.assert_frame_equal(remote["utility"], local["utility"], check_exact=True)


def test_an_unreachable_address_is_named(monkeypatch):
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 0.2)
    monkeypatch.setenv(studies.SCHEDULER_VARIABLE, "tcp://127.0.0.1:1")
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"):
        studies.run("reimherr-fig1", PARAMS)


def _spy(factory, seen):
    def wrapped(workers, scheduler, *rest):
        seen.append((workers, scheduler))
        return factory(workers, scheduler, *rest)
    return wrapped
