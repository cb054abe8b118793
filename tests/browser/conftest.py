"""Fixtures for the real-browser tests: one Streamlit server and one Chromium per session."""

import pytest

from tests.browser.harness import chromium_missing_reason, headless_chromium, streamlit_server


@pytest.fixture(scope="session")
def app_url():
    reason = chromium_missing_reason()
    if reason:
        pytest.skip(f"browser tests skipped: {reason}")
    with streamlit_server() as base:
        yield base


@pytest.fixture(scope="session")
def chromium(app_url):
    with headless_chromium() as browser:
        yield browser


@pytest.fixture
def app_page(chromium):
    """A fresh browser tab (own context); named apart from pytest-playwright's ``page`` fixture."""
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    context.close()
