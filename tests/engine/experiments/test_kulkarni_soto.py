"""Studies kulkarni-soto-fig1 and -fig2 on small settings, their figures and the CLI entry."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from engine.experiments import STUDIES, load
from engine.experiments.__main__ import main


@pytest.mark.slow
def test_fig1_small_grid_has_the_paper_columns_and_table1_holds():
    study = load("kulkarni-soto-fig1")
    res = study.run(reps=8, n=30, k=12, unequal_eps_p=(0.5, 1.5), equal_totals=(1.0,), warmup=60, thin=2,
                    velocity_warmup=20, seed=1)
    curves = res["curves"]
    assert {"eps_p", "eps_v", "log_mean_energy", "family", "log_nonprivate_energy"} <= set(curves.columns)
    assert curves.family.tolist() == ["unequal", "unequal", "equal"]
    np.testing.assert_allclose(curves.eps_p + curves.eps_v, [2.02, 2.02, 1.0])
    assert (curves.log_mean_energy > curves.log_nonprivate_energy).all()
    sens = res["sensitivity"]
    assert (sens.ratio_p <= 1 + 1e-9).all() and (sens.ratio_v <= 1 + 1e-9).all()
    assert sens.set_index("neighbour").loc["adversarial", "ratio_p"] > 0.5
    assert set(study.figures(res)) == {"figure1-unequal", "figure1-equal"}


@pytest.mark.slow
def test_fig2_outlines_and_distances():
    study = load("kulkarni-soto-fig2")
    res = study.run(reps=2, n=30, k=12, seed=2)
    shapes = res["shapes"]
    assert set(shapes.source) == {"non-private", "private"}
    assert len(shapes) == (1 + 2) * 5 * 12
    assert (res["distances"].procrustes_distance >= 0).all()
    fig = study.figures(res)["predicted-shapes"]
    assert len(fig.data) == 10


def test_bad_settings_name_the_value():
    with pytest.raises(ValueError, match="unequal_eps_p values must lie"):
        load("kulkarni-soto-fig1").run(unequal_eps_p=(3.0,))
    with pytest.raises(ValueError, match="unknown setting 'colour'"):
        load("kulkarni-soto-fig2").run(colour="red")
    with pytest.raises(ValueError, match="ages must lie"):
        load("kulkarni-soto-fig2").run(ages=(50.0,))


def test_cli_lists_both_studies(capsys):
    assert {"kulkarni-soto-fig1", "kulkarni-soto-fig2"} <= set(STUDIES)
    assert main(["--list"]) == 0
    assert "kulkarni-soto-fig1" in capsys.readouterr().out


@pytest.mark.slow
def test_page_warmups_reach_the_law_of_the_cli_warmups():
    # The page's Figure 1 tab runs 100 footpoint and 20 shooting-vector warm-up steps instead of the CLI's 400 and
    # 60 (ui.regression.compute). Both must give the same curve at the paper's settings (Σ^50_2, n = 100) on the same
    # data set (drawn from the seed): the ln Ē of 20 pairs per split agree within their spread, and so do the
    # footpoints' distances from the fit.
    from ui.regression.compute import PAGE_PAIRS, PAGE_VELOCITY_WARMUP, PAGE_WARMUP

    splits = dict(unequal_eps_p=(0.02, 2.0), equal_totals=(0.6, 2.0))
    page = load("kulkarni-soto-fig1").run(reps=PAGE_PAIRS, warmup=PAGE_WARMUP, velocity_warmup=PAGE_VELOCITY_WARMUP,
                                          seed=0, **splits)["curves"]
    cli = load("kulkarni-soto-fig1").run(reps=PAGE_PAIRS, seed=0, **splits)["curves"]
    np.testing.assert_allclose(page.log_mean_energy, cli.log_mean_energy, atol=0.03)
    np.testing.assert_allclose(page.mean_distance_footpoint, cli.mean_distance_footpoint, atol=0.01)
    assert (page.rhat_footpoint < 1.05).all()


@pytest.mark.parametrize("name, settings, tables", [
    ("kulkarni-soto-fig1", {"n": 20, "k": 8, "warmup": 20, "velocity_warmup": 5, "unequal_eps_p": [1.0],
                            "equal_totals": [1.0]}, ("curves", "sensitivity")),
    ("kulkarni-soto-fig2", {"n": 20, "k": 8}, ("shapes", "distances")),
])
def test_both_studies_run_from_the_command_line(tmp_path, name, settings, tables):
    file, out = tmp_path / "settings.json", tmp_path / "out"
    file.write_text(json.dumps(settings))
    done = subprocess.run([sys.executable, "-m", "engine.experiments", name, "--reps", "2", "--settings", str(file),
                           "--out", str(out), "--cache-dir", str(tmp_path / "cache")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for table in tables:
        assert len(pd.read_csv(out / f"{name}-{table}.csv")) > 0
    assert json.loads((out / f"{name}-settings.json").read_text())["reps"] == 2
