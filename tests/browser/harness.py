"""Start the app with ``streamlit run`` on a free loopback port and drive Debian's Chromium.

Used by the browser tests and by ``benchmarks/pages.py`` (time to first chart per page).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Milliseconds a wait for the app may take by default: a guard against a hang, not a check of speed (a section
#: that draws in seconds on an idle machine took over 30 s at load 12).
WAIT_MS = 300_000
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]


def chromium_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not Path(CHROMIUM).exists():
        return f"Debian chromium is not installed at {CHROMIUM} (apt-get install chromium; .ci/run does it)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install -r requirements-test.txt)"
    return None


def page_paths() -> dict[str, str]:
    """URL path of every page in the sidebar's order (``ui.navigation.PAGES``, which holds every file of
    ``pages/``): '' for app.py, then pages/N_Title.py -> 'Title'."""
    from ui.navigation import PAGES

    paths = {}
    for page in PAGES:
        stem = Path(page.script).stem
        title = "Home" if page.script == "app.py" else stem.split("_", 1)[1] if "_" in stem else stem
        paths[title] = "" if page.script == "app.py" else title
    return paths


def free_port() -> int:
    """A loopback port that no process listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def headless_chromium():
    """Yield a Playwright browser on Debian's headless Chromium; close it afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def streamlit_server(timeout: float = 60.0, app: Path = ROOT / "app.py"):
    """Yield the base URL of a fresh ``streamlit run <app>`` server (default: this app); stop it afterwards."""
    with streamlit_process(timeout, app) as (base, _):
        yield base


@contextlib.contextmanager
def streamlit_process(timeout: float = 60.0, app: Path = ROOT / "app.py", port: int | None = None):
    """Yield ``(base URL, process)`` of a fresh ``streamlit run <app>`` on loopback ``port`` (default: a
    free one), once its health check answers; stop it afterwards."""
    port = port or free_port()
    streamlit = shutil.which("streamlit", path=str(Path(sys.executable).parent)) or "streamlit"
    cmd = [streamlit, "run", str(app), "--server.headless", "true", "--server.address", "127.0.0.1",
           "--server.port", str(port), "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as reply:
                    if reply.read().decode().strip() == "ok":
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not start: {proc.stderr.read().decode()[-2000:]}") from None
                time.sleep(0.3)
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


# Every plotly chart of the page in page order: those ``st.plotly_chart`` draws in the page itself and
# those of ``ui.live_chart``, each inside the component's iframe (same origin, so its document is readable),
# but not the figures a live chart keeps drawn and hidden (``keep_seen``).
PLOTS = """(() => Array.from(document.querySelectorAll('.js-plotly-plot, iframe')).flatMap(el =>
    el.tagName !== 'IFRAME' ? [el]
        : Array.from(el.contentDocument ? el.contentDocument.querySelectorAll('.js-plotly-plot:not(.hidden)') : [])))"""
_CHART_DRAWN = f"() => {PLOTS}().some(el => el.querySelector('.main-svg'))"
# The first chart's box in the window's coordinates (through its live chart's iframe), the window's size, the
# page's scrollable width and how far it is scrolled; null without a chart.
CHART_BOX = f"""() => {{
    const el = {PLOTS}()[0];
    if (!el) return null;
    const frame = Array.from(document.querySelectorAll('iframe')).find(f => f.contentDocument === el.ownerDocument);
    const box = el.getBoundingClientRect(), offset = frame ? frame.getBoundingClientRect() : {{top: 0, left: 0}};
    return {{top: box.top + offset.top, bottom: box.bottom + offset.top, left: box.left + offset.left,
             right: box.right + offset.left, width: innerWidth, height: innerHeight,
             scrollWidth: document.documentElement.scrollWidth, scrollY: scrollY}};
}}"""
# Marks chart ``i`` with data-plot-index and returns the index of the iframe that holds it (-1: the page).
_MARK_PLOT = f"""(i) => {{
    const el = {PLOTS}()[i];
    el.dataset.plotIndex = String(i);
    return Array.from(document.querySelectorAll('iframe')).findIndex(f => f.contentDocument === el.ownerDocument);
}}"""
# A fingerprint of the data of every plotly chart on the page (changes when any trace changes): per
# trace its name and a 32-bit rolling hash of the full JSON of x, y and z. Each hash is kept in a WeakMap
# keyed by the array: plotly replaces a trace's arrays on every update (react, animate and restyle), so a
# poll hashes only arrays it has not seen. Without it every animation frame of a wait re-hashed the
# playground's 0.7 MB of sphere meshes (6 ms of the main thread per poll, taken from the page it times).
_SIGNATURE = f"""(() => {{
    const seen = window.__chartHashes || (window.__chartHashes = new WeakMap());
    const hash = (value) => {{
        if (value === null || typeof value !== 'object') return String(value);
        let h = seen.get(value);
        if (h === undefined) {{
            const text = JSON.stringify(value);
            h = 0;
            for (let i = 0; i < text.length; i++) {{ h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0; }}
            h = text.length + ':' + h;
            seen.set(value, h);
        }}
        return h;
    }};
    return {PLOTS}().map(el => (el.data || []).map(t => [t.name, hash(t.x), hash(t.y), hash(t.z)].join(','))
        .join(';')).join('|');
}})()"""
# Whether the app is idle now: connected, its script not running nor asked to run (``stApp``'s
# data-test-script-state, set the moment a widget asks for a rerun), no status widget, no element greyed as
# stale (``data-stale``: what a run has not yet redrawn, faded to 33 % opacity, which axe-core reads as low
# contrast), and no element still loading its code (``stSkeleton``, what a lazily loaded kind of element shows
# meanwhile: Private optimization's section switch arrived over a second after its run had finished, at load 12).
_IDLE_NOW = """(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.dataset.testScriptState === 'notRunning' && app.dataset.testConnectionState === 'CONNECTED'
        && !document.querySelector('[data-testid="stStatusWidget"], [data-stale="true"], [data-testid="stSkeleton"]');
})()"""
_IDLE = f"() => {_IDLE_NOW}"
# Whether a live chart has yet to receive its figure, or was drawn by a page's chart-first run
# (ui/first_paint.py) whose full run has not reached it: its body says "done" once it has.
_CHART_FIRST_WAITING = """Array.from(document.querySelectorAll('iframe[src*="live_chart"]')).some(
    f => !f.contentDocument || !f.contentDocument.querySelector('body[data-chart-first="done"]'))"""
# Idle, past any chart-first run (whose end leaves the script idle until the chart asks for the full run), and
# the page's element count unchanged over three polls in a row.
_SETTLED = f"""() => {{
    const count = document.querySelectorAll('[data-testid="stMain"] *, [data-testid="stSidebar"] *').length;
    const idle = {_IDLE_NOW} && !{_CHART_FIRST_WAITING};
    const s = window.__settle || (window.__settle = {{count: -1, same: 0}});
    s.same = (idle && count === s.count) ? s.same + 1 : 0;
    s.count = count;
    return s.same >= 3;
}}"""


# What a projector must not show (test_presenter.py, test_lesson.py). Clipped: KaTeX blocks wider than
# their box (a few px of strut overhang are normal). Wide: HTML elements whose right edge passes the
# viewport (KaTeX's hidden MathML copy and SVG/WebGL internals excluded). Cut: text shortened by CSS ellipsis.
LAYOUT_PROBE = """() => {
  const width = window.innerWidth;
  const shown = el => el.offsetParent !== null;
  const all = [...document.querySelectorAll('[data-testid="stMain"] *, [data-testid="stSidebar"] *')];
  const clipped = [...document.querySelectorAll('.katex-display')]
      .filter(el => shown(el) && el.scrollWidth > el.clientWidth + 4).map(el => el.textContent.slice(0, 80));
  const wide = all.filter(el => !el.closest('.katex-mathml, svg, canvas') && el.getBoundingClientRect().width > 0
      && el.getBoundingClientRect().right > width + 1).map(el => el.tagName + ': ' + el.textContent.slice(0, 60));
  const cut = all.filter(el => shown(el) && getComputedStyle(el).textOverflow === 'ellipsis'
      && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.slice(0, 80));
  return {clipped, wide, cut};
}"""


def section_buttons(page):
    """A locator of the buttons of the page's section switch (``ui.sections``), a radio group named "Section"."""
    from ui import sections

    return page.get_by_role("radiogroup", name=sections.LABEL).get_by_role("radio")


#: What the chosen section draws: its charts and tables, in the places after the section switch.
SECTION_CONTENT = ("[data-testid=stElementContainer]:has([data-testid=stButtonGroup]) ~ * "
                   ":is(.js-plotly-plot, [data-testid=stCustomComponentV1], [data-testid=stTable])")


def plot_count(page) -> int:
    """How many plotly charts the page shows (in the page and in live-chart iframes)."""
    return page.evaluate(f"() => {PLOTS}().length")


def plot_locator(page, index: int):
    """A Playwright locator of plotly chart number ``index`` (page order), inside its iframe if it has one."""
    frame = page.evaluate(_MARK_PLOT, index)
    scope = page if frame < 0 else page.locator("iframe").nth(frame).content_frame
    return scope.locator(f'[data-plot-index="{index}"]')


def wait_for_chart(page, timeout_ms: float = WAIT_MS) -> None:
    """Wait until a plotly chart is drawn, in the page or in a live-chart iframe (checked every frame)."""
    page.wait_for_function(_CHART_DRAWN, timeout=timeout_ms, polling="raf")


def chart_signature(page) -> str:
    return page.evaluate(f"() => {_SIGNATURE}")


def wait_for_app(page, timeout_ms: float = WAIT_MS, *, chart: bool = True) -> None:
    """Wait until Streamlit has finished running the script and drawn its title (and a plotly chart)."""
    page.wait_for_selector("h1", timeout=timeout_ms)
    if chart:
        wait_for_chart(page, timeout_ms)
    wait_for_idle(page, timeout_ms)


def wait_for_idle(page, timeout_ms: float = WAIT_MS) -> None:
    """Wait until the app is idle: its script has finished its run (past any chart-first run), nothing on the
    page is greyed as stale, and the page stopped changing. Every check of what a page shows waits for this,
    never for a fixed time."""
    page.wait_for_function(_SETTLED, timeout=timeout_ms, polling=300)


def wait_for_chart_change(page, before: str, timeout_ms: float = WAIT_MS, polling="raf") -> None:
    """Wait (retrying) until the charts' fingerprint differs from ``before`` and the script is idle."""
    page.wait_for_function(f"(before) => {_SIGNATURE} !== before", arg=before, timeout=timeout_ms, polling=polling)
    page.wait_for_function(_IDLE, timeout=timeout_ms)


# Whether an element's box and every CSS transition or animation in it have come to rest: no running animation
# (``getAnimations``) and the same box on two polls in a row.
_AT_REST = """(selector) => {
    const el = document.querySelector(selector);
    if (!el) return false;
    const box = JSON.stringify(el.getBoundingClientRect());
    const store = window.__atRest || (window.__atRest = {});
    const same = store[selector] === box;
    store[selector] = box;
    return same && el.getAnimations({subtree: true}).length === 0;
}"""


def wait_for_rest(page, selector: str, timeout_ms: float = WAIT_MS) -> None:
    """Wait until the element ``selector`` has stopped moving: no transition or animation running in it and its
    box unchanged between two polls (the sidebar's slide, a chart's resize)."""
    page.wait_for_function(_AT_REST, arg=selector, timeout=timeout_ms, polling=100)


def wait_for_stable_canvas(canvas, timeout_s: float = WAIT_MS / 1000) -> bytes:
    """A screenshot of ``canvas`` (a locator) once two in a row, 200 ms apart, are identical: WebGL draws
    after plotly reports the chart, so what it shows is read once it has stopped changing."""
    deadline = time.monotonic() + timeout_s
    previous = canvas.screenshot()
    while time.monotonic() < deadline:
        canvas.page.wait_for_timeout(200)
        current = canvas.screenshot()
        if current == previous:
            return current
        previous = current
    raise TimeoutError(f"the canvas kept changing for {timeout_s:g} s")
