"""DP-RGD / DP-RSGD (Algorithm 1): the non-private limit, clipping, sampling, outputs, accounting."""

import numpy as np
import pytest

from engine import accounting
from engine.estimators.erm import ERMProblem
from engine.estimators.riemannian_problems import FrechetMeanProblem, PrincipalEigenvector
from engine.manifolds import SPD, Euclidean, Hyperbolic, Sphere
from engine.mechanisms.dp_rgd import DPRGD
from engine.mechanisms.guarantee import PrivacyGuarantee


def _eigen_problem(n=200, d=6, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, d)) * np.linspace(2.0, 0.5, d)
    return PrincipalEigenvector(z / np.linalg.norm(z, ord=2))


def _spd_problem(n=40, seed=0):
    m = SPD(2)
    rng = np.random.default_rng(seed)
    pts = m.exp(m.origin, m.from_coordinates(m.origin, 0.4 * rng.standard_normal((n, 3))))
    return FrechetMeanProblem(m, pts)


def _plain_rgd(problem, init, steps, eta):
    w, path = np.array(init, dtype=float), [np.array(init, dtype=float)]
    for _ in range(steps):
        w = problem.manifold.exp(w, -eta * problem.gradient(w))
        path.append(w)
    return np.stack(path)


@pytest.mark.parametrize("make, eta", [(_eigen_problem, 50.0), (_spd_problem, 0.5)])
def test_sigma_zero_is_plain_riemannian_gradient_descent(make, eta):
    problem = make()
    init = problem.manifold.random_point(3, 5) if isinstance(problem.manifold, Sphere) else problem.manifold.origin
    # A clipping norm above every per-example gradient norm: nothing is clipped.
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1e6, steps=25, step_size=eta, sigma=0.0)
    result = mech.fit(problem, init, rng=0)
    np.testing.assert_allclose(result.path, _plain_rgd(problem, init, 25, eta), atol=1e-12)
    np.testing.assert_allclose(result.points, result.path[-1])
    assert result.epsilon_spent == np.inf
    assert mech.privacy_guarantee().epsilon == np.inf
    # The non-private path decreases the loss and the recorded gradient norms are ‖grad F‖.
    assert result.losses[-1].max() < result.losses[0].min() + 1e-12
    np.testing.assert_allclose(result.gradient_norms[-1],
                               problem.manifold.norm(result.path[-1], problem.gradient(result.path[-1])))


def test_clipped_mean_bounds_the_sensitivity_by_two_l0_over_n():
    m = Hyperbolic(2)
    rng = np.random.default_rng(3)
    pts = m.exp(m.origin, m.from_coordinates(m.origin, rng.standard_normal((50, 2))))
    far = m.exp(m.origin, m.from_coordinates(m.origin, np.array([[40.0, -25.0]])))
    neighbour = pts.copy()
    neighbour[7] = far[0]
    w = m.exp(m.origin, m.from_coordinates(m.origin, rng.standard_normal((20, 2))))
    clip = 0.5
    g, g2 = (FrechetMeanProblem(m, p).clipped_mean_gradient(w, np.arange(50), clip) for p in (pts, neighbour))
    moved = m.norm(w, g - g2)
    assert np.all(moved <= 2 * clip / 50 + 1e-12)
    # The clip binds for the far record (an unclipped gradient would move the mean by ~d/n > 1/n)...
    assert np.all(m.dist(w, far[0]) / 50 > 4 * clip / 50)
    # ...and the bound is nearly attained when the two records pull in opposite directions.
    assert moved.max() > 1.5 * clip / 50


def test_every_clipped_term_has_norm_at_most_l0_and_closed_forms_match():
    for problem in (_eigen_problem(), _spd_problem()):
        m = problem.manifold
        w = m.random_point(4, 2) if isinstance(m, Sphere) else m.exp(m.origin, m.from_coordinates(
            m.origin, 0.3 * np.random.default_rng(2).standard_normal((4, m.dim))))
        grads = problem.per_example_grad(w, np.arange(problem.n))
        norms = m.norm(w[:, None], grads)
        clip = float(np.quantile(norms, 0.3))
        factor = np.minimum(1.0, clip / norms)
        assert np.all(norms * factor <= clip * (1 + 1e-12))
        expected = (grads * factor[(...,) + (None,) * m.point_ndim]).mean(axis=1)
        np.testing.assert_allclose(problem.clipped_mean_gradient(w, np.arange(problem.n), clip), expected, atol=1e-14)
        idx = np.random.default_rng(1).integers(0, problem.n, (4, 9))
        np.testing.assert_allclose(problem.clipped_mean_gradient(w, idx, clip),
                                   ERMProblem.clipped_mean_gradient(problem, w, idx, clip), atol=1e-14)


class _RecordingProblem(ERMProblem):
    """Euclidean least squares f_i(w) = ½‖w − x_i‖² that records the batches it is asked for."""

    def __init__(self, x):
        self.manifold, self.x, self.n, self.batches = Euclidean(x.shape[1]), x, x.shape[0], []

    def per_example_grad(self, w, idx):
        self.batches.append(np.array(idx))
        return np.asarray(w)[..., None, :] - self.x[idx]

    def loss(self, w):
        return 0.5 * np.mean(np.sum((np.asarray(w)[..., None, :] - self.x) ** 2, axis=-1), axis=-1)


def test_minibatches_are_drawn_without_replacement_per_chain():
    problem = _RecordingProblem(np.random.default_rng(0).standard_normal((30, 2)))
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=10.0, steps=40, step_size=0.1, batch_size=7, sigma=0.0)
    mech.fit(problem, np.zeros((5, 2)), rng=1)
    batches = np.stack(problem.batches[:40])
    assert batches.shape == (40, 5, 7)
    assert all(len(np.unique(b)) == 7 for b in batches.reshape(-1, 7))
    assert len({tuple(b) for b in batches[:, 0]}) > 30
    # Every record is used about equally often (7/30 of the steps of each chain).
    counts = np.bincount(batches.ravel(), minlength=30)
    assert counts.min() > 0.5 * counts.mean()


def test_geodesic_average_is_the_mean_of_the_iterates_in_flat_space():
    problem = FrechetMeanProblem(Euclidean(3), np.random.default_rng(0).standard_normal((25, 3)))
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=30, step_size=0.3, output="average", sigma=0.5)
    result = mech.fit(problem, np.zeros((4, 3)), rng=2)
    np.testing.assert_allclose(result.points, result.path[1:].mean(axis=0), atol=1e-12)
    assert np.all(result.output_index == -1)


def test_uniform_output_returns_a_path_iterate():
    problem = _spd_problem()
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=12, step_size=0.1, output="uniform", sigma=0.2)
    result = mech.fit(problem, np.broadcast_to(np.eye(2), (50, 2, 2)), rng=4)
    assert result.output_index.min() >= 1 and result.output_index.max() <= 12
    assert len(np.unique(result.output_index)) > 5
    chains = np.arange(50)
    np.testing.assert_array_equal(result.points, result.path[result.output_index, chains])


def test_calibrated_run_spends_the_target_and_reports_paper_sigma():
    problem = _spd_problem(n=60)
    mech = DPRGD(epsilon=0.5, delta=1e-3, clip=1.0, steps=60, step_size=0.01)
    result = mech.fit(problem, np.eye(2), rng=0)
    assert result.epsilon_spent == pytest.approx(0.5, rel=1e-6)
    z = accounting.calibrate_sigma(0.5, 60, delta=1e-3)
    assert result.sigma == pytest.approx(z * 2 * 1.0 / 60)
    assert result.paper_sigma == pytest.approx(accounting.paper_sigma(0.5, 1e-3, 60, 60, 1.0))
    guarantee = result.guarantee
    assert isinstance(guarantee, PrivacyGuarantee)
    assert guarantee.epsilon == pytest.approx(0.5, rel=1e-6) and guarantee.delta == 1e-3
    assert guarantee.sigma == result.sigma and "T = 60" in guarantee.rule
    # The mechanism's own statement depends on its settings only: without a public n, σ is not known.
    assert np.isnan(mech.privacy_guarantee().sigma) and mech.privacy_guarantee().epsilon == 0.5
    assert "one record" in guarantee.reason and "clipped" in guarantee.reason


def test_paper_rule_reports_the_accountants_epsilon():
    problem = _spd_problem(n=50)
    mech = DPRGD(epsilon=0.1, delta=1e-3, clip=1.0, steps=50, step_size=0.01, sigma="paper")
    result = mech.fit(problem, np.eye(2), rng=0)
    assert result.sigma == pytest.approx(accounting.paper_sigma(0.1, 1e-3, 50, 50, 1.0))
    assert result.epsilon_spent == pytest.approx(accounting.epsilon_for(result.sigma * 50 / 2, 50, delta=1e-3))
    assert result.epsilon_spent > 0.1


def test_noise_has_the_requested_scale():
    # One step from w with a zero gradient: w_1 = Exp_w(−η ξ), so Log_w(w_1)/η = −ξ ~ N_w(0, σ²).
    problem = FrechetMeanProblem(Sphere(2), np.array([[0.0, 0.0, 1.0]]))
    result = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=1, step_size=0.01, sigma=0.7).fit(
        problem, np.broadcast_to([0.0, 0.0, 1.0], (4000, 3)), rng=9)
    xi = problem.manifold.log(result.path[0], result.path[1]) / 0.01
    assert np.abs(xi[:, 2]).max() < 1e-9
    assert np.std(xi[:, :2]) == pytest.approx(0.7, rel=0.05)


def test_record_every_thins_the_diagnostics():
    problem = _eigen_problem()
    result = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=10, step_size=1.0, sigma=0.0).fit(
        problem, problem.manifold.random_point(2, 0), record_every=4)
    np.testing.assert_array_equal(result.diagnostic_iterations, [0, 4, 8, 10])
    assert result.losses.shape == (4, 2) and result.path.shape == (11, 2, 6)


@pytest.mark.parametrize("kwargs, quoted", [
    ({"epsilon": -1}, "-1"), ({"delta": 2.0}, "2.0"), ({"clip": 0}, "0"), ({"steps": 0}, "0"),
    ({"step_size": -0.5}, "-0.5"), ({"step_size": [0.1, 0.2]}, r"\[0.1, 0.2\]"), ({"batch_size": 0}, "0"),
    ({"output": "mean"}, "'mean'"), ({"sigma": "fast"}, "'fast'"), ({"sigma": -1.0}, "-1.0"),
])
def test_constructor_validates_eagerly(kwargs, quoted):
    settings = {"epsilon": 1.0, "delta": 1e-5, "clip": 1.0, "steps": 5, "step_size": 0.1} | kwargs
    with pytest.raises(ValueError, match=quoted):
        DPRGD(**settings)


def test_batch_larger_than_data_is_refused_at_fit():
    with pytest.raises(ValueError, match="batch_size must be <= n = 40, got 50"):
        DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=5, step_size=0.1, batch_size=50, sigma=0.1).fit(
            _spd_problem(), np.eye(2))


def test_guarantee_is_stated_before_fit_when_n_is_public():
    """One protocol for every mechanism: privacy_guarantee() computable before any release."""
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=30, step_size=0.1, n=200)
    g = mech.privacy_guarantee()
    assert np.isfinite(g.sigma) and g.sigma > 0 and g.epsilon == pytest.approx(1.0, rel=1e-3)
    assert "T = 30" in g.rule
    with pytest.raises(ValueError, match="batch_size must be <= n = 10"):
        DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=3, step_size=0.1, n=10, batch_size=20)


def test_fit_refuses_a_problem_of_another_size_than_the_public_n():
    problem = PrincipalEigenvector(np.random.default_rng(0).standard_normal((12, 3)))
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=3, step_size=0.1, n=10)
    with pytest.raises(ValueError, match="problem.n = 12 differs from the public n = 10"):
        mech.fit(problem, problem.manifold.projection(np.ones(3)), rng=0)


@pytest.mark.parametrize("metric", ["affine", "bures-wasserstein"])
def test_iterates_leaving_the_space_under_huge_noise_are_explained(metric):
    """At ε = 0.002 the calibrated σ (≈ 370 for n = T = 100) carried the SPD
    iterates off the cone and the page showed the exponential map's internal error instead."""
    m = SPD(2, metric=metric)
    rng = np.random.default_rng(0)
    data = m.exp(m.origin, m.from_coordinates(m.origin, 0.1 * rng.standard_normal((100, 3))))
    mech = DPRGD(epsilon=0.002, delta=1e-3, clip=1.0, steps=100, step_size=0.05)
    with pytest.raises(ValueError, match=r"iterates left SPD\(2.*raise epsilon, or lower step_size or steps"):
        mech.fit(FrechetMeanProblem(m, data), np.broadcast_to(m.origin, (50, 2, 2)), rng=0)
