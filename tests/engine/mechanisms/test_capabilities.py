"""Mechanisms read what a space declares about itself, never its class: a new space plugs
in without touching ``engine/mechanisms``."""

import numpy as np
from scipy import stats

from engine.manifolds.base import Manifold
from engine.mechanisms import RiemannianLaplace, radial_law, scale_limit


class ScaledPlane(Manifold):
    """R² with the metric c²·<u, v>: distances c‖x − y‖. Flat, complete, simply connected, so the
    Laplace law's radius is Gamma(2, σ) in its own distance; defined here, unknown to the engine."""

    kappa_min = kappa_max = 0.0
    injectivity_radius = np.inf
    homogeneous = True

    def __init__(self, scale: float):
        self.c, self.dim, self.point_shape, self.name = scale, 2, (2,), f"ScaledPlane({scale:g})"

    origin = property(lambda self: np.zeros(2))

    def belongs(self, x, atol=1e-8):
        return np.isfinite(np.asarray(x)).all(axis=-1)

    def projection(self, x):
        return np.asarray(x, dtype=float)

    def to_tangent(self, x, v):
        return np.asarray(v, dtype=float)

    def exp(self, x, v):
        return np.asarray(x, dtype=float) + v

    def log(self, x, y):
        return np.asarray(y, dtype=float) - x

    def inner(self, x, u, v):
        return self.c**2 * np.einsum("...i,...i->...", u, v)

    def tangent_basis(self, x):
        return np.broadcast_to(np.eye(2) / self.c, np.shape(x)[:-1] + (2, 2))

    def to_ambient(self, x):
        return np.asarray(x, dtype=float)

    def from_ambient(self, a):
        return np.asarray(a, dtype=float)

    def random_point(self, n, rng=None):
        return np.random.default_rng(rng).standard_normal((n, 2))


def test_a_new_flat_space_releases_exactly_through_its_declarations():
    plane = ScaledPlane(3.0)
    assert plane.flat and plane.polar_volume == "flat" and scale_limit(plane) == np.inf
    assert radial_law(plane).name == "Euclidean(2)"
    mechanism = RiemannianLaplace(manifold=plane, epsilon=2.0, sensitivity=0.5)
    assert mechanism.sigma == 0.25  # homogeneous: σ = Δ/ε
    eta = np.array([1.0, -2.0])
    releases = mechanism.release(eta, size=4000, rng=0).points
    rho = plane.dist(eta, releases)
    assert stats.kstest(rho, stats.gamma(2, scale=mechanism.sigma).cdf).pvalue > 1e-3
