"""``frechet_mean``'s default ``step="auto"``: Newton steps where the space has them, the paper's t = 0.5
elsewhere; it converges on spread Hᵈ data where the paper's step does not, checked against the first-order
condition at 40 digits."""

import mpmath
import numpy as np
import pytest

from engine.data import hyperbolic_ball
from engine.estimators import PAPER_STEP, frechet_mean
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
    result = frechet_mean(manifold, points)
    assert result.method == "newton"
    assert result.converged.all()
    assert result.n_iter.max() < 40
    for mean, records in zip(result.mean, points):
        assert _log_sum_norm_40_digits(mean, records) < 1e-9


def test_the_method_says_which_iteration_ran():
    rng = np.random.default_rng(0)
    assert frechet_mean(Hyperbolic(2), Hyperbolic(2).random_point(10, rng)).method == "newton"
    assert frechet_mean(Sphere(2), Sphere(2).random_point(10, rng)).method == "gradient"
    assert frechet_mean(Hyperbolic(2), Hyperbolic(2).random_point(10, rng), step=0.5).method == "gradient"


def test_auto_with_negative_weights_takes_the_papers_step():
    points = Hyperbolic(2).random_point(5, np.random.default_rng(1))
    weights = [1.0, 1.0, -0.5, 1.0, 1.0]
    auto = frechet_mean(Hyperbolic(2), points, weights=weights, tol=1e-10)
    paper = frechet_mean(Hyperbolic(2), points, weights=weights, step=PAPER_STEP, tol=1e-10)
    assert auto.method == "gradient"
    np.testing.assert_array_equal(auto.mean, paper.mean)


def test_auto_is_the_papers_step_where_no_newton_step_exists():
    manifold = Kendall(5)
    points = manifold.random_point(12, np.random.default_rng(2))
    auto, paper = frechet_mean(manifold, points), frechet_mean(manifold, points, step=PAPER_STEP)
    np.testing.assert_array_equal(auto.mean, paper.mean)
    np.testing.assert_array_equal(auto.n_iter, paper.n_iter)
