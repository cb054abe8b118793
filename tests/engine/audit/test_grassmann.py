"""The audits on the lines Gr(3, 1): the tangent Gaussian's statistic is the released lines' own
log-likelihood ratio (Exp_w folds the tangent plane, geodesics closing after π), the most its releases
can show, the projector baseline's noise around the mean projector, and every audit with power within
its claim, the broken controls flagged."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from engine.audit import AUDITS, replace_one_pair, run_audit
from engine.audit.mechanisms import tangent_gaussian_llr
from engine.audit.uses import playground_target
from engine.estimators import ambient_centre, ambient_mean
from engine.manifolds import Grassmann
from engine.pipelines import private_mean


def _exp_at_e1(v: np.ndarray) -> np.ndarray:
    """Exp at the line span(e₁) of tangent vectors v ``(N, d)`` with v₁ = 0: cos|v| e₁ + sin|v| v/|v|."""
    norm = np.linalg.norm(v, axis=1, keepdims=True)
    return (np.cos(norm) * np.eye(v.shape[1])[0] + np.sin(norm) * v / norm)[:, :, None]


def _tangent(d: int, *coords: float) -> np.ndarray:
    return np.array([0.0, *coords, *[0.0] * (d - 1 - len(coords))])


@pytest.mark.parametrize("d", [3, 5])
def test_the_tangent_statistic_is_the_likelihood_ratio_of_the_released_lines(d):
    """E₁[e^L] = 1 and E₀[e^{−L}] = 1 hold for a log-likelihood ratio L = log p₀/p₁ of the released lines
    (σ = 1: most draws pass the cut locus at π/2); Log alone, which reads only the nearest preimage, is not one."""
    gr, sigma = Grassmann(d, 1), 1.0
    b = (_tangent(d, 0.3, 0.1), _tangent(d, -0.2, 0.25))
    w = gr.origin
    statistic = tangent_gaussian_llr(gr, w, tuple(v[:, None] for v in b), sigma)
    rng = np.random.default_rng(d)
    draws = [_exp_at_e1(bi + sigma * np.column_stack([np.zeros(200_000), rng.standard_normal((200_000, d - 1))]))
             for bi in b]
    for side, sign in ((1, 1.0), (0, -1.0)):
        ratio = np.exp(sign * statistic(draws[side]))
        assert abs(ratio.mean() - 1) <= 4 * ratio.std() / np.sqrt(ratio.size), (side, ratio.mean())
    u = gr.log(np.broadcast_to(w, draws[1].shape), draws[1])[:, :, 0]
    log_only = np.exp((np.sum((u - b[1]) ** 2, axis=1) - np.sum((u - b[0]) ** 2, axis=1)) / (2 * sigma**2))
    assert abs(log_only.mean() - 1) > 10 * log_only.std() / np.sqrt(log_only.size)


def test_folded_noise_caps_what_the_tangent_gaussian_s_releases_can_show():
    """At r = 0.575 (σ = 1.31) the released lines are nearly uniform: their privacy loss, largest over
    400,000 uniform lines, is the target's reachable ε, a tenth of the tangent vectors' 0.33 (why the
    audit showed 0 of 0.33)."""
    target = playground_target("gauss", "grassmann", 0.575, n=10)
    lines = Grassmann(3, 1).random_point(400_000, np.random.default_rng(1))
    largest = float(np.abs(target.statistic(lines)).max())
    assert 0.97 * target.reachable_epsilon <= largest <= 1.001 * target.reachable_epsilon
    assert target.reachable_epsilon < 0.05
    assert "folds the tangent noise (σ = 1.31)" in target.notes
    assert "below the 0.332 of the tangent vectors" in target.notes


def test_the_projector_baseline_adds_its_noise_around_the_mean_projector():
    """Δ_E = 2√2 sin(r)/n bounds the mean projector C, not its top eigenvector: on the orthogonal pair at
    r = 0.575 the rounded means lie 1.2 Δ_E apart. The playground's releases are the K-norm noise around C,
    rounded afterwards (as drawn here), not around the rounded mean."""
    gr, r, n = Grassmann(3, 1), 0.575, 10
    pair = replace_one_pair(gr, n, r, shape="orthogonal")
    delta_e = 2 * np.sqrt(2) * np.sin(r) / n
    centres = [ambient_centre(gr, data) for data in (pair.first, pair.second)]
    rounded = [gr.to_ambient(ambient_mean(gr, data)) for data in (pair.first, pair.second)]
    assert np.linalg.norm(centres[0] - centres[1]) <= delta_e < np.linalg.norm(rounded[0] - rounded[1]) / 1.2
    config = private_mean.PrivateMeanConfig(space="grassmann", source="ball", radius=r, epsilon=0.5,
                                            releases=20_000)
    mech, release = private_mean.release_on("euclid", config, pair.first, gr.origin, rng=2)
    mean_projector = np.mean(pair.first @ np.swapaxes(pair.first, 1, 2), axis=0)
    top = np.linalg.eigh(mean_projector)[1][:, -1:]
    rng = np.random.default_rng(3)

    def rounded_noise(matrix):
        """Top eigenvectors of matrix + σR·S/‖S‖_F, S Frobenius-isotropic in Sym(3), R ~ Gamma(6, 1)."""
        g = rng.standard_normal((20_000, 3, 3))
        noise = (g + np.swapaxes(g, 1, 2)) / 2
        noise *= (mech.sigma * rng.gamma(6, 1.0, 20_000) / np.linalg.norm(noise, axis=(1, 2)))[:, None, None]
        return np.linalg.eigh(matrix + noise)[1][:, :, -1:]

    def angles(lines):
        return gr.dist(gr.origin, lines)

    assert stats.ks_2samp(angles(release.points), angles(rounded_noise(mean_projector))).pvalue > 1e-3
    assert stats.ks_2samp(angles(release.points), angles(rounded_noise(top @ top.T))).pvalue < 1e-6


@pytest.mark.parametrize("name, floor", [("laplace", 0.6), ("euclidean-baseline", 0.25), ("tangent-gaussian", 0.2),
                                         ("tangent-gaussian-analytic", 0.2)])
def test_the_audits_on_lines_have_power_and_stay_within_their_claims(name, floor):
    result = run_audit(AUDITS[name].target("grassmann"), samples=40_000, rng=1)
    assert not result.flagged and result.epsilon_lower <= result.epsilon
    assert result.epsilon_lower >= floor * min(result.reachable_epsilon, result.epsilon), (
        result.epsilon_lower, result.reachable_epsilon)


@pytest.mark.parametrize("name", ["control-half-noise", "control-reused-randomness"])
def test_the_broken_controls_on_lines_are_flagged(name):
    result = run_audit(AUDITS[name].target("grassmann"), samples=100_000, rng=3)
    assert result.flagged and result.epsilon_lower > result.epsilon
