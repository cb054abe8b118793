"""Σ_i w_i Log_X(Y_i) on SPD(3) with the affine-invariant metric, without eigenvectors.

Log_X(Y) = X^{1/2} f(C) X^{1/2} with C = X^{-1/2} Y X^{-1/2} and f = log. Any f on a 3×3 symmetric C
equals its interpolation polynomial at the eigenvalues a ≤ b ≤ c of C (Newton form)

    f(C) = f(a) I + f[a, b] (C − aI) + f[a, b, c] (C − aI)(C − bI),

and X^{1/2} Cʲ X^{1/2} is X, Y and Y X⁻¹ Y for j = 0, 1, 2. So, with (α₀, α₁, α₂) the monomial
coefficients of that polynomial,

    Σ_i w_i Log_X(Y_i) = (Σ_i w_i α₀ᵢ) X + Σ_i w_i α₁ᵢ Y_i + Σ_i w_i α₂ᵢ Y_i X⁻¹ Y_i,

where the last two sums are batched matrix products over the n points. Only the eigenvalues of C
are needed; they are the roots of det(Y − μX) = det Y − μ tr(adj(Y) X) + μ² tr(adj(X) Y) − μ³ det X,
found with the trigonometric formula. This is the inner step of the batched Fréchet mean; it costs
about as much as the 2×2 closed form per point, against one LAPACK call (~10 µs) per point for
eigenvectors.

Accuracy. Near-equal eigenvalues come out of the cubic with errors δ up to ~√eps·c, but the
interpolation error at the true eigenvalues is second order, ~|f'''|·δ·(gap + δ)·c, so f(C) stays
accurate to rounding. The monomial form loses ~eps·κ·log κ for a spread κ = c/a (terms of size
κ log κ cancel); points with κ > ``MAX_SPREAD`` (and numerically singular ones) are sent to the
eigen-decomposition path instead, which keeps the absolute error of every log below ~1e−12·‖X‖.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Largest eigenvalue spread c/a of X^{-1/2} Y X^{-1/2} handled by the polynomial form.
MAX_SPREAD = 1e3


def entries(a):
    """The six upper-triangle entries (00, 01, 02, 11, 12, 22) of symmetric 3×3 matrices."""
    return a[..., 0, 0], a[..., 0, 1], a[..., 0, 2], a[..., 1, 1], a[..., 1, 2], a[..., 2, 2]


def adjugate(e):
    """Upper-triangle entries of the adjugate of a symmetric 3×3 matrix given by its entries."""
    e00, e01, e02, e11, e12, e22 = e
    return (e11 * e22 - e12 * e12, e02 * e12 - e01 * e22, e01 * e12 - e02 * e11,
            e00 * e22 - e02 * e02, e01 * e02 - e00 * e12, e00 * e11 - e01 * e01)


def trace_product(e, f):
    """tr(EF) of two symmetric 3×3 matrices given by their entries."""
    return (e[0] * f[0] + e[3] * f[3] + e[5] * f[5]) + 2.0 * (e[1] * f[1] + e[2] * f[2] + e[4] * f[4])


def _cubic_roots(c1, c2, c3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Roots a ≤ b ≤ c of μ³ − c₁μ² + c₂μ − c₃ with three real roots (a characteristic polynomial).

    Trigonometric formula: q = c₁/3, p² = (c₁² − 3c₂)/9, r = (c₃ − q c₂ + 2q³)/(2p³), φ = arccos(r)/3
    in [0, π/3]; the roots are q + 2p cos(φ − 2πj/3). With s = √3 sin φ = √(3(1 − cos² φ)) they are
    q + 2p cos φ and q − p (cos φ ± s): one cosine and one arccos per root triple. Where φ → 0 the
    square root loses accuracy like the arccos itself (both ~√eps in the split of the close pair).
    """
    q = c1 / 3.0
    p = np.sqrt(np.maximum(c1 * c1 - 3.0 * c2, 0.0)) / 3.0
    det_shift = c3 - q * (c2 - 2.0 * q * q)
    # p = 0 (X ∝ Y) leaves r arbitrary: every φ then gives a = b = c = q.
    r = det_shift / np.maximum(2.0 * p * p * p, 1e-300)
    cos_phi = np.cos(np.arccos(np.minimum(np.maximum(r, -1.0), 1.0)) / 3.0)
    s = np.sqrt(np.maximum(3.0 - 3.0 * cos_phi * cos_phi, 0.0))
    hi = q + 2.0 * p * cos_phi
    lo = q - p * (cos_phi + s)
    return lo, np.minimum(np.maximum(q - p * (cos_phi - s), lo), hi), hi


def pencil_eigvals(ex, ey) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eigenvalues a ≤ b ≤ c of X⁻¹Y (equivalently of X^{-1/2} Y X^{-1/2}), three arrays.

    ``ex`` and ``ey`` are the entries (``entries``) of SPD 3×3 matrices X and Y, broadcast against
    each other. The characteristic polynomial has c₁ = tr(adj(X) Y)/det X, c₂ = tr(adj(Y) X)/det X and
    c₃ = det Y/det X; its roots come from ``_cubic_roots``. Absolute accuracy ~√eps·c for near-equal
    roots, ~eps·c otherwise (enough for the interpolation above, not a general eigvalsh).
    """
    adj_x, adj_y = adjugate(ex), adjugate(ey)
    inv_det_x = 1.0 / (ex[0] * adj_x[0] + ex[1] * adj_x[1] + ex[2] * adj_x[2])
    return _cubic_roots(trace_product(adj_x, ey) * inv_det_x, trace_product(adj_y, ex) * inv_det_x,
                        (ey[0] * adj_y[0] + ey[1] * adj_y[1] + ey[2] * adj_y[2]) * inv_det_x)


def _log_divided_difference(a, b):
    """f[a, b] = (log b − log a)/(b − a) = 2 atanh(t)/(t (a + b)) for 0 < a ≤ b, t = (b − a)/(b + a),
    with atanh(t) = log1p(2t/(1 − t))/2: stable for a → b (limit 1/a)."""
    total = a + b
    # atanh(t)/t is 1 to double precision at t = 1e-300; the floor removes the 0/0 at a = b.
    t = np.maximum((b - a) / total, 1e-300)
    return np.log1p(2.0 * t / (1.0 - t)) / (t * total)


def log_coefficients(a, b, c) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(α₀, α₁, α₂) with log(C) = α₀ I + α₁ C + α₂ C² for the eigenvalues 0 < a ≤ b ≤ c of C.

    Newton form through a, b, c; f[a, b, c] = (f[b, c] − f[a, b])/(c − a). Its cancellation for
    close a, c multiplies (C − aI)(C − bI), which is O((c − a)²), so the product stays accurate;
    for a = c (then b = a too) the numerator is exactly 0 and so is f[a, b, c], which (C − aI)
    annihilates anyway.
    """
    d_ab, d_bc = _log_divided_difference(a, b), _log_divided_difference(b, c)
    d_abc = (d_bc - d_ab) / np.maximum(c - a, 1e-300)
    alpha1 = d_ab - d_abc * (a + b)
    alpha0 = np.log(a) - a * (d_ab - d_abc * b)
    return alpha0, alpha1, d_abc


#: Points per block of the elementwise passes of ``weighted_log_sum``, which then run in cache.
_BLOCK_POINTS = 4096

#: Position in the six stored entries (00, 01, 02, 11, 12, 22) of each entry (i, j) of a symmetric 3×3.
_SYM_INDEX = np.array([[0, 1, 2], [1, 3, 4], [2, 4, 5]])

#: tr(EF) = Σ_j (weight_j e_j f_j) over the six stored entries of symmetric E and F.
_TRACE_WEIGHTS = np.array([1.0, 2.0, 2.0, 1.0, 2.0, 1.0])


@dataclass(frozen=True)
class PencilPoints:
    """SPD(3) data sets prepared once for many ``weighted_log_sum`` calls at moving base points.

    The coefficients of det(Y − μX) are linear in the entries of Y and of adj(Y) once X is fixed,
    so with these stored every call forms them as two batched (1×6)(6×n) products and one
    multiplication per point instead of an adjugate and two trace products.

    Attributes
    ----------
    points : ``(B, n, 3, 3)`` the matrices Y_i (for the eigen-decomposition fallback).
    entries : ``(B, 6, n)`` their six stored entries, each a contiguous run of n numbers.
    adjugate : ``(B, 6, n)`` the entries of adj(Y_i) times ``_TRACE_WEIGHTS``, so that
        tr(adj(Y_i) X) is the dot product of this column with the entries of X.
    det : ``(B, n)`` det Y_i.
    """

    points: np.ndarray
    entries: np.ndarray
    adjugate: np.ndarray
    det: np.ndarray

    @classmethod
    def of(cls, points) -> PencilPoints:
        """Prepare ``points`` of shape ``(B, n, 3, 3)`` (upper triangles read)."""
        points = np.asarray(points, dtype=float)
        batch, n = points.shape[:2]
        entries = np.ascontiguousarray(points.reshape(batch, n, 9)[..., [0, 1, 2, 4, 5, 8]].transpose(0, 2, 1))
        adj = adjugate(tuple(entries[:, j] for j in range(6)))
        det = entries[:, 0] * adj[0] + entries[:, 1] * adj[1] + entries[:, 2] * adj[2]
        return cls(points, entries, np.stack(adj, axis=1) * _TRACE_WEIGHTS[:, None], det)

    def __getitem__(self, rows) -> PencilPoints:
        """The data sets ``rows`` (an index of the leading axis)."""
        return PencilPoints(self.points[rows], self.entries[rows], self.adjugate[rows], self.det[rows])


def weighted_log_sum(x, points, weights, exact_log) -> np.ndarray:
    """Σ_i w_i Log_x(p_i), shape ``(B, 3, 3)``, for ``x`` ``(B, 3, 3)``, ``points`` ``(B, n, 3, 3)`` (or
    their ``PencilPoints``) and ``weights`` ``(B, n)`` (module docstring); ``exact_log(x, y)``
    computes the logs of the points whose spread exceeds ``MAX_SPREAD`` through eigen-decompositions.
    """
    x = np.asarray(x, dtype=float)
    prepared = points if isinstance(points, PencilPoints) else PencilPoints.of(points)
    stacked = prepared.entries
    weights = np.asarray(weights, dtype=float)
    batch, n = weights.shape
    ex = np.stack(entries(x), axis=-1)
    adj_x = np.stack(adjugate(tuple(ex[:, j] for j in range(6))), axis=-1)
    inv_det_x = (1.0 / np.sum(ex[:, :3] * adj_x[:, :3], axis=-1))[:, None]
    c1 = ((adj_x * _TRACE_WEIGHTS)[:, None, :] @ stacked)[:, 0] * inv_det_x
    c2 = (ex[:, None, :] @ prepared.adjugate)[:, 0] * inv_det_x
    c3 = prepared.det * inv_det_x
    polynomial = np.empty((batch, n), dtype=bool)
    alpha0, alpha1, alpha2 = (np.empty((batch, n)) for _ in range(3))
    step = max(1, _BLOCK_POINTS // max(n, 1))
    for start in range(0, batch, step):
        rows = slice(start, start + step)
        mu = _cubic_roots(c1[rows], c2[rows], c3[rows])
        safe = (mu[0] > 0) & (mu[2] <= MAX_SPREAD * mu[0])
        polynomial[rows] = safe
        if not safe.all():
            # Outside the polynomial's range the coefficients are unused (those points go to exact_log).
            mu = tuple(np.where(safe, e, 1.0) for e in mu)
        alpha0[rows], alpha1[rows], alpha2[rows] = log_coefficients(*mu)
    everyone = bool(polynomial.all())
    w_poly = weights if everyone else np.where(polynomial, weights, 0.0)
    # Σ_i (w α₂)_i Y_i X⁻¹ Y_i = Σ_jk (X⁻¹)_jk Σ_i (w α₂)_i (Y_i)_{aj} (Y_i)_{kc}: from the 6×6 matrix of
    # weighted products of entries, one (6×n)(n×6) product per data set.
    products = (stacked * (w_poly * alpha2)[:, None, :]) @ np.swapaxes(stacked, -1, -2)
    # Entry (ac, jk) is the product of the entries (a, j) and (k, c): one (9×9)(9×1) product with X⁻¹.
    outer = products[:, _SYM_INDEX[:, None, :, None], _SYM_INDEX[None, :, None, :]].reshape(batch, 9, 9)
    x_inv = adj_x[:, _SYM_INDEX] * inv_det_x[:, :, None]
    quadratic = (outer @ x_inv.reshape(batch, 9, 1)).reshape(batch, 3, 3)
    linear = (stacked @ (w_poly * alpha1)[..., None])[:, _SYM_INDEX, 0]
    total = np.sum(w_poly * alpha0, axis=-1)[:, None, None] * x + linear + quadratic
    if not everyone:
        rows, cols = np.nonzero(~polynomial)
        logs = exact_log(x[rows], prepared.points[rows, cols])
        np.add.at(total, rows, weights[rows, cols][:, None, None] * logs)
    return 0.5 * (total + np.swapaxes(total, -1, -2))
