"""Sensitivity page: defaults, every control, invalid addresses and the URL round trip (AppTest)."""

import base64

import numpy as np
import pytest

from tests.app.charts import specs
from tests.app.conftest import ROOT, assert_clean, assert_explained, messages, run_page, section_labels
from ui.sensitivity import SECTION_KEY, SECTIONS

PAGE = ROOT / "pages" / "2_Sensitivity.py"
#: The simulated sensitivity against n, then the chart of the open tab.
CHARTS = 2


def _spec(at, index: int = 0) -> dict:
    charts = specs(at)
    assert len(charts) > index, "the page shows too few plotly charts"
    return charts[index]


def _values(array) -> np.ndarray:
    """A plotly JSON array as numbers (plotly 7 writes numpy arrays as base64 ``bdata``)."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
    return np.asarray(array, dtype=float)


@pytest.fixture(scope="module")
def defaults():
    return run_page(PAGE)


def test_defaults_render_two_charts_without_messages(defaults):
    assert len(specs(defaults)) == CHARTS
    assert section_labels(defaults) == list(SECTIONS)
    assert not messages(defaults)
    assert defaults.selectbox(key="space").value == "sphere"
    assert defaults.slider(key="r_sphere").value == pytest.approx(np.pi / 8)
    assert any(r"\Delta" in formula.value for formula in defaults.latex)


def test_theorem2_bound_lies_above_every_simulated_pair(defaults):
    traces = _spec(defaults)["data"]
    bound = next(t for t in traces if t.get("meta") == "bound")
    assert bound["name"] == "Theorem 2 bound"
    bound_x, bound_y = _values(bound["x"]), _values(bound["y"])
    for dots in (t for t in traces if t.get("meta") == "points"):
        x, y = _values(dots["x"]), _values(dots["y"])
        assert np.all(y <= np.interp(x, bound_x, bound_y) * (1 + 1e-6))
    assert any(m.value == "0.02429" for m in defaults.metric)  # (2 − π/4)/50 at κ = 1, r = π/8


def test_defaults_write_their_settings_into_the_url(defaults):
    assert defaults.query_params["space"] == "sphere"
    assert defaults.query_params["n"] == "50"
    assert defaults.query_params["log"] == "true"


@pytest.mark.parametrize("label", SECTIONS)
def test_every_control_rerenders(label):
    """Every control, walked on each tab (the tab itself comes from the address, as a click sets it)."""
    at = run_page(PAGE, {SECTION_KEY: label})
    steps = [
        lambda: at.slider(key="r_sphere").set_value(0.6),
        lambda: at.slider(key="kappa_sphere").set_value(2.0),
        lambda: at.slider(key="n").set_value(120),
        lambda: at.slider(key="reps").set_value(40),
        lambda: at.number_input(key="seed").set_value(3),
        lambda: at.toggle(key="log").set_value(False),
        lambda: at.selectbox(key="space").select("spd"),
        lambda: at.slider(key="r_spd").set_value(1.0),
        lambda: at.slider(key="kappa_spd").set_value(0.5),
    ]
    for step in steps:
        step().run()
        assert_clean(at)
        assert len(specs(at)) == CHARTS
    assert at.query_params["space"] == "spd"
    assert at.query_params["kappa_spd"] == "0.5"
    assert at.query_params["seed"] == "3"
    assert at.query_params["log"] == "false"


@pytest.mark.parametrize(("params", "expected"), [
    ({"r_sphere": "1.0"}, "does not apply"),
    ({"kappa_sphere": "4"}, "does not apply"),
    ({"kappa_sphere": "0.5"}, "below the curvature"),
    ({"r_sphere": "5"}, "r_sphere"),
    ({"space": "nonsense"}, "space"),
    ({"n": "-3"}, "n="),
    ({"reps": "lots"}, "reps"),
    ({SECTION_KEY: "Nowhere"}, "Nowhere"),
])
def test_invalid_addresses_warn_instead_of_failing(params, expected):
    at = run_page(PAGE, params)
    assert_explained(at, expected)
    assert len(specs(at)) == CHARTS


def test_beyond_the_limit_no_bound_is_drawn():
    at = run_page(PAGE, {"r_sphere": "1.0"})
    assert not any(t.get("meta") == "bound" for t in _spec(at)["data"])


def test_query_params_round_trip():
    params = {"space": "spd", "r_spd": "2.0", "kappa_spd": "0.1", "n": "100", "reps": "40", "seed": "7",
              "log": "false", SECTION_KEY: SECTIONS[-1]}
    at = run_page(PAGE, params)
    assert not messages(at)
    assert at.selectbox(key="space").value == "spd"
    assert at.slider(key="r_spd").value == pytest.approx(2.0)
    assert at.slider(key="kappa_spd").value == pytest.approx(0.1)
    assert at.slider(key="n").value == 100
    assert at.number_input(key="seed").value == 7
    assert at.toggle(key="log").value is False
    assert {key: at.query_params[key] for key in params} == params
