"""Exact Laplace sampler vs the supplement's MH (burn-in 10,000, thinning 100) on S² (issue: mechanisms),
the exact Riemannian Gaussian sampler vs a random-walk MH chain on the same law at equal accuracy on S² and H²
(issue 48, item 5), and the exact radial sampler on the laws whose Gamma and volume envelopes used to fail (high
dimension, small σ, near the normalisability limit)."""

from __future__ import annotations

import time

import numpy as np
from scipy import stats
from scipy.integrate import cumulative_trapezoid

from benchmarks.timing import Row, best_and_median, best_of
from engine.data import sphere_cap
from engine.manifolds import Hyperbolic, Sphere
from engine.mechanisms import (
    effective_sample_size,
    laplace_mh,
    metropolis_hastings,
    radial_law,
    riemannian_laplace,
    sample_radius,
)
from engine.mechanisms.radial import hyperbolic_law, kendall_law, sphere_law
from engine.mechanisms.riemannian_gaussian import gaussian_radial_log_density, riemannian_gaussian

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
#: The Riemannian Gaussian's spaces and σ, its exact draws, and the MH chain: one chain of ``GAUSS_STEPS`` steps
#: after ``GAUSS_BURN_IN`` (per effective draw), and ``GAUSS_DRAWS`` parallel chains at the burn-ins tried.
GAUSS_CASES = [(Sphere(2), "S²", 0.3), (Hyperbolic(2), "H²", 0.5)]
GAUSS_DRAWS = 10_000
GAUSS_BURN_IN, GAUSS_STEPS = 1_000, 20_000
PARALLEL_BURN_INS = (10, 30, 100, 300)


def run() -> list[Row]:
    return mh_rows() + gaussian_rows() + radial_rows()


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


def _radius_cdf(law, sigma):
    """The exact CDF of ρ(η, X), X ~ N(η, σ²): cumulative trapezoid of e^{−ρ²/(2σ²)} J(ρ) on 20,001 points."""
    grid = np.linspace(0.0, min(law.support, 40 * sigma + 4 * sigma**2), 20_001)
    log_f = gaussian_radial_log_density(law, grid, sigma)
    cdf = cumulative_trapezoid(np.exp(log_f - log_f.max()), grid, initial=0.0)
    return lambda rho: np.interp(rho, grid, cdf / cdf[-1])


def gaussian_rows() -> list[Row]:
    """The exact Riemannian Gaussian sampler against random-walk MH on the same law (log density −ρ²/(2σ²),
    adaptive step), at equal accuracy: per effective draw of one chain (ESS of ρ, Geyer), and ``GAUSS_DRAWS``
    parallel chains at the least burn-in of ``PARALLEL_BURN_INS`` whose draws pass the KS test against the exact
    law of ρ at 5 % (as the exact draws do). KS distances of ρ are printed beside the critical value."""
    rows = []
    for m, name, sigma in GAUSS_CASES:
        eta, cdf = m.origin, _radius_cdf(radial_law(m), sigma)

        def log_density(x, eta=eta, sigma=sigma, m=m):
            return -m.dist(x, np.broadcast_to(eta, x.shape)) ** 2 / (2 * sigma**2)

        def radii(points, eta=eta, m=m):
            return m.dist(points.reshape((-1,) + m.point_shape), eta)

        t_exact = best_of(lambda m=m, eta=eta, sigma=sigma: riemannian_gaussian(m, eta, sigma, size=GAUSS_DRAWS, rng=1))
        ks_exact = stats.kstest(radii(riemannian_gaussian(m, eta, sigma, size=GAUSS_DRAWS, rng=1)), cdf)
        per_exact = t_exact / GAUSS_DRAWS
        rows.append(Row(f"exact Riemannian Gaussian on {name}, σ = {sigma:g}, {GAUSS_DRAWS:,} draws", t_exact, "—",
                        f"KS {ks_exact.statistic:.4f} (p = {ks_exact.pvalue:.2f}); {1e6 * per_exact:.2f} µs per draw"))
        start = time.perf_counter()
        chain = metropolis_hastings(m, log_density, eta, size=GAUSS_STEPS, rng=2, burn_in=GAUSS_BURN_IN, thin=1,
                                    initial_step=sigma)
        t_chain = time.perf_counter() - start
        rho = radii(chain.samples)
        ess = float(effective_sample_size(rho))
        spaced = rho[:: int(np.ceil(GAUSS_STEPS / ess))]
        ks = stats.kstest(spaced, cdf)
        rows.append(Row(
            f"MH on {name}, one chain (burn-in {GAUSS_BURN_IN:,}, {GAUSS_STEPS:,} steps), per effective draw",
            t_chain, "≥ 1,000× exact per draw",
            f"ratio {t_chain / ess / per_exact:,.0f}×; ESS of ρ {ess:,.0f}, acceptance "
            f"{float(np.mean(chain.acceptance_rate)):.2f}; {len(spaced):,} draws thinned by τ: KS {ks.statistic:.4f} "
            f"(p = {ks.pvalue:.2f})"))
        init = np.broadcast_to(eta, (GAUSS_DRAWS,) + m.point_shape)
        for burn_in in PARALLEL_BURN_INS:
            start = time.perf_counter()
            parallel = metropolis_hastings(m, log_density, init, rng=3, burn_in=burn_in, thin=1, initial_step=sigma)
            t_parallel = time.perf_counter() - start
            ks = stats.kstest(radii(parallel.samples), cdf)
            if ks.pvalue >= 0.05 or burn_in == PARALLEL_BURN_INS[-1]:
                break
        rows.append(Row(
            f"MH on {name}, {GAUSS_DRAWS:,} parallel chains, one draw each after burn-in {burn_in}", t_parallel,
            "—", f"ratio {t_parallel / t_exact:,.0f}× exact; KS {ks.statistic:.4f} (p = {ks.pvalue:.2f}); the least "
                 f"burn-in of {', '.join(map(str, PARALLEL_BURN_INS))} passing KS at 5 %"))
    return rows
