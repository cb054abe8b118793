"""Empirical risk minimisation on a manifold: the problem interface and a non-private solver.

Problem (1) of Han, Mishra, Jawanpuria & Gao: minimise F(w) = (1/n) Σ_i f(w; z_i) over w ∈ M.
A problem exposes batched per-example Riemannian gradients, which is all DP-RGD needs
(``engine.mechanisms.dp_rgd``), and the non-private solver below reaches the first-order
condition ‖grad F(w)‖_w < tol by Riemannian gradient descent w ← Exp_w(−η grad F(w)).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from engine.validation import check_int, check_positive


def clip_factor(norms, clip: float) -> np.ndarray:
    """min(1, L0/‖g‖) for gradient norms ``norms``; zero gradients get factor 1."""
    # The maximum keeps the division finite for zero gradients, which need no clipping.
    return np.minimum(1.0, clip / np.maximum(norms, np.finfo(float).tiny))


class ERMProblem(ABC):
    """F(w) = (1/n) Σ_i f_i(w) on ``manifold``; every method is batched over leading axes of w.

    Subclasses set ``manifold`` and ``n`` and implement ``per_example_grad`` and ``loss``;
    ``gradient`` defaults to the mean of all per-example gradients and may be overridden for speed.
    """

    manifold: object
    n: int

    @abstractmethod
    def per_example_grad(self, w, idx) -> np.ndarray:
        """Riemannian gradients grad f_i(w) for records ``idx``.

        Parameters
        ----------
        w : array ``(..., *point_shape)``.
        idx : integer array ``(b,)`` (shared by every w) or ``(..., b)`` (one batch per w).

        Returns
        -------
        array ``(..., b, *point_shape)`` of tangent vectors at w (unclipped).
        """

    @abstractmethod
    def loss(self, w) -> np.ndarray:
        """F(w), shape ``(...)``."""

    def clipped_mean_gradient(self, w, idx, clip: float) -> np.ndarray:
        """(1/b) Σ_{i ∈ idx} grad f_i(w) · min(1, L0/‖grad f_i(w)‖_w), shape ``(..., *point_shape)``.

        The per-example clipping of Algorithm 1 in the Riemannian norm at w: every term has norm
        <= L0 = ``clip``, so replacing one record moves the mean by at most 2·L0/b. Subclasses may
        override it with a closed form that never forms the ``(..., b, *point_shape)`` array.
        """
        w = np.asarray(w, dtype=float)
        axis = w.ndim - self.manifold.point_ndim
        grads = self.per_example_grad(w, idx)
        norms = self.manifold.norm(np.expand_dims(w, axis), grads)
        return np.mean(grads * clip_factor(norms, clip)[(...,) + (None,) * self.manifold.point_ndim], axis=axis)

    def gradient(self, w) -> np.ndarray:
        """grad F(w) = (1/n) Σ_i grad f_i(w), shape ``(..., *point_shape)``."""
        g = self.per_example_grad(w, np.arange(self.n))
        return g.mean(axis=g.ndim - self.manifold.point_ndim - 1)

    def loss_and_gradient(self, w) -> tuple[np.ndarray, np.ndarray]:
        """F(w) and grad F(w) together, shapes ``(...)`` and ``(..., *point_shape)``; subclasses whose
        loss and gradient share an expensive part (a least-squares fit per record) compute it once."""
        return self.loss(w), self.gradient(w)


@dataclass(frozen=True)
class RGDResult:
    """Outcome of ``riemannian_gradient_descent``: minimisers ``(..., *point_shape)``, iteration
    counts, convergence flags and ‖grad F‖ at the returned points ``(...)``, and the loss there."""

    point: np.ndarray
    n_iter: np.ndarray
    converged: np.ndarray
    gradient_norm: np.ndarray
    loss: np.ndarray


def riemannian_gradient_descent(problem: ERMProblem, init, *, step: float, tol: float = 1e-8,
                                max_iter: int = 10_000) -> RGDResult:
    """Non-private Riemannian gradient descent with a fixed step, until ‖grad F(w)‖_w < ``tol``.

    w_{k+1} = Exp_{w_k}(−η grad F(w_k)) (§2 of the paper, "Riemannian steepest descent"). Every
    start of a batch ``init`` of shape ``(..., *point_shape)`` runs independently; a start stops
    moving once its gradient norm is below ``tol``, and ``converged`` is False where ``max_iter``
    was hit first.

    Parameters
    ----------
    problem : ERMProblem
    init : array ``(..., *point_shape)`` of starting points.
    step : η > 0.
    tol : gradient-norm tolerance > 0 (default 1e-8).
    max_iter : iteration cap >= 1.

    Returns
    -------
    RGDResult
    """
    m = problem.manifold
    step = check_positive("step", step)
    tol = check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter)
    w = m.check_points(init, "init").copy()
    batch = w.shape[: w.ndim - m.point_ndim]
    n_iter = np.zeros(batch, dtype=int)
    expand = (...,) + (None,) * m.point_ndim
    for _ in range(max_iter + 1):
        grad = problem.gradient(w)
        norm = m.norm(w, grad)
        active = norm >= tol
        if not active.any() or n_iter.max(initial=0) >= max_iter:
            break
        w = np.where(active[expand], m.exp(w, -step * grad), w)
        n_iter = n_iter + active
    return RGDResult(point=w, n_iter=n_iter, converged=~active, gradient_norm=norm, loss=problem.loss(w))
