"""Closed forms for SPD(2): the eigenvalues of the pencil X⁻¹Y without eigenvectors, from which
``engine.manifolds.spd.affine`` builds the affine-invariant Exp, Log and weighted Log sums (``engine.manifolds._spd3``
does the same for SPD(3)), and the stable scalar functions they use (sinhc, divided differences of exp;
the latter also serves every k).
"""

from __future__ import annotations

import numpy as np

_TINY = np.finfo(float).tiny


def sinhc(t: np.ndarray) -> np.ndarray:
    """sinh(t)/t with the removable singularity at 0 filled in (exact for tiny t ≠ 0 already)."""
    t = np.asarray(t, dtype=float)
    return np.divide(np.sinh(t), t, out=np.ones_like(t), where=t != 0)


def exp_divided_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(eᵃ − eᵇ)/(a − b) = e^{(a+b)/2} sinhc((a − b)/2), stable for a → b (limit eᵃ).

    Its reciprocal at a = log μ, b = log ν is the divided difference of log at (μ, ν).
    """
    return np.exp(0.5 * (a + b)) * sinhc(0.5 * (a - b))


def pencil(x: np.ndarray, y: np.ndarray):
    """Eigenvalues m ∓ δ of the pencil X⁻¹Y for 2×2 X (SPD) and Y (symmetric), in closed form.

    Returns m = tr(X⁻¹Y)/2, δ >= 0, the entries (p, q, r) of X, the entries (n₀₀, n₀₁, n₁₁) of
    N = Y − mX and det Y/det X. X^{-1/2} N X^{-1/2} is traceless with eigenvalues ±δ, so
    δ² = −det N/det X = [((p n₀₁ − q n₀₀)/p)²/det X + (n₀₀/p)²]: a sum of squares, where
    √(m² − det Y/det X) would lose half the digits to cancellation for close eigenvalues.
    """
    p, q, r = x[..., 0, 0], x[..., 0, 1], x[..., 1, 1]
    a, b, c = y[..., 0, 0], y[..., 0, 1], y[..., 1, 1]
    # The determinant of a numerically singular X can round to <= 0; keep it positive (finite output).
    det_x = np.maximum(p * r - q * q, _TINY)
    m = (r * a + p * c - 2.0 * q * b) / (2.0 * det_x)
    n00, n01, n11 = a - m * p, b - m * q, c - m * r
    cross, n00p = n01 - (q / p) * n00, n00 / p
    delta = np.sqrt(cross * cross / det_x + n00p * n00p)
    return m, delta, (p, q, r), (n00, n01, n11), (a * c - b * b) / det_x


def log_pencil(x: np.ndarray, y: np.ndarray):
    """Mean and half difference of log μ₁ <= log μ₂ (eigenvalues of X⁻¹Y, Y SPD), with the entries of
    X and N = Y − mX from :func:`pencil`: log μ = mid ∓ half, half >= 0.
    """
    m, delta, x_entries, n_entries, det_ratio = pencil(x, y)
    # mid = log(μ₁μ₂)/2 from the determinant, not from m − δ, which cancels when μ₁ ≪ μ₂. Rounding can
    # make the determinant of a numerically singular Y <= 0; the floor keeps the logarithm finite.
    mid = 0.5 * np.log(np.maximum(det_ratio, _TINY))
    return mid, np.log(m + delta) - mid, x_entries, n_entries


def combine(c_x, x_entries, c_n, n_entries) -> np.ndarray:
    """c_x X + c_n N assembled from entries (exactly symmetric), shape ``c_x.shape + (2, 2)``."""
    (p, q, r), (n00, n01, n11) = x_entries, n_entries
    off = c_x * q + c_n * n01
    entries = np.stack([c_x * p + c_n * n00, off, off, c_x * r + c_n * n11], axis=-1)
    return entries.reshape(off.shape + (2, 2))
