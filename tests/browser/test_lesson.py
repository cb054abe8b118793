"""The Lesson in presenter mode, as a teacher gives it from a projector.

→ and ← step through the lesson and the address follows (``step=N``); at 1280×720 and 1920×1080 every
step's chart lies fully inside the window without scrolling, nothing is wider than the window and no
traceback shows; the mode follows the session to the page a step links to, and Esc leaves it. A step
shown again shows its chart as it was left (the same element, WebGL canvas and camera), not drawn again.
The walk at 1280×720 takes README's screenshot of presenter mode (docs/screenshots/Lesson_presenter.png) and
docs/pages.md's of steps 2, 3, 5, 6 and 7 (docs/screenshots/Lesson_step<N>.png).
"""

from __future__ import annotations

import pytest

from tests.browser.harness import (
    CHART_BOX,
    LAYOUT_PROBE,
    PLOTS,
    ROOT,
    chart_signature,
    wait_for_app,
    wait_for_chart_change,
    wait_for_idle,
)
from ui.lesson.steps import STEPS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080)}
TIMEOUT_MS = 120_000
#: README's screenshot: this step (two clouds on the sphere) at 1280×720.
SCREENSHOT = (4, "1280x720", ROOT / "docs" / "screenshots" / "Lesson_presenter.png")
#: docs/pages.md's screenshots of the steps whose point is in a chart, at 1280×720.
STEP_SHOTS = {number: ROOT / "docs" / "screenshots" / f"Lesson_step{number}.png" for number in (2, 3, 5, 6, 7)}
_SIDEBAR_SHOWN = "() => { const s = document.querySelector('[data-testid=\"stSidebar\"]'); return !!s && s.offsetWidth > 0; }"
#: A step with a 3D chart (a WebGL scene) after step 1's 2D chart (SVG).
SCENE_STEP = 2
#: The camera the test turns the scene to.
EYE = {"x": 0.4, "y": -2.1, "z": 0.9}
# Turns the shown chart's scene to the camera ``eye``, as a drag would.
_TURN = f"""(eye) => {{ const gd = {PLOTS}()[0];
    return gd.ownerDocument.defaultView.Plotly.relayout(gd, {{'scene.camera.eye': eye}}).then(() => null); }}"""
# The shown chart of the page: the marks set on its element and WebGL canvas (``mark`` sets them), whether its
# context is lost, its camera's eye, the draws of its iframe and how many charts are shown there.
_SHOWN_SCENE = f"""(mark) => {{
    const gd = {PLOTS}()[0];
    const canvas = gd.querySelector('.gl-container canvas');
    if (mark) {{ gd.__stepMark = mark; canvas.__stepMark = mark; }}
    const gl = canvas.getContext('webgl2') || canvas.getContext('webgl');
    return {{element: gd.__stepMark || null, canvas: canvas.__stepMark || null, lost: gl.isContextLost(),
             eye: gd._fullLayout.scene.camera.eye, draws: Number(gd.ownerDocument.body.dataset.draws),
             shown: gd.ownerDocument.querySelectorAll('.js-plotly-plot:not(.hidden)').length}};
}}"""


def _open(chromium, app_url, address: str, viewport: str):
    width, height = VIEWPORTS[viewport]
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{app_url}/{address}")
    wait_for_app(page, TIMEOUT_MS)
    return context, page


def _step_in_address(page) -> str | None:
    return page.evaluate("() => new URLSearchParams(location.search).get('step')")


def _press(page, key: str, number: int) -> None:
    """Press ``key`` and wait until step ``number`` is open, its chart drawn and the page settled."""
    before = chart_signature(page)
    page.keyboard.press(key)
    page.wait_for_function("(title) => document.querySelector('h1')?.textContent.startsWith(title)",
                           arg=f"{number} ·", timeout=TIMEOUT_MS)
    wait_for_chart_change(page, before, TIMEOUT_MS, polling=100)
    wait_for_idle(page, TIMEOUT_MS)


def test_arrow_keys_step_through_the_lesson_and_the_address_follows(chromium, app_url):
    context, page = _open(chromium, app_url, "Lesson?present=1", "1280x720")
    try:
        assert _step_in_address(page) == "1"
        _press(page, "ArrowRight", 2)
        assert _step_in_address(page) == "2"
        _press(page, "ArrowRight", 3)
        assert _step_in_address(page) == "3"
        _press(page, "ArrowLeft", 2)
        assert _step_in_address(page) == "2"
        assert page.evaluate("() => new URLSearchParams(location.search).get('present')") == "1"
    finally:
        context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_step_fits_the_projector(chromium, app_url, viewport):
    """Walks the steps with → from step 1; at each, the chart's box lies inside the window at the top of the
    page, and the checks of ``test_presenter`` (no formula cut, nothing wider than the window, no label cut)
    pass."""
    from playwright.sync_api import expect

    context, page = _open(chromium, app_url, "Lesson?present=1", viewport)
    try:
        assert not page.evaluate(_SIDEBAR_SHOWN)
        for number in range(1, len(STEPS) + 1):
            if number > 1:
                _press(page, "ArrowRight", number)
            expect(page.get_by_test_id("stException")).to_have_count(0)
            box = page.evaluate(CHART_BOX)
            assert box["scrollY"] == 0 and box["scrollWidth"] <= box["width"], (number, box)
            assert 0 <= box["top"] and box["bottom"] <= box["height"], (number, box)
            assert 0 <= box["left"] and box["right"] <= box["width"], (number, box)
            assert page.evaluate(LAYOUT_PROBE) == {"clipped": [], "wide": [], "cut": []}, number
            if (number, viewport) == SCREENSHOT[:2]:
                page.screenshot(path=str(SCREENSHOT[2]))
            if viewport == SCREENSHOT[1] and number in STEP_SHOTS:
                page.screenshot(path=str(STEP_SHOTS[number]))
    finally:
        context.close()


# The page-coordinate top and bottom of every plotly chart (through its live chart's iframe) and of the element
# ``question`` selects, the window's height and how far the page is scrolled.
_DRAWN_BOXES = f"""(question) => {{
    const frameOf = el => Array.from(document.querySelectorAll('iframe')).find(f => f.contentDocument === el.ownerDocument);
    const box = (el, frame) => {{
        const b = el.getBoundingClientRect(), top = (frame ? frame.getBoundingClientRect().top : 0) + scrollY;
        return {{top: b.top + top, bottom: b.bottom + top}};
    }};
    const asked = document.querySelector(question);
    return {{charts: {PLOTS}().map(el => box(el, frameOf(el))), question: asked && box(asked, null),
             height: innerHeight, scrollY: scrollY}};
}}"""
# The boxes unchanged over three polls (a fitted chart refits once the question below it is drawn).
_BOXES_STILL = f"""(question) => {{
    const now = JSON.stringify(({_DRAWN_BOXES})(question));
    const s = window.__boxes || (window.__boxes = {{last: '', same: 0}});
    s.same = now === s.last ? s.same + 1 : 0;
    s.last = now;
    return s.same >= 3;
}}"""


def _drawn_boxes(page, number: int) -> dict:
    question = f".st-key-lesson_guess_{number}"
    page.evaluate("() => { window.__boxes = null; }")
    page.wait_for_function(_BOXES_STILL, arg=question, timeout=TIMEOUT_MS, polling=100)
    return page.evaluate(_DRAWN_BOXES, question)


def test_every_steps_chart_and_question_fit_the_window_and_the_chart_grows_with_it(chromium, app_url):
    """In presenter mode, walking → at 1280×720 and back ← at 1920×1080: every chart drawn above the question and
    the question itself lie inside the window at the top of the page, and the chart takes the room the window
    gives (at 1920×1080 it is taller by most of the 360 px the window gained). Before, the charts ended at the
    window's bottom (their own heights, up to 686 px at 1280×720) and every question started at 563-716 px, at
    1280×720 below the fold; at 1920×1080 the charts kept their fixed heights (step 2's sphere 340 px tall).
    The game of step 6 (its odds chart and scene) follows the question, below the fold: the class scrolls to
    play it."""
    context, page = _open(chromium, app_url, "Lesson?present=1", "1280x720")
    heights, found = {}, {}
    try:
        walks = [("1280x720", "ArrowRight", range(1, len(STEPS) + 1)), ("1920x1080", "ArrowLeft", range(len(STEPS), 0, -1))]
        for viewport, key, numbers in walks:
            page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[viewport])))
            for index, number in enumerate(numbers):
                if index:
                    _press(page, key, number)
                boxes = _drawn_boxes(page, number)
                question, window = boxes["question"], boxes["height"]
                above = [chart for chart in boxes["charts"] if chart["top"] < question["top"]]
                outside = [chart for chart in above if not (0 <= chart["top"] and chart["bottom"] <= window)]
                if boxes["scrollY"] or question["bottom"] > window or outside or not above:
                    found[(viewport, number)] = boxes
                heights[(viewport, number)] = above[0]["bottom"] - above[0]["top"] if above else 0
        assert not found, found
        grown = {number: heights[("1920x1080", number)] - heights[("1280x720", number)]
                 for number in range(1, len(STEPS) + 1)}
        assert all(gain >= 0.8 * (1080 - 720) for gain in grown.values()), (heights, grown)
    finally:
        context.close()


def test_presenter_mode_follows_the_session_and_esc_leaves_it(chromium, app_url):
    context, page = _open(chromium, app_url, "Lesson?present=1&step=2", "1280x720")
    try:
        page.get_by_role("link", name="Open the full page with these settings").click()
        page.wait_for_url("**/Private_mean_playground?**", timeout=TIMEOUT_MS)
        wait_for_app(page, TIMEOUT_MS)
        assert page.evaluate("() => new URLSearchParams(location.search).get('present')") == "1"
        assert not page.evaluate(_SIDEBAR_SHOWN)
        box = page.evaluate(CHART_BOX)
        assert 0 <= box["top"] and box["bottom"] <= box["height"], box
        page.keyboard.press("Escape")
        page.wait_for_function(_SIDEBAR_SHOWN, timeout=TIMEOUT_MS)
        page.wait_for_function("() => !new URLSearchParams(location.search).has('present')", timeout=TIMEOUT_MS)
    finally:
        context.close()


def test_a_step_shown_again_shows_its_kept_chart_not_a_redraw(chromium, app_url):
    """1 → 2 → 1 → 2: back at the 3D step, the chart on screen is the element and WebGL canvas drawn on the
    first visit (context alive, the camera the user turned it to, no draw since), alone in its iframe, and it
    holds that step's data, not step 1's."""
    context, page = _open(chromium, app_url, "Lesson?present=1", "1280x720")
    try:
        first = chart_signature(page)
        _press(page, "ArrowRight", SCENE_STEP)
        scene = chart_signature(page)
        page.evaluate(_TURN, EYE)
        marked = page.evaluate(_SHOWN_SCENE, "first visit")
        assert marked["eye"] == EYE, marked
        _press(page, "ArrowLeft", 1)
        assert chart_signature(page) == first
        _press(page, "ArrowRight", SCENE_STEP)
        again = page.evaluate(_SHOWN_SCENE, None)
        assert again == dict(marked, element="first visit", canvas="first visit"), (marked, again)
        assert again["shown"] == 1 and not again["lost"]
        assert chart_signature(page) == scene != first
    finally:
        context.close()


# The boxes (in the chart's document) of the shown 2D chart's legend and x axis title.
_LEGEND_AND_AXIS_TITLE = f"""() => {{
    const gd = {PLOTS}()[0], box = el => el && (r => ({{top: r.top, bottom: r.bottom}}))(el.getBoundingClientRect());
    return {{legend: box(gd.querySelector('.legend')), title: box(gd.querySelector('.xtitle'))}};
}}"""


@pytest.mark.parametrize("number", [1, 6])
def test_a_2d_steps_legend_keeps_clear_of_its_axis_title(chromium, app_url, number):
    """Step 6's legend overlapped its x axis's title at 1280×720 (the legend sat a fraction of the
    plotting area's height below it, and the chart fitted to the window is shorter than it was built)."""
    context, page = _open(chromium, app_url, f"Lesson?present=1&step={number}", "1280x720")
    try:
        boxes = page.evaluate(_LEGEND_AND_AXIS_TITLE)
        assert boxes["legend"] and boxes["title"], boxes
        assert boxes["legend"]["top"] >= boxes["title"]["bottom"], boxes
    finally:
        context.close()
