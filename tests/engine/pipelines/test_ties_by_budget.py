"""How the who-wins map's tie moves with n·ε (``engine.pipelines.ties_by_budget``), against a computation
made here at two budgets on SPD(2): the Riemannian Laplace's mean error by quadrature of its radial law
with σ = Δ/ε, Δ = 2r/n (Theorem 2, κ ≤ 0), the Euclidean Laplace's by the playground's own release
(``private_mean.release_on``) on data sets drawn here."""

from __future__ import annotations

import numpy as np
import pytest

from engine.manifolds import SPD
from engine.pipelines import private_mean
from engine.pipelines.release_errors import measure_releases
from engine.pipelines.ties_by_budget import ties_by_budget
from engine.pipelines.who_wins_map import WhoWinsMapConfig, run
from tests.engine.pipelines.test_who_wins_map import _spd2_mean_radius, _spd2_tangent_ball

N = 50
SPD2 = SPD(2)


def _ratio(radius: float, budget: float, seed: int) -> tuple[float, float]:
    """Error ratio Riemannian / Euclidean Laplace on SPD(2) at n·ε = ``budget`` and its standard error
    (from the Euclidean side: 40 data sets of n records, 100 releases each)."""
    epsilon = budget / N
    intrinsic = _spd2_mean_radius((2 * radius / N) / epsilon)
    config = private_mean.PrivateMeanConfig(space="spd", source="wishart", radius=radius, epsilon=epsilon,
                                            releases=100)
    rng = np.random.default_rng(seed)
    means, releases = [], []
    for _ in range(40):
        data = _spd2_tangent_ball(radius, N, rng)
        _, release = private_mean.release_on("euclid", config, data, SPD2.origin, rng=rng)
        means.append(np.broadcast_to(private_mean.frechet_mean(SPD2, data).mean, release.points.shape))
        releases.append(release.points)
    euclid = measure_releases(SPD2, np.concatenate(means), np.concatenate(releases))
    return intrinsic / euclid.geodesic, intrinsic / euclid.geodesic * euclid.geodesic_se / euclid.geodesic


@pytest.fixture(scope="module")
def budgets():
    return ties_by_budget("spd", (5.0, 50.0), n=N)


def test_the_tie_at_a_small_budget_matches_the_direct_computation(budgets):
    """At n·ε = 5 the ratio crosses 1 near r ≈ 1: the direct ratios either side of the map's tie lie
    either side of 1, and the direct crossing (log ratio interpolated) is within 0.2 of the map's."""
    row = budgets.iloc[0]
    assert row.n_epsilon == 5 and row.epsilon == pytest.approx(0.1) and row.below == "intrinsic"
    low, high = row.tie - 0.4, row.tie + 0.4
    (ratio_low, se_low), (ratio_high, se_high) = _ratio(low, 5.0, 1), _ratio(high, 5.0, 2)
    assert ratio_low + 2 * se_low < 1 < ratio_high - 2 * se_high, (ratio_low, ratio_high)
    direct = low + (high - low) * np.log(ratio_low) / (np.log(ratio_low) - np.log(ratio_high))
    assert abs(direct - row.tie) <= 0.2, (direct, row.tie)


def test_ten_times_the_budget_moves_the_tie_off_the_grid(budgets):
    """At n·ε = 50 the same radii favour the intrinsic mechanism: no tie up to r = 2, and the direct
    ratios at the small budget's tie and at the grid's end are below 1, as the map's end ratio is."""
    small, large = budgets.iloc[0], budgets.iloc[1]
    assert large.n_epsilon == 50 and np.isnan(large.tie) and large.below == ""
    at_tie, se_tie = _ratio(small.tie, 50.0, 3)
    at_end, se_end = _ratio(large.last_radius, 50.0, 4)
    assert at_tie + 2 * se_tie < 1 and at_end + 2 * se_end < 1, (at_tie, at_end)
    assert abs(at_end - large.last_ratio) <= 3 * np.hypot(se_end, 0.03 * large.last_ratio), (at_end, large.last_ratio)
    assert large.last_ratio < 1 < small.last_ratio


@pytest.mark.parametrize("given, message", [
    ((), "give at least one value of n·ε"),
    ((5.0, -1.0), "n·ε must be"),
    ((5.0, 5.0), "the values of n·ε must not repeat, got 5, 5"),
])
def test_bad_budgets_are_refused_in_one_line(given, message):
    with pytest.raises(ValueError, match=message) as err:
        ties_by_budget("sphere", given)
    assert "\n" not in str(err.value)


def test_every_crossing_is_reported_against_a_brute_force_scan():
    """On H² at n·ε = 500 the ratio crosses 1 twice (up near r ≈ 0.44, down again before r = 2).
    A brute-force scan of the map at twice the radii (the same seed: the same data and noise draws, so
    its even cells are the coarse grid's): every fine cell inside the coarse grid and away from the
    crossings lies in a reported range exactly when its ratio is below 1, and every range and every tie
    sits between two coarse cells on opposite sides of 1."""
    found = ties_by_budget("hyperbolic", (500.0,), n=N).iloc[0]
    ties, ranges = found["ties"], found["intrinsic_ranges"]
    assert len(ties) == 2 and ties[0] == found["tie"] and len(ranges) == 2
    fine = run(WhoWinsMapConfig(space="hyperbolic", dims=(int(found["parameter"]),), radii=40, n=N,
                                epsilon=500.0 / N)).cells.sort_values("radius")
    coarse = fine.iloc[1::2]
    step = float(coarse["radius"].diff().iloc[-1])
    assert coarse["radius"].to_numpy() == pytest.approx(np.linspace(found["first_radius"], found["last_radius"], 20))
    assert coarse["ratio"].iloc[-1] == pytest.approx(found["last_ratio"], rel=1e-9)
    wins = coarse["ratio"].to_numpy() < 1
    runs = np.flatnonzero(np.diff(np.concatenate([[0], wins.astype(int), [0]])))
    assert len(runs) // 2 == len(ranges)
    radii = coarse["radius"].to_numpy()
    for (start, stop), (low, high) in zip(runs.reshape(-1, 2), ranges):
        assert (radii[start - 1] if start else radii[0]) <= low <= radii[start]
        assert radii[stop - 1] <= high <= (radii[stop] if stop < len(radii) else radii[-1])
    for radius, ratio in fine[["radius", "ratio"]].itertuples(index=False):
        if radius < found["first_radius"] or min(abs(radius - t) for t in ties) < step:
            continue
        assert any(low <= radius <= high for low, high in ranges) == (ratio < 1), (radius, ratio, ranges)


def test_a_budget_the_gaussian_cannot_reach_is_a_row_that_says_why():
    """On H² the Riemannian Gaussian's μ levels off as σ grows, so at n·ε = 5 (n = 50) no σ gives the budget: that
    row says so and holds no ratios, while n·ε = 500 is mapped."""
    found = ties_by_budget("hyperbolic", budgets=(5.0, 500.0), n=50, radii=2, mechanism="rgauss", delta=1e-3)
    unreachable, mapped = found.iloc[0], found.iloc[1]
    assert "out of reach of the Riemannian Gaussian" in unreachable["status"]
    assert np.isnan(unreachable["last_ratio"]) and unreachable["intrinsic_ranges"] == ()
    assert mapped["status"] == "" and np.isfinite(mapped["last_ratio"])
