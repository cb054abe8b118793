"""Audits of the subspace mechanisms: the adversarial pairs move what they
claim to move, every mechanism stays within its claim at reduced samples, and every control is flagged."""

import numpy as np
import pytest

from engine.audit import AUDITS, run_audit, space_label
from engine.audit.__main__ import main as audit_main
from engine.audit.controls import SearchBasisExactSubspace, halved_bound_delta
from engine.audit.subspace import DELTA, discrete_epsilon, threshold_pair
from engine.mechanisms.subspace import ExactSubspace, truncated_laplace, truncated_laplace_bound
from engine.mechanisms.subspace.truncated_laplace import truncated_laplace_cdf

SUBSPACE_AUDITS = ("exact-subspace", "subsample-aggregate-subspace", "analyze-gauss", "bingham-subspace")
SUBSPACE_CONTROLS = ("control-subspace-basis", "control-subspace-half-bound")


def test_truncated_laplace_cdf_matches_its_draws_and_puts_delta_beyond_a_gap_of_two():
    eps, delta = 1.0, 1e-6
    bound = truncated_laplace_bound(eps, delta, 2.0)
    draws = truncated_laplace(eps, delta, 2.0, size=200_000, rng=0)
    z = np.array([-bound, -3.0, -0.5, 0.0, 1.0, 4.0, bound])
    np.testing.assert_allclose(truncated_laplace_cdf(z, eps, delta, 2.0), (draws[:, None] <= z).mean(axis=0),
                               atol=4e-3)
    # The stable selection outputs U at a gap of 2 with probability 1 - F(A - 2) = delta exactly.
    assert 1.0 - truncated_laplace_cdf(bound - 2.0, eps, delta, 2.0) == pytest.approx(delta, rel=1e-9)


def test_halved_bound_delta_halves_the_bound():
    assert truncated_laplace_bound(1.0, halved_bound_delta(1.0, DELTA), 2.0) == pytest.approx(
        truncated_laplace_bound(1.0, DELTA, 2.0) / 2.0, rel=1e-12)


@pytest.mark.parametrize("gap", [30, 2])
def test_threshold_pair_moves_the_score_gap_by_two_and_keeps_the_leader(gap):
    mechanism = ExactSubspace(k=2, epsilon=1.0, delta=DELTA)
    first, second, u, v = threshold_pair(mechanism, gap)
    assert np.count_nonzero(np.any(first != second, axis=1)) == 1 and len(first) >= mechanism.min_samples
    scores = [mechanism.scores(data) for data in (first, second)]
    assert [s["top"] - s["second"] - 1 for s in scores] == [gap, gap - 2]
    projectors = [s["basis"] @ s["basis"].T for s in scores]
    np.testing.assert_allclose(projectors[0], projectors[1], atol=1e-12)


def test_discrete_epsilon_is_the_truncated_laplace_ratio_at_the_threshold():
    target = AUDITS["exact-subspace"].target("r5-threshold")
    # The selection spends 0.95δ (δ/20 is kept for the representation): at the printed δ the pair
    # reaches just under ε = 1 (1 − 1.3e-7), never above it.
    assert 1.0 - 1e-6 < target.reachable_epsilon <= 1.0
    assert AUDITS["exact-subspace"].target("r5-edge").reachable_epsilon == 0.0
    assert AUDITS["control-subspace-half-bound"].target("r5-edge").reachable_epsilon == np.inf
    assert discrete_epsilon([0.5, 0.5], [0.25, 0.75], 0.0) == pytest.approx(np.log(2.0))


def test_reach_of_the_other_pairs():
    assert AUDITS["subsample-aggregate-subspace"].target().reachable_epsilon == pytest.approx(0.5, abs=1e-3)
    assert AUDITS["analyze-gauss"].target().reachable_epsilon == pytest.approx(1.0, abs=1e-6)
    # The uneven piles make the normalisers differ: more than the ε/2 of a symmetric pair.
    assert 1.5 < AUDITS["bingham-subspace"].target(epsilon=2.0).reachable_epsilon < 2.0


def test_settings_are_listed_with_their_labels():
    assert space_label("r5-edge") == "R^5, score gap at the edge of the noise"
    assert space_label("sphere") == "S²"
    for name in SUBSPACE_AUDITS + SUBSPACE_CONTROLS:
        assert AUDITS[name].control == name.startswith("control-")
        assert all(space_label(key) for key in AUDITS[name].spaces)


def test_search_basis_control_releases_the_moved_record():
    target = AUDITS["control-subspace-basis"].target("r5-threshold")
    first = threshold_pair(SearchBasisExactSubspace(k=2, epsilon=1.0, delta=DELTA), 30)[0]
    column = target.draw(0, 200, np.random.default_rng(0))[:, :, 0]
    shown = ~np.isnan(column[:, 0])
    np.testing.assert_allclose(np.abs(column[shown] @ first[0]), 1.0, atol=1e-12)


@pytest.mark.parametrize("name, space, samples", [
    ("exact-subspace", "r5-threshold", 40_000),
    ("exact-subspace", "r5-edge", 40_000),
    ("analyze-gauss", "r5", 10_000),
    pytest.param("bingham-subspace", "r5", 10_000, marks=pytest.mark.slow),
    pytest.param("subsample-aggregate-subspace", "r5", 1_000, marks=pytest.mark.slow),
])
def test_subspace_mechanism_stays_within_its_claim(name, space, samples):
    result = run_audit(AUDITS[name].target(space), samples=samples, rng=11)
    assert result.epsilon_lower <= min(result.epsilon, result.reachable_epsilon)
    assert not result.flagged


@pytest.mark.parametrize("name, space", [("control-subspace-basis", "r5-threshold"),
                                         ("control-subspace-half-bound", "r5-edge")])
def test_subspace_control_is_flagged(name, space):
    result = run_audit(AUDITS[name].target(space), samples=100_000, rng=12)
    assert result.flagged and result.epsilon_lower > result.epsilon


def test_threshold_pair_refuses_a_gap_no_pair_has():
    with pytest.raises(ValueError, match=r"gap must be between 2 and ell \+ floor\(2A\) - 1 = 54 .* got 55"):
        threshold_pair(ExactSubspace(k=2, epsilon=1.0, delta=DELTA), 55)


@pytest.mark.parametrize("name", ["exact-subspace", "control-subspace-half-bound"])
def test_a_tiny_epsilon_is_one_line_not_a_memory_error(name, capsys):
    """At ε → 0 the bound A tends to 1/δ: the pair needs millions of records and the search's skip budget as
    many, whose last level would allocate (budget + 1) × n numbers (found by the command-line fuzz test)."""
    try:
        status = audit_main([name, "--eps", "1.69e-46", "--samples", "400"])
    except SystemExit as stop:
        status = stop.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "skip budget" in err and "raise epsilon or delta" in err, err
