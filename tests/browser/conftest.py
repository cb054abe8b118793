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
def chromium(app_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def app_page(chromium):
    """A fresh browser tab (own context); named apart from pytest-playwright's ``page`` fixture."""
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    context.close()
