"""Time to first chart and cached re-render of every page in headless Chromium (medians of 3)."""

from __future__ import annotations

import statistics
import time

from benchmarks.timing import Row
from tests.browser.harness import (CHROMIUM, LAUNCH_ARGS, chart_signature, chromium_missing_reason, page_paths,
                                   streamlit_server, wait_for_app, wait_for_chart_change)


def _load(page, url: str, chart: bool) -> float:
    """Seconds from navigation to the first drawn plotly chart (the title, on a page without one)."""
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .main-svg" if chart else "h1", timeout=120_000)
    elapsed = time.perf_counter() - start
    wait_for_app(page, timeout_ms=120_000, chart=chart)
    return elapsed


def _cached_rerender(page) -> float:
    """Move the first sidebar slider one step away and back; time the way back (a cache hit)."""
    slider = page.get_by_test_id("stSidebar").get_by_role("slider")
    if not slider.count():
        return float("nan")
    slider.first.focus()
    before = chart_signature(page)
    slider.first.press("ArrowLeft")
    wait_for_chart_change(page, before, timeout_ms=120_000)
    before = chart_signature(page)
    start = time.perf_counter()
    slider.first.press("ArrowRight")
    wait_for_chart_change(page, before, timeout_ms=120_000)
    return time.perf_counter() - start


def run() -> list[Row]:
    reason = chromium_missing_reason()
    if reason:
        return [Row("page timings", float("nan"), "< 2 s / < 0.5 s", f"skipped: {reason}")]
    from playwright.sync_api import sync_playwright

    rows = []
    with streamlit_server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        for title, path in page_paths().items():
            url = f"{base}/{path}"
            first, cached = [], []
            for attempt in range(3):
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                first.append(_load(page, url, chart=title != "Home"))
                cached.append(_cached_rerender(page))
                context.close()
            rows.append(Row(f"page {title}: first chart (cold cache on run 1)" if title != "Home" else "page Home: rendered", statistics.median(first), "< 2 s",
                            f"runs: {', '.join(f'{t:.2f}' for t in first)}"))
            rows.append(Row(f"page {title}: cached re-render", statistics.median(cached), "< 0.5 s",
                            "first sidebar slider moved back to a computed value"))
        browser.close()
    return rows
