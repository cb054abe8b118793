"""Symmetric positive-definite matrices SPD(k) with three Riemannian metrics.

One class, :class:`SPD`, with the metric chosen at construction:

``"affine"``
    Affine-invariant (Rao–Fisher) metric <U, V>_X = tr(X⁻¹U X⁻¹V) (Pennec, Fillard & Ayache 2006);
    the geometry of the SPD study of Reimherr, Bharath & Soto (2021, §5.1). Hadamard: curvature in
    [−1/2, 0], infinite injectivity radius.
``"log-euclidean"``
    Pullback of the Frobenius metric by the matrix logarithm (Arsigny et al. 2007): flat and complete.
``"bures-wasserstein"``
    <U, V>_X = ½ tr(L_X(U) V) with X L + L X = U; its distance is the 2-Wasserstein distance between
    N(0, X) and N(0, Y) (Bhatia, Jain & Lim 2019; Han, Mishra, Jawanpuria & Gao, §5.3). Curvature
    ≥ 0 but unbounded above, and the manifold is incomplete (see :meth:`SPD.injectivity_radius_at`).

Every metric is diagonal in the eigenbasis X = Q Λ Qᵀ of the base point: with Ũ = QᵀUQ,
<U, V>_X = Σ_ij Ũ_ij Ṽ_ij / s_ij² where s_ij is √(λ_i λ_j) (affine), the divided difference
exp[log λ_i, log λ_j] (log-Euclidean) or √(2(λ_i + λ_j)) (Bures–Wasserstein). ``inner`` and
``tangent_basis`` share that form. Tangent vectors are symmetric k×k matrices.
"""

from __future__ import annotations

import numpy as np

from engine.manifolds import _spd2, _spd3
from engine.manifolds._linalg import (
    cholesky,
    cholesky_congruence,
    cholesky_congruence_2x2,
    eigh,
    eigvalsh,
    expm,
    logm,
    sqrtm,
    sym,
)
from engine.manifolds.base import Manifold
from engine.validation import check_int, check_positive

METRICS = ("affine", "bures-wasserstein", "log-euclidean")

_TINY = np.finfo(float).tiny
_EPS = np.finfo(float).eps
# Relative eigenvalue floor of ``projection``: the result is positive definite with condition
# number at most 1e12, far above the k·eps level below which definiteness is not resolvable.
_PROJECTION_FLOOR = 1e-12


def _swap(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2)


def _to_frame(q: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Qᵀ A Q: ``a`` written in the eigenbasis ``q``."""
    return _swap(q) @ a @ q


def _from_frame(q: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Q A Qᵀ: back from the eigenbasis ``q``."""
    return q @ a @ _swap(q)


def _frame(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues ``(..., k)`` and eigenvectors ``(..., k, k)`` of SPD matrices ``x``."""
    w, q = eigh(x)
    # Rounding can return a zero or slightly negative eigenvalue for a numerically singular point;
    # the floor keeps the square roots, logarithms and divisions below finite.
    return np.maximum(w, _TINY), q


def _gram(g: np.ndarray, f: np.ndarray) -> np.ndarray:
    """G diag(f) Gᵀ, symmetrised against rounding."""
    return sym((g * f[..., None, :]) @ _swap(g))


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


#: Relative margin of the determinant test of ``_clearly_positive_definite_3x3``.
_DET_MARGIN = 1e-10


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


class SPD(Manifold):
    """Symmetric positive-definite k×k matrices; ``metric`` is fixed at construction.

    Parameters
    ----------
    k : int >= 1
        Matrix size; points have shape ``(k, k)`` and ``dim = k(k+1)/2``.
    metric : {"affine", "bures-wasserstein", "log-euclidean"}

    Attributes
    ----------
    kappa_min, kappa_max : float
        Affine: −1/2 and 0 (k ≥ 2). Log-Euclidean: 0 and 0. Bures–Wasserstein: 0 and ``np.inf``,
        because the curvature bound 3/(λ₁ + λ₂) of Han et al. (λ₁ ≤ λ₂ the two smallest
        eigenvalues) blows up near the boundary of the cone; use :meth:`kappa_max_bound` or
        :meth:`kappa_max_ball` for a domain. For k = 1 every metric is flat.
    injectivity_radius : float
        ``np.inf`` for the affine and log-Euclidean metrics (complete, simply connected, κ ≤ 0).
        0.0 for Bures–Wasserstein: the injectivity radius at X is √λ_min(X)
        (:meth:`injectivity_radius_at`), whose infimum over the cone is 0.

    Notes
    -----
    ``to_ambient`` gives the k(k+1)/2 upper-triangle entries (row-major, ``np.triu_indices``) with
    off-diagonal entries scaled by √2, so the Euclidean norm of the coordinates is the Frobenius
    norm of the matrix, as in the ambient baseline of Reimherr et al. (2021, supplement §1.2).
    """

    def __init__(self, k: int, metric: str = "affine"):
        self.k = check_int("k", k)
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
        self.metric = metric
        self.dim = self.k * (self.k + 1) // 2
        self.point_shape = (self.k, self.k)
        self.name = f"SPD({self.k}, {metric})"
        curved = self.k >= 2
        self.kappa_min = -0.5 if metric == "affine" and curved else 0.0
        self.kappa_max = np.inf if metric == "bures-wasserstein" and curved else 0.0
        self.injectivity_radius = 0.0 if metric == "bures-wasserstein" else np.inf
        self.homogeneous = metric in ("affine", "log-euclidean")
        affine_curved = metric == "affine" and curved
        # Polar coordinates Y = η^{1/2} U diag(e^r) Uᵀ η^{1/2}: the volume density Π_{i<j} sinh(|r_i − r_j|/2)
        # grows like exp(c_k‖r‖), c_k = max_{‖r‖=1} Σ_{i<j} |r_i − r_j|/2 = √(k(k² − 1)/12).
        self.volume_growth = float(np.sqrt(self.k * (self.k**2 - 1) / 12.0)) if affine_curved else 0.0
        self._polar_volume = "spd-affine" if affine_curved else None
        self._rows, self._cols = np.triu_indices(self.k)
        self._coord_scale = np.where(self._rows == self._cols, 1.0, np.sqrt(2.0))

    @property
    def origin(self) -> np.ndarray:
        return np.eye(self.k)

    def ambient_ball_radius(self, radius) -> np.ndarray | None:
        """Affine-invariant: r_E = e^r − 1 around I (supplement, Proposition 1: ‖X − I‖_F ≤ e^{ρ(I, X)} − 1);
        log-Euclidean around I the same bound holds (‖e^L − I‖_F ≤ e^{‖L‖} − 1); none for Bures–Wasserstein."""
        if self.metric == "bures-wasserstein":
            return None
        return np.expm1(np.asarray(radius, dtype=float))

    @property
    def polar_volume(self) -> str | None:
        return self._polar_volume or super().polar_volume

    # ----- membership and projections ------------------------------------------------------
    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        """Symmetric within ``atol``·max(1, max|x|) and positive definite (:func:`is_positive_definite`)."""
        x = np.asarray(x, dtype=float)
        asym = np.abs(x - _swap(x)).max(axis=(-1, -2))
        scale = np.maximum(1.0, np.abs(x).max(axis=(-1, -2)))
        return (asym <= atol * scale) & is_positive_definite(x)

    def projection(self, x) -> np.ndarray:
        """Nearest point in Frobenius norm, up to an eigenvalue floor.

        Symmetrises, then clips the eigenvalues at 1e-12·max|λ|: clipping at 0 gives the nearest PSD
        matrix, and the floor keeps the result strictly inside the cone.
        """
        w, q = eigh(sym(np.asarray(x, dtype=float)))
        # The floor is relative so it respects the scale of x; `_TINY` covers the zero matrix.
        floor = np.maximum(_PROJECTION_FLOOR * np.abs(w).max(axis=-1, keepdims=True), _TINY)
        return _gram(q, np.maximum(w, floor))

    def to_tangent(self, x, v) -> np.ndarray:
        """Symmetric part of ``v`` (T_xSPD = Sym(k) for every metric), broadcast against ``x``."""
        v = sym(np.asarray(v, dtype=float))
        return np.broadcast_to(v, np.broadcast_shapes(np.shape(x), v.shape)).copy()

    # ----- metric --------------------------------------------------------------------------
    def _frame_scale(self, w: np.ndarray) -> np.ndarray:
        """s_ij ``(..., k, k)`` with <U, V>_X = Σ Ũ_ij Ṽ_ij / s_ij² in the eigenbasis of X."""
        wi, wj = w[..., :, None], w[..., None, :]
        if self.metric == "affine":
            return np.sqrt(wi) * np.sqrt(wj)
        if self.metric == "log-euclidean":
            # Daleckii–Krein: D expm_{log X}[B] = Q (B̃ ∘ exp[l_i, l_j]) Qᵀ, l = log λ.
            return _spd2.exp_divided_difference(np.log(wi), np.log(wj))
        return np.sqrt(2.0 * (wi + wj))

    def inner(self, x, u, v) -> np.ndarray:
        """Riemannian inner product, shape ``(...)``.

        affine: tr(X⁻¹UX⁻¹V); log-Euclidean: <D log_X[U], D log_X[V]>_F; Bures–Wasserstein:
        ½ tr(L_X(U) V) with XL + LX = U, i.e. L̃_ij = Ũ_ij/(λ_i + λ_j) in the eigenbasis of X.
        """
        w, q = _frame(np.asarray(x, dtype=float))
        s = self._frame_scale(w)
        ut = _to_frame(q, np.asarray(u, dtype=float)) / s
        vt = _to_frame(q, np.asarray(v, dtype=float)) / s
        return np.sum(ut * vt, axis=(-1, -2))

    def norm(self, x, v) -> np.ndarray:
        """Riemannian norm of ``v`` at ``x``, shape ``broadcast(x, v)[:-2]``.

        affine, k ≤ 3: ‖L⁻¹ V L⁻ᵀ‖_F with X = L Lᵀ (Cholesky in closed form, ``_linalg.cholesky``), which
        equals ‖X^{-1/2} V X^{-1/2}‖_F = tr(X⁻¹VX⁻¹V)^{1/2} (L⁻¹X^{1/2} is orthogonal) without an
        eigen-decomposition. Otherwise √inner(x, v, v).
        """
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        if self.metric != "affine" or self.k > 3:
            return super().norm(x, v)
        _, m = cholesky(x)
        if self.k == 2:
            # Entrywise, as the 2×2 paths elsewhere: M V Mᵀ for lower-triangular M = L⁻¹.
            w00 = m[..., 0, 0] ** 2 * v[..., 0, 0]
            w01 = m[..., 0, 0] * (m[..., 1, 0] * v[..., 0, 0] + m[..., 1, 1] * v[..., 0, 1])
            w11 = m[..., 1, 0] * (m[..., 1, 0] * v[..., 0, 0] + 2.0 * m[..., 1, 1] * v[..., 0, 1]) + m[..., 1, 1] ** 2 * v[..., 1, 1]
            return np.sqrt(w00 * w00 + 2.0 * w01 * w01 + w11 * w11)
        return np.linalg.norm(m @ v @ _swap(m), axis=(-1, -2))

    def tangent_basis(self, x) -> np.ndarray:
        """Orthonormal basis ``(..., dim, k, k)``: Q (B_a ∘ s) Qᵀ for the Frobenius-orthonormal
        basis B_a of Sym(k) (E_ii and (E_ij + E_ji)/√2, ordered like ``to_ambient``).

        For the affine metric this is X^{1/2} B X^{1/2} with B = Q B_a Qᵀ; for log-Euclidean it is
        D expm_{log X}[Q B_a Qᵀ]; for Bures–Wasserstein, entry ij of B_a is scaled by √(2(λ_i + λ_j)).
        """
        w, q = _frame(np.asarray(x, dtype=float))
        unit = self.from_ambient(np.eye(self.dim))
        return sym(_from_frame(q[..., None, :, :], unit * self._frame_scale(w)[..., None, :, :]))

    # ----- exp, log, dist ------------------------------------------------------------------
    def exp(self, x, v) -> np.ndarray:
        """Riemannian exponential, shape ``broadcast(x, v)``.

        affine: X^{1/2} expm(X^{-1/2} V X^{-1/2}) X^{1/2}; log-Euclidean: expm(log X + D log_X[V]);
        Bures–Wasserstein: X + V + L_X(V) X L_X(V) = (I + L) X (I + L), defined only while
        I + L_X(V) is positive definite (|v|_x < √λ_min(x) suffices).

        Raises
        ------
        ValueError
            Bures–Wasserstein only, when I + L_X(V) is not positive definite: the geodesic reaches a
            singular matrix before t = 1 and the exponential is undefined.
        """
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        if self.metric == "affine":
            return self._affine_exp(x, v)
        if self.metric == "log-euclidean":
            return self._log_euclidean_exp(x, v)
        return self._bures_wasserstein_exp(x, v)

    def log(self, x, y) -> np.ndarray:
        """Riemannian logarithm, shape ``broadcast(x, y)``.

        affine: X^{1/2} logm(X^{-1/2} Y X^{-1/2}) X^{1/2}; log-Euclidean: D expm_{log X}[log Y − log X];
        Bures–Wasserstein: (XY)^{1/2} + (YX)^{1/2} − 2X, with
        (XY)^{1/2} = X^{1/2}(X^{1/2} Y X^{1/2})^{1/2} X^{-1/2} (defined for every pair).
        """
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if self.metric == "affine":
            return self._affine_log(x, y)
        if self.metric == "log-euclidean":
            return self._log_euclidean_log(x, y)
        return self._bures_wasserstein_log(x, y)

    def dist(self, x, y) -> np.ndarray:
        """Geodesic distance, shape ``broadcast(x, y)[:-2]``.

        affine: (Σ_i log² μ_i)^{1/2}, μ the eigenvalues of X⁻¹Y; log-Euclidean: ‖log X − log Y‖_F;
        Bures–Wasserstein: W₂(N(0, X), N(0, Y)) in its Procrustes form (``_bures_wasserstein_dist``).
        """
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if self.metric == "affine":
            if self.k == 2:
                mid, half, _, _ = _spd2.log_pencil(x, y)
                return np.sqrt(2.0 * (mid * mid + half * half))
            mu = eigvalsh(self._affine_congruence(x, y)[2])
            # Rounding can return a non-positive eigenvalue for a numerically singular y.
            return np.linalg.norm(np.log(np.maximum(mu, _TINY)), axis=-1)
        if self.metric == "log-euclidean":
            return np.linalg.norm(logm(x) - logm(y), axis=(-1, -2))
        return self._bures_wasserstein_dist(x, y)

    def weighted_log_sum(self, x, points, weights) -> np.ndarray:
        """Σ_i w_i Log_x(p_i), shape ``(B, k, k)``, for ``x`` ``(B, k, k)``, ``points`` ``(B, n, k, k)``
        (or ``log_sum_points(points)``) and ``weights`` ``(B, n)``.

        For SPD(2) affine each log is mid_i X + slope_i N_i (see ``_affine_log``), so the sum is
        (Σ w_i mid_i) X + Σ w_i slope_i N_i, formed entrywise without the n log matrices (the
        inner step of the batched Fréchet mean). SPD(3) affine uses the interpolation polynomial of
        log at the pencil eigenvalues (``engine.manifolds._spd3``). Other cases use the generic sum.
        """
        if self.metric == "affine" and self.k == 3:
            return _spd3.weighted_log_sum(x, points, weights, self._affine_log)
        if self.metric != "affine" or self.k != 2:
            return super().weighted_log_sum(x, points, weights)
        x = np.asarray(x, dtype=float)
        weights = np.asarray(weights, dtype=float)
        mid, half, (p, q, r), (n00, n01, n11) = _spd2.log_pencil(x[:, None], np.asarray(points, dtype=float))
        slope = weights * np.exp(-mid) / _spd2.sinhc(half)
        along_x = np.sum(weights * mid, axis=-1)
        off = along_x * q[:, 0] + np.sum(slope * n01, axis=-1)
        entries = np.stack([along_x * p[:, 0] + np.sum(slope * n00, axis=-1), off, off,
                            along_x * r[:, 0] + np.sum(slope * n11, axis=-1)], axis=-1)
        return entries.reshape(off.shape + (2, 2))

    def log_sum_points(self, points):
        """SPD(3) affine: the entries, adjugates and determinants of the points (``_spd3.PencilPoints``),
        computed once instead of at every ``weighted_log_sum`` call; other cases: ``points``."""
        if self.metric == "affine" and self.k == 3:
            return _spd3.PencilPoints.of(points)
        return points

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """Transport of ``v`` ∈ T_xSPD to T_ySPD along the geodesic.

        affine: E V Eᵀ with E = (Y X⁻¹)^{1/2} = X^{1/2}(X^{-1/2} Y X^{-1/2})^{1/2} X^{-1/2}
        (Sra & Hosseini 2015); log-Euclidean: D expm_{log Y}[D log_X[V]] (identity in log
        coordinates). Bures–Wasserstein has no closed form and raises ``ValueError``.
        """
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        v = np.asarray(v, dtype=float)
        if self.metric == "affine":
            g, mu, h = self._affine_pencil(x, y)
            # Rounding can return a slightly negative eigenvalue for a numerically singular y.
            root = np.sqrt(np.maximum(mu, 0.0))
            return sym(g @ (root[..., :, None] * (_swap(h) @ v @ h) * root[..., None, :]) @ _swap(g))
        if self.metric == "log-euclidean":
            wx, qx = _frame(x)
            flat = _from_frame(qx, _to_frame(qx, v) / self._frame_scale(wx))
            wy, qy = _frame(y)
            return sym(_from_frame(qy, _to_frame(qy, flat) * self._frame_scale(wy)))
        return super().parallel_transport(x, y, v)

    # ----- affine-invariant ----------------------------------------------------------------
    @staticmethod
    def _affine_congruence(x, y):
        """F, F⁻ᵀ and C = F⁻¹ Y F⁻ᵀ (congruent to X^{-1/2} Y X^{-1/2}) for a factor X = F Fᵀ: the
        Cholesky factor in closed form for 3×3, else Q S from the eigenbasis Q and root eigenvalues S of X."""
        if x.shape[-1] == 3:
            f, f_inv = cholesky(x)
            f_inv_t = _swap(f_inv)
            return f, f_inv_t, sym(f_inv @ y @ f_inv_t)
        w, q = _frame(x)
        s = np.sqrt(w)
        return q * s[..., None, :], q / s[..., None, :], sym(_to_frame(q, y) / (s[..., :, None] * s[..., None, :]))

    def _affine_pencil(self, x, y):
        """G, μ, H with X = GGᵀ, Y = G diag(μ) Gᵀ and H = G⁻ᵀ (Y H = X H diag(μ))."""
        f, f_inv_t, c = self._affine_congruence(x, y)
        mu, r = eigh(c)
        return f @ r, mu, f_inv_t @ r

    def _affine_exp(self, x, v):
        if self.k == 2:
            # Cayley–Hamilton: for 2×2, X^{1/2} f(X^{-1/2}VX^{-1/2}) X^{1/2} = f̄ X + f[ν₁, ν₂] (V − mX)
            # with ν = m ∓ δ, f̄ the mean of f(ν) and f[·,·] the divided difference; no eigenvectors
            # are needed (several times faster than eigh on large batches of tiny matrices).
            m, delta, x_entries, n_entries, _ = _spd2.pencil(x, v)
            em = np.exp(m)
            return _spd2.combine(em * np.cosh(delta), x_entries, em * _spd2.sinhc(delta), n_entries)
        g, nu, _ = self._affine_pencil(x, v)
        return _gram(g, np.exp(nu))

    def _affine_log(self, x, y):
        if self.k == 2:
            # Cayley–Hamilton as in `_affine_exp`, with f = log on the pencil eigenvalues of (Y, X).
            # The divided difference of log at μ₁, μ₂ is 1/exp[log μ₁, log μ₂] = e^{−mid}/sinhc(half).
            mid, half, x_entries, n_entries = _spd2.log_pencil(x, y)
            return _spd2.combine(mid, x_entries, np.exp(-mid) / _spd2.sinhc(half), n_entries)
        g, mu, _ = self._affine_pencil(x, y)
        # Rounding can return a non-positive eigenvalue for a numerically singular y.
        return _gram(g, np.log(np.maximum(mu, _TINY)))

    # ----- log-Euclidean -------------------------------------------------------------------
    def _log_euclidean_exp(self, x, v):
        w, q = _frame(x)
        log_x_plus_dv = np.log(w)[..., :, None] * np.eye(self.k) + _to_frame(q, v) / self._frame_scale(w)
        return sym(_from_frame(q, expm(sym(log_x_plus_dv))))

    def _log_euclidean_log(self, x, y):
        w, q = _frame(x)
        diff = _to_frame(q, logm(y)) - np.log(w)[..., :, None] * np.eye(self.k)
        return sym(_from_frame(q, sym(diff) * self._frame_scale(w)))

    # ----- Bures–Wasserstein ---------------------------------------------------------------
    def _bures_wasserstein_exp(self, x, v):
        w, q = _frame(x)
        transport_map = np.eye(self.k) + sym(_to_frame(q, v) / (w[..., :, None] + w[..., None, :]))
        lowest = eigvalsh(transport_map)[..., 0]
        if not (lowest > 0).all():
            first = tuple(int(i) for i in np.argwhere(~(lowest > 0))[0])
            raise ValueError(
                f"exp on {self.name} leaves the positive-definite cone: I + L_x(v) has eigenvalue "
                f"{float(lowest[first]):.6g} <= 0 at index {first}; the geodesic reaches a singular matrix "
                f"before t = 1 (|v|_x < sqrt(lambda_min(x)) is always safe)"
            )
        # (I + L) X (I + L) = F Fᵀ with F = Q T Λ^{1/2}: positive semi-definite by construction.
        f = q @ (transport_map * np.sqrt(w)[..., None, :])
        return sym(f @ _swap(f))

    def _bures_wasserstein_log(self, x, y):
        w, q = _frame(x)
        root = np.sqrt(w)
        cross_root = sqrtm(sym(root[..., :, None] * _to_frame(q, y) * root[..., None, :]))
        half = root[..., :, None] * cross_root / root[..., None, :]
        return sym(_from_frame(q, half + _swap(half) - 2.0 * w[..., :, None] * np.eye(self.k)))

    @staticmethod
    def _bures_wasserstein_dist(x, y):
        """min over orthogonal U of ‖X^{1/2} − Y^{1/2} U‖_F, attained at the polar factor U = P Qᵀ of
        Y^{1/2} X^{1/2} = P S Qᵀ (Bhatia, Jain & Lim 2019, Theorem 1).

        Its square is tr X + tr Y − 2 tr (X^{1/2} Y X^{1/2})^{1/2}, but that sum cancels to absolute
        accuracy ~√eps for nearby points (0 instead of 6e−9 one step of 1e−8 away); the difference of
        matrices here keeps an absolute error ~eps·‖X^{1/2}‖.
        """
        root_x, root_y = sqrtm(x), sqrtm(y)
        p, _, qt = np.linalg.svd(_swap(root_y) @ root_x)
        return np.linalg.norm(root_x - root_y @ (p @ qt), axis=(-2, -1))

    # ----- curvature and injectivity bounds of a region ------------------------------------
    def injectivity_radius_at(self, x) -> np.ndarray:
        """Injectivity radius at each point, shape ``(...)``.

        ``inf`` for the affine and log-Euclidean metrics. For Bures–Wasserstein it is √λ_min(X)
        (cf. Massart & Absil 2020): the lift t ↦ (I + tL_X(v))X^{1/2} has length t‖v‖_x, while every
        singular matrix is at W₂ distance >= √λ_min(X) (Weyl's inequality for singular values), so
        I + tL_X(v) stays positive definite, hence an optimal map, for ‖tv‖_x < √λ_min(X); setting
        λ_min to 0 reaches the boundary at exactly that distance.
        """
        x = np.asarray(x, dtype=float)
        if self.metric != "bures-wasserstein":
            return np.full(x.shape[:-2], np.inf)
        return np.sqrt(np.maximum(eigvalsh(x)[..., 0], 0.0))

    def kappa_max_bound(self, lambda_min_sum) -> float:
        """Upper bound on sectional curvature over a region where λ₁ + λ₂ >= ``lambda_min_sum``.

        λ₁ ≤ λ₂ are the two smallest eigenvalues. Bures–Wasserstein: κ_max = 3/(λ₁ + λ₂) (Han,
        Mishra, Jawanpuria & Gao, §5.3, after Han et al. 2021a); other metrics: ``kappa_max``.
        """
        bound = check_positive("lambda_min_sum", lambda_min_sum)
        if self.metric != "bures-wasserstein" or self.k == 1:
            return self.kappa_max
        return 3.0 / bound

    def kappa_max_ball(self, center, radius) -> np.ndarray:
        """Upper bound on sectional curvature over the geodesic ball B_radius(center), shape ``(...)``.

        Bures–Wasserstein: d(X, Y) = min_U ‖X^{1/2} − Y^{1/2}U‖_F (U orthogonal; Bhatia, Jain & Lim
        2019) and Mirsky's inequality for singular values give, on the ball,
        λ₁(Y) + λ₂(Y) >= (√(λ₁(X) + λ₂(X)) − r)² for r < √(λ₁(X) + λ₂(X)), hence
        κ_max <= 3/(√(λ₁ + λ₂) − r)²; ``inf`` for larger r. Other metrics: ``kappa_max``.
        """
        center = np.asarray(center, dtype=float)
        r = check_positive("radius", radius)
        if self.metric != "bures-wasserstein" or self.k == 1:
            return np.full(center.shape[:-2], self.kappa_max)
        w = eigvalsh(center)
        margin = np.sqrt(np.maximum(w[..., 0] + w[..., 1], 0.0)) - r
        # Past the margin the ball reaches the boundary of the cone, where curvature is unbounded.
        return np.where(margin > 0, 3.0 / np.where(margin > 0, margin, 1.0) ** 2, np.inf)

    # ----- coordinates and sampling --------------------------------------------------------
    def to_ambient(self, x) -> np.ndarray:
        """Upper triangle ``(..., k(k+1)/2)``, off-diagonals ×√2 (Euclidean norm = Frobenius norm)."""
        x = np.asarray(x, dtype=float)
        return x[..., self._rows, self._cols] * self._coord_scale

    def from_ambient(self, a) -> np.ndarray:
        """Symmetric matrices ``(..., k, k)`` from ``to_ambient`` coordinates (not necessarily PD)."""
        a = np.asarray(a, dtype=float)
        if a.ndim < 1 or a.shape[-1] != self.dim:
            raise ValueError(
                f"ambient coordinates of {self.name} must have trailing size {self.dim}, got shape {a.shape}"
            )
        entries = a / self._coord_scale
        out = np.zeros(a.shape[:-1] + self.point_shape)
        out[..., self._rows, self._cols] = entries
        out[..., self._cols, self._rows] = entries
        return out

    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        """Direction uniform on the unit sphere of T_XSPD, shape ``(..., k, k)``.

        affine: G W Gᵀ with X = G Gᵀ (Cholesky) and W uniform on the Frobenius unit sphere of Sym(k).
        W ↦ G W Gᵀ is a linear isometry from (Sym(k), Frobenius) onto (T_XSPD, <·,·>_X), since
        tr(X⁻¹ G W Gᵀ X⁻¹ G W' Gᵀ) = tr(W W'), so it carries the uniform law of one unit sphere onto
        the other's; no eigen-decomposition is needed (the random-walk chains call this at every
        step). Other metrics: Gaussian coefficients in ``tangent_basis``.
        """
        if self.metric != "affine":
            return super().random_unit_tangent(x, rng)
        x = np.asarray(x, dtype=float)
        coef = self._unit_coordinates(x.shape[:-2], rng)
        if self.k != 2:
            return cholesky_congruence(x, self.from_ambient(coef))
        return cholesky_congruence_2x2(x, coef[..., 0], coef[..., 1] / np.sqrt(2.0), coef[..., 2])

    def random_step(self, x, length, rng=None) -> np.ndarray:
        """Exp_X(t·u) for u uniform on the unit sphere of T_XSPD and t = ``length`` ``(...)``.

        affine: G expm(tW) Gᵀ with G, W as in ``random_unit_tangent`` (with G = X^{1/2}R, R orthogonal,
        Exp_X(t G W Gᵀ) = X^{1/2} expm(t R W Rᵀ) X^{1/2} = G expm(tW) Gᵀ); for k = 2, by Cayley–Hamilton,
        expm(tW) = e^{tm}(cosh(tδ) I + sinhc(tδ)·t(W − mI)) with m = tr W/2 and ±δ the eigenvalues of W − mI.
        """
        if self.metric != "affine":
            return super().random_step(x, length, rng)
        x = np.asarray(x, dtype=float)
        t = np.asarray(length, dtype=float)
        coef = self._unit_coordinates(x.shape[:-2], rng)
        if self.k != 2:
            return cholesky_congruence(x, expm(t[..., None, None] * self.from_ambient(coef)))
        a, b, c = coef[..., 0], coef[..., 1] / np.sqrt(2.0), coef[..., 2]
        m, n00 = 0.5 * (a + c), 0.5 * (a - c)
        delta = t * np.hypot(n00, b)
        em = np.exp(t * m)
        diagonal, slope = em * np.cosh(delta), em * _spd2.sinhc(delta) * t
        return cholesky_congruence_2x2(x, diagonal + slope * n00, slope * b, diagonal - slope * n00)

    def _unit_coordinates(self, batch: tuple, rng) -> np.ndarray:
        """``(*batch, dim)`` ``to_ambient`` coordinates of W uniform on the Frobenius unit sphere of Sym(k)."""
        coef = np.random.default_rng(rng).standard_normal(batch + (self.dim,))
        return coef / np.linalg.norm(coef, axis=-1, keepdims=True)

    def random_point(self, n: int, rng=None) -> np.ndarray:
        """``n`` points expm(S), S symmetric with independent N(0, 0.5²) coordinates in the
        Frobenius-orthonormal basis of Sym(k) (diagonal N(0, 0.25), off-diagonal N(0, 0.125)).

        The affine distance to the identity is ‖S‖_F ≈ 0.5·√dim. The smallest eigenvalue is below 0.1
        for about 2 in 10,000 points when k = 3, so Bures–Wasserstein exponentials of length <= 0.3
        (< √0.1) are almost always defined.
        """
        coef = 0.5 * np.random.default_rng(rng).standard_normal((check_int("n", n), self.dim))
        return sym(expm(self.from_ambient(coef)))
