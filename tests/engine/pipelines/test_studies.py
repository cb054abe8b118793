"""``engine.pipelines.studies``: the registry's entry for a study and its runner, as the pages use them."""

import pandas as pd
import pytest

from engine import experiments
from engine.experiments import dp_rgd_frechet, reimherr_fig1, runner
from engine.pipelines.studies import run, study


def test_every_registered_study_has_an_entry_with_its_description():
    for name, (_, description) in experiments.STUDIES.items():
        entry = study(name)
        assert (entry.name, entry.description) == (name, description)
        assert entry.module is experiments.load(name)


def test_an_unknown_study_or_setting_is_named():
    with pytest.raises(ValueError, match="unknown study 'dp-rgd-sphere'; known: reimherr-fig1"):
        study("dp-rgd-sphere")
    with pytest.raises(ValueError, match="unknown setting 'epsilon'"):
        study("dp-rgd-eigenvector").config(epsilon=0.1)
    with pytest.raises(ValueError, match="has no setting 'grid'; known: reps, seed"):
        study("dp-rgd-frechet").default("grid")


def test_config_defaults_and_colours_are_the_studys_own():
    config = study("dp-rgd-frechet").config(reps=3, ns=[20, 40])
    assert config == dp_rgd_frechet.Config(reps=3, ns=(20, 40))
    assert study("dp-rgd-frechet").default("ns") == dp_rgd_frechet.NS
    assert dict(study("dp-rgd-frechet").colors) == dp_rgd_frechet.COLORS
    assert dict(study("reimherr-fig1").colors) == {}


def test_run_reuses_the_shared_disk_cache_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("MPE_CACHE_DIR", str(tmp_path))
    config = study("reimherr-fig1").config(reps=4, seed=2, ns=[10], block=2)
    direct = runner.run("reimherr-fig1", config)
    uncached = run("reimherr-fig1", config, shared_cache=False)
    assert list(tmp_path.iterdir()) == []
    cached = run("reimherr-fig1", config)
    assert len(list(tmp_path.iterdir())) == 1
    monkeypatch.setattr(reimherr_fig1, "tasks", lambda config: pytest.fail("should come from the cache"))
    for tables in (uncached, cached, run("reimherr-fig1", config)):
        pd.testing.assert_frame_equal(tables["summary"], direct["summary"], check_exact=True)
