"""Kendall planar shape space: closed forms and independent computations (Procrustes by SVD,
the Hopf map for triangles, curvature 1 and 4 planes, numerically integrated parallel transport)."""

import numpy as np
import pytest
from scipy import stats

from engine.manifolds.kendall import Kendall


def _rotation(theta):
    """Rotation matrices R(θ), shape ``(..., 2, 2)``."""
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([np.stack([c, -s], axis=-1), np.stack([s, c], axis=-1)], axis=-2)


def _rotate(x, theta):
    """Rotate each landmark (row) of ``x`` by θ about the origin."""
    return x @ np.swapaxes(_rotation(np.asarray(theta, dtype=float)), -1, -2)


def _times_i(a):
    """Multiplication by i in complex notation: each landmark turned by +90°."""
    return np.stack([-a[..., 1], a[..., 0]], axis=-1)


def _procrustes_svd(x, y):
    """arccos of max over R ∈ SO(2) of <x, y Rᵀ>_F, via the SVD of xᵀy with det(R) = +1."""
    u, s, vt = np.linalg.svd(np.swapaxes(x, -1, -2) @ y)
    sign = np.sign(np.linalg.det(u @ vt))
    return np.arccos(np.clip(s[..., 0] + sign * s[..., 1], -1.0, 1.0))


def _pairs(space, n, seed, max_len=1.2):
    rng = np.random.default_rng(seed)
    x = space.random_point(n, rng)
    v = rng.uniform(0.05, max_len, size=(n, 1, 1)) * space.random_unit_tangent(x, rng)
    return x, v, rng


def _equilateral():
    omega = np.exp(2j * np.pi * np.arange(3) / 3) / np.sqrt(3)
    return np.stack([omega.real, omega.imag], axis=-1)


def _frob(a, b):
    return np.sum(a * b, axis=(-2, -1))


# ----- construction and validation -----------------------------------------------------------
def test_constants():
    for k, kmin in [(3, 4.0), (4, 1.0), (7, 1.0)]:
        space = Kendall(k)
        assert space.dim == 2 * (k - 2)
        assert space.point_shape == (k, 2)
        assert space.kappa_min == kmin and space.kappa_max == 4.0
        assert space.injectivity_radius == space.diameter == np.pi / 2
        assert space.ambient_dim == 2 * k - 2


@pytest.mark.parametrize("k", [2, 0, 3.5, "4"])
def test_bad_k_is_refused(k):
    with pytest.raises(ValueError, match=repr(k).replace(".", r"\.")):
        Kendall(k)


def test_origin_is_regular_polygon():
    space = Kendall(5)
    o = space.origin
    assert o.shape == (5, 2) and space.belongs(o)
    radii = np.linalg.norm(o, axis=-1)
    sides = np.linalg.norm(o - np.roll(o, -1, axis=0), axis=-1)
    np.testing.assert_allclose(radii, radii[0], atol=1e-14)
    np.testing.assert_allclose(sides, sides[0], atol=1e-14)


def test_preshape_centres_and_normalises_and_is_similarity_invariant():
    space = Kendall(4)
    rng = np.random.default_rng(0)
    raw = rng.normal(size=(3, 2, 4, 2))
    p = space.preshape(raw)
    assert p.shape == raw.shape
    np.testing.assert_allclose(p.sum(axis=-2), 0.0, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(p, axis=(-2, -1)), 1.0, atol=1e-14)
    moved = 7.5 * raw + np.array([3.0, -2.0])
    np.testing.assert_allclose(space.preshape(moved), p, atol=1e-13)
    np.testing.assert_allclose(space.preshape(p), p, atol=1e-15)


def test_preshape_refuses_coincident_landmarks_and_bad_shapes():
    space = Kendall(3)
    with pytest.raises(ValueError, match=r"coincide.*index \(1,\).*0\.7"):
        space.preshape(np.array([[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], np.full((3, 2), 0.7)]))
    with pytest.raises(ValueError, match=r"\(4, 2\)"):
        space.preshape(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="nan"):
        space.preshape(np.array([[0.0, np.nan], [1.0, 0.0], [0.0, 1.0]]))


def test_check_points_refuses_off_manifold_inputs():
    space = Kendall(4)
    x = space.random_point(2, 0)
    assert space.check_points(x).shape == (2, 4, 2)
    with pytest.raises(ValueError, match=r"shape.*\(2, 5, 2\)"):
        space.check_points(np.zeros((2, 5, 2)))
    with pytest.raises(ValueError, match="off"):
        space.check_points(x + np.array([0.3, 0.0]))  # unit norm lost and not centred
    not_centred = space.projection(x)
    not_centred[1, 0] += 0.1
    not_centred /= np.linalg.norm(not_centred, axis=(-2, -1), keepdims=True)
    with pytest.raises(ValueError, match=r"off.*index \(1,\)"):
        space.check_points(not_centred)
    with pytest.raises(ValueError, match="off"):
        space.check_points(2.0 * x)


def test_ambient_coordinates_are_an_isometry_of_the_centred_configurations_and_bad_shape():
    space = Kendall(3)
    x = space.random_point(2, 1)
    a = space.to_ambient(x)
    assert a.shape == (2, 4) and space.ambient_dim == 4
    np.testing.assert_allclose(np.linalg.norm(a, axis=-1), 1.0, rtol=1e-14)
    np.testing.assert_allclose(space.from_ambient(a), x, atol=1e-15)
    np.testing.assert_allclose(space.from_ambient(np.ones(4)).mean(axis=0), 0.0, atol=1e-15)
    with pytest.raises(ValueError, match=r"\(2, 5\)"):
        space.from_ambient(np.zeros((2, 5)))


# ----- distance ---------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [3, 4, 8])
def test_dist_is_the_procrustes_distance(k):
    space = Kendall(k)
    rng = np.random.default_rng(k)
    x, y = space.random_point(40, rng), space.random_point(40, rng)
    np.testing.assert_allclose(space.dist(x, y), _procrustes_svd(x, y), atol=1e-10)
    # Brute-force rotation search on a fine grid for a few pairs (the grid error is O(step²)).
    angles = np.linspace(-np.pi, np.pi, 20001)
    best = np.max(_frob(x[:3, None], _rotate(y[:3, None], angles)), axis=1)
    np.testing.assert_allclose(space.dist(x[:3], y[:3]), np.arccos(best), atol=1e-5)


def test_dist_is_rotation_invariant_and_bounded():
    space = Kendall(5)
    rng = np.random.default_rng(2)
    x, y = space.random_point(50, rng), space.random_point(50, rng)
    a, b = rng.uniform(-np.pi, np.pi, size=(2, 50))
    d = space.dist(x, y)
    np.testing.assert_allclose(space.dist(_rotate(x, a), _rotate(y, b)), d, atol=1e-12)
    np.testing.assert_allclose(space.dist(x, _rotate(x, a)), 0.0, atol=1e-7)
    assert (d <= np.pi / 2).all()


def test_dist_is_accurate_for_nearby_shapes():
    space = Kendall(6)
    x = space.random_point(4, 3)
    u = space.random_unit_tangent(x, 4)
    # arccos |<z, w>| would return 0 here: cos(1e-8) rounds to 1.
    np.testing.assert_allclose(space.dist(x, space.exp(x, 1e-8 * u)), 1e-8, rtol=1e-6)


def test_triangles_equilateral_collinear_and_mirror():
    space = Kendall(3)
    eq = _equilateral()
    collinear = space.preshape(
        np.array([
            [[0.0, 0.0], [1.0, 0.0], [3.0, 0.0]],
            [[1.0, 1.0], [2.0, 2.0], [5.0, 5.0]],
            [[0.0, 0.0], [0.0, 0.0], [0.0, 1.0]],
            [[-1.0, 2.0], [0.0, 2.0], [1.0, 2.0]],
        ])
    )
    # Σ^3_2 is the sphere of radius 1/2: equilateral triangles are its poles, collinear ones its
    # equator, so every collinear triangle is at a quarter of the half great circle.
    np.testing.assert_allclose(space.dist(eq, collinear), np.pi / 4, atol=1e-12)
    mirror = eq * np.array([1.0, -1.0])
    np.testing.assert_allclose(space.dist(eq, mirror), np.pi / 2, atol=1e-12)


def test_triangles_match_the_hopf_map():
    """For k = 3, d = ½·angle between the Hopf images in S², computed in other coordinates."""
    space = Kendall(3)
    rng = np.random.default_rng(5)
    x, y = space.random_point(30, rng), space.random_point(30, rng)
    frame = np.array([[1.0, -1.0, 0.0], [1.0, 1.0, -2.0]]) / np.sqrt([[2.0], [6.0]])

    def hopf(p):
        zeta = (p[..., 0] + 1j * p[..., 1]) @ frame.T
        cross = zeta[..., 0] * np.conj(zeta[..., 1])
        return np.stack([2 * cross.real, 2 * cross.imag, np.abs(zeta[..., 0]) ** 2 - np.abs(zeta[..., 1]) ** 2], -1)

    angle = np.arccos(np.clip(np.sum(hopf(x) * hopf(y), axis=-1), -1.0, 1.0))
    np.testing.assert_allclose(space.dist(x, y), angle / 2, atol=1e-7)
    # Uniform shapes map to the uniform law on S², whose coordinates are uniform on [-1, 1].
    h = hopf(space.random_point(2000, 6))
    assert stats.kstest(h[:, 2], stats.uniform(-1, 2).cdf).pvalue > 1e-3


def test_curvature_one_and_four_planes():
    """Geodesic triangles with a right angle: cos d = cos² t (K = 1), cos 2d = cos² 2t (K = 4)."""
    space = Kendall(5)
    rng = np.random.default_rng(7)
    x = space.random_point(5, rng)
    u = space.random_unit_tangent(x, rng)
    # A totally real partner: horizontal and orthogonal to both u and i·u.
    real_partner = space.to_tangent(x, rng.normal(size=x.shape))
    for e in (u, _times_i(u)):
        real_partner -= _frob(real_partner, e)[:, None, None] * e
    real_partner /= np.linalg.norm(real_partner, axis=(-2, -1), keepdims=True)
    t = rng.uniform(0.1, 1.2, size=(5, 1, 1))
    p = space.exp(x, t * u)
    d1 = space.dist(p, space.exp(x, t * real_partner))
    d4 = space.dist(p, space.exp(x, t * _times_i(u)))
    t = t[:, 0, 0]
    np.testing.assert_allclose(np.cos(d1), np.cos(t) ** 2, atol=1e-10)
    np.testing.assert_allclose(np.cos(2 * d4), np.cos(2 * t) ** 2, atol=1e-10)


# ----- reflections and alignment ------------------------------------------------------------
def test_mirror_images_are_different_shapes():
    space = Kendall(5)
    x = space.preshape(np.array([[0.0, 0.0], [2.0, 0.1], [3.0, 1.0], [1.0, 2.5], [-0.5, 1.2]]))
    mirror = x * np.array([1.0, -1.0])
    assert space.dist(x, mirror) > 0.1
    # An orthogonal Procrustes fit allowing reflections would match them exactly.
    s = np.linalg.svd(x.T @ mirror, compute_uv=False)
    np.testing.assert_allclose(s.sum(), 1.0, atol=1e-12)


def test_align_is_a_proper_rotation_plus_translation():
    space = Kendall(5)
    rng = np.random.default_rng(8)
    x = rng.normal(size=(5, 2)) + 4.0
    ys = np.stack([rng.normal(size=(5, 2)) * 3.0 - 1.0, x * np.array([1.0, -1.0])])
    aligned = space.align(x, ys)
    assert aligned.shape == (2, 5, 2)
    np.testing.assert_allclose(aligned.mean(axis=-2), np.broadcast_to(x.mean(axis=0), (2, 2)), atol=1e-12)
    yc = ys - ys.mean(axis=-2, keepdims=True)
    ac = aligned - aligned.mean(axis=-2, keepdims=True)
    for i in range(2):
        r = np.linalg.lstsq(yc[i], ac[i], rcond=None)[0]
        np.testing.assert_allclose(r.T @ r, np.eye(2), atol=1e-10)
        np.testing.assert_allclose(np.linalg.det(r), 1.0, atol=1e-10)
    # Optimal among all rotations (grid search), including for the mirror image.
    xc = x - x.mean(axis=0)
    grid = np.linspace(-np.pi, np.pi, 3601)
    best = np.max(_frob(xc, _rotate(yc[:, None], grid)), axis=1)
    assert (_frob(xc, ac) >= best - 1e-9).all()


def test_align_of_preshapes_undoes_a_rotation():
    space = Kendall(6)
    x, v, rng = _pairs(space, 5, 9)
    y = _rotate(space.exp(x, v), rng.uniform(-np.pi, np.pi, size=5))
    aligned = space.align(x, y)
    assert space.belongs(aligned).all()
    np.testing.assert_allclose(aligned, space.exp(x, v), atol=1e-12)


# ----- tangent spaces -----------------------------------------------------------------------------
@pytest.mark.parametrize("k", [3, 4, 7])
def test_tangent_basis_is_an_orthonormal_basis_of_the_horizontal_space(k):
    space = Kendall(k)
    x = space.random_point(4, k)
    # A point whose first two landmarks coincide has Helmert coordinate ζ_0 = 0.
    x[0] = space.preshape(np.concatenate([np.zeros((2, 2)), np.arange(2 * k - 4.0).reshape(k - 2, 2) ** 1.5]))
    b = space.tangent_basis(x)
    assert b.shape == (4, 2 * (k - 2), k, 2)
    gram = _frob(b[:, :, None], b[:, None, :])
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(space.dim), gram.shape), atol=1e-12)
    ix = _times_i(x)
    np.testing.assert_allclose(b.sum(axis=-2), 0.0, atol=1e-12)
    np.testing.assert_allclose(_frob(b, x[:, None]), 0.0, atol=1e-12)
    np.testing.assert_allclose(_frob(b, ix[:, None]), 0.0, atol=1e-12)
    # Together with x and i·x it spans all 2(k−1) centred directions.
    full = np.concatenate([b, x[:, None], ix[:, None]], axis=1).reshape(4, 2 * k - 2, 2 * k)
    assert (np.linalg.matrix_rank(full, tol=1e-8) == 2 * k - 2).all()


def test_to_tangent_is_the_orthogonal_projection():
    space = Kendall(5)
    rng = np.random.default_rng(10)
    x = space.random_point(6, rng)
    a = rng.normal(size=(6, 5, 2))
    p = space.to_tangent(x, a)
    np.testing.assert_allclose(space.to_tangent(x, p), p, atol=1e-14)
    # The residual is orthogonal to every horizontal direction.
    np.testing.assert_allclose(_frob(a - p, np.moveaxis(space.tangent_basis(x), 1, 0)), 0.0, atol=1e-12)
    coords = _frob(a[:, None], space.tangent_basis(x))
    np.testing.assert_allclose(space.from_coordinates(x, coords), p, atol=1e-12)


# ----- exp and log --------------------------------------------------------------------------------
def test_exp_log_round_trips_up_to_rotation():
    space = Kendall(6)
    x, v, rng = _pairs(space, 20, 11, max_len=1.5)
    y = space.exp(x, v)
    np.testing.assert_allclose(space.log(x, y), v, atol=1e-10)
    np.testing.assert_allclose(space.dist(x, y), np.linalg.norm(v, axis=(-2, -1)), atol=1e-12)
    y_rot = _rotate(y, rng.uniform(-np.pi, np.pi, size=20))
    np.testing.assert_allclose(space.log(x, y_rot), v, atol=1e-10)
    np.testing.assert_allclose(space.dist(space.exp(x, space.log(x, y_rot)), y_rot), 0.0, atol=1e-7)
    np.testing.assert_allclose(space.log(x, _rotate(x, 0.7)), 0.0, atol=1e-12)


def test_log_is_horizontal_and_broadcasts():
    space = Kendall(4)
    rng = np.random.default_rng(12)
    x, y = space.random_point(3, rng), space.random_point(5, rng)
    u = space.log(x[:, None], y[None, :])
    assert u.shape == (3, 5, 4, 2)
    np.testing.assert_allclose(space.to_tangent(x[:, None], u), u, atol=1e-12)
    np.testing.assert_allclose(space.dist(x[:, None], y[None, :])[1, 2], space.dist(x[1], y[2]), atol=0)


# ----- parallel transport -------------------------------------------------------------------------
def _transport_setup(seed, n=4):
    """Pairs x, y = R·exp_x(v) with random rotations R, and a unit horizontal w at x."""
    space = Kendall(5)
    x, v, rng = _pairs(space, n, seed, max_len=1.3)
    y = _rotate(space.exp(x, v), rng.uniform(-np.pi, np.pi, size=n))
    w = space.random_unit_tangent(x, rng)
    return space, x, y, v, w


def _end_rotation(start, target):
    """R with target = start·Rᵀ for two pre-shapes of the same shape (SVD Procrustes)."""
    u, _, vt = np.linalg.svd(np.swapaxes(target, -1, -2) @ start)
    return u @ vt


def test_transport_is_horizontal_isometric_and_carries_the_velocity():
    space, x, y, v, w = _transport_setup(13)
    u = space.random_unit_tangent(x, 14)
    pu, pw = space.parallel_transport(x, y, u), space.parallel_transport(x, y, w)
    np.testing.assert_allclose(space.to_tangent(y, pu), pu, atol=1e-12)
    np.testing.assert_allclose(_frob(pu, pw), _frob(u, w), atol=1e-12)
    np.testing.assert_allclose(space.parallel_transport(x, y, v), -space.log(y, x), atol=1e-12)
    np.testing.assert_allclose(space.parallel_transport(y, x, pu), u, atol=1e-12)


def test_transport_commutes_with_the_complex_structure():
    """CP^m is Kähler: the transport of i·u is i times the transport of u."""
    space, x, y, v, w = _transport_setup(15)
    np.testing.assert_allclose(
        space.parallel_transport(x, y, _times_i(w)), _times_i(space.parallel_transport(x, y, w)), atol=1e-12
    )
    # The pre-shape sphere's transport would keep i·v fixed (it is orthogonal to the geodesic's
    # plane), but i·v is not horizontal at the end point, so it cannot be the transport here.
    iv = _times_i(v)
    end = space.exp(x, v)
    assert (np.linalg.norm(space.to_tangent(end, iv) - iv, axis=(-2, -1)) > 1e-3).all()


def test_transport_matches_projection_transport():
    space, x, y, v, w = _transport_setup(16)
    steps = 4000
    path = space.geodesic(x, v, np.linspace(0.0, 1.0, steps + 1))
    moved = w.copy()
    for point in path[1:]:
        moved = space.to_tangent(point, moved)
        moved /= np.linalg.norm(moved, axis=(-2, -1), keepdims=True)
    rot = _end_rotation(path[-1], y)
    np.testing.assert_allclose(np.einsum("nij,nkj->nki", rot, moved), space.parallel_transport(x, y, w), atol=1e-4)


def test_transport_matches_the_integrated_connection():
    """RK4 for X' = −<γ', X> γ − <iγ', X> iγ, the parallel-transport ODE on the horizontal lift."""
    space, x, y, v, w = _transport_setup(17)
    theta = np.linalg.norm(v, axis=(-2, -1), keepdims=True)
    direction = v / theta

    def gamma(t):
        return x * np.cos(t) + direction * np.sin(t)

    def rhs(t, field):
        g, dg = gamma(t), -x * np.sin(t) + direction * np.cos(t)
        return -_frob(dg, field)[:, None, None] * g - _frob(_times_i(dg), field)[:, None, None] * _times_i(g)

    steps = 400
    h = theta / steps
    field = w.copy()
    for j in range(steps):
        t = j * h
        k1 = rhs(t, field)
        k2 = rhs(t + h / 2, field + h / 2 * k1)
        k3 = rhs(t + h / 2, field + h / 2 * k2)
        k4 = rhs(t + h, field + h * k3)
        field = field + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    rot = _end_rotation(gamma(theta), y)
    np.testing.assert_allclose(np.einsum("nij,nkj->nki", rot, field), space.parallel_transport(x, y, w), atol=1e-9)
