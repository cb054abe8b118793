"""Riemannian Laplace (point level, ball conditioning, mechanism class) and the Euclidean baseline."""

import numpy as np
import pytest
from scipy import stats

from engine.manifolds import SPD, Euclidean, Grassmann, Hyperbolic, Kendall, Sphere
from engine.manifolds.spd import is_positive_definite
from engine.mechanisms import (
    EuclideanLaplace,
    RiemannianLaplace,
    euclidean_laplace,
    fraction_off_manifold,
    off_manifold,
    riemannian_laplace,
)
from tests.engine.mechanisms.test_radial import (
    grid_cdf,
    hyperbolic_logpdf,
    kendall_logpdf,
    spd2_rho_logpdf,
    sphere_logpdf,
)

M = 4000

POINT_CASES = [
    ("sphere2", Sphere(2), 0.4, sphere_logpdf(2, 0.4), np.pi),
    ("sphere5", Sphere(5), 0.3, sphere_logpdf(5, 0.3), np.pi),
    ("hyperbolic3", Hyperbolic(3), 0.3, hyperbolic_logpdf(3, 0.3), 40.0),
    ("kendall4", Kendall(4), 0.3, kendall_logpdf(4, 0.3), np.pi / 2),
    ("spd2", SPD(2), 0.5, spd2_rho_logpdf(0.5), 60.0),
    ("euclidean3", Euclidean(3), 0.7, lambda r: -r / 0.7 + 2 * np.log(r), 60.0),
    ("spd3-logeuclid", SPD(3, metric="log-euclidean"), 0.2, lambda r: -r / 0.2 + 5 * np.log(r), 20.0),
]


def _coefficients(manifold, x, v):
    """Coordinates of tangent vectors ``v`` at ``x`` in the orthonormal ``tangent_basis``."""
    basis = manifold.tangent_basis(x)
    vv = np.expand_dims(v, -manifold.point_ndim - 1)
    xx = np.expand_dims(x, -manifold.point_ndim - 1)
    return manifold.inner(xx, vv, basis)


@pytest.mark.parametrize("seed, case", enumerate(POINT_CASES), ids=[c[0] for c in POINT_CASES])
def test_point_sampler_distances_membership_isotropy(seed, case):
    _, manifold, sigma, logpdf, upper = case
    rng = np.random.default_rng(500 + seed)
    eta = manifold.random_point(1, rng)[0]
    x = riemannian_laplace(manifold, eta, sigma, size=M, rng=rng)
    assert x.shape == (M, *manifold.point_shape)
    assert manifold.belongs(x, atol=1e-6).all()
    d = manifold.dist(eta, x)
    n = 20_001 if case[0] == "spd2" else 200_001
    assert stats.kstest(d, grid_cdf(logpdf, upper, n=n)).pvalue > 0.01
    coef = _coefficients(manifold, eta, manifold.log(eta, x))
    unit = coef / np.linalg.norm(coef, axis=-1, keepdims=True)
    # Each coordinate of a mean of M unit vectors has standard deviation <= 1/sqrt(M).
    assert np.abs(unit.mean(axis=0)).max() < 4.5 / np.sqrt(M)


def test_wrong_sigma_is_detected_at_point_level():
    rng = np.random.default_rng(1)
    eta = Sphere(2).random_point(1, rng)[0]
    d = Sphere(2).dist(eta, riemannian_laplace(Sphere(2), eta, 0.4, size=M, rng=rng))
    assert stats.kstest(d, grid_cdf(sphere_logpdf(2, 0.52), np.pi)).pvalue < 0.01


def test_shapes_batched_footpoints_never_squeeze():
    s2 = Sphere(2)
    eta = s2.random_point(6, 0).reshape(2, 3, 3)
    assert riemannian_laplace(s2, eta, 0.2, rng=0).shape == (2, 3, 3)
    x = riemannian_laplace(s2, eta, 0.2, size=5, rng=0)
    assert x.shape == (5, 2, 3, 3)
    assert riemannian_laplace(s2, eta[0, 0], 0.2, size=1, rng=0).shape == (1, 3)
    # Each draw stays near its own footpoint.
    assert (s2.dist(eta, x) < 2.0).mean() > 0.95
    np.testing.assert_array_equal(riemannian_laplace(s2, eta, 0.2, rng=7), riemannian_laplace(s2, eta, 0.2, rng=7))


def test_ball_conditioned_beyond_hyperbolic_limit_matches_truncated_law():
    h3 = Hyperbolic(3)
    eta = h3.origin
    x = riemannian_laplace(h3, eta, 2.0, size=M, rng=3, ball_center=eta, ball_radius=1.5)
    d = h3.dist(eta, x)
    assert d.max() <= 1.5
    assert stats.kstest(d, grid_cdf(hyperbolic_logpdf(3, 2.0), 1.5)).pvalue > 0.01


def test_ball_conditioned_off_centre_equals_rejection_from_full_law():
    s2 = Sphere(2)
    rng = np.random.default_rng(4)
    center = s2.origin
    eta = s2.polar_point(0.3, 1.0)
    x = riemannian_laplace(s2, eta, 0.5, size=M, rng=rng, ball_center=center, ball_radius=0.6)
    assert (s2.dist(center, x) <= 0.6).all()
    full = riemannian_laplace(s2, eta, 0.5, size=40_000, rng=rng)
    kept = full[s2.dist(center, full) <= 0.6]
    assert stats.ks_2samp(s2.dist(eta, x), s2.dist(eta, kept)).pvalue > 0.01
    assert stats.ks_2samp(x[:, 0], kept[:, 0]).pvalue > 0.01


def test_ball_with_too_little_mass_is_refused():
    s2 = Sphere(2)
    far = s2.polar_point(np.pi - 0.01, 0.0)
    with pytest.raises(ValueError, match="fell inside the ball"):
        riemannian_laplace(s2, s2.origin, 0.02, size=10, rng=0, ball_center=far, ball_radius=0.01)


def test_exact_refused_without_sampler_and_bad_arguments():
    g = Grassmann(4, 2)
    with pytest.raises(ValueError, match="method='mh'"):
        riemannian_laplace(g, g.origin, 0.3, rng=0)
    with pytest.raises(ValueError, match="'gibbs'"):
        riemannian_laplace(Sphere(2), Sphere(2).origin, 0.3, method="gibbs")
    with pytest.raises(ValueError, match="footpoint"):
        riemannian_laplace(Sphere(2), np.array([1.0, 1.0, 0.0]), 0.3)
    with pytest.raises(ValueError, match="both ball_center and ball_radius"):
        riemannian_laplace(Sphere(2), Sphere(2).origin, 0.3, ball_radius=0.5)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), "abc"])
def test_bad_sigma_epsilon_sensitivity_quote_the_value(bad):
    s2 = Sphere(2)
    with pytest.raises(ValueError, match=r"sigma.*" + repr(bad).replace("(", r"\(").replace(")", r"\)")):
        riemannian_laplace(s2, s2.origin, bad)
    with pytest.raises(ValueError, match="epsilon.*" + repr(bad)):
        RiemannianLaplace(manifold=s2, epsilon=bad, sensitivity=0.1)
    with pytest.raises(ValueError, match="sensitivity.*" + repr(bad)):
        RiemannianLaplace(manifold=s2, epsilon=1.0, sensitivity=bad)
    with pytest.raises(ValueError, match="epsilon.*" + repr(bad)):
        EuclideanLaplace(manifold=s2, epsilon=bad, sensitivity=0.1)


# ----- the mechanism class --------------------------------------------------------------------
def test_sigma_rule_follows_theorem_1():
    s2 = Sphere(2)
    assert RiemannianLaplace(manifold=s2, epsilon=0.5, sensitivity=0.1).sigma == pytest.approx(0.2)
    ball = RiemannianLaplace(manifold=s2, epsilon=0.5, sensitivity=0.1, ball_center=s2.origin, ball_radius=0.5)
    assert ball.sigma == pytest.approx(0.4)
    assert "Theorem 3" in ball.privacy_guarantee().reason
    forced = RiemannianLaplace(manifold=s2, epsilon=0.5, sensitivity=0.1, footpoint_dependent=True)
    assert forced.sigma == pytest.approx(0.4)
    bw = RiemannianLaplace(manifold=SPD(2, metric="bures-wasserstein"), epsilon=1.0, sensitivity=0.1)
    assert bw.sigma == pytest.approx(0.2)
    assert "not homogeneous" in bw.privacy_guarantee().reason
    assert RiemannianLaplace(manifold=Grassmann(4, 2), epsilon=1.0, sensitivity=0.1).sigma == pytest.approx(0.1)
    with pytest.raises(ValueError, match="footpoint_dependent=False.*ball"):
        RiemannianLaplace(manifold=s2, epsilon=1, sensitivity=0.1, footpoint_dependent=False,
                          ball_center=s2.origin, ball_radius=0.5)


def test_non_normalisable_settings_are_refused_with_explanation():
    with pytest.raises(ValueError, match=r"sigma = 1 .*Hyperbolic\(3\).*sigma < 0\.5.*ball_center"):
        RiemannianLaplace(manifold=Hyperbolic(3), epsilon=1.0, sensitivity=1.0)
    with pytest.raises(ValueError, match=r"SPD\(2, affine\).*sigma < 1\.41421"):
        RiemannianLaplace(manifold=SPD(2), epsilon=1.0, sensitivity=1.5)
    mech = RiemannianLaplace(manifold=Hyperbolic(3), epsilon=1.0, sensitivity=1.0,
                             ball_center=Hyperbolic(3).origin, ball_radius=2.0)
    x = mech.release(Hyperbolic(3).origin, size=100, rng=0).points
    assert (Hyperbolic(3).dist(Hyperbolic(3).origin, x) <= 2.0).all()


def test_release_and_guarantee():
    spd = SPD(2)
    mech = RiemannianLaplace(manifold=spd, epsilon=2.0, sensitivity=0.3)
    assert mech.sigma == pytest.approx(0.15)
    x = mech.release(np.diag([2.0, 0.5]), size=50, rng=1).points
    assert x.shape == (50, 2, 2) and is_positive_definite(x).all()
    g = mech.privacy_guarantee()
    assert (g.epsilon, g.delta, g.sigma) == (2.0, 0.0, pytest.approx(0.15))
    assert g.rule == "σ = Δ/ε"
    assert "transitively" in g.reason
    assert any("Δ = 0.3" in a for a in g.assumptions)
    assert any("Metropolis–Hastings" in a for a in g.assumptions)
    y = mech.release(np.eye(2), method="mh", burn_in=200, thin=5, size=3, rng=2)
    assert y.points.shape == (3, 2, 2) and spd.belongs(y.points).all()
    # The chain's diagnostics travel with an approximate release.
    assert not y.exact and 0 < float(y.chain.acceptance_rate) < 1 and y.guarantee == g


# ----- Euclidean (ambient) baseline -----------------------------------------------------------
@pytest.mark.parametrize("manifold", [Sphere(2), SPD(2), Kendall(4)], ids=["sphere2", "spd2", "kendall4"])
def test_euclidean_laplace_radius_is_gamma(manifold):
    rng = np.random.default_rng(9)
    eta = manifold.random_point(1, rng)[0]
    sigma = 0.3
    x = euclidean_laplace(manifold, eta, sigma, size=M, rng=rng)
    assert x.shape == (M, *manifold.point_shape)
    noise = manifold.to_ambient(x) - manifold.to_ambient(eta)
    radius = np.linalg.norm(noise, axis=-1) / sigma
    D = manifold.ambient_dim
    assert stats.kstest(radius, stats.gamma(D).cdf).pvalue > 0.01
    assert stats.kstest(radius, stats.gamma(D, scale=1.3).cdf).pvalue < 0.01
    assert np.abs((noise / np.linalg.norm(noise, axis=-1, keepdims=True)).mean(axis=0)).max() < 4.5 / np.sqrt(M)


def test_off_manifold_is_reported():
    s2 = Sphere(2)
    assert fraction_off_manifold(s2, euclidean_laplace(s2, s2.origin, 0.1, size=100, rng=0)) == 1.0
    h2 = Hyperbolic(2)
    disk = euclidean_laplace(h2, h2.origin, 1.0, size=100, rng=0)  # Poincaré coordinates: off outside the unit disk
    assert fraction_off_manifold(h2, disk) == np.mean(np.linalg.norm(h2.to_ambient(disk), axis=-1) > 1) > 0
    spd = SPD(2)
    x = euclidean_laplace(spd, np.eye(2), 0.3, size=2000, rng=0)
    mask = off_manifold(spd, x)
    assert mask.shape == (2000,)
    np.testing.assert_array_equal(mask, ~is_positive_definite(x))
    assert 0.0 < fraction_off_manifold(spd, x) < 1.0


def test_euclidean_mechanism_class():
    mech = EuclideanLaplace(manifold=SPD(2), epsilon=0.5, sensitivity=np.e ** 1.5 - 1)
    assert mech.sigma == pytest.approx((np.e ** 1.5 - 1) / 0.5)
    assert mech.release(np.eye(2), rng=0).points.shape == (2, 2)
    g = mech.privacy_guarantee()
    assert g.delta == 0.0 and "R^3" in g.reason


def test_releases_beyond_float64_are_refused_not_returned():
    """On SPD(2) at σ = 1.0 (limit √2) some exact draws reach radii whose matrices float64
    cannot hold (0.2 % non-PD, some non-finite); the call fails with a clear error instead of returning them."""
    spd = SPD(2)
    with pytest.raises(ValueError, match="not representable in float64.*normalisability limit 1.41421"):
        riemannian_laplace(spd, spd.origin, 1.0, size=20_000, rng=0)
    fine = riemannian_laplace(spd, spd.origin, 0.3, size=20_000, rng=0)
    assert np.isfinite(fine).all() and spd.belongs(fine).all()


def test_an_epsilon_whose_scale_float64_cannot_hold_is_refused_in_one_line():
    # σ = Δ/ε = 1.6e298 used to release points of norm ~1e298 whose squares overflow.
    with pytest.raises(ValueError, match=r"epsilon = 1e-300 is too small .* raise epsilon to at least 1\.\d+e-150"):
        EuclideanLaplace(manifold=Sphere(2), epsilon=1e-300, sensitivity=0.0156)
    with pytest.raises(ValueError, match=r"sigma must be at most 1\.341e\+148"):
        euclidean_laplace(Sphere(2), np.array([0.0, 0.0, 1.0]), 1e200, size=3, rng=0)
    # Δ/ε overflows to inf: refused naming ε, not as an infinite σ.
    with pytest.raises(ValueError, match=r"epsilon = 1e-320 is too small .* sigma = .*= inf"):
        RiemannianLaplace(manifold=Sphere(2), epsilon=1e-320, sensitivity=0.02)
    # A huge but finite σ on the compact sphere is a valid (nearly uniform) law.
    release = RiemannianLaplace(manifold=Sphere(2), epsilon=1e-300, sensitivity=0.02).release(
        np.array([0.0, 0.0, 1.0]), size=50, rng=0)
    assert Sphere(2).belongs(release.points).all()
