"""The sampler comparison behind the Samplers page (``engine.pipelines.sampler_comparison``), checked
against closed forms on S² and against scipy, computed here independently of the pipeline."""

import numpy as np
import pytest
from scipy import integrate, stats

from engine.pipelines.sampler_comparison import (
    MAX_RADIUS,
    TAIL,
    SamplerComparisonConfig,
    grid_end,
    numeric_scale_limit,
    run,
)

SIGMA = 0.4
CONFIG = SamplerComparisonConfig(space="sphere", sigma=SIGMA, burn_in=200, thin=3, draws=60, chains=5, seed=4)


def s2_pdf(rho, sigma=SIGMA):
    """f(ρ) = e^{−aρ} sin ρ (1 + a²)/(1 + e^{−aπ}) on [0, π], a = 1/σ."""
    a = 1 / sigma
    return np.exp(-a * rho) * np.sin(rho) * (1 + a * a) / (1 + np.exp(-a * np.pi))


def s2_cdf(rho, sigma=SIGMA):
    a = 1 / sigma
    return (1 - np.exp(-a * rho) * (a * np.sin(rho) + np.cos(rho))) / (1 + np.exp(-a * np.pi))


@pytest.fixture(scope="module")
def result():
    return run(CONFIG)


def test_density_mean_and_ks_distances_match_the_closed_form(result):
    np.testing.assert_allclose(result.density, s2_pdf(result.grid), atol=1e-5)
    assert result.grid[-1] == pytest.approx(np.pi)
    assert result.mean_radius == pytest.approx(integrate.quad(lambda r: r * s2_pdf(r), 0, np.pi)[0], abs=1e-6)
    assert result.ks_exact == pytest.approx(stats.kstest(result.exact_radii, s2_cdf).statistic, abs=1e-5)
    assert result.ks_mh == pytest.approx(stats.kstest(result.mh_radii.ravel(), s2_cdf).statistic, abs=1e-5)
    assert stats.kstest(result.exact_radii, s2_cdf).pvalue > 0.01
    assert stats.kstest(result.exact_radii, lambda r: s2_cdf(r, 0.5)).pvalue < 0.01


def test_shapes_kept_states_and_diagnostics(result):
    assert result.exact_radii.shape == (CONFIG.total,)
    assert result.mh_radii.shape == (CONFIG.draws, CONFIG.chains)
    assert result.chain.shape == (CONFIG.steps + 1,) and result.chain[0] == 0.0
    np.testing.assert_array_equal(result.mh_radii[:, 0], result.chain[CONFIG.burn_in::CONFIG.thin])
    assert 0 < result.acceptance < 1 and result.step > 0
    assert 0 < result.ess <= 2 * CONFIG.total and result.autocorrelation_time >= 0
    assert result.exact_per_second > 0 and result.mh_per_second > 0
    table = result.radii()
    assert list(table.columns) == ["sampler", "chain", "draw", "rho"]
    assert table["sampler"].value_counts().to_dict() == {"exact": CONFIG.total, "metropolis-hastings": CONFIG.total}
    np.testing.assert_array_equal(np.sort(table.loc[table["sampler"] == "exact", "rho"]), np.sort(result.exact_radii))


def test_a_seed_fixes_every_draw(result):
    again = run(CONFIG)
    np.testing.assert_array_equal(again.exact_radii, result.exact_radii)
    np.testing.assert_array_equal(again.chain, result.chain)


def test_progress_follows_the_chains():
    seen = []
    config = SamplerComparisonConfig(space="kendall", sigma=0.3, burn_in=50, thin=2, draws=20, chains=4, seed=1)
    run(config, progress=lambda fraction, text: seen.append((fraction, text)))
    fractions = [f for f, _ in seen]
    assert seen and fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    assert seen[-1][1] == f"4 MH chains: step {config.steps:,} of {config.steps:,}"


def test_grid_end_is_the_gamma_envelope_quantile_and_refuses_overflow():
    """On H² the envelope is Gamma(2, rate 1/σ − 1); the grid ends at its 1 − TAIL quantile, below MAX_RADIUS
    up to the numeric limit of σ and refused beyond it."""
    sigma = 0.8
    assert grid_end("hyperbolic", sigma) == pytest.approx(stats.gamma(2, scale=1 / (1 / sigma - 1)).isf(TAIL),
                                                          rel=1e-6)
    limit = numeric_scale_limit("hyperbolic")
    assert 0.95 < limit < 1.0
    assert grid_end("hyperbolic", limit * (1 - 1e-9)) <= MAX_RADIUS
    with pytest.raises(ValueError, match=r"too close to the normalisability limit 1 of Hyperbolic"):
        grid_end("hyperbolic", limit * 1.001)
    assert numeric_scale_limit("spd") == 0.7 and numeric_scale_limit("sphere") == np.inf


@pytest.mark.parametrize("kwargs, match", [
    ({"space": "nonsense"}, "space must be one of"),
    ({"sigma": -1.0}, "sigma"),
    ({"chains": 0}, "chains"),
    ({"step": 0.0}, "step"),
])
def test_bad_configs_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SamplerComparisonConfig(**kwargs)
