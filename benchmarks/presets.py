"""Home's presets as a teacher uses them (issue 14, item 8: "presets draw in under 3 s").

One server and one browser tab, as on a teacher's laptop: every page is opened once with its
defaults first (untimed), so the modules are imported and the browser has compiled Streamlit's and
plotly's scripts. Then, for each preset, Home is opened and the preset's link clicked: *first click*
times that click until the page has drawn its first chart and finished its script, with the preset's
own computation not yet cached; *again* repeats it (the cached case, as for the next student).
"""

from __future__ import annotations

import time

from benchmarks.pages import VIEWPORT
from benchmarks.timing import Row
from tests.browser.harness import (
    chromium_missing_reason,
    headless_chromium,
    page_paths,
    streamlit_server,
    wait_for_app,
    wait_for_chart,
)

TIMEOUT_MS = 180_000


def _click_preset(page, base: str, label: str) -> float:
    """Seconds from a click on the Home link ``label`` until the page's first chart is drawn and its script is idle."""
    page.goto(base)
    wait_for_app(page, timeout_ms=TIMEOUT_MS, chart=False)
    link = page.get_by_test_id("stMain").get_by_role("link", name=label, exact=True)
    start = time.perf_counter()
    link.click()
    wait_for_chart(page, timeout_ms=TIMEOUT_MS)
    wait_for_app(page, timeout_ms=TIMEOUT_MS)
    return time.perf_counter() - start


def run() -> list[Row]:
    reason = chromium_missing_reason()
    if reason:
        return [Row("Home presets", float("nan"), "< 3 s", f"skipped: {reason}")]
    from app import PRESETS

    rows = []
    with headless_chromium() as browser, streamlit_server() as base:
        page = browser.new_context(viewport=VIEWPORT).new_page()
        for path in page_paths().values():
            page.goto(f"{base}/{path}")
            wait_for_app(page, timeout_ms=TIMEOUT_MS, chart=False)
        for label, script, _ in PRESETS:
            first = _click_preset(page, base, label)
            again = _click_preset(page, base, label)
            rows.append(Row(f"Home preset → {script.split('/')[-1]}: {label[:60]}…", first, "< 3 s",
                            f"first click {first:.2f} s, again (cached) {again:.2f} s"))
        page.context.close()
    return rows
