"""``ui.live_chart`` against ``st.plotly_chart`` in one run (issue 15): ``python -m benchmarks live_chart``.

On the bare reference page (``benchmarks/reference_app.py``), for the playground's sphere scene and
for a 2D line, each drawn both ways: the first chart in a new browser profile and on a returning
visit, and the cached re-render (the sidebar's seed slider moved one step and back, timing the way
back). Then the playground, whose main chart is a live chart, on S² and H²: first chart and cached
re-render, with its ratio to the floors of the same run, and on S² the time until the whole page is
drawn (its last section, the privacy guarantees): the playground draws its chart first
(``ui.first_paint``), so that time shows what the rest of the page waits. Best and median of
``REPEATS`` runs each.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.pages import CHART, REFERENCE, REPEATS, _new_page, _rerenders, _row, _visits, _warm
from benchmarks.timing import Row
from tests.browser.harness import chromium_missing_reason, headless_chromium, streamlit_server, wait_for_chart

#: Pages of the app timed here (their main chart is a live chart).
PAGES = {"playground S² (3D sphere scene)": "Private_mean_playground",
         "playground H² (2D Poincaré disk)": "Private_mean_playground?space=hyperbolic"}
#: The last section of the playground to be drawn.
LAST_SECTION = "text=Privacy guarantees"


def _complete(browser, url: str) -> list[float]:
    """Returning visits to ``url``: seconds until its chart is drawn and ``LAST_SECTION`` is shown."""
    times = []
    for _ in range(REPEATS):
        page = _new_page(browser)
        page.goto(url)
        page.wait_for_selector(LAST_SECTION, timeout=120_000)
        page.goto("about:blank")
        start = time.perf_counter()
        page.goto(url)
        wait_for_chart(page, timeout_ms=120_000)
        page.wait_for_selector(LAST_SECTION, timeout=120_000)
        times.append(time.perf_counter() - start)
        page.context.close()
    return times


def _measure(browser, url: str) -> dict[str, list[float]]:
    """First chart (new browser, returning) and cached re-render of ``url``."""
    _warm(browser, url)
    fresh, returning = _visits(browser, url, CHART)
    return {"new browser": fresh, "returning": returning, "cached re-render": _rerenders(browser, url)}


def rows(browser) -> list[Row]:
    """Rows of the live chart benchmark (one server for the floors, one for the app)."""
    floors: dict[tuple[str, bool], dict[str, list[float]]] = {}
    out = []
    with streamlit_server(app=REFERENCE) as base:
        for chart in ("sphere", "2d"):
            for live in (False, True):
                url = f"{base}/?chart={chart}" + ("&live=true" if live else "")
                floors[chart, live] = found = _measure(browser, url)
                how = "ui.live_chart" if live else "st.plotly_chart"
                for what, times in found.items():
                    target = "< 0.5 s" if what == "cached re-render" else "floor"
                    out.append(_row(f"bare page, {chart} via {how}: {what}", times, target))
    with streamlit_server() as base:
        for title, path in PAGES.items():
            found = _measure(browser, f"{base}/{path}")
            chart = "sphere" if "S²" in title else "2d"
            for what, times in found.items():
                if what == "cached re-render":
                    out.append(_row(f"{title}: cached re-render", times, "< 0.5 s"))
                    continue
                ratios = [f"{statistics.median(times) / statistics.median(floors[chart, live][what]):.2f}× / "
                          f"{min(times) / min(floors[chart, live][what]):.2f}× the {how} floor"
                          for live, how in ((False, "st.plotly_chart"), (True, "live-chart"))]
                out.append(_row(f"{title}: first chart, {what}", times, "≤ 1.2× floor",
                                f"{'; '.join(ratios)} (median/median / best/best)"))
        complete = _complete(browser, f"{base}/{PAGES['playground S² (3D sphere scene)']}")
        out.append(_row("playground S²: whole page drawn, returning", complete, "",
                        f"{statistics.median(complete) / statistics.median(floors['sphere', False]['returning']):.2f}× "
                        "the sphere floor's first chart (median/median)"))
    return out


def run() -> list[Row]:
    reason = chromium_missing_reason()
    if reason:
        return [Row("live chart timings", float("nan"), "< 0.5 s", f"skipped: {reason}")]
    with headless_chromium() as browser:
        return rows(browser)
