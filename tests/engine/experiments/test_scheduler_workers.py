"""An existing Dask scheduler without a usable worker: one line and exit 2 within ``--worker-timeout``, not a hang."""

import os
import subprocess
import sys
import time

import pytest
from distributed import LocalCluster

from engine.experiments import __main__ as cli
from engine.experiments import reimherr_fig1, runner

from .test_cli import QUICK, cache_in_tmp, no_figures, one_line_error, quick_settings  # noqa: F401

SMALL = reimherr_fig1.Config(reps=4, seed=7, ns=(10,), block=2)


@pytest.fixture
def empty_scheduler():
    """The address of an in-process scheduler that has no worker."""
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as cluster:
        yield cluster.scheduler_address


def test_no_worker_is_one_line_naming_dask_worker_after_the_timeout(tmp_path, capsys, empty_scheduler,
                                                                      quick_settings):  # noqa: F811
    out = tmp_path / "out"
    start = time.perf_counter()
    assert cli.main([*QUICK, *quick_settings, "--scheduler", empty_scheduler, "--worker-timeout", "2",
                     "--out", str(out), "--no-cache"]) == 2
    waited = time.perf_counter() - start
    err = capsys.readouterr().err
    assert err.split("\r")[1].startswith("reimherr-fig1   0%"), err  # the bar at 0 %, shown at once
    capsys.readouterr()
    line = err.split("\r")[-1]
    assert line == (f"error: no Dask worker joined {empty_scheduler} within 2 s: start one with `dask worker "
                    f"{empty_scheduler}` from the project folder, or give --worker-timeout more seconds\n")
    assert 2 <= waited < 10 and not out.exists()


@pytest.mark.parametrize("given, why", [("0", "finite number of seconds > 0, got 0"),
                                        ("nan", "got nan"), ("inf", "got inf")])
def test_a_bad_worker_timeout_is_refused(tmp_path, capsys, given, why):
    assert cli.main([*QUICK, "--scheduler", "tcp://127.0.0.1:1", "--worker-timeout", given,
                     "--out", str(tmp_path / "out")]) == 2
    assert why in one_line_error(capsys)


def test_a_worker_timeout_without_a_scheduler_is_refused(tmp_path, capsys):
    assert cli.main([*QUICK, "--worker-timeout", "5", "--out", str(tmp_path / "out")]) == 2
    assert "--worker-timeout 5 applies to --scheduler only" in one_line_error(capsys)
    with pytest.raises(ValueError, match="worker_timeout must be a number > 0, got '30'"):
        runner.execute([], 0, worker_timeout="30")


@pytest.mark.slow
def test_a_worker_that_cannot_import_the_engine_is_named_with_its_cause(tmp_path, empty_scheduler):
    """A real worker process started outside the project folder (where ``engine`` is not importable)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", empty_scheduler, "--nthreads", "1",
                               "--no-nanny"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        with pytest.raises(runner.NoUsableWorker, match=f"the Dask worker tcp://.* of {empty_scheduler} cannot import "
                                                        f"the engine \\(ModuleNotFoundError: No module named 'engine'\\): "
                                                        f"stop it and start `dask worker {empty_scheduler}` from the "
                                                        f"project folder"):
            runner.run("reimherr-fig1", SMALL, scheduler=empty_scheduler, worker_timeout=60)
    finally:
        worker.kill()
        worker.wait()
