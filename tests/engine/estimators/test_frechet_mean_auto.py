"""``frechet_mean``'s default ``step="auto"``: Newton steps where the space has them and the paper's step may
fail or is slow, the paper's t = 0.5 elsewhere; it converges on spread Hᵈ data where the paper's step does not, checked against the first-order
condition at 40 digits."""

import warnings

import mpmath
import numpy as np
import pytest

from engine.data import hyperbolic_ball
from engine.estimators import PAPER_STEP, frechet_mean
from engine.estimators.frechet_mean import TIGHT_TOL
from engine.manifolds import Hyperbolic, Kendall, Sphere


def _log_sum_norm_40_digits(mean, points) -> float:
    """|Σ_i Log_x(p_i)/n| at x = ``mean`` ``(d + 1,)`` in 40-digit arithmetic from the textbook
    Log_x(p) = d/sinh d · (p + <x, p>_L x), d = arccosh(−<x, p>_L) (no engine formula)."""
    with mpmath.workdps(40):
        x = [mpmath.mpf(float(c)) for c in mean]
        total = [mpmath.mpf(0)] * len(x)
        for p in points:
            p = [mpmath.mpf(float(c)) for c in p]
            inner = -x[0] * p[0] + mpmath.fsum(a * b for a, b in zip(x[1:], p[1:]))
            d = mpmath.acosh(max(-inner, mpmath.mpf(1)))
            factor = d / mpmath.sinh(d) if d > 0 else mpmath.mpf(1)
            total = [t + factor * (pi + inner * xi) for t, pi, xi in zip(total, p, x)]
        v = [t / len(points) for t in total]
        return float(mpmath.sqrt(max(mpmath.fsum(c * c for c in v[1:]) - v[0] ** 2, mpmath.mpf(0))))


@pytest.mark.parametrize("dim, radius", [(2, 10.0), (2, 20.0), (2, 30.0), (6, 5.0), (6, 7.5), (6, 10.0)])
def test_the_default_converges_on_spread_hyperbolic_data_where_the_papers_step_does_not(dim, radius):
    manifold = Hyperbolic(dim)
    points = hyperbolic_ball(50, radius, dim=dim, size=(4,), rng=np.random.default_rng(7))
    with np.errstate(over="ignore", invalid="ignore"):  # the paper's step overflows at r = 30
        paper = frechet_mean(manifold, points, step=PAPER_STEP)
    assert not paper.converged.any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the overshooting paper's steps it tries first warn nothing
        result = frechet_mean(manifold, points)
    assert (result.method == "newton").all()
    assert result.converged.all()
    assert result.n_iter.max() < 40
    for mean, records in zip(result.mean, points):
        assert _log_sum_norm_40_digits(mean, records) < 1e-9


def test_the_method_says_which_iteration_ran():
    rng = np.random.default_rng(0)
    concentrated = hyperbolic_ball(30, 0.5, size=(3,), rng=rng)
    assert frechet_mean(Hyperbolic(2), concentrated).method.tolist() == ["gradient"] * 3
    assert frechet_mean(Hyperbolic(2), concentrated, tol=TIGHT_TOL).method.tolist() == ["newton"] * 3
    assert frechet_mean(Hyperbolic(2), concentrated, step=0.5, tol=1e-12).method.tolist() == ["gradient"] * 3
    assert frechet_mean(Sphere(2), Sphere(2).random_point(10, rng), tol=1e-12).method == "gradient"


def test_auto_takes_the_papers_step_on_concentrated_data_at_a_loose_tolerance():
    # Where the paper's step contracts from the start (t·Σ w s coth s < 2) and tol > TIGHT_TOL, auto is that step.
    manifold = Hyperbolic(3)
    points = hyperbolic_ball(40, 1.0, dim=3, size=(5,), rng=np.random.default_rng(3))
    auto, paper = frechet_mean(manifold, points), frechet_mean(manifold, points, step=PAPER_STEP)
    np.testing.assert_array_equal(auto.mean, paper.mean)
    assert (auto.method == "gradient").all() and (paper.method == "gradient").all()


def test_auto_with_negative_weights_takes_the_papers_step():
    points = Hyperbolic(2).random_point(5, np.random.default_rng(1))
    weights = [1.0, 1.0, -0.5, 1.0, 1.0]
    auto = frechet_mean(Hyperbolic(2), points, weights=weights, tol=1e-10)  # tight: Newton if w >= 0
    paper = frechet_mean(Hyperbolic(2), points, weights=weights, step=PAPER_STEP, tol=1e-10)
    assert auto.method == "gradient"
    np.testing.assert_array_equal(auto.mean, paper.mean)


def test_auto_is_the_papers_step_where_no_newton_step_exists():
    manifold = Kendall(5)
    points = manifold.random_point(12, np.random.default_rng(2))
    auto, paper = frechet_mean(manifold, points), frechet_mean(manifold, points, step=PAPER_STEP)
    np.testing.assert_array_equal(auto.mean, paper.mean)
    np.testing.assert_array_equal(auto.n_iter, paper.n_iter)


def test_auto_restarts_only_the_overshooting_data_sets_with_newton_steps():
    manifold = Hyperbolic(2)
    rng = np.random.default_rng(8)
    points = np.stack([hyperbolic_ball(50, 1.0, rng=rng), hyperbolic_ball(50, 15.0, rng=rng)])
    result = frechet_mean(manifold, points)
    assert result.method.tolist() == ["gradient", "newton"]
    assert result.converged.all()
    np.testing.assert_array_equal(result.mean[0], frechet_mean(manifold, points[0], step=PAPER_STEP).mean)
    assert _log_sum_norm_40_digits(result.mean[1], points[1]) < 1e-9
