"""Private regression page in headless Chromium: the budget slider redraws the outlines, the Table 1 tab
shows its numbers, and the sphere data set draws the 3D arcs."""

import pytest

from tests.browser.harness import chart_signature, plot_locator, wait_for_app, wait_for_chart_change

pytestmark = [pytest.mark.browser, pytest.mark.slow]
FAST = "reg_n=20&reg_k=10&reg_releases=2&reg_warmup=100"
# The page computes its releases on the server; on a loaded 2-core machine that can take 30 s or more.


def test_budget_slider_and_tabs(app_page, app_url):
    from playwright.sync_api import expect

    page = app_page
    page.goto(f"{app_url}/Private_regression?{FAST}")
    wait_for_app(page, timeout_ms=120_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    slider = page.get_by_test_id("stSlider").filter(has_text="Footpoint budget").get_by_role("slider")
    before = chart_signature(page)
    # One rerun, to the largest budget: below ε_p ≈ 1 at n = 20 the K-norm law is so close to uniform on the
    # public ball that the seeded chains make the same moves and draw the same releases.
    slider.first.press("End")  # press() focuses the slider first
    page.wait_for_function("() => window.location.search.includes('reg_eps_p=100')", timeout=120_000)
    wait_for_chart_change(page, before, timeout_ms=180_000)
    page.get_by_role("radio", name="Table 1 and diagnostics").click()
    expect(page.get_by_text("Table 1 with the numbers plugged in")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_sphere_arcs(app_page, app_url):
    from playwright.sync_api import expect

    page = app_page
    page.goto(f"{app_url}/Private_regression?{FAST}&reg_data=drift")
    wait_for_app(page, timeout_ms=120_000)
    expect(plot_locator(page, 0).locator(".gl-container").first).to_be_attached(timeout=60_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_default_view_screenshot(app_page, app_url):
    """The page with its default settings (the paper's n = 100, k = 50), saved for README.md like every page's
    screenshot in test_pages.py, with a longer wait for the first computation."""
    from playwright.sync_api import expect

    from tests.browser.test_pages import SHOTS

    page = app_page
    page.goto(f"{app_url}/Private_regression")
    wait_for_app(page, timeout_ms=180_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "Private_regression.png"), full_page=True)
