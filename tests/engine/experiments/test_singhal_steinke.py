"""The three Singhal & Steinke studies on the study protocol: tidy tables, the CLI, determinism, bad settings."""

import json

import pandas as pd
import pytest

from engine.experiments import STUDIES, load, runner
from engine.experiments import __main__ as cli
from engine.experiments.protocol import make_config
from engine.experiments.singhal_steinke import RELEASE_COLUMNS

NAMES = ["singhal-steinke-dimension", "singhal-steinke-gap", "singhal-steinke-robust"]
#: Small grids: (settings, number of settings in the grid, the column the grid varies).
SMALL = {
    "singhal-steinke-dimension": ({"dimensions": [5, 300], "sample_sizes": [80], "reps": 3, "block": 2,
                                   "methods": ["singhal-steinke-exact", "singhal-steinke-approx", "non-private"]},
                                  2, "d"),
    "singhal-steinke-gap": ({"noises": [0.0, 1e-3], "d": 6, "n": 80, "reps": 2,
                             "methods": ["singhal-steinke-exact", "analyze-gauss", "bingham"]}, 2, "noise"),
    "singhal-steinke-robust": ({"outliers": [0, 3], "d": 6, "n": 80, "reps": 2,
                                "methods": ["singhal-steinke-exact", "non-private"]}, 2, "outliers"),
}


def assert_same_tables(a: dict, b: dict):
    assert list(a) == list(b)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)


@pytest.mark.parametrize("name", NAMES)
def test_studies_follow_the_protocol(name):
    study = load(name)
    assert name in STUDIES
    for attribute in ("Config", "tasks", "combine", "figures", "run"):
        assert callable(getattr(study, attribute))
    params = make_config(study.Config, SMALL[name][0])
    keys = [task.key for task in study.tasks(params)]
    assert len(keys) == len(set(keys))
    assert keys == [task.key for task in study.tasks(make_config(study.Config, SMALL[name][0]))]


@pytest.mark.parametrize("name", NAMES)
def test_small_grids_give_tidy_tables(name):
    settings, cells, column = SMALL[name]
    study = load(name)
    calls = []
    out = study.run(progress=calls.append, **settings)
    releases, summary = out["releases"], out["summary"]
    assert tuple(releases.columns) == RELEASE_COLUMNS
    assert len(releases) == cells * len(settings["methods"]) * settings["reps"]
    assert releases[column].nunique() == cells
    assert set(releases.method) == set(settings["methods"])
    assert releases.groupby([column, "method"]).repeat.apply(sorted).map(list).eq(
        [list(range(settings["reps"]))] * (cells * len(settings["methods"]))).all()
    assert len(summary) == cells * len(settings["methods"])
    assert summary.success.between(0, 1).all() and (summary.reps == settings["reps"]).all()
    assert calls[-1] == 1.0
    assert set(study.figures(out)) == {f"success-d-{d}" for d in releases.d.unique()}


def test_exact_case_ignores_d_and_small_n_is_marked():
    out = load("singhal-steinke-dimension").run(**SMALL["singhal-steinke-dimension"][0])
    releases = out["releases"]
    exact = releases[releases.method == "singhal-steinke-exact"]
    assert exact.success.all() and (exact.proj_error < 1e-3).all()
    approx = releases[releases.method == "singhal-steinke-approx"]
    assert (approx.status == "n-too-small").all() and not approx.success.any() and approx.proj_error.isna().all()


def test_noise_breaks_the_exact_case_but_not_the_baselines():
    """Algorithm 1 needs points exactly in U: at noise 1e-3 it answers ⊥ (never a wrong subspace)."""
    releases = load("singhal-steinke-gap").run(**SMALL["singhal-steinke-gap"][0])["releases"]
    exact = releases[releases.method == "singhal-steinke-exact"].set_index("noise")
    assert exact.loc[0.0].success.all()
    assert exact.loc[1e-3].bottom.all()


def test_a_refused_exact_release_is_a_failed_row_not_a_crash():
    """At noise 1e-10 Algorithm 1 still finds U, but its δ term would exceed δ/20 (``fitted_subspace``)."""
    settings = {**SMALL["singhal-steinke-gap"][0], "noises": [0.0, 1e-10], "methods": ["singhal-steinke-exact"]}
    releases = load("singhal-steinke-gap").run(**settings)["releases"].set_index("noise")
    assert (releases.loc[0.0].status == "ok").all() and releases.loc[0.0].success.all()
    refused = releases.loc[1e-10]
    assert (refused.status == "refused").all() and not refused.success.any() and refused.proj_error.isna().all()


def test_same_seed_same_tables_and_task_order_does_not_matter():
    study = load("singhal-steinke-robust")
    params = make_config(study.Config, SMALL["singhal-steinke-robust"][0])
    first = runner.run(study, params)
    assert_same_tables(first, runner.run(study, params))
    tasks = study.tasks(params)
    backwards = runner.execute(tasks[::-1], params.seed)[::-1]
    assert_same_tables(first, study.combine(params, backwards))
    other = runner.run(study, make_config(study.Config, {**SMALL["singhal-steinke-robust"][0], "seed": 1}))
    assert not other["releases"].equals(first["releases"])


@pytest.mark.slow
def test_two_workers_equal_the_in_process_run():
    study = load("singhal-steinke-dimension")
    params = make_config(study.Config, SMALL["singhal-steinke-dimension"][0])
    assert_same_tables(runner.run(study, params), runner.run(study, params, workers=2))


def test_cli_writes_the_tables_and_figures(tmp_path, capsys):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({**SMALL["singhal-steinke-dimension"][0], "reps": 2}))
    out = tmp_path / "out"
    assert cli.main(["singhal-steinke-dimension", "--settings", str(settings), "--seed", "3", "--out", str(out),
                     "--no-cache", "--cache-dir", str(tmp_path / "cache")]) == 0
    written = sorted(path.name for path in out.iterdir())
    assert written == ["singhal-steinke-dimension-releases.csv", "singhal-steinke-dimension-settings.json",
                       "singhal-steinke-dimension-success-d-300.html",
                       "singhal-steinke-dimension-success-d-5.html", "singhal-steinke-dimension-summary.csv"]
    releases = pd.read_csv(out / "singhal-steinke-dimension-releases.csv")
    assert tuple(releases.columns) == RELEASE_COLUMNS and len(releases) == 2 * 3 * 2
    assert "wrote 2 tables" in capsys.readouterr().out


def test_cli_refuses_a_bad_setting_in_one_line(tmp_path, capsys):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"d": 2, "k": 2}))
    out = tmp_path / "out"
    assert cli.main(["singhal-steinke-gap", "--settings", str(settings), "--out", str(out), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "d must be > k = 2" in err and "got 2" in err
    assert not out.exists()


@pytest.mark.parametrize("name, settings, message", [
    ("singhal-steinke-gap", {"methods": ["pca"]}, "method must be one of"),
    ("singhal-steinke-gap", {"methods": []}, "setting .methods. is empty; give at least one value"),
    ("singhal-steinke-dimension", {"dimensions": [2]}, r"dimensions must be > k = 2 \(a proper subspace\), got 2"),
    ("singhal-steinke-dimension", {"sample_sizes": []}, "setting .sample_sizes. is empty; give at least one value"),
    ("singhal-steinke-dimension", {"delta": 1.5}, r"delta must lie in \(0, 1\), got 1.5"),
    ("singhal-steinke-robust", {"n": 10, "outliers": [0, 11]}, "outliers must be <= n = 10, got 11"),
    ("singhal-steinke-robust", {"ell": 3}, "unknown setting 'ell'"),
])
def test_bad_settings_are_refused(name, settings, message):
    with pytest.raises(ValueError, match=message):
        load(name).run(**settings)
