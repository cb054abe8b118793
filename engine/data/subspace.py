"""Points in or near a k-dimensional linear subspace of R^d, with optional outliers.

The settings of Singhal & Steinke (2021): the exact case (Problem 3.1, noise = 0, points in general
position inside U plus o arbitrary points) and the approximate case (Problem 4.1, x ~ N(0, Σ) with
Σ = U Uᵀ + noise²·I, so √(λ_{k+1}/λ_k) = noise/√(1 + noise²) <= noise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.data.grassmann import random_subspace
from engine.validation import check_int, check_nonnegative


@dataclass(frozen=True)
class SubspacePoints:
    """``data`` (n, d), the true ``subspace`` basis (d, k) and the boolean mask ``outlier`` (n,)."""

    data: np.ndarray
    subspace: np.ndarray
    outlier: np.ndarray


def subspace_points(n, d, k, *, noise=0.0, outliers=0, subspace=None, outlier_scale=1.0, rng=None) -> SubspacePoints:
    """x_i = U z_i + noise·w_i, z_i ~ N(0, I_k), w_i ~ N(0, I_d); ``outliers`` rows (at random
    positions) are replaced by outlier_scale·N(0, I_d) points instead.

    Parameters
    ----------
    n, d, k : int
        Sample size, ambient and subspace dimension (1 <= k <= d).
    noise : float
        Standard deviation of the isotropic perturbation (>= 0).
    outliers : int
        Number of points off the subspace (0 <= outliers <= n).
    subspace : ndarray (d, k), optional
        Orthonormal basis of U; default Haar-random from ``rng``.
    outlier_scale : float
        Scale of the outliers.
    rng : numpy.random.Generator, int or None
    """
    n, d, k = check_int("n", n), check_int("d", d), check_int("k", k)
    if k > d:
        raise ValueError(f"k must be <= d = {d}, got {k}")
    noise = check_nonnegative("noise", noise)
    outliers = check_int("outliers", outliers, minimum=0)
    if outliers > n:
        raise ValueError(f"outliers must be <= n = {n}, got {outliers}")
    rng = np.random.default_rng(rng)
    u = random_subspace(d, k, rng) if subspace is None else np.asarray(subspace, dtype=float)
    if u.shape != (d, k):
        raise ValueError(f"subspace must have shape {(d, k)}, got {u.shape}")
    data = rng.standard_normal((n, k)) @ u.T
    if noise > 0:
        data += noise * rng.standard_normal((n, d))
    mask = np.zeros(n, dtype=bool)
    mask[rng.choice(n, size=outliers, replace=False)] = True
    data[mask] = check_nonnegative("outlier_scale", outlier_scale) * rng.standard_normal((outliers, d))
    return SubspacePoints(data=data, subspace=u, outlier=mask)
