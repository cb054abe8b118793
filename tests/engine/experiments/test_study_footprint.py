"""Size settings are bounded by the memory they need, estimated before anything is allocated."""

import subprocess
import sys

import pytest

from engine.budget import physical_memory
from engine.experiments import STUDIES, load
from engine.experiments.protocol import check_footprint, make_config


def test_reps_beyond_the_memory_are_refused_in_one_line_before_the_run(tmp_path):
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "engine.experiments", "reimherr-fig1", "--reps", str(10 ** 23),
                           "--out", str(out), "--cache-dir", str(tmp_path / "cache")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: these settings of "), done.stderr
    assert "reps = 1e+23" in done.stderr and "lower the sizes named there" in done.stderr
    assert not out.exists()


#: One size setting of each study far beyond any memory, and the words naming it in the refusal.
TOO_LARGE = {
    "reimherr-fig1": ({"ns": [10 ** 12], "reps": 10}, "n = 1e+12"),
    "dp-rgd-eigenvector": ({"n": 10 ** 12}, "n = 1e+12"),
    "dp-rgd-frechet": ({"ns": [10 ** 13], "block": 10 ** 3}, "n = 1e+13"),
    "dp-rgd-hyperbolic": ({"height": 60}, "height = 60"),
    "dp-rgd-matrix-completion": ({"n": 10 ** 12}, "n = 1e+12"),
    "kulkarni-soto-fig1": ({"n": 10 ** 12}, "n = 1e+12"),
    "kulkarni-soto-fig2": ({"k": 10 ** 12}, "k = 1e+12"),
    "singhal-steinke-dimension": ({"sample_sizes": [10 ** 12]}, "n = 1e+12"),
    "singhal-steinke-gap": ({"d": 10 ** 7}, "d = 1e+07"),
    "singhal-steinke-robust": ({"n": 10 ** 12}, "n = 1e+12"),
    "sampler-check": ({"reps": 10 ** 12}, "reps = 1e+12"),
    "gauss-vs-laplace": ({"reps": 10 ** 12}, "reps = 1e+12"),
}


@pytest.mark.parametrize("name", STUDIES)
def test_each_size_setting_is_bounded_and_named(name):
    study = load(name)
    check_footprint(study, study.Config())
    for settings, named in (TOO_LARGE[name], ({"reps": 10 ** 23}, "reps = 1e+23")):
        with pytest.raises(ValueError, match="GiB") as refusal:
            check_footprint(study, make_config(study.Config, settings))
        assert named in str(refusal.value)
        assert f"this machine has {physical_memory() / 2 ** 30:.3g} GiB" in str(refusal.value)
