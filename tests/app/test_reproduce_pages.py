"""The Sensitivity, Utility, Private subspaces, Private optimization, Private regression, Samplers, Audit and Lesson pages' settings downloads are their pipelines' configs, their "Reproduce this
view" shows the command for them, and that command prints the page's numbers (the playground's are in
``playground/test_download.py``)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from engine import reproduce
from engine.pipelines import settings_file
from engine.pipelines.__main__ import main
from engine.pipelines.audit import AuditConfig
from engine.pipelines.private_optimization import APP_DEFAULTS, OptimizationConfig
from engine.pipelines.private_regression import RegressionConfig
from engine.pipelines.private_subspace import PrivateSubspaceConfig
from engine.pipelines.sampler_comparison import SamplerComparisonConfig
from engine.pipelines.sensitivity import SensitivityConfig
from engine.pipelines.utility import N_GRIDS, UtilityConfig
from tests.app.conftest import ROOT, downloaded, run_page
from ui.lesson.steps import STEPS
from ui.optimization.apps import APPS

SENSITIVITY = ROOT / "pages" / "2_Sensitivity.py"
UTILITY = ROOT / "pages" / "3_Utility.py"
SUBSPACES = ROOT / "pages" / "7_Private_subspaces.py"
SAMPLERS = ROOT / "pages" / "4_Samplers.py"
AUDIT = ROOT / "pages" / "8_Audit.py"
LESSON = ROOT / "pages" / "9_Lesson.py"


def _mechanism(printed: dict, key: str) -> dict:
    (run,) = [run for run in printed["mechanisms"] if run["key"] == key]
    return run


def _final_loss(printed: dict, method: str) -> float:
    (row,) = [row for row in printed["final"] if row["method"] == method]
    return row["mean_loss"]


#: Per lesson step, the numbers of the pipeline's --json that its revealed answer prints, as it prints them.
LESSON_NUMBERS = {
    "One record moves the mean": lambda p: [f"Theorem 2's bound is {p['theorem2']['delta']:.4f}"],
    "How far the noise goes": lambda p: [f"land {_mechanism(p, 'exact')['errors']['geodesic']:.4f} from the mean",
                                         f"Δ = {_mechanism(p, 'exact')['sensitivity']:.4f}"],
    "Flat noise on covariance matrices": lambda p: [
        f"{_mechanism(p, 'euclid')['errors']['off_share']:.0%} of the Euclidean"],
    "On a sphere cap: which noise lands closer?": lambda p: [
        f"{_mechanism(p, key)['errors']['geodesic']:.3g}" for key in ("exact", "euclid")],
    "On covariance matrices: which noise lands closer?": lambda p: [
        f"{_mechanism(p, key)['errors']['geodesic']:.3g}" for key in ("exact", "euclid")],
    "The guarantee, audited: which data set?": lambda p: [],
    "Beyond means: regression": lambda p: [
        f"on average {pd.DataFrame(p['energies'])['footpoint_distance'].mean() / p['ball_radius']:.0%} of the public"],
    "Beyond means: optimisation": lambda p: [
        f"After {p['steps']} steps",
        f"{_final_loss(p, 'dp-rgd'):.3g} against {_final_loss(p, 'non-private'):.3g} without privacy"],
    "Beyond means: subspaces": lambda p: [
        f"{np.mean([not b and e <= p['config']['alpha'] for b, e in zip(p['bottom'], p['proj_error'])]):.0%} of "
        f"{p['config']['releases']} releases"],
}
#: The key of the "Settings (JSON)" download of each page a lesson step links to.
SETTINGS_DOWNLOAD = {"sensitivity": "sensitivity-vs-n", "playground": "", "audit": "audit-",
                     "subspaces": "dl-json-subspaces-exact", "regression": "regression-drift",
                     "optimization": "optimization-loss"}


def test_the_settings_file_and_the_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``r_sphere``, ``kappa_sphere``, ``log``), which no command line took."""
    at = run_page(SENSITIVITY, {"space": "spd", "r_spd": "1.2", "n": "30", "reps": "20", "seed": "3"})
    config = SensitivityConfig(space="spd", radius=1.2, kappa=0.0, n=30, reps=20, seed=3)
    file = tmp_path / "sensitivity-vs-n-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "sensitivity-vs-n"))
    assert json.loads(file.read_text()) == settings_file.payload("sensitivity", config)
    assert main(["sensitivity", "--settings", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert f"{printed['largest']:.4g}" in [m.value for m in at.metric]
    view = reproduce.VIEWS["sensitivity"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Notebook (.ipynb)").decode() == reproduce.notebook(view, config)


def test_utility_settings_file_and_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``r_sphere``, ``ngrid``, ``log``, ``target``, ...); the command
    line's default of ``reps`` (100) was not the page's (200)."""
    at = run_page(UTILITY, {"n": "30", "reps": "20", "eps": "2", "seed": "5"})
    config = UtilityConfig(n=30, reps=20, epsilon=2.0, seed=5)
    assert UtilityConfig().reps == 200 and config.ns == N_GRIDS["quick"]
    file = tmp_path / "utility-vs-n-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "utility-vs-n"))
    assert json.loads(file.read_text()) == settings_file.payload("utility", config)
    assert downloaded(at, media_managers, "Settings (JSON)", "utility-vs-eps") == file.read_bytes()
    assert main(["utility", "--settings", str(file), "--json"]) == 0
    printed = pd.DataFrame(json.loads(capsys.readouterr().out)["by_n"])
    page = pd.read_csv(io.BytesIO(downloaded(at, media_managers, "Data (CSV)", "utility-vs-n")))
    assert len(printed) == len(page) > 0
    for column in ("sigma", "mean_error", "se"):
        np.testing.assert_allclose(printed[column], page[column], rtol=1e-15)
    view = reproduce.VIEWS["utility"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Script (.py)").decode() == reproduce.script(view, config)


def test_subspaces_settings_file_and_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``shape``, ``eps``), which the command line does not take."""
    at = run_page(SUBSPACES, {"method": "analyze-gauss", "n": "500", "releases": "20", "seed": "2"})
    config = PrivateSubspaceConfig(method="analyze-gauss", n=500, releases=20, seed=2)
    file = tmp_path / "subspaces-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "subspaces-analyze-gauss"))
    assert json.loads(file.read_text()) == settings_file.payload("subspaces", config)
    assert main(["private-subspace", "--settings", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    errors = [e for e, bottom in zip(printed["proj_error"], printed["bottom"]) if not bottom]
    shown = {m.label: m.value for m in at.metric}
    assert shown["Error"] == f"{np.median(errors):.2f}" and shown["Success"] == f"{printed['success_rate']:.0%}"
    view = reproduce.VIEWS["subspaces"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Notebook (.ipynb)").decode() == reproduce.notebook(view, config)


OPTIMIZATION = ROOT / "pages" / "5_Private_optimization.py"
REGRESSION = ROOT / "pages" / "6_Private_regression.py"


def test_optimization_settings_file_and_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``n_frechet``, ``eps``, ``eta_frechet``, ``Trule``); no command ran the
    page's DP-RGD run."""
    at = run_page(OPTIMIZATION, {"n_frechet": "40", "eps": "0.5", "reps": "2", "seed": "3"})
    config = OptimizationConfig(size=40, epsilon=0.5, reps=2, seed=3)
    file = tmp_path / "optimization-loss-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "optimization-loss"))
    assert json.loads(file.read_text()) == settings_file.payload("optimization", config)
    assert main(["private-optimization", "--settings", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    shown = {m.label: m.value for m in at.metric}
    assert shown["Noise σ"] == f"{printed['info']['sigma']:.4g}"
    assert shown["ε spent (accountant)"] == f"{printed['info']['epsilon_spent']:.4g}"
    assert shown["Iterations T"] == str(printed["steps"])
    page = pd.read_csv(io.BytesIO(downloaded(at, media_managers, "Data (CSV)", "optimization-loss")))
    last = page[page["iteration"] == page["iteration"].max()].groupby("method", sort=False)["excess_loss"].mean()
    np.testing.assert_allclose([row["mean_loss"] for row in printed["final"]], last.to_numpy(), rtol=1e-12)
    view = reproduce.VIEWS["optimization"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Notebook (.ipynb)").decode() == reproduce.notebook(view, config)


def test_optimization_defaults_per_application_are_the_engines():
    """The command line's ``--app NAME`` takes the page's sliders' defaults for that application."""
    for app, spec in APPS.items():
        defaults = APP_DEFAULTS[app]
        assert (spec.size.default, spec.eta.default, spec.batch) == \
            (defaults["size"], defaults["eta"], defaults["batch"]), app
        assert spec.rule is not None or spec.steps.default == defaults["steps"], app


def test_regression_settings_file_and_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``reg_eps_p``, ``reg_paper_scale``), which the command line does not take;
    the Figure 1 download named its study but held the same address keys, which the study refused."""
    at = run_page(REGRESSION, {"reg_n": "20", "reg_k": "10", "reg_releases": "2", "reg_warmup": "100",
                               "reg_paper_scale": "true", "reg_seed": "4"})
    config = RegressionConfig(n=20, k=10, releases=2, warmup=100, scale="paper", seed=4)
    file = tmp_path / "regression-callosum-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "regression-callosum"))
    assert json.loads(file.read_text()) == settings_file.payload("regression", config)
    assert main(["private-regression", "--settings", str(file), "--json"]) == 0
    printed = pd.DataFrame(json.loads(capsys.readouterr().out)["energies"])
    page = pd.read_csv(io.BytesIO(downloaded(at, media_managers, "Data (CSV)", "regression-callosum")))
    assert len(printed) == len(page) == 2
    for column in ("energy_private", "energy_nonprivate", "footpoint_distance"):
        np.testing.assert_allclose(printed[column], page[column], rtol=1e-12)
    view = reproduce.VIEWS["regression"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Script (.py)").decode() == reproduce.script(view, config)


def test_samplers_settings_file_and_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``adapt``, ``burn``), which no command line took; the page had no
    pipeline on the command line."""
    at = run_page(SAMPLERS, {"space": "hyperbolic", "sigma": "0.7", "adapt": "false", "step": "0.8", "burn": "100",
                             "thin": "2", "draws": "50", "chains": "4", "seed": "3"})
    config = SamplerComparisonConfig(space="hyperbolic", sigma=0.7, step=0.8, burn_in=100, thin=2, draws=50, chains=4,
                                     seed=3)
    file = tmp_path / "samplers-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "samplers-trace"))
    assert json.loads(file.read_text()) == settings_file.payload("samplers", config)
    assert downloaded(at, media_managers, "Settings (JSON)", "samplers-exact-radii") == file.read_bytes()
    assert main(["samplers", "--settings", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    shown = {m.label: m.value for m in at.metric}
    assert shown["KS distance, exact"] == f"{printed['ks_exact']:.3f}"
    assert shown["KS distance, MH"] == f"{printed['ks_mh']:.3f}"
    assert shown["MH effective sample size"] == f"{printed['ess']:.0f}"
    assert shown["MH acceptance"] == f"{100 * printed['acceptance']:.0f}%"
    view = reproduce.VIEWS["samplers"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Notebook (.ipynb)").decode() == reproduce.notebook(view, config)


def test_audit_settings_file_and_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``eps``), and the page's audit with its control was no one command:
    ``python -m engine.audit`` runs one audit, in batches other than the page's, with no ``--settings``."""
    at = run_page(AUDIT, {"audit": "kng", "space": "spd", "eps": "2.0", "seed": "1",
                          "control": "control-theorem2-no-factor"})
    config = AuditConfig(audit="kng", space="spd", epsilon=2.0, seed=1, control="control-theorem2-no-factor")
    assert config.control_space == "sphere"
    file = tmp_path / "audit-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "audit-kng-spd"))
    assert json.loads(file.read_text()) == settings_file.payload("audit", config)
    assert main(["audit", "--settings", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    verdicts = [box.value for box in (*at.success, *at.error)]
    for which in ("audit", "control"):
        assert any(f"ε ≥ {printed[which]['epsilon_lower']:.3f}" in text for text in verdicts), (which, verdicts)
    shown = at.table[0].value
    assert [list(row) for row in shown.iloc[:, [0, -1]].to_numpy()] == \
        [[printed[which]["audit"], printed[which]["verdict"]] for which in ("audit", "control")]
    view = reproduce.VIEWS["audit"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Script (.py)").decode() == reproduce.script(view, config)


@pytest.mark.parametrize("number", range(1, len(STEPS) + 1))
def test_lesson_step_settings_file_and_command_give_the_steps_numbers(media_managers, tmp_path, capsys, number):
    """The Lesson had no way out of the app: no command, notebook or settings file for a step. The step's file
    is also the one the page its link opens downloads."""
    step = STEPS[number - 1]
    page, config = step.reproduction
    view = reproduce.VIEWS[page]
    at = run_page(LESSON, {"step": str(number)})
    file = tmp_path / f"lesson-step-{number}-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", f"lesson-step-{number}"))
    assert json.loads(file.read_text()) == settings_file.payload(page, config)
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Notebook (.ipynb)").decode() == reproduce.notebook(view, config)
    assert main([view.pipeline, "--settings", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    _, numbers = step.answer()
    for shown in LESSON_NUMBERS[step.title](printed):
        assert shown in numbers, (shown, numbers)
    linked = run_page(ROOT / step.page, step.params)
    assert downloaded(linked, media_managers, "Settings (JSON)", SETTINGS_DOWNLOAD[page]) == file.read_bytes()
