"""Long work shows what it is doing: the MH chains at the paper's setting (burn-in 10,000, thinning
100) draw a progress bar that names the chain step, on the playground and on the Samplers page; a Lesson step
whose run is not cached yet shows a spinner before its chart."""

import re

import pytest

from tests.browser import harness
from tests.browser.harness import chart_signature, streamlit_server, wait_for_app, wait_for_chart_change
from ui.lesson.views import WORKING

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_BAR_TEXT = "() => document.querySelector('[data-testid=\"stProgress\"]')?.innerText ?? ''"


@pytest.mark.parametrize(("address", "expected"), [
    ("Private_mean_playground?mech=mh&burn=10000&thin=100&m=500&seed=11",
     r"Riemannian Laplace \(MH\): chain step [\d,]+ of 59,900 \(\d+%\)"),
    ("Samplers?space=sphere&burn=10000&thin=100&draws=500&chains=20&seed=12",
     r"20 MH chains: step [\d,]+ of 59,900 \(\d+%\)"),
], ids=["playground", "samplers"])
def test_the_paper_mh_setting_shows_the_chain_progress_then_the_charts(app_page, app_url, address, expected):
    page = app_page
    page.goto(f"{app_url}/{address}")
    page.wait_for_function(f"() => /step [0-9,]+ of/.test(({_BAR_TEXT})())", timeout=120_000)
    assert re.search(expected, page.evaluate(_BAR_TEXT))
    wait_for_app(page, timeout_ms=180_000)
    assert page.locator('[data-testid="stProgress"]').count() == 0


# From now on, when a spinner first shows (its text) and when the charts' fingerprint first changes.
_WATCH = """(signature) => {
    window.__seen = {};
    const look = () => {
        const spinner = document.querySelector('[data-testid="stSpinner"]');
        if (spinner && window.__seen.spinner === undefined)
            window.__seen.spinner = [performance.now(), spinner.innerText];
        if (window.__seen.chart === undefined && (%s) !== signature) window.__seen.chart = performance.now();
        if (window.__seen.chart === undefined) requestAnimationFrame(look);
    };
    look();
}"""


def test_a_lesson_step_not_computed_yet_shows_a_spinner_before_its_chart(chromium):
    """On a server of its own (a cold cache), → from step 6 to step 7, the private regression's MCMC run (0.7-1 s
    alone, more under load, past the 0.5 s Streamlit waits before it shows a spinner): the step's spinner shows
    before the chart changes, and is gone once it has."""
    with streamlit_server() as base:
        context = chromium.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        try:
            page.goto(f"{base}/Lesson?step=6")
            wait_for_app(page, timeout_ms=120_000)
            before = chart_signature(page)
            page.evaluate(_WATCH % harness._SIGNATURE, before)
            page.keyboard.press("ArrowRight")
            wait_for_chart_change(page, before, timeout_ms=120_000)
            seen = page.evaluate("() => window.__seen")
            assert "spinner" in seen, "no spinner while step 7's run was computed"
            assert seen["spinner"][0] < seen["chart"] and seen["spinner"][1] == WORKING, seen
            wait_for_app(page, timeout_ms=60_000)
            assert page.locator('[data-testid="stSpinner"]').count() == 0
        finally:
            context.close()
