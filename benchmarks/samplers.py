"""Exact Laplace sampler vs the supplement's MH (burn-in 10,000, thinning 100) on S² (issue: mechanisms),
and the exact radial sampler on the laws whose Gamma and volume envelopes used to fail (high dimension,
small σ, near the normalisability limit)."""

from __future__ import annotations

import time

import numpy as np

from benchmarks.timing import Row, best_and_median, best_of
from engine.data import sphere_cap
from engine.manifolds import Sphere
from engine.mechanisms import laplace_mh, riemannian_laplace, sample_radius
from engine.mechanisms.radial import hyperbolic_law, kendall_law, sphere_law

FOOTPOINTS = 10_000
SIGMA = 0.1
#: Radial laws timed at ``RADII`` exact draws: (label, law, σ, truncation radius).
RADIAL_CASES = [
    ("Kendall Σ¹²₂, σ = 0.1", kendall_law(12), 0.1, np.inf),
    ("Kendall Σ²⁰₂, σ = 0.1", kendall_law(20), 0.1, np.inf),
    ("Kendall Σ²⁰₂, σ = 0.05", kendall_law(20), 0.05, np.inf),
    ("Kendall Σ²⁰₂, σ = 0.1, truncated at R = 1", kendall_law(20), 0.1, 1.0),
    ("S¹⁰, σ = 0.02", sphere_law(10), 0.02, np.inf),
    ("S², σ = 0.5", sphere_law(2), 0.5, np.inf),
    ("H⁵, σ = 0.249 (limit 0.25)", hyperbolic_law(5), 0.249, np.inf),
    ("H², σ = 0.5", hyperbolic_law(2), 0.5, np.inf),
]
RADII = 100_000


def run() -> list[Row]:
    return mh_rows() + radial_rows()


def mh_rows() -> list[Row]:
    """The exact sampler against the supplement's MH on S², one draw at each of ``FOOTPOINTS`` footpoints."""
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


def radial_rows() -> list[Row]:
    """``RADII`` exact radial draws per law of ``RADIAL_CASES`` (``sample_radius``, envelope build included)."""
    rows = []
    for label, law, sigma, radius in RADIAL_CASES:
        best, median = best_and_median(lambda: sample_radius(law, sigma, RADII, rng=3, max_radius=radius))
        rows.append(Row(f"{RADII:,} exact radial draws, {label}", best, "< 0.1 s", median=median))
    return rows
