"""The tangent-line envelope sampler of log-concave densities (``engine.mechanisms.log_concave``).

Draws are KS-tested against scipy's own distributions (independent of the code under test), with
a wrong-parameter negative control; the envelope is checked to lie above log f and to accept more
than 0.9 of its proposals on the radial Laplace laws, by quadrature.
"""

import numpy as np
import pytest
from scipy import integrate, stats

from engine.mechanisms.log_concave import find_mode, sample_log_concave, tangent_envelope
from engine.mechanisms.radial import euclidean_law, hyperbolic_law, kendall_law, sphere_law

N = 6000

# (name, log f, (log f)', lower, upper, frozen scipy law with that density, a wrong law)
CASES = [
    ("normal-truncated", lambda x: -0.5 * (x - 1.0) ** 2, lambda x: -(x - 1.0), -0.5, 4.0,
     stats.truncnorm(-1.5, 3.0, loc=1.0), stats.truncnorm(-1.3, 3.2, loc=0.8)),
    ("gamma3", lambda x: 2 * np.log(x) - x, lambda x: 2 / x - 1, 0.0, np.inf, stats.gamma(3), stats.gamma(3.3)),
    ("beta-2-5", lambda x: np.log(x) + 4 * np.log1p(-x), lambda x: 1 / x - 4 / (1 - x), 0.0, 1.0,
     stats.beta(2, 5), stats.beta(2, 4.5)),
    ("exponential-mode-at-lower-end", lambda x: -2.0 * x, lambda x: np.full(np.shape(x), -2.0), 0.0, np.inf,
     stats.expon(scale=0.5), stats.expon(scale=0.55)),
    ("increasing-mode-at-upper-end", lambda x: 3 * np.log(x), lambda x: 3 / x, 0.0, 2.0,
     stats.powerlaw(4, scale=2.0), stats.powerlaw(3.6, scale=2.0)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_draws_follow_the_target(case):
    _, log_f, dlog_f, lower, upper, law, wrong = case
    x = sample_log_concave(log_f, dlog_f, lower, upper, N, rng=np.random.default_rng(7))
    assert x.shape == (N,) and x.min() >= lower and x.max() <= upper
    assert stats.kstest(x, law.cdf).pvalue > 0.01
    assert stats.kstest(x, wrong.cdf).pvalue < 0.01


def test_shapes_and_seeds():
    log_f, dlog_f = CASES[1][1], CASES[1][2]
    a = sample_log_concave(log_f, dlog_f, 0.0, np.inf, (3, 4), rng=5)
    b = sample_log_concave(log_f, dlog_f, 0.0, np.inf, (3, 4), rng=5)
    assert a.shape == (3, 4)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("sigma, dim", [(0.1, 3), (1.0, 5), (0.05, 20)])
def test_find_mode_matches_the_closed_forms(sigma, dim):
    """Modes of e^{−ρ/σ}J(ρ): (d−1)cot ρ = 1/σ on S^d, (d−1)coth ρ = 1/σ on H^d, and on CP^m
    (2m−1)cot ρ − tan ρ = 1/σ, i.e. tan ρ = (−1/σ + √(1/σ² + 4(2m−1)))/2."""
    sphere = sphere_law(dim)
    assert find_mode(lambda r: sphere.log_density_derivative(r, sigma), 0.0, np.pi) == pytest.approx(
        np.arctan(sigma * (dim - 1)), rel=1e-7)
    h_sigma = 0.9 / (dim - 1)
    hyperbolic = hyperbolic_law(dim)
    assert find_mode(lambda r: hyperbolic.log_density_derivative(r, h_sigma), 0.0, np.inf) == pytest.approx(
        np.arctanh(h_sigma * (dim - 1)), rel=1e-7)
    m = dim
    kendall = kendall_law(m + 2)
    tan = (-1 / sigma + np.sqrt(1 / sigma**2 + 4 * (2 * m - 1))) / 2
    assert find_mode(lambda r: kendall.log_density_derivative(r, sigma), 0.0, np.pi / 2) == pytest.approx(
        np.arctan(tan), rel=1e-7)
    # Ends: a falling density peaks at its lower end, a truncated rising one at its upper end.
    assert find_mode(lambda r: euclidean_law(1).log_density_derivative(r, sigma), 0.0, np.inf) == 0.0
    assert find_mode(lambda r: sphere.log_density_derivative(r, 10.0), 0.0, 0.5) == 0.5


LAWS = [
    (kendall_law(12), 0.1, np.inf), (kendall_law(20), 0.05, np.inf), (kendall_law(20), 5.0, np.inf),
    (kendall_law(20), 0.1, 0.3), (sphere_law(10), 0.02, np.inf), (sphere_law(2), 50.0, np.inf),
    (sphere_law(1), 0.5, np.inf), (hyperbolic_law(5), 0.249, np.inf), (hyperbolic_law(2), 3.0, 2.0),
    (euclidean_law(1), 1.0, np.inf), (euclidean_law(3), 1.0, np.inf),
]


@pytest.mark.parametrize("law, sigma, radius", LAWS, ids=[f"{law.name}-{s}-{r}" for law, s, r in LAWS])
def test_envelope_bounds_the_radial_laws_and_accepts_above_0_9(law, sigma, radius):
    upper = min(radius, law.support)
    log_f = lambda r: law.log_density(r, sigma)
    env = tangent_envelope(log_f, lambda r: law.log_density_derivative(r, sigma), 0.0, upper)
    assert np.all(np.diff(env.slopes) <= 0) and np.all(np.diff(env.edges) >= 0)
    end = upper if np.isfinite(upper) else env.edges[-2] + 50 / abs(env.slopes[-1])
    x = np.linspace(0.0, end, 400_001)
    piece = np.clip(np.searchsorted(env.edges, x, side="right") - 1, 0, len(env.points) - 1)
    with np.errstate(divide="ignore"):
        gap = log_f(x) - env.offset - env.upper(x, piece)
    assert gap.max() <= 1e-9
    mass = integrate.simpson(np.exp(np.where(np.isfinite(gap), log_f(x) - env.offset, -np.inf)), x=x)
    assert 0.9 < mass / np.exp(env.log_mass - env.offset) <= 1.0 + 1e-6
