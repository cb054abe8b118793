"""The Grassmann manifold Gr(n, p) of p-dimensional subspaces of R^n, canonical metric.

A subspace is represented by an n×p matrix Y with orthonormal columns; Y and YQ (Q ∈ O(p)) are the
same point. Tangent vectors at Y are *horizontal* n×p matrices Δ (YᵀΔ = 0) with the metric
tr(Δ₁ᵀΔ₂); a tangent vector at YQ is represented by ΔQ. With this metric the distance is the
2-norm of the principal angles θ_i between the subspaces, Exp_Y(Δ) = Y W cos Σ Wᵀ + U sin Σ Wᵀ for
the thin SVD Δ = U Σ Wᵀ, the injectivity radius is π/2 and the sectional curvature lies in [0, 2]
when min(p, n − p) >= 2 (Wong 1968; attained bounds, Hildebrandt, Jost & Widman 1980); for
min(p, n − p) = 1 the space is the real projective space RP^{n−1} of constant curvature 1.

References: Edelman, Arias & Smith, *The geometry of algorithms with orthogonality constraints*,
SIAM J. Matrix Anal. Appl. 20 (1998) (Grassmann geodesics and parallel transport); Absil, Mahony &
Sepulchre, *Riemannian geometry of Grassmann manifolds with a view on algorithmic computation*,
Acta Appl. Math. 80 (2004); Bendokat, Zimmermann & Absil, *A Grassmann manifold handbook*, Adv.
Comput. Math. 50 (2024) (logarithm after a Procrustes alignment of the bases); Wong, *Sectional
curvatures of Grassmann manifolds*, PNAS 60 (1968); Han, Mishra, Jawanpuria & Gao, *Differentially
private Riemannian optimization* (§5.5, private matrix completion on Gr(d, r)).
"""

from __future__ import annotations

import numpy as np

from engine.manifolds._linalg import eigh
from engine.manifolds.base import Manifold
from engine.validation import check_int


def _t(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2)


def _svd(a: np.ndarray):
    """Thin SVD ``(u, s, vt)`` of a stack of matrices ``(..., m, k)``; in closed form when k = 1 (the
    matrices of lines, p = 1: u = a/‖a‖, s = ‖a‖, vt = 1, u = e₁ for a = 0), where ``np.linalg.svd``'s
    cost per matrix would dominate the maps and audits that handle thousands of lines at once."""
    if a.shape[-1] != 1:
        return np.linalg.svd(a, full_matrices=False)
    s = np.linalg.norm(a, axis=-2)
    first = np.zeros(a.shape[-2:])
    first[0, 0] = 1.0
    u = np.where(s[..., None, :] > 0, a / np.where(s > 0, s, 1.0)[..., None, :], first)
    return u, s, np.ones(a.shape[:-2] + (1, 1))


def _orthonormalize(y: np.ndarray) -> np.ndarray:
    """One Newton–Schulz step Y (3I − YᵀY)/2 towards the polar factor of Y.

    For Y with orthonormality defect E = YᵀY − I the defect after the step is O(E²), and Y moves
    only by O(E), so the representative (hence the horizontal geodesic) is kept.
    """
    p = y.shape[-1]
    return y @ (1.5 * np.eye(p) - 0.5 * (_t(y) @ y))


class Grassmann(Manifold):
    """Gr(n, p) with points as n×p orthonormal bases; ``origin`` is span(e_1, ..., e_p).

    Parameters
    ----------
    n : int
        Dimension of the ambient space R^n.
    p : int
        Dimension of the subspaces, 1 <= p < n. The intrinsic dimension is p(n − p).

    Notes
    -----
    *Canonical representative.* ``canonical(y)`` returns the basis of span(y) closest (Frobenius)
    to the origin's basis E = [I_p; 0], i.e. the one whose top p×p block is symmetric positive
    semi-definite (orthogonal Procrustes). It is unique when that block is invertible, i.e. when
    no principal angle to the origin equals π/2 — a null set — and its rounding error grows like
    1e-16/cos θ_max near that set. ``random_point`` and ``from_ambient``
    return canonical representatives, so ``from_ambient(to_ambient(x)) == x`` for those points;
    ``exp`` and ``projection`` instead keep the representative near their input.

    *Flat coordinates.* ``to_ambient`` is the orthogonal projector YYᵀ in the coordinates of the
    symmetric matrices (upper triangle, off-diagonals ×√2, D = n(n + 1)/2, Euclidean norm = Frobenius
    norm, as on SPD), which do not depend on the representative; ``from_ambient`` takes the top-p
    eigenvectors of the symmetric matrix (the nearest rank-p projector in Frobenius norm), so it maps
    any point of R^D, e.g. a noisy Euclidean mean of projectors, back onto Gr(n, p).
    """

    kappa_min: float
    kappa_max: float
    injectivity_radius = np.pi / 2
    homogeneous = True

    def __init__(self, n: int, p: int):
        self.n = check_int("n", n, minimum=2)
        self.p = check_int("p", p)
        if self.p >= self.n:
            raise ValueError(f"p must be < n = {self.n}, got {p!r}")
        self.dim = self.p * (self.n - self.p)
        self.point_shape = (self.n, self.p)
        self.name = f"Grassmann({self.n}, {self.p})"
        self._rows, self._cols = np.triu_indices(self.n)
        self._coord_scale = np.where(self._rows == self._cols, 1.0, np.sqrt(2.0))
        if min(self.p, self.n - self.p) >= 2:
            self.kappa_min, self.kappa_max = 0.0, 2.0
        elif self.dim >= 2:
            # Gr(n, 1) ≅ Gr(n, n − 1) ≅ RP^{n−1} with the round metric: constant curvature 1.
            self.kappa_min, self.kappa_max = 1.0, 1.0
        else:
            # Gr(2, 1) is a circle of length π: one-dimensional, so no sectional curvature (flat).
            self.kappa_min, self.kappa_max = 0.0, 0.0
        if self.p == 1:
            # A line turned by π is itself again: the great circles of its lift S^{n−1} close at half length.
            self.geodesic_period = np.pi

    @property
    def origin(self) -> np.ndarray:
        return np.eye(self.n, self.p)

    @property
    def polar_volume(self) -> str | None:
        """``"real-projective"`` for lines (p = 1, RP^{n−1}: sin^{n−2}ρ on [0, π/2]), whose exact
        Laplace sampler the engine has; ``None`` for p > 1, whose polar volume depends on the direction."""
        return "real-projective" if self.p == 1 else None

    def ambient_ball_radius(self, radius, centre=None) -> np.ndarray | None:
        """For lines, ‖xxᵀ − yyᵀ‖_F = √2 sin θ (θ the angle), increasing on [0, π/2]: r_E = √2 sin r
        around every centre (rotations act isometrically on lines and on projectors). ``None`` for p > 1."""
        if self.p != 1:
            return None
        return np.sqrt(2.0) * np.sin(np.minimum(np.asarray(radius, dtype=float), np.pi / 2))

    # ----- membership and projections -----------------------------------------------------
    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        """max |XᵀX − I| <= atol, shape ``(...)``."""
        x = np.asarray(x, dtype=float)
        defect = _t(x) @ x - np.eye(self.p)
        return np.max(np.abs(defect), axis=(-2, -1)) <= atol

    def projection(self, x) -> np.ndarray:
        """Nearest orthonormal basis (Frobenius): the polar factor U Wᵀ of the SVD X = U S Wᵀ."""
        u, _, wt = _svd(np.asarray(x, dtype=float))
        return u @ wt

    def to_tangent(self, x, v) -> np.ndarray:
        """Horizontal projection (I − XXᵀ)V."""
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        return v - x @ (_t(x) @ v)

    def canonical(self, x) -> np.ndarray:
        """Canonical basis of span(x) (see class notes): ``representative(x, origin)``, shape ``(..., n, p)``."""
        return self.representative(x, None)

    def representative(self, x, reference) -> np.ndarray:
        """The basis of each span(x) closest (Frobenius) to the public basis ``reference``, ``(..., n, p)``.

        Orthogonal Procrustes: with the SVD RᵀX = A S Bᵀ the representative is X B Aᵀ, whose overlap
        Rᵀ X B Aᵀ = A S Aᵀ is symmetric positive semi-definite (for lines: the sign with xᵀr >= 0). It
        depends on span(x) and R only (unique unless a principal angle to span(R) is π/2, a null set), so a
        release carries no record's own basis or sign. ``None`` takes the origin's basis: the projectors XXᵀ,
        the flat coordinates, are the same for every representative.
        """
        x = np.asarray(x, dtype=float)
        reference = self.origin if reference is None else np.asarray(reference, dtype=float)
        a, _, bt = _svd(_t(reference) @ x)
        return x @ (_t(bt) @ _t(a))

    def random_representative(self, x, rng=None) -> np.ndarray:
        """Each basis of ``x`` times its own Haar-random Q ∈ O(p) (sign-fixed QR of a Gaussian): the same spans."""
        x = np.asarray(x, dtype=float)
        g = np.random.default_rng(rng).standard_normal(x.shape[:-2] + (self.p, self.p))
        q, r = np.linalg.qr(g)
        return x @ (q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :])

    # ----- principal angles, exp, log ------------------------------------------------------
    def _align(self, x, y):
        """Principal angles and aligned bases of span(x) and span(y).

        With the SVD XᵀY = A C Bᵀ (C = cos θ, descending), YB = XAC + P with P = (I − XXᵀ)YB, whose
        columns are orthogonal with norms s_i = sin θ_i. Angles are θ_i = arctan2(s_i, c_i): the
        sine carries the accuracy for small angles (arccos(c) would lose half the digits) and the
        cosine for angles near π/2.

        Returns ``theta (..., p)``, ``s (..., p)``, ``c (..., p)``, ``a (..., p, p)``,
        ``b (..., p, p)`` and ``perp = P (..., n, p)``.
        """
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        a, c, bt = _svd(_t(x) @ y)
        yb = y @ _t(bt)
        perp = yb - x @ (_t(x) @ yb)
        s = np.linalg.norm(perp, axis=-2)
        return np.arctan2(s, c), s, c, a, _t(bt), perp

    def principal_angles(self, x, y) -> np.ndarray:
        """Principal angles θ_1 <= ... <= θ_p in [0, π/2] between span(x) and span(y), ``(..., p)``."""
        return np.sort(self._align(x, y)[0], axis=-1)

    def projection_distance(self, x, y) -> np.ndarray:
        """‖XXᵀ − YYᵀ‖₂ = sin θ_max, the operator-norm distance of the projectors, shape ``(...)``."""
        return np.sin(np.max(self._align(x, y)[0], axis=-1))

    def dist(self, x, y) -> np.ndarray:
        """d(X, Y) = ‖θ‖₂, the 2-norm of the principal angles, shape ``(...)``."""
        return np.linalg.norm(self._align(x, y)[0], axis=-1)

    def exp(self, x, v) -> np.ndarray:
        """Exp_X(V) = X W cos Σ Wᵀ + U sin Σ Wᵀ for the thin SVD V = U Σ Wᵀ (V horizontal).

        This is the horizontal geodesic of Edelman et al. (1998), so ``log`` at X of the
        result returns V exactly when σ_max(V) < π/2. The output is re-orthonormalised because
        the SVD leaves an O(1e-16) defect that would accumulate over many optimiser steps.
        """
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        u, sigma, wt = _svd(v)
        y = (x @ _t(wt)) * np.cos(sigma)[..., None, :] + u * np.sin(sigma)[..., None, :]
        return _orthonormalize(y @ wt)

    def log(self, x, y) -> np.ndarray:
        """Log_X(Y) = Q Θ Aᵀ with YB = XA cos Θ + Q sin Θ from ``_align``, shape ``(..., n, p)``.

        Equivalently P diag(θ_i / s_i) Aᵀ: Y is first aligned to X by the Procrustes rotation BAᵀ
        (as in Bendokat, Zimmermann & Absil 2024), and unlike the textbook form
        arctan of (I − XXᵀ)Y(XᵀY)^{-1} no matrix is inverted. The result does not depend on the
        representative of Y and is the horizontal vector ``exp`` maps from. At the cut locus (an
        angle of π/2) the logarithm is not unique and one of the minimising vectors is returned.
        """
        theta, s, _, a, _, perp = self._align(x, y)
        # θ/sin θ -> 1 as the angle -> 0; the guard only matters for exactly coincident directions.
        ratio = np.where(s > 1e-300, theta / np.maximum(s, 1e-300), 1.0)
        return (perp * ratio[..., None, :]) @ _t(a)

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """Transport of horizontal ``v`` at X to the basis ``y`` along the minimising geodesic.

        Edelman et al. (1998) give τ(V) = (−X W sin Σ Uᵀ + U cos Σ Uᵀ + I − UUᵀ) V for the
        direction H = U Σ Wᵀ. For H = Log_X(Y) = Q Θ Aᵀ with Q sin Θ = P this simplifies to
            τ(V) = V − X A Pᵀ V − P diag(1/(1 + c_i)) Pᵀ V,
        using sin θ_i = s_i; it is smooth as angles -> 0 (no division by sin θ). τ(V) is the
        horizontal vector at the geodesic's endpoint YBAᵀ; at the basis Y it is τ(V) A Bᵀ.
        """
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        _, _, c, a, b, perp = self._align(x, y)
        pv = _t(perp) @ v
        moved = v - x @ (a @ pv) - perp @ (pv / (1.0 + c)[..., :, None])
        return moved @ (a @ _t(b))

    def tangent_basis(self, x) -> np.ndarray:
        """Orthonormal basis X⊥ E_ij of the horizontal space, shape ``(..., p(n − p), n, p)``.

        X⊥ (n × (n − p)) holds the last n − p columns of a complete QR of X, so [X, X⊥] is
        orthogonal; E_ij runs over the standard basis of R^{(n−p)×p}, index i(p) + j.
        """
        x = np.asarray(x, dtype=float)
        q, _ = np.linalg.qr(x, mode="complete")
        comp = q[..., :, self.p :]
        basis = np.einsum("...ai,jb->...ijab", comp, np.eye(self.p))
        return basis.reshape(x.shape[:-2] + (self.dim, self.n, self.p))

    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        """Horizontal projection of a Gaussian n×p matrix, normalised (uniform direction)."""
        rng = np.random.default_rng(rng)
        x = np.asarray(x, dtype=float)
        v = self.to_tangent(x, rng.standard_normal(x.shape))
        return v / np.linalg.norm(v, axis=(-2, -1), keepdims=True)

    # ----- coordinates and sampling -------------------------------------------------------
    def to_ambient(self, x) -> np.ndarray:
        """Projector XXᵀ as a symmetric matrix's upper triangle, off-diagonals ×√2, shape
        ``(..., n(n + 1)/2)`` (Euclidean norm = Frobenius norm); the same for every basis of span(X)."""
        x = np.asarray(x, dtype=float)
        return (x @ _t(x))[..., self._rows, self._cols] * self._coord_scale

    def from_ambient(self, a) -> np.ndarray:
        """Canonical basis of the top-p eigenvectors of the symmetric matrix of ``to_ambient``
        coordinates ``a`` ``(..., n(n + 1)/2)``, shape ``(..., n, p)``."""
        a = np.asarray(a, dtype=float)
        size = len(self._rows)
        if a.ndim < 1 or a.shape[-1] != size:
            raise ValueError(f"ambient coordinates of {self.name} must have trailing size {size}, got shape {a.shape}")
        m = np.zeros(a.shape[:-1] + (self.n, self.n))
        m[..., self._rows, self._cols] = a / self._coord_scale
        m[..., self._cols, self._rows] = a / self._coord_scale
        _, vecs = eigh(m)
        return self.canonical(vecs[..., :, self.n - self.p :])

    def random_point(self, n: int, rng=None) -> np.ndarray:
        """``n`` uniform (Haar) subspaces as canonical bases, shape ``(n, self.n, self.p)``.

        The span of a Gaussian n×p matrix is uniformly distributed; its basis comes from a QR
        factorisation and is then replaced by the canonical representative.
        """
        g = np.random.default_rng(rng).standard_normal((check_int("n", n), self.n, self.p))
        q, _ = np.linalg.qr(g)
        return self.canonical(q)
