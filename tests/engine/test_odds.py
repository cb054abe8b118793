"""ε in odds (``engine.odds``): the posterior range, the ε-DP trade-off bound and the exact
trade-off curves of the Gaussian and Laplace mechanisms, against Bayes' rule and simulated tests."""

import numpy as np
import pytest
from scipy.stats import laplace

from engine.audit import gaussian_epsilon
from engine.odds import (
    dp_tradeoff_bound,
    gaussian_tradeoff,
    guess_ceiling,
    laplace_tradeoff,
    posterior_range,
)

ALPHAS = np.linspace(0.0, 1.0, 401)
#: Type I errors down to 10⁻¹², where a Gaussian curve meets the bound of a small δ.
SMALL_ALPHAS = np.concatenate([np.geomspace(1e-12, 0.5, 4000), ALPHAS])


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("prior", [0.01, 0.3, 0.5, 0.9])
def test_posterior_range_is_bayes_rule_at_the_laplace_mechanisms_extreme_releases(prior, epsilon):
    """Bayes' rule over a grid of releases y of Lap(0, 1) against Lap(ε, 1): the posterior of D spans the range."""
    y = np.linspace(-10, 10 + epsilon, 20_001)
    first, second = laplace.pdf(y, 0.0, 1.0), laplace.pdf(y, epsilon, 1.0)
    posterior = prior * first / (prior * first + (1 - prior) * second)
    low, high = posterior_range(prior, epsilon)
    assert posterior.min() == pytest.approx(low, rel=1e-9) and posterior.max() == pytest.approx(high, rel=1e-9)


def test_guess_ceiling_at_even_odds():
    assert guess_ceiling(1.0) == pytest.approx(np.e / (1 + np.e))
    assert guess_ceiling(0.0) == 0.5


def _empirical_tradeoff(first, second, alphas):
    """Type II error of "second if x > t" with t the (1 − α) quantile of the first sample, by simulation."""
    thresholds = np.quantile(first, 1.0 - alphas)
    return np.searchsorted(np.sort(second), thresholds, side="right") / len(second)


@pytest.mark.parametrize("mu", [0.5, 1.0, 2.0])
def test_gaussian_tradeoff_matches_the_simulated_likelihood_ratio_test(mu):
    rng = np.random.default_rng(1)
    first, second = rng.normal(0, 1, 400_000), rng.normal(mu, 1, 400_000)
    alphas = np.linspace(0.02, 0.98, 49)
    assert np.abs(_empirical_tradeoff(first, second, alphas) - gaussian_tradeoff(alphas, mu)).max() < 0.005


@pytest.mark.parametrize(("shift", "scale"), [(1.0, 2.0), (1.0, 1.0), (3.0, 1.5)])
def test_laplace_tradeoff_matches_the_simulated_likelihood_ratio_test_and_the_closed_form(shift, scale):
    rng = np.random.default_rng(2)
    first, second = rng.laplace(0, scale, 400_000), rng.laplace(shift, scale, 400_000)
    alphas = np.linspace(0.01, 0.99, 99)
    curve = laplace_tradeoff(alphas, shift, scale)
    assert np.abs(_empirical_tradeoff(first, second, alphas) - curve).max() < 0.005
    exact = laplace.cdf(laplace.ppf(1 - alphas, 0, scale), shift, scale)
    np.testing.assert_allclose(curve, exact, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_laplace_curve_lies_on_or_above_the_epsilon_dp_bound_and_touches_it(epsilon):
    curve, bound = laplace_tradeoff(ALPHAS, epsilon, 1.0), dp_tradeoff_bound(ALPHAS, epsilon)
    assert np.all(curve >= bound - 1e-12)
    assert np.isclose(curve, bound, atol=1e-12).any()
    assert np.any(curve < dp_tradeoff_bound(ALPHAS, 0.9 * epsilon))


@pytest.mark.parametrize("mu", [0.5, 1.0, 2.0])
def test_gaussian_curve_lies_above_the_bound_of_its_exact_epsilon_delta(mu):
    delta = 1e-5
    epsilon = gaussian_epsilon(mu, delta)
    curve = gaussian_tradeoff(SMALL_ALPHAS, mu)
    assert np.all(curve >= dp_tradeoff_bound(SMALL_ALPHAS, epsilon, delta) - 1e-9)
    assert np.any(curve < dp_tradeoff_bound(SMALL_ALPHAS, 0.9 * epsilon, delta))


def test_gaussian_curve_is_the_bound_of_no_privacy_at_mu_zero():
    np.testing.assert_allclose(gaussian_tradeoff(ALPHAS, 0.0), 1.0 - ALPHAS, atol=1e-12)


@pytest.mark.parametrize(("call", "quoted"), [
    (lambda: posterior_range(1.5, 1.0), "prior must lie in [0, 1], got 1.5"),
    (lambda: posterior_range(0.5, -1.0), "epsilon must be a finite number >= 0, got -1.0"),
    (lambda: dp_tradeoff_bound([0.1, -0.2], 1.0), "alpha must lie in [0, 1], got -0.2"),
    (lambda: dp_tradeoff_bound(0.1, 1.0, delta=2.0), "delta must lie in [0, 1], got 2.0"),
    (lambda: laplace_tradeoff(0.1, 1.0, 0.0), "scale must be a finite number > 0, got 0.0"),
    (lambda: gaussian_tradeoff("x", 1.0), "alpha must be numbers in [0, 1], got 'x'"),
])
def test_bad_input_raises_one_line_quoting_the_value(call, quoted):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value) == quoted


def test_tradeoff_figure_draws_the_mechanisms_curve_above_the_bound():
    from engine.viz.odds import posterior_figure, tradeoff_figure

    fig = tradeoff_figure(1.0, reach=0.8)
    _, curve, bound, ceiling = fig.data
    np.testing.assert_allclose(np.add(ceiling.x, ceiling.y), 2 / (1 + np.e))  # the tests right e^ε/(1 + e^ε) of the time
    np.testing.assert_allclose(curve.y, laplace_tradeoff(curve.x, 0.8, 1.0))
    np.testing.assert_allclose(bound.y, dp_tradeoff_bound(bound.x, 1.0))
    assert np.all(np.asarray(curve.y) >= np.asarray(bound.y) - 1e-12)
    high, low = posterior_figure(1.0).data
    np.testing.assert_allclose(high.y, posterior_range(high.x, 1.0)[1])
    np.testing.assert_allclose(low.y, posterior_range(low.x, 1.0)[0])
