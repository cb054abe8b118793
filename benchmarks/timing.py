"""Wall-clock timing helpers for the benchmarks."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table."""

    task: str
    seconds: float
    target: str
    note: str = ""


def best_of(fn, repeats: int = 3) -> float:
    """Smallest wall-clock time of ``repeats`` calls of ``fn()`` (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
