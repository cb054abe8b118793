"""A release is a function of the private statistic and public values: neighbouring data sets whose
statistic is the same release the same bytes under the same seed (issue 29).

Replacing a record x by −x keeps the subspace, XᵀX and every block's PCA, so it leaves the statistic of
every subspace mechanism unchanged; Algorithm 1's greedy search then starts from −x instead of x, which
is how its old basis release gave the record away.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.data.subspace import subspace_points
from engine.mechanisms.subspace import AnalyzeGauss, BinghamSubspace, ExactSubspace, SubsampleAggregateSubspace
from engine.mechanisms.subspace.fitted_subspace import fit_subspace
from engine.mechanisms.subspace.representation import BASIS_GRID, public_basis

MECHANISMS = {
    "exact": (lambda: ExactSubspace(k=2, epsilon=1.0, delta=1e-6), dict(n=59, d=5)),
    "approx": (lambda: SubsampleAggregateSubspace(k=2, epsilon=1.0, delta=1e-6, gamma=1e-6), dict(n=1400, d=5)),
    "analyze-gauss": (lambda: AnalyzeGauss(k=2, epsilon=1.0, delta=1e-6, clip_norm=3.0), dict(n=200, d=5)),
    "bingham": (lambda: BinghamSubspace(k=2, epsilon=1.0, clip_norm=3.0), dict(n=200, d=5)),
}


def _same_bytes(a, b) -> bool:
    return np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("name", MECHANISMS)
def test_a_record_replaced_by_its_negative_releases_the_same_bytes(name):
    make, size = MECHANISMS[name]
    sample = subspace_points(size["n"], size["d"], 2, noise=1e-6 if name == "approx" else 0.0, rng=3)
    first = sample.data
    second = first.copy()
    second[0] = -second[0]
    mech = make()
    one, other = mech.release(first, size=20, rng=11), mech.release(second, size=20, rng=11)
    assert _same_bytes(one.bottom, other.bottom) and one.bottom.mean() < 1
    assert _same_bytes(one.points, other.points)


def test_exact_subspace_on_the_reviewed_pair_names_no_record():
    """The review's pair: 59 points of a 2-plane of R^5; D' replaces record 0 by another point of the plane.
    The old release had column 0 = ±x0/‖x0‖ in 2,000 of 2,000 releases on D and 0 on D'."""
    rng = np.random.default_rng(1)
    sample = subspace_points(59, 5, 2, rng=rng)
    first = sample.data
    second = first.copy()
    second[0] = sample.subspace @ rng.standard_normal(2)
    mech = ExactSubspace(k=2, epsilon=1.0, delta=1e-6)
    one, other = mech.release(first, size=2000, rng=2), mech.release(second, size=2000, rng=2)
    assert not one.bottom.any() and _same_bytes(one.points, other.points)
    record = first[0] / np.linalg.norm(first[0])
    alignment = np.abs(one.points[:, :, 0] @ record)
    assert (alignment > 1 - 1e-9).sum() == 0


def test_the_public_basis_depends_on_the_span_only():
    """Two bases of one subspace (rotated within it) give identical bytes under the same seed; the
    release spans the subspace up to the grid: ‖Π̂ − Π‖ <= g√(2dk)/σ_k(Y) with σ_k(Y) well above 0.1 here."""
    basis = np.linalg.qr(np.random.default_rng(0).standard_normal((7, 3)))[0]
    turn = np.linalg.qr(np.random.default_rng(1).standard_normal((3, 3)))[0]
    one = public_basis(basis, 50, np.random.default_rng(5))
    other = public_basis(basis @ turn, 50, np.random.default_rng(5))
    assert _same_bytes(one, other)
    projector = basis @ basis.T
    errors = np.linalg.norm(one @ np.swapaxes(one, -1, -2) - projector, ord=2, axis=(-2, -1))
    assert errors.max() <= BASIS_GRID * np.sqrt(2 * 7 * 3) / 0.1
    assert np.allclose(np.swapaxes(one, -1, -2) @ one, np.eye(3), atol=1e-12)


def test_the_fitted_subspace_spans_the_members_whatever_basis_it_starts_from():
    sample = subspace_points(40, 6, 2, rng=2)
    start = np.linalg.qr(sample.data[:2].T)[0]
    other = np.linalg.qr(sample.data[5:7].T)[0]
    fitted, refitted = (fit_subspace(sample.data, s).basis.astype(float) for s in (start, other))
    assert np.allclose(fitted @ fitted.T, sample.subspace @ sample.subspace.T, atol=1e-14)
    assert np.allclose(fitted @ fitted.T, refitted @ refitted.T, atol=1e-15)
