"""Hyperbolic space in the Lorentz model: closed forms, Poincaré ball, far-point accuracy."""

import numpy as np
import pytest
from scipy import stats

from engine.manifolds.hyperbolic import Hyperbolic, minkowski

H3 = Hyperbolic(3)


def _directions(n, d, seed):
    u = np.random.default_rng(seed).standard_normal((n, d))
    return u / np.linalg.norm(u, axis=-1, keepdims=True)


def _law_of_cosines(r1, r2, phi):
    """Distance between points at radii r1, r2 with angle phi at the origin, cancellation-free:
    sinh²(d/2) = sinh²((r1 − r2)/2) + sinh r1 sinh r2 sin²(phi/2)."""
    half = np.sinh((r1 - r2) / 2) ** 2 + np.sinh(r1) * np.sinh(r2) * np.sin(phi / 2) ** 2
    return 2 * np.arcsinh(np.sqrt(half))


def _poincare_dist(p, q):
    num = 2 * np.sum((p - q) ** 2, axis=-1)
    den = (1 - np.sum(p * p, axis=-1)) * (1 - np.sum(q * q, axis=-1))
    return np.arccosh(1 + num / den)


# ----- closed forms -------------------------------------------------------------------------
def test_distance_from_origin_is_the_polar_radius():
    rho = np.array([0.0, 1e-9, 1e-4, 0.3, 2.0, 10.0, 20.0, 25.0, 30.0])
    x = H3.from_polar(rho, _directions(rho.size, 3, 0))
    assert H3.belongs(x).all()
    np.testing.assert_allclose(H3.dist(H3.origin, x), rho, rtol=1e-13, atol=0)
    np.testing.assert_allclose(H3.dist(x, H3.origin), rho, rtol=1e-13, atol=0)
    back_rho, back_dir = H3.to_polar(x)
    np.testing.assert_allclose(back_rho, rho, rtol=1e-13, atol=0)
    np.testing.assert_allclose(back_dir[1:], _directions(rho.size, 3, 0)[1:], atol=1e-12)


def test_exp_and_log_at_the_origin_are_polar_coordinates():
    rho = np.array([0.5, 3.0, 20.0, 25.0])
    u = _directions(4, 3, 1)
    v = np.concatenate([np.zeros((4, 1)), rho[:, None] * u], axis=-1)
    x = H3.exp(H3.origin, v)
    expected = np.concatenate([np.cosh(rho)[:, None], np.sinh(rho)[:, None] * u], axis=-1)
    np.testing.assert_allclose(x, expected, rtol=1e-13)
    np.testing.assert_allclose(H3.log(H3.origin, x), v, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("rho", [0.7, 20.0, 25.0, 30.0])
def test_log_towards_the_origin_is_minus_rho_times_the_radial_unit_vector(rho):
    u = _directions(5, 3, 2)
    x = H3.from_polar(np.full(5, rho), u)
    # Unit tangent at x pointing away from the origin: d/dt of (cosh t, sinh t u) at t = rho.
    radial = np.concatenate([np.full((5, 1), np.sinh(rho)), np.cosh(rho) * u], axis=-1)
    np.testing.assert_allclose(H3.log(x, H3.origin), -rho * radial, rtol=1e-12, atol=1e-12)
    # The norm reads the sideways part of a vector with components ~rho·cosh(rho), whose rounding
    # alone contributes a relative ~(1e-16·cosh rho)² (3e-7 at rho = 30).
    np.testing.assert_allclose(H3.norm(x, H3.log(x, H3.origin)), rho, rtol=1e-6)


@pytest.mark.parametrize(
    "r1, r2, phi",
    [(0.3, 1.1, 2.0), (2.0, 2.0, 1e-7), (20.0, 25.0, 1.0), (20.0, 20.0, 1e-9), (25.0, 25.0, 1e-11),
     (20.0, 21.0, 0.0), (3.0, 25.0, 2.0), (20.0, 20.0, np.pi)],
)
def test_distance_matches_the_hyperbolic_law_of_cosines(r1, r2, phi):
    x = H3.from_polar(r1, np.array([1.0, 0.0, 0.0]))
    y = H3.from_polar(r2, np.array([np.cos(phi), np.sin(phi), 0.0]))
    expected = _law_of_cosines(r1, r2, phi)
    np.testing.assert_allclose(H3.dist(x, y), expected, rtol=1e-9)
    np.testing.assert_allclose(H3.norm(x, H3.log(x, y)), expected, rtol=1e-9)


def test_textbook_arccosh_fails_where_dist_does_not():
    """The far-point case of the law-of-cosines test is a real test: the naive formula is off."""
    x = H3.from_polar(20.0, np.array([1.0, 0.0, 0.0]))
    y = H3.from_polar(20.0, np.array([np.cos(1e-9), np.sin(1e-9), 0.0]))
    naive = np.arccosh(np.maximum(-minkowski(x, y), 1.0))
    assert abs(naive - _law_of_cosines(20.0, 20.0, 1e-9)) > 0.1


def test_sectional_curvature_is_minus_one_from_small_triangles():
    """d(Exp_x(t u), Exp_x(t w)) = √2 t (1 − K t²/12 + O(t⁴)) for orthonormal u, w."""
    x = H3.random_point(4, np.random.default_rng(3))
    basis = H3.tangent_basis(x)
    t = 1e-3
    d = H3.dist(H3.exp(x, t * basis[:, 0]), H3.exp(x, t * basis[:, 2]))
    curvature = 12 * (1 - d / (np.sqrt(2) * t)) / t**2
    np.testing.assert_allclose(curvature, -1.0, atol=1e-4)
    assert H3.kappa_min == H3.kappa_max == -1.0
    assert H3.injectivity_radius == np.inf


def test_geodesic_moves_at_constant_speed():
    x = H3.random_point(2, np.random.default_rng(4))
    v = 1.5 * H3.random_unit_tangent(x, np.random.default_rng(5))
    t = np.array([0.0, 0.5, 2.0])
    path = H3.geodesic(x, v, t)
    assert path.shape == (3, 2, 4)
    np.testing.assert_allclose(H3.dist(x, path), 1.5 * t[:, None] * np.ones((1, 2)), rtol=1e-12, atol=1e-12)


# ----- Poincaré ball ------------------------------------------------------------------------
@pytest.mark.parametrize("rho", [0.0, 0.4, 3.0, 20.0, 25.0, 30.0])
def test_poincare_radius_is_tanh_of_half_the_distance(rho):
    p = H3.to_poincare(H3.from_polar(np.full(3, rho), _directions(3, 3, 6)))
    np.testing.assert_allclose(np.linalg.norm(p, axis=-1), np.tanh(rho / 2), rtol=1e-14, atol=0)
    np.testing.assert_allclose(p / np.maximum(np.linalg.norm(p, axis=-1, keepdims=True), 1e-300),
                               _directions(3, 3, 6) if rho > 0 else 0 * p, atol=1e-14)


def test_poincare_points_stay_strictly_inside_the_ball_far_out():
    for rho in [36.0, 40.0, 100.0, 300.0]:
        p = H3.to_poincare(H3.from_polar(rho, np.array([1.0, 2.0, 2.0])))
        assert np.all(np.isfinite(p))
        assert np.linalg.norm(p) < 1.0
        assert np.linalg.norm(p) > 1.0 - 1e-14


def test_poincare_round_trips():
    x = H3.random_point(20, np.random.default_rng(7))
    np.testing.assert_allclose(H3.from_poincare(H3.to_poincare(x)), x, rtol=1e-12)
    p = 0.99 * _directions(20, 3, 8) * np.random.default_rng(9).uniform(0, 1, (20, 1))
    np.testing.assert_allclose(H3.to_poincare(H3.from_poincare(p)), p, atol=1e-14)
    # Far out the round trip keeps the distance from the origin to ~1e-16·e^ρ.
    far = H3.from_polar(np.array([20.0, 25.0]), _directions(2, 3, 10))
    np.testing.assert_allclose(H3.dist(H3.origin, H3.from_poincare(H3.to_poincare(far))), [20.0, 25.0], rtol=1e-7)


def test_poincare_distance_formula_agrees_with_the_lorentz_distance():
    x = H3.random_point(30, np.random.default_rng(11))
    y = H3.random_point(30, np.random.default_rng(12))
    expected = _poincare_dist(H3.to_poincare(x), H3.to_poincare(y))
    np.testing.assert_allclose(H3.dist(x, y), expected, rtol=1e-10)


def test_poincare_batches_keep_their_shape():
    h2 = Hyperbolic(2)
    x = h2.random_point(6, np.random.default_rng(13)).reshape(2, 3, 3)
    assert h2.to_poincare(x).shape == (2, 3, 2)
    assert h2.from_poincare(h2.to_poincare(x)).shape == (2, 3, 3)
    assert h2.to_poincare(h2.origin).shape == (2,)


# ----- far-point robustness ------------------------------------------------------------------
@pytest.mark.parametrize("rho, rtol", [(20.0, 2e-6), (25.0, 2e-4)])
def test_exp_log_round_trip_far_from_the_origin(rho, rtol):
    """Tolerances follow the representation: rounding a point at radius ρ to doubles moves it by
    ~1e-16·sinh ρ (3e-8 at 20, 4e-6 at 25), compared with |v| >= 0.1 here."""
    rng = np.random.default_rng(14)
    x = H3.from_polar(np.full(40, rho), _directions(40, 3, 15))
    length = rng.uniform(0.1, 3.0, size=(40, 1))
    v = length * H3.random_unit_tangent(x, rng)
    y = H3.exp(x, v)
    assert H3.belongs(y).all()
    np.testing.assert_allclose(H3.dist(x, y), length[:, 0], rtol=rtol)
    np.testing.assert_allclose(H3.dist(y, x), length[:, 0], rtol=rtol)
    error = H3.norm(x, H3.log(x, y) - v)
    assert np.all(error <= rtol * length[:, 0])


def test_membership_is_relative_far_from_the_origin():
    x = H3.from_polar(25.0, np.array([0.6, 0.0, 0.8]))
    # <x, x>_L + 1 is a difference of numbers ~1e21 whose rounding error is O(1), so an absolute
    # tolerance on it would reject exact points; the relative test on x_0 accepts them.
    assert H3.belongs(x)
    assert H3.belongs(H3.from_polar(np.full(50, 25.0), _directions(50, 3, 24))).all()
    off = x.copy()
    off[0] *= 1 + 1e-6
    assert not H3.belongs(off)


# ----- metric, tangent spaces, transport ------------------------------------------------------
def test_inner_is_the_minkowski_form_on_tangent_vectors():
    rng = np.random.default_rng(16)
    x = H3.random_point(10, rng)
    u = H3.to_tangent(x, rng.standard_normal((10, 4)))
    w = H3.to_tangent(x, rng.standard_normal((10, 4)))
    np.testing.assert_allclose(minkowski(x, u), 0.0, atol=1e-12)
    np.testing.assert_allclose(H3.inner(x, u, w), minkowski(u, w), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(H3.inner(H3.origin, u[0], w[0]), u[0, 1:] @ w[0, 1:], rtol=1e-12)


def test_tangent_basis_is_minkowski_orthonormal_and_boosted_from_the_origin():
    x = H3.random_point(5, np.random.default_rng(17))
    basis = H3.tangent_basis(x)
    assert basis.shape == (5, 3, 4)
    gram = minkowski(basis[:, :, None, :], basis[:, None, :, :])
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(3), gram.shape), atol=1e-12)
    np.testing.assert_allclose(minkowski(x[:, None], basis), 0.0, atol=1e-12)
    np.testing.assert_allclose(H3.tangent_basis(H3.origin), np.eye(3, 4, k=1), atol=0)
    # The basis is the transport of the origin's basis, so transporting it back gives e_1..e_d.
    back = H3.parallel_transport(x[:, None], H3.origin, basis)
    np.testing.assert_allclose(back, np.broadcast_to(np.eye(3, 4, k=1), back.shape), atol=1e-12)


def test_tangent_basis_far_out_is_orthonormal_in_the_metric():
    x = H3.from_polar(np.full(3, 20.0), _directions(3, 3, 18))
    basis = H3.tangent_basis(x)
    gram = H3.inner(x[:, None, None], basis[:, :, None], basis[:, None, :])
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(3), gram.shape), atol=1e-6)


def test_parallel_transport_is_a_minkowski_isometry_and_reversible():
    rng = np.random.default_rng(19)
    x, y = H3.random_point(8, rng), H3.random_point(8, rng)
    u = H3.to_tangent(x, rng.standard_normal((8, 4)))
    w = H3.to_tangent(x, rng.standard_normal((8, 4)))
    pu, pw = H3.parallel_transport(x, y, u), H3.parallel_transport(x, y, w)
    np.testing.assert_allclose(minkowski(y, pu), 0.0, atol=1e-10)
    np.testing.assert_allclose(minkowski(pu, pw), minkowski(u, w), rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(H3.parallel_transport(y, x, pu), u, rtol=1e-9, atol=1e-10)


def test_projection_is_vertical_and_fixes_points():
    x = H3.random_point(4, np.random.default_rng(20))
    np.testing.assert_allclose(H3.projection(x), x, rtol=1e-14)
    lifted = x.copy()
    lifted[:, 0] = np.array([-5.0, 0.0, 1e3, 0.5])
    np.testing.assert_allclose(H3.projection(lifted), x, rtol=1e-14)


def test_spatial_coordinates_are_a_global_chart():
    s = 10.0 * np.random.default_rng(21).standard_normal((7, 3))
    x = H3.from_spatial(s)
    assert H3.belongs(x).all()
    np.testing.assert_array_equal(x[:, 1:], s)
    np.testing.assert_allclose(np.linalg.norm(s, axis=-1), np.sinh(H3.dist(H3.origin, x)), rtol=1e-12)


def test_ambient_coordinates_are_the_poincare_ball_and_its_outside_is_off_the_space():
    x = H3.random_point(7, 22)
    a = H3.to_ambient(x)
    np.testing.assert_allclose(a, H3.to_poincare(x), rtol=1e-14)
    np.testing.assert_allclose(H3.from_ambient(a), x, rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(a, axis=-1), np.tanh(H3.dist(H3.origin, x) / 2), rtol=1e-12)
    assert H3.ambient_dim == 3
    outside = H3.from_ambient(a / np.linalg.norm(a, axis=-1, keepdims=True) * 1.5)
    assert not H3.belongs(outside).any() and (outside[:, 0] < 0).all()
    np.testing.assert_allclose(np.linalg.norm(H3.to_ambient(outside), axis=-1), 1.5, rtol=1e-14)


def test_random_points_are_a_wrapped_standard_normal():
    """Distance to the origin of Exp_o(z), z ~ N(0, I_3), follows the chi law with 3 dof."""
    x = H3.random_point(4000, np.random.default_rng(22))
    assert x.shape == (4000, 4)
    result = stats.kstest(H3.dist(H3.origin, x), stats.chi(3).cdf)
    assert result.pvalue > 1e-3
    np.testing.assert_array_equal(x, H3.random_point(4000, 22))


def test_random_step_is_exp_of_the_random_direction_near_the_origin():
    """The boosted step equals Exp_x(t u) for the direction ``random_unit_tangent`` draws from the
    same random numbers, where the generic route is still accurate."""
    x = H3.from_polar(np.array([0.0, 0.7, 4.0]), _directions(3, 3, 5))
    t = np.array([0.3, 1.5, 2.0])
    step = H3.random_step(x, t, np.random.default_rng(8))
    generic = H3.exp(x, t[:, None] * H3.random_unit_tangent(x, np.random.default_rng(8)))
    np.testing.assert_allclose(step, generic, rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("rho", [2.0, 41.0, 300.0])
def test_random_step_far_out_moves_by_its_length_in_a_uniform_direction(rho):
    """From x at distance ρ, a step of length t in direction angle φ to the radial lands at
    cosh ρ' = cosh ρ cosh t + sinh ρ sinh t cos φ; with φ uniform on the circle (H²), cos φ follows the
    arcsine law on [−1, 1]. The generic Exp_x(t · random_unit_tangent) fails this at ρ = 41 (its
    ambient tangent vector has entries ~e^41 and its recomputed length is off by orders of magnitude)."""
    h2, t = Hyperbolic(2), 3.0
    x = np.broadcast_to(h2.from_polar(rho, np.array([0.6, 0.8])), (4000, 3))
    landed = h2.dist(h2.random_step(x, np.full(4000, t), np.random.default_rng(3)), h2.origin)
    if rho < 20:
        cos_phi = (np.cosh(landed) - np.cosh(rho) * np.cosh(t)) / (np.sinh(rho) * np.sinh(t))
    else:  # divided by cosh ρ ≈ sinh ρ ≈ e^ρ/2 (relative error e^(−2ρ)), free of cancellation
        cos_phi = (np.exp(landed - rho) - np.cosh(t)) / np.sinh(t)
    assert stats.kstest((cos_phi + 1) / 2, stats.arcsine.cdf).pvalue > 1e-3


# ----- validation ---------------------------------------------------------------------------
def test_bad_inputs_raise_value_errors_that_quote_the_value():
    x = H3.random_point(2, np.random.default_rng(23))
    with pytest.raises(ValueError, match="off"):
        H3.check_points(x + np.array([0.0, 0.1, 0.0, 0.0]))
    lower = x * np.array([-1.0, 1.0, 1.0, 1.0])
    assert not H3.belongs(lower).any()
    with pytest.raises(ValueError, match="off"):
        H3.check_points(lower)
    with pytest.raises(ValueError, match="off"):
        H3.to_poincare(lower)
    bad = x.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="nan"):
        H3.check_points(bad)
    with pytest.raises(ValueError, match=r"shape \(2, 3\)"):
        H3.check_points(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="shape"):
        H3.to_poincare(np.ones(5))
    for dim in [0, -2, 1.5, "3"]:
        with pytest.raises(ValueError, match=repr(dim)):
            Hyperbolic(dim)
    with pytest.raises(ValueError, match=r"norm .*1\.0"):
        H3.from_poincare(np.array([[0.1, 0.0, 0.0], [0.6, 0.8, 0.0]]))
    with pytest.raises(ValueError, match="shape"):
        H3.from_poincare(np.zeros(2))
    with pytest.raises(ValueError, match="-0.5"):
        H3.from_polar(-0.5, np.ones(3))
    with pytest.raises(ValueError, match="non-zero"):
        H3.from_polar(1.0, np.zeros(3))
    with pytest.raises(ValueError, match="inf"):
        H3.from_polar(np.inf, np.ones(3))
