"""Singhal & Steinke subspace mechanisms (issue 12): one approximate release, the dimension study."""

from __future__ import annotations

import time

from benchmarks.timing import Row, best_of
from engine.data import subspace_points
from engine.experiments import singhal_steinke_dimension
from engine.mechanisms.subspace import SubsampleAggregateSubspace


def run() -> list[Row]:
    sample = subspace_points(2000, 1000, 5, noise=1e-10, rng=0)
    mech = SubsampleAggregateSubspace(k=5, epsilon=1.0, delta=1e-6, gamma=1e-10)
    release = best_of(lambda: mech.release(sample.data, rng=1))
    start = time.perf_counter()
    results = singhal_steinke_dimension.run(reps=200, seed=0)
    study = time.perf_counter() - start
    s = results["summary"].set_index(["d", "n", "method"])["success"]
    note = "; ".join(
        f"n = {n}: SS-exact {s[(10, n, 'singhal-steinke-exact')]:.2f}/{s[(1000, n, 'singhal-steinke-exact')]:.2f}, "
        f"SS-approx {s[(10, n, 'singhal-steinke-approx')]:.2f}/{s[(1000, n, 'singhal-steinke-approx')]:.2f}, "
        f"Analyze Gauss {s[(10, n, 'analyze-gauss')]:.2f}/{s[(1000, n, 'analyze-gauss')]:.2f}"
        for n in singhal_steinke_dimension.SAMPLE_SIZES)
    return [Row("one Algorithm 2 release, d = 1,000, k = 5, n = 2,000", release, "< 2 s",
                f"m = {mech.n_blocks} blocks"),
            Row("singhal-steinke-dimension, 200 releases × 3 d × 3 n × 4 methods", study, "< 120 s",
                f"success at d = 10 / d = 1000: {note}")]
