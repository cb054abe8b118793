"""The map of where the intrinsic mechanism wins (issue 34): the default grid of every space with a
Euclidean baseline (S^d, d = 2–21 × 20 radii; SPD(k), k = 2–5 × 20 radii), in-process.

Timed three times after a warm-up: best and median wall clock, and the best CPU time, which the
other jobs on the shared cores do not inflate.
"""

from __future__ import annotations

import os
import statistics

from benchmarks.timing import Row, best_cpu, runs
from engine.pipelines import who_wins_map

RUNS = 3


def _every_map() -> list:
    return [who_wins_map.run(who_wins_map.WhoWinsMapConfig(space=key))
            for key, fam in who_wins_map.FAMILIES.items() if fam.baseline_missing is None]


def run():
    seconds = runs(_every_map, RUNS)
    cpu = best_cpu(_every_map, RUNS)
    maps = _every_map()
    cells = sum(len(m.cells) for m in maps)
    worst = max(float((m.cells["ratio_se"] / m.cells["ratio"]).max()) for m in maps)
    yield Row(f"who-wins map, default grid of {' and '.join(m.family.label for m in maps)} ({cells} cells), "
              f"in-process", min(seconds), "< 10 s",
              f"CPU {cpu:.2f} s; largest relative standard error of a ratio {worst:.3f}; load average "
              f"{os.getloadavg()[0]:.1f}", median=statistics.median(seconds))
