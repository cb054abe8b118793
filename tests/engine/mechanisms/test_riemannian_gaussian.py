"""The Riemannian Gaussian: its exact sampler against the radial law by quadrature, its μ-GDP budget against
the flat Gaussian, Monte Carlo and the (ε, δ) conversion, and its refusals."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats

from engine.manifolds import SPD, Euclidean, Grassmann, Hyperbolic, Kendall, Sphere
from engine.mechanisms import gdp
from engine.mechanisms.gaussian import gaussian_delta
from engine.mechanisms.laplace import radial_law
from engine.mechanisms.riemannian_gaussian import RiemannianGaussian, riemannian_gaussian
from engine.spaces import make_manifold

SPACES = [Sphere(2), Sphere(5), Hyperbolic(2), Hyperbolic(4), Grassmann(3, 1), Kendall(4), Euclidean(3)]


def _radius_cdf(manifold, sigma):
    """CDF of ρ(η, X) by trapezoidal quadrature of e^{−ρ²/(2σ²)} J(ρ), J written out per space (independent of
    the sampler's RadialLaw)."""
    d = manifold.dim
    jac = {"sphere": lambda r: np.sin(r) ** (d - 1), "hyperbolic": lambda r: np.sinh(r) ** (d - 1),
           "real-projective": lambda r: np.sin(r) ** (d - 1), "flat": lambda r: r ** (d - 1),
           "complex-projective": lambda r: np.sin(r) ** (d - 1) * np.cos(r)}[manifold.polar_volume]
    top = {"sphere": np.pi, "real-projective": np.pi / 2, "complex-projective": np.pi / 2}.get(
        manifold.polar_volume, (d - 1) * sigma ** 2 + 20 * sigma)
    grid = np.linspace(0.0, top, 40001)
    cdf = integrate.cumulative_trapezoid(np.exp(-grid ** 2 / (2 * sigma ** 2)) * jac(grid), grid, initial=0.0)
    return lambda r: np.interp(r, grid, cdf / cdf[-1])


@pytest.mark.parametrize("manifold", SPACES, ids=lambda m: m.name)
@pytest.mark.parametrize("sigma", [0.2, 1.5])
def test_radius_follows_the_radial_law(manifold, sigma):
    x = riemannian_gaussian(manifold, manifold.origin, sigma, size=4000, rng=1)
    assert np.all(manifold.belongs(x, atol=1e-8))
    rho = manifold.dist(x, manifold.origin)
    assert stats.kstest(rho, _radius_cdf(manifold, sigma)).pvalue > 1e-3


def test_direction_is_uniform_on_the_sphere():
    m = Sphere(2)
    x = riemannian_gaussian(m, m.origin, 0.5, size=4000, rng=2)
    azimuth = np.arctan2(x[:, 1], x[:, 0])
    assert stats.kstest(azimuth, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > 1e-3


@pytest.mark.parametrize("dim", [1, 2, 5])
def test_flat_budget_is_the_gaussian_mu(dim):
    assert gdp.gdp_mu(Euclidean(dim), 0.5, 0.3, check_distances=False).mu == pytest.approx(0.6, abs=2e-4)


def test_small_sigma_on_the_sphere_is_flat():
    assert gdp.gdp_mu(Sphere(3), 0.01, 0.02, check_distances=False).mu == pytest.approx(2.0, rel=2e-3)


def _monte_carlo_cdf(manifold, sigma, distance, t, n=200_000):
    """P_η(L <= t) by sampling x ~ N(η, σ²) and η′ at ``distance`` along a fixed direction."""
    eta = manifold.origin
    v = manifold.random_unit_tangent(eta, 7)
    eta2 = manifold.exp(eta, distance * v)
    x = riemannian_gaussian(manifold, eta, sigma, size=n, rng=3)
    loss = (manifold.dist(x, eta2) ** 2 - manifold.dist(x, eta) ** 2) / (2 * sigma ** 2)
    return np.mean(loss[:, None] <= np.asarray(t)[None, :], axis=0)


@pytest.mark.parametrize("manifold", [Sphere(2), Hyperbolic(3), Grassmann(3, 1)], ids=lambda m: m.name)
def test_loss_cdf_against_monte_carlo(manifold):
    sigma, distance = 0.6, 0.5
    t = np.linspace(-0.8, 0.8, 9)
    F, S = gdp.loss_cdf(manifold, sigma, distance, t)
    np.testing.assert_allclose(F + S, 1.0, atol=1e-9)
    np.testing.assert_allclose(F, _monte_carlo_cdf(manifold, sigma, distance, t), atol=5e-3)


def test_curvature_moves_mu_the_expected_way():
    flat = 0.2 / 0.3
    assert gdp.gdp_mu(Sphere(2), 0.3, 0.2).mu < flat < gdp.gdp_mu(Hyperbolic(2), 0.3, 0.2).mu


def test_worst_pair_is_at_the_largest_distance():
    for m in (Sphere(2), Hyperbolic(2), Grassmann(3, 1)):
        assert gdp.gdp_mu(m, 0.4, 0.3).worst_distance == pytest.approx(0.3)


def test_tradeoff_curve_lies_on_g_mu_where_it_touches():
    m, sigma, distance = Sphere(2), 0.4, 0.3
    mu = gdp.gdp_mu(m, sigma, distance).mu
    alpha = np.linspace(1e-3, 1 - 1e-3, 200)
    gap = gdp.tradeoff_curve(m, sigma, distance, alpha) - gdp.gaussian_tradeoff(mu, alpha)
    assert gap.min() >= -1e-4 and gap.min() < 2e-3


@pytest.mark.parametrize("mu, eps", [(0.5, 0.3), (1.0, 1.0), (3.0, 2.0)])
def test_gdp_delta_is_the_gaussian_mechanisms(mu, eps):
    assert gdp.gdp_delta(mu, eps) == pytest.approx(gaussian_delta(1.0, eps, mu), rel=1e-9, abs=1e-15)


def test_calibrated_mechanism_meets_its_mu_and_its_delta():
    g = RiemannianGaussian(manifold=Sphere(2), epsilon=1.0, delta=1e-5, sensitivity=0.1)
    assert g.budget.mu <= g.mu
    assert gdp.gdp_delta(g.budget.mu, 1.0) <= 1e-5
    assert g.privacy_guarantee().claim.startswith(f"{g.budget.mu:.4g}-GDP, hence (1, 1e-05)-DP")


@pytest.mark.parametrize("manifold", [make_manifold("kendall"), Grassmann(4, 2), SPD(3)], ids=lambda m: m.name)
def test_refused_off_constant_curvature(manifold):
    with pytest.raises(ValueError, match="no exact GDP budget"):
        RiemannianGaussian(manifold=manifold, epsilon=1.0, delta=1e-5, sensitivity=0.1)


def test_a_space_without_a_radial_law_is_refused_by_the_sampler():
    with pytest.raises(ValueError, match="no exact sampler"):
        riemannian_gaussian(Grassmann(4, 2), Grassmann(4, 2).origin, 0.5)
    assert radial_law(Sphere(2)).support == np.pi


@pytest.mark.slow
def test_audit_flags_the_twin_and_passes_the_mechanism_on_the_hyperbolic_plane():
    from engine.audit import AUDITS, run_audit

    correct = run_audit(AUDITS["riemannian-gaussian"].target("hyperbolic"), samples=200_000, rng=11)
    twin = run_audit(AUDITS["twin-riemannian-gaussian"].target("hyperbolic"), samples=200_000, rng=12)
    assert not correct.flagged and correct.epsilon_lower <= correct.reachable_epsilon
    assert twin.flagged and twin.epsilon_lower > 1.0


@pytest.mark.parametrize("manifold", [Sphere(2), Sphere(4)], ids=lambda m: m.name)
def test_laplace_loss_cdf_against_monte_carlo(manifold):
    from engine.mechanisms.laplace import riemannian_laplace

    sigma, distance = 0.4, 0.3
    eta = manifold.origin
    eta2 = manifold.exp(eta, distance * manifold.random_unit_tangent(eta, 7))
    x = riemannian_laplace(manifold, eta, sigma, size=200_000, rng=4)
    loss = (manifold.dist(x, eta2) - manifold.dist(x, eta)) / sigma
    t = np.linspace(-0.7, 0.7, 8)
    F, S = gdp.loss_cdf(manifold, sigma, distance, t, power=gdp.LAPLACE)
    np.testing.assert_allclose(F + S, 1.0, atol=1e-9)
    np.testing.assert_allclose(F, np.mean(loss[:, None] <= t[None, :], axis=0), atol=5e-3)
    assert gdp.gdp_mu(manifold, sigma, distance, power=gdp.LAPLACE).mu < distance / sigma


@pytest.mark.parametrize("power", [gdp.GAUSSIAN, gdp.LAPLACE])
def test_circle_loss_cdf_against_monte_carlo(power):
    from engine.mechanisms.laplace import riemannian_laplace

    m, sigma, distance = Sphere(1), 0.4, 0.3
    eta = m.origin
    eta2 = m.exp(eta, distance * m.random_unit_tangent(eta, 7))
    if power == gdp.GAUSSIAN:
        x = riemannian_gaussian(m, eta, sigma, size=200_000, rng=5)
        loss = (m.dist(x, eta2) ** 2 - m.dist(x, eta) ** 2) / (2 * sigma ** 2)
    else:
        x = riemannian_laplace(m, eta, sigma, size=200_000, rng=5)
        loss = (m.dist(x, eta2) - m.dist(x, eta)) / sigma
    t = np.linspace(-0.7, 0.7, 8)
    F, _ = gdp.loss_cdf(m, sigma, distance, t, power=power)
    np.testing.assert_allclose(F, np.mean(loss[:, None] <= t[None, :], axis=0), atol=5e-3)


def test_measured_tradeoff_is_the_quadrature_curve_above_g_mu_and_the_twin_falls_below():
    from engine.audit import AUDITS, run_audit
    from engine.audit.tradeoff import audit_tradeoff

    grid = np.linspace(0.02, 0.98, 49)
    target = AUDITS["riemannian-gaussian"].target("hyperbolic")
    result = run_audit(target, samples=40_000, rng=0, early_stop=False)
    curve = audit_tradeoff(result, grid=grid)
    assert curve.claim == f"{target.mu:g}-GDP" and not curve.refutes
    pair = AUDITS["riemannian-gaussian"].build("hyperbolic", 1.0)
    m = Hyperbolic(2)
    sigma = RiemannianGaussian(manifold=m, epsilon=1.0, delta=1e-5, sensitivity=_sensitivity("hyperbolic")).sigma
    gap = float(pair.pair_description.rsplit("means ", 1)[1].split(" apart")[0])
    exact = gdp.tradeoff_curve(m, sigma, gap, grid)
    assert np.all(curve.beta_low <= exact + 2e-3) and np.all(exact <= curve.beta_high + 2e-3)
    twin = audit_tradeoff(run_audit(AUDITS["twin-riemannian-gaussian"].target("hyperbolic"), samples=40_000, rng=0,
                                    early_stop=False), grid=grid)
    assert twin.refutes


def _sensitivity(space):
    from engine.audit.space_rules import audit_spaces
    from engine.bounds import frechet_mean_sensitivity

    s = audit_spaces()[space]
    return float(frechet_mean_sensitivity(s.n, s.radius, s.make().kappa_max))
