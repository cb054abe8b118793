"""Algorithm 1's δ term is a bound: the neighbours' projectors differ by at most
b(D) + b(D′), and a release whose bound would spend more than δ/20 is refused in one line.

Thin data: points exactly in a 2-plane of R^5 whose second coordinate is ``ratio`` times the first;
D′ replaces record 0 by another point of the plane (the measurement of ``docs/subspaces.md``).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.data.subspace import subspace_points
from engine.mechanisms.subspace import ExactSubspace, RefusedRelease
from engine.mechanisms.subspace.fitted_subspace import fit_subspace
from engine.mechanisms.subspace.representation import BASIS_GRID, _exact_cells, _scaled_integers, delta_term

D, K, N = 5, 2, 59
RATIOS = (1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8)


def thin_pair(ratio, rng, *, noise=0.0):
    """(D, D′, U): N points of a random 2-plane scaled by ``ratio`` along its second axis, plus
    ``noise`` off it; D′ replaces record 0 by another such point."""
    plane = np.linalg.qr(rng.standard_normal((D, K)))[0]
    z = rng.standard_normal((N + 1, K)) * np.array([1.0, ratio])
    points = z @ plane.T + noise * rng.standard_normal((N + 1, D))
    first, second = points[:N], points[:N].copy()
    second[0] = points[N]
    return first, second, plane


def search_start(x):
    """The basis the search would start the fit from (any basis near the plane will do)."""
    return np.linalg.qr(x[:K].T)[0]


def projector(basis):
    """WWᵀ in extended precision (the released coordinates use W itself, exactly)."""
    basis = np.asarray(basis, dtype=np.longdouble)
    return basis @ basis.T


def distance(one, other) -> float:
    """‖P − P′‖₂ of two projectors, the difference taken before rounding to double."""
    return float(np.linalg.norm((one - other).astype(float), 2))


@pytest.mark.parametrize("ratio", RATIOS)
def test_the_neighbours_projectors_differ_by_less_than_the_bound(ratio):
    rng = np.random.default_rng(int(round(-np.log10(ratio))))
    for _ in range(8):
        first, second, _ = thin_pair(ratio, rng)
        one, other = fit_subspace(first, search_start(first)), fit_subspace(second, search_start(second))
        eta = distance(projector(one.basis), projector(other.basis))
        assert eta <= one.eta_bound + other.eta_bound


def test_the_bound_holds_for_points_only_near_the_plane():
    rng = np.random.default_rng(5)
    for noise in (1e-12, 1e-10, 1e-8, 1e-4):
        first, second, _ = thin_pair(1.0, rng, noise=noise)
        one, other = fit_subspace(first, search_start(first)), fit_subspace(second, search_start(second))
        eta = distance(projector(one.basis), projector(other.basis))
        assert noise / 100 < eta <= one.eta_bound + other.eta_bound


def test_the_bound_is_tight_enough_to_catch_the_old_one_step_fit():
    """Not vacuous: on spread points it is a few units of roundoff, and on thin points (1e-3) it is
    below the η the old fit QR(MᵀM B) in double actually had, so a fit that squared the condition
    number again would break the test above."""
    rng = np.random.default_rng(3)
    first, second, _ = thin_pair(1.0, rng)
    assert fit_subspace(first, search_start(first)).eta_bound < 1e-15
    worst_old, worst_bound = 0.0, 0.0
    for _ in range(8):
        first, second, _ = thin_pair(1e-3, rng)
        old = [np.linalg.qr(x.T @ (x @ search_start(x)))[0] for x in (first, second)]
        worst_old = max(worst_old, distance(projector(old[0]), projector(old[1])))
        worst_bound = max(worst_bound, sum(fit_subspace(x, search_start(x)).eta_bound for x in (first, second)))
    assert worst_bound < worst_old


def test_thin_points_are_refused_in_one_line_before_any_draw():
    first, _, _ = thin_pair(1e-5, np.random.default_rng(0))
    mech = ExactSubspace(k=K, epsilon=1.0, delta=1e-6)
    rng = np.random.default_rng(1)
    state = rng.bit_generator.state
    with pytest.raises(RefusedRelease, match=r"sigma_k/sigma_1 = .*> delta/20 = 5e-08; .*or raise delta") as err:
        mech.release(first, size=10, rng=rng)
    assert "\n" not in str(err.value) and isinstance(err.value, ValueError)
    assert rng.bit_generator.state == state


def test_noise_off_the_plane_is_refused():
    data = subspace_points(N, D, K, noise=1e-10, rng=4).data
    with pytest.raises(RefusedRelease, match=r"RMS distance [0-9.]+e-10"):
        ExactSubspace(k=K, epsilon=1.0, delta=1e-6).release(data, size=2, rng=0)


def test_spread_points_release_and_report_the_bounded_term():
    mech = ExactSubspace(k=K, epsilon=1.0, delta=1e-6)
    assert mech.min_samples == 59 and mech.selection_delta == pytest.approx(0.95e-6)
    release = mech.release(subspace_points(N, 1000, K, rng=2).data, size=5, rng=3)
    assert not release.bottom.any() and release.guarantee.delta == 1e-6
    assert release.diagnostics["delta_term"] <= mech.representation_delta / 10
    assert release.diagnostics["delta_term"] == delta_term(release.diagnostics["eta_bound"], 1000, K)


def test_thin_but_not_too_thin_neighbours_release_identical_bytes():
    first, second, _ = thin_pair(1e-2, np.random.default_rng(6))
    mech = ExactSubspace(k=K, epsilon=1.0, delta=1e-6)
    one, other = mech.release(first, size=500, rng=8), mech.release(second, size=500, rng=8)
    assert not one.bottom.any() and np.array_equal(one.points, other.points)


def test_the_exact_product_agrees_with_floating_point_off_the_cell_boundaries():
    rng = np.random.default_rng(7)
    basis = np.linalg.qr(rng.standard_normal((D, K)))[0]
    gauss, offset = rng.standard_normal((D, 2 * K)), rng.random((D, 2 * K)) * BASIS_GRID
    cells = _exact_cells(_scaled_integers(basis), gauss, offset, BASIS_GRID)
    assert np.array_equal(cells, np.floor((basis @ (basis.T @ gauss) - offset) / BASIS_GRID))
    wide = basis.astype(np.longdouble)
    assert np.array_equal(_exact_cells(_scaled_integers(wide), gauss, offset, BASIS_GRID), cells)


def test_the_bound_covers_a_zero_record_replaced_by_a_point_of_the_plane():
    """A zero record lies in every subspace and is dropped from the unit rows: C̄ is then all of D's rows."""
    rng = np.random.default_rng(9)
    for ratio in (1.0, 1e-2):
        first, second, _ = thin_pair(ratio, rng)
        first[0] = 0.0
        one, other = fit_subspace(first, search_start(first[1:])), fit_subspace(second, search_start(second))
        assert distance(projector(one.basis), projector(other.basis)) <= one.eta_bound + other.eta_bound < 1e-13
