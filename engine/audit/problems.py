"""The data of a DP-RGD audit: a Fréchet-mean problem stored as distinct records with counts.

A replace-one pair for DP-RGD puts n − 1 records on one point and the moved record on another;
storing each distinct record once with its multiplicity makes one clipped gradient cost k
logarithms (k distinct records) instead of n, which lets the audit run DP-RGD on hundreds of
thousands of chains. The objective and its gradients are those of
``engine.estimators.riemannian_problems.FrechetMeanProblem`` on the expanded data set.
"""

from __future__ import annotations

import numpy as np

from engine.estimators.erm import ERMProblem, clip_factor
from engine.validation import check_int, check_positive


class MultisetFrechetProblem(ERMProblem):
    """F(w) = (1/(2n)) Σ_i d²(w, x_i) with the records given as distinct points and counts.

    Parameters
    ----------
    manifold : Manifold
    points : array ``(k, *point_shape)``, the distinct records.
    counts : int array ``(k,)``, their multiplicities (>= 1); n = Σ counts.
    """

    def __init__(self, manifold, points, counts):
        pts = manifold.check_points(points, "points")
        counts = np.asarray(counts)
        if pts.ndim != manifold.point_ndim + 1 or counts.shape != pts.shape[:1]:
            raise ValueError(f"points must be (k, *{manifold.point_shape}) and counts (k,), got {pts.shape} and {counts.shape}")
        if not np.issubdtype(counts.dtype, np.integer) or np.any(counts < 1):
            raise ValueError(f"counts must be integers >= 1, got {counts!r}")
        self.manifold = manifold
        self.points = pts
        self.counts = counts
        self.n = int(counts.sum())
        self.record = np.repeat(np.arange(len(pts)), counts)
        self._expand = (...,) + (None,) * manifold.point_ndim

    def _at(self, w) -> np.ndarray:
        w = np.asarray(w, dtype=float)
        return np.expand_dims(w, w.ndim - self.manifold.point_ndim)

    def per_example_grad(self, w, idx) -> np.ndarray:
        return -self.manifold.log(self._at(w), self.points[self.record[np.asarray(idx)]])

    def clipped_mean_gradient(self, w, idx, clip: float) -> np.ndarray:
        """(1/b) Σ_{i ∈ idx} clip_{L0}(−Log_w x_i), summed per distinct record."""
        clip = check_positive("clip", clip)
        idx = np.asarray(idx)
        share = (self.record[idx][..., None] == np.arange(len(self.points))).mean(axis=-2)  # (..., k)
        at = self._at(w)
        logs = self.manifold.log(at, self.points)
        # ‖Log_w p‖_w = ρ(w, p) by the manifold contract; one log serves both.
        factor = -share * clip_factor(self.manifold.norm(at, logs), clip)
        return np.sum(factor[self._expand] * logs, axis=np.ndim(w) - self.manifold.point_ndim)

    def gradient(self, w) -> np.ndarray:
        """grad F(w) = −(1/n) Σ_j c_j Log_w p_j, without expanding the records."""
        logs = self.manifold.log(self._at(w), self.points)
        weights = (self.counts / self.n)[self._expand]
        return -np.sum(weights * logs, axis=np.ndim(w) - self.manifold.point_ndim)

    def loss(self, w) -> np.ndarray:
        d2 = self.manifold.dist(self._at(w), self.points) ** 2
        return 0.5 * (d2 @ self.counts) / self.n


def far_replace_one_problems(manifold, n, distance, *, center=None):
    """D: n records at p = Exp_m0(R u); D': one of them moved to q = Exp_m0(−R u).

    With R well above the clipping norm plus the distance DP-RGD travels, every gradient of the
    moved record is clipped to L0 and points away from the others', so each step's clipped mean
    moves by (nearly) the full replace-one sensitivity 2·L0/n.

    Returns
    -------
    (MultisetFrechetProblem, MultisetFrechetProblem, str)
        The two problems and a description of the pair.
    """
    n = check_int("n", n, minimum=2)
    r = check_positive("distance", distance)
    m0 = manifold.origin if center is None else manifold.check_points(center, "center")
    u = manifold.tangent_basis(m0)[0]
    p, q = manifold.exp(m0, r * u), manifold.exp(m0, -r * u)
    first = MultisetFrechetProblem(manifold, p[None], np.array([n]))
    second = MultisetFrechetProblem(manifold, np.stack([p, q]), np.array([n - 1, 1]))
    return first, second, f"{n} records at Exp_m0(R u), one moved to Exp_m0(-R u), R = {r:g}"
