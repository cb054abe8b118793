"""Flat space R^d: the sanity case of every estimator and the home of ambient baselines."""

from __future__ import annotations

import numpy as np

from engine.manifolds.base import Manifold
from engine.validation import check_int


class Euclidean(Manifold):
    """R^d with the standard inner product (curvature 0, infinite injectivity radius)."""

    kappa_min = 0.0
    kappa_max = 0.0
    injectivity_radius = np.inf
    homogeneous = True

    def __init__(self, dim: int):
        self.dim = check_int("dim", dim)
        self.point_shape = (self.dim,)
        self.name = f"Euclidean({self.dim})"

    @property
    def origin(self) -> np.ndarray:
        return np.zeros(self.dim)

    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.isfinite(x).all(axis=-1)

    def projection(self, x) -> np.ndarray:
        return np.asarray(x, dtype=float)

    def to_tangent(self, x, v) -> np.ndarray:
        return np.broadcast_to(np.asarray(v, dtype=float), np.broadcast_shapes(np.shape(x), np.shape(v))).copy()

    def exp(self, x, v) -> np.ndarray:
        return np.asarray(x, dtype=float) + v

    def log(self, x, y) -> np.ndarray:
        return np.asarray(y, dtype=float) - x

    def dist(self, x, y) -> np.ndarray:
        return np.linalg.norm(np.asarray(y, dtype=float) - x, axis=-1)

    def parallel_transport(self, x, y, v) -> np.ndarray:
        return self.to_tangent(y, v)

    def tangent_basis(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.broadcast_to(np.eye(self.dim), x.shape[:-1] + (self.dim, self.dim)).copy()

    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        """Uniform unit vector, one per point: a normalised standard Gaussian (no basis needed)."""
        rng = np.random.default_rng(rng)
        g = rng.standard_normal(np.shape(x))
        return g / np.linalg.norm(g, axis=-1, keepdims=True)

    def to_ambient(self, x) -> np.ndarray:
        return np.asarray(x, dtype=float)

    def from_ambient(self, a) -> np.ndarray:
        return np.asarray(a, dtype=float)

    def random_point(self, n: int, rng=None) -> np.ndarray:
        return np.random.default_rng(rng).standard_normal((check_int("n", n), self.dim))
