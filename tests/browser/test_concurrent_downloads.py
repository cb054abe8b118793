"""Downloads under concurrent sessions: on the Samplers page, a file a click builds is still
there when the browser fetches it, although the other sessions rerun meanwhile (every finished run
sweeps the server's unreferenced files). The first session's fetches of built files are held back a few
seconds, so the other sessions' runs surely end in between; no console shows a 404 and every file
arrives whole."""

import io
import time

import pandas as pd
import pytest

from tests.browser.harness import wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SESSIONS = 4
FETCH_DELAY_S = 4.0
BUTTONS = ("Data (CSV)", "Figure (HTML)")


def _thinning(page):
    return page.get_by_test_id("stSidebar").get_by_test_id("stSlider").filter(has_text="Thinning").get_by_role("slider")


def _late_fetch(route):
    time.sleep(FETCH_DELAY_S)
    route.continue_()


def test_built_downloads_survive_other_sessions_reruns(chromium, app_url):
    contexts = [chromium.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
                for _ in range(SESSIONS)]
    try:
        pages = [context.new_page() for context in contexts]
        console = []
        for page in pages:
            page.on("console", lambda message: console.append(message.text))
        for index, page in enumerate(pages):
            page.goto(f"{app_url}/Samplers?seed={index}", wait_until="commit")
        for page in pages:
            wait_for_app(page, 300_000)
        clicker, others = pages[0], pages[1:]
        clicker.route("**/media/**", _late_fetch)
        arrived = {}
        for label in BUTTONS:
            for page in others:
                _thinning(page).press("ArrowRight")
            button = clicker.get_by_test_id("stDownloadButton").get_by_role("button", name=label).first
            with clicker.expect_download(timeout=60_000) as download:
                button.click()
            arrived[label] = download.value.path().read_bytes()
            clicker.wait_for_timeout(FETCH_DELAY_S * 1000)
            for page in others:
                wait_for_app(page, 300_000)
        assert [text for text in console if "Download Button" in text] == []
        assert len(pd.read_csv(io.BytesIO(arrived["Data (CSV)"]))) > 0
        assert b"<html" in arrived["Figure (HTML)"][:2000].lower()
    finally:
        for context in contexts:
            context.close()
