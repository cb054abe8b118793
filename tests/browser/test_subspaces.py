"""Private subspaces page in a real headless Chromium: the 3D view renders in WebGL, a method chosen in
the sidebar redraws it and lands in the address, and a too-small n is explained, not a traceback.

The screenshot docs/screenshots/Private_subspaces.png comes from ``test_pages.py`` like every page's.
"""

import re

import pytest

from tests.browser.harness import chart_signature, plot_locator, wait_for_app, wait_for_chart_change

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_method_switch_redraws_the_subspaces(app_page, app_url):
    from playwright.sync_api import expect

    page = app_page
    page.goto(f"{app_url}/Private_subspaces")
    wait_for_app(page)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(plot_locator(page, 0).locator(".gl-container canvas").first).to_be_visible()  # in the live chart's iframe
    expect(page.get_by_test_id("stMetric")).to_have_count(3)  # drawn by the run after the chart-first one
    before = chart_signature(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Method").click()
    page.get_by_role("option", name="Analyze Gauss (noisy XᵀX)").click()
    wait_for_chart_change(page, before, timeout_ms=120_000)
    page.wait_for_function("() => window.location.href.includes('method=analyze-gauss')")
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_too_small_n_is_explained(app_page, app_url):
    from playwright.sync_api import expect

    page = app_page
    page.goto(f"{app_url}/Private_subspaces?n=20")
    wait_for_app(page, chart=False)
    alert = page.get_by_test_id("stAlert").filter(has_text="is too small")
    expect(alert).to_contain_text(re.compile("needs n (>=|≥) 59"))  # Streamlit's markdown typesets >= as ≥
    expect(page.get_by_test_id("stException")).to_have_count(0)
