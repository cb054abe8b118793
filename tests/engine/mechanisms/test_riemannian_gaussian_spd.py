"""The Riemannian Gaussian on SPD(k), affine-invariant: its exact eigen-log sampler against quadrature of the exact
law (SPD(2) through its split R × H²(−1/2), k = 3 by a 2-D quadrature), its invariance, and its μ-GDP budget on
SPD(2) against Monte Carlo of the privacy loss; SPD(k >= 3) is refused."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import erf, logsumexp, ndtr, ndtri

from engine.manifolds import SPD, Hyperbolic
from engine.mechanisms import gdp, gdp_spd
from engine.mechanisms.riemannian_gaussian import RiemannianGaussian, riemannian_gaussian
from engine.mechanisms.spd_gaussian import envelope_log_masses, sample_gaussian_eigenlog

# σ = 0.3 and 1.0 take the GOE envelope, 2.0 the orderings mixture.
SIGMAS = [0.3, 1.0, 2.0]


def _split_law(sigma):
    """Grid and density of the hyperbolic coordinate t = (r₁ − r₂)/√2 on SPD(2): ∝ e^{−t²/(2σ²)} sinh(|t|/√2)
    (the flat coordinate (r₁ + r₂)/√2 is N(0, σ²), independent)."""
    top = sigma ** 2 / np.sqrt(2) + 14 * sigma
    t = np.linspace(0.0, top, 20001)
    density = np.exp(-t ** 2 / (2 * sigma ** 2) + t / np.sqrt(2)) * -np.expm1(-np.sqrt(2) * t)
    return t, density / integrate.trapezoid(density, t)


def _radius_cdf_spd2(sigma):
    """P(ρ <= R) = ∫ P(|s| <= √(R² − t²)) f(t) dt, ρ² = s² + t²."""
    t, f = _split_law(sigma)

    def cdf(radii):
        radii = np.atleast_1d(radii)
        inner = np.sqrt(np.maximum(radii[:, None] ** 2 - t[None, :] ** 2, 0.0))
        return integrate.trapezoid(erf(inner / (np.sqrt(2) * sigma)) * f, t, axis=-1)
    return cdf


@pytest.mark.parametrize("sigma", SIGMAS)
def test_spd2_radius_and_flat_coordinate_follow_the_product_law(sigma):
    m = SPD(2)
    eta = np.array([[2.0, 0.5], [0.5, 1.0]])
    x = riemannian_gaussian(m, eta, sigma, size=4000, rng=1)
    assert np.all(m.belongs(x))
    assert stats.kstest(m.dist(x, eta), _radius_cdf_spd2(sigma)).pvalue > 1e-3
    log_det = np.log(np.linalg.det(x) / np.linalg.det(eta)) / np.sqrt(2)
    assert stats.kstest(log_det, stats.norm(0, sigma).cdf).pvalue > 1e-3


def _marginal_cdf_k3(sigma):
    """CDF of one eigen-log coordinate on SPD(3) by quadrature of the exact law over the other two."""
    axis = np.linspace(-(2 * sigma ** 2 + 9 * sigma), 2 * sigma ** 2 + 9 * sigma, 161)
    r1, r2, r3 = np.meshgrid(axis, axis, axis, indexing="ij")
    log_p = -(r1 ** 2 + r2 ** 2 + r3 ** 2) / (2 * sigma ** 2)
    for a, b in ((r1, r2), (r1, r3), (r2, r3)):
        gap = np.abs(a - b)
        log_p = log_p + gap / 2 + np.log(-np.expm1(-np.maximum(gap, 1e-300)))
    marginal = np.exp(logsumexp(log_p, axis=(1, 2)) - logsumexp(log_p))
    cdf = integrate.cumulative_trapezoid(marginal, axis, initial=0.0)
    return lambda v: np.interp(v, axis, cdf / cdf[-1])


@pytest.mark.parametrize("sigma", SIGMAS)
def test_eigen_log_marginals_follow_the_exact_law(sigma):
    r = sample_gaussian_eigenlog(2, sigma, 4000, rng=2)
    t, f = _split_law(sigma)
    # r₁ = (s + τ)/√2 with τ = ±t symmetric: P(r₁ <= v) = ∫ Φ((√2 v − τ)/σ) f_τ(τ) dτ.
    tau = np.concatenate([-t[::-1], t])
    f_tau = np.concatenate([f[::-1], f]) / 2
    def cdf_k2(v):
        v = np.atleast_1d(v)
        return integrate.trapezoid(ndtr((np.sqrt(2) * v[:, None] - tau) / sigma) * f_tau, tau, axis=-1)

    assert stats.kstest(r[:, 0], cdf_k2).pvalue > 1e-3
    r3 = sample_gaussian_eigenlog(3, sigma, 4000, rng=3)
    assert stats.kstest(r3[:, 1], _marginal_cdf_k3(sigma)).pvalue > 1e-3


def test_the_law_is_transported_by_congruences():
    """Draws at η = A Aᵀ, pulled back by A⁻¹ · A⁻ᵀ, have the law of draws at I (every entry, two-sample KS)."""
    m = SPD(3)
    a = np.array([[1.5, 0.0, 0.0], [0.4, 0.8, 0.0], [-0.3, 0.2, 1.2]])
    inv = np.linalg.inv(a)
    at_eta = inv @ riemannian_gaussian(m, a @ a.T, 0.6, size=4000, rng=4) @ inv.T
    at_identity = riemannian_gaussian(m, np.eye(3), 0.6, size=4000, rng=5)
    for i, j in ((0, 0), (1, 1), (0, 2), (1, 2)):
        assert stats.ks_2samp(at_eta[:, i, j], at_identity[:, i, j]).pvalue > 1e-3


@pytest.mark.parametrize("k", [2, 3, 4])
def test_envelopes_dominate_and_the_better_one_is_used(k):
    """Z <= M for both envelopes (Z in closed form for k = 2: 2πσ² e^{σ²/4} erf(σ/2)), the GOE envelope is the
    lighter at small σ and the orderings' at large σ."""
    for sigma in (0.05, 0.5, 1.5, 3.0):
        masses = envelope_log_masses(k, sigma)
        if k == 2:
            log_z = np.log(2 * np.pi * sigma ** 2) + sigma ** 2 / 4 + np.log(erf(sigma / 2))
            assert log_z <= min(masses.values()) + 1e-12
            assert log_z >= min(masses.values()) + np.log(0.8)  # acceptance >= 0.8 on SPD(2)
    assert envelope_log_masses(k, 0.05)["goe"] < envelope_log_masses(k, 0.05)["orderings"]
    assert envelope_log_masses(k, 3.0)["goe"] == np.inf


def _mc_loss(sigma, flat, curved, n=300_000, rng=6):
    m = SPD(2)
    v = np.array([(flat + curved) / np.sqrt(2), (flat - curved) / np.sqrt(2)])
    eta2 = np.diag(np.exp(v))
    x = riemannian_gaussian(m, np.eye(2), sigma, size=n, rng=rng)
    return (m.dist(x, eta2) ** 2 - m.dist(x, np.eye(2)) ** 2) / (2 * sigma ** 2), eta2


@pytest.mark.parametrize("flat, curved", [(0.3, 0.4), (0.45, 0.1), (0.0, 0.5)])
def test_spd2_loss_cdf_against_monte_carlo(flat, curved):
    sigma = 0.5
    loss, eta2 = _mc_loss(sigma, flat, curved)
    assert gdp_spd.split(np.eye(2), eta2) == pytest.approx((flat, curved), abs=1e-12)
    t = np.linspace(-1.5, 1.5, 9)
    F, S = gdp_spd.loss_cdf(sigma, flat, curved, t)
    np.testing.assert_allclose(F + S, 1.0, atol=1e-6)
    np.testing.assert_allclose(F, np.mean(loss[:, None] <= t[None, :], axis=0), atol=4e-3)


def test_spd2_mu_against_monte_carlo_of_the_loss():
    """μ at the worst split against Φ⁻¹(1 − α) − Φ⁻¹(β) of the Monte Carlo loss at its central levels."""
    sigma, distance = 0.5, 0.5
    mu, angle = gdp_spd.worst_split(sigma, distance)
    assert angle == pytest.approx(np.pi / 2)
    assert mu == pytest.approx(gdp.gdp_mu(Hyperbolic(2), sigma / np.sqrt(2), distance / np.sqrt(2),
                                          check_distances=False).mu, abs=2e-4)
    loss, _ = _mc_loss(sigma, 0.0, distance, rng=7)
    # At t = 0, α = F(0) and β = F(0) (the symmetry swapping η and η′), so μ(0) = −2Φ⁻¹(F(0)).
    alpha = np.mean(loss <= 0.0)
    mc_mu = -2 * ndtri(alpha)
    se = 2 * np.sqrt(alpha * (1 - alpha) / len(loss)) / stats.norm.pdf(ndtri(alpha))
    assert abs(mc_mu - gdp.levels_mu(gdp_spd.split_cdf(sigma, distance, np.pi / 2), [0.0])[0]) < 4 * se
    assert mu > distance / sigma  # the curvature makes the pair easier to tell apart than in R³


def test_small_sigma_on_spd2_is_flat():
    assert gdp.gdp_mu(SPD(2), 0.01, 0.02, check_distances=False).mu == pytest.approx(2.0, rel=2e-3)


def test_calibrated_mechanism_on_spd2_meets_its_mu():
    g = RiemannianGaussian(manifold=SPD(2), epsilon=1.0, delta=1e-5, sensitivity=0.3)
    assert g.budget.mu <= g.mu and g.budget.worst_angle == pytest.approx(np.pi / 2)
    assert g.budget.error < 1e-3
    assert "R × H²" in " ".join(g.privacy_guarantee().assumptions)
    x = g.release(np.eye(2), size=10, rng=1).points
    assert x.shape == (10, 2, 2) and np.all(SPD(2).belongs(x))


@pytest.mark.parametrize("k", [3, 4])
def test_spd_k_at_least_3_is_refused_in_one_line(k):
    with pytest.raises(ValueError, match=f"for k = {k} >= 3.*use SPD\\(2\\)") as info:
        RiemannianGaussian(manifold=SPD(k), epsilon=1.0, delta=1e-5, sensitivity=0.1)
    assert "\n" not in str(info.value)
    assert riemannian_gaussian(SPD(k), np.eye(k), 0.5, size=3, rng=1).shape == (3, k, k)


def test_releases_beyond_float64s_positive_definite_matrices_are_refused_in_one_line():
    with pytest.raises(ValueError, match="sigma=3 puts releases near radius .* use a smaller sigma"):
        riemannian_gaussian(SPD(2), np.eye(2), 3.0, size=2, rng=1)
    assert sample_gaussian_eigenlog(2, 3.0, 5, rng=1).shape == (5, 2)


@pytest.mark.parametrize("manifold", [SPD(2), Hyperbolic(2)], ids=lambda m: m.name)
def test_a_mu_below_the_large_sigma_plateau_is_refused_in_one_line(manifold):
    """With exponential volume growth μ levels off as σ grows (the radial law moves out to ρ ≈ (d − 1)σ², where the
    loss is about (d − 1)Δ·cos, independent of σ): μ = 0.142 at Δ = 0.3 is out of reach, never a wrong σ."""
    with pytest.raises(ValueError, match=r"mu = 0\.1422 is out of reach .* levels off near 0\.(169|239)") as info:
        RiemannianGaussian(manifold=manifold, epsilon=0.5, delta=1e-5, sensitivity=0.3)
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="sigma=60 is too large for the quadrature"):
        gdp.loss_cdf(Hyperbolic(2), 60.0, 0.2, [0.0])
