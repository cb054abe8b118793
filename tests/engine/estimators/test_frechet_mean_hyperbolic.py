"""Fréchet means on H^d by Newton steps: first-order condition, a 40-digit reference, batching, bad input."""

import mpmath
import numpy as np
import pytest

from engine.data import hyperbolic_ball
from engine.estimators import frechet_mean
from engine.manifolds import Euclidean, Hyperbolic

mpmath.mp.dps = 40


def _textbook_log_sum(x, points):
    """Σ_i Log_x(p_i)/n from d/sinh d · (p + <x, p>_L x), independent of the engine's frame formulas."""
    inner = -x[..., None, 0] * points[..., 0] + np.einsum("...i,...ni->...n", x[..., 1:], points[..., 1:])
    d = np.arccosh(np.maximum(-inner, 1.0))
    factor = np.where(d > 0, d / np.sinh(np.where(d > 0, d, 1.0)), 1.0)
    return np.mean(factor[..., None] * (points + inner[..., None] * x[..., None, :]), axis=-2)


def _minkowski_norm(v):
    return np.sqrt(np.maximum(np.sum(v[..., 1:] ** 2, axis=-1) - v[..., 0] ** 2, 0.0))


@pytest.mark.parametrize("dim", [2, 3])
def test_newton_mean_meets_the_first_order_condition(dim):
    manifold = Hyperbolic(dim)
    points = hyperbolic_ball(40, 2.0, dim=dim, size=(6,), rng=np.random.default_rng(dim))
    result = frechet_mean(manifold, points, step="newton", tol=1e-12)
    assert result.converged.all() and (result.n_iter <= 8).all()
    assert manifold.belongs(result.mean, atol=1e-12).all()
    assert _minkowski_norm(_textbook_log_sum(result.mean, points)).max() < 1e-10
    assert result.gradient_norm.max() < 1e-10


def _lift(point):
    """A point of H^d in 40 digits from its spatial coordinates (x_0 recomputed exactly)."""
    spatial = [mpmath.mpf(float(v)) for v in point[1:]]
    return [mpmath.sqrt(1 + sum(v * v for v in spatial))] + spatial


def _mp_inner(u, v):
    return -u[0] * v[0] + sum(a * b for a, b in zip(u[1:], v[1:]))


def _reference_mean(points):
    """Fréchet mean in 40 digits: x <- Exp_x(Σ_i Log_x(p_i)/n) with the textbook formulas until |step| < 1e-32."""
    ps = [_lift(p) for p in points]
    x = ps[0]
    for _ in range(500):
        step = [mpmath.mpf(0)] * len(x)
        for p in ps:
            c = max(-_mp_inner(x, p), mpmath.mpf(1))
            d = mpmath.acosh(c)
            factor = d / mpmath.sinh(d) if d > 0 else mpmath.mpf(1)
            step = [s + factor * (pi - c * xi) / len(ps) for s, pi, xi in zip(step, p, x)]
        length = mpmath.sqrt(max(_mp_inner(step, step), 0))
        if length < mpmath.mpf("1e-32"):
            return x
        x = [mpmath.cosh(length) * xi + mpmath.sinh(length) / length * si for xi, si in zip(x, step)]
    raise AssertionError("the 40-digit reference did not converge")


@pytest.mark.parametrize("dim, distance, tolerance", [(2, 0.0, 1e-13), (3, 0.0, 1e-13), (2, 15.0, 1e-8)])
def test_newton_mean_matches_a_40_digit_reference(dim, distance, tolerance):
    # Far from the origin the representation itself resolves only ~1e-16·sinh ρ (module docstring):
    # 3e-10 at ρ = 15.
    manifold = Hyperbolic(dim)
    center = manifold.from_polar(distance, np.ones(dim))
    for seed in range(3):
        points = hyperbolic_ball(8, 1.5, dim=dim, center=center, rng=np.random.default_rng(seed))
        ours = frechet_mean(manifold, points, step="newton", tol=1e-12).mean
        reference = _reference_mean(points)
        # 2 asinh(|x − y|_L / 2): unlike acosh(−<x, y>_L) it does not feel the reference's drift off H^d.
        chord = [u - v for u, v in zip(_lift(ours), reference)]
        gap = 2 * mpmath.asinh(mpmath.sqrt(max(_mp_inner(chord, chord), 0)) / 2)
        assert float(gap) < tolerance, (seed, float(gap))


def test_newton_batched_equals_loop():
    manifold = Hyperbolic(3)
    points = hyperbolic_ball(30, 2.0, dim=3, size=(5,), rng=np.random.default_rng(11))
    batched = frechet_mean(manifold, points, step="newton", tol=1e-12)
    for i in range(5):
        single = frechet_mean(manifold, points[i], step="newton", tol=1e-12)
        np.testing.assert_allclose(batched.mean[i], single.mean, atol=1e-14)
        assert batched.n_iter[i] == single.n_iter


@pytest.mark.parametrize(
    "manifold, kwargs, match",
    [(Euclidean(2), {"step": "newton"}, "'newton' is not available on Euclidean"),
     (Hyperbolic(2), {"step": "fast"}, "a number in \\(0, 2\\), 'auto' or 'newton', got 'fast'"),
     (Hyperbolic(2), {"step": "newton", "weights": [1.0, 1.0, -0.5, 1.0, 1.0]}, "needs weights >= 0")],
)
def test_bad_newton_arguments_raise(manifold, kwargs, match):
    points = manifold.random_point(5, np.random.default_rng(0))
    with pytest.raises(ValueError, match=match):
        frechet_mean(manifold, points, **kwargs)


@pytest.mark.parametrize("dim, radius", [(2, 20.0), (3, 5.0)])
def test_newton_converges_on_widely_spread_data(dim, radius):
    # Full Newton steps from the first point overshoot and circle the mean on some of these sets
    # (|grad| stayed ~7 after 200 steps); the safeguard halves such steps.
    manifold = Hyperbolic(dim)
    points = hyperbolic_ball(50, radius, dim=dim, size=(40,), rng=np.random.default_rng(5))
    result = frechet_mean(manifold, points, step="newton", tol=1e-12, max_iter=200)
    assert result.converged.all()
    assert result.gradient_norm.max() < 1e-10
    if radius <= 5:
        assert _minkowski_norm(_textbook_log_sum(result.mean, points)).max() < 1e-10
