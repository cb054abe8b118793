"""Tangent-space Gaussian: the noise law, the calibrations and the mechanism class."""

import numpy as np
import pytest
from scipy import stats

from engine.manifolds import SPD, Euclidean, Grassmann, Hyperbolic, Kendall, Sphere
from engine.mechanisms import (
    TangentGaussian,
    analytic_gaussian_sigma,
    classical_gaussian_sigma,
    gaussian_delta,
    tangent_gaussian,
)
from tests.engine.mechanisms.test_laplace import _coefficients

SPACES = [Sphere(2), Hyperbolic(3), SPD(3), Kendall(5), Grassmann(5, 2)]
M = 4000


@pytest.mark.parametrize("seed, manifold", enumerate(SPACES), ids=[m.name for m in SPACES])
def test_noise_is_tangent_isotropic_gaussian(seed, manifold):
    rng = np.random.default_rng(40 + seed)
    x = manifold.random_point(1, rng)[0]
    sigma = 0.3
    xi = tangent_gaussian(manifold, x, sigma, size=M, rng=rng)
    assert xi.shape == (M, *manifold.point_shape)
    np.testing.assert_allclose(manifold.to_tangent(x, xi), xi, atol=1e-10)
    # ‖ξ‖²/σ² ~ χ²_dim: its mean over M draws is dim ± sqrt(2 dim / M).
    sq = manifold.norm(x, xi) ** 2 / sigma**2
    assert abs(sq.mean() - manifold.dim) < 5 * np.sqrt(2 * manifold.dim / M)
    coef = _coefficients(manifold, x, xi).ravel()
    assert stats.kstest(coef, stats.norm(scale=sigma).cdf).pvalue > 0.01
    assert stats.kstest(coef, stats.norm(scale=1.1 * sigma).cdf).pvalue < 0.01


def test_batched_shapes():
    s2 = Sphere(2)
    x = s2.random_point(4, 0)
    assert tangent_gaussian(s2, x, 0.1, rng=0).shape == (4, 3)
    xi = tangent_gaussian(s2, x, 0.1, size=3, rng=0)
    assert xi.shape == (3, 4, 3)
    np.testing.assert_allclose(np.sum(xi * x, axis=-1), 0.0, atol=1e-12)
    with pytest.raises(ValueError, match="sigma.*-0.1"):
        tangent_gaussian(s2, x, -0.1)


def test_classical_calibration_and_its_epsilon_limit():
    assert classical_gaussian_sigma(0.5, 1e-5, 2.0) == pytest.approx(2.0 * np.sqrt(2 * np.log(1.25e5)) / 0.5)
    assert classical_gaussian_sigma(1.0, 1e-3, 1.0) == pytest.approx(np.sqrt(2 * np.log(1250)))
    with pytest.raises(ValueError, match=r"epsilon <= 1.*epsilon=2\.0.*analytic"):
        classical_gaussian_sigma(2.0, 1e-5, 1.0)
    # Why the limit matters: the classical sigma at ε = 10, δ = 0.5 has true δ(ε) ≈ 0.985.
    assert gaussian_delta(np.sqrt(2 * np.log(2.5)) / 10, 10.0, 1.0) == pytest.approx(0.985, abs=0.002)


@pytest.mark.parametrize("epsilon, delta", [(0.1, 1e-5), (1.0, 1e-3), (5.0, 1e-6), (20.0, 0.1)])
def test_analytic_calibration_is_tight(epsilon, delta):
    sigma = analytic_gaussian_sigma(epsilon, delta, 0.7)
    assert gaussian_delta(sigma, epsilon, 0.7) <= delta
    assert gaussian_delta(sigma * 0.999, epsilon, 0.7) > delta
    if epsilon <= 1:
        assert sigma < classical_gaussian_sigma(epsilon, delta, 0.7)


def test_gaussian_delta_matches_monte_carlo_privacy_loss():
    """δ(ε) = E[(1 − e^{ε − L})_+] for the privacy loss L ~ N(μ²/2, μ²), μ = Δ/σ."""
    mu, eps = 1.3, 0.8
    loss = mu**2 / 2 + mu * np.random.default_rng(0).standard_normal(2_000_000)
    monte_carlo = np.mean(np.maximum(0.0, 1.0 - np.exp(eps - loss)))
    assert gaussian_delta(1 / mu, eps, 1.0) == pytest.approx(monte_carlo, abs=2e-3)


def test_mechanism_class_release_and_guarantee():
    s2 = Sphere(2)
    mech = TangentGaussian(manifold=s2, epsilon=0.5, delta=1e-5, sensitivity=0.1, public_footpoint=True)
    assert mech.sigma == pytest.approx(classical_gaussian_sigma(0.5, 1e-5, 0.1))
    eta = s2.polar_point(0.3, 0.2)
    release = mech.release(eta, size=10, rng=3)
    x = release.points
    assert x.shape == (10, 3) and s2.belongs(x).all()
    assert release.exact and release.sigma == mech.sigma and release.guarantee == mech.privacy_guarantee()
    g = mech.privacy_guarantee()
    assert (g.epsilon, g.delta) == (0.5, 1e-5)
    assert "Proposition 2" in g.reason
    assert any("footpoint is public" in a for a in g.assumptions)

    based = TangentGaussian(manifold=s2, epsilon=0.5, delta=1e-5, sensitivity=0.1, base_point=s2.origin)
    w = s2.origin
    expected = s2.exp(w, s2.log(w, eta) + tangent_gaussian(s2, w, based.sigma, size=10, rng=4))
    np.testing.assert_allclose(based.release(eta, size=10, rng=4).points, expected)
    assert any("public and data-independent" in a for a in based.privacy_guarantee().assumptions)

    analytic = TangentGaussian(manifold=s2, epsilon=3.0, delta=1e-5, sensitivity=0.1, calibration="analytic",
                               base_point=s2.origin)
    assert analytic.sigma == pytest.approx(analytic_gaussian_sigma(3.0, 1e-5, 0.1))
    assert "Balle & Wang" in analytic.privacy_guarantee().reason


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(delta=0.0), "delta.*0.0"),
        (dict(delta=1.5), "delta.*1.5"),
        (dict(epsilon=float("nan")), "epsilon.*nan"),
        (dict(sensitivity=-2), "sensitivity.*-2"),
        (dict(epsilon=1.5), "epsilon=1.5"),
        (dict(calibration="rdp"), "calibration.*'rdp'"),
        (dict(base_point=np.array([1.0, 0.0, 1.0])), "base_point"),
        (dict(base_point=None), "private footpoint"),
    ],
)
def test_mechanism_validation(kwargs, message):
    args = dict(manifold=Sphere(2), epsilon=0.5, delta=1e-5, sensitivity=0.1) | kwargs
    with pytest.raises(ValueError, match=message):
        TangentGaussian(**args)


def test_private_footpoint_is_refused_on_curved_spaces_and_exact_on_flat_ones():
    """Exp_f(D)(ξ) at a private footpoint is refused on a curved space; on a flat space it is
    f(D) + ξ, the classical Gaussian mechanism, and stays allowed."""
    for curved in (Sphere(2), Hyperbolic(2), SPD(2), Kendall(4)):
        with pytest.raises(ValueError, match="private footpoint.*not differentially private"):
            TangentGaussian(manifold=curved, epsilon=1.0, delta=1e-5, sensitivity=0.1)
    flat = Euclidean(3)
    mech = TangentGaussian(manifold=flat, epsilon=1.0, delta=1e-5, sensitivity=0.1)
    eta = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(mech.release(eta, size=4, rng=7).points,
                               eta + tangent_gaussian(flat, eta, mech.sigma, size=4, rng=7))
    assert any("is flat" in a for a in mech.privacy_guarantee().assumptions)


def test_private_footpoint_on_the_sphere_breaks_the_claim():
    """Why the refusal: the antipode of f(D) is a cap whose probability is of order s (D) against s² (D′).

    n = 3, r = π/8 on S², claimed (1, 1e−5) with the classical σ: the exact log-density ratio of the two release
    laws at the antipode of f(D) exceeds any ε, since the density of Exp_f(D)(ξ) carries ρ/sin ρ -> ∞ there
    while Exp_f(D′)(ξ) has a finite density at the same point."""
    from engine.bounds import tangent_mean_sensitivity
    s2 = Sphere(2)
    sigma = classical_gaussian_sigma(1.0, 1e-5, float(tangent_mean_sensitivity(3, np.pi / 8, 1.0)))
    eta, eta2 = s2.polar_point(0.0, 0.0), s2.polar_point(0.2, 0.0)
    theta = np.pi - np.geomspace(1e-2, 1e-8, 7)  # points approaching the antipode of eta along a meridian
    points = s2.exp(np.broadcast_to(eta, (7, 3)), theta[:, None] * s2.random_unit_tangent(eta, 0)[None])

    def log_density(center, x):  # ξ ~ N(0, σ² I₂) pushed through Exp: Gaussian(ρ) · ρ/sin ρ
        rho = s2.dist(center, x)
        return -rho**2 / (2 * sigma**2) + np.log(rho / np.sin(rho))

    ratio = log_density(eta, points) - log_density(eta2, points)
    assert ratio[-1] > 10 and np.all(np.diff(ratio) > 0)


@pytest.mark.parametrize("manifold", [Hyperbolic(2), SPD(2)], ids=["hyperbolic", "spd"])
def test_releases_float64_cannot_hold_are_refused_not_returned_as_nan(manifold):
    # ε = 1e-300 gives σ ~ 1e3; Exp overflows beyond ~710 and the releases were NaN.
    mechanism = TangentGaussian(manifold=manifold, epsilon=1e-300, delta=1e-5, sensitivity=0.05,
                                base_point=manifold.random_point(1, 0)[0])
    with pytest.raises(ValueError, match=r"\d+ of 200 tangent Gaussian releases .* not representable in float64"):
        mechanism.release(mechanism.base_point, size=200, rng=0)
