"""Singhal & Steinke subspace mechanisms: samplers, recovery, ⊥, bad input and an empirical privacy check."""

import math

import numpy as np
import pytest
from scipy import stats

from engine.data import subspace_points
from engine.manifolds import Grassmann
from engine.mechanisms.subspace import (
    AnalyzeGauss,
    BinghamSubspace,
    ExactSubspace,
    SubsampleAggregateSubspace,
    bingham_sample,
    bingham_samples,
    exact_search,
    stable_histogram_argmax,
    stable_select,
    truncated_laplace,
    truncated_laplace_bound,
)
from engine.mechanisms.subspace.exact_search import find_dense_subspaces, max_points_in_hyperplane
from tests.engine.privacy_check import certified_violation


def _error(result, truth):
    d, k = truth.shape
    return Grassmann(d, k).projection_distance(result, truth)


def test_truncated_laplace_matches_its_law():
    eps, delta, sens = 1.0, 0.01, 2.0
    bound = truncated_laplace_bound(eps, delta, sens)
    assert bound == pytest.approx(2.0 * math.log1p(math.expm1(1.0) / 0.02))
    z = truncated_laplace(eps, delta, sens, size=20_000, rng=0)
    b = sens / eps
    norm = 2 * b * (1 - math.exp(-bound / b))

    def cdf(x):
        x = np.clip(x, -bound, bound)
        tail = b * (np.exp(-np.abs(x) / b) - math.exp(-bound / b)) / norm
        return np.where(x < 0, tail, 1 - tail)

    assert np.abs(z).max() <= bound
    assert stats.kstest(z, cdf).pvalue > 1e-3


def test_stable_select_is_certain_above_the_margin_and_never_without_a_lead():
    eps, delta = 1.0, 1e-6
    bound = truncated_laplace_bound(eps, delta, 2.0)
    assert stable_select(10 + 2 * bound + 1.01, 10, epsilon=eps, delta=delta, size=2000, rng=0).all()
    assert not stable_select(11, 10, epsilon=eps, delta=delta, size=2000, rng=0).any()


def test_candidate_search_finds_every_dense_plane_once():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((12, 2)) @ rng.standard_normal((2, 6))
    b = rng.standard_normal((9, 2)) @ rng.standard_normal((2, 6))
    x = rng.permutation(np.vstack([a, b, rng.standard_normal((3, 6))]))
    found, _ = find_dense_subspaces(x, 2, 9)
    assert sorted(int(f.members.sum()) for f in found) == [9, 12]
    line = np.outer(rng.standard_normal(7), [1.0, 2.0])
    pts = np.vstack([line, rng.standard_normal((5, 2))])
    assert max_points_in_hyperplane(pts, np.einsum("ij,ij->i", pts, pts), cap=100) == 7
    assert max_points_in_hyperplane(pts, np.einsum("ij,ij->i", pts, pts), cap=4) == 4


def test_search_in_the_span_of_the_first_points_equals_the_full_search(monkeypatch):
    """d = 200 > p + 1: the search runs on reduced coordinates. The first 30 points share one line, so
    the heads of the second level lie beyond the first p = 23 points and p doubles to 46; the planes
    found (members and bases) are those of the search on the full coordinates."""
    rng = np.random.default_rng(5)
    u = np.linalg.qr(rng.standard_normal((200, 2)))[0]
    line = np.outer(rng.standard_normal(30), u[:, 0])
    plane = rng.standard_normal((60, 2)) @ u.T
    x = np.vstack([line, plane, rng.standard_normal((3, 200))])
    limits = []
    search = exact_search._search
    monkeypatch.setattr(exact_search, "_search", lambda *a, **kw: limits.append(kw["head_limit"]) or search(*a, **kw))
    found, _ = find_dense_subspaces(x, 2, len(x) - 5)
    full, _ = search(x, 2, len(x) - 5, 1e-6, head_limit=len(x))
    assert limits == [23, 46]
    assert len(found) == len(full) == 1
    assert np.array_equal(found[0].members, full[0].members) and found[0].members.sum() == 90
    assert _error(found[0].basis, u) < 1e-10 and _error(full[0].basis, u) < 1e-10


@pytest.mark.parametrize("d", [10, 1000])
def test_exact_recovers_the_subspace_with_outliers_whatever_d(d):
    sample = subspace_points(120, d, 2, outliers=5, rng=1)
    mech = ExactSubspace(k=2, epsilon=1.0, delta=1e-6, ell=5 + 1)
    release = mech.release(sample.data, size=20, rng=2)
    assert not release.bottom.any()
    assert _error(release.points, sample.subspace).max() < 1e-3  # the public grid of the representation


def test_exact_returns_bottom_on_malformed_data():
    x = np.random.default_rng(4).standard_normal((80, 10))
    release = ExactSubspace(k=2, epsilon=1.0, delta=1e-6).release(x, size=50, rng=0)
    assert release.bottom.all() and np.isnan(release.points).all()


@pytest.mark.parametrize("kwargs, data, message", [
    ({"k": 3}, np.ones((100, 3)), "k must be < d = 3"),
    ({"k": 2}, np.ones((20, 5)), "needs n >= 59"),
    ({"k": 2}, np.where(np.arange(500).reshape(100, 5) == 37, np.nan, 1.0), "row(s): 7"),
])
def test_exact_bad_input(kwargs, data, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ExactSubspace(epsilon=1.0, delta=1e-6, **kwargs).release(data)


@pytest.mark.parametrize("delta", [0, 1, 1.5, -0.1])
def test_delta_outside_the_open_unit_interval_is_refused(delta):
    with pytest.raises(ValueError, match="delta must lie in"):
        ExactSubspace(k=1, epsilon=1.0, delta=delta)
    with pytest.raises(ValueError, match="delta must lie in"):
        SubsampleAggregateSubspace(k=1, epsilon=1.0, delta=delta, gamma=1e-6)


def _exact_pair(k_inside):
    """A data set with k_inside points in a plane and the rest in general position (R^6), n = 80."""
    rng = np.random.default_rng(7)
    plane = rng.standard_normal((k_inside, 2)) @ rng.standard_normal((2, 6))
    return np.vstack([plane, rng.standard_normal((80 - k_inside, 6))])


@pytest.mark.parametrize("epsilon, delta, shift", [(1.0, 0.05, 1), (1.0, 0.05, 6), (1.0, 0.05, 11), (0.5, 0.1, 3)])
def test_exact_output_distribution_is_private_on_neighbours(epsilon, delta, shift):
    """Neighbours differ in one point of the plane; the lead over q_bot is `shift` on one side."""
    mech = ExactSubspace(k=2, epsilon=epsilon, delta=delta)
    q_bottom = mech.bottom_score(80)
    inside = q_bottom + 2 + shift          # score inside - 1 = q_bot + 1 + shift: gap shift, then shift - 1
    x = _exact_pair(inside)
    y = x.copy()
    y[0] = np.random.default_rng(8).standard_normal(6)
    draws = 40_000
    out_x = mech.release(x, size=draws, rng=1).bottom
    out_y = mech.release(y, size=draws, rng=2).bottom
    events_x = np.stack([~out_x, out_x])
    events_y = np.stack([~out_y, out_y])
    assert certified_violation(events_x, events_y, epsilon) <= delta
    assert out_x.mean() < 1.0 or out_y.mean() < 1.0


def test_privacy_check_flags_an_overstated_guarantee():
    """The same pair against a mechanism run at ε = 4 while ε = 0.25 is claimed: the check must fail."""
    loose = ExactSubspace(k=2, epsilon=4.0, delta=0.05)
    inside = loose.bottom_score(80) + 2 + 3
    x = _exact_pair(inside)
    y = x.copy()
    y[0] = np.random.default_rng(8).standard_normal(6)
    out_x = loose.release(x, size=40_000, rng=1).bottom
    out_y = loose.release(y, size=40_000, rng=2).bottom
    assert certified_violation(np.stack([~out_x, out_x]), np.stack([~out_y, out_y]), 0.25) > 0.05


@pytest.mark.slow
def test_stable_histogram_is_private_on_neighbouring_labels():
    eps, delta = 1.0, 0.05
    base = np.array([0] * 9 + [1] * 3)
    moved = np.array([0] * 8 + [1] * 3 + [2])
    draws, gx, gy = 5_000, np.random.default_rng(0), np.random.default_rng(1)
    win_x = [stable_histogram_argmax(base, epsilon=eps, delta=delta, rng=gx)[0] for _ in range(draws)]
    win_y = [stable_histogram_argmax(moved, epsilon=eps, delta=delta, rng=gy)[0] for _ in range(draws)]
    events = [lambda w, c=c: np.array([v == c for v in w]) for c in (None, 0, 1, 2)]
    ex = np.stack([e(win_x) for e in events])
    ey = np.stack([e(win_y) for e in events])
    assert certified_violation(ex, ey, eps) <= delta
    assert 0.05 < ex[0].mean() < 0.95


@pytest.mark.parametrize("d", [10, 1000])
def test_approximate_recovers_near_low_rank_data_at_the_same_n(d):
    sample = subspace_points(1400, d, 2, noise=1e-10, rng=5)
    mech = SubsampleAggregateSubspace(k=2, epsilon=1.0, delta=1e-6, gamma=1e-10)
    assert mech.min_samples <= 1400
    release = mech.release(sample.data, size=3, rng=6)
    assert not release.bottom.any()
    assert _error(release.points, sample.subspace).max() < 0.1


def test_approximate_gives_bottom_when_blocks_disagree():
    x = np.random.default_rng(9).standard_normal((1400, 20))
    release = SubsampleAggregateSubspace(k=2, epsilon=1.0, delta=1e-6, gamma=1e-10).release(x, size=3, rng=0)
    assert release.bottom.all()


def test_approximate_names_the_sample_size_it_needs():
    mech = SubsampleAggregateSubspace(k=2, epsilon=1.0, delta=1e-6, gamma=1e-6)
    with pytest.raises(ValueError, match=f"n >= {mech.min_samples}"):
        mech.release(np.ones((100, 5)))


def test_analyze_gauss_noise_and_recovery():
    mech = AnalyzeGauss(k=1, epsilon=1.0, delta=1e-5)
    from engine.mechanisms.gaussian import analytic_gaussian_sigma

    assert mech.sigma == pytest.approx(analytic_gaussian_sigma(1.0, 1e-5, math.sqrt(2)))
    sample = subspace_points(5000, 5, 1, rng=0)
    release = mech.release(sample.data, size=5, rng=1)
    assert _error(release.points, sample.subspace).max() < 0.1
    assert mech.privacy_guarantee().delta == 1e-5


@pytest.mark.parametrize("batched", [False, True])
def test_bingham_sampler_on_the_circle_matches_its_density(batched):
    c = 3.0
    rng = np.random.default_rng(0)
    draws = (bingham_samples([0.0, c], 3000, rng) if batched
             else np.array([bingham_sample([0.0, c], rng) for _ in range(3000)]))
    theta = np.arctan2(draws[:, 1], draws[:, 0]) % np.pi
    grid = np.linspace(0, np.pi, 4001)
    dens = np.exp(-c * np.sin(grid) ** 2)
    cdf = np.concatenate([[0], np.cumsum((dens[1:] + dens[:-1]) / 2 * np.diff(grid))])
    cdf /= cdf[-1]
    assert stats.kstest(theta, lambda t: np.interp(t, grid, cdf)).pvalue > 1e-3


def test_bingham_mechanism_recovers_with_many_points():
    sample = subspace_points(4000, 4, 2, rng=0)
    release = BinghamSubspace(k=2, epsilon=2.0).release(sample.data, size=3, rng=1)
    assert _error(release.points, sample.subspace).max() < 0.2
    assert BinghamSubspace(k=2, epsilon=2.0).privacy_guarantee().delta == 0.0


@pytest.mark.parametrize("b, d", [(40, 5), (30, 30), (20, 100)])
def test_block_subspaces_are_the_top_right_singular_vectors_whichever_gram_is_smaller(b, d):
    from engine.mechanisms.subspace.approximate import _top_right_vectors

    blocks = np.random.default_rng(b + d).standard_normal((6, b, d))
    vectors = _top_right_vectors(blocks, 2)
    right = np.linalg.svd(blocks)[2][:, :2]
    projector = np.swapaxes(vectors, -1, -2) @ vectors
    assert np.allclose(projector, np.swapaxes(right, -1, -2) @ right, atol=1e-12)
    assert np.allclose(vectors @ np.swapaxes(vectors, -1, -2), np.eye(2), atol=1e-12)


def test_the_exact_mechanisms_sigma_is_its_noise_scale_and_its_threshold_is_named():
    """The subspace summary's "sigma" held the threshold A = (2/ε) ln(1 + (e^ε − 1)/(2·0.95δ)),
    not the truncated Laplace noise's scale 2/ε. σ is the scale now; A is the diagnostics' "threshold"."""
    from engine.mechanisms.subspace.truncated_laplace import truncated_laplace_bound
    from engine.pipelines.private_subspace import PrivateSubspaceConfig, run

    summary = run(PrivateSubspaceConfig(k=2, d=3, n=200, epsilon=1.0, delta=1e-6, outliers=5, method="exact",
                                        releases=2)).summary()
    assert summary["guarantee"]["sigma"] == pytest.approx(2.0)
    threshold = summary["diagnostics"]["threshold"]
    assert threshold == pytest.approx(truncated_laplace_bound(1.0, 0.95e-6, 2.0))
    assert f"{threshold:.4g}" in summary["guarantee"]["rule"]
