"""Fréchet means of 1,000 data sets × 100 points in one batched call; SPD(3) against SPD(2) and
pyriemann (issue 15: SPD(3) within 3× of SPD(2) and ahead of pyriemann's ``mean_riemann``)."""

from __future__ import annotations

import time

import numpy as np

from benchmarks.timing import Row, best_and_median, best_cpu
from engine.data import spd_wishart, sphere_cap
from engine.estimators import frechet_mean
from engine.manifolds import SPD, Sphere

SETS, N = 1000, 100


def _pyriemann_rows(spd, data, ours_best: float) -> list[Row]:
    try:
        from pyriemann.utils.mean import mean_riemann
    except ImportError:
        return [Row(f"pyriemann comparison {spd.name}", float("nan"), "slower than ours", "pyriemann not installed")]
    ours = frechet_mean(spd, data, tol=1e-5).mean
    times = []
    for _ in range(3):
        start = time.perf_counter()
        theirs = np.stack([mean_riemann(d, tol=1e-5) for d in data])
        times.append(time.perf_counter() - start)
    gap = float(spd.dist(ours, theirs).max())
    return [Row(f"pyriemann 0.12 mean_riemann, the same {SETS:,} SPD({spd.k}) sets one at a time", min(times),
                "slower than ours", f"{min(times) / ours_best:.1f}× ours (best/best); the means differ by ≤ {gap:.1e}",
                median=float(np.median(times)))]


def run() -> list[Row]:
    rng = np.random.default_rng(0)
    sphere_data = sphere_cap(N, np.pi / 8, size=(SETS,), rng=rng)
    spd2_data = spd_wishart(N, k=2, radius=1.5, size=(SETS,), rng=rng)
    spd3_data = spd_wishart(N, k=3, radius=1.5, size=(SETS,), rng=rng)
    sphere, spd2, spd3 = Sphere(2), SPD(2), SPD(3)
    t_sphere = best_and_median(lambda: frechet_mean(sphere, sphere_data))
    t_spd2 = best_and_median(lambda: frechet_mean(spd2, spd2_data))
    t_spd3 = best_and_median(lambda: frechet_mean(spd3, spd3_data))
    cpu_ratio = best_cpu(lambda: frechet_mean(spd3, spd3_data)) / best_cpu(lambda: frechet_mean(spd2, spd2_data))
    rows = [
        Row(f"Fréchet mean S^2, {SETS:,} sets × n = {N} (batched)", t_sphere[0], "< 0.2 s", median=t_sphere[1]),
        Row(f"Fréchet mean SPD(2) affine, {SETS:,} sets × n = {N} (batched)", t_spd2[0], "< 0.5 s", median=t_spd2[1]),
        Row(f"Fréchet mean SPD(3) affine, {SETS:,} sets × n = {N} (batched)", t_spd3[0], "≤ 3× SPD(2)",
            f"{t_spd3[0] / t_spd2[0]:.1f}× SPD(2) (best/best), {t_spd3[1] / t_spd2[1]:.1f}× (median/median), "
            f"{cpu_ratio:.1f}× in CPU time (best/best)",
            median=t_spd3[1]),
    ]
    return rows + _pyriemann_rows(spd2, spd2_data, t_spd2[0]) + _pyriemann_rows(spd3, spd3_data, t_spd3[0])
