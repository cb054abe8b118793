"""Trade-off curves (engine.audit.tradeoff): the claims' curves against the Neyman-Pearson tests of
their worst pairs, the measured curve against the brute-force curve of exact Laplace pairs, the DKW
band's simultaneous coverage by simulation, and the audits: a correct mechanism above its claim,
its 2× twin and a broken control visibly below."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import laplace

from engine.audit import AUDITS, run_audit
from engine.audit.tradeoff import (
    audit_tradeoff,
    claim_label,
    claimed_tradeoff,
    dkw_radius,
    empirical_tradeoff,
    lower_envelope,
    target_tradeoff,
    threshold_tests,
    tradeoff_curve,
)
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.odds import dp_tradeoff_bound as epsilon_delta_tradeoff
from engine.odds import gaussian_tradeoff, laplace_tradeoff

GRID = np.linspace(0.0, 1.0, 401)


def neyman_pearson_curve(p, q, grid=GRID):
    """Brute force: β at ``grid`` of the best tests between the discrete laws ``p`` (D) and ``q`` (D'),
    rejecting D on the cells in decreasing order of q/p (randomised on the last cell)."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p > 0, q / p, np.inf)
    order = np.argsort(-ratio, kind="stable")
    alpha = np.concatenate([[0.0], np.cumsum(p[order])])
    beta = 1.0 - np.concatenate([[0.0], np.cumsum(q[order])])
    return np.interp(grid, alpha, beta)


def laplace_pair_curve(shift, grid=GRID):
    """Brute force trade-off curve of Laplace(0, 1) against Laplace(shift, 1): cells of width 1e-3 on
    [−40, 40 + shift], their exact masses, and ``neyman_pearson_curve``."""
    edges = np.arange(-40.0, 40.0 + shift, 1e-3)
    return neyman_pearson_curve(np.diff(laplace.cdf(edges)), np.diff(laplace.cdf(edges, loc=shift)), grid)


def laplace_plane_curve(gap, grid=GRID):
    """Brute force trade-off curve of the Laplace laws ∝ exp(−|x − c|) on R² with centres ``gap`` apart on
    the first axis: midpoint masses of 0.05-cells over [−25, 25 + gap] × [0, 25] (both laws are even in
    the second coordinate), ``neyman_pearson_curve`` (within 3e-5 of 0.02-cells)."""
    xs, ys = np.arange(-25.0, 25.0 + gap, 0.05) + 0.025, np.arange(0.0, 25.0, 0.05) + 0.025
    x, y = np.meshgrid(xs, ys, indexing="ij")
    p = np.exp(-np.hypot(x, y)).ravel()
    q = np.exp(-np.hypot(x - gap, y)).ravel()
    return neyman_pearson_curve(p / p.sum(), q / q.sum(), grid)


@pytest.mark.parametrize("epsilon, delta", [(0.5, 0.0), (1.0, 0.0), (2.0, 1e-3), (1.0, 0.1)])
def test_epsilon_delta_curve_is_that_of_the_worst_pair(epsilon, delta):
    """f_{ε,δ} is the trade-off curve of the four-point pair of Kairouz, Oh & Viswanath (2015)."""
    e = np.exp(epsilon)
    p = [delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0]
    q = p[::-1]
    assert np.allclose(epsilon_delta_tradeoff(GRID, epsilon, delta), neyman_pearson_curve(p, q), atol=1e-12)


def test_gaussian_curve_is_that_of_two_unit_normals_and_symmetric():
    from scipy.stats import norm
    edges = np.linspace(-12.0, 13.5, 200_001)
    brute = neyman_pearson_curve(np.diff(norm.cdf(edges)), np.diff(norm.cdf(edges, loc=1.5)))
    assert np.max(np.abs(gaussian_tradeoff(GRID, 1.5) - brute)) < 1e-6
    inner = GRID[1:-1]
    assert np.allclose(gaussian_tradeoff(gaussian_tradeoff(inner, 0.8), 0.8), inner, atol=1e-9)
    assert np.allclose(gaussian_tradeoff(GRID, 0.0), 1.0 - GRID)


def test_claims_are_read_from_what_the_guarantee_has():
    pure = PrivacyGuarantee("M", 1.0, 0.0, 1.0, "rule", "reason", ())
    approximate = PrivacyGuarantee("M", 1.0, 1e-5, 1.0, "rule", "reason", ())
    assert np.allclose(claimed_tradeoff(pure, GRID), epsilon_delta_tradeoff(GRID, 1.0))
    assert np.allclose(claimed_tradeoff(approximate, GRID), epsilon_delta_tradeoff(GRID, 1.0, 1e-5))
    assert np.all(claimed_tradeoff(pure.voided("data outside the ball"), GRID) == 0.0)
    gdp = SimpleNamespace(epsilon=3.0, delta=1e-5, mu=0.7)  # a GDP guarantee that also states its (ε, δ)
    assert np.allclose(claimed_tradeoff(gdp, GRID), gaussian_tradeoff(GRID, 0.7))
    assert [claim_label(c) for c in (pure, approximate, gdp, pure.voided("x"))] == [
        "1-DP", "(1, 1e-05)-DP", "0.7-GDP", "no claim"]


def test_threshold_tests_and_envelope_on_a_small_sample():
    alpha, beta = threshold_tests([0.0, 1.0], [1.0, 2.0])
    # {s < 0}, {s < 1}, {s < 2}, {s < ∞} and their complements
    assert np.allclose(alpha, [0, 0.5, 1, 1, 1, 0.5, 0, 0]) and np.allclose(beta, [1, 1, 0.5, 0, 0, 0, 0.5, 1])
    # the best: reject D on {s >= 2} (0, 0.5) or on {s >= 1} (0.5, 0), and their mixtures
    assert np.allclose(lower_envelope(alpha, beta, [0.0, 0.25, 0.5, 1.0]), [0.5, 0.25, 0.0, 0.0])
    # with disjoint supports one test has no error at all
    assert np.allclose(lower_envelope(*threshold_tests([0.0], [1.0]), [0.0, 0.5]), [0.0, 0.0])
    with pytest.raises(ValueError, match="both sides"):
        threshold_tests([], [1.0])


def test_measured_curve_converges_to_the_exact_laplace_curve():
    rng = np.random.default_rng(5)
    truth = laplace_pair_curve(1.0)
    assert np.max(np.abs(truth - laplace_tradeoff(GRID, 1.0, 1.0))) < 1e-6, "brute force = engine.odds' closed form"
    assert np.all(truth >= epsilon_delta_tradeoff(GRID, 1.0) - 1e-9), "Laplace with b = Δ/ε is ε-DP"
    errors = []
    for n in (1_000, 100_000):
        first, second = rng.laplace(0.0, 1.0, n), rng.laplace(1.0, 1.0, n)
        _, beta, low, high = empirical_tradeoff(first, second, level=0.05, grid=GRID)
        assert np.all(low <= truth + 1e-9) and np.all(truth <= high + 1e-9)
        errors.append(np.max(np.abs(beta - truth)))
    assert errors[1] < 0.01 < errors[0], errors
    assert errors[1] < errors[0] / 5, "the error falls as 1/√n"


@pytest.mark.parametrize("draw, truth", [
    (lambda rng, n: (rng.normal(0.0, 1.0, n), rng.normal(1.0, 1.0, n)), gaussian_tradeoff(GRID, 1.0)),
    (lambda rng, n: (rng.laplace(0.0, 1.0, n), rng.laplace(1.0, 1.0, n)), laplace_pair_curve(1.0)),
], ids=["gaussian", "laplace"])
def test_band_covers_the_whole_true_curve_at_its_level(draw, truth):
    """300 pairs of 400 draws a side at level 0.1: the true curve lies in the band at every α at once in
    at least 90 % of them (DKW is conservative: about 99 %), and the band is not vacuous."""
    rng = np.random.default_rng(11)
    level, reps, n = 0.1, 300, 400
    covered, widths = 0, []
    for _ in range(reps):
        _, _, low, high = empirical_tradeoff(*draw(rng, n), level=level, grid=GRID)
        covered += bool(np.all(low <= truth + 1e-12) and np.all(truth <= high + 1e-12))
        widths.append(np.max(high - low))
    assert covered / reps >= 1.0 - level, covered
    radius = dkw_radius(n, level / 2)
    assert np.mean(widths) < 8 * radius < 0.6, "the band is about ±(r + slope·r), not [0, 1]"


def test_tradeoff_curve_frame_and_verdict():
    rng = np.random.default_rng(2)
    claim = SimpleNamespace(epsilon=1.0, delta=0.0)
    within = tradeoff_curve(rng.laplace(0, 1, 20_000), rng.laplace(1, 1, 20_000), claim)
    beyond = tradeoff_curve(rng.laplace(0, 0.5, 20_000), rng.laplace(1, 0.5, 20_000), claim)
    assert list(within.frame().columns) == ["alpha", "beta", "beta_low", "beta_high", "claimed_beta"]
    assert not within.refutes and beyond.refutes and beyond.deficit > 0.1
    with pytest.raises(ValueError, match="grid"):
        empirical_tradeoff([0.0], [1.0], grid=[0.5, 1.5])


@pytest.fixture(scope="module")
def plane_truth():
    return laplace_plane_curve(1.0)


def _audit_curve(name, space, samples):
    result = run_audit(AUDITS[name].target(space, 1.0), samples=samples, rng=0, early_stop=False)
    return result, audit_tradeoff(result, grid=GRID)


def test_laplace_audit_curve_is_the_exact_curve_and_above_its_claim(plane_truth):
    """On R² the pair moves the mean by the whole sensitivity, σ = Δ/ε: its curve is the Laplace plane
    pair's at gap 1, and it lies above the 1-DP curve within the band."""
    result, curve = _audit_curve("laplace", "euclidean", 40_000)
    assert result.reachable_epsilon == pytest.approx(1.0)
    assert curve.level == pytest.approx(0.025) and curve.claim == "1-DP"
    assert np.all(curve.beta_low <= plane_truth + 2e-3) and np.all(plane_truth <= curve.beta_high + 2e-3)
    assert np.max(np.abs(curve.beta - plane_truth)) < 0.02
    assert not curve.refutes


@pytest.mark.parametrize("name, space", [("twin-laplace", "euclidean"), ("twin-euclidean-baseline", "sphere"),
                                         ("control-subspace-basis", "r5-threshold")])
def test_controls_fall_visibly_below_the_claim(name, space):
    _, curve = _audit_curve(name, space, 20_000)
    assert curve.refutes and curve.deficit > 0.05, curve.deficit


def test_cli_writes_the_curve_and_refuses_a_bad_path(tmp_path, capsys):
    from engine.audit.__main__ import main

    out = tmp_path / "curve"
    assert main(["laplace", "--space", "euclidean", "--samples", "4000", "--tradeoff", str(out)]) == 0
    written = pd.read_csv(tmp_path / "curve.csv")
    assert list(written.columns) == ["alpha", "beta", "beta_low", "beta_high", "claimed_beta"]
    assert len(written) == 201 and np.all(written.beta_low <= written.beta) and np.all(written.beta <= written.beta_high)
    assert "trade-off curve:" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curve.csv"], "no partial file left behind"
    for argv, says in ((["laplace", "--tradeoff", str(tmp_path / "missing" / "x.csv")], "does not exist"),
                       (["laplace", "--tradeoff", str(tmp_path)], "is a folder"),
                       (["all", "--tradeoff", str(tmp_path / "y.csv")], "one audit")):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        err = capsys.readouterr().err.strip()
        assert stop.value.code == 2 and says in err and len(err.splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curve.csv"]


def test_target_curve_of_the_lessons_game_mechanism_and_its_control():
    """The Lesson's game: the playground's Laplace on its pair keeps 1-DP; the same code at 2ε claiming ε does not."""
    from engine.lesson.game import which_data_set

    game = which_data_set(1.0)
    kept = target_tradeoff(game.mechanism, samples=20_000, rng=0)
    broken = target_tradeoff(game.control, samples=20_000, rng=0)
    assert kept.claim == "1-DP" and not kept.refutes
    assert broken.claim == "2-DP" and not broken.refutes, "the control states its own 2ε"
    assert tradeoff_curve(np.zeros(1), np.zeros(1), game.mechanism).claim == "1-DP"
    below_claim = claimed_tradeoff(game.mechanism, broken.alpha) - broken.beta_high
    assert np.max(below_claim) > 0.05, "against the mechanism's claim 1-DP, the 2ε releases fall visibly below"
    with pytest.raises(ValueError, match="learned score"):
        target_tradeoff(SimpleNamespace(statistic=None, label="KNG"), samples=10)
