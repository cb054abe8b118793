"""Audits of the private geodesic regression (Kulkarni & Soto): the pair, the exact K-norm sampler, the split
release, the reach by quadrature, each MCMC release within its claim at the page's chain settings, and the
paper-scale control flagged."""

import numpy as np
import pytest
from scipy.stats import ks_2samp, kstest

from engine.audit import AUDITS, run_audit
from engine.audit.regression import footpoint_target, regression_mechanism, regression_pair
from engine.manifolds import Euclidean, Sphere
from engine.mechanisms.kng import GradientKNG
from engine.pipelines.private_regression import RegressionConfig, chain_settings

R = np.pi / 8


@pytest.fixture(scope="module")
def pair():
    return regression_pair(Sphere(2), 10, R)


def test_pair_moves_a_record_on_the_geodesic_to_the_opposite_edge_of_the_ball(pair):
    m = pair.manifold
    first, second = pair.data
    assert np.all(m.dist(first, pair.center) <= R) and np.all(m.dist(second, pair.center) <= R)
    assert m.dist(first[-1], pair.center) == pytest.approx(R, rel=1e-8)
    assert m.dist(first[-1], second[-1]) == pytest.approx(2 * R, rel=1e-8)
    u = m.tangent_basis(pair.center)[0]
    on_geodesic = m.exp(np.broadcast_to(pair.center, first.shape), m.per_point(pair.x * R) * u)
    np.testing.assert_allclose(m.dist(first, on_geodesic), 0.0, atol=1e-8)


def test_release_exact_draws_the_disc_law_exactly():
    """On a disc of R² with ‖grad‖ = ‖θ‖ the law's radius has density ∝ ρ e^{−ρ/σ} on [0, R]."""
    kng = GradientKNG(manifold=Euclidean(2), epsilon=1.0, sensitivity=0.25, ball_center=np.zeros(2), ball_radius=1.0)
    draws = kng.release_exact(lambda t: np.linalg.norm(t, axis=-1), size=20_000, rng=0).points
    a = 1.0 / kng.sigma

    def cdf(rho):
        return (1 - np.exp(-a * rho) * (1 + a * rho)) / (1 - np.exp(-a) * (1 + a))

    assert kstest(np.linalg.norm(draws, axis=-1), cdf).pvalue > 1e-3
    with pytest.raises(ValueError, match="give ball_center and ball_radius"):
        GradientKNG(manifold=Euclidean(2), epsilon=1.0, sensitivity=0.25).release_exact(np.linalg.norm, size=1)


def test_release_is_its_two_steps_with_the_same_draws(pair):
    mech = regression_mechanism(pair, 1.0, 1.0)
    x, y = pair.x, np.stack(pair.data)
    settings = dict(warmup=20, window=0, diagnostics=False)
    whole = mech.release(x, y, rng=5, velocity_warmup=10, **settings)
    rng = np.random.default_rng(5)
    p = mech.release_footpoint(x, y, rng=rng, **settings).points
    v = mech.release_velocity(x, y, p, rng=rng, warmup=10, window=0, diagnostics=False).points
    np.testing.assert_array_equal(whole.points, p)
    np.testing.assert_array_equal(whole.velocity, v)


def test_reach_by_quadrature_is_below_the_claim_at_2_delta_and_above_it_at_the_papers_scale():
    for name, eps in (("regression-footpoint", 1.0), ("regression-velocity", 1.0)):
        reach = AUDITS[name].target("sphere", eps).reachable_epsilon
        assert 0.3 < reach < eps
    control = AUDITS["control-regression-paper-scale"].target("sphere", 3.0)
    assert control.epsilon == 3.0 and control.reachable_epsilon > 3.5
    assert AUDITS["control-regression-paper-scale"].target("sphere", 1.0).reachable_epsilon > 1.1


def test_mcmc_audits_say_they_run_at_the_page_chain_settings():
    chains = chain_settings(RegressionConfig())
    assert f"warm-up {chains['warmup']}," in AUDITS["regression-footpoint"].target().notes
    assert f"warm-up {chains['velocity_warmup']}," in AUDITS["regression-velocity"].target().notes
    composed = AUDITS["regression-composed"].target()
    assert f"warm-ups {chains['warmup']} and {chains['velocity_warmup']}" in composed.notes
    assert composed.epsilon == AUDITS["regression-composed"].default_epsilon


@pytest.mark.slow
@pytest.mark.parametrize("name", ["regression-footpoint", "regression-velocity", "regression-composed"])
def test_mcmc_release_stays_within_its_claim(name):
    result = run_audit(AUDITS[name].target(), samples=500, rng=11)
    assert result.epsilon_lower <= result.epsilon
    assert not result.flagged


@pytest.mark.slow
def test_page_chain_footpoint_follows_the_exact_law(pair):
    """At the page's warm-up the released chain state is drawn from the K-norm law itself (two-sample KS on the
    audit statistic against exact draws), so the chain's start at the non-private fit does not leak."""
    mech = regression_mechanism(pair, 1.0, 1.0)
    warmup = chain_settings(RegressionConfig())["warmup"]
    chain, exact = (footpoint_target(mech, pair, warmup=warmup, exact=e) for e in (False, True))
    rng = np.random.default_rng(13)
    for side in (0, 1):
        released = chain.statistic(chain.draw(side, 1_000, rng))
        reference = exact.statistic(exact.draw(side, 10_000, rng))
        assert ks_2samp(released, reference).pvalue > 1e-3


def test_paper_scale_control_is_flagged():
    result = run_audit(AUDITS["control-regression-paper-scale"].target(), samples=20_000, rng=12)
    assert result.flagged and result.epsilon_lower > result.epsilon
