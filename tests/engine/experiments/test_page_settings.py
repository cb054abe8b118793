"""``python -m engine.experiments NAME --settings FILE`` takes a page's "Settings (JSON)" download when the
page's config maps onto the study; it refused every page file ("unknown key")."""

import dataclasses
import json
from argparse import Namespace

import pytest

from engine.experiments import __main__ as cli
from engine.experiments import load
from engine.experiments.protocol import make_config
from engine.pipelines import settings_file
from engine.pipelines.private_optimization import EIG_D, OptimizationConfig
from engine.pipelines.private_regression import RegressionConfig

OPTIMIZATION = {
    "dp-rgd-frechet": OptimizationConfig(app="barycenter", size=40, epsilon=0.5, eta=0.1, reps=3, seed=2),
    "dp-rgd-eigenvector": OptimizationConfig(app="eigenvector", size=2_000, eta=0.7, reps=3, seed=2),
    "dp-rgd-hyperbolic": OptimizationConfig(app="hyperbolic", data="balanced", size=4, eta=0.002, epsilon=0.5, reps=3, seed=2),
    "dp-rgd-matrix-completion": OptimizationConfig(app="lrmc", size=300, steps=40, batch=20, eta=0.1, reps=3,
                                                   seed=2),
}
REGRESSION = RegressionConfig(n=20, k=10, tau=0.08, epsilon_p=0.5, epsilon_v=1.0, scale="paper", warmup=20, seed=5)
#: What each study takes from the page's config, by the study's field names.
EXPECTED = {
    "dp-rgd-frechet": dict(metric="bures-wasserstein", epsilon=0.5, step_size=0.1, reps=3, seed=2),
    "dp-rgd-eigenvector": dict(datasets=("synthetic",), n=2_000, d=EIG_D, rgd_step=0.7, epsilon=None, reps=3),
    "dp-rgd-hyperbolic": dict(taxonomy="balanced", height=4, epsilon=0.5, private_step=0.002, reps=3),
    "dp-rgd-matrix-completion": dict(n=300, steps=40, batch_size=20, private_step_size=0.1, reps=3),
    "kulkarni-soto-fig1": dict(n=20, k=10, tau=0.08, scale="paper", warmup=20, seed=5),
    "kulkarni-soto-fig2": dict(n=20, k=10, tau=0.08, eps_p=0.5, eps_v=1.0, scale="paper", seed=5),
}


def _file(tmp_path, page: str, config, **extra) -> str:
    path = tmp_path / f"{page}-settings.json"
    path.write_text(json.dumps({**extra, **settings_file.payload(page, config)}))
    return str(path)


def _config(name: str, path: str):
    args = Namespace(settings=cli.Path(path), reps=None, seed=None)
    return cli._config(name, load(name), args)


@pytest.mark.parametrize("name", EXPECTED)
def test_a_page_file_becomes_the_studys_params(tmp_path, name):
    page, config = ("regression", REGRESSION) if name.startswith("kulkarni") else ("optimization", OPTIMIZATION[name])
    params = _config(name, _file(tmp_path, page, config))
    for field, value in EXPECTED[name].items():
        if value is not None:
            assert getattr(params, field) == (tuple(value) if isinstance(value, tuple) else value), field
    # The study keeps its own grid.
    defaults = make_config(load(name).Config, {})
    grid = {"dp-rgd-frechet": "ns", "dp-rgd-eigenvector": "epsilons"}.get(name)
    assert grid is None or getattr(params, grid) == getattr(defaults, grid)


def test_the_study_download_of_the_regression_page_runs_its_figure(tmp_path, capsys):
    """The Figure 1 tab's download is the page's config with its study named."""
    out = tmp_path / "out"
    path = _file(tmp_path, "regression", REGRESSION, study="kulkarni-soto-fig2")
    assert cli.main(["kulkarni-soto-fig2", "--settings", path, "--out", str(out), "--no-cache",
                     "--cache-dir", str(tmp_path / "cache")]) == 0
    written = json.loads((out / "kulkarni-soto-fig2-settings.json").read_text())
    assert {key: written[key] for key in EXPECTED["kulkarni-soto-fig2"]} == EXPECTED["kulkarni-soto-fig2"]


@pytest.mark.parametrize("name, page, config, quoted", [
    ("reimherr-fig1", "optimization", OptimizationConfig(),
     "which study 'reimherr-fig1' does not run; use `python -m engine.pipelines private-optimization --settings"),
    ("dp-rgd-hyperbolic", "optimization", OptimizationConfig(),
     "holds settings of the application 'frechet', which study 'dp-rgd-hyperbolic' does not run; use "
     "`python -m engine.experiments dp-rgd-frechet --settings"),
    ("dp-rgd-frechet", "regression", RegressionConfig(),
     "use `python -m engine.pipelines private-regression --settings"),
    ("kulkarni-soto-fig1", "playground", None, "use `python -m engine.pipelines private-mean --settings"),
])
def test_a_page_file_the_study_does_not_run_gets_one_line_naming_the_pipeline(tmp_path, capsys, name, page, config,
                                                                               quoted):
    from engine.pipelines import PrivateMeanConfig

    path = _file(tmp_path, page, config or PrivateMeanConfig())
    assert cli.main([name, "--settings", path, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and quoted in err
    assert not (tmp_path / "out").exists()


def test_a_bad_value_in_a_page_file_is_named(tmp_path, capsys):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({**settings_file.payload("regression", REGRESSION), "n": "twenty"}))
    assert cli.main(["kulkarni-soto-fig1", "--settings", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "key 'n' must be int, got \"twenty\"" in err


def test_every_mapping_names_only_fields_of_the_study():
    from engine.experiments.page_settings import STUDY_SETTINGS

    for (page, name), to_study in STUDY_SETTINGS.items():
        fields = {f.name for f in dataclasses.fields(load(name).Config)}
        assert set(to_study(REGRESSION if page == "regression" else OPTIMIZATION[name])) <= fields, name


def test_an_old_figure1_download_with_the_pages_address_keys_is_translated(tmp_path, capsys):
    """The Figure 1 tab's download held ``"study"`` and the page's address keys, which the study refused."""
    path = tmp_path / "kulkarni-soto-fig1-settings.json"
    path.write_text(json.dumps({"study": "kulkarni-soto-fig1", "reg_data": "callosum", "reg_n": 20, "reg_k": 10,
                                "reg_eps_p": 0.5, "reg_eps_v": 1.0, "reg_tau": 0.08, "reg_releases": 5,
                                "reg_paper_scale": True, "reg_clip": True, "reg_warmup": 20, "reg_seed": 5}))
    params = _config("kulkarni-soto-fig1", str(path))
    assert {key: getattr(params, key) for key in EXPECTED["kulkarni-soto-fig1"]} == EXPECTED["kulkarni-soto-fig1"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("note: ") and "reg_paper_scale" in err
