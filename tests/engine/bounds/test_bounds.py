"""Bounds against their closed values and against brute force."""

import numpy as np
import pytest

from engine import bounds
from engine.data import hyperbolic_ball, sphere_ball
from engine.manifolds import SPD, Euclidean, Grassmann, Hyperbolic, Kendall, Sphere


def test_theorem2_closed_values():
    np.testing.assert_allclose(bounds.frechet_mean_sensitivity(10, np.pi / 8, 1.0), 0.121460, atol=5e-7)
    np.testing.assert_allclose(bounds.frechet_mean_sensitivity(300, np.pi / 8, 1.0), 0.004049, atol=5e-7)
    np.testing.assert_allclose(bounds.frechet_mean_sensitivity(20, 1.0, 0.0), 0.1)
    np.testing.assert_allclose(bounds.frechet_mean_sensitivity(20, 1.0, -0.5), 0.1)
    np.testing.assert_allclose(bounds.curvature_factor(np.pi / 8, 1.0), np.pi / 4)


def test_theorem2_refuses_radius_beyond_limit():
    with pytest.raises(ValueError, match="π/\\(4√κ\\)"):
        bounds.frechet_mean_sensitivity(10, np.pi / 4 + 0.01, 1.0)


@pytest.mark.parametrize("bound", [bounds.frechet_mean_sensitivity, bounds.frechet_gradient_sensitivity])
@pytest.mark.parametrize("kappa", [1.0, 4.0])
def test_theorem2_refuses_every_radius_at_or_beyond_the_limit(bound, kappa):
    """h = t·cot t is positive again for t in (π, 3π/2), (2π, 5π/2), …; none may pass."""
    limit = np.pi / (4 * np.sqrt(kappa))
    beyond = np.concatenate([[limit], np.linspace(limit, 4 * np.pi, 2000)[1:]])
    assert np.any(bounds.curvature_factor(beyond, kappa) > 0)  # the periodic branches exist on this grid
    for r in beyond:
        with pytest.raises(ValueError, match="π/\\(4√κ\\)"):
            bound(100, r, kappa)
    inside = np.linspace(limit / 1000, limit * (1 - 1e-9), 50)
    assert np.all(np.isfinite(bound(100, inside, kappa))) and np.all(bound(100, inside, kappa) > 0)
    with pytest.raises(ValueError, match="π/\\(4√κ\\)"):
        bound(100, np.array([0.1, 2.3]), kappa)  # one bad entry of an array is enough


def test_theorem2_periodic_branch_pair_breaks_the_bound_it_would_have_given():
    """The pair on the periodic branch: r = 2.3 on S², 50 records at θ = +π/2, 49 at −π/2, one moved by ±0.7.

    The means of the two neighbours are about 3.09 apart, 23.6 times the 0.131 that h = t·cot t would give
    on its second branch: that is why the domain check must refuse r = 2.3."""
    from engine.estimators import frechet_mean
    sphere = Sphere(2)

    def on_circle(theta):
        return np.stack([np.sin(theta), np.zeros_like(theta), np.cos(theta)], axis=-1)

    base = np.concatenate([np.full(50, np.pi / 2), np.full(49, -np.pi / 2)])
    d1 = on_circle(np.append(base, np.pi / 2 + 0.7))
    d2 = on_circle(np.append(base, np.pi / 2 - 0.7))
    assert np.all(sphere.dist(sphere.origin, np.concatenate([d1, d2])) <= 2.3 + 1e-12)
    means = [frechet_mean(sphere, d, init=on_circle(np.array(t)), tol=1e-12, max_iter=5000).mean
             for d, t in ((d1, np.pi / 2), (d2, np.pi / 2))]
    gap = float(sphere.dist(*means))
    branch_value = 2 * 2.3 * (2 - bounds.curvature_factor(2.3, 1.0)) / (100 * bounds.curvature_factor(2.3, 1.0))
    assert gap > 20 * branch_value
    with pytest.raises(ValueError):
        bounds.frechet_mean_sensitivity(100, 2.3, 1.0)


@pytest.mark.parametrize(("n", "radius", "kappa", "match"), [
    (2.5, 0.3, 1.0, "n must be an integer"),
    (1.5, 0.3, 1.0, "n must be an integer"),
    (0, 0.3, 1.0, "n must be an integer"),
    (np.nan, 0.3, 1.0, "n must be an integer"),
    (10, np.nan, 1.0, "radius must be a finite number"),
    (10, np.inf, 0.0, "radius must be a finite number"),
    (10, -1.0, 0.0, "radius must be a finite number"),
    (10, 0.3, np.inf, "kappa_max must be"),
    (10, 0.3, np.nan, "kappa_max must be"),
])
def test_theorem2_refuses_bad_n_radius_and_curvature(n, radius, kappa, match):
    for bound in (bounds.frechet_mean_sensitivity, bounds.frechet_gradient_sensitivity,
                  bounds.tangent_mean_sensitivity):
        with pytest.raises(ValueError, match=match):
            bound(n, radius, kappa)


def test_theorem2_domain_mask():
    r = np.array([0.1, np.pi / 4, 1.0, 2.3, np.nan, -1.0])
    np.testing.assert_array_equal(bounds.theorem2_domain(r, 1.0), [True, False, False, False, False, False])
    np.testing.assert_array_equal(bounds.theorem2_domain(50.0, [-1.0, 0.0, np.inf, np.nan]), [True, True, False, False])


def test_radius_limits_and_check_radius():
    limits = bounds.radius_limits(1.0, np.pi)
    assert limits.unique_mean == pytest.approx(np.pi / 2)
    assert limits.sensitivity == pytest.approx(np.pi / 4)
    assert bounds.radius_limits(4.0, np.pi / 2).sensitivity == pytest.approx(np.pi / 8)
    assert bounds.check_radius(Sphere(2), np.pi / 8, purpose="sensitivity") == np.pi / 8
    with pytest.raises(ValueError, match="unique Fréchet mean"):
        bounds.check_radius(Sphere(2), 1.6)
    with pytest.raises(ValueError, match="Theorem 2"):
        bounds.check_radius(Kendall(4), 0.5, purpose="sensitivity")
    assert bounds.check_radius(Hyperbolic(2), 50.0, purpose="sensitivity") == 50.0
    with pytest.raises(ValueError, match="purpose"):
        bounds.check_radius(Sphere(2), 0.1, purpose="other")


def test_ambient_radii():
    np.testing.assert_allclose(bounds.ambient_radius(SPD(2), 1.5), np.e**1.5 - 1)
    np.testing.assert_allclose(bounds.ambient_radius(Sphere(2), np.pi / 8), 2 * np.sin(np.pi / 16))
    np.testing.assert_allclose(bounds.ambient_radius(Hyperbolic(2), 1.0), np.tanh(0.5))
    with pytest.raises(ValueError, match=r"Grassmann\(4, 2\)"):
        bounds.ambient_radius(Grassmann(4, 2), 0.3)


def test_spd_ambient_radius_by_brute_force():
    """Proposition 1: the largest ‖X − I‖_F over ‖log X‖_F ≤ r, searched over eigenvalue angles."""
    r = 1.5
    phi = np.linspace(0, 2 * np.pi, 20001)
    lam = np.exp(r * np.stack([np.cos(phi), np.sin(phi)], -1))
    assert np.sqrt(((lam - 1) ** 2).sum(-1)).max() == pytest.approx(bounds.ambient_radius(SPD(2), r), rel=1e-6)


def test_sphere_ambient_radius_contains_the_ball():
    sphere, r = Sphere(2), np.pi / 8
    boundary = sphere.polar_point(r, np.linspace(0, 2 * np.pi, 100))
    chord = np.linalg.norm(boundary - sphere.origin, axis=-1)
    np.testing.assert_allclose(chord, bounds.ambient_radius(Sphere(2), r))


def test_boundary_constant_between_2r_and_theorem_constant():
    """On S^2 with r = π/8 the empirical constant exceeds 2r (curvature spreads logs) but stays
    below the Theorem 2 constant 2r(2 − h)."""
    sphere, r = Sphere(2), np.pi / 8
    c = bounds.boundary_log_constant(sphere, sphere.origin, r, grid=60)
    h = bounds.curvature_factor(r, 1.0)
    assert 2 * r <= c <= 2 * r * (2 - h)


def test_boundary_constant_is_2r_in_flat_space():
    c = bounds.boundary_log_constant(Euclidean(2), np.zeros(2), 0.7, grid=36)
    assert c == pytest.approx(2 * 0.7, rel=1e-6)


def test_utility_bound_flat_equals_laplace_second_moment():
    # Flat space: C2/C1 = 1 and E‖σZ‖² = d(d+1)σ² for Z ~ Laplace in R^d (|Z| ~ Gamma(d, 1)).
    assert bounds.laplace_utility_bound(0.1, 3, 1.0, 0.0, 0.0) == pytest.approx(12 * 0.01)
    z = np.random.default_rng(0).gamma(3, 1.0, size=200_000)
    assert (z**2).mean() == pytest.approx(12, rel=0.02)
    assert bounds.laplace_utility_bound(0.1, 2, np.pi / 8, 1.0, 1.0) > 6 * 0.01


def test_ambient_inflation_factor_by_simulation():
    rng = np.random.default_rng(1)
    big_d, d = 3, 2
    u = rng.standard_normal((200_000, big_d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    ambient = rng.gamma(big_d, 1.0, size=(200_000, 1)) * u
    intrinsic = rng.gamma(d, 1.0, size=200_000)
    ratio = (ambient[:, :d] ** 2).sum(1).mean() / (intrinsic**2).mean()
    assert ratio == pytest.approx(bounds.ambient_inflation_factor(d, big_d), rel=0.02)


def _log_stretch(manifold, m0, points) -> np.ndarray:
    """‖log_m0 x − log_m0 y‖ / ρ(x, y) over all pairs of distinct ``points``."""
    logs = manifold.log(m0, points)
    gap = manifold.norm(m0, logs[:, None] - logs[None, :])
    dist = manifold.dist(points[:, None], points[None, :])
    distinct = dist > 1e-9
    return gap[distinct] / dist[distinct]


@pytest.mark.parametrize("r", [np.pi / 8, 0.6, 1.2])
def test_log_lipschitz_by_brute_force_on_the_sphere(r):
    """Over pairs in B_r(m0) on S² the stretch of log_m0 stays below L = r/sin r and reaches it for
    nearby points on the boundary."""
    sphere = Sphere(2)
    boundary = sphere.polar_point(r, np.linspace(0, 2 * np.pi, 400, endpoint=False))
    inside = sphere_ball(300, r, rng=0)
    stretch = _log_stretch(sphere, sphere.origin, np.concatenate([boundary, inside]))
    lipschitz = bounds.log_lipschitz(r, 1.0)
    assert lipschitz == pytest.approx(r / np.sin(r))
    assert stretch.max() <= lipschitz * (1 + 1e-9)
    assert _log_stretch(sphere, sphere.origin, boundary).max() == pytest.approx(lipschitz, rel=1e-4)


def test_log_lipschitz_is_one_without_positive_curvature():
    h2 = Hyperbolic(2)
    boundary = h2.exp(h2.origin, 2.0 * h2.random_unit_tangent(np.broadcast_to(h2.origin, (100, 3)), rng=2))
    points = np.concatenate([hyperbolic_ball(300, 2.0, rng=1), boundary])
    assert _log_stretch(h2, h2.origin, points).max() <= 1 + 1e-9
    np.testing.assert_allclose(bounds.log_lipschitz([0.5, 2.0], [0.0, -1.0]), 1.0)
    assert bounds.log_lipschitz(0.0, 1.0) == 1.0


def test_log_lipschitz_refuses_a_ball_that_is_not_convex():
    with pytest.raises(ValueError, match="not convex"):
        bounds.log_lipschitz(np.pi / 2, 1.0)
    with pytest.raises(ValueError, match="radius"):
        bounds.log_lipschitz(-0.1, 1.0)


def test_tangent_mean_sensitivity_is_theorem2_times_lipschitz():
    r = np.pi / 8
    expected = bounds.frechet_mean_sensitivity(10, r, 1.0) * r / np.sin(r)
    assert bounds.tangent_mean_sensitivity(10, r, 1.0) == pytest.approx(expected)
    assert bounds.tangent_mean_sensitivity(20, 1.0, -1.0) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="Theorem 2"):
        bounds.tangent_mean_sensitivity(10, np.pi / 4 + 0.01, 1.0)
