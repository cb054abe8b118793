"""In Chromium, a window too narrow for the sidebar beside the page (800×600) opens every page with
the sidebar collapsed and its open button shown, so the page has the window's width and nothing in it is
wider (before: the sidebar kept 300 px, the page had 500, and the playground's formulas passed the window's
edge in 74 elements); 1280×720 and 1920×1080 keep the sidebar open beside the page, as before."""

import pytest

from tests.browser.harness import wait_for_app, wait_for_rest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The sidebar's and the page's boxes, whether the open button shows, and the page's elements (not KaTeX's
# hidden MathML copy, SVG or WebGL internals) whose right edge passes the window's.
_LAYOUT = """() => {
    const box = s => document.querySelector(s).getBoundingClientRect();
    const wide = [...document.querySelectorAll('[data-testid="stMain"] *')]
        .filter(el => !el.closest('.katex-mathml, svg, canvas') && el.getBoundingClientRect().width > 0
                && el.getBoundingClientRect().right > innerWidth + 1)
        .map(el => el.tagName + ': ' + el.textContent.slice(0, 60));
    return {sidebar: box('[data-testid="stSidebar"]').right, main: box('[data-testid="stMain"]').width,
            open: !!document.querySelector('[data-testid="stExpandSidebarButton"]'),
            scrollWidth: document.documentElement.scrollWidth, wide};
}"""


def _layout(chromium, url: str, width: int, height: int, *, opened: bool = False) -> dict:
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url)
        wait_for_app(page, 180_000)
        if opened:
            page.locator('[data-testid="stExpandSidebarButton"]').click()
            page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]')"
                                   ".getBoundingClientRect().right > 0", timeout=10_000)
            wait_for_rest(page, '[data-testid="stSidebar"]')
        return page.evaluate(_LAYOUT)
    finally:
        context.close()


@pytest.mark.parametrize("path", ["Private_mean_playground", "Sensitivity", "Audit"])
def test_a_narrow_window_collapses_the_sidebar_and_fits_the_page(chromium, app_url, path):
    seen = _layout(chromium, f"{app_url}/{path}", 800, 600)
    assert seen["sidebar"] <= 0 and seen["open"], seen
    assert seen["main"] == 800 and seen["scrollWidth"] <= 800, seen
    assert not seen["wide"], seen["wide"][:10]


def test_the_open_button_brings_the_sidebar_back_in_a_narrow_window(chromium, app_url):
    seen = _layout(chromium, f"{app_url}/Private_mean_playground", 800, 600, opened=True)
    assert seen["sidebar"] == 300 and not seen["open"], seen


@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
def test_wider_windows_keep_the_sidebar_beside_the_page(chromium, app_url, width, height):
    seen = _layout(chromium, f"{app_url}/Private_mean_playground", width, height)
    assert seen["sidebar"] == 300 and not seen["open"] and seen["main"] == width - 300, seen
    assert not seen["wide"], seen["wide"][:10]
