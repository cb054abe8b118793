"""Every page in a real headless Chromium: renders, reacts to ε and space, never shows a traceback.

Screenshots land in docs/screenshots/ for README.md.
"""

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.harness import (
    CHART_BOX,
    ROOT,
    SECTION_CONTENT,
    chart_signature,
    page_paths,
    section_buttons,
    wait_for_app,
    wait_for_chart_change,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ROOT / "docs" / "screenshots"
PAGES = page_paths()


def _no_exception(page):
    from playwright.sync_api import expect

    expect(page.get_by_test_id("stException")).to_have_count(0)


def _changes_chart(page, action):
    """Run ``action`` and wait (retrying) until some plotly chart's data differ."""
    before = chart_signature(page)
    action()
    wait_for_chart_change(page, before)


@pytest.mark.parametrize("title", list(PAGES))
def test_page_renders_and_reacts(app_page, app_url, title):
    page = app_page
    page.goto(f"{app_url}/{PAGES[title]}")
    wait_for_app(page, 120_000, chart=title != "Home")  # a loaded machine may need a while
    _no_exception(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{title or 'Home'}.png"), full_page=True)

    epsilon = page.get_by_test_id("stSlider").filter(has_text="Privacy budget ε").get_by_role("slider")
    if epsilon.count():
        def move():
            epsilon.first.focus()
            for _ in range(5):
                epsilon.first.press("ArrowLeft")
        _changes_chart(page, move)
        _no_exception(page)

    space = page.get_by_test_id("stSelectbox").filter(has_text="Space")
    if space.count():
        def switch():
            options = page.get_by_role("option")
            # A rerun still in flight can swallow the first click on the select: open it again if needed.
            for _ in range(3):
                space.first.click()
                try:
                    options.nth(1).wait_for(timeout=5_000)
                    break
                except PlaywrightTimeout:
                    page.keyboard.press("Escape")
            options.nth(1).click()
        _changes_chart(page, switch)
        _no_exception(page)


@pytest.mark.parametrize("title", ["Sensitivity", "Utility", "Private_optimization"])
def test_every_section_opens_and_lands_in_the_address(app_page, app_url, title):
    """A click on each section's button draws that section's chart or table (computed only once it is
    chosen) and puts the section into the URL, so the address reproduces the view."""
    from playwright.sync_api import expect

    page = app_page
    page.goto(f"{app_url}/{PAGES[title]}")
    wait_for_app(page)
    buttons = section_buttons(page)
    assert buttons.count() > 1
    for index in range(1, buttons.count()):
        label = buttons.nth(index).inner_text().strip()
        before = page.url
        buttons.nth(index).click()
        page.wait_for_function("(before) => window.location.href !== before", arg=before)
        expect(page.locator(SECTION_CONTENT).first).to_be_visible(timeout=60_000)
        wait_for_app(page, chart=False)
        _no_exception(page)
        assert buttons.nth(index).get_attribute("aria-checked") == "true", label
        assert "_view=" in page.url, page.url


def test_sidebar_links_open_every_page(app_page, app_url):
    """The sidebar lists the pages by name, "Home" first, and a click opens each one."""
    from playwright.sync_api import expect

    from ui import navigation

    page = app_page
    page.goto(app_url)
    wait_for_app(page, chart=False)
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("link").first).to_have_text(re.compile(r"Home\s*$"))  # after the icon's ligature
    for entry, path in zip(navigation.PAGES[1:], list(PAGES.values())[1:]):
        sidebar.get_by_role("link", name=entry.label, exact=True).click()
        page.wait_for_url(f"{app_url}/{path}*")
        wait_for_app(page)
        _no_exception(page)


def test_utility_draws_a_chart_in_its_first_screen(chromium, app_url):
    """At 1280×720 the Utility page's first screen held its introduction, the noise formulas and the
    who-wins box, and its first chart began at 974 px. The sections come first now (the formulas and the box below
    them) and the introduction is shorter: the first chart starts in the window with most of it inside."""
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/{PAGES['Utility']}")
        wait_for_app(page, 120_000)
        box = page.evaluate(CHART_BOX)
        assert box is not None and box["scrollY"] == 0
        assert box["top"] < 0.7 * box["height"], box
        assert box["height"] - box["top"] >= 0.5 * (box["bottom"] - box["top"]), box  # half the chart or more shown
    finally:
        context.close()
