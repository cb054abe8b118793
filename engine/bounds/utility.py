"""Utility bounds of the Riemannian Laplace mechanism and of the ambient baseline, as pure functions.

References: Reimherr, Bharath & Soto (2021), "Differential privacy over Riemannian manifolds"
(Theorems 3 and 4).
"""

from __future__ import annotations

import numpy as np

from engine.validation import check_int, check_positive


def _sn_ratio(rho: np.ndarray, kappa: float) -> np.ndarray:
    """sn_κ(ρ)/ρ, the radial Jacobian factor of exp on the model space of curvature κ."""
    rho = np.maximum(np.asarray(rho, dtype=float), 1e-12)
    if kappa > 0:
        s = np.sqrt(kappa)
        return np.sin(s * rho) / (s * rho)
    if kappa < 0:
        s = np.sqrt(-kappa)
        return np.sinh(s * rho) / (s * rho)
    return np.ones_like(rho)


def jacobian_ratio(dim: int, radius: float, kappa_min: float, kappa_max: float) -> float:
    """C₂/C₁ of the proof of Theorem 3: the spread of the Jacobian of exp over a ball of radius 2r.

    By the Rauch/Bishop comparison, det D exp at distance ρ lies between (sn_{κmax}(ρ)/ρ)^{d−1}
    and (sn_{κmin}(ρ)/ρ)^{d−1}; the ratio of the largest upper to the smallest lower value on
    [0, 2r] bounds C₂/C₁.
    """
    d = check_int("dim", dim)
    r = check_positive("radius", radius)
    rho = np.linspace(0.0, 2.0 * r, 401)
    upper = _sn_ratio(rho, kappa_min) ** (d - 1)
    lower = _sn_ratio(rho, kappa_max) ** (d - 1)
    if lower.min() <= 0:
        raise ValueError(f"radius {r:g} is too large for curvature {kappa_max:g}: exp is not a diffeomorphism on B_2r")
    return float(upper.max() / lower.min())


def laplace_utility_bound(sigma, dim: int, radius: float, kappa_min: float, kappa_max: float) -> np.ndarray:
    """Theorem 3: E ρ(x̃, x̄)² ≤ (C₂/C₁) · d(d + 1) σ² for the ball-conditioned Laplace mechanism.

    d(d + 1)σ² is E‖σZ‖² for the d-dimensional Euclidean Laplace (|Z| ~ Gamma(d, 1)).
    """
    d = check_int("dim", dim)
    sigma = np.asarray(sigma, dtype=float)
    return jacobian_ratio(d, radius, kappa_min, kappa_max) * d * (d + 1) * sigma**2


def ambient_inflation_factor(dim: int, ambient_dim: int) -> float:
    """Theorem 4: projecting an ambient ℓ2-Laplace onto a d-dim subspace of R^D inflates
    E‖error‖² by (D + 1)/(d + 1) relative to the intrinsic Laplace of the same scale.

    (E‖P(σRU)‖² = σ² D(D+1)·d/D = σ² d(D+1) against σ² d(d+1), R ~ Gamma(D, 1).)
    """
    d = check_int("dim", dim)
    big_d = check_int("ambient_dim", ambient_dim)
    if big_d < d:
        raise ValueError(f"ambient_dim must be >= dim = {d}, got {ambient_dim}")
    return (big_d + 1) / (d + 1)
