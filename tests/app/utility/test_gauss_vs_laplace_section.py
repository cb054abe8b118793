"""The Utility page's "Gaussian against Laplace" section (AppTest): the paper's claim, the study run on a button
press into the disk cache the command line shares, then its figure and, in plain text, where the claim holds, all
read from the study's own table (never typed in)."""

import numpy as np
import pandas as pd
import pytest

from engine.experiments import gauss_vs_laplace as study
from tests.app.charts import specs, values
from tests.app.conftest import ROOT, messages, run_page
from tests.plain_text import code_spelling
from ui import gauss_vs_laplace as section
from ui import utility

PAGE = ROOT / "pages" / "3_Utility.py"
LABEL = "Gaussian against Laplace"
#: A small grid, so the test's μ solves stay few.
SMALL = study.Config(dims=(1, 2), ns=(10, 40), reps=400)


@pytest.mark.slow
def test_the_section_runs_the_study_on_request_and_says_where_the_claim_holds(monkeypatch, tmp_path):
    monkeypatch.setenv("MPE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(section, "CONFIG", SMALL)
    assert LABEL in utility.SECTIONS
    at = run_page(PAGE, {utility.SECTION_KEY: LABEL})
    assert not messages(at)
    assert any(section.CLAIM in text.value for text in at.markdown)
    assert any("Not run yet" in c.value for c in at.caption)
    (plan,) = specs(at)
    assert set(plan["data"][0]["y"]) == {"S¹", "S²"} and sorted(set(values(plan["data"][0]["x"]))) == [10, 40]
    expected = study.run(**vars(SMALL))["errors"]  # in-process, not into the page's cache
    at.button(key=section.RUN_KEY).click().run(timeout=600)
    assert not at.exception and not messages(at)
    reading = study.reading(expected)
    assert [box.value for box in at.info if "What this run finds" in box.value] == [f"**What this run finds.** {reading}"]
    ratios = study.ratios(expected)
    for d in SMALL.dims:
        shown = ratios[ratios["d"] == d]["ratio"]
        assert f"{shown.min():.3f}" in reading and f"on {study.sphere_name(d)}" in reading
    table = next(t.value for t in at.table if "space" in t.value.columns)
    assert table["space"].tolist() == ["S¹", "S²"]
    assert table["n = 40"].tolist() == [f"{r:.3f}" for r in ratios[ratios["n"] == 40]["ratio"]]
    (chart,) = specs(at)
    traces = {trace["name"]: trace for trace in chart["data"]}
    gaussian = expected[(expected["mechanism"] == "Riemannian Gaussian") & (expected["d"] == 2)]
    np.testing.assert_allclose(values(traces["Riemannian Gaussian, S²"]["y"]), gaussian["mean_error"], rtol=1e-12)
    words = [str(e.value) for kind in ("markdown", "caption", "info") for e in getattr(at, kind)]
    assert not [text for text in words if code_spelling(text)]
    assert section.STUDY.stored(SMALL)
    again = run_page(PAGE, {utility.SECTION_KEY: LABEL})  # from the disk cache: no button, the same reading
    assert not [b for b in again.button if b.key == section.RUN_KEY]
    assert f"**What this run finds.** {reading}" in [box.value for box in again.info]


def test_the_reading_says_where_the_claim_holds_and_where_not():
    """``study.reading`` on tables made here: the claim holds on S¹ (ratios below 1), not on S² (one at 1.02)."""
    rows = []
    for d, ratios in ((1, (0.77, 0.77)), (2, (0.95, 1.02))):
        for n, ratio in zip((10, 20), ratios):
            rows += [dict(d=d, n=n, mechanism="Riemannian Gaussian", exact_mean_error=ratio, mu=1.0),
                     dict(d=d, n=n, mechanism="Riemannian Laplace", exact_mean_error=1.0, mu=1.0)]
    text = study.reading(pd.DataFrame(rows))
    assert text.startswith("The claim holds on S¹ and not on S²")
    assert "0.770 on S¹, 0.950–1.020 on S²" in text and "μ = 1 (n = 10–20)" in text
    everywhere = study.reading(pd.DataFrame([r for r in rows if r["d"] == 1]))
    assert everywhere.startswith("The claim holds at every d and n run")
