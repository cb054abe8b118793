"""Batched matrix functions of symmetric matrices through eigen-decompositions and Cholesky factors.

All functions act on arrays ``(..., k, k)``. For k = 2 and k = 3 the eigen-decomposition (and for
k ≤ 3 the Cholesky factor) is computed in closed form, elementwise over the batch: LAPACK is called
once per matrix, which costs about 10 µs for a 3×3 matrix, while the closed forms cost well under
1 µs per matrix on large batches.
"""

from __future__ import annotations

import numpy as np


def sym(a: np.ndarray) -> np.ndarray:
    """Symmetric part (a + aᵀ)/2."""
    return 0.5 * (a + np.swapaxes(a, -1, -2))


def _eigvals_2x2(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Ascending eigenvalues ``(..., 2)`` of [[p, q], [q, r]]."""
    half_trace = 0.5 * (p + r)
    half_gap = np.hypot(0.5 * (p - r), q)
    # half_trace ∓ half_gap cancels for the root of smaller magnitude (relative error eps·cond, e.g.
    # 3e-5 for diag(1e-12, 1)); take the larger-magnitude root and the other as det/root (Vieta).
    big = half_trace + np.copysign(half_gap, half_trace)
    other = np.divide(p * r - q * q, big, out=np.zeros_like(big), where=big != 0)
    return np.stack([np.minimum(big, other), np.maximum(big, other)], axis=-1)


def _eigh_2x2(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form eigen-decomposition of symmetric 2×2 matrices, eigenvalues ascending."""
    p, q, r = a[..., 0, 0], a[..., 0, 1], a[..., 1, 1]
    w = _eigvals_2x2(p, q, r)
    # Rotation angle of the eigenbasis; arctan2 stays accurate when q -> 0 or p -> r.
    theta = 0.5 * np.arctan2(2.0 * q, p - r)
    c, s = np.cos(theta), np.sin(theta)
    # Columns: eigenvector of the smaller eigenvalue (-s, c), then of the larger (c, s).
    v = np.stack([np.stack([-s, c], axis=-1), np.stack([c, s], axis=-1)], axis=-1)
    return w, v


def _cross(x, y):
    """Cross product of 3-vectors given as tuples of arrays."""
    return (x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0])


def _dot(x, y):
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]


def _eigh_3x3(a: np.ndarray, vectors: bool = True):
    """Closed-form eigen-decomposition of symmetric 3×3 matrices (upper triangle read).

    1. Scale by max|a_ij| (no overflow or underflow), and write C = (A − qI)/p with q = tr A/3 and
       p² = tr((A − qI)²)/6, so that the eigenvalues β of C satisfy Σβ = 0, Σβ² = 6 and
       β = 2 cos(φ + 2πj/3) with φ = arccos(det C / 2)/3 (Smith 1961).
    2. Of the two extreme eigenvalues take the one farther from the middle one, β_s: its gap to the
       others is at least 1.5 (their spread is at least 3), so it is accurate to O(eps) even when
       the other two coincide (where arccos amplifies rounding to O(√eps) for their split), and its
       eigenvector is the longest cross product of two rows of C − β_s I (rank 2, well conditioned).
    3. The other two eigenpairs come from the 2×2 matrix of A restricted to the orthogonal
       complement of that eigenvector, in the closed form of ``_eigh_2x2`` (accurate for close or
       equal eigenvalues), and β_s's eigenvalue is its Rayleigh quotient.

    The result has LAPACK's backward accuracy, ‖A − VΛVᵀ‖ and ‖VᵀV − I‖ of order eps·‖A‖, and
    repeated eigenvalues get an orthonormal basis of their eigenspace (the construction follows
    D. Eberly, "A robust eigensolver for 3×3 symmetric matrices", Geometric Tools, 2014).
    """
    a00, a01, a02 = a[..., 0, 0], a[..., 0, 1], a[..., 0, 2]
    a11, a12, a22 = a[..., 1, 1], a[..., 1, 2], a[..., 2, 2]
    scale = np.maximum.reduce([np.abs(a00), np.abs(a01), np.abs(a02), np.abs(a11), np.abs(a12), np.abs(a22)])
    scale = np.where(scale > 0, scale, 1.0)
    # Divide rather than multiply by 1/scale: the reciprocal of a subnormal scale overflows to inf.
    b00, b01, b02, b11, b12, b22 = (x / scale for x in (a00, a01, a02, a11, a12, a22))
    q = (b00 + b11 + b22) / 3.0
    d0, d1, d2 = b00 - q, b11 - q, b22 - q
    p = np.sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * (b01 * b01 + b02 * b02 + b12 * b12)) / 6.0)
    # A multiple of I has p = 0; C = 0 then still gives three orthonormal vectors below.
    ip = np.divide(1.0, p, out=np.zeros_like(p), where=p > 0)
    c00, c11, c22, c01, c02, c12 = d0 * ip, d1 * ip, d2 * ip, b01 * ip, b02 * ip, b12 * ip
    half_det = 0.5 * (c00 * (c11 * c22 - c12 * c12) - c01 * (c01 * c22 - c12 * c02) + c02 * (c01 * c12 - c11 * c02))
    phi = np.arccos(np.clip(half_det, -1.0, 1.0)) / 3.0
    beta_hi, beta_lo = 2.0 * np.cos(phi), 2.0 * np.cos(phi + 2.0 * np.pi / 3.0)
    hi_separated = beta_hi + beta_lo >= 0.0  # β_hi − β_mid >= β_mid − β_lo with β_mid = −β_hi − β_lo
    beta = np.where(hi_separated, beta_hi, beta_lo)
    rows = ((c00 - beta, c01, c02), (c01, c11 - beta, c12), (c02, c12, c22 - beta))
    cands = [_cross(rows[0], rows[1]), _cross(rows[0], rows[2]), _cross(rows[1], rows[2])]
    sq = [_dot(c, c) for c in cands]
    first = sq[0] >= sq[1]
    longest = np.where(first, sq[0], sq[1])
    last = sq[2] > longest
    scale_v = 1.0 / np.sqrt(np.where(last, sq[2], longest))
    v = tuple(np.where(last, cands[2][i], np.where(first, cands[0][i], cands[1][i])) * scale_v for i in range(3))
    # Orthonormal basis (u, w) of v's complement: zero out the smaller of |v_0|, |v_1|.
    use_x = np.abs(v[0]) > np.abs(v[1])
    h = 1.0 / np.where(use_x, np.hypot(v[0], v[2]), np.hypot(v[1], v[2]))
    zero = np.zeros_like(h)
    u = (np.where(use_x, -v[2] * h, zero), np.where(use_x, zero, v[2] * h), np.where(use_x, v[0] * h, -v[1] * h))
    w = _cross(v, u)

    def times_b(x):
        return (b00 * x[0] + b01 * x[1] + b02 * x[2], b01 * x[0] + b11 * x[1] + b12 * x[2],
                b02 * x[0] + b12 * x[1] + b22 * x[2])

    bu, bw = times_b(u), times_b(w)
    p00, p01, p11 = _dot(u, bu), _dot(w, bu), _dot(w, bw)
    pair = _eigvals_2x2(p00, p01, p11)
    lam_v = _dot(v, times_b(v))
    # The Rayleigh quotient can cross the pair by rounding only; the clamp keeps the order.
    lam_v = np.where(hi_separated, np.maximum(lam_v, pair[..., 1]), np.minimum(lam_v, pair[..., 0]))
    hi = hi_separated[..., None]
    eigenvalues = scale[..., None] * np.where(hi, np.stack([pair[..., 0], pair[..., 1], lam_v], axis=-1),
                                              np.stack([lam_v, pair[..., 0], pair[..., 1]], axis=-1))
    # Diagonal matrices (multiples of I included) get their diagonal and the coordinate vectors, as
    # from LAPACK: any orthonormal basis of a repeated eigenspace is valid, this one is expected.
    diagonal = (a01 == 0) & (a02 == 0) & (a12 == 0)
    any_diagonal = bool(diagonal.any())
    if any_diagonal:
        diag = np.stack([a00, a11, a22], axis=-1)[diagonal]
        order = np.argsort(diag, axis=-1, kind="stable")
        eigenvalues[diagonal] = np.take_along_axis(diag, order, axis=-1)
    if not vectors:
        return eigenvalues, None
    theta = 0.5 * np.arctan2(2.0 * p01, p00 - p11)
    c, s = np.cos(theta), np.sin(theta)
    lo_vec = np.stack([c * w[i] - s * u[i] for i in range(3)], axis=-1)  # (−s, c) in the basis (u, w)
    hi_vec = np.stack([c * u[i] + s * w[i] for i in range(3)], axis=-1)
    v_vec = np.stack(v, axis=-1)
    vecs = np.where(hi[..., None], np.stack([lo_vec, hi_vec, v_vec], axis=-1),
                    np.stack([v_vec, lo_vec, hi_vec], axis=-1))
    if any_diagonal:
        vecs[diagonal] = np.swapaxes(np.eye(3)[order], -1, -2)
    return eigenvalues, vecs


#: Matrices per block of the 3×3 closed form: its ~150 elementwise passes then run in cache
#: (three to four times faster on 10⁵ matrices than one pass over the whole batch).
_CHUNK = 2048


def _eigh_3x3_chunked(a: np.ndarray, vectors: bool):
    flat = a.reshape(-1, 3, 3)
    w = np.empty((len(flat), 3))
    v = np.empty((len(flat), 3, 3)) if vectors else None
    for start in range(0, len(flat), _CHUNK):
        block = slice(start, start + _CHUNK)
        w[block], vecs = _eigh_3x3(flat[block], vectors)
        if vectors:
            v[block] = vecs
    return w.reshape(a.shape[:-1]), (v.reshape(a.shape) if vectors else None)


def eigh(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues ``(..., k)`` ascending and orthonormal eigenvectors ``(..., k, k)`` (columns)."""
    a = np.asarray(a, dtype=float)
    if a.shape[-1] == 2:
        return _eigh_2x2(a)
    if a.shape[-1] == 3:
        return _eigh_3x3_chunked(a, True)
    return np.linalg.eigh(a)


def eigvalsh(a: np.ndarray) -> np.ndarray:
    """Eigenvalues ``(..., k)`` ascending of symmetric matrices, without eigenvectors.

    For k = 2 they are m ± hypot((a₀₀ − a₁₁)/2, a₀₁) with m = (a₀₀ + a₁₁)/2 (reads the upper triangle,
    like ``eigh``), the root of smaller magnitude taken from the determinant; for k = 3 they are those
    of ``_eigh_3x3``.
    """
    a = np.asarray(a, dtype=float)
    if a.shape[-1] == 2:
        return _eigvals_2x2(a[..., 0, 0], a[..., 0, 1], a[..., 1, 1])
    if a.shape[-1] == 3:
        return _eigh_3x3_chunked(a, False)[0]
    return np.linalg.eigvalsh(a)


def funcm(a: np.ndarray, f) -> np.ndarray:
    """Matrix function U f(Λ) Uᵀ of symmetric matrices ``a``; ``f`` acts elementwise on eigenvalues."""
    w, v = eigh(a)
    return (v * f(w)[..., None, :]) @ np.swapaxes(v, -1, -2)


def expm(a: np.ndarray) -> np.ndarray:
    """Matrix exponential of symmetric matrices."""
    return funcm(a, np.exp)


def logm(a: np.ndarray) -> np.ndarray:
    """Matrix logarithm of SPD matrices (eigenvalues clipped at the smallest positive double)."""
    return funcm(a, lambda w: np.log(np.maximum(w, np.finfo(float).tiny)))


def sqrtm(a: np.ndarray) -> np.ndarray:
    """Principal square root of symmetric positive semi-definite matrices."""
    return funcm(a, lambda w: np.sqrt(np.maximum(w, 0.0)))


def invsqrtm(a: np.ndarray) -> np.ndarray:
    """Inverse principal square root of SPD matrices."""
    return funcm(a, lambda w: 1.0 / np.sqrt(w))


def cholesky_congruence(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """G W Gᵀ with G the Cholesky factor of X (X = G Gᵀ), shape ``broadcast(x, w).shape``."""
    g = np.linalg.cholesky(x)
    return sym(g @ w @ np.swapaxes(g, -1, -2))


def cholesky(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cholesky factor L (X = L Lᵀ, lower triangular) of SPD matrices ``(..., k, k)`` and its inverse.

    For k ≤ 3 entrywise over the batch (the operations of LAPACK's potrf and trtri, without a call per
    matrix); LAPACK otherwise.
    """
    k = x.shape[-1]
    if k > 3:
        factor = np.linalg.cholesky(x)
        return factor, np.linalg.inv(factor)
    tiny = np.finfo(float).tiny
    factor, inverse = np.zeros(x.shape), np.zeros(x.shape)
    for j in range(k):
        # Rounding can make a Schur complement of a numerically singular X non-positive.
        pivot = np.sqrt(np.maximum(x[..., j, j] - sum(factor[..., j, m] ** 2 for m in range(j)), tiny))
        factor[..., j, j] = pivot
        for i in range(j + 1, k):
            factor[..., i, j] = (x[..., i, j] - sum(factor[..., i, m] * factor[..., j, m] for m in range(j))) / pivot
    for i in range(k):
        inverse[..., i, i] = 1.0 / factor[..., i, i]
        for j in range(i - 1, -1, -1):
            inverse[..., i, j] = -sum(factor[..., i, m] * inverse[..., m, j] for m in range(j, i)) * inverse[..., i, i]
    return factor, inverse


def cholesky_congruence_2x2(x: np.ndarray, a, b, c) -> np.ndarray:
    """G W Gᵀ for 2×2 X = G Gᵀ (Cholesky, closed form) and W = [[a, b], [b, c]], entrywise."""
    g0 = np.sqrt(x[..., 0, 0])
    g1 = x[..., 0, 1] / g0
    # Rounding can make the Schur complement of a numerically singular X non-positive.
    g2 = np.sqrt(np.maximum(x[..., 1, 1] - g1 * g1, np.finfo(float).tiny))
    off = g0 * (g1 * a + g2 * b)
    out = np.empty(off.shape + (2, 2))
    out[..., 0, 0] = g0 * g0 * a
    out[..., 0, 1] = out[..., 1, 0] = off
    out[..., 1, 1] = g1 * g1 * a + 2.0 * g1 * g2 * b + g2 * g2 * c
    return out
