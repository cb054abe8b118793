"""The general K-norm gradient mechanism and its multi-chain sampler."""

import numpy as np
import pytest
from scipy import stats

from engine.manifolds import Euclidean, Kendall, Sphere
from engine.mechanisms import GradientKNG, chain_diagnostics, riemannian_laplace
from engine.mechanisms.diagnostics import rank_rhat
from engine.mechanisms.laplace import radial_law
from engine.mechanisms.multichain import ball_radii
from engine.mechanisms.radial import sample_radius


def test_flat_space_draws_follow_the_l2_k_norm_law():
    # On R^d with l(θ) = |θ − μ|²/2 the KNG law is the l2 K-norm mechanism: radius ~ Gamma(d, σ).
    d, sigma, mu = 5, 0.3, np.linspace(-0.2, 0.2, 5)
    mech = GradientKNG(manifold=Euclidean(d), epsilon=1.0, sensitivity=sigma / 2)
    assert mech.sigma == pytest.approx(sigma)
    res = mech.release(lambda th: np.linalg.norm(th - mu, axis=-1), np.broadcast_to(mu + 0.05, (50, d)), size=40,
                       rng=0, warmup=400, thin=5)
    assert res.points.shape == (40, 50, d) and res.chain.rhat.shape == (50,) and res.chain.acceptance_rate.shape == (4, 50)
    radius = np.linalg.norm(res.points - mu, axis=-1).ravel()
    assert stats.kstest(radius, stats.gamma(d, scale=sigma).cdf).pvalue > 0.01
    assert stats.kstest(radius, stats.gamma(d, scale=1.1 * sigma).cdf).pvalue < 0.01


@pytest.mark.parametrize("m, sigma", [(Sphere(2), 0.4), (Kendall(5), 0.15)], ids=["S2", "Kendall5"])
def test_curved_space_draws_match_the_exact_laplace_law(m, sigma):
    # With l(θ) = d(θ, μ)²/2, ‖grad l‖ = d(θ, μ): the KNG law is the Riemannian Laplace law, which has an
    # exact sampler. This checks the volume correction of the independence proposal.
    mu = m.origin
    mech = GradientKNG(manifold=m, epsilon=2.0, sensitivity=sigma)
    res = mech.release(lambda th: m.dist(th, mu), np.broadcast_to(mu, (60,) + m.point_shape), size=24, rng=1,
                       warmup=300, thin=5, diagnostics=False)
    exact = riemannian_laplace(m, mu, sigma, size=4000, rng=2)
    assert stats.ks_2samp(m.dist(mu, res.points).ravel(), m.dist(mu, exact)).pvalue > 0.01
    wider = riemannian_laplace(m, mu, 1.2 * sigma, size=4000, rng=3)
    assert stats.ks_2samp(m.dist(mu, res.points).ravel(), m.dist(mu, wider)).pvalue < 0.01


def test_ball_is_respected_and_guarantee_states_the_scale():
    m = Sphere(2)
    mech = GradientKNG(manifold=m, epsilon=0.5, sensitivity=0.1, ball_center=m.origin, ball_radius=0.3)
    res = mech.release(lambda th: m.dist(th, m.origin), m.origin, size=40, rng=0, warmup=200, thin=2)
    assert (m.dist(res.points, m.origin) <= 0.3 + 1e-12).all()
    g = mech.privacy_guarantee()
    assert g.epsilon == 0.5 and g.sigma == pytest.approx(0.4) and g.rule == "σ = 2Δ/ε"
    paper = GradientKNG(manifold=m, epsilon=0.5, sensitivity=0.1, scale="paper")
    assert paper.sigma == pytest.approx(0.2) and paper.privacy_guarantee().epsilon == 1.0
    assert "not 0.5-DP" in paper.privacy_guarantee().reason


@pytest.mark.parametrize("kwargs, match", [
    (dict(epsilon=0), "epsilon must be"), (dict(sensitivity=-1), "sensitivity must be"),
    (dict(scale="half"), "scale must be one of"), (dict(chains=2), "chains must be"),
])
def test_bad_arguments_name_the_value(kwargs, match):
    args = dict(manifold=Sphere(2), epsilon=1.0, sensitivity=0.1) | kwargs
    with pytest.raises(ValueError, match=match):
        GradientKNG(**args)


def test_chain_diagnostics_flag_chains_that_disagree():
    rng = np.random.default_rng(0)
    mixed = chain_diagnostics(rng.standard_normal((4, 500, 3)))
    assert (mixed["rhat"] < 1.01).all() and (mixed["ess_bulk"] > 1000).all()
    stuck = rng.standard_normal((4, 500, 3))
    stuck[0] += 2.0
    assert (chain_diagnostics(stuck)["rhat"] > 1.1).all()
    assert chain_diagnostics(np.ones((4, 10, 2)))["rhat"].tolist() == [1.0, 1.0]


def test_split_rhat_matches_the_textbook_formula_on_normal_draws():
    # Reference: split-R̂ of Gelman et al. (BDA3 §11.4) on draws already normal, where rank
    # normalisation changes little; rank-normalised R̂ is within 0.01 of it.
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 400)) + np.array([[0.0], [0.0], [0.3], [0.0]])
    halves = x.reshape(8, 200)
    n = halves.shape[1]
    w = halves.var(axis=1, ddof=1).mean()
    b = n * halves.mean(axis=1).var(ddof=1)
    textbook = np.sqrt(((n - 1) / n * w + b / n) / w)
    assert chain_diagnostics(x[:, :, None])["rhat"][0] == pytest.approx(textbook, abs=0.01)


def test_rank_rhat_is_arviz_rhat_vectorised():
    # Chains that agree, one shifted chain, one chain of a larger scale (seen by the folded R̂ only) and
    # random-walk series with ties: the numpy statistic equals arviz-stats' series by series.
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 300, 12))
    x[0, :, 3:6] += 1.0
    x[1, :, 6:9] *= 3.0
    x[:, :, 9:] = np.round(np.cumsum(x[:, :, 9:], axis=1), 1)
    np.testing.assert_allclose(rank_rhat(x), chain_diagnostics(x)["rhat"], rtol=1e-12)
    assert (rank_rhat(x)[3:9] > 1.01).all() and rank_rhat(np.ones((4, 10, 2))).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("m", [Euclidean(7), Kendall(6)], ids=["R7", "Kendall6"])
def test_ball_radii_are_the_distances_of_uniform_points_of_the_ball(m):
    # Exact CDFs of the distance of a uniform point of B_R: (r/R)^d in R^d; on Σ^k_2 ≅ CP^m the volume density
    # sin^{2m−1} r cos r integrates to (sin r / sin R)^{2m}.
    radius = 0.6
    r = ball_radii(radial_law(m), radius, (3000,), np.random.default_rng(4))
    assert r.max() <= radius
    if m.flat:
        cdf = lambda t: (t / radius) ** m.dim  # noqa: E731
    else:
        cdf = lambda t: (np.sin(t) / np.sin(radius)) ** m.dim  # noqa: E731
    assert stats.kstest(r, cdf).pvalue > 1e-3
    assert stats.kstest(r, lambda t: np.clip(cdf(t / 0.97), 0, 1)).pvalue < 1e-3


@pytest.mark.parametrize("m, sigma, radius", [(Euclidean(6), 0.1, 0.5), (Kendall(6), 0.08, 0.35)],
                         ids=["R6", "Kendall6"])
def test_ball_conditioned_draws_follow_the_truncated_laplace_law(m, sigma, radius):
    # ‖grad l‖ = d(θ, μ) with the law conditioned on B_R(μ): the Laplace law truncated at R, which has an exact
    # sampler. R cuts the radial law near its mode, so both independence kernels and the walk are exercised.
    mu = m.origin
    mech = GradientKNG(manifold=m, epsilon=2.0, sensitivity=sigma, ball_center=mu, ball_radius=radius)
    res = mech.release(lambda th: m.dist(th, mu), np.broadcast_to(mu, (40,) + m.point_shape), size=40, rng=5,
                       warmup=200, thin=5, diagnostics=False)
    drawn = m.dist(mu, res.points).ravel()
    exact = sample_radius(radial_law(m), sigma, 4000, np.random.default_rng(6), max_radius=radius)
    assert drawn.max() <= radius + 1e-12
    assert stats.ks_2samp(drawn, exact).pvalue > 0.01
    wider = sample_radius(radial_law(m), 1.25 * sigma, 4000, np.random.default_rng(7), max_radius=radius)
    assert stats.ks_2samp(drawn, wider).pvalue < 0.01


def test_rhat_covers_every_coordinate():
    # A target uniform on a ball of R^3 has a constant log density, whose trace R̂ is 1 by convention: an R̂
    # other than exactly 1 comes from the coordinates of the states, which the uniform ball proposal mixes.
    m = Euclidean(3)
    res = GradientKNG(manifold=m, epsilon=1.0, sensitivity=1e-9, ball_center=np.zeros(3), ball_radius=1.0).release(
        lambda th: np.zeros(th.shape[:-1]), np.zeros(3), rng=8, warmup=100, window=400)
    assert np.ptp(res.chain.trace) == 0 and chain_diagnostics(res.chain.trace)["rhat"] == 1.0
    assert 1.0 < res.chain.rhat <= 1.01 and res.chain.acceptance_rate.mean() > 0.8
