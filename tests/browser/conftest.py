"""Fixtures for the real-browser tests: one Streamlit server and one Chromium per session."""

import pytest

from tests.browser.harness import CHROMIUM, LAUNCH_ARGS, chromium_missing_reason, streamlit_server


@pytest.fixture(scope="session")
def app_url():
    reason = chromium_missing_reason()
    if reason:
        pytest.skip(f"browser tests skipped: {reason}")
    with streamlit_server() as base:
        yield base


@pytest.fixture(scope="session")
def browser(app_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    context.close()
