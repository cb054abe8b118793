"""Studies on Dask (issue 16): ``reimherr-fig1`` at 10,000 replicates in-process against a LocalCluster.

Both runs happen in this process, one after the other, so they see the same machine load. The
LocalCluster's time includes starting and closing its worker processes. The tables of the two
runs must be identical to the last bit.
"""

from __future__ import annotations

import os
import time

import pandas as pd

from benchmarks.timing import Row
from engine.experiments import reimherr_fig1, runner

REPS = 10_000
WORKERS = 2


def _timed(**where):
    start = time.perf_counter()
    results = runner.run("reimherr-fig1", reimherr_fig1.Params(reps=REPS, seed=0), **where)
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
    load = [os.getloadavg()[0]]
    local, t_local = _timed()
    load.append(os.getloadavg()[0])
    cluster, t_cluster = _timed(workers=WORKERS)
    load.append(os.getloadavg()[0])
    tasks = len(reimherr_fig1.tasks(reimherr_fig1.Params(reps=REPS)))
    same = "identical tables" if identical(local, cluster) else "TABLES DIFFER"
    context = f"1-min load average {' → '.join(f'{x:.1f}' for x in load)} on {os.cpu_count()} cores"
    return [
        Row(f"reimherr-fig1, {REPS:,} replicates × 10 sample sizes, in-process ({tasks} tasks)", t_local, "—",
            context),
        Row(f"the same on a LocalCluster of {WORKERS} workers (start and close included)", t_cluster,
            "≥ 1.7× faster", f"{t_local / t_cluster:.2f}× faster; {same}"),
    ]
