"""Exact Laplace sampler vs the supplement's MH (burn-in 10,000, thinning 100) on S² (issue: mechanisms)."""

from __future__ import annotations

import time

import numpy as np

from benchmarks.timing import Row, best_of
from engine.data import sphere_cap
from engine.manifolds import Sphere
from engine.mechanisms import laplace_mh, riemannian_laplace

FOOTPOINTS = 10_000
SIGMA = 0.1


def run() -> list[Row]:
    sphere = Sphere(2)
    footpoints = sphere_cap(FOOTPOINTS, np.pi / 8, rng=0)
    t_exact = best_of(lambda: riemannian_laplace(sphere, footpoints, SIGMA, rng=1))
    start = time.perf_counter()
    mh = laplace_mh(sphere, footpoints, SIGMA, rng=2, burn_in=10_000, thin=100)
    t_mh = time.perf_counter() - start
    return [
        Row(f"exact Laplace on S², one draw at each of {FOOTPOINTS:,} footpoints", t_exact, "—"),
        Row(f"MH (burn-in 10,000, thin 100), one draw at each of {FOOTPOINTS:,} footpoints", t_mh,
            "≥ 1,000× slower than exact",
            f"ratio {t_mh / t_exact:,.0f}×; acceptance {float(np.mean(mh.acceptance_rate)):.2f}"),
    ]
