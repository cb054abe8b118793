"""Grassmann manifold Gr(n, p): principal angles, invariances, exp/log, canonical bases."""

import numpy as np
import pytest
from scipy import linalg, stats

from engine.manifolds.grassmann import Grassmann
from engine.manifolds.sphere import Sphere

G52 = Grassmann(5, 2)


def _projector(x):
    return x @ np.swapaxes(x, -1, -2)


def _rotations(k, size, seed):
    return stats.ortho_group.rvs(k, size=size, random_state=np.random.default_rng(seed))


# ----- distance and principal angles -------------------------------------------------------
@pytest.mark.parametrize("n, p", [(5, 2), (7, 3), (6, 1)])
def test_principal_angles_match_scipy(n, p):
    space = Grassmann(n, p)
    rng = np.random.default_rng(0)
    x, y = space.random_point(20, rng), space.random_point(20, rng)
    expected = np.array([np.sort(linalg.subspace_angles(a, b)) for a, b in zip(x, y)])
    np.testing.assert_allclose(space.principal_angles(x, y), expected, atol=1e-12)
    np.testing.assert_allclose(space.dist(x, y), np.linalg.norm(expected, axis=-1), atol=1e-12)


@pytest.mark.parametrize("t", [0.0, 1e-12, 1e-6, 0.3, 1.0, np.pi / 2 - 1e-9])
def test_distance_between_rotated_lines_is_the_angle(t):
    gr31 = Grassmann(3, 1)
    line = np.array([[1.0], [0.0], [0.0]])
    turned = np.array([[np.cos(t)], [np.sin(t)], [0.0]])
    np.testing.assert_allclose(gr31.dist(line, turned), t, rtol=1e-12, atol=0)
    # The same rotation inside a plane that also shares e_3: one angle t, one angle 0.
    plane = np.zeros((5, 2))
    plane[0, 0] = plane[2, 1] = 1.0
    moved = plane.copy()
    moved[:2, 0] = [np.cos(t), np.sin(t)]
    np.testing.assert_allclose(G52.principal_angles(plane, moved), [0.0, t], rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(G52.dist(plane, moved), t, rtol=1e-12, atol=0)


def test_distance_of_two_independent_rotations_is_the_norm_of_the_angles():
    a, b = 0.4, 1.3
    x = np.eye(4, 2)
    y = np.zeros((4, 2))
    y[[0, 2], 0] = [np.cos(a), np.sin(a)]
    y[[1, 3], 1] = [np.cos(b), np.sin(b)]
    gr42 = Grassmann(4, 2)
    np.testing.assert_allclose(gr42.principal_angles(x, y), [a, b], rtol=1e-13)
    np.testing.assert_allclose(gr42.dist(x, y), np.hypot(a, b), rtol=1e-13)
    np.testing.assert_allclose(gr42.log(x, y), [[0, 0], [0, 0], [a, 0], [0, b]], atol=1e-15)


def test_invariance_under_change_of_basis_and_rotation_of_the_space():
    rng = np.random.default_rng(1)
    x, y = G52.random_point(10, rng), G52.random_point(10, rng)
    q1, q2 = _rotations(2, 10, 2), _rotations(2, 10, 3)
    r = _rotations(5, 10, 4)
    d = G52.dist(x, y)
    np.testing.assert_allclose(G52.dist(x, x @ q1), 0.0, atol=1e-7)
    np.testing.assert_allclose(G52.dist(x @ q1, y @ q2), d, rtol=1e-12)
    np.testing.assert_allclose(G52.dist(r @ x, r @ y), d, rtol=1e-12)
    log = G52.log(x, y)
    np.testing.assert_allclose(G52.log(x, y @ q2), log, atol=1e-12)
    # A tangent vector at XQ is represented by ΔQ; rotations of R^n act on both.
    np.testing.assert_allclose(G52.log(x @ q1, y), log @ q1, atol=1e-12)
    np.testing.assert_allclose(G52.log(r @ x, r @ y), r @ log, atol=1e-12)


# ----- exp and log ----------------------------------------------------------------------------
def test_exp_along_a_coordinate_plane_is_a_rotation():
    t = 0.9
    v = np.zeros((5, 2))
    v[3, 0] = t
    expected = np.eye(5, 2)
    expected[[0, 3], 0] = [np.cos(t), np.sin(t)]
    np.testing.assert_allclose(G52.exp(G52.origin, v), expected, atol=1e-15)
    np.testing.assert_allclose(G52.log(G52.origin, expected), v, atol=1e-15)


@pytest.mark.parametrize("n, p", [(5, 2), (8, 3), (4, 1), (6, 5)])
@pytest.mark.parametrize("largest", [1e-6, 0.7, 1.5])
def test_log_inverts_exp_for_horizontal_vectors_inside_the_injectivity_radius(n, p, largest):
    space = Grassmann(n, p)
    rng = np.random.default_rng(5)
    x = space.random_point(12, rng) @ _rotations(p, 12, 6) if p > 1 else space.random_point(12, rng)
    v = space.to_tangent(x, rng.standard_normal((12, n, p)))
    v *= largest / np.linalg.svd(v, compute_uv=False)[:, :1, None]
    y = space.exp(x, v)
    assert space.belongs(y, atol=1e-13).all()
    np.testing.assert_allclose(space.log(x, y), v, atol=1e-12)
    np.testing.assert_allclose(space.dist(x, y), np.linalg.norm(v, axis=(-2, -1)), rtol=1e-8)


def test_exp_of_log_spans_the_target_subspace():
    rng = np.random.default_rng(7)
    x, y = G52.random_point(50, rng), G52.random_point(50, rng)
    z = G52.exp(x, G52.log(x, y))
    np.testing.assert_allclose(_projector(z), _projector(y), atol=1e-12)
    np.testing.assert_allclose(np.swapaxes(x, -1, -2) @ G52.log(x, y), 0.0, atol=1e-12)


def test_log_reaches_the_cut_locus_with_a_minimising_vector():
    y = np.zeros((5, 2))
    y[0, 0] = 1.0
    y[2, 1] = 1.0
    u = G52.log(G52.origin, y)
    np.testing.assert_allclose(np.linalg.norm(u), np.pi / 2, rtol=1e-14)
    np.testing.assert_allclose(_projector(G52.exp(G52.origin, u)), _projector(y), atol=1e-15)


# ----- curvature ------------------------------------------------------------------------------
def _horizontal(n, p, i, j):
    m = np.zeros((n, p))
    m[p + i, j] = 1.0
    return m


def _triangle_curvature(space, u, w, t=1e-3):
    """d(Exp(t u), Exp(t w)) = √2 t (1 − K t²/12 + O(t⁴)) for orthonormal u, w at the origin."""
    x = space.origin
    d = space.dist(space.exp(x, t * u), space.exp(x, t * w))
    return 12 * (1 - d / (np.sqrt(2) * t)) / t**2


def test_sectional_curvature_spans_zero_to_two():
    e = lambda i, j: _horizontal(5, 2, i, j)  # noqa: E731
    flat = _triangle_curvature(G52, e(0, 0), e(1, 1))
    one = _triangle_curvature(G52, e(0, 0), e(0, 1))
    top = _triangle_curvature(G52, (e(0, 0) + e(1, 1)) / np.sqrt(2), (e(0, 1) - e(1, 0)) / np.sqrt(2))
    np.testing.assert_allclose([flat, one, top], [0.0, 1.0, 2.0], atol=1e-5)
    assert (G52.kappa_min, G52.kappa_max) == (0.0, 2.0)
    rng = np.random.default_rng(8)
    for _ in range(20):
        basis = np.linalg.qr(rng.standard_normal((6, 2)))[0]
        u, w = (basis.T @ G52.tangent_basis(G52.origin).reshape(6, 10)).reshape(2, 5, 2)
        assert -1e-5 <= _triangle_curvature(G52, u, w) <= 2 + 1e-5


@pytest.mark.parametrize("n, p, kappa", [(4, 1, 1.0), (4, 3, 1.0), (6, 3, 2.0), (2, 1, 0.0)])
def test_curvature_bounds_depend_on_the_smaller_dimension(n, p, kappa):
    space = Grassmann(n, p)
    assert space.kappa_max == kappa
    assert space.dim == p * (n - p)
    assert space.injectivity_radius == np.pi / 2
    if min(p, n - p) == 1 and space.dim >= 2:
        assert space.kappa_min == 1.0
        basis = space.tangent_basis(space.origin)
        np.testing.assert_allclose(_triangle_curvature(space, basis[0], basis[1]), 1.0, atol=1e-5)


# ----- tangent spaces and transport ------------------------------------------------------------
def test_horizontal_basis_is_orthonormal_and_complete():
    rng = np.random.default_rng(9)
    x = G52.random_point(4, rng)
    basis = G52.tangent_basis(x)
    assert basis.shape == (4, 6, 5, 2)
    flat = basis.reshape(4, 6, 10)
    np.testing.assert_allclose(flat @ np.swapaxes(flat, -1, -2), np.broadcast_to(np.eye(6), (4, 6, 6)), atol=1e-12)
    np.testing.assert_allclose(np.swapaxes(x, -1, -2)[:, None] @ basis, 0.0, atol=1e-12)
    v = G52.to_tangent(x, rng.standard_normal((4, 5, 2)))
    coef = np.einsum("kiab,kab->ki", basis, v)
    np.testing.assert_allclose(G52.from_coordinates(x, coef), v, atol=1e-12)


def test_parallel_transport_on_lines_matches_the_sphere():
    """Gr(n, 1) is RP^{n−1}; for unit vectors with <x, y> > 0 transport is the sphere's."""
    gr41, s3 = Grassmann(4, 1), Sphere(3)
    rng = np.random.default_rng(10)
    x = gr41.random_point(10, rng)
    y = gr41.exp(x, 0.8 * gr41.random_unit_tangent(x, rng))
    v = gr41.to_tangent(x, rng.standard_normal((10, 4, 1)))
    expected = s3.parallel_transport(x[..., 0], y[..., 0], v[..., 0])
    np.testing.assert_allclose(gr41.parallel_transport(x, y, v)[..., 0], expected, atol=1e-12)
    # Transporting to -y (same line) flips the representative of the vector too.
    np.testing.assert_allclose(gr41.parallel_transport(x, -y, v)[..., 0], -expected, atol=1e-12)


def test_parallel_transport_is_an_isometry_and_reversible():
    rng = np.random.default_rng(11)
    x, y = G52.random_point(6, rng), G52.random_point(6, rng) @ _rotations(2, 6, 12)
    u = G52.to_tangent(x, rng.standard_normal((6, 5, 2)))
    w = G52.to_tangent(x, rng.standard_normal((6, 5, 2)))
    pu, pw = G52.parallel_transport(x, y, u), G52.parallel_transport(x, y, w)
    np.testing.assert_allclose(np.swapaxes(y, -1, -2) @ pu, 0.0, atol=1e-12)
    np.testing.assert_allclose(G52.inner(y, pu, pw), G52.inner(x, u, w), atol=1e-12)
    np.testing.assert_allclose(G52.parallel_transport(y, x, pu), u, atol=1e-10)
    # Another basis YQ of the same subspace receives the vector represented as (τ u) Q.
    q = _rotations(2, 6, 13)
    np.testing.assert_allclose(G52.parallel_transport(x, y @ q, u), pu @ q, atol=1e-12)


# ----- representatives, projections, ambient coordinates ----------------------------------------
def test_canonical_representative_is_unique_per_subspace():
    rng = np.random.default_rng(13)
    x = G52.random_point(8, rng)
    q = _rotations(2, 8, 14)
    canon = G52.canonical(x @ q)
    np.testing.assert_allclose(canon, G52.canonical(x), atol=1e-12)
    np.testing.assert_allclose(canon, x, atol=1e-12)
    top = canon[:, :2, :]
    np.testing.assert_allclose(top, np.swapaxes(top, -1, -2), atol=1e-13)
    assert (np.linalg.eigvalsh(top) > 0).all()
    np.testing.assert_allclose(_projector(canon), _projector(x @ q), atol=1e-13)


def test_ambient_coordinates_are_projectors_and_come_back_canonical():
    rng = np.random.default_rng(15)
    x = G52.random_point(5, rng)
    q = _rotations(2, 5, 16)
    a = G52.to_ambient(x @ q)
    # The symmetric matrices' coordinates: D = n(n + 1)/2, Euclidean norm = Frobenius norm of the projectors.
    assert a.shape == (5, 15)
    np.testing.assert_allclose(np.linalg.norm(a[0] - a[1]), np.linalg.norm(_projector(x[0]) - _projector(x[1])),
                               rtol=1e-12)
    np.testing.assert_allclose(a, G52.to_ambient(x), atol=1e-14)
    np.testing.assert_allclose(G52.from_ambient(a), x, atol=1e-12)
    # A noisy symmetric matrix maps to the span of its top-2 eigenvectors.
    spectrum = np.zeros((1, 15))
    spectrum[0, [0, 5, 9, 12, 14]] = [0.1, 3.0, -1.0, 2.0, 0.5]  # the diagonal's places in the upper triangle
    np.testing.assert_allclose(_projector(G52.from_ambient(spectrum))[0], np.diag([0, 1.0, 0, 1.0, 0]), atol=1e-14)
    with pytest.raises(ValueError, match="trailing size 15, got shape"):
        G52.from_ambient(np.zeros(25))


def test_projection_is_the_polar_factor():
    rng = np.random.default_rng(17)
    x = G52.random_point(4, rng) @ _rotations(2, 4, 18)
    s = rng.standard_normal((4, 2, 2))
    spd = s @ np.swapaxes(s, -1, -2) + 0.5 * np.eye(2)
    np.testing.assert_allclose(G52.projection(x @ spd), x, atol=1e-12)
    noisy = x + 1e-3 * rng.standard_normal(x.shape)
    assert G52.belongs(G52.projection(noisy), atol=1e-13).all()
    np.testing.assert_allclose(G52.to_tangent(x, G52.to_tangent(x, noisy)), G52.to_tangent(x, noisy), atol=1e-14)


def test_random_subspaces_are_uniform():
    """For a uniform line in R^3 the |cosine| with a fixed axis is uniform on [0, 1]."""
    gr31 = Grassmann(3, 1)
    x = gr31.random_point(3000, np.random.default_rng(19))
    assert x.shape == (3000, 3, 1)
    cos = np.abs(x[:, 0, 0])
    assert stats.kstest(cos, stats.uniform().cdf).pvalue > 1e-3
    mean_projector = _projector(G52.random_point(4000, 20)).mean(axis=0)
    np.testing.assert_allclose(mean_projector, 0.4 * np.eye(5), atol=0.03)


def test_batches_keep_their_shape():
    x = G52.random_point(6, np.random.default_rng(21)).reshape(2, 3, 5, 2)
    assert G52.dist(x, x).shape == (2, 3)
    assert G52.log(x, x[::-1]).shape == (2, 3, 5, 2)
    assert G52.principal_angles(x[0, 0], x[1, 1]).shape == (2,)
    assert G52.dist(x[0, 0], x[1, 1]).shape == ()


# ----- validation -----------------------------------------------------------------------------
def test_bad_inputs_raise_value_errors_that_quote_the_value():
    x = G52.random_point(2, np.random.default_rng(22))
    with pytest.raises(ValueError, match="off"):
        G52.check_points(2.0 * x)
    skew = x.copy()
    skew[:, :, 1] = skew[:, :, 0]
    with pytest.raises(ValueError, match="off"):
        G52.check_points(skew)
    bad = x.copy()
    bad[0, 3, 1] = np.nan
    with pytest.raises(ValueError, match="nan"):
        G52.check_points(bad)
    with pytest.raises(ValueError, match=r"shape \(2, 2, 5\)"):
        G52.check_points(np.swapaxes(x, -1, -2))
    for n, p in [(3, 3), (3, 4), (3, 0), (4, -1)]:
        with pytest.raises(ValueError, match=repr(p)):
            Grassmann(n, p)
    with pytest.raises(ValueError, match="2.5"):
        Grassmann(2.5, 1)
