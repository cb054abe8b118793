"""Random-walk Metropolis–Hastings: agreement with the exact samplers and its diagnostics."""

import numpy as np
import pytest
from scipy import stats

from engine.manifolds import SPD, Hyperbolic, Sphere
from engine.mechanisms import effective_sample_size, laplace_mh, riemannian_laplace


def _ar1(phi, n, n_series, rng):
    x = np.empty((n, n_series))
    x[0] = rng.standard_normal(n_series) / np.sqrt(1 - phi**2)
    noise = rng.standard_normal((n, n_series))
    for t in range(1, n):
        x[t] = phi * x[t - 1] + noise[t]
    return x


def test_ess_of_ar1_iid_and_constant_series():
    rng = np.random.default_rng(0)
    n = 20_000
    ess = effective_sample_size(_ar1(0.8, n, 40, rng))
    assert ess.shape == (40,)
    # Integrated autocorrelation time of AR(1): (1 + φ)/(1 − φ) = 9.
    assert np.mean(n / ess) == pytest.approx(9.0, rel=0.08)
    iid = effective_sample_size(rng.standard_normal((3, n, 2)), axis=1)
    assert iid.shape == (3, 2) and (iid > 0.85 * n).all() and (iid <= n).all()
    assert effective_sample_size(np.ones((50, 2))).tolist() == [1.0, 1.0]


def _chains(manifold, n):
    return np.broadcast_to(manifold.origin, (n,) + manifold.point_shape)


def test_mh_matches_exact_on_sphere_and_reports_diagnostics():
    s2 = Sphere(2)
    sigma = 0.4
    result = laplace_mh(s2, _chains(s2, 300), sigma, rng=1, burn_in=2000, keep_chain=True)
    assert result.samples.shape == (300, 3) and s2.belongs(result.samples).all()
    exact = riemannian_laplace(s2, s2.origin, sigma, size=5000, rng=2)
    assert stats.ks_2samp(s2.dist(s2.origin, result.samples), s2.dist(s2.origin, exact)).pvalue > 0.01
    assert 0.2 < result.acceptance_rate.mean() < 0.4
    assert result.effective_sample_size.shape == (300,)
    assert (result.effective_sample_size >= 1).all()
    assert result.diagnostic_steps == 1000
    np.testing.assert_allclose(result.autocorrelation_time, 1000 / result.effective_sample_size)
    assert result.chain.shape == (2001, 300)
    assert (result.chain[0] == 0).all()


def test_mh_negative_control_wrong_sigma():
    s2 = Sphere(2)
    result = laplace_mh(s2, _chains(s2, 300), 0.6, rng=1, burn_in=1000)
    exact = riemannian_laplace(s2, s2.origin, 0.4, size=5000, rng=2)
    assert stats.ks_2samp(s2.dist(s2.origin, result.samples), s2.dist(s2.origin, exact)).pvalue < 0.01


def test_mh_on_the_circle_is_irreducible():
    """On S^1 a fixed step length would only visit a lattice; the random length must not."""
    s1 = Sphere(1)
    result = laplace_mh(s1, _chains(s1, 300), 0.5, rng=3, burn_in=1000)
    exact = riemannian_laplace(s1, s1.origin, 0.5, size=5000, rng=4)
    assert stats.ks_2samp(s1.dist(s1.origin, result.samples), s1.dist(s1.origin, exact)).pvalue > 0.01


def test_size_thin_and_fixed_step():
    s2 = Sphere(2)
    result = laplace_mh(s2, _chains(s2, 4), 0.3, size=5, rng=0, burn_in=100, thin=10, step=0.5)
    assert result.samples.shape == (5, 4, 3)
    np.testing.assert_allclose(result.step, 0.5)
    assert result.diagnostic_steps == 100 - 50 + 40
    with pytest.raises(ValueError, match="exceeds the injectivity radius"):
        laplace_mh(s2, s2.origin, 0.3, step=4.0)
    with pytest.raises(ValueError, match="burn_in"):
        laplace_mh(s2, s2.origin, 0.3, burn_in=0)


def test_progress_reports_rising_fractions_ending_at_one_without_changing_the_draws():
    s2 = Sphere(2)
    seen = []
    with_bar = laplace_mh(s2, s2.origin, 0.3, size=7, rng=3, burn_in=250, thin=9, progress=seen.append)
    without = laplace_mh(s2, s2.origin, 0.3, size=7, rng=3, burn_in=250, thin=9)
    total = 250 + 9 * 6
    assert seen[-1] == 1.0
    assert np.all(np.diff(seen) > 0) and seen[0] > 0
    assert 100 <= len(seen) <= 102
    assert seen[0] == pytest.approx(max(1, total // 100) / total)
    np.testing.assert_array_equal(with_bar.samples, without.samples)


@pytest.mark.slow
def test_mh_ball_conditioned_beyond_hyperbolic_limit_matches_exact():
    h2 = Hyperbolic(2)
    center = h2.origin
    eta = h2.exp(center, np.array([0.0, 0.4, 0.0]))
    kwargs = dict(ball_center=center, ball_radius=1.2)
    result = laplace_mh(h2, np.broadcast_to(eta, (300, 3)), 3.0, rng=5, burn_in=1500, **kwargs)
    assert (h2.dist(center, result.samples) <= 1.2).all()
    exact = riemannian_laplace(h2, eta, 3.0, size=5000, rng=6, **kwargs)
    assert stats.ks_2samp(h2.dist(eta, result.samples), h2.dist(eta, exact)).pvalue > 0.01


@pytest.mark.slow
def test_mh_matches_exact_on_spd2():
    """SPD affine is a symmetric but not two-point homogeneous space: the proposal is still symmetric."""
    spd = SPD(2)
    eta = np.diag([2.0, 0.5])
    result = laplace_mh(spd, np.broadcast_to(eta, (200, 2, 2)), 0.5, rng=7, burn_in=1500)
    exact = riemannian_laplace(spd, eta, 0.5, size=5000, rng=8)
    assert stats.ks_2samp(spd.dist(eta, result.samples), spd.dist(eta, exact)).pvalue > 0.01
    # The spread of the eigenvalues of log(η^{-1/2} Y η^{-1/2}) checks more than the radius.
    def gap(y):
        w = np.linalg.eigvalsh(spd.log(eta, y) @ np.linalg.inv(eta))
        return w[..., 1] - w[..., 0]
    assert stats.ks_2samp(gap(result.samples), gap(exact)).pvalue > 0.01
