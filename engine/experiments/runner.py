"""Run a study's tasks in-process, on a local Dask cluster, or on an existing Dask scheduler.

``run(study, config)`` turns ``config`` into the study's tasks (``engine.experiments.protocol``),
executes them and combines their outputs into tidy DataFrames:

* in-process (the default): one task after the other;
* ``workers=N``: a ``distributed.LocalCluster`` of N single-threaded worker processes, started for
  the run and closed after it;
* ``scheduler="tcp://HOST:PORT"``: an existing scheduler (``dask scheduler`` / ``dask worker``);
  its workers must import this package (start them from the repository root). The client waits
  ``worker_timeout`` seconds for a first worker, then has every worker import the engine, and refuses
  the run (``NoUsableWorker``) if none joined or one cannot import it, before any task is submitted.

Every task runs with one BLAS thread (``threadpoolctl``), so N workers use N cores and the numbers
do not depend on how a BLAS library would split its sums across threads. Outputs are combined in
the order of ``tasks(config)``, and each task's generator depends on its key only, so the three ways
give bit-identical results. A ``cache_dir`` reuses (and stores) results on disk
(``engine.experiments.cache``). A scheduler lost during the run ends it with ``SchedulerLost``.
"""

from __future__ import annotations

import logging
import multiprocessing
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import pandas as pd
from threadpoolctl import threadpool_limits

from engine.experiments import cache as disk_cache
from engine.experiments import load
from engine.experiments.protocol import Task, check_footprint
from engine.validation import check_int, check_positive

#: Seconds to wait for an existing scheduler before giving up.
CONNECT_TIMEOUT = 5.0

#: Seconds an existing scheduler may take to have a first worker (``--worker-timeout``).
WORKER_TIMEOUT = 30.0

#: Dask settings of the local workers. The nanny's default environment also sets
#: ``MALLOC_TRIM_THRESHOLD_=65536``, which turns off glibc's adaptive mmap threshold: every large
#: temporary array is then a fresh mmap with its page faults, and a reimherr-fig1 task took 2x the
#: CPU time of the same task in-process (measured here). The statistical profiler samples the
#: executing thread every 10 ms, which one-thread workers do not need. On Linux the worker processes
#: are forked from a fork server that has imported the engine's studies (``FORKSERVER_PRELOAD``), not
#: from the calling process: forking a process that runs threads (a test runner's, the app's) can copy a
#: lock another thread holds, and a worker so forked once hung a two-worker LocalCluster's start for good
#: (measured here); spawned workers import everything again (1.4 s more to start two, and 30 % more CPU
#: time on the same 20 reimherr-fig1 tasks, imports included). The client, the scheduler and the
#: nannies share the cores with the workers: their event-loop health tick (every 20 ms by default), the
#: nannies' memory checks (100 ms) and the system monitor (500 ms) took 5.2 s of CPU in a 50 s run; at
#: the intervals below 3.0 s.
#: What the fork server imports once, before it forks the local workers.
FORKSERVER_PRELOAD = ["engine.experiments"]
WORKER_CONFIG = {
    "distributed.nanny.pre-spawn-environ": {"OMP_NUM_THREADS": 1, "MKL_NUM_THREADS": 1, "OPENBLAS_NUM_THREADS": 1},
    "distributed.worker.profile.enabled": False,
    "distributed.worker.multiprocessing-method": "forkserver" if sys.platform == "linux" else "spawn",
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


def run(study, config, *, workers: int | None = None, scheduler: str | None = None,
        progress: Callable[[float], None] | None = None, cache_dir: Path | None = None,
        read_cache: bool = True, worker_timeout: float = WORKER_TIMEOUT) -> dict[str, pd.DataFrame]:
    """Run ``study`` (a registered name or a study module) with ``config`` (its ``Config``).

    Parameters
    ----------
    workers : number of local worker processes (>= 1); ``None`` runs in-process unless ``scheduler``.
    scheduler : address of an existing Dask scheduler, e.g. ``"tcp://10.0.0.5:8786"``.
    progress : called with the completed fraction of tasks, in (0, 1], after each task.
    cache_dir : folder of the disk cache; ``None`` neither reads nor writes it.
    read_cache : whether a cached result is reused; ``False`` runs the study and replaces the cached entry.
    worker_timeout : seconds the ``scheduler`` may take to have a first worker (``NoUsableWorker`` after).

    Returns
    -------
    The study's tables, ``{name: DataFrame}``.
    """
    _check_where(workers, scheduler, worker_timeout)
    module = load(study) if isinstance(study, str) else study
    if not isinstance(config, module.Config):
        raise ValueError(f"config must be {module.__name__}.Config, got {type(config).__name__}")
    check_footprint(module, config)
    name = module.__name__
    if cache_dir is not None and read_cache:
        cached = disk_cache.load(cache_dir, name, config, module.TABLES)
        if cached is not None:
            if progress is not None:
                progress(1.0)
            return cached
    outputs = execute(module.tasks(config), config.seed, workers=workers, scheduler=scheduler, progress=progress,
                      worker_timeout=worker_timeout)
    results = module.combine(config, outputs)
    if tuple(results) != module.TABLES:  # a study's own bug: the cache would refuse its entries ever after
        raise RuntimeError(f"{name}.combine returned the tables {list(results)}, not its TABLES {list(module.TABLES)}")
    if cache_dir is not None:
        try:
            disk_cache.store(cache_dir, name, config, results)
        except OSError as err:  # a full or read-only disk costs the cache, not the result
            warnings.warn(f"could not cache the result in {str(cache_dir)!r}: {err}", disk_cache.CacheWarning,
                          stacklevel=2)
    return results


def execute(tasks: list[Task], seed, *, workers: int | None = None, scheduler: str | None = None,
            progress: Callable[[float], None] | None = None, worker_timeout: float = WORKER_TIMEOUT) -> list:
    """Outputs of ``tasks`` (in their order) under the chosen scheduler; see the module notes."""
    _check_where(workers, scheduler, worker_timeout)
    if workers is None and scheduler is None:
        outputs = []
        with threadpool_limits(limits=1):
            for index, task in enumerate(tasks):
                outputs.append(task(seed))
                if progress is not None:
                    progress((index + 1) / len(tasks))
        return outputs
    with _client(workers, scheduler, worker_timeout) as client:
        from distributed import as_completed

        # Costliest first (longest-processing-time order); outputs still come back in task order.
        futures = [client.submit(run_task, task, seed=seed, pure=False, priority=rank)
                   for rank, task in _by_cost(tasks)]
        outputs = {}
        for done, future in enumerate(as_completed(futures), start=1):
            # A failed task raises its own exception here, before any other result is waited for.
            outputs[future.key] = _result(future, done - 1, len(tasks), scheduler)
            if progress is not None:
                progress(done / len(tasks))
        return [outputs[future.key] for future in futures]


class SchedulerLost(ValueError):
    """The Dask scheduler went away (or cancelled the run's tasks) before every task was done."""


def _result(future, finished: int, total: int, scheduler: str | None):
    """``future.result()``; ``SchedulerLost`` if the scheduler cancelled it or its connection closed."""
    from concurrent.futures import CancelledError

    from distributed.comm.core import CommClosedError

    try:
        return future.result()
    except (CancelledError, CommClosedError):
        where = f"at {scheduler!r}" if scheduler else "of the local cluster"
        raise SchedulerLost(f"lost the Dask scheduler {where} after {finished} of {total} tasks; nothing was "
                            f"written: restart the scheduler and its workers and run again") from None


def _by_cost(tasks: list[Task]) -> list[tuple[int, Task]]:
    """``(priority, task)`` in task order, the costliest task with the highest priority (ties: earlier first)."""
    order = sorted(range(len(tasks)), key=lambda i: (tasks[i].cost, -i))
    rank = {index: position for position, index in enumerate(order)}
    return [(rank[i], task) for i, task in enumerate(tasks)]


def _check_where(workers, scheduler, worker_timeout) -> None:
    """``ValueError`` unless at most one of ``workers`` (an integer >= 1) and ``scheduler`` is given, and
    ``worker_timeout`` is a finite number of seconds > 0."""
    if workers is not None and scheduler is not None:
        raise ValueError(f"give either workers ({workers!r}) or scheduler ({scheduler!r}), not both")
    if workers is not None:
        check_int("workers", workers)
    check_positive("worker_timeout", worker_timeout)


def run_task(task: Task, seed):
    """``task(seed)`` with one BLAS thread (what a worker executes)."""
    with threadpool_limits(limits=1):
        return task(seed)


class SchedulerUnreachable(ValueError):
    """The Dask scheduler at the given address did not answer."""


class NoUsableWorker(ValueError):
    """No worker joined the Dask scheduler in time, or a worker cannot import the engine."""


#: What every worker of an existing scheduler must be able to run: the import of a task's code. Sent as
#: source to ``exec`` (a builtin), because a function of the engine could not even reach such a worker.
IMPORT_PROBE = "import engine.experiments.runner"


def _check_workers(client, scheduler: str, timeout: float) -> None:
    """``NoUsableWorker`` unless a worker joins ``scheduler`` within ``timeout`` seconds and every worker
    imports the engine (a worker started outside the project folder would fail every task)."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise NoUsableWorker(f"no Dask worker joined {scheduler} within {timeout:g} s: start one with `dask worker "
                             f"{scheduler}` from the project folder, or give --worker-timeout more seconds") from None
    for address, outcome in client.run(exec, IMPORT_PROBE, {}, on_error="return").items():
        if isinstance(outcome, BaseException):
            raise NoUsableWorker(f"the Dask worker {address} of {scheduler} cannot import the engine "
                                 f"({type(outcome).__name__}: {outcome}): stop it and start `dask worker {scheduler}` "
                                 f"from the project folder")


@contextmanager
def _client(workers: int | None, scheduler: str | None, worker_timeout: float):
    """A ``distributed.Client`` on a fresh ``LocalCluster`` of ``workers`` processes, or on ``scheduler``
    once a worker that imports the engine has joined it (``_check_workers``)."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, ValueError) as err:
            raise SchedulerUnreachable(
                f"cannot reach the Dask scheduler at {scheduler!r} ({err}); start one with `dask scheduler` and "
                f"`dask worker {scheduler}`, or run without a scheduler") from None
        # A lost scheduler is reported by ``SchedulerLost``; the client's reconnection attempts would
        # otherwise log their tracebacks as well.
        quiet = logging.getLogger("distributed.client")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)
        try:
            with client:
                _check_workers(client, scheduler, worker_timeout)
                yield client
        finally:
            quiet.setLevel(level)
        return
    if sys.platform == "linux":
        multiprocessing.set_forkserver_preload(FORKSERVER_PRELOAD)
    # Port 0: the scheduler's HTTP endpoints on a free loopback port, never clashing on 8787.
    with dask.config.set(WORKER_CONFIG), LocalCluster(
            n_workers=int(workers), threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
            host="127.0.0.1", silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        yield client
