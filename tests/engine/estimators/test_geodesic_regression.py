"""Geodesic regression: adjoint-Jacobi gradients, recovery as the noise vanishes, first-order condition."""

import numpy as np
import pytest

from engine.estimators import geodesic_regression
from engine.estimators.geodesic_regression import energy, energy_gradient
from engine.manifolds import Euclidean, Hyperbolic, Kendall, Sphere

SPACES = [Sphere(3), Hyperbolic(3), Kendall(3), Kendall(6), Euclidean(2)]


def _line(m, rng, speed=0.4, spread=0.3):
    p = m.exp(m.origin, m.to_tangent(m.origin, spread * rng.standard_normal(m.origin.shape)))
    v = m.to_tangent(p, rng.standard_normal(p.shape))
    return p, v * speed / m.norm(p, v)


def _data(m, p, v, x, noise, rng, reps=()):
    q = m.geodesic(p, v, x)
    eps = noise * rng.standard_normal(reps + q.shape) / np.sqrt(m.dim)
    return m.exp(np.broadcast_to(q, eps.shape), m.to_tangent(q, eps))


def _transported(m, p, xi, v, h):
    ph = m.exp(p, h * xi)
    return ph, (v if m.kappa_max == m.kappa_min == 0 else m.to_tangent(ph, m.parallel_transport(p, ph, v)))


@pytest.mark.parametrize("m", SPACES, ids=lambda m: m.name)
@pytest.mark.parametrize("clip", [None, 0.2])
def test_gradients_match_central_finite_differences(m, clip):
    rng = np.random.default_rng(0)
    p, v = _line(m, rng, speed=0.9)
    x = rng.uniform(-1, 1, 9)
    y = _data(m, p, v, x, 0.4, rng)
    gp, gv = energy_gradient(m, p, v, x, y, clip=clip)
    h = 1e-5
    for _ in range(4):
        xi = m.to_tangent(p, rng.standard_normal(p.shape))
        fd_p = (energy(m, *_transported(m, p, xi, v, h), x, y, clip=clip)
                - energy(m, *_transported(m, p, xi, v, -h), x, y, clip=clip)) / (2 * h)
        fd_v = (energy(m, p, v + h * xi, x, y, clip=clip) - energy(m, p, v - h * xi, x, y, clip=clip)) / (2 * h)
        np.testing.assert_allclose(m.inner(p, gp, xi), fd_p, rtol=1e-5, atol=1e-8)
        np.testing.assert_allclose(m.inner(p, gv, xi), fd_v, rtol=1e-5, atol=1e-8)


def test_kendall_gradient_uses_curvature_four_on_the_complex_direction():
    # Negative control: the constant-curvature-1 adjoint (the pre-shape sphere's) misses the factor
    # cos(2L) on i·u and fails the finite-difference check on Kendall's space.
    m, rng = Kendall(5), np.random.default_rng(3)
    p, v = _line(m, rng, speed=1.0)
    x = np.array([1.0])
    q = m.exp(p, v)
    y = m.exp(q, 0.3 * m.complex_structure(m.to_tangent(q, v)) / m.norm(p, v))[None]
    gp, _ = energy_gradient(m, p, v, x, y)
    xi = m.complex_structure(v)
    h = 1e-5
    fd = (energy(m, *_transported(m, p, xi, v, h), x, y) - energy(m, *_transported(m, p, xi, v, -h), x, y)) / (2 * h)
    np.testing.assert_allclose(m.inner(p, gp, xi), fd, rtol=1e-5)
    sphere = Sphere(2 * 5 - 1)
    ps, vs, ys = p.reshape(-1), v.reshape(-1), y.reshape(1, -1)
    gs, _ = energy_gradient(sphere, ps, vs, x, ys)
    assert abs(sphere.inner(ps, gs, xi.reshape(-1)) - fd) > 1e-3


@pytest.mark.parametrize("m", [Sphere(2), Hyperbolic(2), Kendall(20)], ids=lambda m: m.name)
def test_recovers_the_geodesic_as_the_noise_vanishes(m):
    rng = np.random.default_rng(1)
    p, v = _line(m, rng)
    x = np.linspace(-1, 1, 40)
    errors = []
    for noise in [1e-2, 1e-4, 1e-6]:
        fit = geodesic_regression(m, x, _data(m, p, v, x, noise, rng, reps=(3,)))
        assert fit.converged.all() and fit.footpoint.shape == (3,) + m.point_shape
        errors.append(max(m.dist(fit.footpoint, p).max(), m.norm(p, fit.velocity - v).max() if m.kappa_min == 0
                          else np.abs(m.norm(fit.footpoint, fit.velocity) - 0.4).max()))
    assert errors[2] < 1e-5 and errors[2] < errors[1] < errors[0]


@pytest.mark.parametrize("m", [Sphere(2), Hyperbolic(2), Kendall(8)], ids=lambda m: m.name)
def test_first_order_condition_and_batched_equals_looped(m):
    rng = np.random.default_rng(2)
    p, v = _line(m, rng)
    x = rng.uniform(-1, 1, 30)
    y = _data(m, p, v, x, 0.2, rng, reps=(2, 2))
    fit = geodesic_regression(m, x, y)
    gp, gv = energy_gradient(m, fit.footpoint, fit.velocity, x, y)
    assert np.max(m.norm(fit.footpoint, gp)) < 1e-7 and np.max(m.norm(fit.footpoint, gv)) < 1e-7
    one = geodesic_regression(m, x, y[1, 0])
    np.testing.assert_allclose(one.footpoint, fit.footpoint[1, 0], atol=1e-7)
    # The fit beats small perturbations of itself.
    xi = m.to_tangent(fit.footpoint, 0.01 * rng.standard_normal(fit.footpoint.shape))
    assert (energy(m, fit.footpoint, fit.velocity + xi, x, y) > fit.energy).all()


def test_bad_input_names_the_value():
    m = Kendall(4)
    y = m.random_point(5, rng=0)
    with pytest.raises(ValueError, match="length n = 5"):
        geodesic_regression(m, np.arange(4.0), y)
    with pytest.raises(ValueError, match="non-finite"):
        geodesic_regression(m, np.array([0, 1, 2, np.nan, 4.0]), y)
    with pytest.raises(ValueError, match="constant"):
        geodesic_regression(m, np.ones(5), y)
    bad = y.copy()
    bad[2, 1, 0] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        geodesic_regression(m, np.arange(5.0), bad)
    with pytest.raises(ValueError, match="k must be"):
        Kendall(2)


def test_kendall_gradients_are_horizontal_and_match_the_record_by_record_form():
    from engine.estimators.geodesic_regression import _generic_gradient

    m, rng = Kendall(7), np.random.default_rng(4)
    p, v = _line(m, rng, speed=0.8)
    x = rng.uniform(-1, 1, 12)
    y = _data(m, p, v, x, 0.3, rng)
    for clip in (None, 0.1):
        fast = energy_gradient(m, p, v, x, y, clip=clip)
        slow = _generic_gradient(m, p, v, x, y, clip)
        for a, b in zip(fast, slow, strict=True):
            np.testing.assert_allclose(a, b, atol=1e-12)
            np.testing.assert_allclose(m.to_tangent(p, a), a, atol=1e-12)
        np.testing.assert_allclose(energy_gradient(m, p, v, x, y, clip=clip, part="v"), fast[1])
