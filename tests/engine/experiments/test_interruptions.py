"""Runs that are cut short: Ctrl-C ends the study command line quietly with 130; a lost Dask scheduler is one error."""

import os
import signal
import time

import pytest

from engine.experiments import runner
from engine.experiments.protocol import Task
from tests.dask_scheduler import scheduler_with_a_worker
from tests.interrupted_run import started_run

pytestmark = pytest.mark.slow


def test_ctrl_c_exits_130_without_a_traceback_or_any_output(tmp_path):
    out, store = tmp_path / "out", tmp_path / "cache"
    run = started_run("engine.experiments", "reimherr-fig1", "--reps", "2000", "--out", str(out),
                      "--cache-dir", str(store))
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "Traceback" not in err and err.rstrip().splitlines()[-1] == f"interrupted; nothing was written to {str(out)!r}"
    assert not out.exists() and not (store.exists() and any(store.iterdir()))
    assert [p.name for p in tmp_path.iterdir()] == []


def kill_the_scheduler(pid: int, *, rng) -> None:
    """A task that kills the scheduler's process, then works on as the others would."""
    os.kill(pid, signal.SIGKILL)
    time.sleep(2.0)


def pause(seconds: float, *, rng) -> float:
    time.sleep(seconds)
    return seconds


def test_a_lost_scheduler_is_one_error_and_no_false_completion():
    with scheduler_with_a_worker() as (address, scheduler):
        tasks = [Task(("pause", i), pause, (0.2,), cost=2.0) for i in range(3)]
        tasks += [Task(("kill",), kill_the_scheduler, (scheduler.pid,))]
        tasks += [Task(("pause", i), pause, (0.2,)) for i in range(3, 20)]
        fractions = []
        with pytest.raises(runner.SchedulerLost, match=f"lost the Dask scheduler at '{address}' after [0-9]+ of 21 "
                                                       f"tasks; nothing was written"):
            runner.execute(tasks, 0, scheduler=address, progress=fractions.append)
        assert not fractions or max(fractions) < 1.0
