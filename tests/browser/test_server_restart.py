"""An open page survives a server restart: the playground's tab reconnects to a new server on
the same port, and a move of the ε slider made as it reconnects (the first thing a user does when the
"Connecting" banner goes) reaches the new session, reruns the page and is kept; later moves still work."""

import re

import pytest

from tests.browser.harness import (
    chart_signature,
    free_port,
    streamlit_process,
    wait_for_app,
    wait_for_chart_change,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _epsilon(page):
    return page.get_by_test_id("stSidebar").get_by_test_id("stSlider").filter(has_text="Privacy budget ε")


def _noise_scale(page) -> str:
    """The text of the playground's "Noise scale" section (it names ε and the noise it gives)."""
    return page.get_by_test_id("stMain").inner_text().split("Noise scale", 1)[1].split("Assumptions checked", 1)[0]


def _move_and_wait(page, eps: str) -> None:
    """Press → on the ε slider; wait until the address, the slider, the chart and the numbers show ``eps``."""
    chart, numbers = chart_signature(page), _noise_scale(page)
    _epsilon(page).get_by_role("slider").press("ArrowRight")
    page.wait_for_function("eps => new URLSearchParams(location.search).get('eps') === eps", arg=eps,
                           timeout=120_000)
    wait_for_chart_change(page, chart, 180_000)
    wait_for_app(page, 180_000)
    assert _epsilon(page).get_by_test_id("stSliderThumbValue").inner_text() == f"{float(eps):.2f}"
    assert _noise_scale(page) != numbers


def _wait_for_reconnect(page, sockets: list, seconds: float = 60.0) -> None:
    """Wait until the page has opened its second websocket (to the restarted server)."""
    for _ in range(int(seconds * 10)):
        if len(sockets) == 2:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the page did not reconnect to the restarted server within {seconds:g} s")


def test_the_slider_keeps_working_after_a_server_restart(chromium):
    """On a server of its own (restarted on its port), with the session's Chromium: a second Playwright in
    the same process would run inside the first one's event loop."""
    port = free_port()
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        sockets = []
        page.on("websocket", lambda socket: sockets.append(socket))
        with streamlit_process(120.0, port=port) as (base, _):
            page.goto(f"{base}/Private_mean_playground")
            wait_for_app(page, 180_000)
        assert re.search(r"[?&]eps=1\.0(&|$)", page.url), page.url
        with streamlit_process(120.0, port=port):
            _wait_for_reconnect(page, sockets)
            _move_and_wait(page, "1.05")
            _move_and_wait(page, "1.1")
    finally:
        context.close()
