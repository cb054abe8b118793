"""Fréchet means on S^d by Newton steps: the first-order condition from arccos, the Hessian against second
differences of F along geodesics, batching, spread data whose Hessian is indefinite, and the default's restart."""

import numpy as np
import pytest

from engine.data import sphere_cap
from engine.estimators import frechet_mean
from engine.manifolds import Sphere


def _log_sum_norm(x, points, weights=None) -> float:
    """‖Σ_i w_i Log_x(p_i)‖ from θ_i = arccos<x, p_i> and Log_x(p) = θ/sin θ (p − cos θ x), record by record."""
    weights = np.full(len(points), 1.0 / len(points)) if weights is None else weights / np.sum(weights)
    total = np.zeros_like(x)
    for w, p in zip(weights, points):
        cosine = np.clip(p @ x, -1.0, 1.0)
        theta = np.arccos(cosine)
        if theta > 0:
            total += w * theta / np.sin(theta) * (p - cosine * x)
    return float(np.linalg.norm(total))


def _frechet_value(x, points) -> float:
    return 0.5 * float(np.mean(np.arccos(np.clip(points @ x, -1.0, 1.0)) ** 2))


@pytest.mark.parametrize("dim, radius", [(2, 0.4), (2, 1.2), (4, 1.0)])
def test_newton_mean_meets_the_first_order_condition(dim, radius):
    points = sphere_cap(40, radius, dim=dim, size=(4,), rng=np.random.default_rng(dim))
    result = frechet_mean(Sphere(dim), points, step="newton", tol=1e-13)
    assert result.converged.all() and (result.method == "newton").all()
    assert result.n_iter.max() <= 6
    for mean, records in zip(result.mean, points):
        assert _log_sum_norm(mean, records) < 1e-12


def test_weighted_newton_mean_meets_the_first_order_condition():
    points = sphere_cap(25, 0.8, rng=np.random.default_rng(3))
    weights = np.random.default_rng(4).uniform(size=25) * (np.arange(25) % 5 != 0)
    result = frechet_mean(Sphere(2), points, weights=weights, step="newton", tol=1e-13)
    assert result.converged and _log_sum_norm(result.mean, points, weights) < 1e-12


@pytest.mark.parametrize("radius", [0.3, 1.0])
def test_hessian_matches_second_differences_along_geodesics(radius):
    sphere = Sphere(2)
    points = sphere_cap(30, radius, rng=np.random.default_rng(7))
    x = sphere.projection(points[:5].mean(axis=0))
    weights = np.full((1, 30), 1.0 / 30)
    gradient, hessian, _, _ = sphere._frechet_sums(x[None], points[None], weights, with_hessian=True)
    rng = np.random.default_rng(8)
    for _ in range(3):
        v = sphere.random_unit_tangent(x, rng)
        h = 1e-4
        second = (_frechet_value(sphere.exp(x, h * v), points) - 2 * _frechet_value(x, points)
                  + _frechet_value(sphere.exp(x, -h * v), points)) / h**2
        assert v @ hessian[0] @ v == pytest.approx(second, rel=1e-5)
    # −∇F = Σ w Log: a first difference of F along v is <−gradient, v>.
    first = (_frechet_value(sphere.exp(x, 1e-6 * v), points) - _frechet_value(sphere.exp(x, -1e-6 * v), points)) / 2e-6
    assert first == pytest.approx(-gradient[0] @ v, rel=1e-6, abs=1e-10)


def test_newton_batched_equals_loop():
    points = sphere_cap(30, 1.0, size=(5,), rng=np.random.default_rng(11))
    batched = frechet_mean(Sphere(2), points, step="newton", tol=1e-12)
    for i in range(5):
        single = frechet_mean(Sphere(2), points[i], step="newton", tol=1e-12)
        np.testing.assert_allclose(batched.mean[i], single.mean, atol=1e-14)
        assert batched.n_iter[i] == single.n_iter


def test_spread_data_with_an_indefinite_hessian_still_converge():
    # Records beyond a quarter circle of the start make Σ w θ cot θ <= 0 there: the step is the gradient's.
    rng = np.random.default_rng(12)
    points = sphere_cap(60, 1.5, size=(10,), rng=rng)
    start = -points[:, 0]
    result = frechet_mean(Sphere(2), points, step="newton", tol=1e-12, max_iter=300, init=start)
    assert result.converged.all()
    for mean, records in zip(result.mean, points):
        assert _log_sum_norm(mean, records) < 1e-10


def test_default_restarts_a_fixed_step_that_runs_out_with_newton_steps():
    points = sphere_cap(20, 1.0, size=(2,), rng=np.random.default_rng(10))
    result = frechet_mean(Sphere(2), points, tol=1e-12, max_iter=3)
    assert result.converged.all() and (result.method == "newton").all()
    for mean, records in zip(result.mean, points):
        assert _log_sum_norm(mean, records) < 1e-12
