"""The live chart (``ui.live_chart``) in a real headless Chromium: a rerun updates the same
plotly element and WebGL canvas in place, the component's iframe is exactly as tall as the chart, and
the ε animation plays inside it, its 3D frames (ui/live_chart/frontend/frames3d.js) drawing what plotly's
own full redraw draws."""

import io
import json
import re

import numpy as np
import pytest
from PIL import Image

from benchmarks.pages import click_slider_step
from tests.browser.harness import PLOTS, chart_signature, plot_locator, wait_for_app, wait_for_chart_change

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Marks the first chart's element, its WebGL canvas and context; reads them back after an update.
_MARK = f"""() => {{
    const gd = {PLOTS}()[0];
    gd.__liveMark = 'kept';
    const canvas = gd.querySelector('.gl-container canvas');
    window.__kept = {{canvas: canvas, gl: canvas.getContext('webgl2') || canvas.getContext('webgl')}};
    return Number(gd.ownerDocument.body.dataset.draws);
}}"""
_KEPT = f"""() => {{
    const gd = {PLOTS}()[0];
    const canvas = gd.querySelector('.gl-container canvas');
    return {{mark: gd.__liveMark || null, sameCanvas: canvas === window.__kept.canvas,
             lost: window.__kept.gl.isContextLost(), draws: Number(gd.ownerDocument.body.dataset.draws),
             canvases: gd.ownerDocument.querySelectorAll('canvas').length}};
}}"""
# The drawn x of every trace of the first chart, by name (plotly.js decodes binary arrays into _fullData).
_DRAWN_X = f"""() => Object.fromEntries({PLOTS}()[0]._fullData.map(t => [t.name, Array.from(t.x || [])]))"""
# The component's iframe against its chart and document: heights and whether anything overflows.
_FIT = f"""(() => {{
    const gd = {PLOTS}()[0];
    const frame = Array.from(document.querySelectorAll('iframe')).find(f => f.contentDocument === gd.ownerDocument);
    const root = gd.ownerDocument.documentElement;
    return {{frame: frame.getBoundingClientRect().height, chart: gd.getBoundingClientRect().height,
             layout: gd._fullLayout.height, width: gd._fullLayout.width, frameWidth: frame.clientWidth,
             legendFont: gd._fullLayout.legend.font.size, paper: gd._fullLayout.paper_bgcolor,
             pageFont: Array.from(gd.ownerDocument.fonts).some(f => f.family.includes('Source Sans')
                                                                     && f.status === 'loaded'),
             scrollHeight: root.scrollHeight, clientHeight: root.clientHeight,
             scrollWidth: root.scrollWidth, clientWidth: root.clientWidth}};
}})"""


def _epsilon_slider(page):
    return page.get_by_test_id("stSlider").filter(has_text="Privacy budget ε").get_by_role("slider").first


def test_a_rerun_updates_the_same_chart_and_webgl_canvas(app_page, app_url):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?eps=1")
    wait_for_app(page, 180_000)
    draws = page.evaluate(_MARK)
    before_x = page.evaluate(_DRAWN_X)
    # The user hides the data with a click in the legend: it stays hidden over the rerun (uirevision).
    plot_locator(page, 0).locator(".legend .traces").filter(has_text=re.compile(r"^Data$")).click()
    page.wait_for_function(f"() => {PLOTS}()[0]._fullData.some(t => t.visible === 'legendonly')", timeout=30_000)
    canvas = plot_locator(page, 0).locator(".gl-container canvas").first
    page.wait_for_timeout(500)  # the scene's redraw without the data
    before_pixels = canvas.screenshot()
    signature = chart_signature(page)
    slider = _epsilon_slider(page)
    for _ in range(5):
        slider.press("ArrowRight")
    wait_for_chart_change(page, signature, timeout_ms=120_000)
    wait_for_app(page, 120_000)
    kept = page.evaluate(_KEPT)
    assert kept["mark"] == "kept" and kept["sameCanvas"] and not kept["lost"], kept
    assert kept["draws"] > draws and kept["canvases"] >= 1
    after_x = page.evaluate(_DRAWN_X)
    assert after_x["Data"] == before_x["Data"]  # the data set is the same, only the releases moved
    released = [name for name in after_x if name in ("Riemannian Laplace", "Euclidean Laplace")]
    assert released and all(after_x[name] != before_x[name] for name in released)
    assert canvas.screenshot() != before_pixels  # and the WebGL canvas shows them
    hidden = page.evaluate(f"() => {PLOTS}()[0]._fullData.filter(t => t.visible === 'legendonly').map(t => t.name)")
    assert hidden == ["Data"]


@pytest.mark.parametrize("query", ["eps=1", "space=hyperbolic", "anim=true&eps=1"])
def test_the_iframe_is_as_tall_as_the_chart_without_scrollbars(app_page, app_url, query):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?{query}")
    wait_for_app(page, 180_000)
    page.wait_for_function(f"() => {{ const fit = {_FIT}(); return fit.frame === fit.layout; }}", timeout=60_000)
    fit = page.evaluate(f"() => {_FIT}()")
    assert fit["frame"] == fit["chart"] == fit["layout"], fit
    assert fit["scrollHeight"] <= fit["clientHeight"] and fit["scrollWidth"] <= fit["clientWidth"], fit
    assert abs(fit["width"] - fit["frameWidth"]) <= 1, fit
    # Streamlit's chart theme as st.plotly_chart applies it: small legend type in the page's font (loaded
    # into the iframe), the app's background.
    assert fit["legendFont"] == 12 and fit["pageFont"], fit
    assert fit["paper"].lower() in ("#ffffff", "rgb(255, 255, 255)"), fit


def test_the_epsilon_animation_plays_in_the_live_chart(app_page, app_url):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?anim=true&eps=1")
    wait_for_app(page, 180_000)
    chart = plot_locator(page, 0)
    frames = json.loads(page.evaluate(f"""() => JSON.stringify({PLOTS}()[0]._transitionData._frames.map(
        f => ({{name: f.name, trace: f.traces[0], x: f.data[0].x}})))"""))
    last = frames[-1]
    label = chart.locator(".slider-container text").first
    assert label.text_content() == "ε = 1"
    chart.locator(".updatemenu-button").first.click()  # ▶
    from playwright.sync_api import expect

    expect(label).to_have_text(f"ε = {last['name']}", timeout=120_000)
    drawn = page.evaluate(f"(i) => Array.from({PLOTS}()[0]._fullData.find(t => t.index === i).x)", last["trace"])
    assert drawn == pytest.approx(last["x"])


def _scene_pixels(chart) -> np.ndarray:
    """The 3D scene of a chart as drawn on screen, as an RGB array."""
    return np.asarray(Image.open(io.BytesIO(chart.locator(".gl-container canvas").first.screenshot())).convert("RGB"), dtype=float)


# Plotly's own way to show frame ``name`` of the first chart: Plotly.animate with a full redraw.
_PLOTLY_FRAME = f"""(name) => {{
    const gd = {PLOTS}()[0];
    const still = {{mode: 'immediate', frame: {{duration: 0, redraw: true}}, transition: {{duration: 0}}}};
    return gd.ownerDocument.defaultView.Plotly.animate(gd, [name], still).then(() => null);
}}"""


def test_3d_frames_draw_the_picture_plotlys_full_redraw_draws(app_page, app_url):
    """The slider of the 3D scene updates the releases' scene object only (frames3d.js); the scene must
    then look as plotly's own Plotly.animate with a full redraw draws the same frame."""
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?anim=true&eps=1")
    wait_for_app(page, 180_000)
    chart = plot_locator(page, 0)
    names = page.evaluate(f"() => {PLOTS}()[0]._transitionData._frames.map(f => f.name)")
    assert page.evaluate(f"() => {PLOTS}()[0].layout.sliders[0].steps.every(s => s.method === 'skip')")
    shots = {}
    for index in (0, len(names) - 1):
        click_slider_step(page, index)
        ours = _scene_pixels(chart)
        page.evaluate(_PLOTLY_FRAME, names[index])
        page.evaluate("() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)))")
        plotlys = _scene_pixels(chart)
        assert ours.shape == plotlys.shape
        differing = np.mean(np.abs(ours - plotlys).max(axis=2) > 8)
        # Measured: 1.07 % differ since the camera faces the mean (0.29–0.39 % at the old 65° tilt): the dome's
        # shading at its rim, striped by WebGL's depth precision where it is seen edge-on, and the title's text over
        # the scene's top edge (the slider's strip shares the figure's height); no release differs. Between the first
        # and the last frame 23 % differ.
        assert differing < 0.02, f"frame {names[index]}: {differing:.2%} of the scene's pixels differ"
        shots[index] = ours
    moved = np.mean(np.abs(shots[0] - shots[len(names) - 1]).max(axis=2) > 8)
    assert moved > 0.05, f"the first and last frames differ in only {moved:.2%} of the pixels"


def test_pause_stops_the_3d_animation(app_page, app_url):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?anim=true&eps=0.1")
    wait_for_app(page, 180_000)
    chart = plot_locator(page, 0)
    label = chart.locator(".slider-container text").first
    assert label.text_content() == "ε = 0.1"
    buttons = chart.locator(".updatemenu-button")
    buttons.nth(0).click()  # ▶
    page.wait_for_function("(el) => el.textContent !== 'ε = 0.1'", arg=label.element_handle(), timeout=60_000)
    buttons.nth(1).click()  # ❚❚
    paused = label.text_content()
    page.wait_for_timeout(1_500)  # six frames' time at 250 ms per frame
    assert label.text_content() == paused != "ε = 10"



def _applies(page, spec: dict) -> bool:
    """frames3d.js's ``Frames3d.applies`` on ``spec``, run inside the live chart's iframe."""
    frame = next(f for f in page.frames if f.evaluate("() => typeof Frames3d") == "object")
    return frame.evaluate("(spec) => Frames3d.applies(spec)", spec)


_SCENE = {"xaxis": {"range": [-1, 1]}, "yaxis": {"range": [-1, 1]}, "zaxis": {"range": [-1, 1]}}
_POINTS = {"x": [0.0], "y": [0.0], "z": [1.0]}


@pytest.mark.parametrize(("trace", "frame", "scene", "expected"), [
    ({"type": "scatter3d", "name": "releases"}, {**_POINTS, "customdata": [[1]], "name": "releases"}, _SCENE, True),
    ({"type": "scatter3d", "name": "releases"}, {**_POINTS, "name": "renamed"}, _SCENE, False),  # the legend
    ({"type": "scatter"}, {"x": [0.0], "y": [1.0]}, _SCENE, False),  # 2D: plotly moves SVG markers itself
    ({"type": "mesh3d"}, _POINTS, _SCENE, False),
    ({"type": "scatter3d"}, {**_POINTS, "marker": {"color": "red"}}, _SCENE, False),  # styles need plotly
    ({"type": "scatter3d"}, _POINTS, {**_SCENE, "zaxis": {}}, False),  # autoranged: the axes may move
    ({"type": "scatter3d"}, {**_POINTS, "x": {"dtype": "f8", "bdata": "AAAAAAAAAAA="}}, _SCENE, False),
])
def test_only_point_moves_in_fixed_scenes_take_the_fast_path(app_page, app_url, trace, frame, scene, expected):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?anim=true&eps=1")
    wait_for_app(page, 180_000)
    spec = {"data": [trace], "layout": {"scene": scene}, "frames": [{"name": "a", "traces": [0], "data": [frame]}]}
    assert _applies(page, spec) is expected
    assert _applies(page, {**spec, "frames": []}) is False
