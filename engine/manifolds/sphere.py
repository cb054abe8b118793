"""The unit sphere S^d ⊂ R^{d+1} with the round metric (sectional curvature 1)."""

from __future__ import annotations

import numpy as np

from engine.manifolds.base import Manifold
from engine.validation import check_int


def _sinc(t: np.ndarray) -> np.ndarray:
    """sin(t)/t with the removable singularity at 0 filled in (np.sinc is sin(πx)/(πx))."""
    return np.sinc(t / np.pi)


class Sphere(Manifold):
    """S^d as unit vectors of R^{d+1}; ``origin`` is the north pole e_{d+1}.

    exp_x(v) = cos|v| x + sin|v| v/|v|, log_x(y) = θ u/|u| with u = y − <x,y>x,
    θ = atan2(|u|, <x,y>) (accurate for tiny and near-antipodal pairs, unlike arccos).
    """

    kappa_min = 1.0
    kappa_max = 1.0
    injectivity_radius = np.pi

    def __init__(self, dim: int):
        self.dim = check_int("dim", dim)
        self.point_shape = (self.dim + 1,)
        self.name = f"Sphere({self.dim})"

    @property
    def origin(self) -> np.ndarray:
        e = np.zeros(self.dim + 1)
        e[-1] = 1.0
        return e

    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.abs(np.linalg.norm(x, axis=-1) - 1.0) <= atol

    def projection(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return x / np.linalg.norm(x, axis=-1, keepdims=True)

    def to_tangent(self, x, v) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        return v - np.sum(x * v, axis=-1, keepdims=True) * x

    def exp(self, x, v) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        t = np.linalg.norm(v, axis=-1, keepdims=True)
        y = np.cos(t) * x + _sinc(t) * v
        # Renormalise: rounding drifts |y| away from 1 after many steps of an optimiser.
        return y / np.linalg.norm(y, axis=-1, keepdims=True)

    def _angle_and_residual(self, x, y):
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        c = np.sum(x * y, axis=-1, keepdims=True)
        u = y - c * x
        s = np.linalg.norm(u, axis=-1, keepdims=True)
        return np.arctan2(s, c), u, s

    def log(self, x, y) -> np.ndarray:
        theta, u, s = self._angle_and_residual(x, y)
        # θ/sin θ -> 1 as s -> 0; guard the division for coincident points. For exactly antipodal
        # points the logarithm is not unique and u = 0, so the zero vector is returned.
        factor = np.where(s > 1e-300, theta / np.maximum(s, 1e-300), 1.0)
        return factor * u

    def dist(self, x, y) -> np.ndarray:
        return self._angle_and_residual(x, y)[0][..., 0]

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """Transport along the minimising geodesic: v − <y, v>/(1 + <x, y>) (x + y)."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        v = np.asarray(v, dtype=float)
        c = np.sum(x * y, axis=-1, keepdims=True)
        return v - np.sum(y * v, axis=-1, keepdims=True) / (1.0 + c) * (x + y)

    def tangent_basis(self, x) -> np.ndarray:
        """Rows 1..d of a Householder reflection H with H e_0 = ±x (orthonormal, ⟂ x)."""
        x = np.asarray(x, dtype=float)
        sign = np.where(x[..., :1] >= 0, 1.0, -1.0)
        e0 = np.zeros(self.dim + 1)
        e0[0] = 1.0
        # w = x + sign·e0 has |w|² = 2 + 2|x_0| >= 2, so the reflection is well conditioned.
        w = x + sign * e0
        h = np.eye(self.dim + 1) - 2.0 * w[..., :, None] * w[..., None, :] / np.sum(w * w, axis=-1)[..., None, None]
        return h[..., 1:, :]

    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        rng = np.random.default_rng(rng)
        x = np.asarray(x, dtype=float)
        v = self.to_tangent(x, rng.standard_normal(x.shape))
        return v / np.linalg.norm(v, axis=-1, keepdims=True)

    def to_ambient(self, x) -> np.ndarray:
        return np.asarray(x, dtype=float)

    def from_ambient(self, a) -> np.ndarray:
        return np.asarray(a, dtype=float)

    def random_point(self, n: int, rng=None) -> np.ndarray:
        g = np.random.default_rng(rng).standard_normal((check_int("n", n), self.dim + 1))
        return g / np.linalg.norm(g, axis=-1, keepdims=True)

    def polar_point(self, polar, azimuth) -> np.ndarray:
        """S^2 point at polar angle (from the north pole) and azimuth, shape ``(..., 3)``."""
        if self.dim != 2:
            raise ValueError(f"polar_point needs Sphere(2), got {self.name}")
        polar, azimuth = np.broadcast_arrays(np.asarray(polar, dtype=float), np.asarray(azimuth, dtype=float))
        return np.stack([np.sin(polar) * np.cos(azimuth), np.sin(polar) * np.sin(azimuth), np.cos(polar)], axis=-1)
