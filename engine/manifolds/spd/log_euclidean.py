"""The log-Euclidean metric on SPD(k): the pullback of the Frobenius metric by the matrix logarithm
(Arsigny, Fillard, Pennec & Ayache 2007), <U, V>_X = <D log_X[U], D log_X[V]>_F. Flat, complete and
homogeneous (log X ↦ log X + S are isometries)."""

from __future__ import annotations

import numpy as np

from engine.manifolds import _spd2
from engine.manifolds._linalg import expm, logm, sym
from engine.manifolds.spd.base import SPD
from engine.manifolds.spd.eigenframe import frame, from_frame, to_frame


class SPDLogEuclidean(SPD, metric="log-euclidean"):
    """SPD(k) with the log-Euclidean metric; κ = 0, injectivity radius ``inf``."""

    homogeneous = True

    def __init__(self, k: int, metric: str | None = None):
        super().__init__(k, metric)
        self.kappa_min = 0.0
        self.kappa_max = 0.0
        self.injectivity_radius = np.inf

    def ambient_ball_radius(self, radius, centre=None) -> np.ndarray:
        """r_E = λ_max(M)(e^r − 1) around M (I when ``centre`` is ``None``), attained at exp(log M + r vvᵀ)
        with v M's top eigenvector.

        X = exp(A + L) with A = log M and ‖L‖_F = ρ(M, X) ≤ r; X − M = ∫₀¹ D exp_{A+tL}[L] dt, and the
        Daleckii–Krein derivative has ‖D exp_B[L]‖_F ≤ e^{λ_max(B)}‖L‖_F ≤ λ_max(M) e^{tr}‖L‖_F, whose
        integral is λ_max(M)(e^r − 1).
        """
        return self.largest_eigenvalue(centre) * np.expm1(np.asarray(radius, dtype=float))

    def frame_scale(self, w: np.ndarray) -> np.ndarray:
        """s_ij = exp[log λ_i, log λ_j], the divided difference of exp (Daleckii–Krein:
        D expm_{log X}[B] = Q (B̃ ∘ exp[l_i, l_j]) Qᵀ, l = log λ)."""
        return _spd2.exp_divided_difference(np.log(w[..., :, None]), np.log(w[..., None, :]))

    def exp(self, x, v) -> np.ndarray:
        """expm(log X + D log_X[V]), shape ``broadcast(x, v)``."""
        w, q = frame(np.asarray(x, dtype=float))
        log_x_plus_dv = np.log(w)[..., :, None] * np.eye(self.k) + to_frame(q, np.asarray(v, dtype=float)) / self.frame_scale(w)
        return sym(from_frame(q, expm(sym(log_x_plus_dv))))

    def log(self, x, y) -> np.ndarray:
        """D expm_{log X}[log Y − log X], shape ``broadcast(x, y)``."""
        w, q = frame(np.asarray(x, dtype=float))
        diff = to_frame(q, logm(np.asarray(y, dtype=float))) - np.log(w)[..., :, None] * np.eye(self.k)
        return sym(from_frame(q, sym(diff) * self.frame_scale(w)))

    def dist(self, x, y) -> np.ndarray:
        """‖log X − log Y‖_F, shape ``broadcast(x, y)[:-2]``."""
        return np.linalg.norm(logm(np.asarray(x, dtype=float)) - logm(np.asarray(y, dtype=float)), axis=(-1, -2))

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """D expm_{log Y}[D log_X[V]]: the identity in log coordinates."""
        wx, qx = frame(np.asarray(x, dtype=float))
        flat = from_frame(qx, to_frame(qx, np.asarray(v, dtype=float)) / self.frame_scale(wx))
        wy, qy = frame(np.asarray(y, dtype=float))
        return sym(from_frame(qy, to_frame(qy, flat) * self.frame_scale(wy)))
