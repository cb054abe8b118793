"""Wall-clock timing helpers for the benchmarks.

Every benchmark runs with one BLAS thread (``engine.threads.single_blas_thread``, entered by
``python -m benchmarks``) and reports the best and the median of several runs: on a shared machine
the best is what the code costs, the median how much the neighbours took from it. Ratios that a
target is stated in also get the ratio of CPU times (``best_cpu``), which waiting does not inflate.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table: ``seconds`` is the best run, ``median`` the median (NaN when
    the task ran once)."""

    task: str
    seconds: float
    target: str
    note: str = ""
    median: float = math.nan


def runs(fn, repeats: int = 5) -> list[float]:
    """Wall-clock times of ``repeats`` calls of ``fn()`` after one warm-up call."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def best_and_median(fn, repeats: int = 5) -> tuple[float, float]:
    """Smallest and median wall-clock time of ``repeats`` calls of ``fn()`` (after a warm-up call)."""
    times = runs(fn, repeats)
    return min(times), statistics.median(times)


def best_cpu(fn, repeats: int = 5) -> float:
    """Smallest CPU time of this process over ``repeats`` calls of ``fn()`` (after a warm-up call).

    With one BLAS thread this is the work itself: unlike the wall clock it does not count the time
    the process waited for a core, so ratios of CPU times stay steady on a loaded machine.
    """
    fn()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def best_of(fn, repeats: int = 3) -> float:
    """Smallest wall-clock time of ``repeats`` calls of ``fn()`` (after one warm-up call)."""
    return min(runs(fn, repeats))
