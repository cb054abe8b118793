"""The affine-invariant (Rao–Fisher) metric on SPD(k): <U, V>_X = tr(X⁻¹U X⁻¹V) (Pennec, Fillard &
Ayache 2006), the geometry of the SPD study of Reimherr, Bharath & Soto (2021, §5.1). Hadamard:
curvature in [−1/2, 0], infinite injectivity radius, homogeneous (congruences X ↦ AXAᵀ act transitively).

SPD(2) and SPD(3) take closed forms without eigenvectors (``engine.manifolds._spd2``, ``_spd3``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from engine.manifolds import _spd2, _spd3
from engine.manifolds._linalg import cholesky, cholesky_congruence, cholesky_congruence_2x2, eigh, eigvalsh, expm, sym
from engine.manifolds.spd.base import SPD
from engine.manifolds.spd.eigenframe import TINY, frame, gram, swap, to_frame


class SPDAffine(SPD, metric="affine"):
    """SPD(k) with the affine-invariant metric; κ ∈ [−1/2, 0] (k ≥ 2), injectivity radius ``inf``.

    ``volume_growth`` is c_k = √(k(k² − 1)/12): in polar coordinates Y = η^{1/2} U diag(e^r) Uᵀ η^{1/2}
    the volume density Π_{i<j} sinh(|r_i − r_j|/2) grows like exp(c_k‖r‖), c_k = max_{‖r‖=1} Σ_{i<j} |r_i − r_j|/2.
    """

    homogeneous = True

    def __init__(self, k: int, metric: str | None = None):
        super().__init__(k, metric)
        curved = self.k >= 2
        self.kappa_min = -0.5 if curved else 0.0
        self.kappa_max = 0.0
        self.injectivity_radius = np.inf
        self.volume_growth = float(np.sqrt(self.k * (self.k**2 - 1) / 12.0)) if curved else 0.0

    @property
    def polar_volume(self) -> str | None:
        return "spd-affine" if self.k >= 2 else super().polar_volume

    def ambient_ball_radius(self, radius, centre=None) -> np.ndarray:
        """r_E = λ_max(M)(e^r − 1) around M (I when ``centre`` is ``None``), attained at
        X = M^{1/2} exp(r vvᵀ) M^{1/2} with v M's top eigenvector.

        At I it is the supplement's Proposition 1, ‖X − I‖_F ≤ e^{ρ(I, X)} − 1. Around M, X = M^{1/2} e^L M^{1/2}
        with ‖L‖_F = ρ(M, X) ≤ r, so ‖X − M‖_F = ‖M^{1/2}(e^L − I)M^{1/2}‖_F ≤ λ_max(M)(e^r − 1).
        """
        return self.largest_eigenvalue(centre) * np.expm1(np.asarray(radius, dtype=float))

    def frame_scale(self, w: np.ndarray) -> np.ndarray:
        """s_ij = √(λ_i λ_j): <U, V>_X = tr(X⁻¹UX⁻¹V)."""
        return np.sqrt(w[..., :, None]) * np.sqrt(w[..., None, :])

    def norm(self, x, v) -> np.ndarray:
        """Riemannian norm of ``v`` at ``x``, shape ``broadcast(x, v)[:-2]``.

        k ≤ 3: ‖L⁻¹ V L⁻ᵀ‖_F with X = L Lᵀ (Cholesky in closed form, ``_linalg.cholesky``), which equals
        ‖X^{-1/2} V X^{-1/2}‖_F = tr(X⁻¹VX⁻¹V)^{1/2} (L⁻¹X^{1/2} is orthogonal) without an
        eigen-decomposition. Otherwise √inner(x, v, v).
        """
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        if self.k > 3:
            return super().norm(x, v)
        _, m = cholesky(x)
        if self.k == 2:
            # Entrywise, as the 2×2 paths elsewhere: M V Mᵀ for lower-triangular M = L⁻¹.
            w00 = m[..., 0, 0] ** 2 * v[..., 0, 0]
            w01 = m[..., 0, 0] * (m[..., 1, 0] * v[..., 0, 0] + m[..., 1, 1] * v[..., 0, 1])
            w11 = m[..., 1, 0] * (m[..., 1, 0] * v[..., 0, 0] + 2.0 * m[..., 1, 1] * v[..., 0, 1]) + m[..., 1, 1] ** 2 * v[..., 1, 1]
            return np.sqrt(w00 * w00 + 2.0 * w01 * w01 + w11 * w11)
        return np.linalg.norm(m @ v @ swap(m), axis=(-1, -2))

    # ----- exp, log, dist ------------------------------------------------------------------
    def exp(self, x, v) -> np.ndarray:
        """X^{1/2} expm(X^{-1/2} V X^{-1/2}) X^{1/2}, shape ``broadcast(x, v)``."""
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        if self.k == 2:
            # Cayley–Hamilton: for 2×2, X^{1/2} f(X^{-1/2}VX^{-1/2}) X^{1/2} = f̄ X + f[ν₁, ν₂] (V − mX)
            # with ν = m ∓ δ, f̄ the mean of f(ν) and f[·,·] the divided difference; no eigenvectors
            # are needed (several times faster than eigh on large batches of tiny matrices).
            m, delta, x_entries, n_entries, _ = _spd2.pencil(x, v)
            em = np.exp(m)
            return _spd2.combine(em * np.cosh(delta), x_entries, em * _spd2.sinhc(delta), n_entries)
        g, nu, _ = _pencil(x, v)
        return gram(g, np.exp(nu))

    def log(self, x, y) -> np.ndarray:
        """X^{1/2} logm(X^{-1/2} Y X^{-1/2}) X^{1/2}, shape ``broadcast(x, y)``."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if self.k == 2:
            # Cayley–Hamilton as in `exp`, with f = log on the pencil eigenvalues of (Y, X).
            # The divided difference of log at μ₁, μ₂ is 1/exp[log μ₁, log μ₂] = e^{−mid}/sinhc(half).
            mid, half, x_entries, n_entries = _spd2.log_pencil(x, y)
            return _spd2.combine(mid, x_entries, np.exp(-mid) / _spd2.sinhc(half), n_entries)
        g, mu, _ = _pencil(x, y)
        # Rounding can return a non-positive eigenvalue for a numerically singular y.
        return gram(g, np.log(np.maximum(mu, TINY)))

    def dist(self, x, y) -> np.ndarray:
        """(Σ_i log² μ_i)^{1/2}, μ the eigenvalues of X⁻¹Y, shape ``broadcast(x, y)[:-2]``."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if self.k == 2:
            mid, half, _, _ = _spd2.log_pencil(x, y)
            return np.sqrt(2.0 * (mid * mid + half * half))
        mu = eigvalsh(_congruence(x, y)[2])
        # Rounding can return a non-positive eigenvalue for a numerically singular y.
        return np.linalg.norm(np.log(np.maximum(mu, TINY)), axis=-1)

    def weighted_log_sum(self, x, points, weights) -> np.ndarray:
        """Σ_i w_i Log_x(p_i), shape ``(B, k, k)``, for ``x`` ``(B, k, k)``, ``points`` ``(B, n, k, k)``
        (or ``log_sum_points(points)``) and ``weights`` ``(B, n)``.

        For SPD(2) each log is mid_i X + slope_i N_i (see ``log``), so the sum is
        (Σ w_i mid_i) X + Σ w_i slope_i N_i, formed entrywise without the n log matrices (the
        inner step of the batched Fréchet mean). SPD(3) uses the interpolation polynomial of
        log at the pencil eigenvalues (``engine.manifolds._spd3``). Other k use the generic sum.
        """
        if self.k == 3:
            return _spd3.weighted_log_sum(x, points, weights, self.log)
        if self.k != 2:
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

    def frechet_newton_step(self, x, points, weights) -> tuple[np.ndarray, np.ndarray]:
        """Newton step H⁻¹ Σ_i w_i Log_X(P_i) ``(B, k, k)`` and value ``(B,)`` of F = ½ Σ_i w_i d²(·, P_i)
        at ``x`` ``(B, k, k)``, for ``points`` ``(B, n, k, k)`` (or ``log_sum_points(points)``) and
        weights ``(B, n)`` >= 0.

        Whiten with a factor X = F Fᵀ: V ↦ S = F⁻¹ V F⁻ᵀ is an isometry of T_X SPD onto (Sym(k),
        Frobenius), and C_i = F⁻¹ P_i F⁻ᵀ = R_i diag(e^{μ_i}) R_iᵀ. Then Log_X(P_i) = F log(C_i) Fᵀ and
        F(X) = ½ Σ_i w_i |μ_i|². Along the geodesic Exp_X(t F S Fᵀ) the whitened point is
        C(t) = e^{−tS/2} C e^{−tS/2}, so with f(t) = ½ tr log² C(t), f′ = −tr(S log C(t)) and
        f″(0) = ½ tr(S · Dlog_C[SC + CS]). The derivative of the matrix logarithm acts in C's
        eigenbasis entrywise by the divided differences log[λ_j, λ_k] (Daleckii–Krein; Bhatia,
        *Matrix Analysis*, 1997, Thm. V.3.3), and (λ_j + λ_k)·log[λ_j, λ_k] = 2 h(μ_j − μ_k) with
        h(δ) = (δ/2) coth(δ/2), so the Hessian of ½ d²(·, P_i) is
            H_i[S] = R_i (h(μ_ij − μ_ik) ∘ R_iᵀ S R_i) R_iᵀ,      h >= 1,
        (the eigenvalues (δ/2) coth(δ/2) of Ferreira, Xavier, Costeira & Barroso, *Newton algorithms
        for Riemannian distance related problems on connected locally symmetric manifolds*, 2013).
        H = Σ_i w_i H_i >= Σ_i w_i · I is positive definite for weights >= 0 (a Hadamard space), and
        is solved in an orthonormal basis of Sym(k) (a k(k+1)/2 system); far from the mean, where a
        full step can overshoot, ``frechet_mean`` halves it (``_newton_steps``).
        """
        points = points.points if isinstance(points, _spd3.PencilPoints) else np.asarray(points, dtype=float)
        x = np.asarray(x, dtype=float)
        weights = np.asarray(weights, dtype=float)
        f, _, c = _congruence(x[:, None], points)
        lam, r = eigh(c)
        # Rounding can return a non-positive eigenvalue for a numerically singular point.
        mu = np.log(np.maximum(lam, TINY))
        value = 0.5 * np.einsum("bn,bnj,bnj->b", weights, mu, mu)
        basis = _SymBasis.of(self.k)
        # Eigenvector entries (k, k, B, n) and log-eigenvalues (k, B, n) with the points last, so that
        # the products below run over contiguous rows. u[a, p] = <E_a, r_j r_kᵀ> for the pairs
        # p = (j, k), j <= k: H = Σ_i Σ_p w_i m_p h_p u_p u_pᵀ (m_p = 2 off the diagonal, h
        # symmetric in j, k, h = 1 on it), and Σ_i w_i log C_i = Σ_i Σ_j w_i μ_ij u_(j,j).
        rt = np.ascontiguousarray(np.moveaxis(r, (-2, -1), (0, 1)))
        mt = np.ascontiguousarray(np.moveaxis(mu, -1, 0))
        row, col = basis.row[:, None], basis.col[:, None]
        u = basis.scale * (rt[row, basis.row] * rt[col, basis.col] + rt[col, basis.row] * rt[row, basis.col])
        off = basis.row < basis.col
        half_gap = 0.5 * (mt[basis.row[off]] - mt[basis.col[off]])
        # (δ/2) coth(δ/2) = 1 + δ²/12 + O(δ⁴): the series avoids 0/0 at equal eigenvalues.
        small = np.abs(half_gap) < 1e-4
        pair_weight = np.empty((len(basis.row),) + weights.shape)
        pair_weight[~off] = weights
        pair_weight[off] = 2.0 * weights * np.where(small, 1.0 + half_gap * half_gap / 3.0,
                                                    half_gap / np.tanh(np.where(small, 1.0, half_gap)))
        hessian = np.einsum("apbn,cpbn->bac", u, u * pair_weight, optimize=True)
        gradient = np.einsum("bn,jbn,ajbn->ba", weights, mt, u[:, ~off], optimize=True)
        coef = np.linalg.solve(hessian, gradient[..., None])[..., 0]
        return sym(f[:, 0] @ np.einsum("ba,ajk->bjk", coef, basis.matrices) @ swap(f[:, 0])), value

    def log_sum_points(self, points):
        """SPD(3): the entries, adjugates and determinants of the points (``_spd3.PencilPoints``),
        computed once instead of at every ``weighted_log_sum`` call; other k: ``points``."""
        if self.k == 3:
            return _spd3.PencilPoints.of(points)
        return points

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """E V Eᵀ with E = (Y X⁻¹)^{1/2} = X^{1/2}(X^{-1/2} Y X^{-1/2})^{1/2} X^{-1/2} (Sra & Hosseini 2015)."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        v = np.asarray(v, dtype=float)
        g, mu, h = _pencil(x, y)
        # Rounding can return a slightly negative eigenvalue for a numerically singular y.
        root = np.sqrt(np.maximum(mu, 0.0))
        return sym(g @ (root[..., :, None] * (swap(h) @ v @ h) * root[..., None, :]) @ swap(g))

    # ----- random directions without eigen-decompositions ----------------------------------
    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        """Direction uniform on the unit sphere of T_XSPD, shape ``(..., k, k)``: G W Gᵀ with X = G Gᵀ
        (Cholesky) and W uniform on the Frobenius unit sphere of Sym(k).

        W ↦ G W Gᵀ is a linear isometry from (Sym(k), Frobenius) onto (T_XSPD, <·,·>_X), since
        tr(X⁻¹ G W Gᵀ X⁻¹ G W' Gᵀ) = tr(W W'), so it carries the uniform law of one unit sphere onto
        the other's; no eigen-decomposition is needed (the random-walk chains call this at every step).
        """
        x = np.asarray(x, dtype=float)
        coef = self._unit_coordinates(x.shape[:-2], rng)
        if self.k != 2:
            return cholesky_congruence(x, self.from_ambient(coef))
        return cholesky_congruence_2x2(x, coef[..., 0], coef[..., 1] / np.sqrt(2.0), coef[..., 2])

    def random_step(self, x, length, rng=None) -> np.ndarray:
        """Exp_X(t·u) for u uniform on the unit sphere of T_XSPD and t = ``length`` ``(...)``.

        G expm(tW) Gᵀ with G, W as in ``random_unit_tangent`` (with G = X^{1/2}R, R orthogonal,
        Exp_X(t G W Gᵀ) = X^{1/2} expm(t R W Rᵀ) X^{1/2} = G expm(tW) Gᵀ); for k = 2, by Cayley–Hamilton,
        expm(tW) = e^{tm}(cosh(tδ) I + sinhc(tδ)·t(W − mI)) with m = tr W/2 and ±δ the eigenvalues of W − mI.
        """
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


def _congruence(x, y):
    """F, F⁻ᵀ and C = F⁻¹ Y F⁻ᵀ (congruent to X^{-1/2} Y X^{-1/2}) for a factor X = F Fᵀ: the
    Cholesky factor in closed form for 3×3, else Q S from the eigenbasis Q and root eigenvalues S of X."""
    if x.shape[-1] == 3:
        f, f_inv = cholesky(x)
        f_inv_t = swap(f_inv)
        return f, f_inv_t, sym(f_inv @ y @ f_inv_t)
    w, q = frame(x)
    s = np.sqrt(w)
    return q * s[..., None, :], q / s[..., None, :], sym(to_frame(q, y) / (s[..., :, None] * s[..., None, :]))


def _pencil(x, y):
    """G, μ, H with X = GGᵀ, Y = G diag(μ) Gᵀ and H = G⁻ᵀ (Y H = X H diag(μ))."""
    f, f_inv_t, c = _congruence(x, y)
    mu, r = eigh(c)
    return f @ r, mu, f_inv_t @ r




@dataclass(frozen=True)
class _SymBasis:
    """The orthonormal basis E_a of (Sym(k), Frobenius): E_ll and (E_lm + E_ml)/√2 for l < m.

    Attributes
    ----------
    matrices : ``(k(k+1)/2, k, k)`` the E_a.
    row, col : ``(k(k+1)/2,)`` the entry (l, m), l <= m, of each E_a; also the eigenvector pairs
        (j, k), j <= k, of ``SPDAffine.frechet_newton_step`` (as many as basis elements).
    scale : ``(k(k+1)/2, 1, 1, 1)`` ½ (l = m) or 1/√2 (l < m), so that
        <E_a, r_j r_kᵀ> = scale_a (r_lj r_mk + r_mj r_lk) for unit vectors r_j, r_k.
    """

    matrices: np.ndarray
    row: np.ndarray
    col: np.ndarray
    scale: np.ndarray

    @classmethod
    @functools.cache
    def of(cls, k: int) -> _SymBasis:
        """The basis of Sym(k) (built once per k)."""
        row, col = (np.array(a) for a in zip(*[(i, j) for j in range(k) for i in range(j + 1)]))
        diagonal = row == col
        matrices = np.zeros((len(row), k, k))
        matrices[np.arange(len(row)), row, col] = matrices[np.arange(len(row)), col, row] = np.where(
            diagonal, 1.0, np.sqrt(0.5))
        return cls(matrices, row, col, np.where(diagonal, 0.5, np.sqrt(0.5)).reshape(-1, 1, 1, 1))
