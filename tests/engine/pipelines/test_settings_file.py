"""A page's settings file is the pipeline's config: ``python -m engine.pipelines NAME --settings FILE``."""

import dataclasses
import json

import pytest

from engine.audit import AUDITS
from engine.pipelines import PrivateMeanConfig, sampler_comparison, settings_file
from engine.pipelines.__main__ import PIPELINES, main
from engine.pipelines.private_optimization import OptimizationConfig
from engine.pipelines.private_regression import RegressionConfig


def _summary(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _as_json(config) -> dict:
    return json.loads(json.dumps(dataclasses.asdict(config)))


def test_the_file_is_the_config_and_runs_what_it_says(tmp_path, capsys):
    config = PrivateMeanConfig(space="spd", source="wishart", n=30, radius=1.2, mechanisms=("exact", "gauss"),
                               releases=40, seed=7)
    file = tmp_path / "playground-settings.json"
    file.write_text(json.dumps(settings_file.payload("playground", config)))
    payload = json.loads(file.read_text())
    assert payload["page"] == "playground" and payload["schema"] == 1
    assert set(payload) - {"page", "schema"} == {f.name for f in dataclasses.fields(PrivateMeanConfig)}
    assert _summary(capsys, "private-mean", "--settings", str(file))["config"] == _as_json(config)
    overridden = _summary(capsys, "private-mean", "--settings", str(file), "--seed", "8", "--eps", "2")["config"]
    assert overridden == {**_as_json(config), "seed": 8, "epsilon": 2.0}


def test_the_command_line_defaults_are_the_pages(capsys):
    """The CLI refused records outside the ball by default while the page clipped them (and k, δ and the
    airports' region differed as well)."""
    config = _summary(capsys, "private-mean")["config"]
    assert config == _as_json(PrivateMeanConfig())
    assert (config["outside"], config["k"], config["delta"], config["region"], config["thin"]) == \
        ("clip", 8, 1e-3, "CA", 25)


def test_every_pipeline_reads_its_own_page_file(tmp_path):
    for name, pipeline in PIPELINES.items():
        file = tmp_path / f"{name}.json"
        file.write_text(json.dumps(settings_file.payload(pipeline.page, pipeline.config())))
        assert settings_file.read(file, pipeline.config, pipeline.page) == dataclasses.asdict(pipeline.config())


@pytest.mark.parametrize("content, quoted", [
    (None, "does not exist; give the path of the page's \"Settings (JSON)\" download"),
    ("{\"n\": 40,", "is not JSON"),
    ("[1, 2]", "holds a JSON list, not an object"),
    (json.dumps({"page": "utility", "n": 40}), "holds the settings of the 'utility' page, not of 'playground'"),
    (json.dumps({"page": "playground", "schema": 2}), "\"schema\": 2, this engine reads schema 1"),
    (json.dumps({"colour": 0.3}), "unknown key 'colour'; the keys of 'playground' are space, source, n, radius"),
    (json.dumps({"radious": 0.3}), "unknown key 'radious'; did you mean 'radius'?"),
    (json.dumps({"n": "40"}), "key 'n' must be int, got \"40\"; write it like the default, 50"),
    (json.dumps({"n": 40.5}), "key 'n' must be int, got 40.5"),
    (json.dumps({"mechanisms": "exact"}), "key 'mechanisms' must be a list of str, got \"exact\"; write it like "
                                          "the default, [\"exact\", \"euclid\"]"),
    (json.dumps({"step": "fast"}), "key 'step' must be float or null, got \"fast\""),
    (json.dumps({"n": True}), "key 'n' must be int, got true"),
    (json.dumps({"n": 1}), "n must be an integer >= 2, got 1"),
])
def test_a_bad_file_is_refused_in_one_line_naming_the_key(tmp_path, capsys, content, quoted):
    file = tmp_path / "settings.json"
    if content is not None:
        file.write_text(content)
    assert main(["private-mean", "--settings", str(file), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and quoted in captured.err


def _translated(tmp_path, capsys, pipeline: str, old: dict) -> tuple[dict, str]:
    """The config ``--json`` prints for the old download ``old`` of the pipeline's page, and stderr."""
    file = tmp_path / "old-settings.json"
    file.write_text(json.dumps(old))
    assert main([pipeline, "--settings", str(file), "--json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out)["config"], captured.err


def test_an_old_playground_download_with_address_keys_is_translated_with_one_note(tmp_path, capsys):
    """The playground's download held its address keys until the schema; such a file was refused."""
    old = {"space": "sphere", "source": "cap", "n": 40, "r": 0.3927, "outside": "clip", "eps": 2.0,
           "mech": ["exact", "euclid"], "m": 200, "seed": 4, "adapt": True}
    config, err = _translated(tmp_path, capsys, "private-mean", old)
    assert config == _as_json(PrivateMeanConfig(n=40, radius=0.3927, epsilon=2.0, releases=200, seed=4))
    assert err.count("\n") == 1 and err.startswith("note: ") and "older download" in err
    assert "r, eps, mech, m, adapt" in err


def test_an_old_regression_download_is_translated_with_its_scale_toggle(tmp_path, capsys):
    old = {"reg_data": "drift", "reg_n": 30, "reg_eps_p": 0.5, "reg_eps_v": 1.0, "reg_tau": 0.3, "reg_releases": 2,
           "reg_paper_scale": True, "reg_clip": False, "reg_warmup": 100, "reg_seed": 3}
    config, err = _translated(tmp_path, capsys, "private-regression", old)
    assert config == _as_json(RegressionConfig(dataset="drift", n=30, epsilon_p=0.5, epsilon_v=1.0, tau=0.3,
                                               releases=2, scale="paper", clip_residuals=False, warmup=100, seed=3))
    assert err.count("\n") == 1 and "reg_paper_scale" in err


def test_an_old_optimization_download_keeps_only_its_applications_sliders(tmp_path, capsys):
    """Each application has its own size, T, batch and step sliders (``n_frechet``, ``eta_lrmc``)."""
    old = {"app": "frechet", "n_frechet": 40, "eps": 0.5, "delta": 1e-3, "noise": "calibrated", "Trule": False,
           "T_frechet": 30, "b_frechet": 0, "eta_frechet": 0.1, "eta_lrmc": 0.2, "reps": 2, "seed": 1,
           "grid": "quick", "burn": 200, "opt_view": "Study"}
    config, err = _translated(tmp_path, capsys, "private-optimization", old)
    assert config == _as_json(OptimizationConfig(size=40, epsilon=0.5, steps=30, eta=0.1, reps=2, seed=1))
    assert err.count("\n") == 1


def test_an_unknown_key_in_an_old_download_is_still_refused_in_one_line(tmp_path, capsys):
    file = tmp_path / "old-settings.json"
    file.write_text(json.dumps({"space": "sphere", "r": 0.3, "colour": "red"}))
    assert main(["private-mean", "--settings", str(file), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("error: ") and "unknown key 'colour'" in captured.err


@pytest.mark.parametrize("pipeline, settings, quoted", [
    ("samplers", {"page": "audit"}, "holds the settings of the 'audit' page, not of 'samplers'"),
    ("samplers", {"burn": 100}, "unknown key 'burn'; did you mean 'burn_in'?"),
    ("samplers", {"step": "adapt"}, "key 'step' must be float or null, got \"adapt\""),
    ("samplers", {"space": "euclidean"}, f"space must be one of {', '.join(sampler_comparison.SPACES)}, got "
                                         "'euclidean'"),
    ("audit", {"page": "samplers"}, "holds the settings of the 'samplers' page, not of 'audit'"),
    ("audit", {"eps": 2.0}, "unknown key 'eps'; did you mean 'epsilon'?"),
    ("audit", {"samples": "20000"}, "key 'samples' must be int or null, got \"20000\"; write a bare int (no quotes) or null"),
    ("audit", {"audit": "dp-rgd", "space": "sphere"}, f"space must be one of {', '.join(AUDITS['dp-rgd'].spaces)} "
                                                      "for audit 'dp-rgd', got 'sphere'"),
    ("audit", {"control": "laplace"}, "control must be one of control-half-noise, "),
])
def test_the_samplers_and_audit_pages_files_are_checked_alike(tmp_path, capsys, pipeline, settings, quoted):
    """The Samplers and Audit pages' downloads were address keys that no command read."""
    file = tmp_path / "settings.json"
    file.write_text(json.dumps({"page": PIPELINES[pipeline].page, "schema": 1, **settings}))
    assert main([pipeline, "--settings", str(file), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and quoted in captured.err
