"""Generic random-walk Metropolis–Hastings and the K-norm gradient mechanism built on it."""

import numpy as np
import pytest
from scipy import stats

from engine.bounds import frechet_gradient_sensitivity
from engine.data import spd_wishart
from engine.estimators import frechet_mean
from engine.manifolds import SPD, Euclidean, Sphere
from engine.mechanisms import (
    KNormGradient,
    frechet_gradient_norm,
    metropolis_hastings,
    riemannian_laplace,
)


# ----- metropolis_hastings ------------------------------------------------------------------
def test_generic_mh_recovers_the_laplace_radial_law_on_s2():
    s2, sigma = Sphere(2), 0.4
    eta = s2.origin
    result = metropolis_hastings(s2, lambda x: -s2.dist(x, eta) / sigma, np.broadcast_to(eta, (300, 3)), rng=1,
                                 initial_step=sigma, burn_in=1500, keep_chain=True)
    exact = riemannian_laplace(s2, eta, sigma, size=5000, rng=2)
    assert stats.ks_2samp(s2.dist(eta, result.samples), s2.dist(eta, exact)).pvalue > 0.01
    assert 0.2 < result.acceptance_rate.mean() < 0.4
    assert result.chain.shape == (1501, 300) and (result.chain[0] == 0).all()
    np.testing.assert_allclose(result.chain[-1], -s2.dist(eta, result.samples) / sigma)
    # Negative control: the same chains do not look like a Laplace law of scale 0.6.
    wider = riemannian_laplace(s2, eta, 0.6, size=5000, rng=3)
    assert stats.ks_2samp(s2.dist(eta, result.samples), s2.dist(eta, wider)).pvalue < 0.01


def test_generic_mh_recovers_a_gaussian_on_rd():
    r3, mu, s, chains = Euclidean(3), np.array([1.0, -2.0, 0.5]), 0.7, 400
    start = np.broadcast_to(mu + 3.0, (chains, 3))
    result = metropolis_hastings(r3, lambda x: -np.sum((x - mu) ** 2, axis=-1) / (2 * s**2), start, rng=4,
                                 burn_in=1500)
    draws = result.samples
    assert draws.shape == (chains, 3)
    # CLT tolerances (4 standard errors) for the mean and the variance of each coordinate.
    assert np.all(np.abs(draws.mean(axis=0) - mu) < 4 * s / np.sqrt(chains))
    assert np.all(np.abs(draws.var(axis=0, ddof=1) - s**2) < 4 * s**2 * np.sqrt(2 / (chains - 1)))
    assert (result.effective_sample_size >= 1).all() and result.effective_sample_size.shape == (chains,)


def test_generic_mh_batches_and_thins():
    r3 = Euclidean(3)
    seen = []

    def log_density(x):
        seen.append(x.shape)
        return -np.sum(x**2, axis=-1)

    result = metropolis_hastings(r3, log_density, np.zeros((2, 5, 3)), size=4, thin=10, burn_in=40, rng=0)
    assert seen[0] == (10, 3)
    assert result.samples.shape == (4, 2, 5, 3)
    assert result.acceptance_rate.shape == result.step.shape == result.effective_sample_size.shape == (2, 5)
    assert result.diagnostic_steps == 40 - 20 + 30
    single = metropolis_hastings(r3, log_density, np.zeros(3), burn_in=10, rng=0)
    assert single.samples.shape == (3,) and single.acceptance_rate.shape == ()


@pytest.mark.parametrize("kwargs, quoted", [
    (dict(log_density=lambda x: np.zeros(4)), r"shape \(4,\)"),
    (dict(log_density=lambda x: np.full(x.shape[0], -np.inf)), "-inf at the starting point of chain 0"),
    (dict(step=4.0, manifold=Sphere(2)), "step=4.0 exceeds the injectivity radius"),
    (dict(initial_step=-1), "-1"),
    (dict(max_step=0), "max_step"),
    (dict(burn_in=0), "burn_in"),
])
def test_generic_mh_validation_quotes_the_bad_value(kwargs, quoted):
    s2 = Sphere(2)
    args = dict(manifold=s2, log_density=lambda x: np.zeros(x.shape[0]), init=np.broadcast_to(s2.origin, (3, 3)))
    args.update(kwargs)
    manifold, log_density, init = args.pop("manifold"), args.pop("log_density"), args.pop("init")
    with pytest.raises(ValueError, match=quoted):
        metropolis_hastings(manifold, log_density, init, **args)


# ----- K-norm gradient mechanism ------------------------------------------------------------
def test_sensitivity_values_and_limits():
    assert frechet_gradient_sensitivity(20, 1.0, 0.0) == pytest.approx(0.1)
    h = np.pi / 4  # h(π/8, 1) = (π/4)·cot(π/4)
    assert frechet_gradient_sensitivity(10, np.pi / 8, 1.0) == pytest.approx(2 * np.pi / 8 * (2 - h) / 10)
    with pytest.raises(ValueError, match="radius 0.8 is at or beyond"):
        frechet_gradient_sensitivity(10, 0.8, 1.0)
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        frechet_gradient_sensitivity(0, 1.0, 0.0)


def test_gradient_norm_is_distance_to_mean_on_rd_and_vanishes_at_the_mean():
    rng = np.random.default_rng(5)
    data = rng.standard_normal((4, 30, 3))
    w = rng.standard_normal((4, 3))
    expected = np.linalg.norm(w - data.mean(axis=1), axis=-1)
    np.testing.assert_allclose(frechet_gradient_norm(Euclidean(3), w, data), expected)
    spd = SPD(2)
    points = spd_wishart(25, k=2, radius=1.0, rng=6)
    mean = frechet_mean(spd, points, tol=1e-10).mean
    assert frechet_gradient_norm(spd, mean, points) < 1e-6
    assert frechet_gradient_norm(spd, np.eye(2), points) > 1e-2


def test_kng_on_rd_is_the_l2_k_norm_mechanism_at_the_mean():
    rng = np.random.default_rng(7)
    data, chains = rng.standard_normal((25, 3)), 400
    kng = KNormGradient(manifold=Euclidean(3), epsilon=2.0, sensitivity=0.3)
    # Flat space: the normaliser does not depend on the data, so σ = Δ/ε.
    assert kng.sigma == pytest.approx(0.15)
    result = kng.release(np.broadcast_to(data, (chains, 25, 3)), rng=8, burn_in=1000)
    offset = result.points - data.mean(axis=0)
    radius = np.linalg.norm(offset, axis=-1)
    assert stats.kstest(radius, stats.gamma(3, scale=kng.sigma).cdf).pvalue > 0.01
    assert stats.kstest(radius, stats.gamma(3, scale=2 * kng.sigma).cdf).pvalue < 0.01
    directions = offset / radius[:, None]
    assert np.all(np.abs(directions.mean(axis=0)) < 4 / np.sqrt(3 * chains))


def test_kng_on_spd2_concentrates_as_n_grows():
    spd = SPD(2)
    medians = {}
    for n in (20, 200):
        points = spd_wishart(n, k=2, radius=1.0, rng=n)
        kng = KNormGradient(manifold=spd, epsilon=1.0, sensitivity=frechet_gradient_sensitivity(n, 1.0, 0.0))
        assert kng.sigma == pytest.approx(2 * (2.0 / n) / 1.0)
        result = kng.release(np.broadcast_to(points, (60, n, 2, 2)), rng=9, burn_in=600, keep_chain=True)
        mean = frechet_mean(spd, points).mean
        medians[n] = np.median(spd.dist(mean, result.points))
        assert 0.2 < result.chain.acceptance_rate.mean() < 0.4
        # The chain records ‖grad F‖: near 0 at the start (the non-private mean), that of the draw at the end.
        assert result.chain.chain.shape == (601, 60) and (result.chain.chain[0] < 1e-3).all()
        np.testing.assert_allclose(result.chain.chain[-1], frechet_gradient_norm(spd, result.points, np.broadcast_to(
            points, (60, n, 2, 2))), rtol=1e-8)
    # σ falls tenfold (0.2 -> 0.02), so do the distances (about 0.54 -> 0.05); a factor 3 is a wide margin.
    assert medians[200] < medians[20] / 3


def test_kng_conditioned_on_a_ball_on_the_sphere():
    s2, r = Sphere(2), np.pi / 8
    rng = np.random.default_rng(10)
    points = s2.exp(s2.origin, np.concatenate([np.zeros((40, 1)), rng.uniform(-0.2, 0.2, (40, 2))], axis=1))
    kng = KNormGradient(manifold=s2, epsilon=0.5, sensitivity=frechet_gradient_sensitivity(40, r, 1.0),
                        ball_center=s2.origin, ball_radius=r)
    result = kng.release(np.broadcast_to(points, (50, 40, 3)), rng=11, burn_in=400)
    assert s2.belongs(result.points).all() and (s2.dist(s2.origin, result.points) <= r).all()
    guarantee = kng.privacy_guarantee()
    assert guarantee.rule == "σ = 2Δ/ε" and "conditioned on a ball" in guarantee.reason
    assert any("radius 0.392699" in a for a in guarantee.assumptions)


def test_privacy_guarantee_states_epsilon_rule_and_mcmc():
    flat = KNormGradient(manifold=Euclidean(2), epsilon=0.5, sensitivity=0.1).privacy_guarantee()
    assert (flat.epsilon, flat.delta, flat.sigma) == (0.5, 0.0, pytest.approx(0.2))
    assert flat.rule == "σ = Δ/ε"
    curved = KNormGradient(manifold=SPD(2), epsilon=0.1, sensitivity=0.05).privacy_guarantee()
    assert (curved.epsilon, curved.delta, curved.sigma) == (0.1, 0.0, pytest.approx(1.0))
    assert curved.rule == "σ = 2Δ/ε" and "depends on the data set" in curved.reason
    text = " ".join(curved.assumptions)
    assert "approximate MCMC" in text and "only the samples are published" in text
    assert "K-norm gradient" in curved.mechanism


@pytest.mark.parametrize("kwargs, quoted", [
    (dict(epsilon=-1), "epsilon must be a finite number > 0, got -1"),
    (dict(sensitivity="abc"), "'abc'"),
    (dict(ball_radius=0.5), "neither"),
    (dict(ball_center=np.eye(2), ball_radius=-0.5), "-0.5"),
    # σ = 2·0.1/0.1 = 2 >= √2: the unconditioned law on SPD(2) is not normalisable.
    (dict(epsilon=0.1, sensitivity=0.1), r"sigma = 2 .* sigma < 1\.41421"),
])
def test_kng_validation_quotes_the_bad_value(kwargs, quoted):
    args = dict(manifold=SPD(2), epsilon=1.0, sensitivity=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=quoted):
        KNormGradient(**args)


def test_kng_beyond_the_normalisability_limit_needs_the_ball_and_checks_points():
    kng = KNormGradient(manifold=SPD(2), epsilon=0.1, sensitivity=0.1, ball_center=np.eye(2), ball_radius=1.0)
    assert kng.sigma == pytest.approx(2.0)
    with pytest.raises(ValueError, match=r"shape \(2, 2\)"):
        kng.release(np.eye(2))
    with pytest.raises(ValueError, match="points has a point off"):
        kng.release(-np.ones((3, 2, 2)))
