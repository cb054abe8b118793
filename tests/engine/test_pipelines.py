"""The private-mean pipeline: deterministic, the same numbers from a notebook, the CLI and the page."""

import json

import numpy as np
import pytest

from engine.pipelines import PrivateMeanConfig, run
from engine.pipelines.__main__ import main

CONFIG = PrivateMeanConfig(space="sphere", n=50, epsilon=1.0, seed=0, mechanisms=("exact", "euclid", "gauss"))


def test_run_is_deterministic_for_a_seed_and_changes_with_it():
    a, b = run(CONFIG), run(CONFIG)
    for x, y in zip(a.runs, b.runs):
        np.testing.assert_array_equal(x.releases, y.releases)
    other = run(PrivateMeanConfig(**{**CONFIG.__dict__, "seed": 1}))
    assert not np.array_equal(a.runs[0].releases, other.runs[0].releases)


def test_cli_prints_the_notebook_numbers(capsys):
    assert main(["private-mean", "--space", "sphere", "--n", "50", "--eps", "1", "--seed", "0",
                 "--mechanisms", "exact,euclid,gauss", "--json"]) == 0
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


def test_records_outside_the_ball_are_refused_by_default_and_clipped_on_request():
    loose = dict(space="sphere", source="vmf", n=200, radius=0.1, seed=3)
    with pytest.raises(ValueError, match="outside the public ball"):
        run(PrivateMeanConfig(**loose))
    clipped = run(PrivateMeanConfig(**loose, outside="clip"))
    assert clipped.checks[1].level == "warning" and "clipped" in clipped.checks[1].title


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
    changed["runs"][0]["releases"][0] = np.nan
    page = private_means(CONFIG)
    assert not np.isnan(page["runs"][0]["releases"][0]).any()
    notebook = run(CONFIG)
    for shown, ran in zip(page["runs"], notebook.runs):
        np.testing.assert_array_equal(shown["releases"], ran.releases)
        assert shown["guarantee"] == notebook.summary()["mechanisms"][[r.key for r in notebook.runs].index(ran.key)][
            "guarantee"]
    assert [c["title"] for c in page["checks"]] == [c.title for c in notebook.checks]
