"""Address values appear as literal text in a real Chromium: a markdown link, HTML or a
bare URL in a URL parameter never becomes a link or markup inside the app's own warning."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.browser.harness import wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = "[Session expired: click to log in](https://evil.example/login) <b>now</b> https://evil.example"


@pytest.mark.parametrize(("path", "key"), [("Sensitivity", "space"), ("Utility", "preset")])
def test_link_in_the_address_is_shown_as_text(app_page, app_url, path, key):
    page = app_page
    page.goto(f"{app_url}/{path}?{urlencode({key: HOSTILE})}")
    wait_for_app(page, 90_000, chart=False)
    warning = page.get_by_test_id("stAlert").filter(has_text="Ignored the address parameter")
    assert warning.count() == 1
    assert "[Session expired: click to log in](https://evil.example/logi" in warning.inner_text()
    assert page.locator("a[href*='evil']").count() == 0
    assert warning.locator("b").count() == 0
