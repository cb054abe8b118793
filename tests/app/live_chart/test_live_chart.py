"""``ui.live_chart``: the figure it hands to the browser, its stable identity across reruns
(what keeps the iframe and its WebGL context) and the plotly.js copy it serves."""

from __future__ import annotations

import json
import os

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from tests.app import charts
from tests.app.conftest import PLAYGROUND, assert_clean, run_page
from ui import live_chart


def test_figure_json_is_plotlys_json_with_frames():
    fig = go.Figure(go.Scatter(x=[0.0, 1.0], y=[2.0, 3.0], name="line"), frames=[go.Frame(name="a")])
    spec = json.loads(live_chart.figure_json(fig))
    assert spec["data"][0]["name"] == "line"
    assert charts.values(spec["data"][0]["y"]).tolist() == [2.0, 3.0]
    assert [frame["name"] for frame in spec["frames"]] == ["a"]


def test_traces_added_to_a_figures_json_give_the_json_of_the_figure_with_them():
    fig = go.Figure(go.Scatter(x=np.arange(3.0), y=[2.0, np.nan, 3.0], name="line"), frames=[go.Frame(name="a")])
    added = [go.Scatter3d(x=np.ones(2), y=np.zeros(2), z=np.ones(2), name="release"), go.Scatter(y=[1.0])]
    text = live_chart.figure_json(fig).with_traces(added)
    fig.add_traces(added)
    assert text == pio.to_json(fig, validate=False)
    assert live_chart.figure_json(go.Figure()).with_traces(added[:1]) == pio.to_json(go.Figure(added[:1]),
                                                                                      validate=False)


def test_a_figures_json_is_sent_as_it_is():
    text = live_chart.figure_json(go.Figure(go.Scatter(y=[1.0, 2.0])))
    at = AppTest.from_function(_chart_of, args=(text,)).run()
    assert_clean(at)
    assert charts.live_args(at)[0]["figure"] == text


def _chart_of(text):
    from ui.live_chart import live_chart

    live_chart(text, key="chart")


@pytest.mark.parametrize("bad", [{"data": []}, None])
def test_figure_must_be_a_plotly_figure(bad):
    with pytest.raises(ValueError, match="figure must be a plotly.graph_objects.Figure, got"):
        live_chart.figure_json(bad)


@pytest.mark.parametrize("key", ["", None])
def test_a_live_chart_needs_a_key(key):
    with pytest.raises(ValueError, match=f"key must be a non-empty string, got {key!r}"):
        live_chart.live_chart(go.Figure(), key=key)


@pytest.mark.parametrize("theme", [True, False, "plotly"])
def test_the_theme_is_st_plotly_charts(theme):
    with pytest.raises(ValueError, match=f'theme must be "streamlit" or None, as for st.plotly_chart, got {theme!r}'):
        live_chart.live_chart(go.Figure(), key="chart", theme=theme)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2", None])
def test_keep_seen_is_a_whole_number(bad):
    with pytest.raises(ValueError, match=f"keep_seen must be a whole number ≥ 0 \\(figures kept drawn\\), got {bad!r}"):
        live_chart.live_chart(go.Figure(), key="chart", keep_seen=bad)


@pytest.mark.parametrize("keep_seen, divs", [(None, 1), (0, 1), (3, 4)])
def test_the_browser_keeps_one_div_unless_asked_for_the_figures_seen(keep_seen, divs):
    """The component's ``keep``: how many figures its iframe keeps drawn (the shown one included)."""
    at = AppTest.from_function(_kept_chart, args=(keep_seen,)).run()
    assert_clean(at)
    assert charts.live_args(at)[0]["keep"] == divs


def _kept_chart(keep_seen):
    import plotly.graph_objects as go

    from ui.live_chart import live_chart

    extra = {} if keep_seen is None else {"keep_seen": keep_seen}
    live_chart(go.Figure(go.Scatter(y=[1.0, 2.0])), key="chart", **extra)


def test_plotly_js_is_copied_once_and_refreshed_when_stale(tmp_path):
    source = tmp_path / "package" / "plotly.min.js"
    source.parent.mkdir()
    source.write_text("/* plotly 1 */")
    target = live_chart._provide_plotly_js(source, tmp_path / "static")
    assert target.read_text() == "/* plotly 1 */"
    assert live_chart._provide_plotly_js(source, tmp_path / "static") == target
    source.unlink()  # a new plotly release: a new file, other size and time
    source.write_text("/* plotly 2, longer */")
    os.utime(source, (1, 1))
    assert live_chart._provide_plotly_js(source, tmp_path / "static").read_text() == "/* plotly 2, longer */"
    assert sorted(p.name for p in (tmp_path / "static").iterdir()) == ["plotly.min.js"]  # no partial file left


def test_the_installed_plotly_js_sits_beside_the_component_page():
    copy = live_chart.FRONTEND / "plotly.min.js"
    assert copy.stat().st_size == live_chart.PLOTLY_JS.stat().st_size > 1_000_000
    assert 'src="../../app/static/plotly.min.js"' in (live_chart.FRONTEND / "index.html").read_text()


@pytest.mark.slow
def test_the_playground_chart_keeps_its_identity_across_reruns():
    at = run_page(PLAYGROUND, {"eps": "1"})
    element = at.get("component_instance")[0].proto
    args = json.loads(element.json_args)
    assert element.component_name == charts.LIVE_CHART and args["key"] == "playground-chart"
    assert args["config"] == {"displaylogo": False} and args["theme"] is True
    before = charts.specs(at)[0]
    at.slider(key="eps").set_value(2.0).run()
    assert_clean(at)
    after = at.get("component_instance")[0].proto
    assert after.id == element.id  # the same element: the browser keeps the iframe and calls Plotly.react
    assert after.json_args != element.json_args
    moved = {t["name"] for t in charts.specs(at)[0]["data"]} & {"Riemannian Laplace", "Euclidean Laplace"}
    assert moved
    for name in moved:
        old = next(t for t in before["data"] if t["name"] == name)
        new = next(t for t in charts.specs(at)[0]["data"] if t["name"] == name)
        assert charts.values(old["x"]).tolist() != charts.values(new["x"]).tolist()


#: Charts a sidebar control redraws, beside the playground's: (page, address, chart key, the control's change).
REDRAWN = {
    "Sensitivity": ("2_Sensitivity.py", {"reps": "20"}, "chart-empirical",
                    lambda at: at.slider(key="reps").set_value(30)),
    "Sensitivity, its open tab": ("2_Sensitivity.py", {"reps": "20"}, "chart-vs-r",
                                  lambda at: at.slider(key="n").set_value(60)),
    "Utility": ("3_Utility.py", {"reps": "20"}, "chart-error-n", lambda at: at.slider(key="reps").set_value(30)),
    "Samplers": ("4_Samplers.py", {"burn": "100", "thin": "2", "draws": "50", "chains": "4"}, "chart-hist-mh",
                 lambda at: at.slider(key="sigma").set_value(0.3)),
    "Private optimization": ("5_Private_optimization.py", {"reps": "2"}, "chart-loss",
                             lambda at: at.select_slider(key="eps").set_value(0.5)),
    "Private optimization, its manifold tab": ("5_Private_optimization.py", {"reps": "2", "opt_view": "On the manifold"},
                                              "chart-manifold", lambda at: at.select_slider(key="eps").set_value(0.5)),
    "Private regression on S²": ("6_Private_regression.py", {"reg_data": "drift", "reg_n": "20", "reg_k": "10",
                                                             "reg_releases": "2", "reg_warmup": "100"},
                                 "reg-main-chart", lambda at: at.select_slider(key="reg_eps_p").set_value(100.0)),
    "Private subspaces": ("7_Private_subspaces.py", {}, "subspaces-chart",
                          lambda at: at.slider(key="outliers").set_value(5)),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(REDRAWN))
def test_redrawn_charts_are_live_charts_that_keep_their_element(name):
    """Each page's chart that the sidebar redraws and that is costly to build anew (3D, hundreds of SVG
    points, many lines) is a live chart: a rerun hands the same element a new figure, so the browser
    updates it with ``Plotly.react`` instead of building a new chart (benchmarks/pages.py times it)."""
    script, params, key, change = REDRAWN[name]
    at = run_page(PLAYGROUND.with_name(script), params)
    assert key in charts.live_keys(at)
    element = next(node.proto for node in at.get("component_instance") if json.loads(node.proto.json_args)["key"] == key)
    change(at).run(timeout=120)
    assert_clean(at)
    after = next(node.proto for node in at.get("component_instance") if json.loads(node.proto.json_args)["key"] == key)
    assert after.id == element.id
    assert json.loads(after.json_args)["figure"] != json.loads(element.json_args)["figure"]
