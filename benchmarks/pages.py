"""Time to first chart and cached re-render of every page in headless Chromium (best and median of 5).

Four ways to reach a page, all with the server's cache warm (one untimed load first):

- *new browser*: a fresh browser profile opens the URL, so Streamlit's and plotly's scripts are
  fetched and compiled (plotly.js alone is 4.7 MB);
- *returning*: the same profile opens the URL again (scripts come from the browser's cache);
- *in the app*: a click on the page's link in the sidebar, from the home page (from Sensitivity
  for Home), which is how users move between pages;
- *cached re-render*: the first sidebar slider moved one step and back, timing the way back.

On every new-browser and returning visit of a page with a chart-first run, *sidebar usable* is the time from the
first drawn chart until the sidebar's first value widget (slider, select box, text or number field; on the
Lesson its step selector, ``CONTROLS``) is in the page and enabled (``_SIDEBAR_WATCH``, timed in the page from
its own frames): the chart-first run (``ui.first_paint``) draws the chart alone, and the widgets come with the
full run it asks for.

The 3D views that are not a page's default (``VIEWS_3D``: Private optimization's manifold tab, Private
regression on S²) get a cached re-render row of their own.

``benchmarks/reference_app.py`` gives the floor: a bare page with one small 2D or 3D chart, one
with the playground's sphere scene alone, and one per page with that page's own first chart alone
(taken from an AppTest run of the page at its defaults and drawn as the page draws it), opened at the
page's own address, where Streamlit first probes for its server one level down (streamlit#7074) as it
does on every page but Home. Each page's first chart (new browser, returning) is stated as a ratio to
its own chart's floor and to the floor with the same kind of small chart (``FLOOR_CHART``), both of
the same run. The floor draws the chart as wide as the page drew it (``first_chart_width``): Private
regression's chart is 940 px wide on the page and was 704 px on the floor's narrow layout, Utility's
462 px and 704 px. A page and its own chart's floor are visited in turn, ``PAIRED_REPEATS`` times each
(``_paired_visits``): the shared machine's speed drifts over minutes, and a floor measured minutes before
its page moved the ratio by up to ±0.25× between runs.

The ε animation of the playground (``?anim=true``, issue 15) is timed per frame: ``Plotly.animate``
to one frame and the next paint, over every frame of the slider, and a click on the slider's rail
until the releases have moved; against the sphere-scene floor and the cached re-render of the
same run (the server round trip that scrubbing ε replaces). The same for the tangent-plane view
under the sphere (a 2D chart whose frames need no redraw), and for the n animation
(``?anim=true&anim_over=n``), whose 3D frames also move the true mean and the data.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.timing import Row
from tests.app import charts
from tests.browser.harness import (
    PLOTS,
    ROOT,
    chart_signature,
    chromium_missing_reason,
    headless_chromium,
    page_paths,
    plot_locator,
    streamlit_server,
    wait_for_app,
    wait_for_chart,
    wait_for_chart_change,
)

REPEATS = 5
#: Visits of each page and of its own chart alone, in turn (``_paired_visits``).
PAIRED_REPEATS = 7
VIEWPORT = {"width": 1400, "height": 1000}
CHART = ".js-plotly-plot .main-svg"
REFERENCE = Path(__file__).with_name("reference_app.py")
#: The playground's 2D views, against its default 3D sphere (returning visits only).
VARIANTS = {"Private_mean_playground on H² (Poincaré disk)": "Private_mean_playground?space=hyperbolic",
            "Private_mean_playground on Kendall shapes": "Private_mean_playground?space=kendall"}
#: Environment variable naming the folder of the page figures that ``reference_app.py`` draws alone.
FIGURES_ENV = "MPE_REFERENCE_FIGURES"
#: The bare reference page each page's first chart is held against (``reference_app.py``; others: "2d").
FLOOR_CHART = {"Private_mean_playground": "sphere", "Private_subspaces": "3d"}
#: 3D views that are not their page's default view (cached re-render only; Private subspaces' default is 3D).
VIEWS_3D = {"Private_optimization, tab On the manifold (SPD cone)": "Private_optimization?opt_view=On+the+manifold",
            "Private_regression on S² (drift, geodesic arcs)": "Private_regression?reg_data=drift"}


#: Where a page's controls are: the sidebar, and on the Lesson its step selector above the chart.
CONTROLS = '[data-testid="stSidebar"], .st-key-step'
# Records (in the top window, from its first frame on each load) the time of the first frame in which a
# plotly chart is drawn, with that chart's width, and of the first in which a value widget of the controls
# is enabled.
_SIDEBAR_WATCH = f"""(() => {{
    if (window.top !== window) return;
    const seen = window.__sidebarSeen = {{}};
    const usable = () => Array.from(document.querySelectorAll(
        ':is({CONTROLS}) :is([role="slider"], input, textarea)')).some(
        el => !el.disabled && el.getAttribute('aria-disabled') !== 'true');
    const look = () => {{
        const now = performance.now();
        const drawn = seen.chart === undefined && {PLOTS}().find(el => el.querySelector('.main-svg'));
        if (drawn) [seen.chart, seen.width] = [now, drawn.getBoundingClientRect().width];
        if (seen.widget === undefined && usable()) seen.widget = now;
        if (seen.chart === undefined || seen.widget === undefined) requestAnimationFrame(look);
    }};
    requestAnimationFrame(look);
}})()"""


def _sidebar_wait(page) -> float:
    """Seconds from the first drawn chart of the load under way until the sidebar's first value widget was
    enabled (0 when it was before), from ``_SIDEBAR_WATCH``."""
    page.wait_for_function("() => window.__sidebarSeen && window.__sidebarSeen.widget !== undefined",
                           timeout=120_000)
    seen = page.evaluate("() => window.__sidebarSeen")
    return max(0.0, (seen["widget"] - seen["chart"]) / 1000)


def _chart_first(path: str) -> bool:
    """Whether the page at URL path ``path`` has a chart-first run (its script calls ``ui.first_paint.pending``),
    whose full run brings the sidebar's widgets: the pages whose sidebar wait is timed."""
    script = next((ROOT / "pages").glob(f"*_{path}.py"), None)
    return script is not None and "first_paint.pending()" in script.read_text()


def _timed(page, action, selector: str) -> float:
    """Seconds from ``action()`` until ``selector`` is in the page (``CHART``: a drawn plotly chart, in the
    page or in a live-chart iframe)."""
    start = time.perf_counter()
    action()
    if selector == CHART:
        wait_for_chart(page, timeout_ms=120_000)
    else:
        page.wait_for_selector(selector, timeout=120_000)
    return time.perf_counter() - start


def _new_page(browser):
    return browser.new_context(viewport=VIEWPORT).new_page()


def _warm(browser, url: str) -> None:
    """Open ``url`` once, untimed, so the server's cache holds its computations."""
    page = _new_page(browser)
    page.goto(url)
    wait_for_app(page, timeout_ms=120_000)
    page.context.close()


def _cached_rerender(page) -> float:
    """Move the first sidebar slider one step away and back; time the way back (a cache hit)."""
    slider = page.get_by_test_id("stSidebar").get_by_role("slider")
    if not slider.count():
        return float("nan")
    before = chart_signature(page)
    slider.first.press("ArrowLeft")  # press() focuses the slider first: a rerun may have taken the focus
    wait_for_chart_change(page, before, timeout_ms=120_000)
    wait_for_app(page, timeout_ms=120_000)
    before = chart_signature(page)
    start = time.perf_counter()
    slider.first.press("ArrowRight")
    wait_for_chart_change(page, before, timeout_ms=120_000)
    return time.perf_counter() - start


def _rerenders(browser, url: str) -> list[float]:
    """``REPEATS`` cached re-renders of the view at ``url``, in one tab."""
    page = _new_page(browser)
    page.goto(url)
    wait_for_app(page, timeout_ms=120_000)
    times = [_cached_rerender(page) for _ in range(REPEATS)]
    page.context.close()
    return times


def _row(task: str, times: list[float], target: str, note: str = "") -> Row:
    """A row with the best and the median of ``times`` and every run in its note."""
    runs = f"runs: {_runs(times)}"
    return Row(task, min(times), target, f"{note}; {runs}" if note else runs, median=statistics.median(times))


def _visit(browser, url: str, selector: str, sidebar: dict | None = None) -> tuple[float, float]:
    """Times of a new browser profile opening ``url``, then of the same profile opening it again (returning);
    with ``sidebar`` (a dict), also each visit's sidebar wait (``_sidebar_wait``) appended to
    ``sidebar["new browser"]`` and ``sidebar["returning"]``."""
    page = _new_page(browser)
    if sidebar is not None:
        page.add_init_script(_SIDEBAR_WATCH)
    times = []
    for how in ("new browser", "returning"):
        times.append(_timed(page, lambda: page.goto(url), selector))
        if sidebar is not None:
            sidebar.setdefault(how, []).append(_sidebar_wait(page))
        page.goto("about:blank")
    page.context.close()
    return times[0], times[1]


def _visits(browser, url: str, selector: str, sidebar: dict | None = None) -> tuple[list[float], list[float]]:
    """``REPEATS`` visits (``_visit``): the new-browser times and the returning ones."""
    fresh, returning = zip(*(_visit(browser, url, selector, sidebar) for _ in range(REPEATS)))
    return list(fresh), list(returning)


def _paired_visits(browser, url: str, floor_url: str, selector: str,
                   sidebar: dict | None = None) -> dict[str, tuple[list[float], list[float]]]:
    """``PAIRED_REPEATS`` visits (``_visit``) of ``url`` and of its floor ``floor_url`` in turn, so that
    both see the machine as it is at the time (its speed drifts over minutes): ``{"page": (new-browser
    times, returning times), "floor": (...)}``; ``sidebar`` as for ``_visit``, for the page's visits."""
    times = {"page": ([], []), "floor": ([], [])}
    for _ in range(PAIRED_REPEATS):
        for which, address, watch in (("page", url, sidebar), ("floor", floor_url, None)):
            fresh, returning = _visit(browser, address, selector, watch)
            times[which][0].append(fresh)
            times[which][1].append(returning)
    return times


def _navigation(browser, base: str, start: str, label: str, selector: str) -> list[float]:
    """Times of a click on the sidebar link ``label`` from the page at ``start``."""
    page = _new_page(browser)
    times = []
    for _ in range(REPEATS):
        page.goto(f"{base}/{start}")
        wait_for_app(page, timeout_ms=120_000, chart=False)
        link = page.get_by_test_id("stSidebar").get_by_role("link", name=label, exact=True)
        times.append(_timed(page, link.click, selector))
        wait_for_app(page, timeout_ms=120_000, chart=selector == CHART)
    page.context.close()
    return times


def _runs(times: list[float]) -> str:
    return ", ".join(f"{t:.2f}" for t in times)


def store_first_chart(at, file: Path) -> None:
    """Run the AppTest ``at`` and write its first live chart (figure, theme and config) to ``file``, for
    ``reference_app.py``'s ``?figure=`` (the file's stem)."""
    at.run()
    first = charts.live_args(at)[0]
    file.write_text(json.dumps({"figure": first["figure"], "theme": first["theme"], "config": first["config"]}))


def store_main_figures(folder: Path, paths) -> None:
    """Write the first chart of each page in ``paths`` (URL paths), as an AppTest run of the page at its
    defaults draws it, to ``folder/PATH.json`` for ``reference_app.py``'s ``?figure=PATH``."""
    from tests.app.conftest import app_at

    for path in paths:
        store_first_chart(app_at(next((ROOT / "pages").glob(f"*_{path}.py"))), folder / f"{path}.json")


def _reference_rows(browser, base: str) -> tuple[list[Row], dict[tuple[str, str], list[float]]]:
    """Rows of the bare reference pages with a small chart at ``base`` (the reference app's server), and
    their times by (chart, "new browser" or "returning")."""
    rows, floors = [], {}
    for chart, what in (("2d", "one 2D chart"), ("3d", "one 3D chart"), ("sphere", "the sphere scene")):
        url = f"{base}/?chart={chart}"
        _warm(browser, url)
        for how, times in zip(("new browser", "returning"), _visits(browser, url, CHART)):
            floors[chart, how] = times
            rows.append(_row(f"reference: bare page with {what}, {how}", times, "floor"))
    return rows, floors


def own_floor_url(base: str, path: str, width: int, figure: str | None = None) -> str:
    """The bare page with the stored chart ``figure`` (default: the first chart of the page at URL path
    ``path``, ``store_main_figures``) alone, ``width`` CSS pixels wide, on the reference app's server at
    ``base``, at the page's own address: there Streamlit's page first looks for its server one level down,
    at /PAGE/_stcore/health, and only after that 404 and a pause at /_stcore (streamlit/streamlit#7074), as
    on the page."""
    return f"{base}/{path}?figure={figure or path}&width={width}"


def first_chart_width(browser, url: str) -> int:
    """The width (CSS pixels) at which the page at ``url`` draws its first chart on a returning visit, the
    width its own chart's floor is drawn at (``own_floor_url``)."""
    page = _new_page(browser)
    page.add_init_script(_SIDEBAR_WATCH)
    for _ in range(2):
        page.goto(url)
        wait_for_app(page, timeout_ms=120_000)
    width = page.evaluate("() => window.__sidebarSeen.width")
    page.context.close()
    return round(width)


def _floor_ratio(times: list[float], floor: list[float], what: str) -> str:
    """``times`` against the floor ``what`` of the same run, median/median and best/best."""
    return (f"{statistics.median(times) / statistics.median(floor):.2f}× / {min(times) / min(floor):.2f}× "
            f"{what} (median / best)")


ANIMATION_PATH = "Private_mean_playground?anim=true"
N_ANIMATION_PATH = "Private_mean_playground?anim=true&anim_over=n"
ANIMATION_PASSES = 2
# Every frame of chart ``index`` in turn, as its slider shows it, then one requestAnimationFrame (the
# paint): in a live chart its ``liveChart.showFrame`` (ui/live_chart/frontend/frames3d.js), elsewhere
# Plotly.animate (with or without a full redraw, as the chart's own slider does).
_FRAME_TIMES = f"""async ([index, redraw]) => {{
    const gd = {PLOTS}()[index];
    const view = gd.ownerDocument.defaultView;
    const names = gd._transitionData._frames.map(f => f.name);
    const still = {{mode: 'immediate', frame: {{duration: 0, redraw: redraw}}, transition: {{duration: 0}}}};
    const show = view.liveChart ? (name) => view.liveChart.showFrame(name) : (name) => view.Plotly.animate(gd, [name], still);
    const times = [];
    for (const name of names) {{
        const start = performance.now();
        await show(name);
        await new Promise(resolve => view.requestAnimationFrame(() => resolve()));
        times.push(performance.now() - start);
    }}
    return times;
}}"""


# Sets ``__animated`` on plotly chart number c once its next animation has finished drawing.
_ARM_ANIMATED = f"""(c) => {{
    const gd = {PLOTS}()[c];
    gd.__animated = false;
    gd.once('plotly_animated', () => {{ gd.__animated = true; }});
}}"""


def click_slider_step(page, index: int, chart: int = 0) -> None:
    """Click the ε slider's rail of plotly chart number ``chart`` at step ``index`` (steps are evenly
    spaced along the rail) and wait until that frame is drawn, so that the next click does not land
    while a 3D frame is still redrawing its scene."""
    count = page.evaluate(f"(c) => {PLOTS}()[c]._transitionData._frames.length", chart)
    index = min(max(index, 0), count - 1)
    rail = plot_locator(page, chart).locator(".slider-rail-touch-rect").first
    box = rail.bounding_box()
    page.evaluate(_ARM_ANIMATED, chart)
    # Plotly leaves a margin of half a grip (~10 px) at both ends of the rail. The locator's click scrolls
    # the rail into view and aims once it has stopped moving (a live chart's iframe settles its height).
    inner = box["width"] - 20
    rail.click(position={"x": 10 + inner * index / max(count - 1, 1), "y": box["height"] / 2})
    page.wait_for_function(f"(c) => {PLOTS}()[c].__animated", arg=chart, timeout=60_000)


# Arms a timer in the page: from the next mousedown until the animated trace of plotly chart number c
# holds new data, plus one requestAnimationFrame (the paint). Timed inside the page, so the result
# holds no Playwright round trips (each of them costs tens of milliseconds on a loaded machine).
_ARM_CLICK_TIMER = f"""(c) => {{
    const gd = {PLOTS}()[c];
    const view = gd.ownerDocument.defaultView;
    const index = gd._transitionData._frames[0].traces[0];
    const drawn = () => JSON.stringify(Array.from(gd.data[index].x));
    const before = drawn();
    window.__clickSeconds = null;
    let start = null;
    gd.ownerDocument.addEventListener('mousedown', () => {{ start = view.performance.now(); }},
                                      {{capture: true, once: true}});
    const poll = () => {{
        if (start !== null && drawn() !== before) {{
            view.requestAnimationFrame(() => {{ window.__clickSeconds = (view.performance.now() - start) / 1000; }});
        }} else {{
            view.requestAnimationFrame(poll);
        }}
    }};
    view.requestAnimationFrame(poll);
}}"""


def _click_times(page, clicks: int, chart: int = 0) -> list[float]:
    """Seconds from a click on a slider step of plotly chart number ``chart`` until the releases have
    moved and been painted, alternating ends (timed in the page)."""
    count = page.evaluate(f"(c) => {PLOTS}()[c]._transitionData._frames.length", chart)
    times = []
    for i in range(clicks):
        page.evaluate(_ARM_CLICK_TIMER, chart)
        click_slider_step(page, count - 1 if i % 2 else 0, chart)
        page.wait_for_function("() => window.__clickSeconds !== null", timeout=60_000)
        times.append(page.evaluate("() => window.__clickSeconds"))
    return times


def animation_rows(browser, base: str) -> list[Row]:
    """Per-frame time of the playground's ε animation and the floors of the same run."""
    _warm(browser, f"{base}/{ANIMATION_PATH}")
    page = _new_page(browser)
    page.goto(f"{base}/{ANIMATION_PATH}")
    wait_for_app(page, timeout_ms=120_000)
    frames = [t / 1000 for _ in range(ANIMATION_PASSES) for t in page.evaluate(_FRAME_TIMES, [0, True])]
    flat = [t / 1000 for _ in range(ANIMATION_PASSES) for t in page.evaluate(_FRAME_TIMES, [1, False])]
    clicks = _click_times(page, REPEATS)
    flat_clicks = _click_times(page, REPEATS, chart=1)
    _warm(browser, f"{base}/{N_ANIMATION_PATH}")
    page.goto(f"{base}/{N_ANIMATION_PATH}")
    wait_for_app(page, timeout_ms=120_000)
    page.wait_for_function(f"() => {PLOTS}().length === 2", timeout=120_000)
    sizes = [t / 1000 for _ in range(ANIMATION_PASSES) for t in page.evaluate(_FRAME_TIMES, [0, True])]
    flat_sizes = [t / 1000 for _ in range(ANIMATION_PASSES) for t in page.evaluate(_FRAME_TIMES, [1, False])]
    size_clicks = _click_times(page, REPEATS)
    page.goto(f"{base}/Private_mean_playground")
    wait_for_app(page, timeout_ms=120_000)
    cached = [_cached_rerender(page) for _ in range(REPEATS)]
    page.context.close()
    with streamlit_server(app=REFERENCE) as reference:
        url = f"{reference}/?chart=sphere"
        _warm(browser, url)
        _, floor = _visits(browser, url, CHART)
    frame, rerender = statistics.median(frames), statistics.median(cached)
    return [
        Row("playground ε animation: one frame (its slider's update + paint), S² 3D", min(frames), "< 0.1 s",
            f"{len(frames)} frames; median {1000 * frame:.0f} ms = {frame / rerender:.2f}× the cached re-render "
            f"and {frame / statistics.median(floor):.2f}× the sphere-scene floor (returning) of this run",
            median=frame),
        Row("playground ε animation: one frame of the tangent-plane view (2D, no redraw)", min(flat), "< 0.1 s",
            f"{len(flat)} frames; median {1000 * statistics.median(flat):.0f} ms = "
            f"{statistics.median(flat) / frame:.2f}× the 3D frame of this run", median=statistics.median(flat)),
        Row("playground ε animation: click on the slider to releases moved", min(clicks), "< 0.1 s",
            f"runs: {_runs(clicks)}", median=statistics.median(clicks)),
        Row("playground ε animation: click on the tangent-plane view's slider to releases moved", min(flat_clicks),
            "< 0.1 s", f"runs: {_runs(flat_clicks)}", median=statistics.median(flat_clicks)),
        Row("playground n animation: one frame (its slider's update + paint), S² 3D: releases, true mean and data move",
            min(sizes), "< 0.1 s",
            f"{len(sizes)} frames; median {1000 * statistics.median(sizes):.0f} ms = "
            f"{statistics.median(sizes) / frame:.2f}× the ε frame and {statistics.median(sizes) / rerender:.2f}× the "
            "cached re-render of this run", median=statistics.median(sizes)),
        Row("playground n animation: one frame of the tangent-plane view (2D, no redraw)", min(flat_sizes), "< 0.1 s",
            f"{len(flat_sizes)} frames; median {1000 * statistics.median(flat_sizes):.0f} ms",
            median=statistics.median(flat_sizes)),
        Row("playground n animation: click on the 3D slider to releases moved", min(size_clicks), "< 0.1 s",
            f"runs: {_runs(size_clicks)}", median=statistics.median(size_clicks)),
        Row("playground S²: cached re-render (server round trip), same run", min(cached), "< 0.5 s",
            f"runs: {_runs(cached)}", median=rerender),
        Row("reference: bare page with the sphere scene, returning, same run", min(floor), "floor",
            f"runs: {_runs(floor)}", median=statistics.median(floor)),
    ]


def run_animation() -> list[Row]:
    """Only the animation rows (``python -m benchmarks animation``)."""
    reason = chromium_missing_reason()
    if reason:
        return [Row("ε animation timings", float("nan"), "< 0.1 s", f"skipped: {reason}")]
    with headless_chromium() as browser, streamlit_server() as base:
        return animation_rows(browser, base)


def run() -> list[Row]:
    reason = chromium_missing_reason()
    if reason:
        return [Row("page timings", float("nan"), "< 2 s / < 0.5 s", f"skipped: {reason}")]
    paths = page_paths()
    own = [path for title, path in paths.items() if title != "Home"]
    with headless_chromium() as browser, tempfile.TemporaryDirectory() as folder:
        store_main_figures(Path(folder), own)
        os.environ[FIGURES_ENV] = folder
        with streamlit_server(app=REFERENCE) as reference, streamlit_server() as base:
            rows, floors = _reference_rows(browser, reference)
            for title, path in paths.items():
                url = f"{base}/{path}"
                selector = CHART if title != "Home" else "h1"
                page = _new_page(browser)
                cold = _timed(page, lambda: page.goto(url), selector)
                wait_for_app(page, timeout_ms=120_000, chart=selector == CHART)
                page.context.close()
                sidebar = {} if _chart_first(path) else None
                if title != "Home":
                    width = first_chart_width(browser, url)
                    floor_url = own_floor_url(reference, path, width)
                    _warm(browser, floor_url)
                    paired = _paired_visits(browser, url, floor_url, selector, sidebar)
                    (fresh, returning), floor = paired["page"], paired["floor"]
                    for how, times in zip(("new browser", "returning"), floor):
                        floors[path, how] = times
                        rows.append(_row(f"reference: bare page with the first chart of {path} alone, at /{path}, "
                                         f"{how} (visited in turn with the page)", times, "floor",
                                         f"drawn {width} px wide, as the page draws it"))
                else:
                    fresh, returning = _visits(browser, url, selector, sidebar)
                start = "" if title != "Home" else paths["Sensitivity"]
                clicks = _navigation(browser, base, start, title.replace("_", " "), selector)
                what = "first chart" if title != "Home" else "title (no chart)"
                rows.append(Row(f"page {title}: {what}, cold server cache, new browser", cold, "< 2 s"))
                for how, times in (("new browser", fresh), ("returning", returning), ("in the app", clicks)):
                    chart = FLOOR_CHART.get(path, "2d")
                    note = ("; ".join((_floor_ratio(times, floors[path, how], "its own chart's floor"),
                                       _floor_ratio(times, floors[chart, how], f"the {chart} floor")))
                            if (path, how) in floors else "")
                    rows.append(_row(f"page {title}: {what}, {how}", times, "≤ 1.2× floor" if note else "< 2 s", note))
                for how, waits in (sidebar or {}).items():
                    rows.append(_row(f"page {title}: sidebar usable after the first chart, {how}", waits, "< 1 s",
                                     "first drawn chart to the sidebar's first value widget enabled"))
                if title != "Home":
                    cached = _rerenders(browser, url)
                    rows.append(_row(f"page {title}: cached re-render", cached, "< 0.5 s",
                                     "first sidebar slider moved back to a computed value"))
            rows.extend(animation_rows(browser, base))
            for title, path in VIEWS_3D.items():
                cached = _rerenders(browser, f"{base}/{path}")
                rows.append(_row(f"page {title}: cached re-render", cached, "< 0.5 s"))
            for title, path in VARIANTS.items():
                _warm(browser, f"{base}/{path}")
                _, returning = _visits(browser, f"{base}/{path}", CHART)
                rows.append(_row(f"page {title}: first chart, returning", returning, "< 2 s"))
    return rows
