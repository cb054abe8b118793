"""Fréchet mean: first-order condition on every space, equivariances, batching, flags."""

import numpy as np
import pytest
from scipy.stats import special_ortho_group

from engine.estimators import frechet_mean
from engine.manifolds import SPD, Euclidean, Sphere
from tests.engine.registry import SPACES


def _cloud(manifold, scale, batch, n, seed):
    rng = np.random.default_rng(seed)
    center = manifold.random_point(1, rng)[0]
    length = 0.4 * scale * rng.uniform(0, 1, size=(batch, n) + (1,) * manifold.point_ndim)
    tangent = manifold.random_unit_tangent(np.broadcast_to(center, (batch, n) + manifold.point_shape), rng)
    return manifold.exp(center, length * tangent)


@pytest.mark.parametrize("key", list(SPACES))
def test_first_order_condition(key):
    manifold, scale = SPACES[key]
    points = _cloud(manifold, scale, batch=3, n=25, seed=1)
    result = frechet_mean(manifold, points, tol=1e-10)
    assert result.converged.all()
    assert result.mean.shape == (3, *manifold.point_shape)
    assert manifold.belongs(result.mean, atol=1e-7).all()
    logs = manifold.log(result.mean[:, None], points).mean(axis=1)
    # Bures–Wasserstein logs go through two matrix square roots: their floor is ~1e-8, not 1e-12.
    np.testing.assert_allclose(manifold.norm(result.mean, logs), 0.0, atol=1e-7)
    np.testing.assert_allclose(result.gradient_norm, 0.0, atol=1e-7)


def test_euclidean_mean_is_arithmetic_mean():
    x = np.random.default_rng(2).standard_normal((4, 30, 3))
    result = frechet_mean(Euclidean(3), x, tol=1e-12)
    np.testing.assert_allclose(result.mean, x.mean(axis=1), atol=1e-10)


def test_weighted_euclidean_mean_with_negative_weights():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((20, 2))
    w = rng.uniform(-0.3, 1.0, size=20)
    result = frechet_mean(Euclidean(2), x, weights=w, tol=1e-12)
    np.testing.assert_allclose(result.mean, (w[:, None] * x).sum(0) / w.sum(), atol=1e-9)


def test_sphere_rotation_equivariance():
    sphere = Sphere(2)
    points = _cloud(sphere, 1.0, batch=1, n=40, seed=4)[0]
    rot = special_ortho_group.rvs(3, random_state=5)
    m = frechet_mean(sphere, points, tol=1e-12).mean
    m_rot = frechet_mean(sphere, points @ rot.T, tol=1e-12).mean
    np.testing.assert_allclose(m_rot, rot @ m, atol=1e-9)


def test_spd_congruence_equivariance():
    spd = SPD(3)
    points = _cloud(spd, 1.0, batch=1, n=30, seed=6)[0]
    a = np.random.default_rng(7).standard_normal((3, 3)) + 3 * np.eye(3)
    m = frechet_mean(spd, points, tol=1e-12).mean
    m_a = frechet_mean(spd, a @ points @ a.T, tol=1e-12).mean
    np.testing.assert_allclose(m_a, a @ m @ a.T, rtol=1e-7, atol=1e-9)


def test_spd2_matches_pyriemann():
    pyriemann_mean = pytest.importorskip("pyriemann.utils.mean").mean_riemann
    spd = SPD(2)
    points = _cloud(spd, 1.0, batch=1, n=50, seed=8)[0]
    ours = frechet_mean(spd, points, tol=1e-12).mean
    np.testing.assert_allclose(ours, pyriemann_mean(points, tol=1e-12, maxiter=200), atol=1e-8)


def test_spd3_matches_pyriemann():
    # The eigenvector-free inner step of SPD(3) (engine.manifolds._spd3) against LAPACK-based pyriemann.
    pyriemann_mean = pytest.importorskip("pyriemann.utils.mean").mean_riemann
    spd = SPD(3)
    points = _cloud(spd, 1.0, batch=1, n=50, seed=9)[0]
    ours = frechet_mean(spd, points, tol=1e-12).mean
    np.testing.assert_allclose(ours, pyriemann_mean(points, tol=1e-12, maxiter=200), atol=1e-8)


def test_batched_equals_loop():
    sphere = Sphere(2)
    points = _cloud(sphere, 1.0, batch=5, n=20, seed=9)
    batched = frechet_mean(sphere, points)
    for i in range(5):
        single = frechet_mean(sphere, points[i])
        np.testing.assert_allclose(batched.mean[i], single.mean, atol=1e-14)
        assert batched.n_iter[i] == single.n_iter


def test_non_convergence_is_reported():
    # A fixed step the caller names is not watched (the default would restart these sets with Newton steps).
    points = _cloud(Sphere(2), 1.0, batch=2, n=20, seed=10)
    result = frechet_mean(Sphere(2), points, step=1.0, tol=1e-12, max_iter=2)
    assert not result.converged.any()
    assert (result.n_iter == 2).all()


@pytest.mark.parametrize(
    "kwargs, match",
    [({"step": 0}, "step"), ({"step": 2.5}, "step"), ({"tol": -1}, "tol"), ({"max_iter": 0}, "max_iter"),
     ({"weights": np.zeros(5)}, "sum to 0"), ({"weights": np.ones(4)}, "length n = 5")],
)
def test_bad_arguments_raise(kwargs, match):
    points = Sphere(2).random_point(5, np.random.default_rng(0))
    with pytest.raises(ValueError, match=match):
        frechet_mean(Sphere(2), points, **kwargs)


def test_points_off_the_manifold_raise():
    with pytest.raises(ValueError, match="off Sphere"):
        frechet_mean(Sphere(2), np.ones((5, 3)))


def test_antipodal_points_are_flagged_not_unique_and_a_cap_is_unique():
    # The minimisers of two antipodal points fill the equator; the iteration stopped at one of the
    # points with converged=True, which is no minimiser.
    sphere = Sphere(2)
    antipodal = frechet_mean(sphere, np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]))
    assert not antipodal.unique
    cap = frechet_mean(sphere, _cloud(sphere, 1.0, batch=4, n=20, seed=3))
    assert cap.unique.shape == (4,) and cap.unique.all()
    # A record of weight 0 does not count; on a Hadamard space every data set is unique.
    one_sided = frechet_mean(sphere, np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]), weights=[1.0, 0.0])
    assert one_sided.unique
    assert frechet_mean(SPD(2), _cloud(SPD(2), 10.0, batch=2, n=5, seed=4)).unique.all()


def test_no_records_is_one_value_error():
    with pytest.raises(ValueError, match=r"at least one record per data set \(n >= 1\), got shape \(0, 3\)"):
        frechet_mean(Sphere(2), np.zeros((0, 3)))
