"""Every page and every Home preset as a projector shows it.

At 1280×720 and 1920×1080 each view must draw its first chart, show no traceback, cut no formula
at its column's edge, put no element beyond the viewport's width and cut no label short with "…".
A screenshot of each lands in the test's temporary folder (printed with ``-s``) to look through.

Every page and every section in presenter mode (``?present=1``) at 1280×720, 1920×1080
and in an 800 px wide window: the main chart inside the window without scrolling, nothing cut or wider than the
window. One tab of one browser walks all views.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.browser.harness import CHART_BOX, LAYOUT_PROBE, PLOTS, page_paths, wait_for_app
from ui.presenter import CHART as PRESENTER_CHART

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080)}
#: Presenter mode's sizes, the narrowest first: a laptop's 800 px wide window and the two projectors.
PRESENTER_VIEWPORTS = {"800x600": (800, 600), **VIEWPORTS}
TIMEOUT_MS = 120_000


def _targets() -> dict[str, str]:
    """View name -> address (relative to the app's root) of every page and every Home preset."""
    from ui.home_presets import PRESETS

    targets = {title: path for title, path in page_paths().items()}
    for index, (_, script, params) in enumerate(PRESETS, start=1):
        path = re.sub(r"^pages/\d+_|\.py$", "", script)
        targets[f"preset-{index}-{path}"] = f"{path}?{urlencode(params)}"
    return targets


TARGETS = _targets()


def _section_views() -> dict[str, str]:
    """View name -> address of every page (its first section) and of every further section of a page with sections."""
    from ui import regression, sensitivity, utility
    from ui.optimization import apps as optimization

    views = dict(page_paths())
    for module, page in ((sensitivity, "Sensitivity"), (utility, "Utility"), (optimization, "Private_optimization"),
                         (regression, "Private_regression")):
        for label in module.SECTIONS[1:]:
            views[f"{page}-{label}"] = f"{page}?{urlencode({module.SECTION_KEY: label})}"
    return views


SECTION_VIEWS = _section_views()
_DRAWN = f"() => {PLOTS}().some(el => el._fullLayout && el.offsetHeight > 0)"
# After a resize: the window has its new width and the main area's size stayed the same over three polls
# (Streamlit's columns and the charts' autosize follow the window within a few frames).
_RESIZED = """(width) => {
    const main = document.querySelector('[data-testid="stMain"]');
    const size = window.innerWidth + 'x' + main.scrollWidth + 'x' + main.scrollHeight;
    const s = window.__resize || (window.__resize = {size: '', same: 0});
    s.same = (window.innerWidth === width && size === s.size) ? s.same + 1 : 0;
    s.size = size;
    return s.same >= 3;
}"""


# A section switch (ui.sections) drawn below the first chart of its own section: presenter mode moves that chart up.
_SWITCH_BELOW_CHART = f"""() => Array.from(document.querySelectorAll('[data-testid="stButtonGroup"]')).some(group => {{
    const chart = group.closest('[data-testid="stVerticalBlock"]').querySelector('{PRESENTER_CHART}');
    return chart !== null && chart.getBoundingClientRect().top < group.getBoundingClientRect().bottom;
}})"""


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("presenter")
    print(f"presenter screenshots in {folder}")
    return folder


@pytest.mark.parametrize("view", list(TARGETS))
def test_presenter_view(chromium, app_url, shots, view):
    """One load per view, checked at each projector size from the smallest up (a window made wider never
    pushes an element past its edge that the narrower one did not)."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport=dict(zip(("width", "height"), VIEWPORTS["1280x720"])))
    try:
        page = context.new_page()
        page.goto(f"{app_url}/{TARGETS[view]}")
        wait_for_app(page, TIMEOUT_MS, chart=False)
        if view != "Home":
            page.wait_for_function(_DRAWN, timeout=TIMEOUT_MS)  # the first chart is drawn
        expect(page.get_by_test_id("stException")).to_have_count(0)
        for viewport, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(_RESIZED, arg=width, timeout=TIMEOUT_MS, polling=100)
            page.screenshot(path=str(shots / f"{view}-{viewport}.png"))
            found = page.evaluate(LAYOUT_PROBE)
            assert found == {"clipped": [], "wide": [], "cut": []}, (viewport, found)
    finally:
        context.close()


@pytest.fixture(scope="module")
def presenter_tab(chromium):
    """One browser tab for every view of the presenter check (the server's caches warm across views)."""
    context = chromium.new_context(viewport=dict(zip(("width", "height"), PRESENTER_VIEWPORTS["800x600"])))
    yield context.new_page()
    context.close()


def _resize(page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => { window.__resize = null; }")
    page.wait_for_function(_RESIZED, arg=width, timeout=TIMEOUT_MS, polling=100)


@pytest.mark.parametrize("view", SECTION_VIEWS)
def test_every_page_and_section_in_presenter_mode_and_at_800_px(presenter_tab, app_url, shots, view):
    """In presenter mode at 800 px, 1280×720 and 1920×1080 the first chart lies inside the window with the page
    scrolled to its top, a section switch stays above its section's chart, and no formula is cut, nothing is
    wider than the window and no label is cut short."""
    from playwright.sync_api import expect

    page = presenter_tab
    address = SECTION_VIEWS[view]
    page.set_viewport_size(dict(zip(("width", "height"), PRESENTER_VIEWPORTS["800x600"])))
    page.goto(f"{app_url}/{address}{'&' if '?' in address else '?'}present=1")
    wait_for_app(page, TIMEOUT_MS, chart=view != "Home")
    expect(page.get_by_test_id("stException")).to_have_count(0)
    found = {}
    for viewport, (width, height) in PRESENTER_VIEWPORTS.items():
        _resize(page, width, height)
        page.screenshot(path=str(shots / f"present-{view}-{viewport}.png"))
        box = page.evaluate(CHART_BOX)
        if box is not None and not (box["scrollY"] == 0 and box["scrollWidth"] <= width and 0 <= box["top"]
                                    and box["bottom"] <= height and 0 <= box["left"] and box["right"] <= width):
            found[f"chart at {viewport}"] = box
        if page.evaluate(_SWITCH_BELOW_CHART):
            found[f"section switch at {viewport}"] = "below its section's chart"
        layout = {kind: items for kind, items in page.evaluate(LAYOUT_PROBE).items() if items}
        if layout:
            found[f"layout at {viewport}"] = layout
    assert not found, found
