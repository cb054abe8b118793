"""Low-rank matrix completion on the Grassmannian Gr(d, r) (§5.5 of Han, Mishra, Jawanpuria &
Gao, after Boumal & Absil 2011/2015 and Balzano et al. 2010).

A d × N matrix X is observed on a mask Ω; record i is column x_i with its observed rows Ω_i.
For a subspace with orthonormal basis W (d × r) each column is fitted by (ridge) least squares,

    v_i(W) = argmin_v ‖1_{Ω_i} ⊙ (x_i − W v)‖² + λ‖v‖²,
    f_i(W) = ‖1_{Ω_i} ⊙ (x_i − W v_i)‖² + λ‖v_i‖²,   F(W) = (1/N) Σ_i f_i(W).

f_i depends on the subspace only (f_i(WQ) = f_i(W) for orthogonal Q). By the envelope theorem
the Euclidean gradient is −2 (1_{Ω_i} ⊙ r_i) v_iᵀ with r_i = x_i − W v_i, and the Riemannian
gradient is its projection (I − WWᵀ)(·) onto the horizontal space. The small ridge λ keeps v_i
defined when a column has fewer than r observed rows.
"""

from __future__ import annotations

import numpy as np

from engine.estimators.erm import ERMProblem
from engine.manifolds.grassmann import Grassmann
from engine.validation import check_finite_array, check_int, check_nonnegative


class MatrixCompletion(ERMProblem):
    """The LRMC objective above as an ``ERMProblem`` on ``Grassmann(d, rank)``.

    Parameters
    ----------
    values : array ``(N, d)``; row i is column x_i of X (entries outside ``mask`` are ignored).
    mask : boolean array ``(N, d)`` of observed entries Ω.
    rank : r, 1 <= r < d.
    ridge : λ >= 0 (default 1e-8).
    """

    def __init__(self, values, mask, *, rank, ridge=1e-8):
        x = check_finite_array("values", values)
        omega = np.asarray(mask)
        if x.ndim != 2 or omega.shape != x.shape or omega.dtype != bool:
            raise ValueError(f"values and mask must be (N, d) arrays, mask boolean; got shapes "
                             f"{x.shape} and {omega.shape} (mask dtype {omega.dtype})")
        self.n, self.d = x.shape
        self.rank = check_int("rank", rank)
        if not self.rank < self.d:
            raise ValueError(f"rank must be < d = {self.d}, got {rank!r}")
        self.ridge = check_nonnegative("ridge", ridge)
        self.mask = omega.astype(float)
        self.values = np.where(omega, x, 0.0)
        self.manifold = Grassmann(self.d, self.rank)

    def coefficients(self, w, values, mask) -> np.ndarray:
        """v_i for records ``(..., b, d)`` (values, 0/1 mask) and bases w ``(..., d, r)``: ``(..., b, r)``."""
        r = self.rank
        # Gram matrices W_Ωᵀ W_Ω = Σ_j 1_Ω(j) w_j w_jᵀ for all records in one product with the
        # row outer products w_j w_jᵀ (d × r²), instead of one tiny matmul per record.
        outer = (w[..., :, :, None] * w[..., :, None, :]).reshape(w.shape[:-2] + (self.d, r * r))
        gram = mask @ outer
        gram = gram.reshape(gram.shape[:-1] + (r, r)) + self.ridge * np.eye(r)
        rhs = (mask * values) @ w
        return np.linalg.solve(gram, rhs[..., None])[..., 0]

    def _residual(self, w, values, mask):
        v = self.coefficients(w, values, mask)
        fit = v @ np.swapaxes(w, -1, -2)
        return mask * (values - fit), v

    def per_example_grad(self, w, idx) -> np.ndarray:
        w = np.asarray(w, dtype=float)
        idx = np.asarray(idx)
        resid, v = self._residual(w, self.values[idx], self.mask[idx])
        egrad = -2.0 * resid[..., :, None] * v[..., None, :]
        return self.manifold.to_tangent(w[..., None, :, :], egrad)

    def gradient(self, w) -> np.ndarray:
        """(1/N) Σ_i grad f_i(W) = −(2/N)(I − WWᵀ) Rᵀ V without forming per-column gradients."""
        w = np.asarray(w, dtype=float)
        resid, v = self._residual(w, self.values, self.mask)
        egrad = -2.0 / self.n * (np.swapaxes(resid, -1, -2) @ v)
        return self.manifold.to_tangent(w, egrad)

    def loss(self, w) -> np.ndarray:
        return self.loss_and_gradient(w)[0]

    def loss_and_gradient(self, w) -> tuple[np.ndarray, np.ndarray]:
        """F(W) and grad F(W) from one fit of the coefficients v_i (the cost of either alone)."""
        w = np.asarray(w, dtype=float)
        resid, v = self._residual(w, self.values, self.mask)
        per_record = np.sum(resid * resid, axis=-1) + self.ridge * np.sum(v * v, axis=-1)
        egrad = -2.0 / self.n * (np.swapaxes(resid, -1, -2) @ v)
        return per_record.mean(axis=-1), self.manifold.to_tangent(w, egrad)

    def predict(self, w) -> np.ndarray:
        """Completed columns X̂_i = W v_i with v_i fitted on the training entries: ``(..., N, d)``."""
        w = np.asarray(w, dtype=float)
        return self.coefficients(w, self.values, self.mask) @ np.swapaxes(w, -1, -2)
