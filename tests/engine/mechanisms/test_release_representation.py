"""A release is a function of the private statistic and public values: neighbouring data sets whose
statistic is the same release the same arrays under the same seed.

Two kinds of "same data" are checked for every mechanism that releases a point, on every space of the
registry where it runs: one record replaced by another representative of the same point (the space's
declared symmetry, ``Manifold.random_representative``: a rotated pre-shape on Kendall shapes, a basis
turned or negated on a Grassmannian) and the records permuted. Before the footpoints and releases were
written by the public reference (``engine.mechanisms.representative``), rotating a Kendall record by θ
turned every Riemannian Laplace release by θ, and negating a line flipped every released basis.

For the subspace mechanisms the records are vectors of R^d: replacing x by −x keeps the subspace, XᵀX and
every block's PCA; Algorithm 1's greedy search then starts from −x instead of x, which is how its old
basis release gave the record away.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import spaces
from engine.bounds import frechet_mean_sensitivity
from engine.data.regression import age_covariate, callosum_data, callosum_template, drift_truth, sphere_drift
from engine.data.subspace import subspace_points
from engine.estimators.riemannian_problems import FrechetMeanProblem, PrincipalEigenvector
from engine.manifolds import Kendall, Sphere
from engine.mechanisms import DPRGD, KNormGradient, specs
from engine.mechanisms.dp_geodesic_regression import PrivateGeodesicRegression
from engine.mechanisms.subspace import AnalyzeGauss, BinghamSubspace, ExactSubspace, SubsampleAggregateSubspace
from engine.mechanisms.subspace.fitted_subspace import fit_subspace
from engine.mechanisms.subspace.representation import BASIS_GRID, public_basis
from engine.pipelines.private_mean import PrivateMeanConfig, release_on
from engine.pipelines.private_mean import run as run_private_mean

#: Arrays released from the same statistic agree to this (floating-point differences of the footpoint only).
SAME = 1e-9
SPACE_KEYS = tuple(spaces.SPACES)
LANDMARKS = 5


def _same_bytes(a, b) -> bool:
    return np.array_equal(a, b, equal_nan=True)


def _same_points(one, other) -> bool:
    return bool(np.allclose(one, other, rtol=0.0, atol=SAME))


def _variants(manifold, data, rng):
    """D with record 0 replaced by another representative of itself, and D with its records permuted."""
    turned = data.copy()
    turned[0] = manifold.random_representative(data[0], rng)
    return {"record 0's representative": turned, "records permuted": data[rng.permutation(len(data))]}


def _sample(space: str, n: int = 12):
    """A data set of the space's default source within its default ball, its public centre, its manifold."""
    entry = spaces.SPACES[space]
    config = PrivateMeanConfig(space=space, source=next(iter(entry.data_sources)), n=n, k=LANDMARKS,
                               radius=entry.default_radius, mechanisms=(), outside="clip", seed=4)
    result = run_private_mean(config)
    return config, result.data, result.m0, spaces.make_manifold(space, LANDMARKS)


@pytest.mark.parametrize("space", SPACE_KEYS)
def test_the_declared_symmetry_keeps_the_point_and_the_public_representative(space):
    manifold = spaces.make_manifold(space, LANDMARKS)
    rng = np.random.default_rng(0)
    x = manifold.random_point(6, rng) if space != "hyperbolic" else manifold.exp(
        np.broadcast_to(manifold.origin, (6, *manifold.point_shape)),
        0.5 * manifold.random_unit_tangent(np.broadcast_to(manifold.origin, (6, *manifold.point_shape)), rng))
    other = manifold.random_representative(x, rng)
    reference = manifold.origin
    assert np.allclose(manifold.dist(x, other), 0.0, atol=1e-7)
    fixed = manifold.representative(x, reference)
    np.testing.assert_allclose(manifold.representative(other, reference), fixed, atol=1e-12)
    np.testing.assert_allclose(manifold.representative(fixed, reference), fixed, atol=1e-12)


@pytest.mark.parametrize("manifold", [Kendall(5), spaces.make_manifold("grassmann", 5)], ids=["kendall", "grassmann"])
def test_a_quotient_space_declares_a_symmetry_that_moves_the_array(manifold):
    """The checks below are only as strong as the symmetry: on a quotient it must change the representatives
    (a line's sign flips with probability 1/2)."""
    x = manifold.random_point(200, np.random.default_rng(1))
    moved = np.linalg.norm(manifold.random_representative(x, np.random.default_rng(2)) - x, axis=(-2, -1))
    assert np.mean(moved > 1e-3) > 0.4


_MEAN_CASES = [(space, spec.key) for space in SPACE_KEYS for spec in specs.PLAYGROUND
               if spec.offered_on(spaces.SPACES[space])]


@pytest.mark.parametrize("space, key", _MEAN_CASES)
def test_every_private_mean_release_ignores_representatives_and_order(space, key):
    config, data, m0, manifold = _sample(space)
    config = PrivateMeanConfig(space=space, source=config.source, n=config.n, k=LANDMARKS, radius=config.radius,
                               mechanisms=(key,), releases=40, burn_in=200, thin=5, epsilon=2.0)
    _, release = release_on(key, config, data, m0, rng=7)
    for name, variant in _variants(manifold, data, np.random.default_rng(3)).items():
        _, other = release_on(key, config, variant, m0, rng=7)
        assert _same_points(release.points, other.points), f"{key} on {space}: {name} changed the release"


@pytest.mark.parametrize("space", SPACE_KEYS)
def test_the_k_norm_gradient_release_ignores_representatives_and_order(space):
    config, data, m0, manifold = _sample(space)
    mech = KNormGradient(manifold=manifold, epsilon=2.0, ball_center=m0, ball_radius=config.radius,
                         sensitivity=frechet_mean_sensitivity(len(data), config.radius, manifold.kappa_max))
    release = mech.release(data, size=20, rng=5, burn_in=200, thin=5)
    for name, variant in _variants(manifold, data, np.random.default_rng(3)).items():
        other = mech.release(variant, size=20, rng=5, burn_in=200, thin=5)
        assert _same_points(release.points, other.points), f"KNG on {space}: {name} changed the release"


@pytest.mark.parametrize("space", SPACE_KEYS)
def test_dp_rgd_ignores_representatives_and_order(space):
    _, data, m0, manifold = _sample(space)
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=15, step_size=0.2, n=len(data))
    release = mech.fit(FrechetMeanProblem(manifold, data), m0, rng=9)
    for name, variant in _variants(manifold, data, np.random.default_rng(3)).items():
        other = mech.fit(FrechetMeanProblem(manifold, variant), m0, rng=9)
        assert _same_points(release.points, other.points), f"DP-RGD on {space}: {name} changed the release"


def test_dp_rgd_on_the_principal_eigenvector_ignores_a_record_negated_and_the_order():
    z = np.random.default_rng(0).standard_normal((40, 4)) * np.array([2.0, 1.0, 0.5, 0.2])
    z /= np.linalg.norm(z, axis=1).max()
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=2.0, steps=10, step_size=0.5, n=40)
    init = Sphere(3).origin
    release = mech.fit(PrincipalEigenvector(z), init, rng=4)
    negated = z.copy()
    negated[0] = -negated[0]
    for variant in (negated, z[np.random.default_rng(1).permutation(40)]):
        other = mech.fit(PrincipalEigenvector(variant), init, rng=4)
        assert np.allclose(release.points, other.points, rtol=0.0, atol=SAME)


def _regression_data(name: str):
    rng = np.random.default_rng(2)
    if name == "callosum":
        ages, y = callosum_data(12, k=LANDMARKS, noise=0.003, rng=rng)
        return Kendall(LANDMARKS), age_covariate(ages), y, callosum_template(70.0, k=LANDMARKS), np.pi / 16, 0.05
    t, y = sphere_drift(12, noise=0.03, speed=0.2, rng=rng)
    return Sphere(2), t, y, drift_truth()[0], np.pi / 8, 0.3


@pytest.mark.parametrize("name", ["callosum", "drift"])
def test_the_private_geodesic_regression_ignores_representatives_and_order(name):
    manifold, x, y, centre, radius, tau = _regression_data(name)
    mech = PrivateGeodesicRegression(manifold=manifold, n=len(x), epsilon_p=1.0, epsilon_v=1.0, tau=tau,
                                     ball_center=centre, ball_radius=radius)
    settings = dict(size=2, warmup=60, velocity_warmup=30, velocity_draws=10, diagnostics=False)
    release = mech.release(x, y, rng=6, **settings)
    rng = np.random.default_rng(3)
    turned = y.copy()
    turned[0] = manifold.random_representative(y[0], rng)
    order = rng.permutation(len(x))
    for label, (xs, ys) in {"record 0's representative": (x, turned), "records permuted": (x[order], y[order])}.items():
        other = mech.release(xs, ys, rng=6, **settings)
        assert _same_points(release.points, other.points), f"{name}: {label} changed the footpoint"
        assert np.allclose(release.velocity, other.velocity, rtol=0.0, atol=SAME), f"{name}: {label} changed v"


SUBSPACE_MECHANISMS = {
    "exact": (lambda: ExactSubspace(k=2, epsilon=1.0, delta=1e-6), dict(n=59, d=5)),
    "approx": (lambda: SubsampleAggregateSubspace(k=2, epsilon=1.0, delta=1e-6, gamma=1e-6), dict(n=1400, d=5)),
    "analyze-gauss": (lambda: AnalyzeGauss(k=2, epsilon=1.0, delta=1e-6, clip_norm=3.0), dict(n=200, d=5)),
    "bingham": (lambda: BinghamSubspace(k=2, epsilon=1.0, clip_norm=3.0), dict(n=200, d=5)),
}


@pytest.mark.parametrize("name", SUBSPACE_MECHANISMS)
def test_a_record_replaced_by_its_negative_releases_the_same_bytes(name):
    make, size = SUBSPACE_MECHANISMS[name]
    sample = subspace_points(size["n"], size["d"], 2, noise=1e-6 if name == "approx" else 0.0, rng=3)
    first = sample.data
    second = first.copy()
    second[0] = -second[0]
    mech = make()
    one, other = mech.release(first, size=20, rng=11), mech.release(second, size=20, rng=11)
    assert _same_bytes(one.bottom, other.bottom) and one.bottom.mean() < 1
    assert _same_bytes(one.points, other.points)


@pytest.mark.parametrize("name", ["exact", "analyze-gauss", "bingham"])
def test_a_subspace_release_ignores_the_order_of_the_records(name):
    """Algorithm 2 is left out: it splits the records into blocks by their order, so the order changes which
    blocks agree (the law of its release, not a record's representative). The noisy data give A = XᵀX distinct
    eigenvalues: within a repeated one any eigenbasis is LAPACK's choice (the Bingham law is the same)."""
    make, size = SUBSPACE_MECHANISMS[name]
    first = subspace_points(size["n"], size["d"], 2, noise=0.0 if name == "exact" else 0.05, rng=3).data
    mech = make()
    one = mech.release(first, size=20, rng=11)
    other = mech.release(first[np.random.default_rng(0).permutation(len(first))], size=20, rng=11)
    assert _same_bytes(one.bottom, other.bottom) and one.bottom.mean() < 1
    assert np.allclose(one.points, other.points, rtol=0.0, atol=SAME, equal_nan=True)


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
