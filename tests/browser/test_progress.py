"""Long work shows what it is doing: the MH chains at the paper's setting (burn-in 10,000, thinning
100) draw a progress bar that names the chain step, on the playground and on the Samplers page."""

import re

import pytest

from tests.browser.harness import wait_for_app

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
