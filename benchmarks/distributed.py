"""Studies on Dask (issue 16): ``reimherr-fig1`` at 10,000 replicates in-process against a LocalCluster.

The two ways run alternately in this process, ``REPEATS`` times each, so they see the same machine
load; the rows give the best and the median. The LocalCluster's time includes starting and closing
its worker processes. The tables of every run must be identical to the last bit.
"""

from __future__ import annotations

import os
import statistics
import time

import pandas as pd

from benchmarks.timing import Row
from engine.experiments import reimherr_fig1, runner

REPS = 10_000
WORKERS = 2
REPEATS = 5


def _timed(**where):
    start = time.perf_counter()
    results = runner.run("reimherr-fig1", reimherr_fig1.Config(reps=REPS, seed=0), **where)
    return results, time.perf_counter() - start


def identical(a: dict, b: dict) -> bool:
    """Whether two results have the same tables, column for column and bit for bit."""
    if list(a) != list(b):
        return False
    try:
        for name in a:
            pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)
    except AssertionError:
        return False
    return True


def run() -> list[Row]:
    load, local_times, cluster_times, same = [os.getloadavg()[0]], [], [], True
    reference = None
    for _ in range(REPEATS):
        local, t_local = _timed()
        cluster, t_cluster = _timed(workers=WORKERS)
        reference = local if reference is None else reference
        same = same and identical(reference, local) and identical(reference, cluster)
        local_times.append(t_local)
        cluster_times.append(t_cluster)
        load.append(os.getloadavg()[0])
    params = reimherr_fig1.Config(reps=REPS)
    best = min(local_times) / min(cluster_times)
    median = statistics.median(local_times) / statistics.median(cluster_times)
    context = f"1-min load average {' → '.join(f'{x:.1f}' for x in load)} on {os.cpu_count()} cores"
    return [
        Row(f"reimherr-fig1, {REPS:,} replicates × 10 sample sizes, in-process ({len(reimherr_fig1.tasks(params))} "
            f"tasks of {params.block:,} replicates)", min(local_times), "—", context,
            statistics.median(local_times)),
        Row(f"the same on a LocalCluster of {WORKERS} workers (start and close included)", min(cluster_times),
            "≥ 1.7× faster", f"{best:.2f}× faster best/best, {median:.2f}× median/median; "
                             f"{'identical tables in every run' if same else 'TABLES DIFFER'}",
            statistics.median(cluster_times)),
    ]
