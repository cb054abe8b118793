"""The Riemannian Laplace law's radial density and CDF by quadrature: the reference its samplers are checked against.

f(ρ) ∝ e^{−ρ/σ} J(ρ) from the space's radial law (``engine.mechanisms.radial``); on SPD(2) the
polar form f(ρ) ∝ e^{−ρ/σ} ρ ∫₀^{2π} sinh(ρ|cos φ − sin φ|/2) dφ (Hajri et al. 2016). Used by the
sampler study (``engine.experiments.sampler_check``) and the Samplers page
(``engine.pipelines.sampler_comparison``).
"""

from __future__ import annotations

import numpy as np
from scipy import integrate

from engine.mechanisms.laplace import radial_law


def radial_density(manifold, sigma: float, grid: np.ndarray) -> np.ndarray:
    """Normalised density of ρ(η, x̃) on ``grid`` (which must cover the support)."""
    if manifold.polar_volume == "spd-affine":
        if manifold.point_shape != (2, 2):
            raise ValueError(f"the radial density is known in closed form on SPD(2) only, got {manifold.name}")
        phi = np.linspace(0.0, 2.0 * np.pi, 721)
        spread = np.abs(np.cos(phi) - np.sin(phi)) / 2.0
        # The grid stops at 60σ < 85, so sinh(ρ·spread) stays far from overflow (ρ·spread < 710).
        inner = integrate.trapezoid(np.sinh(grid[:, None] * spread) * np.exp(-grid[:, None] / sigma), phi, axis=1)
        unnormalised = grid * inner
    else:
        log_f = radial_law(manifold).log_density(grid, sigma)
        unnormalised = np.exp(log_f - np.max(log_f[np.isfinite(log_f)]))
    return unnormalised / integrate.trapezoid(unnormalised, grid)


def radial_cdf(manifold, sigma: float, points: int = 20001):
    """Exact CDF of ρ(η, x̃) as a callable, by cumulative quadrature on a fine grid."""
    support = np.inf if manifold.polar_volume == "spd-affine" else radial_law(manifold).support
    upper = support if np.isfinite(support) else 60.0 * sigma
    if upper > 85.0:
        raise ValueError(f"sigma {sigma:g} is too large for a quadrature of the radial law on {manifold.name}")
    grid = np.linspace(0.0, upper, points)
    cdf = integrate.cumulative_trapezoid(radial_density(manifold, sigma, grid), grid, initial=0.0)
    cdf /= cdf[-1]
    return lambda rho: np.interp(rho, grid, cdf)
