"""The sampler-check study: exact samplers pass KS against quadrature; outputs are tidy."""

import numpy as np
import pytest
from scipy import integrate

from engine.experiments.sampler_check import figures, radial_cdf, radial_density, run
from engine.manifolds import SPD, Sphere


def test_sphere_cdf_matches_closed_form():
    """S² CDF: [1 − e^{−aρ}(a sin ρ + cos ρ)]/(1 + e^{−aπ}), a = 1/σ (science notes)."""
    sigma = 0.4
    a = 1 / sigma
    rho = np.linspace(0, np.pi, 50)
    exact = (1 - np.exp(-a * rho) * (a * np.sin(rho) + np.cos(rho))) / (1 + np.exp(-a * np.pi))
    np.testing.assert_allclose(radial_cdf(Sphere(2), sigma)(rho), exact, atol=1e-6)


def test_spd_density_is_normalised_and_matches_a_monte_carlo_integral():
    sigma = 0.5
    grid = np.linspace(0, 30, 3001)
    f = radial_density(SPD(2), sigma, grid)
    assert integrate.trapezoid(f, grid) == pytest.approx(1.0, abs=1e-6)
    # Independent check of the mean radius: E‖r‖ by importance sampling of r ~ N(0, I).
    r = np.random.default_rng(0).standard_normal((400_000, 2)) * 1.5
    w = np.exp(-np.linalg.norm(r, axis=1) / sigma) * np.sinh(np.abs(r[:, 0] - r[:, 1]) / 2) / np.exp(-(r**2).sum(1) / 4.5)
    mc = (w * np.linalg.norm(r, axis=1)).sum() / w.sum()
    assert integrate.trapezoid(grid * f, grid) == pytest.approx(mc, rel=0.02)


@pytest.mark.slow
def test_exact_samplers_pass_ks_and_mh_reports_diagnostics():
    out = run(reps=1500, seed=1, burn_in=300, thin=5)
    summary = out["summary"]
    exact = summary[summary.sampler == "exact"]
    assert (exact.ks_pvalue > 1e-3).all(), exact
    mh = summary[summary.sampler == "mh"].set_index(["space", "sigma"])
    assert ((mh.acceptance_rate > 0.05) & (mh.acceptance_rate < 0.95)).all()
    assert (mh.effective_sample_size > 1).all()
    assert (summary.draws_per_second > 0).all()
    assert len(figures(out)) == len(exact)


def test_bad_settings_raise():
    with pytest.raises(ValueError, match="unknown spaces"):
        run(reps=10, spaces=("torus",))
    with pytest.raises(ValueError, match="sigma"):
        run(reps=10, spaces=("sphere",), sigmas={"sphere": (-1.0,)})
    with pytest.raises(ValueError, match="too large"):
        radial_cdf(SPD(2), 2.0)
