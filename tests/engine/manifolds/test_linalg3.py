"""Closed-form 3×3 linear algebra of SPD(3): ``_linalg`` eigen-decompositions against LAPACK and
the eigenvector-free log sums of ``_spd3`` against sums of LAPACK logarithms, on random, nearly
repeated, exactly repeated and ill-conditioned spectra."""

import numpy as np
import pytest

from engine.manifolds import SPD, _linalg, _spd3
from engine.manifolds.base import Manifold

EPS = np.finfo(float).eps


def _rotations(n, seed):
    q, r = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, 3, 3)))
    return q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :]


def _with_spectrum(spectrum, n, seed):
    q = _rotations(n, seed)
    return (q * np.asarray(spectrum, dtype=float)) @ np.swapaxes(q, -1, -2)


SPECTRA = {
    "distinct": (1.0, 2.0, 4.0),
    "pair nearly repeated": (1.0, 1.0 + 1e-9, 2.0),
    "upper pair nearly repeated": (1.0, 2.0, 2.0 + 1e-9),
    "all three within 1e-12": (1.0, 1.0 + 1e-12, 1.0 + 2e-12),
    "multiple of I": (3.0, 3.0, 3.0),
    "repeated pair": (1.0, 1.0, 2.0),
    "indefinite repeated": (-1.0, 1.0, 1.0),
    "condition 1e20": (1e-10, 1.0, 1e10),
    "singular repeated": (0.0, 1.0, 1.0),
    "huge scale": (1e200, 1.0, 1e-200),
    "tiny scale": (1e-200, 2e-200, 3e-200),
}


def _assert_decomposition(a, w, v, tol=20 * EPS):
    """LAPACK's guarantees: eigenvalues within tol·‖A‖, VᵀV = I and A = VΛVᵀ within tol·‖A‖."""
    scale = np.abs(a).max(axis=(-1, -2))
    w_ref = np.linalg.eigvalsh(a)
    assert np.all(np.abs(w - w_ref) <= tol * scale[..., None])
    assert np.all(np.diff(w, axis=-1) >= 0)
    np.testing.assert_allclose(np.swapaxes(v, -1, -2) @ v, np.broadcast_to(np.eye(3), v.shape), atol=tol)
    rebuilt = (v * w[..., None, :]) @ np.swapaxes(v, -1, -2)
    assert np.all(np.abs(rebuilt - a).max(axis=(-1, -2)) <= tol * scale)


@pytest.mark.parametrize("spectrum", [(0.5, 2.0, 7.0), (1.0, 1.0, 1.0), (1e-5, 1.0, 1e5), (1e-140, 2e-140, 5e-140)])
def test_cholesky_3x3_matches_lapack_and_inverts_its_factor(spectrum):
    x = _with_spectrum(spectrum, 500, seed=5)
    factor, inverse = _linalg.cholesky(x)
    # potrf's guarantee, a backward error L Lᵀ − X within a small multiple of eps·‖X‖; the same factor as
    # LAPACK's where X is well conditioned.
    scale = np.abs(x).max(axis=(-1, -2))[:, None, None]
    assert np.all(np.abs(factor @ np.swapaxes(factor, -1, -2) - x) <= 16 * EPS * scale)
    np.testing.assert_array_equal(np.triu(factor, 1), 0.0)
    if spectrum[-1] / spectrum[0] < 1e3:
        np.testing.assert_allclose(factor, np.linalg.cholesky(x), rtol=1e-13, atol=16 * EPS * np.sqrt(scale.max()))
    np.testing.assert_allclose(inverse @ factor, np.broadcast_to(np.eye(3), x.shape), atol=1e-9)


@pytest.mark.parametrize("name", SPECTRA)
def test_eigh_3x3_matches_lapack_on_hard_spectra(name):
    a = _with_spectrum(SPECTRA[name], 500, seed=len(name))
    w, v = _linalg.eigh(a)
    _assert_decomposition(a, w, v)
    np.testing.assert_array_equal(_linalg.eigvalsh(a), w)


def test_eigh_3x3_eigenvectors_match_lapack_for_separated_eigenvalues():
    a = _with_spectrum((0.5, 2.0, 7.0), 1000, seed=3)
    _, v = _linalg.eigh(a)
    _, v_ref = np.linalg.eigh(a)
    np.testing.assert_allclose(np.abs(np.sum(v * v_ref, axis=-2)), 1.0, atol=1e-13)


def test_eigh_3x3_batched_random_across_blocks():
    # More matrices than one block of the closed form, with two batch axes.
    g = np.random.default_rng(5).standard_normal((3, 2000, 3, 3))
    a = 0.5 * (g + np.swapaxes(g, -1, -2))
    w, v = _linalg.eigh(a)
    assert w.shape == (3, 2000, 3) and v.shape == (3, 2000, 3, 3)
    _assert_decomposition(a, w, v)


@pytest.mark.parametrize("diagonal", [(3.0, 3.0, 3.0), (2.0, 1.0, 3.0), (0.0, 0.0, 0.0), (1.0, -1.0, 1.0)])
def test_eigh_3x3_of_diagonal_matrices_is_exact(diagonal):
    w, v = _linalg.eigh(np.diag(diagonal))
    order = np.argsort(diagonal, kind="stable")
    np.testing.assert_array_equal(w, np.asarray(diagonal)[order])
    np.testing.assert_array_equal(v, np.eye(3)[:, order])


@pytest.mark.parametrize("name", ["distinct", "pair nearly repeated", "all three within 1e-12", "repeated pair"])
def test_pencil_eigvals_and_log_coefficients(name):
    x = _with_spectrum((0.5, 1.0, 3.0), 200, seed=1)
    root = _linalg.sqrtm(x)
    c = _with_spectrum(SPECTRA[name], 200, seed=2)
    y = root @ c @ root
    mu = np.stack(_spd3.pencil_eigvals(_spd3.entries(x), _spd3.entries(y)), axis=-1)
    # Near-repeated roots of the cubic are resolved to ~√eps only; the polynomial does not need more.
    np.testing.assert_allclose(mu, np.broadcast_to(SPECTRA[name], mu.shape), rtol=0, atol=1e-7)
    alpha0, alpha1, alpha2 = _spd3.log_coefficients(*np.moveaxis(mu, -1, 0))
    poly = alpha0[:, None, None] * np.eye(3) + alpha1[:, None, None] * c + alpha2[:, None, None] * (c @ c)
    w, v = np.linalg.eigh(c)
    expected = (v * np.log(w)[..., None, :]) @ np.swapaxes(v, -1, -2)
    np.testing.assert_allclose(poly, expected, atol=1e-12)


def test_weighted_log_sum_3x3_matches_lapack_logs():
    manifold = SPD(3)
    rng = np.random.default_rng(9)
    x = _with_spectrum((0.3, 1.0, 2.5), 4, seed=10)
    points = SPD(3).exp(np.repeat(x, 60, axis=0), 0.8 * _with_spectrum((-1.0, 0.2, 1.5), 240, seed=11))
    points = points.reshape(4, 60, 3, 3)
    points[0, 0] = x[0]                                                 # Log = 0 (all roots equal)
    points[1, 1] = _linalg.sqrtm(x[1]) @ _with_spectrum((1.0, 1.0 + 1e-10, 2.0), 1, 12)[0] @ _linalg.sqrtm(x[1])
    points[2, 2] = _linalg.sqrtm(x[2]) @ np.diag([1e-3, 1.0, 10.0]) @ _linalg.sqrtm(x[2])   # beyond MAX_SPREAD
    weights = rng.uniform(-0.5, 1.0, (4, 60))
    expected = np.zeros((4, 3, 3))
    for b in range(4):
        lam, vec = np.linalg.eigh(x[b])
        root, inv_root = (vec * np.sqrt(lam)) @ vec.T, (vec / np.sqrt(lam)) @ vec.T
        mu, rot = np.linalg.eigh(inv_root @ points[b] @ inv_root)
        logs = root @ (rot * np.log(mu)[:, None, :]) @ np.swapaxes(rot, -1, -2) @ root
        expected[b] = np.einsum("i,ijk->jk", weights[b], logs)
    np.testing.assert_allclose(manifold.weighted_log_sum(x, points, weights), expected, atol=1e-11)
    np.testing.assert_allclose(Manifold.weighted_log_sum(manifold, x, points, weights), expected, atol=1e-11)


def test_subnormal_and_huge_scales_stay_finite():
    """Hypothesis found it: 1/scale overflows for a subnormal scale, so the matrix is divided by its scale."""
    from engine.manifolds import _linalg

    base = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 0.5]])
    for scale in (2.225073858507203e-309, 1e-300, 1e300):
        w, v = _linalg.eigh(scale * base)
        assert np.all(np.isfinite(w)) and np.all(np.isfinite(v))
        np.testing.assert_allclose(w / scale, np.linalg.eigvalsh(base), rtol=1e-9)


def test_prepared_points_give_the_same_log_sums_and_index_like_the_array():
    manifold = SPD(3)
    x = _with_spectrum((0.3, 1.0, 2.5), 5, seed=13)
    points = manifold.exp(np.repeat(x, 40, axis=0), 0.7 * _with_spectrum((-1.0, 0.2, 1.5), 200, seed=14))
    points = points.reshape(5, 40, 3, 3)
    points[1, 3] = _linalg.sqrtm(x[1]) @ np.diag([1e-3, 1.0, 10.0]) @ _linalg.sqrtm(x[1])   # eigen path
    weights = np.random.default_rng(15).uniform(0.0, 1.0, (5, 40))
    prepared = manifold.log_sum_points(points)
    assert isinstance(prepared, _spd3.PencilPoints)
    raw = manifold.weighted_log_sum(x, points, weights)
    np.testing.assert_array_equal(manifold.weighted_log_sum(x, prepared, weights), raw)
    rows = np.array([4, 1])
    np.testing.assert_array_equal(manifold.weighted_log_sum(x[rows], prepared[rows], weights[rows]), raw[rows])
    np.testing.assert_allclose(prepared.det, np.linalg.det(points), rtol=1e-12)
    # Other spaces keep their array.
    assert SPD(2).log_sum_points(points[..., :2, :2]) is not None
    assert SPD(3, "log-euclidean").log_sum_points(points) is points
