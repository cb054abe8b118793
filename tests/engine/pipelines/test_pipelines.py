"""The private-mean pipeline: deterministic, the same numbers from a notebook, the CLI and the page."""

import dataclasses
import json

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from engine.mechanisms.multichain import RHAT_LIMIT
from engine.pipelines import PrivateMeanConfig, private_regression, private_subspace, run, sensitivity, utility
from engine.pipelines import __main__ as pipelines_cli
from engine.pipelines.__main__ import main
from engine.pipelines.checks import convergence_check
from engine.pipelines.private_mean import _errors
from engine.spaces import SPACES, make_manifold

CONFIG = PrivateMeanConfig(space="sphere", n=50, epsilon=1.0, seed=0, mechanisms=("exact", "euclid", "gauss"),
                           delta=1e-5)


def test_run_is_deterministic_for_a_seed_and_changes_with_it():
    a, b = run(CONFIG), run(CONFIG)
    for x, y in zip(a.runs, b.runs):
        np.testing.assert_array_equal(x.releases, y.releases)
    other = run(PrivateMeanConfig(**{**CONFIG.__dict__, "seed": 1}))
    assert not np.array_equal(a.runs[0].releases, other.runs[0].releases)


def test_cli_prints_the_notebook_numbers(capsys):
    assert main(["private-mean", "--space", "sphere", "--n", "50", "--eps", "1", "--seed", "0",
                 "--mechanisms", "exact,euclid,gauss", "--delta", "1e-5", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(run(CONFIG).summary()))
    by_key = {m["key"]: m for m in printed["mechanisms"]}
    assert by_key["exact"]["sensitivity"] == pytest.approx(2 * (np.pi / 8) * (2 - np.pi / 4) / (50 * np.pi / 4))
    assert by_key["euclid"]["sensitivity"] == pytest.approx(2 * 2 * np.sin(np.pi / 16) / 50)
    assert by_key["gauss"]["guarantee"]["delta"] == 1e-5


def test_cli_refuses_bad_input_with_exit_status_2(capsys):
    assert main(["private-mean", "--n", "1"]) == 2
    assert "n must be an integer >= 2, got 1" in capsys.readouterr().err
    assert main(["private-mean", "--space", "spd", "--source", "cap"]) == 2
    assert "source must be one of wishart" in capsys.readouterr().err


def test_records_outside_the_ball_are_clipped_by_default_as_on_the_page_and_refused_on_request():
    loose = dict(space="sphere", source="vmf", n=200, radius=0.1, seed=3)
    with pytest.raises(ValueError, match="outside the public ball"):
        run(PrivateMeanConfig(**loose, outside="refuse"))
    clipped = run(PrivateMeanConfig(**loose))
    assert clipped.checks[1].level == "warning" and "clipped" in clipped.checks[1].title
    assert all(r.guarantee.void == "" for r in clipped.runs)


@pytest.mark.parametrize("policy, why", [("drop", "were dropped, so n and the sensitivity"),
                                         ("keep", "were kept, so the sensitivity bound does not hold")])
def test_dropped_or_kept_records_void_every_guarantee_the_run_prints(policy, why, capsys):
    """Dropping calibrates Δ = 2r/n_used from a count the data decide, so the run never states ε for it."""
    loose = dict(space="sphere", source="vmf", n=200, radius=0.1, seed=3, outside=policy)
    result = run(PrivateMeanConfig(**loose))
    assert result.n_used < 200 if policy == "drop" else result.n_used == 200
    assert result.checks[1].level == "error" and "NOT ε-DP" in result.checks[1].text
    assert all(why in r.guarantee.void for r in result.runs) and result.runs
    assert all(why in m["guarantee"]["void"] for m in result.summary()["mechanisms"])
    assert main(["private-mean", "--space", "sphere", "--source", "vmf", "--n", "200", "--radius", "0.1",
                 "--seed", "3", "--outside", policy]) == 0
    printed = capsys.readouterr().out
    assert "NOT DP: " in printed and ")-DP" not in printed


def test_progress_follows_the_mechanisms_and_the_mh_chain_without_changing_the_result():
    config = PrivateMeanConfig(space="sphere", n=50, epsilon=1.0, seed=0, mechanisms=("exact", "mh"),
                               burn_in=400, thin=4, releases=50)
    seen = []
    with_bar = run(config, progress=lambda fraction, text: seen.append((fraction, text)))
    fractions = [f for f, _ in seen]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and np.all(np.diff(fractions) >= 0)
    steps = 400 + 4 * 49
    chain = [text for _, text in seen if text.startswith("Riemannian Laplace (MH): chain step")]
    assert len(chain) >= 50 and chain[-1].endswith(f"{steps:,} of {steps:,}")
    assert any(text == "Riemannian Laplace: 50 releases" for _, text in seen)
    for x, y in zip(with_bar.runs, run(config).runs):
        np.testing.assert_array_equal(x.releases, y.releases)


def test_the_playground_page_gets_the_same_result_and_its_own_copy():
    from ui.playground.compute import private_means

    changed = private_means(CONFIG)
    changed.runs[0].releases[0] = np.nan
    page = private_means(CONFIG)
    assert not np.isnan(page.runs[0].releases[0]).any()
    notebook = run(CONFIG)
    for shown, ran in zip(page.runs, notebook.runs):
        np.testing.assert_array_equal(shown.releases, ran.releases)
        assert shown.guarantee == ran.guarantee
    assert page.checks == notebook.checks


#: Each study's subcommand, its options and the config a notebook would build for them.
CLI_RUNS = {
    "sensitivity": (["--space", "spd", "--n", "20", "--reps", "10", "--seed", "3"],
                    lambda: sensitivity.SensitivityConfig(space="spd", radius=1.5, kappa=0.0, n=20, reps=10, seed=3)),
    "utility": (["--space", "sphere", "--ns", "10,40", "--eps", "2", "--n", "20", "--reps", "5", "--paper-baseline"],
                lambda: utility.UtilityConfig(space="sphere", ns=(10, 40), epsilon=2.0, n=20, reps=5,
                                              paper_baseline=True)),
    "private-subspace": (["--method", "approx", "--n", "3000", "--noise", "0.01", "--releases", "3", "--seed", "1"],
                         lambda: private_subspace.PrivateSubspaceConfig(method="approx", n=3000, noise=0.01, releases=3,
                                                                        seed=1)),
    "private-regression": (["--dataset", "drift", "--n", "30", "--warmup", "50", "--releases", "2"],
                           lambda: private_regression.RegressionConfig(dataset="drift", n=30, warmup=50, releases=2,
                                                                      tau=0.3)),
}


@pytest.mark.parametrize("pipeline", list(CLI_RUNS))
def test_every_subcommand_prints_the_notebook_numbers(pipeline, capsys):
    argv, config = CLI_RUNS[pipeline]
    assert main([pipeline, *argv, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    module = {"sensitivity": sensitivity, "utility": utility, "private-subspace": private_subspace,
              "private-regression": private_regression}[pipeline]
    assert printed == json.loads(json.dumps(module.run(config()).summary(), allow_nan=False))
    assert printed["config"] == json.loads(json.dumps(dataclasses.asdict(config())))


@pytest.mark.parametrize("dataset, tau", [("callosum", 0.05), ("cells", 0.3), ("drift", 0.3)])
def test_the_residual_bound_follows_the_data_set_as_on_the_regression_page(dataset, tau):
    # The page opens each data set at these τ; the command line ran every data set at 0.05.
    parse = pipelines_cli._parser().parse_args
    assert pipelines_cli.config_from_args(parse(["private-regression", "--dataset", dataset])).tau == tau
    given = parse(["private-regression", "--dataset", dataset, "--tau", "0.1"])
    assert pipelines_cli.config_from_args(given).tau == 0.1


def test_the_table_output_runs_on_a_study(capsys):
    assert main(["sensitivity", "--n", "10", "--reps", "4"]) == 0
    out = capsys.readouterr().out
    assert "theorem2:" in out and "adversarial replacement" in out


#: A space of the registry without the paper's recipe, which the Sensitivity pipeline refuses.
WITHOUT_RECIPE = next(key for key in SPACES if key not in sensitivity.SPACES)


@pytest.mark.parametrize("argv, message", [
    (["sensitivity", "--reps", "1"], "reps must be an integer >= 2, got 1"),
    (["sensitivity", "--space", WITHOUT_RECIPE], f"space must be one of {', '.join(sensitivity.SPACES)}, "
                                                  f"got {WITHOUT_RECIPE!r}"),
    (["utility", "--eps", "-1"], "epsilon must be a finite number > 0, got -1.0"),
    (["utility", "--ns", "10,x"], "ns must be comma-separated int, got '10,x'"),
    (["private-subspace", "--k", "3"], "k must be < d = 3 (a proper subspace), got 3"),
    (["private-regression", "--dataset", "iris"], "dataset must be one of ('callosum', 'cells', 'drift'), got 'iris'"),
    (["private-mean", "--space", "torus"], f"space must be one of {', '.join(SPACES)}, got 'torus'"),
    (["private-mean", "--n", "many"], "n must be int, got 'many'"),
])
def test_bad_input_is_one_line_naming_the_value_with_exit_status_2(argv, message, capsys):
    try:
        status = main(argv)
    except SystemExit as stop:  # the parser's own errors (a value of the wrong type) exit there
        status = stop.code
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert status == 2


def test_regression_worst_rhat_is_the_largest_step_and_flags_a_two_step_warmup():
    result = private_regression.run(private_regression.RegressionConfig(dataset="drift", n=30, warmup=2, releases=2))
    steps = result.diagnostics.set_index("step")["split R̂ (max)"]
    assert result.worst_rhat == max(steps["footpoint"], steps["shooting vector"])
    assert result.worst_rhat > 1.01  # four over-dispersed chains cannot agree after two steps


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_regression_chains_converge_at_the_page_defaults(seed):
    # The page's defaults are Kulkarni & Soto's Figure 2 setting (also Home's preset): Σ^50_2, n = 100,
    # ε_p = ε_v = 0.3, τ = 0.05, five releases. Every split R̂ (log density and all 96 coordinates, both steps,
    # every release's shooting-vector chains) must be within the limit, so the page can state the guarantee.
    config = private_regression.RegressionConfig(seed=seed)
    assert (config.dataset, config.n, config.k, config.epsilon_p, config.epsilon_v, config.tau) == (
        "callosum", 100, 50, 0.3, 0.3, 0.05)
    result = private_regression.run(config)
    assert not result.chains_disagree and result.worst_rhat <= RHAT_LIMIT


def test_a_tiny_epsilon_is_refused_per_mechanism_never_an_error_of_zero(capsys):
    # ε = 1e-300 released Euclidean points of norm ~1e298 and printed "geodesic error = 0".
    assert main(["private-mean", "--eps", "1e-300", "--mechanisms", "exact,euclid"]) == 0
    out = capsys.readouterr().out
    assert "geodesic error = 0 " not in out
    assert "Euclidean Laplace          skipped: epsilon = 1e-300 is too small" in out
    assert main(["private-mean", "--eps", "1e-300", "--space", "hyperbolic", "--mechanisms", "gauss", "--delta", "1e-5",
                 "--json"]) == 0
    gauss = json.loads(capsys.readouterr().out)["mechanisms"][0]
    assert gauss["errors"] is None and "not representable in float64" in gauss["skipped"]


def test_an_error_float64_cannot_compute_is_nan_never_zero():
    sphere = make_manifold("sphere")
    mean = np.array([0.0, 0.0, 1.0])
    errors = _errors(sphere, mean, np.array([[1e300, 0.0, 0.0], [0.0, 0.6, 0.8]]))
    assert np.isnan(errors.geodesic) and errors.uncomputable == 1 and np.isnan(errors.ambient)
    fine = _errors(sphere, mean, np.array([[0.0, 0.6, 0.8], [0.0, 0.0, 2.0]]))
    assert fine.geodesic == pytest.approx(np.arccos(0.8) / 2) and fine.uncomputable == 0
    spd = make_manifold("spd")
    nan_release = _errors(spd, np.eye(2), np.array([np.eye(2), np.full((2, 2), np.nan)]))
    assert np.isnan(nan_release.geodesic) and nan_release.uncomputable == 1


def test_a_mean_beyond_the_uniqueness_radius_is_a_warning():
    assert convergence_check(True, 3, True) == []
    (found,) = convergence_check(True, 1, False)
    assert found.level == "warning" and found.title == "Fréchet mean not guaranteed unique"


def test_a_pipeline_prints_the_same_digits_whatever_blas_threads_its_process_has():
    # A notebook's kernel and the test's process printed Σ^50_2's fitted footpoint as -0.22082312689893233 and
    # -0.22082312689893235: OpenBLAS's two threads sum in another order than one. Every pipeline's run now
    # holds BLAS at one thread, so the process's own limit does not reach the numbers.
    config = private_regression.RegressionConfig(warmup=2, window=0, releases=1)
    with threadpool_limits(limits=2, user_api="blas"):
        two = json.dumps(private_regression.run(config).summary())
    with threadpool_limits(limits=1, user_api="blas"):
        one = json.dumps(private_regression.run(config).summary())
    assert one == two
