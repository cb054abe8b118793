"""Objectives of §5 of Han, Mishra, Jawanpuria & Gao as ``ERMProblem`` s: the principal
eigenvector on the sphere (§5.1) and the weighted Fréchet mean on any manifold (§5.2 SPD
affine-invariant, §5.3 Bures–Wasserstein barycenter, §5.4 hyperbolic structured prediction).

Every method is batched over leading axes of the parameter w and vectorised over the records.
"""

from __future__ import annotations

import numpy as np

from engine.estimators.erm import ERMProblem, clip_factor
from engine.manifolds.sphere import Sphere
from engine.validation import check_finite_array


class PrincipalEigenvector(ERMProblem):
    """F(w) = −(1/n) Σ_i (wᵀz_i)² = −wᵀAw on S^{d−1}, A = (1/n) Σ_i z_i z_iᵀ (problem (2), §5.1).

    grad f_i(w) = (I − wwᵀ)(−2 (wᵀz_i) z_i), so ‖grad f_i‖ <= 2‖z_i‖² and the paper's Lipschitz
    constant is L0 = max_i 2‖z_i‖² (``lipschitz``). That constant is computed *from the data*, as
    in the paper's experiments; a release is only private if L0 (or a bound on ‖z_i‖) is public.

    Parameters
    ----------
    data : array ``(n, d)`` of records z_i (zero-centred features), d >= 2.
    """

    def __init__(self, data):
        z = check_finite_array("data", data)
        if z.ndim != 2 or z.shape[0] < 1 or z.shape[1] < 2:
            raise ValueError(f"data must have shape (n, d) with n >= 1, d >= 2, got shape {z.shape}")
        self.data = z
        self.n, self.d = z.shape
        self.manifold = Sphere(self.d - 1)
        self.covariance = z.T @ z / self.n
        self._squared_norms = np.sum(z * z, axis=1)
        eigenvalues, eigenvectors = np.linalg.eigh(self.covariance)
        self.eigenvalues = eigenvalues
        self.top_eigenvector = eigenvectors[:, -1]

    @property
    def lipschitz(self) -> float:
        """L0 = max_i 2‖z_i‖² (data dependent; see the class notes)."""
        return float(2.0 * np.max(self._squared_norms))

    @property
    def lambda_max(self) -> float:
        """Largest eigenvalue of A; the minimum of F is −λ_max (eigen-decomposition)."""
        return float(self.eigenvalues[-1])

    def per_example_grad(self, w, idx) -> np.ndarray:
        w = np.asarray(w, dtype=float)
        z = self.data[np.asarray(idx)]
        proj = np.sum(z * w[..., None, :], axis=-1, keepdims=True)
        return self.manifold.to_tangent(w[..., None, :], -2.0 * proj * z)

    def clipped_mean_gradient(self, w, idx, clip: float) -> np.ndarray:
        """Closed form of the clipped mean: with s_i = wᵀz_i, ‖grad f_i‖ = 2|s_i|·√(‖z_i‖² − s_i²),
        so the mean is (I − wwᵀ)(−(2/b) Σ_i c_i s_i z_i), c_i = min(1, L0/‖grad f_i‖); O(b·d) per w.

        Since ‖grad f_i‖ <= 2‖z_i‖², nothing is clipped when L0 >= ``lipschitz``; for the full
        batch the mean is then exactly ``gradient(w)`` = (I − wwᵀ)(−2Aw), O(d²) per w.
        """
        w = np.asarray(w, dtype=float)
        idx = np.asarray(idx)
        if clip >= self.lipschitz and idx.shape == (self.n,) and np.array_equal(idx, np.arange(self.n)):
            return self.gradient(w)
        z = self.data[idx]
        s = np.einsum("...bd,...d->...b", z, w) if idx.ndim > 1 else w @ z.T
        sq = self._squared_norms[idx]
        norms = 2.0 * np.abs(s) * np.sqrt(np.maximum(sq - s * s, 0.0))
        weights = clip_factor(norms, clip) * s
        if idx.ndim > 1:
            total = np.einsum("...b,...bd->...d", weights, z)
        else:
            # (..., b) @ (b, d) computed as (zᵀ Wᵀ)ᵀ on the flattened batch: OpenBLAS is several
            # times faster in this layout for long b.
            flat = weights.reshape(-1, weights.shape[-1])
            total = (z.T @ flat.T).T.reshape(weights.shape[:-1] + (self.d,))
        return self.manifold.to_tangent(w, -2.0 / idx.shape[-1] * total)

    def loss(self, w) -> np.ndarray:
        w = np.asarray(w, dtype=float)
        return -np.sum(w * (w @ self.covariance), axis=-1)

    def gradient(self, w) -> np.ndarray:
        w = np.asarray(w, dtype=float)
        return self.manifold.to_tangent(w, -2.0 * w @ self.covariance)

    def excess_risk(self, w) -> np.ndarray:
        """|wᵀAw − λ_max|, shape ``(...)`` (the metric of §6.3)."""
        return np.abs(-self.loss(w) - self.lambda_max)


class FrechetMeanProblem(ERMProblem):
    """Weighted Fréchet objective F(w) = (1/(2n)) Σ_i α_i d²(w, x_i) on ``manifold``.

    grad f_i(w) = −α_i Log_w(x_i), hence ‖grad f_i‖_w = |α_i| d(w, x_i) <= |α_i| D_W: the constant
    ½ makes the per-example Lipschitz constant the one the paper quotes (L0 = D_W in §5.2–5.3,
    L0 = max_i |α_i| D_W in §5.4). With α_i = 1 this is problem (3) of the paper divided by 2 (the
    paper's code computes the gradient −(1/n) Σ Log_w(x_i) of exactly this F); with the
    Bures–Wasserstein metric it is the Wasserstein barycenter of N(0, x_i) (§5.3), and with the
    kernel-ridge weights α(x) of §5.4 (which may be negative) hyperbolic structured prediction.

    Parameters
    ----------
    manifold : Manifold
    points : array ``(n, *point_shape)`` of records x_i on ``manifold``.
    weights : array ``(n,)``, optional; α_i (default 1). Not normalised.
    """

    def __init__(self, manifold, points, weights=None):
        pts = manifold.check_points(points, "points")
        if pts.ndim != manifold.point_ndim + 1:
            raise ValueError(f"points must have shape (n, *{manifold.point_shape}), got shape {pts.shape}")
        self.manifold = manifold
        self.points = pts
        self.n = pts.shape[0]
        if weights is None:
            self.weights = np.ones(self.n)
        else:
            self.weights = check_finite_array("weights", weights)
            if self.weights.shape != (self.n,):
                raise ValueError(f"weights must have shape ({self.n},), got shape {self.weights.shape}")
        self._expand = (...,) + (None,) * manifold.point_ndim

    def _at(self, w) -> np.ndarray:
        """w with an axis for the records inserted before the point axes."""
        w = np.asarray(w, dtype=float)
        return np.expand_dims(w, w.ndim - self.manifold.point_ndim)

    def per_example_grad(self, w, idx) -> np.ndarray:
        idx = np.asarray(idx)
        return -self.weights[idx][self._expand] * self.manifold.log(self._at(w), self.points[idx])

    def clipped_mean_gradient(self, w, idx, clip: float) -> np.ndarray:
        """Clipped mean of −α_i Log_w(x_i) with the norms taken as |α_i| d(w, x_i), which equals
        ‖α_i Log_w(x_i)‖_w by the manifold contract and is cheaper than ``norm`` on SPD."""
        idx = np.asarray(idx)
        at = self._at(w)
        weights = self.weights[idx]
        factor = -weights * clip_factor(np.abs(weights) * self.manifold.dist(at, self.points[idx]), clip)
        logs = self.manifold.log(at, self.points[idx])
        return np.mean(factor[self._expand] * logs, axis=np.ndim(w) - self.manifold.point_ndim)

    def loss(self, w) -> np.ndarray:
        d2 = self.manifold.dist(self._at(w), self.points) ** 2
        return 0.5 * np.mean(self.weights * d2, axis=-1)
