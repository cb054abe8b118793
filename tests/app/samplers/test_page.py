"""Samplers page: defaults, every control and space, invalid addresses, the URL round trip and the
near-limit lesson (AppTest)."""

import numpy as np
import pytest

from engine.mechanisms import scale_limit
from engine.spaces import SAMPLER_SPACES
from tests.app import charts
from tests.app.conftest import ROOT, assert_clean, messages, run_page
from ui import samplers

PAGE = ROOT / "pages" / "4_Samplers.py"
FAST = {"burn": "100", "thin": "2", "draws": "50", "chains": "4"}


def _metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


@pytest.fixture(scope="module")
def defaults():
    return run_page(PAGE)


def test_defaults_render_three_charts_without_messages(defaults):
    assert charts.live_keys(defaults) == ["chart-hist-exact", "chart-hist-mh", "chart-trace"]
    assert not messages(defaults)
    assert defaults.selectbox(key="space").value == "sphere"
    assert float(_metric(defaults, "KS distance, exact")) < 0.06  # 1,000 exact draws
    assert 0.1 < float(_metric(defaults, "MH acceptance").rstrip("%")) / 100 < 0.6


def test_defaults_write_their_settings_into_the_url(defaults):
    assert defaults.query_params["space"] == "sphere"
    assert defaults.query_params["sigma"] == "0.5"
    assert defaults.query_params["adapt"] == "true"


def test_every_control_and_space_rerenders():
    at = run_page(PAGE, FAST)
    steps = [
        lambda: at.slider(key="sigma").set_value(0.3),
        lambda: at.toggle(key="adapt").set_value(False),
        lambda: at.slider(key="step").set_value(0.5),
        lambda: at.slider(key="burn").set_value(60),
        lambda: at.slider(key="thin").set_value(3),
        lambda: at.slider(key="draws").set_value(30),
        lambda: at.slider(key="chains").set_value(3),
        lambda: at.number_input(key="seed").set_value(2),
        *(lambda key=key: at.selectbox(key="space").select(key) for key in samplers.SPACES if key != "sphere"),
    ]
    for step in steps:
        step().run()
        assert_clean(at)
        assert not at.error, [e.value for e in at.error]
        assert len(charts.specs(at)) == 3
    assert at.query_params["space"] == list(samplers.SPACES)[-1]
    assert at.query_params["adapt"] == "false"
    assert at.query_params["step"] == "0.5"


def test_near_limit_example_shows_the_biased_chain():
    at = run_page(PAGE)
    at.button(key="near-limit").click().run()
    assert_clean(at)
    assert at.selectbox(key="space").value == "hyperbolic"
    assert at.slider(key="sigma").value == pytest.approx(0.95)
    assert float(_metric(at, "KS distance, MH")) > 0.15 > 0.06 > float(_metric(at, "KS distance, exact"))


@pytest.mark.parametrize(("params", "expected"), [
    ({"space": "hyperbolic", "sigma": "1.5"}, "[0.05, 0.95]"),
    ({"space": "spd", "sigma": "1.4"}, "[0.05, 0.65]"),
    ({"space": "kendall", "adapt": "false", "step": "3"}, "injectivity radius"),
    ({"sigma": "-1"}, "sigma"),
    ({"space": "nonsense"}, "space"),
    ({"chains": "0"}, "chains"),
])
def test_invalid_addresses_show_a_reason_instead_of_failing(params, expected):
    at = run_page(PAGE, {**FAST, **params})
    found = messages(at)
    assert any(expected in text for text in found), found


def test_query_params_round_trip():
    params = {"space": "kendall", "sigma": "0.3", "adapt": "false", "step": "0.8", "burn": "200", "thin": "2",
              "draws": "40", "chains": "5", "seed": "9"}
    at = run_page(PAGE, params)
    assert not messages(at)
    assert at.selectbox(key="space").value == "kendall"
    assert at.slider(key="sigma").value == pytest.approx(0.3)
    assert at.toggle(key="adapt").value is False
    assert at.slider(key="step").value == pytest.approx(0.8)
    assert at.slider(key="chains").value == 5
    assert {key: at.query_params[key] for key in params} == params


@pytest.mark.parametrize("space", list(samplers.SPACES))
def test_sigma_slider_stops_where_the_space_still_works(space):
    """The σ slider went to 2.0 on every space, though H² needs σ < 1 and SPD(2) σ < √2."""
    at = run_page(PAGE, {**FAST, "space": space})
    top = at.slider(key="sigma").max
    at.slider(key="sigma").set_value(top).run()
    assert_clean(at)
    assert not messages(at, "error"), messages(at, "error")
    assert len(charts.specs(at)) == 3
    if np.isfinite(scale_limit(SAMPLER_SPACES[space])):
        assert top < scale_limit(SAMPLER_SPACES[space])
        assert any("cannot be normalised" in caption.value for caption in at.sidebar.caption)


def test_trace_names_the_exact_mean_in_its_legend_not_on_the_line(defaults):
    """The "exact mean" annotation sat on the trace wherever the chain happened to be."""
    trace = charts.specs(defaults)[2]
    assert [a["text"] for a in trace["layout"].get("annotations", [])] == ["burn-in"]
    assert any(t.get("name", "").startswith("exact mean E ρ") for t in trace["data"])
