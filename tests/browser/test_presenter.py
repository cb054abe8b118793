"""Issue 14's presenter check: every page and every Home preset as a projector shows it.

At 1280×720 and 1920×1080 each view must draw its first chart, show no traceback, cut no formula
at its column's edge, put no element beyond the viewport's width and cut no label short with "…".
A screenshot of each lands in the test's temporary folder (printed with ``-s``) to look through.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.browser.harness import LAYOUT_PROBE, PLOTS, page_paths, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080)}
TIMEOUT_MS = 120_000


def _targets() -> dict[str, str]:
    """View name -> address (relative to the app's root) of every page and every Home preset."""
    from app import PRESETS

    targets = {title: path for title, path in page_paths().items()}
    for index, (_, script, params) in enumerate(PRESETS, start=1):
        path = re.sub(r"^pages/\d+_|\.py$", "", script)
        targets[f"preset-{index}-{path}"] = f"{path}?{urlencode(params)}"
    return targets


TARGETS = _targets()
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
