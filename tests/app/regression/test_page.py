"""Private regression page (AppTest): defaults, every control, the three tabs, the preset and bad addresses."""

import re

import pytest

from tests.app.charts import specs
from tests.app.conftest import ROOT, app_at, assert_clean, messages, run_page

PAGE = ROOT / "pages" / "6_Private_regression.py"
FAST = {"reg_n": "20", "reg_k": "10", "reg_releases": "2", "reg_warmup": "100"}


@pytest.fixture(scope="module")
def fast():
    return run_page(PAGE, FAST)


def test_opens_with_the_outlines_and_writes_the_url(fast):
    assert len(specs(fast)) == 1
    assert not fast.error
    assert fast.query_params["reg_data"] == "callosum" and fast.query_params["reg_eps_p"] == "0.3"
    assert len(fast.table) == 1


def test_a_flat_footpoint_law_is_explained_and_a_concentrated_one_is_not(fast):
    """At ε_p = 0.3 and n = 20 the private footpoints sit near the public ball's edge (the K-norm law is nearly
    flat there, so ε_p = 0.5 and 1.0 draw the same releases); at ε_p = 100 they sit next to the fit."""
    flat = [i.value for i in fast.info if i.value.startswith("At this budget the footpoint law is nearly flat")]
    assert len(flat) == 1 and "in 16 dimensions" in flat[0], flat
    distance, radius = (float(v) for v in re.search(r"average ([\d.]+) from .* radius is ([\d.]+)\. ", flat[0]).groups())
    assert 0.75 * radius <= distance <= radius
    concentrated = run_page(PAGE, FAST | {"reg_eps_p": "100.0"})
    assert not [i.value for i in concentrated.info if "nearly flat" in i.value]


@pytest.mark.slow
def test_every_control_rerenders():
    at = run_page(PAGE, FAST)
    steps = [
        lambda: at.select_slider(key="reg_eps_p").set_value(2.0),
        lambda: at.select_slider(key="reg_eps_v").set_value(1.0),
        lambda: at.select_slider(key="reg_tau").set_value(0.1),
        lambda: at.slider(key="reg_releases").set_value(1),
        lambda: at.toggle(key="reg_paper_scale").set_value(True),
        lambda: at.toggle(key="reg_clip").set_value(False),
        lambda: at.number_input(key="reg_seed").set_value(3),
        lambda: at.slider(key="reg_warmup").set_value(200),
        lambda: at.selectbox(key="reg_data").select("cells"),
        lambda: at.selectbox(key="reg_data").select("drift"),
    ]
    for step in steps:
        step().run()
        assert_clean(at)
        assert not at.error, [e.value for e in at.error]
        assert len(specs(at)) == 1
    assert at.query_params["reg_data"] == "drift" and at.query_params["reg_paper_scale"] == "true"


def test_table1_tab_shows_the_numbers_the_checks_and_the_guarantee():
    at = run_page(PAGE, FAST | {"reg_view": "Table 1 and diagnostics"})
    tables = [t.value for t in at.table]
    assert any("Δ_p (footpoint)" in t["quantity"].tolist() for t in tables if "quantity" in t)
    assert any(m.label == "Guarantee of the exact K-norm law" and "ε = 0.6" in m.value for m in at.metric)
    rhat = max(float(v) for t in tables if "split R̂ (max)" in t for v in t["split R̂ (max)"])
    not_established = [w.value for w in at.warning if w.value.startswith("Not established for these releases")]
    assert bool(not_established) == (rhat > 1.01), (rhat, not_established)
    assert any("tau-close fit" in s.value for s in list(at.success) + list(at.warning))
    assert len(specs(at)) == 1  # the trace plot


@pytest.mark.slow
def test_figure1_tab_draws_both_curves():
    # The grid (11 budget splits) takes longer than the default AppTest timeout on a loaded machine.
    at = app_at(PAGE)
    for key, value in (FAST | {"reg_view": "Figure 1 curves"}).items():
        at.query_params[key] = value
    at.run(timeout=300)
    assert_clean(at)
    assert len(specs(at)) == 2


def test_bad_address_values_are_explained():
    at = run_page(PAGE, FAST | {"reg_eps_p": "0", "reg_data": "mri"})
    found = messages(at)
    assert any("reg_eps_p" in text for text in found) and any("reg_data" in text for text in found)
    assert at.query_params["reg_eps_p"] == "0.3"


def test_home_preset_link_opens_the_paper_settings():
    at = run_page(PAGE, {"preset": "kulkarni-soto-fig1", "reg_n": "20", "reg_k": "10", "reg_releases": "1",
                         "reg_warmup": "100", "reg_view": "Table 1 and diagnostics"})
    assert any("Figure 1 settings" in i.value for i in at.info)
    assert at.query_params["reg_eps_v"] == "0.3" and at.query_params["reg_n"] == "20"
