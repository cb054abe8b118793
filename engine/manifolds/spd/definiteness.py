"""Numerical positive definiteness of k×k matrices, the membership test of every SPD metric and the
count of Euclidean (ambient) releases that leave the cone (Reimherr, Bharath & Soto 2021, §5.1)."""

from __future__ import annotations

import numpy as np

from engine.manifolds._linalg import eigvalsh, sym

_EPS = np.finfo(float).eps
#: Relative margin of the determinant test of ``_clearly_positive_definite_3x3``.
_DET_MARGIN = 1e-10


def is_positive_definite(x) -> np.ndarray:
    """Whether each matrix is (numerically) positive definite: xᵀAx > 0 for all x ≠ 0.

    Tests the symmetric part, whose smallest eigenvalue must exceed k·eps·max|λ| (below that level
    the sign of an eigenvalue is not resolved by floating point). Non-finite matrices give False.
    For k = 3 most matrices are settled without eigenvalues (``_clearly_positive_definite_3x3``).

    Parameters
    ----------
    x : array_like, shape (..., k, k)

    Returns
    -------
    ndarray of bool, shape (...)
        Used to count Euclidean (ambient) releases that leave the cone (Reimherr et al. 2021, §5.1).
    """
    x = np.asarray(x, dtype=float)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"x must have trailing shape (k, k), got shape {x.shape}")
    finite = np.isfinite(x).all(axis=(-1, -2))
    a = sym(np.where(finite[..., None, None], x, 0.0))
    if x.shape[-1] != 3:
        return finite & _eigenvalue_test(a)
    flat = a.reshape(-1, 3, 3)
    result = _clearly_positive_definite_3x3(flat)
    rest = ~result
    if rest.any():
        result[rest] = _eigenvalue_test(flat[rest])
    return finite & result.reshape(finite.shape)


def _eigenvalue_test(a: np.ndarray) -> np.ndarray:
    """λ_min > k·eps·max|λ| for symmetric ``a`` ``(..., k, k)``."""
    w = eigvalsh(a)
    return w[..., 0] > a.shape[-1] * _EPS * np.abs(w).max(axis=-1)


def _clearly_positive_definite_3x3(a: np.ndarray) -> np.ndarray:
    """A sufficient condition for ``_eigenvalue_test`` on symmetric 3×3 ``a``, without eigenvalues.

    With S = tr A + max|a_ij|: if a₀₀ > 0 and the computed leading minors satisfy
    m₂ > 1e−10·S² and det A > 1e−10·S³, then their rounding errors (below 30·eps·S² and 30·eps·S³)
    cannot have changed their signs, so A is positive definite (Sylvester's criterion); then
    λ_max ≤ tr A ≤ S and λ_min = det A/(λ_mid λ_max) ≥ det A/S², so λ_min/λ_max > 1e−10 − 30·eps,
    far above 3·eps. The bounds need S³ without overflow or underflow, so matrices with S outside
    [1e−90, 1e90] are left undecided too. False means "undecided": the caller computes the eigenvalues.
    """
    a00, a01, a02 = a[..., 0, 0], a[..., 0, 1], a[..., 0, 2]
    a11, a12, a22 = a[..., 1, 1], a[..., 1, 2], a[..., 2, 2]
    upper = (a00, a01, a02, a11, a12, a22)
    scale = (a00 + a11 + a22) + np.maximum.reduce([np.abs(e) for e in upper])
    in_range = (scale > 1e-90) & (scale < 1e90)
    if not in_range.all():
        a00, a01, a02, a11, a12, a22, scale = (np.where(in_range, e, 0.0) for e in (*upper, scale))
    minor = a00 * a11 - a01 * a01
    det = a00 * (a11 * a22 - a12 * a12) + a01 * (a02 * a12 - a01 * a22) + a02 * (a01 * a12 - a02 * a11)
    bound = _DET_MARGIN * scale * scale
    return in_range & (a00 > 0) & (minor > bound) & (det > bound * scale)
