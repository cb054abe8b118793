"""The playground's ε and n animations in a real headless Chromium: the frames exist in the chart, and
a click on the slider (no server round trip) moves the releases (over n, also the true mean and the
data) to that frame."""

import json

import pytest

from benchmarks.pages import click_slider_step
from engine.pipelines.sample_size_frames import sample_size_grid
from tests.browser.harness import PLOTS, plot_count, plot_locator, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The frames of chart number c (the 3D scene is a live chart inside its iframe, see tests.browser.harness).
_FRAMES = f"""(c) => {{
    const gd = {PLOTS}()[c];
    return JSON.stringify(gd._transitionData._frames.map(f => ({{name: f.name, trace: f.traces[0],
                                                               x: f.data[0].x}})));
}}"""
# Every frame's traces and their x coordinates, of the first chart.
_ALL_TRACES = f"""() => JSON.stringify({PLOTS}()[0]._transitionData._frames.map(
    f => ({{name: f.name, traces: f.traces, x: f.data.map(d => d.x)}})))"""
# The drawn coordinates of a trace of the first chart (plotly.js decodes binary arrays into _fullData).
_TRACE_X = f"""(index) => Array.from({PLOTS}()[0]._fullData.find(t => t.index === index).x)"""
# Count script runs: Streamlit shows its status widget on every rerun.
_RUN_COUNTER = ("() => { window.__runs = 0; new MutationObserver(() => { if (document.querySelector("
                "'[data-testid=\"stStatusWidget\"]')) window.__runs += 1; }).observe(document.body, "
                "{childList: true, subtree: true}); }")


def test_slider_moves_the_releases_through_the_frames_without_a_rerun(app_page, app_url):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?anim=true&eps=1")
    wait_for_app(page, timeout_ms=180_000)
    frames = json.loads(page.evaluate(_FRAMES, 0))
    assert len(frames) == 21 and frames[0]["name"] == "0.1" and frames[-1]["name"] == "10"
    trace = frames[0]["trace"]
    assert page.evaluate(_TRACE_X, trace) == pytest.approx(next(f["x"] for f in frames if f["name"] == "1"))
    page.evaluate(_RUN_COUNTER)
    for index in (len(frames) - 1, 0):
        click_slider_step(page, index)
        page.wait_for_function(f"(args) => JSON.stringify(({_TRACE_X})(args[0])) === JSON.stringify(args[1])",
                               arg=[trace, frames[index]["x"]], timeout=60_000)
        assert plot_locator(page, 0).locator(".slider-container text").first.text_content() == \
            f"ε = {frames[index]['name']}"
    assert page.evaluate("() => window.__runs") == 0


def test_tangent_view_slider_moves_its_releases(app_page, app_url):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?anim=true&eps=1")
    wait_for_app(page, timeout_ms=180_000)
    page.wait_for_function(f"() => {PLOTS}().length === 2", timeout=60_000)
    assert plot_count(page) == 2
    frames = json.loads(page.evaluate(_FRAMES, 1))
    assert len(frames) == 21 and frames[0]["trace"] == 0
    drawn = f"(args) => JSON.stringify(Array.from({PLOTS}()[1]._fullData[0].x)) === JSON.stringify(args)"
    for index in (0, len(frames) - 1):
        click_slider_step(page, index, chart=1)
        page.wait_for_function(drawn, arg=frames[index]["x"], timeout=60_000)
    # The markers moved in the drawn SVG too (no redraw: the points' transforms are updated in place).
    points = plot_locator(page, 1).locator(".scatterlayer .trace").first.locator("path.point")
    assert points.count() == len(frames[-1]["x"])


def test_n_slider_moves_releases_mean_and_data_without_a_rerun(app_page, app_url):
    page = app_page
    page.goto(f"{app_url}/Private_mean_playground?anim=true&anim_over=n&eps=1")
    wait_for_app(page, timeout_ms=180_000)
    page.wait_for_function(f"() => {PLOTS}().length === 2", timeout=60_000)
    frames = json.loads(page.evaluate(_ALL_TRACES))
    assert [f["name"] for f in frames] == [str(n) for n in sample_size_grid(50)]
    releases, mean, data = frames[0]["traces"]
    page.evaluate(_RUN_COUNTER)
    for index in (0, len(frames) // 2, len(frames) - 1):
        click_slider_step(page, index)
        for position, trace in enumerate((releases, mean, data)):
            page.wait_for_function(f"(args) => JSON.stringify(({_TRACE_X})(args[0])) === JSON.stringify(args[1])",
                                   arg=[trace, frames[index]["x"][position]], timeout=60_000)
        assert len(page.evaluate(_TRACE_X, data)) == int(frames[index]["name"])
        assert plot_locator(page, 0).locator(".slider-container text").first.text_content() == \
            f"n = {frames[index]['name']}"
    # The tangent-plane view follows its own n slider.
    flat = json.loads(page.evaluate(_FRAMES, 1))
    assert [f["name"] for f in flat] == [f["name"] for f in frames]
    drawn = f"(args) => JSON.stringify(Array.from({PLOTS}()[1]._fullData[0].x)) === JSON.stringify(args)"
    click_slider_step(page, 0, chart=1)
    page.wait_for_function(drawn, arg=flat[0]["x"], timeout=60_000)
    assert page.evaluate("() => window.__runs") == 0
