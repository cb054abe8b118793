"""The Bures–Wasserstein metric on SPD(k): <U, V>_X = ½ tr(L_X(U) V) with X L + L X = U; its distance
is the 2-Wasserstein distance between N(0, X) and N(0, Y) (Bhatia, Jain & Lim 2019; Han, Mishra,
Jawanpuria & Gao, §5.3). Curvature ≥ 0 but unbounded above near the boundary of the cone, and the
manifold is incomplete: the injectivity radius at X is √λ_min(X)."""

from __future__ import annotations

import numpy as np

from engine.manifolds._linalg import eigvalsh, sqrtm, sym
from engine.manifolds.spd.base import SPD
from engine.manifolds.spd.eigenframe import frame, from_frame, swap, to_frame
from engine.validation import check_positive


class SPDBuresWasserstein(SPD, metric="bures-wasserstein"):
    """SPD(k) with the Bures–Wasserstein metric.

    ``kappa_max`` is ``np.inf`` (k ≥ 2) because the curvature bound 3/(λ₁ + λ₂) of Han et al. (λ₁ ≤ λ₂
    the two smallest eigenvalues) blows up near the boundary of the cone; use :meth:`kappa_max_bound`
    or :meth:`kappa_max_ball` for a domain. ``injectivity_radius`` is 0.0, the infimum over the cone
    of :meth:`injectivity_radius_at`. Not homogeneous; no closed-form parallel transport.
    """

    def __init__(self, k: int, metric: str | None = None):
        super().__init__(k, metric)
        self.kappa_min = 0.0
        self.kappa_max = np.inf if self.k >= 2 else 0.0
        self.injectivity_radius = 0.0

    def frame_scale(self, w: np.ndarray) -> np.ndarray:
        """s_ij = √(2(λ_i + λ_j)): ½ tr(L_X(U) V) with L̃_ij = Ũ_ij/(λ_i + λ_j) in the eigenbasis of X."""
        return np.sqrt(2.0 * (w[..., :, None] + w[..., None, :]))

    def exp(self, x, v) -> np.ndarray:
        """X + V + L_X(V) X L_X(V) = (I + L) X (I + L), shape ``broadcast(x, v)``, defined only while
        I + L_X(V) is positive definite (|v|_x < √λ_min(x) suffices).

        Raises
        ------
        ValueError
            When I + L_X(V) is not positive definite: the geodesic reaches a singular matrix before
            t = 1 and the exponential is undefined.
        """
        w, q = frame(np.asarray(x, dtype=float))
        transport_map = np.eye(self.k) + sym(to_frame(q, np.asarray(v, dtype=float)) / (w[..., :, None] + w[..., None, :]))
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
        return sym(f @ swap(f))

    def log(self, x, y) -> np.ndarray:
        """(XY)^{1/2} + (YX)^{1/2} − 2X with (XY)^{1/2} = X^{1/2}(X^{1/2} Y X^{1/2})^{1/2} X^{-1/2},
        shape ``broadcast(x, y)`` (defined for every pair)."""
        w, q = frame(np.asarray(x, dtype=float))
        root = np.sqrt(w)
        cross_root = sqrtm(sym(root[..., :, None] * to_frame(q, np.asarray(y, dtype=float)) * root[..., None, :]))
        half = root[..., :, None] * cross_root / root[..., None, :]
        return sym(from_frame(q, half + swap(half) - 2.0 * w[..., :, None] * np.eye(self.k)))

    def dist(self, x, y) -> np.ndarray:
        """W₂(N(0, X), N(0, Y)) = min over orthogonal U of ‖X^{1/2} − Y^{1/2} U‖_F, attained at the polar
        factor U = P Qᵀ of Y^{1/2} X^{1/2} = P S Qᵀ (Bhatia, Jain & Lim 2019, Theorem 1).

        Its square is tr X + tr Y − 2 tr (X^{1/2} Y X^{1/2})^{1/2}, but that sum cancels to absolute
        accuracy ~√eps for nearby points (0 instead of 6e−9 one step of 1e−8 away); the difference of
        matrices here keeps an absolute error ~eps·‖X^{1/2}‖.
        """
        root_x, root_y = sqrtm(np.asarray(x, dtype=float)), sqrtm(np.asarray(y, dtype=float))
        p, _, qt = np.linalg.svd(swap(root_y) @ root_x)
        return np.linalg.norm(root_x - root_y @ (p @ qt), axis=(-2, -1))

    def injectivity_radius_at(self, x) -> np.ndarray:
        """√λ_min(X), shape ``(...)`` (cf. Massart & Absil 2020): the lift t ↦ (I + tL_X(v))X^{1/2} has
        length t‖v‖_x, while every singular matrix is at W₂ distance >= √λ_min(X) (Weyl's inequality for
        singular values), so I + tL_X(v) stays positive definite, hence an optimal map, for
        ‖tv‖_x < √λ_min(X); setting λ_min to 0 reaches the boundary at exactly that distance.
        """
        return np.sqrt(np.maximum(eigvalsh(np.asarray(x, dtype=float))[..., 0], 0.0))

    def kappa_max_bound(self, lambda_min_sum) -> float:
        """κ_max = 3/(λ₁ + λ₂) over a region where λ₁ + λ₂ >= ``lambda_min_sum`` (Han, Mishra, Jawanpuria &
        Gao, §5.3, after Han et al. 2021a); ``kappa_max`` (0) for k = 1."""
        bound = check_positive("lambda_min_sum", lambda_min_sum)
        return self.kappa_max if self.k == 1 else 3.0 / bound

    def kappa_max_ball(self, center, radius) -> np.ndarray:
        """Upper bound on sectional curvature over the geodesic ball B_radius(center), shape ``(...)``.

        d(X, Y) = min_U ‖X^{1/2} − Y^{1/2}U‖_F (U orthogonal; Bhatia, Jain & Lim 2019) and Mirsky's
        inequality for singular values give, on the ball, λ₁(Y) + λ₂(Y) >= (√(λ₁(X) + λ₂(X)) − r)² for
        r < √(λ₁(X) + λ₂(X)), hence κ_max <= 3/(√(λ₁ + λ₂) − r)²; ``inf`` for larger r. k = 1: 0.
        """
        if self.k == 1:
            return super().kappa_max_ball(center, radius)
        r = check_positive("radius", radius)
        w = eigvalsh(np.asarray(center, dtype=float))
        margin = np.sqrt(np.maximum(w[..., 0] + w[..., 1], 0.0)) - r
        # Past the margin the ball reaches the boundary of the cone, where curvature is unbounded.
        return np.where(margin > 0, 3.0 / np.where(margin > 0, margin, 1.0) ** 2, np.inf)
