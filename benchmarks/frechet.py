"""Fréchet means of 1,000 data sets × 100 points in one batched call (issue: foundation)."""

from __future__ import annotations

import time

import numpy as np

from benchmarks.timing import Row, best_of
from engine.data import spd_wishart, sphere_cap
from engine.estimators import frechet_mean
from engine.manifolds import SPD, Sphere


def run() -> list[Row]:
    rng = np.random.default_rng(0)
    sphere_data = sphere_cap(100, np.pi / 8, size=(1000,), rng=rng)
    spd_data = spd_wishart(100, k=2, radius=1.5, size=(1000,), rng=rng)
    sphere, spd = Sphere(2), SPD(2)
    t_sphere = best_of(lambda: frechet_mean(sphere, sphere_data))
    t_spd = best_of(lambda: frechet_mean(spd, spd_data))
    rows = [
        Row("Fréchet mean S^2, 1,000 sets × n = 100 (batched)", t_sphere, "< 0.2 s"),
        Row("Fréchet mean SPD(2) affine, 1,000 sets × n = 100 (batched)", t_spd, "< 0.5 s"),
    ]
    try:
        from pyriemann.utils.mean import mean_riemann
    except ImportError:
        return rows + [Row("pyriemann comparison", float("nan"), "≥ 5×", "pyriemann not installed")]
    ours = frechet_mean(spd, spd_data, tol=1e-5).mean
    start = time.perf_counter()
    theirs = np.stack([mean_riemann(d, tol=1e-5) for d in spd_data])
    t_pyriemann = time.perf_counter() - start
    gap = float(spd.dist(ours, theirs).max())
    rows.append(Row("pyriemann mean_riemann, same 1,000 sets one at a time", t_pyriemann, "≥ 5× slower than ours",
                    f"ratio {t_pyriemann / t_spd:.1f}×, max distance between the two means {gap:.1e}"))
    return rows
