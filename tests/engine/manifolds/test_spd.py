"""SPD(k) under the affine-invariant, log-Euclidean and Bures–Wasserstein metrics: closed forms,
independent scipy/pyriemann computations, numerical robustness and argument checks.

The generic contract (round trips, orthonormal bases, transport isometry, ...) is in
test_contract.py; these tests pin the values.
"""

import numpy as np
import pytest
import scipy.linalg as sla
from pyriemann.geometry.distance import distance_riemann

from engine.manifolds import _linalg
from engine.manifolds._linalg import sym
from engine.manifolds.spd import SPD, is_positive_definite
from engine.manifolds.spd.definiteness import _clearly_positive_definite_3x3, _eigenvalue_test

METRICS = ("affine", "log-euclidean", "bures-wasserstein")


def _random_spd(k, n, seed, spread=1.0):
    """SPD matrices Q diag(exp(spread·g)) Qᵀ built without the code under test."""
    rng = np.random.default_rng(seed)
    q, r = np.linalg.qr(rng.standard_normal((n, k, k)))
    q = q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :]
    w = np.exp(spread * rng.standard_normal((n, k)))
    return (q * w[..., None, :]) @ np.swapaxes(q, -1, -2)


def _random_sym(k, n, seed, scale=1.0):
    g = scale * np.random.default_rng(seed).standard_normal((n, k, k))
    return 0.5 * (g + np.swapaxes(g, -1, -2))


def _spd_with_spectrum(eigenvalues, seed):
    """Q diag(eigenvalues) Qᵀ for a random rotation Q (spectrum fixed exactly up to rounding)."""
    k = len(eigenvalues)
    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((k, k)))
    return (q * np.asarray(eigenvalues)) @ q.T


# ----- closed forms --------------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, 3])
def test_affine_distance_identity_to_diag_is_one(k):
    manifold = SPD(k)
    y = np.diag([1.0] * (k - 1) + [np.e])
    np.testing.assert_allclose(manifold.dist(np.eye(k), y), 1.0, rtol=1e-14)
    # Distances of commuting matrices: ‖log(λ_y/λ_x)‖ with λ from the shared eigenbasis.
    x = np.diag(np.arange(1.0, k + 1))
    y = np.diag(np.arange(1.0, k + 1) ** 2 * 3.0)
    expected = np.linalg.norm(np.log(np.arange(1.0, k + 1) * 3.0))
    np.testing.assert_allclose(manifold.dist(x, y), expected, rtol=1e-13)


@pytest.mark.parametrize("k", [2, 3])
def test_affine_distance_is_congruence_invariant(k):
    manifold = SPD(k)
    x, y = _random_spd(k, 5, 1), _random_spd(k, 5, 2)
    a = np.random.default_rng(3).standard_normal((5, k, k)) + 2.0 * np.eye(k)
    ax = a @ x @ np.swapaxes(a, -1, -2)
    ay = a @ y @ np.swapaxes(a, -1, -2)
    np.testing.assert_allclose(manifold.dist(ax, ay), manifold.dist(x, y), rtol=1e-10)
    # Inversion is an isometry too.
    inv_x, inv_y = np.linalg.inv(x), np.linalg.inv(y)
    np.testing.assert_allclose(manifold.dist(inv_x, inv_y), manifold.dist(x, y), rtol=1e-10)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_affine_distance_matches_pyriemann(k):
    x, y = _random_spd(k, 6, 4, spread=1.5), _random_spd(k, 6, 5, spread=1.5)
    expected = [distance_riemann(xi, yi) for xi, yi in zip(x, y)]
    np.testing.assert_allclose(SPD(k).dist(x, y), expected, rtol=1e-10)


@pytest.mark.parametrize("k", [2, 3])
def test_affine_log_exp_transport_match_scipy_formulas(k):
    manifold = SPD(k)
    x, y = _random_spd(k, 4, 6), _random_spd(k, 4, 7)
    v = _random_sym(k, 4, 8)
    for i in range(4):
        root = sla.sqrtm(x[i]).real
        inv_root = np.linalg.inv(root)
        log_ref = root @ sla.logm(inv_root @ y[i] @ inv_root).real @ root
        exp_ref = root @ sla.expm(inv_root @ v[i] @ inv_root) @ root
        e = sla.sqrtm(y[i] @ np.linalg.inv(x[i])).real
        np.testing.assert_allclose(manifold.log(x[i], y[i]), log_ref, atol=1e-10)
        np.testing.assert_allclose(manifold.exp(x[i], v[i]), exp_ref, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(manifold.parallel_transport(x[i], y[i], v[i]), e @ v[i] @ e.T, atol=1e-10)
        inner_ref = np.trace(np.linalg.inv(x[i]) @ v[i] @ np.linalg.inv(x[i]) @ y[i])
        np.testing.assert_allclose(manifold.inner(x[i], v[i], y[i]), inner_ref, rtol=1e-10)


def test_affine_2x2_closed_form_resolves_close_pencil_eigenvalues():
    # Y = X^{1/2} R diag(1+ε, 1+2ε) Rᵀ X^{1/2}: the distance is ‖(log(1+ε), log(1+2ε))‖ ≈ 2.2e-8.
    # Computing the eigenvalue gap as √(m² − det) would leave only ~8 correct digits of it.
    manifold = SPD(2)
    x = _random_spd(2, 1, 9)[0]
    root = sla.sqrtm(x).real
    eps = 1e-8
    inner = _spd_with_spectrum([1.0 + eps, 1.0 + 2.0 * eps], 10)
    y = root @ inner @ root
    expected = np.hypot(np.log1p(eps), np.log1p(2.0 * eps))
    np.testing.assert_allclose(manifold.dist(x, y), expected, rtol=1e-5)
    np.testing.assert_allclose(manifold.norm(x, manifold.log(x, y)), expected, rtol=1e-5)


@pytest.mark.parametrize("k", [2, 3])
def test_affine_2x2_path_agrees_with_eigen_path_on_wide_spectra(k):
    # Pairs far apart (pencil eigenvalues spread over e^{±6}) through exp/log/dist.
    manifold = SPD(k)
    x, y = _random_spd(k, 20, 11, spread=2.0), _random_spd(k, 20, 12, spread=2.0)
    v = manifold.log(x, y)
    np.testing.assert_allclose(manifold.exp(x, v), y, rtol=1e-9, atol=1e-9 * np.abs(y).max())
    np.testing.assert_allclose(manifold.dist(x, y), manifold.norm(x, v), rtol=1e-10)
    expected = [distance_riemann(xi, yi) for xi, yi in zip(x, y)]
    np.testing.assert_allclose(manifold.dist(x, y), expected, rtol=1e-9)


def test_affine_2x2_weighted_log_sum_matches_explicit_sum():
    manifold = SPD(2)
    x, points = _random_spd(2, 3, 40, spread=1.5), _random_spd(2, 150, 41, spread=1.5).reshape(3, 50, 2, 2)
    w = np.random.default_rng(42).uniform(-0.5, 1.0, size=(3, 50))
    expected = np.zeros((3, 2, 2))
    for b in range(3):
        # X^{1/2} logm(X^{-1/2} P X^{-1/2}) X^{1/2} through LAPACK eigen-decompositions.
        lam, vec = np.linalg.eigh(x[b])
        root, inv_root = (vec * np.sqrt(lam)) @ vec.T, (vec / np.sqrt(lam)) @ vec.T
        mu, rot = np.linalg.eigh(inv_root @ points[b] @ inv_root)
        logs = root @ (rot * np.log(mu)[:, None, :]) @ np.swapaxes(rot, -1, -2) @ root
        expected[b] = np.einsum("i,ijk->jk", w[b], logs)
    np.testing.assert_allclose(manifold.weighted_log_sum(x, points, w), expected, atol=1e-9)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("spread", [0.3, 3.0])
def test_affine_norm_by_cholesky_matches_the_symmetric_whitening(k, spread):
    # ‖V‖_X = ‖X^{-1/2} V X^{-1/2}‖_F with scipy's matrix square root, independent of the code under test;
    # spread 3 gives condition numbers up to about 1e7, and V is indefinite.
    x, v = _random_spd(k, 200, 40, spread), _random_sym(k, 200, 41)
    root = np.stack([sla.inv(np.real(sla.sqrtm(xi))) for xi in x])
    expected = np.linalg.norm(root @ v @ root, axis=(-1, -2))
    manifold = SPD(k)
    np.testing.assert_allclose(manifold.norm(x, v), expected, rtol=1e-8)
    np.testing.assert_allclose(manifold.norm(x, v), np.sqrt(manifold.inner(x, v, v)), rtol=1e-8)
    np.testing.assert_array_equal(manifold.norm(x, 0.0 * v), 0.0)


@pytest.mark.parametrize("k", [2, 3])
def test_bures_wasserstein_distance_is_gaussian_w2(k):
    manifold = SPD(k, metric="bures-wasserstein")
    x, y = _random_spd(k, 5, 13), _random_spd(k, 5, 14)
    for i in range(5):
        root = sla.sqrtm(x[i]).real
        w2 = np.trace(x[i]) + np.trace(y[i]) - 2.0 * np.trace(sla.sqrtm(root @ y[i] @ root).real)
        np.testing.assert_allclose(manifold.dist(x[i], y[i]), np.sqrt(w2), rtol=1e-9)


def _bures_wasserstein_reference(x, y, digits=40):
    """W₂ = (tr X + tr Y − 2 tr (X^{1/2} Y X^{1/2})^{1/2})^{1/2} at ``digits`` decimal digits (mpmath):
    the cancelling textbook form, harmless at that precision."""
    import mpmath as mp

    mp.mp.dps = digits
    x, y = mp.matrix(x.tolist()), mp.matrix(y.tolist())
    root = mp.sqrtm(x)
    cross = mp.sqrtm(root * y * root)
    trace = sum(x[i, i] + y[i, i] - 2 * cross[i, i] for i in range(x.rows))
    return float(mp.sqrt(mp.re(trace)))


@pytest.mark.parametrize("step", [1e-6, 1e-8])
@pytest.mark.parametrize("k", [2, 3])
def test_bures_wasserstein_distance_of_nearby_points_matches_a_40_digit_reference(k, step):
    """The trace form returned 0 for the true 6.14e−9 one step of 1e−8 away."""
    manifold = SPD(k, metric="bures-wasserstein")
    x = np.array([[2.0, 0.3], [0.3, 1.0]]) if k == 2 else _random_spd(3, 1, 21)[0]
    direction = np.diag(np.resize([1.0, -1.0], k))
    y = x + step * direction
    expected = _bures_wasserstein_reference(x, y)
    np.testing.assert_allclose(manifold.dist(x, y), expected, rtol=1e-6)
    np.testing.assert_allclose(manifold.norm(x, manifold.log(x, y)), expected, rtol=1e-6)
    if k == 2 and step == 1e-8:
        assert expected == pytest.approx(6.14e-9, rel=1e-3)


def test_bures_wasserstein_frechet_mean_reaches_the_first_order_condition():
    """With an accurate distance between iterates the mean stops at |grad| <= 1e−9 for tol = 1e−10
    (the trace form stopped at 1.5e−8 … 1.7e−7 and still said converged)."""
    from engine.estimators import frechet_mean

    manifold = SPD(3, metric="bures-wasserstein")
    rng = np.random.default_rng(4)
    points = np.stack([manifold.exp(np.eye(3), 0.1 * manifold.from_coordinates(np.eye(3), rng.standard_normal(6)))
                       for _ in range(30)])
    result = frechet_mean(manifold, np.stack([points, 1.01 * points[::-1]]), tol=1e-10, max_iter=2000)
    assert np.all(result.converged)
    assert np.all(result.gradient_norm <= 1e-9)


@pytest.mark.parametrize("k", [2, 3])
def test_bures_wasserstein_log_exp_inner_match_scipy_formulas(k):
    manifold = SPD(k, metric="bures-wasserstein")
    x, y = _random_spd(k, 4, 15), _random_spd(k, 4, 16)
    for i in range(4):
        xy_root = sla.sqrtm(x[i] @ y[i]).real
        log_ref = xy_root + xy_root.T - 2.0 * x[i]
        np.testing.assert_allclose(manifold.log(x[i], y[i]), log_ref, atol=1e-9)
        v = 0.3 * log_ref
        lyap = sla.solve_continuous_lyapunov(x[i], v)  # X L + L X = V
        np.testing.assert_allclose(manifold.exp(x[i], v), x[i] + v + lyap @ x[i] @ lyap, atol=1e-10)
        u = _random_sym(k, 1, 17 + i)[0]
        np.testing.assert_allclose(manifold.inner(x[i], v, u), 0.5 * np.trace(lyap @ u), rtol=1e-10)


@pytest.mark.parametrize("k", [2, 3])
def test_log_euclidean_matches_scipy_logm_and_frechet_derivative(k):
    manifold = SPD(k, metric="log-euclidean")
    x, y = _random_spd(k, 4, 21), _random_spd(k, 4, 22)
    a, b = _random_sym(k, 4, 23), _random_sym(k, 4, 24)
    for i in range(4):
        log_x, log_y = sla.logm(x[i]).real, sla.logm(y[i]).real
        np.testing.assert_allclose(manifold.dist(x[i], y[i]), np.linalg.norm(log_x - log_y), rtol=1e-10)
        # The metric is the pullback of Frobenius by logm: D expm_{log X} maps (Sym, F) isometrically.
        log_ref = sla.expm_frechet(log_x, log_y - log_x)[1]
        np.testing.assert_allclose(manifold.log(x[i], y[i]), log_ref, atol=1e-10)
        u = sla.expm_frechet(log_x, a[i])[1]
        w = sla.expm_frechet(log_x, b[i])[1]
        np.testing.assert_allclose(manifold.inner(x[i], u, w), np.sum(a[i] * b[i]), rtol=1e-9)
        np.testing.assert_allclose(manifold.exp(x[i], u), sla.expm(log_x + a[i]), rtol=1e-10)
        moved = sla.expm_frechet(log_y, a[i])[1]
        np.testing.assert_allclose(manifold.parallel_transport(x[i], y[i], u), moved, atol=1e-10)


def test_log_euclidean_handles_repeated_eigenvalues():
    # Divided differences at equal eigenvalues fall back to the derivative: D expm_{cI}[B] = e^c B.
    manifold = SPD(3, metric="log-euclidean")
    x = 2.0 * np.eye(3)
    b = _random_sym(3, 1, 25)[0]
    np.testing.assert_allclose(manifold.inner(x, b, b), np.sum(b * b) / 4.0, rtol=1e-12)
    np.testing.assert_allclose(manifold.exp(x, b), sla.expm(np.log(2.0) * np.eye(3) + b / 2.0), rtol=1e-12)


def test_geodesic_midpoint_of_commuting_matrices():
    # Affine and log-Euclidean midpoints of commuting X, Y are the geometric mean (XY)^{1/2};
    # the Bures–Wasserstein midpoint is ((X^{1/2} + Y^{1/2})/2)².
    x, y = np.eye(2), np.diag([4.0, 9.0])
    midpoints = {"affine": [2.0, 3.0], "log-euclidean": [2.0, 3.0], "bures-wasserstein": [2.25, 4.0]}
    for metric, mid in midpoints.items():
        manifold = SPD(2, metric=metric)
        np.testing.assert_allclose(manifold.exp(x, 0.5 * manifold.log(x, y)), np.diag(mid), atol=1e-13)


# ----- the 2×2 closed-form linear algebra ------------------------------------------------------
@pytest.mark.parametrize(
    "a",
    [
        np.array([[2.0, 0.3], [0.3, 1.0]]),
        np.array([[1.0, 0.0], [0.0, 1.0]]),
        np.array([[3.0, 0.0], [0.0, 3.0]]),
        np.array([[1.0, 0.0], [0.0, 5.0]]),
        np.array([[5.0, 0.0], [0.0, 1.0]]),
        np.array([[1.0, 1e-9], [1e-9, 1.0]]),
        np.array([[-2.0, 4.0], [4.0, 0.5]]),
    ],
)
def test_eigh_2x2_matches_lapack(a):
    w, v = _linalg.eigh(a)
    w_ref, v_ref = np.linalg.eigh(a)
    np.testing.assert_allclose(w, w_ref, atol=1e-14 * max(1.0, np.abs(w_ref).max()))
    np.testing.assert_allclose(_linalg.eigvalsh(a), w_ref, atol=1e-14 * max(1.0, np.abs(w_ref).max()))
    np.testing.assert_allclose(v.T @ v, np.eye(2), atol=1e-14)
    np.testing.assert_allclose((v * w) @ v.T, a, atol=1e-14 * np.abs(a).max())
    if w_ref[1] - w_ref[0] > 1e-6:
        # Distinct eigenvalues: the same eigenvectors up to sign.
        np.testing.assert_allclose(np.abs(np.sum(v * v_ref, axis=0)), 1.0, atol=1e-12)


def test_eigh_2x2_small_eigenvalue_is_relatively_accurate():
    # m − hypot(...) would cancel to a relative error of ~3e-5 for the 1e-12 eigenvalue.
    a = np.array([[[1e-12, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1e-12]], [[-1e-12, 0.0], [0.0, -1.0]]])
    expected = np.array([[1e-12, 1.0], [1e-12, 1.0], [-1.0, -1e-12]])
    np.testing.assert_allclose(_linalg.eigh(a)[0], expected, rtol=1e-14)
    np.testing.assert_allclose(_linalg.eigvalsh(a), expected, rtol=1e-14)


def test_eigh_2x2_batched_random():
    a = _random_sym(2, 1000, 26, scale=3.0)
    w, v = _linalg.eigh(a)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), atol=1e-13)
    np.testing.assert_allclose(_linalg.eigvalsh(a), np.linalg.eigvalsh(a), atol=1e-13)
    np.testing.assert_allclose((v * w[..., None, :]) @ np.swapaxes(v, -1, -2), a, atol=1e-13)


# ----- membership, projection, coordinates ------------------------------------------------------
def test_belongs_and_is_positive_definite():
    manifold = SPD(2)
    cases = {
        "identity": (np.eye(2), True, True),
        "near singular": (np.diag([1.0, 1e-10]), True, True),
        "negative": (np.diag([1.0, -1e-3]), False, False),
        "singular": (np.diag([1.0, 0.0]), False, False),
        "zero": (np.zeros((2, 2)), False, False),
        "non-symmetric, PD part": (np.array([[1.0, 0.5], [-0.5, 1.0]]), False, True),
        "nan": (np.array([[1.0, np.nan], [np.nan, 1.0]]), False, False),
    }
    for name, (x, member, pd) in cases.items():
        assert bool(manifold.belongs(x)) is member, name
        assert bool(is_positive_definite(x)) is pd, name
    batch = np.stack([c[0] for c in cases.values()]).reshape(7, 1, 2, 2)
    assert manifold.belongs(batch).shape == (7, 1)
    with pytest.raises(ValueError, match=r"\(2, 3\)"):
        is_positive_definite(np.zeros((2, 3)))


def test_projection_clips_eigenvalues_and_fixes_points():
    manifold = SPD(3)
    x = np.diag([2.0, -1.0, 0.5])
    p = manifold.projection(x)
    np.testing.assert_allclose(p, np.diag([2.0, 2e-12, 0.5]), atol=1e-15)
    assert manifold.belongs(p)
    asym = np.array([[1.0, 0.2, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_allclose(manifold.projection(asym), 0.5 * (asym + asym.T), atol=1e-15)
    assert manifold.belongs(manifold.projection(np.zeros((3, 3))))


def test_to_tangent_symmetrises_and_broadcasts():
    manifold = SPD(2)
    x = manifold.random_point(3, 0)
    v = np.array([[0.0, 1.0], [0.0, 0.0]])
    out = manifold.to_tangent(x, v)
    assert out.shape == (3, 2, 2)
    np.testing.assert_allclose(out, np.broadcast_to([[0.0, 0.5], [0.5, 0.0]], (3, 2, 2)))


def test_ambient_coordinates_are_frobenius_isometric():
    manifold = SPD(3)
    x = manifold.random_point(5, 27)
    a = manifold.to_ambient(x)
    assert a.shape == (5, 6)
    np.testing.assert_allclose(np.linalg.norm(a, axis=-1), np.linalg.norm(x, axis=(-1, -2)), rtol=1e-14)
    np.testing.assert_allclose(a[0, [0, 3, 5]], np.diagonal(x[0]))
    np.testing.assert_allclose(a[0, 1], np.sqrt(2.0) * x[0, 0, 1])
    # From arbitrary coordinates: symmetric, possibly not positive definite.
    b = manifold.from_ambient(np.array([1.0, 0.0, 0.0, -1.0, 0.0, 1.0]))
    np.testing.assert_allclose(b, np.diag([1.0, -1.0, 1.0]))
    assert not is_positive_definite(b)
    with pytest.raises(ValueError, match=r"trailing size 6.*\(5,\)"):
        manifold.from_ambient(np.zeros(5))


@pytest.mark.parametrize("metric", METRICS)
def test_tangent_basis_at_identity_is_the_coordinate_basis(metric):
    # At I every metric is a multiple of Frobenius on Sym(k): affine and log-Euclidean exactly
    # Frobenius, Bures–Wasserstein ¼·Frobenius (L_I(U) = U/2), so the basis is 2·B_a there.
    manifold = SPD(3, metric=metric)
    basis = manifold.tangent_basis(np.eye(3))
    factor = 2.0 if metric == "bures-wasserstein" else 1.0
    np.testing.assert_allclose(manifold.to_ambient(basis), factor * np.eye(6), atol=1e-14)


@pytest.mark.parametrize("metric", METRICS)
def test_batched_inner_basis_and_transport_equal_loop(metric):
    manifold = SPD(3, metric=metric)
    x, y = manifold.random_point(3, 28), manifold.random_point(3, 29)
    u, w = _random_sym(3, 3, 30), _random_sym(3, 3, 31)
    basis = manifold.tangent_basis(x)
    inner = manifold.inner(x, u, w)
    for i in range(3):
        np.testing.assert_allclose(manifold.inner(x[i], u[i], w[i]), inner[i], rtol=1e-12)
        np.testing.assert_allclose(manifold.tangent_basis(x[i]), basis[i], atol=1e-12)
    if metric != "bures-wasserstein":
        moved = manifold.parallel_transport(x, y, u)
        for i in range(3):
            np.testing.assert_allclose(manifold.parallel_transport(x[i], y[i], u[i]), moved[i], atol=1e-12)


def test_random_point_is_reproducible_and_spd():
    manifold = SPD(3)
    a, b = manifold.random_point(4, 5), manifold.random_point(4, np.random.default_rng(5))
    np.testing.assert_array_equal(a, b)
    assert a.shape == (4, 3, 3)
    assert manifold.belongs(a).all()
    np.testing.assert_array_equal(a, np.swapaxes(a, -1, -2))
    assert SPD(2).random_point(1, 0).shape == (1, 2, 2)


# ----- curvature, injectivity radius and the Bures–Wasserstein domain --------------------------
def test_curvature_and_injectivity_attributes():
    affine, le, bw = (SPD(3, metric=m) for m in METRICS)
    assert (affine.kappa_min, affine.kappa_max, affine.injectivity_radius) == (-0.5, 0.0, np.inf)
    assert (le.kappa_min, le.kappa_max, le.injectivity_radius) == (0.0, 0.0, np.inf)
    assert (bw.kappa_min, bw.kappa_max, bw.injectivity_radius) == (0.0, np.inf, 0.0)
    for metric in METRICS:
        assert (SPD(1, metric=metric).kappa_min, SPD(1, metric=metric).kappa_max) == (0.0, 0.0)
    assert affine.dim == 6 and affine.point_shape == (3, 3)
    assert bw.kappa_max_bound(1.5) == 2.0
    assert affine.kappa_max_bound(1.5) == 0.0
    with pytest.raises(ValueError, match="-1"):
        bw.kappa_max_bound(-1)


def test_bures_wasserstein_exp_is_defined_up_to_sqrt_lambda_min():
    manifold = SPD(3, metric="bures-wasserstein")
    x = np.diag([0.25, 1.0, 4.0])
    np.testing.assert_allclose(manifold.injectivity_radius_at(x), 0.5)
    np.testing.assert_allclose(SPD(3).injectivity_radius_at(np.stack([x, x])), [np.inf, np.inf])
    # u = −2√λ₁ e₁e₁ᵀ is a unit vector (|u|² = u₁₁²/(4λ₁)); exp(x, t·u) = diag((√λ₁ − t)², 1, 4)
    # reaches the singular diag(0, 1, 4) at t = √λ₁ = 0.5.
    u = np.diag([-2.0 * np.sqrt(0.25), 0.0, 0.0])
    np.testing.assert_allclose(manifold.norm(x, u), 1.0)
    inside = manifold.exp(x, 0.49 * u)
    np.testing.assert_allclose(inside, np.diag([(0.5 - 0.49) ** 2, 1.0, 4.0]), atol=1e-14)
    np.testing.assert_allclose(manifold.dist(x, inside), 0.49, rtol=1e-12)
    with pytest.raises(ValueError, match=r"positive-definite cone.*-0\.02 <= 0 at index \(1,\)"):
        manifold.exp(np.stack([x, x]), np.stack([0.1 * u, 0.51 * u]))


def test_bures_wasserstein_ball_curvature_bound_is_tight():
    manifold = SPD(3, metric="bures-wasserstein")
    r = 0.5
    bound = manifold.kappa_max_ball(np.eye(3), r)
    np.testing.assert_allclose(bound, 3.0 / (np.sqrt(2.0) - r) ** 2)
    # Attained at diag(s², s², 1), s = 1 − r/√2, which lies on the sphere of radius r.
    s = 1.0 - r / np.sqrt(2.0)
    y = np.diag([s * s, s * s, 1.0])
    np.testing.assert_allclose(manifold.dist(np.eye(3), y), r, rtol=1e-12)
    np.testing.assert_allclose(3.0 / (2.0 * s * s), bound, rtol=1e-12)
    # Random points of the ball respect it.
    centre = manifold.random_point(1, 32)[0]
    rng = np.random.default_rng(33)
    radius = 0.2
    pts = manifold.exp(centre, radius * rng.uniform(0, 1, (500, 1, 1)) * manifold.random_unit_tangent(
        np.broadcast_to(centre, (500, 3, 3)), rng))
    w = np.linalg.eigvalsh(pts)
    assert (3.0 / (w[:, 0] + w[:, 1]) <= manifold.kappa_max_ball(centre, radius) + 1e-12).all()
    assert manifold.kappa_max_ball(np.eye(3), 2.0) == np.inf
    assert SPD(3).kappa_max_ball(np.eye(3), 2.0) == 0.0


def test_bures_wasserstein_has_no_parallel_transport():
    manifold = SPD(2, metric="bures-wasserstein")
    with pytest.raises(ValueError, match="not available"):
        manifold.parallel_transport(np.eye(2), 2.0 * np.eye(2), np.eye(2))


# ----- numerical robustness ----------------------------------------------------------------------
@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("spectrum", ["near-singular", "cond-1e12"])
def test_ill_conditioned_points_give_finite_symmetric_results(metric, k, spectrum):
    manifold = SPD(k, metric=metric)
    if spectrum == "near-singular":
        eig_x, eig_y = [1e-10] + [1.0] * (k - 1), [2e-10] + [3.0] * (k - 1)
    else:
        eig_x, eig_y = [1e-12] + [1.0] * (k - 1), [1.0] + [1e-12] * (k - 1)
    x = np.stack([_spd_with_spectrum(eig_x, 34), np.diag(eig_x)])
    y = np.stack([_spd_with_spectrum(eig_y, 35), np.diag(eig_y)])
    assert manifold.belongs(x).all() and manifold.belongs(y).all()
    v = manifold.log(x, y)
    outputs = {"log": v, "exp": manifold.exp(x, 0.5 * v), "basis": manifold.tangent_basis(x)}
    if metric != "bures-wasserstein":
        outputs["transport"] = manifold.parallel_transport(x, y, v)
    for name, out in outputs.items():
        assert np.isfinite(out).all(), name
        np.testing.assert_array_equal(out, np.swapaxes(out, -1, -2), err_msg=name)
    d = manifold.dist(x, y)
    assert np.isfinite(d).all() and (d >= 0).all()
    assert np.isfinite(manifold.norm(x, v)).all()
    assert (manifold.dist(x, x) >= 0).all()


def test_ill_conditioned_affine_distance_is_accurate_for_diagonal_points():
    # Diagonal points keep their tiny eigenvalues exactly, so the distance is exact to rounding.
    x, y = np.diag([1e-12, 1.0]), np.diag([1.0, 1e-12])
    expected = np.sqrt(2.0) * 12.0 * np.log(10.0)
    for k_pad in (0, 1):
        xk = sla.block_diag(x, np.eye(k_pad))
        yk = sla.block_diag(y, np.eye(k_pad))
        np.testing.assert_allclose(SPD(2 + k_pad).dist(xk, yk), expected, rtol=1e-13)
        np.testing.assert_allclose(SPD(2 + k_pad, metric="log-euclidean").dist(xk, yk), expected, rtol=1e-13)


# ----- argument checks -------------------------------------------------------------------------
def test_constructor_refuses_bad_arguments():
    with pytest.raises(ValueError, match="'wasserstein'"):
        SPD(2, metric="wasserstein")
    for k in (0, -1, 1.5, "2"):
        with pytest.raises(ValueError, match="k must be an integer"):
            SPD(k)
    assert SPD(2.0).k == 2


def test_check_points_refuses_off_manifold_points():
    manifold = SPD(2)
    with pytest.raises(ValueError, match=r"trailing shape \(2, 2\).*\(3, 3\)"):
        manifold.check_points(np.eye(3))
    with pytest.raises(ValueError, match="off SPD"):
        manifold.check_points(np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match=r"index \(1,\)"):
        manifold.check_points(np.stack([np.eye(2), np.diag([1.0, -1.0])]))
    np.testing.assert_array_equal(manifold.check_points(np.eye(2)), np.eye(2))


def test_positive_definite_screen_of_3x3_agrees_with_eigenvalues():
    # The determinant screen of is_positive_definite (k = 3) may only answer True where the eigenvalue
    # test does; every other matrix falls through to that test, so both give the same verdicts.
    rng = np.random.default_rng(21)
    q, _ = np.linalg.qr(rng.standard_normal((4000, 3, 3)))
    smallest = np.concatenate([10.0 ** rng.uniform(-17, 0, 3000), -(10.0 ** rng.uniform(-17, 0, 1000))])
    spectra = np.stack([smallest, rng.uniform(0.5, 1.0, 4000), np.ones(4000)], axis=-1)
    a = sym((q * spectra[:, None, :]) @ np.swapaxes(q, -1, -2)) * 10.0 ** rng.uniform(-200, 200, (4000, 1, 1))
    screen, exact = _clearly_positive_definite_3x3(a), _eigenvalue_test(a)
    assert screen.any() and not (screen & ~exact).any()
    np.testing.assert_array_equal(is_positive_definite(a), exact)
    np.testing.assert_array_equal(is_positive_definite(a.reshape(2, 2000, 3, 3)), exact.reshape(2, 2000))
    assert bool(is_positive_definite(np.eye(3))) and not bool(is_positive_definite(np.full((3, 3), np.nan)))


@pytest.mark.parametrize("k", [2, 3])
def test_affine_random_unit_tangent_is_uniform_on_the_unit_sphere(k):
    """The Cholesky route of ``random_unit_tangent``: unit length at X, and each coordinate c in the
    orthonormal ``tangent_basis`` follows the law of one coordinate of a uniform point of S^{d−1},
    (c + 1)/2 ~ Beta((d − 1)/2, (d − 1)/2)."""
    from scipy import stats

    space = SPD(k)
    x = np.broadcast_to(_random_spd(k, 1, seed=3, spread=0.8)[0], (4000, k, k))
    v = space.random_unit_tangent(x, np.random.default_rng(12))
    np.testing.assert_allclose(space.norm(x, v), 1.0, atol=1e-10)
    np.testing.assert_allclose(v, np.swapaxes(v, -1, -2))
    coef = space.inner(x[:, None], v[:, None], space.tangent_basis(x))
    law = stats.beta((space.dim - 1) / 2, (space.dim - 1) / 2)
    for column in coef.T:
        assert stats.kstest((column + 1) / 2, law.cdf).pvalue > 1e-3
    # The law must not depend on the basis: a fixed oblique unit direction gives the same law.
    direction = np.random.default_rng(5).standard_normal(space.dim)
    assert stats.kstest((coef @ direction / np.linalg.norm(direction) + 1) / 2, law.cdf).pvalue > 1e-3


@pytest.mark.parametrize("k", [2, 3])
def test_affine_random_step_is_exp_of_the_random_direction(k):
    """``random_step`` (G expm(tW) Gᵀ) equals Exp_X(t u) for the direction ``random_unit_tangent`` draws
    from the same random numbers."""
    space = SPD(k)
    x = _random_spd(k, 50, seed=4, spread=1.0)
    t = np.linspace(0.0, 3.0, 50)
    step = space.random_step(x, t, np.random.default_rng(8))
    direct = space.exp(x, t[:, None, None] * space.random_unit_tangent(x, np.random.default_rng(8)))
    np.testing.assert_allclose(step, direct, rtol=1e-9, atol=1e-9 * np.abs(direct).max())
    np.testing.assert_allclose(space.dist(x, step), t, atol=1e-8)
