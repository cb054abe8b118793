"""Singhal & Steinke subspace mechanisms (issue 12): one Algorithm 2 release and the dimension study.

``run`` yields each row as soon as it is measured, so the table shows the quick release before the
study (minutes on a loaded machine) finishes. Both are timed a few times: best and median.
"""

from __future__ import annotations

import os
import statistics
import time

from benchmarks.timing import Row
from engine.data import subspace_points
from engine.experiments import singhal_steinke_dimension
from engine.mechanisms.subspace import SubsampleAggregateSubspace

RELEASE_RUNS = 5
STUDY_RUNS = 3


def _times(fn, runs: int) -> tuple[list[float], object]:
    """Wall-clock seconds of ``runs`` calls of ``fn()`` (after one warm-up call) and the last output."""
    out = fn()
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        seconds.append(time.perf_counter() - start)
    return seconds, out


def _load() -> str:
    return "load average {:.1f}".format(os.getloadavg()[0])


def d_independence(summary) -> str:
    """Success at d = 10 against d = 1,000 for every n and method of the dimension study."""
    s = summary.set_index(["d", "n", "method"])["success"]
    names = {"singhal-steinke-exact": "SS exact", "singhal-steinke-approx": "SS approx",
             "analyze-gauss": "Analyze Gauss"}
    return "; ".join(
        f"n = {n}: " + ", ".join(f"{label} {s[(10, n, method)]:.2f}/{s[(1000, n, method)]:.2f}"
                                 for method, label in names.items())
        for n in singhal_steinke_dimension.SAMPLE_SIZES)


def run():
    sample = subspace_points(2000, 1000, 5, noise=1e-10, rng=0)
    mech = SubsampleAggregateSubspace(k=5, epsilon=1.0, delta=1e-6, gamma=1e-10)
    seconds, release = _times(lambda: mech.release(sample.data, rng=1), RELEASE_RUNS)
    yield Row("one Algorithm 2 release, d = 1,000, k = 5, n = 2,000", min(seconds), "< 2 s",
              f"best of {RELEASE_RUNS}, median {statistics.median(seconds):.3f} s; m = {mech.n_blocks} blocks of "
              f"{release.diagnostics['block_size']}, ⊥: {bool(release.bottom)}; {_load()}")
    seconds = []
    for _ in range(STUDY_RUNS):
        start = time.perf_counter()
        results = singhal_steinke_dimension.run(reps=200, seed=0)
        seconds.append(time.perf_counter() - start)
    yield Row("singhal-steinke-dimension, 200 releases × 3 d × 3 n × 4 methods, in-process", min(seconds), "< 120 s",
              f"best of {STUDY_RUNS}, median {statistics.median(seconds):.1f} s; {_load()}; success at d = 10 / "
              f"d = 1,000: {d_independence(results['summary'])}")
