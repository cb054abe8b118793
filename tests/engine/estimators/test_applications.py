"""The §5 applications of Han et al.: objectives, non-private optima, and the studies built on them."""

import numpy as np
import pytest

from engine.data import spd_wishart
from engine.estimators import frechet_mean
from engine.estimators.erm import riemannian_gradient_descent
from engine.estimators.matrix_completion import MatrixCompletion
from engine.estimators.riemannian_problems import FrechetMeanProblem, PrincipalEigenvector
from engine.experiments import dp_rgd_eigenvector, dp_rgd_frechet, dp_rgd_hyperbolic, dp_rgd_matrix_completion
from engine.manifolds import SPD, Hyperbolic
from engine.pipelines.dp_rgd_setting import eigenvector as eigenvector_setting
from engine.pipelines.dp_rgd_setting import hyperbolic as hyperbolic_setting
from engine.pipelines.dp_rgd_setting import matrix_completion as completion_setting


def _hyperbolic_problem(seed=0):
    m = Hyperbolic(2)
    rng = np.random.default_rng(seed)
    pts = m.exp(m.origin, m.from_coordinates(m.origin, rng.standard_normal((30, 2))))
    weights = rng.uniform(-0.3, 1.0, 30)
    return FrechetMeanProblem(m, pts, weights)


def _completion_problem(seed=0):
    values, train, _ = completion_setting.low_rank_data(
        12, 2, 150, observed=0.6, test_fraction=0.1, noise=0.05, rng=np.random.default_rng(seed))
    return MatrixCompletion(values, train, rank=2, ridge=1e-6)


PROBLEMS = {
    "eigenvector": lambda: PrincipalEigenvector(eigenvector_setting.spiked_data(300, 8, 0.1, np.random.default_rng(0))),
    "spd-affine": lambda: FrechetMeanProblem(SPD(2), spd_wishart(40, radius=1.0, rng=1)),
    "bures-wasserstein": lambda: FrechetMeanProblem(SPD(2, "bures-wasserstein"),
                                                    spd_wishart(40, radius=0.3, metric="bures-wasserstein", rng=2)),
    "hyperbolic-signed-weights": _hyperbolic_problem,
    "matrix-completion": _completion_problem,
}


def _start(problem, seed):
    m = problem.manifold
    base = m.origin
    return m.exp(base, m.from_coordinates(base, 0.2 * np.random.default_rng(seed).standard_normal(m.dim)))


@pytest.mark.parametrize("key", list(PROBLEMS))
def test_gradient_is_the_derivative_of_the_loss_along_geodesics(key):
    problem = PROBLEMS[key]()
    m = problem.manifold
    w = _start(problem, 3)
    v = m.from_coordinates(w, np.random.default_rng(4).standard_normal(m.dim))
    h = 1e-5
    numeric = (problem.loss(m.exp(w, h * v)) - problem.loss(m.exp(w, -h * v))) / (2 * h)
    assert numeric == pytest.approx(float(m.inner(w, problem.gradient(w), v)), rel=1e-5, abs=1e-9)


@pytest.mark.parametrize("key", list(PROBLEMS))
def test_loss_and_gradient_together_equal_each_alone(key):
    """DP-RGD's diagnostics take both from one call (matrix completion fits its coefficients once)."""
    problem = PROBLEMS[key]()
    w = np.stack([_start(problem, seed) for seed in (3, 5)])
    loss, gradient = problem.loss_and_gradient(w)
    np.testing.assert_allclose(loss, problem.loss(w), rtol=1e-12)
    np.testing.assert_allclose(gradient, problem.gradient(w), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("key, step", [("spd-affine", 1.0), ("bures-wasserstein", 1.0),
                                       ("hyperbolic-signed-weights", None), ("matrix-completion", 0.5)])
def test_non_private_solver_reaches_the_first_order_condition(key, step):
    problem = PROBLEMS[key]()
    if step is None:
        step = 0.5 * problem.n / problem.weights.sum()
    start = (completion_setting.spectral_start(problem) if key == "matrix-completion"
             else problem.manifold.origin)
    best = riemannian_gradient_descent(problem, start, step=step, tol=1e-8, max_iter=20_000)
    assert best.converged and best.gradient_norm < 1e-8
    assert best.loss <= problem.loss(start)
    if key != "matrix-completion":
        # An independent solver agrees (weights normalised there, the same minimiser).
        other = frechet_mean(problem.manifold, problem.points, weights=problem.weights, tol=1e-12, max_iter=5000)
        assert problem.manifold.dist(best.point, other.mean) < 1e-6


def test_eigenvector_optimum_is_the_top_eigenvector():
    problem = PROBLEMS["eigenvector"]()
    w = problem.top_eigenvector
    assert problem.manifold.norm(w, problem.gradient(w)) < 1e-12
    assert problem.excess_risk(w) < 1e-15
    assert problem.lipschitz == pytest.approx(2 * np.max(np.sum(problem.data**2, axis=1)))
    others = problem.manifold.random_point(50, 1)
    assert np.all(problem.loss(others) > problem.loss(w))


def test_spiked_data_have_the_paper_spectrum():
    x = eigenvector_setting.spiked_data(500, 50, 1e-3, np.random.default_rng(0))
    s = np.linalg.svd(x, compute_uv=False)
    np.testing.assert_allclose(s[:6], 1 - 1e-3 * np.array([0, 1, 1.1, 1.2, 1.3, 1.4]), atol=1e-12)
    assert s[6] < 0.1


def test_excess_risk_falls_as_epsilon_grows():
    # A public record radius of 0.015, near the patches' largest norm (0.0136): the default
    # √(d/n) = 0.062 asks for so much noise that DP-RGD stays at chance level at ε = 0.7.
    results = dp_rgd_eigenvector.run(reps=20, seed=1, epsilons=(0.01, 0.7), datasets=("china-patches",),
                                     radius=0.015)
    mean = results["summary"].set_index(["method", "epsilon"])["mean"]
    for method in ("dp-rgd", "dp-pgd", "analyze gauss"):
        # At ε = 0.01 every release is close to a random direction (excess ≈ 1); the gap below is
        # more than ten standard errors of the 20-repeat means.
        assert mean[(method, 0.7)] < 0.3 < 0.6 < mean[(method, 0.01)]
    assert set(dp_rgd_eigenvector.figures(results)) == {"excess-risk-china-patches"}
    risk = results["risk"]
    assert set(risk.columns) >= {"method", "epsilon", "repeat", "excess_risk", "steps", "sigma", "epsilon_spent"}
    assert np.allclose(risk.loc[risk.method == "dp-rgd", "epsilon_spent"], risk.loc[risk.method == "dp-rgd", "epsilon"])


def test_eigenvector_clipping_norm_is_public_not_taken_from_the_data():
    """L0 = 2R² with R = √(d/n): the same for every data set of that size; records
    beyond R are scaled onto it, so no per-example gradient exceeds L0."""
    n, d = 400, 10
    risks = [dp_rgd_eigenvector.run(reps=2, seed=seed, epsilons=(0.5,), datasets=("synthetic",), n=n, d=d)["risk"]
             for seed in (0, 1)]
    for risk in risks:
        assert np.allclose(risk["clip"], 2 * d / n)
    assert np.allclose(risks[0]["sigma"].dropna(), risks[1]["sigma"].dropna())
    data = eigenvector_setting.spiked_data(n, d, 0.1, np.random.default_rng(0))
    data[0] *= 1e3
    problem, clip, clipped = eigenvector_setting.private_problem(data)
    assert clip == pytest.approx(2 * d / n)
    assert clipped == np.sum(np.linalg.norm(data, axis=1) > np.sqrt(d / n)) >= 1
    assert np.linalg.norm(problem.data, axis=1).max() == pytest.approx(np.sqrt(d / n))
    assert problem.lipschitz <= clip * (1 + 1e-12)
    with pytest.raises(ValueError, match="radius"):
        eigenvector_setting.private_problem(data, radius=-1.0)


def test_matrix_completion_settings_report_the_sigma_of_the_papers_rule():
    """With noise="paper" the run uses c = 10⁴; its settings table reports that σ, not c = 1's."""
    out = dp_rgd_matrix_completion.run(reps=1, n=200, steps=20, noise="paper", record_every=10)
    settings = out["settings"].iloc[0]
    assert settings["paper_c"] == dp_rgd_matrix_completion.PAPER_C == 1e4
    assert settings["sigma"] == pytest.approx(settings["paper_sigma"])


def test_steps_rule_matches_the_formula_and_is_at_least_one():
    expected = int(np.ceil(np.log(1e6 * 0.01 / (50 * 1e-4 * np.log(1e3)))))
    assert eigenvector_setting.steps_rule(1000, 50, 0.1, 0.01, 1e-3) == expected == 13
    assert eigenvector_setting.steps_rule(10, 50, 0.001, 1.0, 1e-3) == 1
    # √L1·n·ε/(√(d log(1/δ))·L0) = √10·100·0.1/(√(2 log 1000)·0.5) = 17.02.
    assert hyperbolic_setting.steps_rule(100, 0.1, 1e-3, 0.5, 10.0) == 17


def test_frechet_study_on_affine_spd():
    results = dp_rgd_frechet.run(reps=6, ns=(20, 60), seed=2)
    risk, optimum = results["risk"], results["optimum"]
    assert optimum.converged.all() and (optimum.gradient_norm < 1e-8).all()
    assert (risk.excess_risk > -1e-12).all()
    lap = risk[risk.method == "riemannian laplace"].groupby("n").sigma.first()
    np.testing.assert_allclose(lap.to_numpy(), [2 / (20 * 0.1), 2 / (60 * 0.1)])
    assert np.allclose(risk.loc[risk.method == "dp-rgd", "epsilon_spent"], 0.1)
    assert set(dp_rgd_frechet.figures(results)) == {"excess-risk"}


def test_barycenter_study_checks_the_domain_and_runs():
    with pytest.raises(ValueError, match="radius 0.6"):
        dp_rgd_frechet.run(metric="bures-wasserstein", radius=0.6, ns=(20,), reps=2)
    results = dp_rgd_frechet.run(metric="bures-wasserstein", reps=3, ns=(20,), laplace_burn_in=60)
    assert results["optimum"].converged.all()
    assert 0 < results["optimum"].laplace_acceptance.iloc[0] < 1
    assert (results["risk"].excess_risk > -1e-12).all()


def test_hyperbolic_study_returns_points_for_plotting():
    results = dp_rgd_hyperbolic.run(reps=4, height=4, seed=1)
    settings = results["settings"].iloc[0]
    assert settings.optimum_converged and settings.optimum_gradient_norm < 1e-8
    assert settings.n_negative_weights > 0
    points = results["points"]
    assert points.groupby("role").size().to_dict() == {"data": 31, "dp-rgd": 4, "non-private": 1, "truth": 1}
    lorentz = points[["x0", "x1", "x2"]].to_numpy()
    assert Hyperbolic(2).belongs(lorentz, atol=1e-6).all()
    assert np.all(np.hypot(points.px, points.py) < 1)
    path = results["path"]
    final = path[(path.method == "non-private") & (path.iteration == path.iteration.max())]
    assert final.distance_to_optimum.max() < path[path.method == "non-private"].distance_to_optimum.max()
    assert set(dp_rgd_hyperbolic.figures(results)) == {"poincare", "distance"}


def test_matrix_completion_study_records_train_and_test_rmse():
    results = dp_rgd_matrix_completion.run(reps=2, n=300, d=10, rank=2, steps=60, record_every=20,
                                           noise="paper", epsilon=1.0, seed=3)
    rmse = results["rmse"]
    assert sorted(rmse.iteration.unique()) == [0, 20, 40, 60]
    assert set(rmse.split) == {"train", "test"} and set(rmse.method) == {"dp-rgd", "non-private"}
    plain = rmse[(rmse.method == "non-private") & (rmse.split == "train")].groupby("iteration").rmse.mean()
    assert plain.iloc[-1] < plain.iloc[0]
    assert results["optimum"].converged.iloc[0]
    assert set(dp_rgd_matrix_completion.figures(results)) == {"rmse-train", "rmse-test"}


@pytest.mark.parametrize("call, quoted", [
    (lambda: PrincipalEigenvector(np.ones(5)), r"\(5,\)"),
    (lambda: FrechetMeanProblem(SPD(2), np.broadcast_to(np.eye(2), (4, 2, 2)), weights=np.ones(3)), r"\(3,\)"),
    (lambda: MatrixCompletion(np.ones((5, 3)), np.ones((5, 3), bool), rank=3), "3"),
    (lambda: dp_rgd_eigenvector.run(datasets=("mnist",)), "'mnist'"),
    (lambda: dp_rgd_eigenvector.run(noise="loud"), "'loud'"),
    (lambda: dp_rgd_frechet.run(metric="log-euclidean"), "'log-euclidean'"),
    (lambda: dp_rgd_hyperbolic.run(test_node=10_000, height=3), "10000"),
    (lambda: dp_rgd_matrix_completion.run(observed=1.5), "1.5"),
])
def test_bad_inputs_raise_value_errors_quoting_the_value(call, quoted):
    with pytest.raises(ValueError, match=quoted):
        call()


def test_hyperbolic_study_on_the_wordnet_mammal_taxonomy():
    from engine.data import wordnet_available
    from engine.experiments import dp_rgd_hyperbolic

    with pytest.raises(ValueError, match="taxonomy"):
        dp_rgd_hyperbolic.run(reps=1, taxonomy="oak")
    available, reason = wordnet_available()
    if not available:
        pytest.skip(f"WordNet taxonomy not tested: {reason}")
    out = dp_rgd_hyperbolic.run(reps=2, taxonomy="wordnet-mammal", nonprivate_iterations=10)
    assert (out["points"].role == "data").sum() == 1182
    assert out["settings"].optimum_converged.item()
    assert (out["points"].query("role != 'data'")[["px", "py"]].pow(2).sum(axis=1) < 1).all()
