"""Empirical privacy audits: correct mechanisms pass, deliberately under-noised ones are flagged."""

import numpy as np
import pytest

from engine.manifolds import Sphere
from engine.mechanisms import (
    EuclideanLaplace,
    RiemannianLaplace,
    TangentGaussian,
    euclidean_laplace,
    riemannian_laplace,
)
from engine.mechanisms.gaussian import tangent_gaussian
from tests.engine.privacy_check import certified_log_ratio, certified_violation, clopper_pearson

S2 = Sphere(2)
N_DRAWS = 200_000
EPSILON = 1.0


def _neighbours(distance):
    """Two footpoints on S^2 exactly ``distance`` apart, along the great circle x-z."""
    eta = S2.polar_point(0.6, 0.0)
    return eta, S2.polar_point(0.6 + distance, 0.0)


def _cap_events(points, centres, radii):
    """Membership ``(n_centres * n_radii, n_draws)`` of draws in geodesic caps."""
    d = S2.dist(centres[:, None, :], points[None, :, :])
    return np.concatenate([d <= r for r in radii], axis=0)


def _line_centres(eta, eta2, offsets):
    """Points on the geodesic through eta and eta2, at signed distances ``offsets`` from eta."""
    v = S2.log(eta, eta2)
    v = v / np.linalg.norm(v)
    return S2.exp(eta, np.asarray(offsets)[:, None] * v)


def test_clopper_pearson_covers_and_brackets():
    lo, hi = clopper_pearson(np.array([0, 10, 100]), 100, 0.01)
    assert lo[0] == 0.0 and hi[2] == 1.0
    assert lo[1] < 0.1 < hi[1]
    np.testing.assert_allclose(hi[0], 1 - 0.01 ** (1 / 100), rtol=1e-8)


def _laplace_audit(sigma, sensitivity, rng):
    eta, eta2 = _neighbours(sensitivity)
    a = riemannian_laplace(S2, eta, sigma, size=N_DRAWS, rng=rng)
    b = riemannian_laplace(S2, eta2, sigma, size=N_DRAWS, rng=rng)
    centres = _line_centres(eta, eta2, np.linspace(-1.0, 1.2, 12))
    radii = (0.03, 0.1, 0.3, 0.8)
    return certified_log_ratio(_cap_events(a, centres, radii), _cap_events(b, centres, radii))


@pytest.mark.slow
def test_riemannian_laplace_on_sphere_passes_and_underdose_is_flagged():
    sensitivity = 0.2
    mech = RiemannianLaplace(manifold=S2, epsilon=EPSILON, sensitivity=sensitivity)
    assert mech.sigma == pytest.approx(sensitivity / EPSILON)
    ok = _laplace_audit(mech.sigma, sensitivity, np.random.default_rng(11))
    bad = _laplace_audit(mech.sigma / 4, sensitivity, np.random.default_rng(12))
    assert ok <= EPSILON
    assert bad > EPSILON + 1.0


def _euclidean_audit(sigma, sensitivity, rng):
    a0 = S2.polar_point(0.3, 1.0)
    direction = np.array([1.0, -0.5, 0.2]) / np.linalg.norm([1.0, -0.5, 0.2])
    a1 = a0 + sensitivity * direction
    a = euclidean_laplace(S2, a0, sigma, size=N_DRAWS, rng=rng)
    b = euclidean_laplace(S2, a1, sigma, size=N_DRAWS, rng=rng)
    centres = a0 + np.linspace(-1.0, 1.5, 11)[:, None] * direction
    radii = (0.05, 0.15, 0.4, 1.0)

    def events(x):
        d = np.linalg.norm(x[None, :, :] - centres[:, None, :], axis=-1)
        balls = [d <= r for r in radii]
        halves = [(x - a0) @ direction > t for t in np.linspace(-0.5, 1.0, 7)]
        return np.concatenate(balls + [np.stack(halves)], axis=0)

    return certified_log_ratio(events(a), events(b))


@pytest.mark.slow
def test_euclidean_laplace_passes_and_underdose_is_flagged():
    sensitivity = 0.25
    mech = EuclideanLaplace(manifold=S2, epsilon=EPSILON, sensitivity=sensitivity)
    ok = _euclidean_audit(mech.sigma, sensitivity, np.random.default_rng(21))
    bad = _euclidean_audit(mech.sigma / 4, sensitivity, np.random.default_rng(22))
    assert ok <= EPSILON
    assert bad > EPSILON + 1.0


def _gaussian_audit(sigma, sensitivity, delta, rng):
    w = S2.origin
    v0 = np.array([0.2, 0.1, 0.0])
    e = np.array([0.6, 0.8, 0.0])
    v1 = v0 + sensitivity * e
    mech_points = []
    for v in (v0, v1):
        mech_points.append(S2.exp(w, v + tangent_gaussian(S2, w, sigma, size=N_DRAWS, rng=rng)))
    thresholds = np.linspace(-3.0, 4.0, 29) * sigma
    basis = np.stack([e, np.array([-0.8, 0.6, 0.0])])

    def events(x):
        coords = S2.log(w, x) @ basis.T
        half = [(coords[:, 0] - e @ v0) > t for t in thresholds]
        slab = [np.abs(coords[:, 1] - v0[:2] @ basis[1, :2]) < t for t in (0.5 * sigma, sigma)]
        return np.stack(half + slab)

    return certified_violation(events(mech_points[0]), events(mech_points[1]), EPSILON) - delta


@pytest.mark.slow
def test_tangent_gaussian_passes_and_underdose_is_flagged():
    sensitivity, delta = 0.05, 1e-3
    mech = TangentGaussian(manifold=S2, epsilon=EPSILON, delta=delta, sensitivity=sensitivity, base_point=S2.origin)
    ok = _gaussian_audit(mech.sigma, sensitivity, delta, np.random.default_rng(31))
    bad = _gaussian_audit(mech.sigma / 4, sensitivity, delta, np.random.default_rng(32))
    assert ok <= 0.0
    # The true δ(ε = 1) of the under-noised mechanism is about 0.148 (Balle & Wang's formula).
    assert bad > 0.1
