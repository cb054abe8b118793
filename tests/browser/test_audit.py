"""The Audit page in a real headless Chromium: opened from the sidebar, the first bound and the live
curve while the audit runs, the positive control beside it flagged.

``test_pages.py`` takes the page's screenshot (docs/screenshots/Audit.png) with the others.
"""

import re

import pytest

from tests.browser.harness import plot_count, wait_for_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Text of the progress bar at every checkpoint (ui/audit/views.py) and of the two verdicts (markdown
# renders ">=" as "≥").
PROGRESS = re.compile(r"releases per side: (?:epsilon|ε) (?:>=|≥) \d")
WITHIN = re.compile(r"Within the claim: (?:epsilon|ε) (?:>=|≥) \d\.\d{3}")
FLAGGED = re.compile(r"Flagged: (?:epsilon|ε) (?:>=|≥) \d\.\d{3} with 95% confidence, above the claimed 1")
# Records whether the live curve was ever drawn (the bound's trace in a chart whose title is empty once
# Streamlit's theme tags (<b></b>) are stripped: the final curve is titled with the audit's name) and
# whether a checkpoint's progress text was ever shown: both are removed when the run ends, and a fast run
# ends between two polls of an ``expect``, so an observer notes every state the page passes through.
WATCH_LIVE_RUN = """(progressPattern) => {
    const progress = new RegExp(progressPattern);
    window.__liveCurveSeen = false;
    window.__progressSeen = false;
    const check = () => {
        if (Array.from(document.querySelectorAll('.js-plotly-plot')).some(el =>
                (el.data || []).some(t => t.name === '95% lower bound on epsilon')
                && !(((el.layout || {}).title || {}).text || '').replace(/<[^>]*>/g, '').trim())) {
            window.__liveCurveSeen = true;
        }
        if (Array.from(document.querySelectorAll('[data-testid="stProgress"]')).some(el =>
                progress.test(el.textContent))) {
            window.__progressSeen = true;
        }
    };
    new MutationObserver(check).observe(document.body, {subtree: true, childList: true, characterData: true});
    setInterval(check, 50);
}"""


def _no_exception(page):
    from playwright.sync_api import expect

    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_audit_page_from_the_sidebar_shows_bound_live_curve_and_flagged_control(app_page, app_url):
    from playwright.sync_api import expect

    page = app_page
    page.goto(app_url)
    wait_for_app(page, chart=False)
    page.get_by_test_id("stSidebar").get_by_role("link", name="Audit", exact=True).click()
    page.wait_for_url(f"{app_url}/Audit*")
    main = page.get_by_test_id("stMain")

    # Defaults: the sphere's Riemannian Laplace within its claim, the half-noise control flagged.
    expect(main.get_by_text(WITHIN)).to_be_visible(timeout=60_000)
    expect(main.get_by_text(FLAGGED)).to_be_visible(timeout=60_000)
    wait_for_app(page, timeout_ms=120_000)  # plotly.js (4.7 MB) compiles slowly on a loaded machine
    _no_exception(page)
    assert plot_count(page) >= 4  # curve (updated in place) and histograms, twice

    # A budget of 1,000,000 releases per side runs through several checkpoints: the progress bar reports
    # each one's bound and the live curve is drawn meanwhile; both are gone when the run ends.
    page.evaluate(WATCH_LIVE_RUN, PROGRESS.pattern)
    budget = page.get_by_test_id("stSelectbox").filter(has_text="Releases per side")
    budget.click()
    page.get_by_role("option", name="1,000,000").click()
    page.wait_for_function("() => window.__progressSeen", timeout=120_000)
    assert "samples=1000000" in page.url
    wait_for_app(page, timeout_ms=300_000)
    assert page.evaluate("() => window.__liveCurveSeen")
    expect(main.get_by_text(FLAGGED)).to_be_visible()
    expect(main.get_by_text(WITHIN)).to_be_visible()
    _no_exception(page)
