"""KS tests of the exact radial samplers against quadrature of the target densities.

Every density below is written out here from the formulas (not taken from the code under test);
each KS test has a negative control with a wrong scale that must be rejected.
"""

import warnings

import numpy as np
import pytest
from scipy import integrate, special, stats

from engine.mechanisms.radial import (
    euclidean_law,
    hyperbolic_law,
    kendall_law,
    sample_radius,
    sphere_law,
    truncated_gamma,
)
from engine.mechanisms.spd_laplace import sample_eigenlog, spd_growth

N = 6000


def grid_cdf(log_density, upper, n=200_001):
    """CDF on [0, upper] by cumulative Simpson quadrature of exp(log_density) on a fine grid."""
    x = np.linspace(0.0, upper, n)
    with np.errstate(divide="ignore"):
        lf = log_density(x)
    f = np.exp(lf - np.max(lf[np.isfinite(lf)]))
    c = integrate.cumulative_simpson(np.nan_to_num(f), x=x, initial=0.0)
    c /= c[-1]
    return lambda r: np.interp(r, x, c)


def sphere_logpdf(d, s):
    return lambda r: -r / s + (d - 1) * np.log(np.sin(r))


def hyperbolic_logpdf(d, s):
    return lambda r: -r / s + (d - 1) * np.log(np.sinh(r))


def kendall_logpdf(k, s):
    m = k - 2
    return lambda r: -r / s + (2 * m - 1) * np.log(np.sin(r)) + np.log(np.cos(r))


CASES = [
    ("sphere2", sphere_law(2), sphere_logpdf(2, 0.4), sphere_logpdf(2, 0.52), np.pi, 0.4),
    ("sphere5", sphere_law(5), sphere_logpdf(5, 0.3), sphere_logpdf(5, 0.39), np.pi, 0.3),
    ("sphere5-wide", sphere_law(5), sphere_logpdf(5, 2.0), sphere_logpdf(5, 1.0), np.pi, 2.0),
    ("hyperbolic2", hyperbolic_law(2), hyperbolic_logpdf(2, 0.6), hyperbolic_logpdf(2, 0.78), 80.0, 0.6),
    ("hyperbolic3", hyperbolic_law(3), hyperbolic_logpdf(3, 0.3), hyperbolic_logpdf(3, 0.39), 40.0, 0.3),
    ("kendall4", kendall_law(4), kendall_logpdf(4, 0.3), kendall_logpdf(4, 0.39), np.pi / 2, 0.3),
    ("kendall6", kendall_law(6), kendall_logpdf(6, 0.15), kendall_logpdf(6, 0.195), np.pi / 2, 0.15),
    ("euclidean3", euclidean_law(3), lambda r: -r + 2 * np.log(r), lambda r: -r / 1.3 + 2 * np.log(r), 60.0, 1.0),
]


@pytest.mark.parametrize("seed, case", enumerate(CASES), ids=[c[0] for c in CASES])
def test_radial_law_matches_quadrature(seed, case):
    _, law, logpdf, wrong_logpdf, upper, sigma = case
    r = sample_radius(law, sigma, N, rng=np.random.default_rng(1000 + seed))
    assert r.shape == (N,) and (r >= 0).all() and (r <= law.support).all()
    assert stats.kstest(r, grid_cdf(logpdf, upper)).pvalue > 0.01
    assert stats.kstest(r, grid_cdf(wrong_logpdf, upper)).pvalue < 0.01


def test_sphere2_closed_form_cdf():
    """The S^2 CDF of the science notes, [1 − e^{−aρ}(a sin ρ + cos ρ)]/(1 + e^{−aπ}), a = 1/σ."""
    sigma = 0.7
    a = 1 / sigma
    closed = lambda r: (1 - np.exp(-a * r) * (a * np.sin(r) + np.cos(r))) / (1 + np.exp(-a * np.pi))
    grid = np.linspace(0, np.pi, 50)
    np.testing.assert_allclose(grid_cdf(sphere_logpdf(2, sigma), np.pi)(grid), closed(grid), atol=1e-7)
    r = sample_radius(sphere_law(2), sigma, N, rng=3)
    assert stats.kstest(r, closed).pvalue > 0.01


def test_log_density_matches_formula():
    rho = np.array([0.1, 1.0, 3.0])
    law = hyperbolic_law(3)
    expected = -rho / 0.4 + 2 * np.log(np.sinh(rho))
    np.testing.assert_allclose(law.log_density(rho, 0.4), expected, rtol=1e-12)
    assert np.isneginf(sphere_law(2).log_density(np.array([4.0]), 1.0)).all()


@pytest.mark.parametrize(
    "law, sigma, radius, logpdf",
    [
        (hyperbolic_law(2), 3.0, 2.0, hyperbolic_logpdf(2, 3.0)),  # beyond the normalisability limit
        (hyperbolic_law(4), 10.0, 1.5, hyperbolic_logpdf(4, 10.0)),
        (sphere_law(2), 0.5, 0.4, sphere_logpdf(2, 0.5)),
        (kendall_law(5), 5.0, 0.9, kendall_logpdf(5, 5.0)),
    ],
    ids=["h2-beyond-limit", "h4-beyond-limit", "s2", "kendall5-wide"],
)
def test_truncated_radial_law(law, sigma, radius, logpdf):
    r = sample_radius(law, sigma, N, rng=np.random.default_rng(5), max_radius=radius)
    assert r.max() <= radius
    assert stats.kstest(r, grid_cdf(logpdf, radius)).pvalue > 0.01
    assert stats.kstest(r, grid_cdf(logpdf, 0.9 * radius)).pvalue < 0.01


@pytest.mark.parametrize("shape, rate, upper", [(3, 2.0, 4.0), (3, 0.1, 2.0), (2.5, -0.3, 2.0), (4, -5.0, 3.0)])
def test_truncated_gamma_every_branch(shape, rate, upper):
    r = truncated_gamma(shape, rate, upper, N, np.random.default_rng(8))
    cdf = grid_cdf(lambda x: (shape - 1) * np.log(x) - rate * x, upper)
    assert stats.kstest(r, cdf).pvalue > 0.01
    assert stats.kstest(r, grid_cdf(lambda x: (shape - 1) * np.log(x) - (rate + 1.0) * x, upper)).pvalue < 0.01


def test_hyperbolic_beyond_limit_is_refused_with_explanation():
    with pytest.raises(ValueError, match=r"sigma=0\.6.*not normalisable.*sigma < 1/2 = 0\.5"):
        sample_radius(hyperbolic_law(3), 0.6, 10)


@pytest.mark.parametrize("bad", [0, -1.0, np.nan, "x"])
def test_bad_sigma_is_refused(bad):
    with pytest.raises(ValueError, match="sigma"):
        sample_radius(sphere_law(2), bad, 10)


# ----- SPD(k), affine-invariant: the eigen-logarithm r ------------------------------------
def test_spd_growth_closed_form_and_maximiser():
    rng = np.random.default_rng(0)
    for k in (2, 3, 4, 6):
        rows, cols = np.triu_indices(k, 1)
        spread = lambda r: np.abs(r[..., rows] - r[..., cols]).sum(axis=-1) / 2
        w = np.arange(k - 1, -k, -2, dtype=float)
        assert spread(w / np.linalg.norm(w)) == pytest.approx(spd_growth(k), rel=1e-12)
        r = rng.standard_normal((20_000, k))
        assert spread(r / np.linalg.norm(r, axis=-1, keepdims=True)).max() <= spd_growth(k)
        if k >= 4:  # (1, 0, ..., 0, −1)/√2 is not the maximiser beyond k = 3
            e = np.zeros(k)
            e[0], e[-1] = 1 / np.sqrt(2), -1 / np.sqrt(2)
            assert spread(e) < spd_growth(k) - 0.1
    assert spd_growth(2) == pytest.approx(np.sqrt(0.5))


def spd2_rho_logpdf(s):
    """Marginal of ρ = ‖r‖ on SPD(2): ρ e^{−ρ/σ} ∫ sinh(ρ|cos φ − sin φ|/2) dφ = 2π ρ e^{−ρ/σ} L_0(ρ/√2)."""
    return lambda r: np.log(r) - r / s + np.log(special.modstruve(0, r / np.sqrt(2)))


def spd2_angle_logpdf(s):
    """Marginal of φ: ∫ ρ e^{−ρ/σ} sinh(aρ) dρ = ((1/σ − a)^{−2} − (1/σ + a)^{−2})/2, a = |cos φ − sin φ|/2."""
    def f(phi):
        a = np.abs(np.cos(phi) - np.sin(phi)) / 2
        return np.log((1 / s - a) ** -2 - (1 / s + a) ** -2)
    return f


@pytest.mark.parametrize("sigma, wrong_angle_sigma", [(0.1, 1.0), (0.6, 0.2), (1.2, 0.6)])
def test_spd2_eigenlog_radius_and_angle(sigma, wrong_angle_sigma):
    r = sample_eigenlog(2, sigma, N, rng=np.random.default_rng(int(sigma * 100)))
    rho = np.linalg.norm(r, axis=-1)
    phi = np.mod(np.arctan2(r[:, 1], r[:, 0]), 2 * np.pi)
    upper = 60 * sigma / (1 - sigma / np.sqrt(2))
    # L_0 is slow to evaluate; 20,001 Simpson nodes are ample for this smooth density.
    rho_cdf = lambda s: grid_cdf(spd2_rho_logpdf(s), upper, n=20_001)
    assert stats.kstest(rho, rho_cdf(sigma)).pvalue > 0.01
    assert stats.kstest(rho, rho_cdf(sigma * 1.15)).pvalue < 0.01
    angle_cdf = lambda s: grid_cdf(spd2_angle_logpdf(s), 2 * np.pi)
    assert stats.kstest(phi, angle_cdf(sigma)).pvalue > 0.01
    assert stats.kstest(phi, angle_cdf(wrong_angle_sigma)).pvalue < 0.01


def spd3_rho_cdf(sigma, upper):
    """CDF of ρ = ‖r‖ on SPD(3) by quadrature over the direction.

    r = t·(1,1,1)/√3 + s(cos ψ, sin ψ) in the plane ⟂ (1,1,1); the differences are
    √2 s cos(ψ − ℓπ/3), ℓ = 0, 1, 2. With t = ρ cos β, s = ρ sin β the density of ρ is
    e^{−ρ/σ} ρ² ∫∫ sin β ∏_ℓ sinh(ρ sin β |cos(ψ − ℓπ/3)|/√2) dψ dβ; the ψ-integrand has period
    π/3 and kinks at π/6 + jπ/3, so one smooth chamber [π/6, π/2] is integrated (Gauss–Legendre).
    """
    xb, wb = np.polynomial.legendre.leggauss(64)
    beta = (xb + 1) * np.pi / 2
    wb = wb * np.pi / 2
    xp, wp = np.polynomial.legendre.leggauss(48)
    psi = np.pi / 6 + (xp + 1) * np.pi / 6
    wp = wp * np.pi / 6
    rho = np.linspace(0, upper, 3001)[1:]
    s = rho[:, None, None] * np.sin(beta)[None, :, None]
    cosines = np.abs(np.cos(psi[None, None, :, None] - np.arange(3) * np.pi / 3))
    log_prod = np.log(np.sinh(s[..., None] * cosines / np.sqrt(2))).sum(axis=-1)
    log_f = 2 * np.log(rho)[:, None, None] - rho[:, None, None] / sigma + log_prod
    top = log_f.max()
    inner = np.einsum("rbp,b,p->r", np.exp(log_f - top), wb * np.sin(beta), wp)
    x = np.concatenate([[0.0], rho])
    c = integrate.cumulative_simpson(np.concatenate([[0.0], inner]), x=x, initial=0.0)
    return lambda r: np.interp(r, x, c / c[-1])


@pytest.mark.slow
def test_spd3_eigenlog_radius_matches_quadrature():
    sigma = 0.3
    r = sample_eigenlog(3, sigma, N, rng=np.random.default_rng(33))
    rho = np.linalg.norm(r, axis=-1)
    assert stats.kstest(rho, spd3_rho_cdf(sigma, 30.0)).pvalue > 0.01
    assert stats.kstest(rho, spd3_rho_cdf(0.35, 30.0)).pvalue < 0.01
    # Exchangeable coordinates: each coordinate has the same law.
    assert stats.ks_2samp(r[:, 0], r[:, 2]).pvalue > 0.01


def test_spd_eigenlog_truncated_and_refused():
    r = sample_eigenlog(2, 3.0, 2000, rng=1, max_radius=1.5)  # σ far beyond √2, truncated
    assert np.linalg.norm(r, axis=-1).max() <= 1.5
    with pytest.raises(ValueError, match=r"SPD\(3\).*sigma=0\.8.*sigma < 1/c_k = 0\.707107"):
        sample_eigenlog(3, 0.8, 10)


# ----- higher dimensions and small σ: the tangent-line envelope ------------------------------
def stable_hyperbolic_logpdf(d, s):
    """log(e^{−ρ/σ} sinh^{d−1}ρ) with log sinh ρ = ρ + log1p(−e^{−2ρ}) − log 2, finite far beyond ρ = 710."""
    return lambda r: -r / s + (d - 1) * (r + np.log1p(-np.exp(-2 * r)) - np.log(2))


HARD = [
    ("kendall12-0.1", kendall_law(12), 0.1, np.inf, kendall_logpdf(12, 0.1), kendall_logpdf(12, 0.11), np.pi / 2),
    ("kendall20-0.05", kendall_law(20), 0.05, np.inf, kendall_logpdf(20, 0.05), kendall_logpdf(20, 0.055), np.pi / 2),
    ("kendall20-0.1", kendall_law(20), 0.1, np.inf, kendall_logpdf(20, 0.1), kendall_logpdf(20, 0.11), np.pi / 2),
    ("sphere10-0.02", sphere_law(10), 0.02, np.inf, sphere_logpdf(10, 0.02), sphere_logpdf(10, 0.022), np.pi),
    ("sphere10-0.1", sphere_law(10), 0.1, np.inf, sphere_logpdf(10, 0.1), sphere_logpdf(10, 0.11), np.pi),
    # σ(d − 1) = 0.996: the mean radius is about 250.
    ("hyperbolic5-near-limit", hyperbolic_law(5), 0.249, np.inf, stable_hyperbolic_logpdf(5, 0.249),
     stable_hyperbolic_logpdf(5, 0.2485), 5000.0),
    ("kendall20-0.1-truncated", kendall_law(20), 0.1, 0.5, kendall_logpdf(20, 0.1), kendall_logpdf(20, 0.08), 0.5),
    ("sphere10-wide-truncated", sphere_law(10), 3.0, 1.0, sphere_logpdf(10, 3.0), sphere_logpdf(10, 0.5), 1.0),
    ("hyperbolic5-near-limit-truncated", hyperbolic_law(5), 0.249, 100.0, stable_hyperbolic_logpdf(5, 0.249),
     stable_hyperbolic_logpdf(5, 0.2), 100.0),
    ("hyperbolic5-beyond-limit-truncated", hyperbolic_law(5), 2.0, 3.0, stable_hyperbolic_logpdf(5, 2.0),
     stable_hyperbolic_logpdf(5, 0.5), 3.0),
]


@pytest.mark.parametrize("seed, case", enumerate(HARD), ids=[c[0] for c in HARD])
def test_high_dimension_small_sigma_and_near_limit_laws_match_quadrature(seed, case):
    """These calls used to take minutes or give up (Kendall(20), σ = 0.1: 11 acceptances in 4e6)."""
    _, law, sigma, radius, logpdf, wrong_logpdf, upper = case
    r = sample_radius(law, sigma, N, rng=np.random.default_rng(2000 + seed), max_radius=radius)
    assert r.shape == (N,) and (r >= 0).all() and (r <= min(radius, law.support)).all()
    assert stats.kstest(r, grid_cdf(logpdf, upper)).pvalue > 0.01
    assert stats.kstest(r, grid_cdf(wrong_logpdf, upper)).pvalue < 0.01


@pytest.mark.parametrize("law, sigma", [(kendall_law(20), 0.1), (kendall_law(20), 0.05), (sphere_law(10), 0.01),
                                         (hyperbolic_law(5), 0.2499)])
def test_hard_laws_finish_with_many_draws(law, sigma):
    r = sample_radius(law, sigma, 200_000, rng=1)
    assert r.shape == (200_000,) and np.isfinite(r).all()


@pytest.mark.parametrize("law", [euclidean_law(3), sphere_law(4), hyperbolic_law(3), kendall_law(7)],
                         ids=lambda law: law.name)
def test_log_density_derivative_matches_central_differences(law):
    sigma, h = 0.2, 1e-6
    rho = np.linspace(0.05, 0.95 * min(law.support, 3.0), 9)
    numeric = (law.log_density(rho + h, sigma) - law.log_density(rho - h, sigma)) / (2 * h)
    np.testing.assert_allclose(law.log_density_derivative(rho, sigma), numeric, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("shape, rate, upper", [(2.0, 1e-300, np.pi), (100.0, 0.01, 1.0), (3.0, 1e-200, 2.0)])
def test_the_gamma_mass_where_the_incomplete_gamma_underflows(shape, rate, upper):
    """P(shape, rate·upper) is 0.0 in float64 there; the series gives the mass, without a warning."""
    from scipy.integrate import quad
    from scipy.special import gammainc

    from engine.mechanisms.radial import log_gamma_mass

    assert gammainc(shape, rate * upper) == 0.0
    exact = np.log(quad(lambda rho: rho ** (shape - 1) * np.exp(-rate * rho), 0.0, upper, epsabs=0, epsrel=1e-13)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert log_gamma_mass(shape, rate, upper) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("argv", [["private-mean", "--epsilon", "1e-300"], ["private-mean", "--epsilon", "1e300"],
                                  ["samplers", "--sigma", "1e300"]])
def test_extreme_scales_print_no_numpy_warning(capsys, argv):
    from engine.pipelines import __main__ as pipelines

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert pipelines.main([*argv, "--json"]) == 0
    assert capsys.readouterr().err == ""
