"""In Chromium at 1280×720: the playground's sphere chart lies wholly above the fold
(before: its bottom at 1014 px, half of it below) and the true mean's marker shows on top of the
clouds (before: hidden under the Euclidean cloud)."""

import io

import numpy as np
import pytest
from PIL import Image

from tests.browser.harness import PLOTS, plot_locator, wait_for_app, wait_for_stable_canvas

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The chart's frame in the page, and where plotly.js projects the true mean in its WebGL canvas (CSS
# pixels from the canvas' corner): data -> dataScale -> model -> view -> projection matrices.
_GEOMETRY = f"""() => {{
    const gd = {PLOTS}()[0];
    const frame = Array.from(document.querySelectorAll('iframe')).find(f => f.contentDocument === gd.ownerDocument);
    const scene = gd._fullLayout.scene._scene, camera = scene.glplot.cameraParams, scale = scene.dataScale;
    const mean = gd._fullData.find(t => t.name === 'True mean (not private)');
    const times = (m, v) => [0, 1, 2, 3].map(r => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3]);
    const clip = times(camera.projection, times(camera.view, times(camera.model,
        [mean.x[0] * scale[0], mean.y[0] * scale[1], mean.z[0] * scale[2], 1])));
    const canvas = gd.querySelector('.gl-container canvas').getBoundingClientRect();
    return {{bottom: frame.getBoundingClientRect().bottom, last: gd._fullData[gd._fullData.length - 1].name,
             x: (clip[0] / clip[3] + 1) / 2 * canvas.width, y: (1 - clip[1] / clip[3]) / 2 * canvas.height}};
}}"""


def test_the_sphere_chart_is_above_the_fold_with_the_true_mean_on_top(chromium, app_url):
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/Private_mean_playground")
        wait_for_app(page, 180_000)
        canvas = plot_locator(page, 0).locator(".gl-container canvas").first
        shot = wait_for_stable_canvas(canvas)
        seen = page.evaluate(_GEOMETRY)
        assert seen["bottom"] <= 720, seen
        assert seen["last"] == "True mean (not private)"
        pixels = np.asarray(Image.open(io.BytesIO(shot)).convert("L"), dtype=float)
        x, y = round(seen["x"]), round(seen["y"])
        assert 0 <= x < pixels.shape[1] and 0 <= y < pixels.shape[0], seen
        # The black diamond: near-black pixels where it is projected, drawn over the orange and blue clouds
        # (their darkest pixels are above 60 in luminance; the ball's dark-grey boundary is far from the mean).
        around = pixels[max(y - 3, 0):y + 4, max(x - 3, 0):x + 4]
        assert (around < 40).mean() > 0.5, around
    finally:
        context.close()


def test_the_animated_sphere_chart_stays_above_the_fold(chromium, app_url):
    """With the ε animation on, the slider and its play button sat under the scene and pushed the
    chart's bottom to 804 px at 1280×720; they now share the chart's own height."""
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/Private_mean_playground?anim=true")
        wait_for_app(page, 180_000)
        wait_for_stable_canvas(plot_locator(page, 0).locator(".gl-container canvas").first)
        seen = page.evaluate(_GEOMETRY)
        assert seen["bottom"] <= 720, seen
        slider = plot_locator(page, 0).locator(".slider-container").first.bounding_box()
        play = plot_locator(page, 0).locator(".updatemenu-container").first.bounding_box()
        assert slider is not None and play is not None
        assert slider["y"] + slider["height"] <= 720 and play["y"] + play["height"] <= 720, (slider, play)
    finally:
        context.close()


# Every legend entry of every chart (its label, left and right edge) and the chart's own edges, in the
# window's coordinates (through the live chart's iframe).
_LEGEND = f"""() => {PLOTS}().map(gd => {{
    const frame = Array.from(document.querySelectorAll('iframe')).find(f => f.contentDocument === gd.ownerDocument);
    const shift = frame ? frame.getBoundingClientRect().left : 0, box = gd.getBoundingClientRect();
    return {{left: box.left + shift, right: box.right + shift,
             entries: [...gd.querySelectorAll('.legend .traces')].map(t => {{
                 const r = t.getBoundingClientRect();
                 return {{text: t.textContent, left: r.left + shift, right: r.right + shift}};
             }})}};
}})"""


@pytest.mark.parametrize("width, height", [(800, 600), (1280, 720), (1920, 1080)])
def test_every_legend_entry_of_the_animated_scene_is_inside_its_chart(chromium, app_url, width, height):
    """With three mechanisms and the ε animation, the legend's half-width columns put the animated
    cloud's long entry, "Riemannian Laplace (ε on the slider below)", in the right column, past the chart's
    right edge at 800 and 1280 px (485 against 445, 864 against 840). Every entry of both charts now lies
    inside its chart's box."""
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/Private_mean_playground?anim=true&mech=exact,euclid,gauss")
        wait_for_app(page, 180_000)
        page.wait_for_function(f"() => {PLOTS}().filter(gd => gd.querySelector('.legend .traces')).length === 2",
                               timeout=60_000)  # the tangent view's chart, below the scene
        charts = page.evaluate(_LEGEND)
        entries = [entry["text"] for chart in charts for entry in chart["entries"]]
        assert len(charts) == 2 and "Riemannian Laplace (ε on the slider below)" in entries, entries
        assert {"Tangent Gaussian", "Euclidean Laplace", "True mean (not private)"} <= set(entries), entries
        outside = [(entry, chart["left"], chart["right"]) for chart in charts for entry in chart["entries"]
                   if entry["left"] < chart["left"] - 1 or entry["right"] > chart["right"] + 1]
        assert not outside, outside
    finally:
        context.close()
