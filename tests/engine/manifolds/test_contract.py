"""Contract tests run on every space of the registry."""

import numpy as np
import pytest

from tests.engine.registry import SPACES

IDS = list(SPACES)


@pytest.fixture(params=IDS)
def space(request):
    return SPACES[request.param]


def _pair(manifold, scale, n=6, seed=0):
    rng = np.random.default_rng(seed)
    x = manifold.random_point(n, rng)
    length = scale * rng.uniform(0.05, 0.9, size=(n,) + (1,) * manifold.point_ndim)
    v = length * manifold.random_unit_tangent(x, rng)
    return x, v, manifold.exp(x, v)


def test_random_points_and_exp_belong(space):
    manifold, scale = space
    x, v, y = _pair(manifold, scale)
    assert x.shape == (6, *manifold.point_shape)
    assert manifold.belongs(x).all()
    assert manifold.belongs(y, atol=1e-7).all()


def test_log_is_tangent_and_inverts_exp(space):
    manifold, scale = space
    x, v, y = _pair(manifold, scale)
    u = manifold.log(x, y)
    np.testing.assert_allclose(manifold.to_tangent(x, u), u, atol=1e-8)
    np.testing.assert_allclose(u, v, atol=1e-7)
    np.testing.assert_allclose(manifold.dist(manifold.exp(x, u), y), 0.0, atol=1e-6)


def test_dist_is_norm_of_log_symmetric_and_triangle(space):
    manifold, scale = space
    x, _, y = _pair(manifold, scale, seed=1)
    _, _, z = _pair(manifold, scale, seed=2)
    d = manifold.dist(x, y)
    np.testing.assert_allclose(d, manifold.norm(x, manifold.log(x, y)), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(d, manifold.dist(y, x), rtol=1e-7, atol=1e-9)
    assert (manifold.dist(x, z) <= manifold.dist(x, y) + manifold.dist(y, z) + 1e-9).all()
    np.testing.assert_allclose(manifold.dist(x, x), 0.0, atol=1e-6)


def test_batched_equals_loop(space):
    manifold, scale = space
    x, v, y = _pair(manifold, scale, n=4, seed=3)
    for i in range(4):
        np.testing.assert_allclose(manifold.exp(x[i], v[i]), y[i], atol=1e-12)
        np.testing.assert_allclose(manifold.log(x[i], y[i]), manifold.log(x, y)[i], atol=1e-10)
        np.testing.assert_allclose(manifold.dist(x[i], y[i]), manifold.dist(x, y)[i], atol=1e-10)
    nested = y.reshape((2, 2) + manifold.point_shape)
    assert manifold.dist(nested, nested).shape == (2, 2)


def test_tangent_basis_is_orthonormal(space):
    manifold, _ = space
    x = manifold.random_point(3, np.random.default_rng(4))
    basis = manifold.tangent_basis(x)
    assert basis.shape == (3, manifold.dim, *manifold.point_shape)
    gram = manifold.inner(x[:, None, None], basis[:, :, None], basis[:, None, :])
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(manifold.dim), gram.shape), atol=1e-8)
    np.testing.assert_allclose(manifold.to_tangent(x[:, None], basis), basis, atol=1e-8)


def test_random_unit_tangent(space):
    manifold, _ = space
    x = manifold.random_point(50, np.random.default_rng(5))
    u = manifold.random_unit_tangent(x, np.random.default_rng(6))
    np.testing.assert_allclose(manifold.norm(x, u), 1.0, atol=1e-10)
    np.testing.assert_allclose(manifold.to_tangent(x, u), u, atol=1e-10)


def test_ambient_round_trip(space):
    manifold, _ = space
    x = manifold.random_point(3, np.random.default_rng(7))
    a = manifold.to_ambient(x)
    assert a.shape == (3, manifold.ambient_dim)
    np.testing.assert_allclose(manifold.from_ambient(a), x, atol=1e-12)


def test_projection_fixes_points(space):
    manifold, _ = space
    x = manifold.random_point(3, np.random.default_rng(8))
    np.testing.assert_allclose(manifold.dist(manifold.projection(x), x), 0.0, atol=1e-6)


def test_parallel_transport_is_isometry_where_defined(space):
    manifold, scale = space
    x, _, y = _pair(manifold, scale, seed=9)
    u = manifold.random_unit_tangent(x, np.random.default_rng(10))
    w = manifold.random_unit_tangent(x, np.random.default_rng(11))
    try:
        pu, pw = manifold.parallel_transport(x, y, u), manifold.parallel_transport(x, y, w)
    except ValueError:
        pytest.skip(f"{manifold.name} has no parallel transport")
    np.testing.assert_allclose(manifold.to_tangent(y, pu), pu, atol=1e-8)
    np.testing.assert_allclose(manifold.inner(y, pu, pw), manifold.inner(x, u, w), atol=1e-8)
    # The geodesic's own velocity is transported to minus the log back.
    v = manifold.log(x, y)
    np.testing.assert_allclose(manifold.parallel_transport(x, y, v), -manifold.log(y, x), atol=1e-7)


def test_bad_points_are_refused_with_the_value(space):
    manifold, _ = space
    x = manifold.random_point(2, np.random.default_rng(12))
    with pytest.raises(ValueError, match="shape"):
        manifold.check_points(np.zeros((2, 7, 7, 7)))
    bad = x.copy()
    bad[(1,) + (0,) * manifold.point_ndim] = np.nan
    with pytest.raises(ValueError, match="nan"):
        manifold.check_points(bad)
    if "Euclidean" not in manifold.name:
        off = -3.0 * x + 0.5
        with pytest.raises(ValueError, match="off"):
            manifold.check_points(off)


def test_weighted_log_sum_equals_sum_of_logs(space):
    manifold, scale = space
    rng = np.random.default_rng(13)
    x, _, y = _pair(manifold, scale, n=4, seed=14)
    points = np.stack([y, manifold.exp(x, 0.5 * scale * manifold.random_unit_tangent(x, rng))], axis=1)
    w = rng.uniform(-0.5, 1.0, size=(4, 2))
    expected = (w[(...,) + (None,) * manifold.point_ndim] * manifold.log(x[:, None], points)).sum(axis=1)
    np.testing.assert_allclose(manifold.weighted_log_sum(x, points, w), expected, atol=1e-9)


def test_per_point_broadcasts_one_value_per_point(space):
    manifold, _ = space
    x = manifold.random_point(4, np.random.default_rng(15))
    scaled = manifold.per_point(np.arange(4.0)) * x
    assert scaled.shape == x.shape
    np.testing.assert_allclose(scaled[2], 2.0 * x[2])
