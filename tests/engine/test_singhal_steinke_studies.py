"""The three Singhal & Steinke studies: tidy columns, the CLI registry, and the d-free success of Algorithm 1."""

import pytest

from engine.experiments import STUDIES, load

COLUMNS = {"d", "n", "method", "success", "proj_error", "bottom", "status"}


@pytest.mark.parametrize("name", ["singhal-steinke-dimension", "singhal-steinke-gap", "singhal-steinke-robust"])
def test_studies_are_registered(name):
    assert name in STUDIES and hasattr(load(name), "run")


def test_dimension_study_is_tidy_and_exact_case_ignores_d():
    study = load("singhal-steinke-dimension")
    out = study.run(reps=3, dimensions=(5, 300), sample_sizes=(80,),
                    methods=("singhal-steinke-exact", "singhal-steinke-approx", "non-private"))
    releases = out["releases"]
    assert COLUMNS <= set(releases.columns) and len(releases) == 2 * 3 * 3
    exact = releases[releases.method == "singhal-steinke-exact"]
    assert exact.success.all()
    approx = releases[releases.method == "singhal-steinke-approx"]
    assert (approx.status == "n-too-small").all() and not approx.success.any()
    assert set(study.figures(out)) == {"success-d-5", "success-d-300"}


def test_bad_method_is_refused():
    with pytest.raises(ValueError, match="method must be one of"):
        load("singhal-steinke-gap").run(reps=1, methods=("pca",))
