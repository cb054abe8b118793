"""Chart first: the first run of a visit to a page, in a browser, sends the page's main live chart alone;
what stands above it (title, introduction, formulas, numbers: ``intro``, ``in_full_run``) keeps an empty
place there, and the sidebar's page links and widgets, the rest of the page and those places follow in
the run that the drawn chart asks for; until then the sidebar shows a running indicator, sent after the chart.

The browser has one main thread for Streamlit's React tree and for the live chart's plotly.js. Sent
together, the page's other elements (some 80 on the playground: widgets, formulas, tables) delay the
chart by 0.5-1 s. Drawn first, the playground's sphere came in 1.16x the time of a bare page with the
same chart (1.76x before), and the whole page was complete sooner than before (docs/page-speed.md).
The title, introduction, formulas and page links that stood above the chart still cost the 2D pages'
returning visits 1.3-1.4x their chart alone, so they wait too; an empty place (``st.empty``) stands in for
each, which keeps the chart at the place in the page where the full run sends it, so the browser keeps it.

A page calls ``pending()`` first (``ui.navigation.sidebar`` asks ``running()``), draws its title and
introduction with ``intro``, what else stands above its main chart with ``in_full_run``, and the chart with
``main_chart``. The chart-first run computes the chart from the values the sidebar's widgets will have
(``ui.controls`` draws no widget while ``running()``), writes nothing into the session or the address,
and stops after the chart. The chart (``ui.live_chart`` with ``report_drawn=True``) sets its value once
it is drawn, or its drawing failed, which reruns the page; every later run of the visit is the full
page. A chart-first run that does not reach a main chart reruns the page in full at once: one that cannot
compute its chart (``ui.errors.shown_as_error``), or whose open section has none (``ui.sections``), so
an error comes with the widgets that can fix it. A session without a browser (AppTest, a bare
script) has no request headers and no chart to report: all its runs are full.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import presenter, state
from ui.live_chart import live_chart

#: Key of ``ui.state.visit()``: whether this visit's current run is its chart-first run.
CHART_FIRST = "chart_first"
#: The label of the sidebar's running indicator while the chart-first run has drawn no widget.
CONTROLS_PENDING = "Loading the controls…"


def _in_browser() -> bool:
    """A browser is attached to the session (its WebSocket request brought headers)."""
    return bool(st.context.headers)


def pending() -> bool:
    """Whether this run draws the chart alone: the first run of this visit to the page, in a browser that
    does not show the page yet (after a server restart the open tab shows it, chart and widgets, and a
    chart-first run would take its widgets away with the values they hold), and not in presenter mode,
    whose chart is fitted to the window under the title and so must be drawn after it. Called once per run,
    before the sidebar's widgets."""
    visit = state.visit()
    visit[CHART_FIRST] = (CHART_FIRST not in visit and _in_browser() and not state.restored()
                          and not presenter.coming())
    return visit[CHART_FIRST]


def running() -> bool:
    """Whether the current run is a chart-first run (``pending`` said so)."""
    return bool(state.visit().get(CHART_FIRST))


def rerun_in_full() -> None:
    """In a chart-first run, rerun the page at once as the full page (which ``pending`` then is);
    elsewhere do nothing."""
    if running():
        st.rerun()


def main_chart(fig, *, key: str, **kwargs) -> None:
    """The page's main chart, a ``ui.live_chart`` (``kwargs`` as there); a chart-first run stops after it,
    and the drawn chart asks for the full run; in presenter mode it fits the window (``ui.presenter``).
    Later main charts of the same run are plain live charts."""
    first = running()
    live_chart(fig, key=key, report_drawn=first, fit=presenter.active(), **kwargs)
    if first:
        _controls_pending()
        st.stop()


def in_full_run(draw: Callable[[], None]) -> None:
    """Elements drawn by ``draw`` into one container, by the full run only; a chart-first run keeps their
    place empty, so the chart reaches the browser alone and sits where the full run sends it again."""
    if running():
        st.empty()
        return
    with st.container():
        draw()


def intro(title: str, text: str, formula: str | None = None) -> None:
    """The page's title, then its introduction (Markdown) and an optional LaTeX ``formula``, each drawn by
    the full run only (``in_full_run``). Two places, so that presenter mode (``ui.presenter``), which moves
    the title above the main chart, leaves the introduction below it."""

    def draw() -> None:
        st.markdown(text)
        if formula is not None:
            st.latex(formula)

    in_full_run(lambda: st.title(title))
    in_full_run(draw)


#: The running indicator: a spinning ring (still where the visitor asks for reduced motion) and the label, as
#: a live region. ``st.status`` looks the same but sleeps 50 ms in the script when it is created (so that a
#: quick ``update`` is not lost), which held back the chart of every chart-first run by as much.
PENDING_HTML = f"""<style>
.mpe-pending {{ display: flex; align-items: center; gap: 0.6rem; padding: 0.5rem 0.75rem; border-radius: 0.5rem;
  border: 1px solid rgba(128, 128, 128, 0.35); font-size: 0.95rem; }}
.mpe-pending-ring {{ width: 1rem; height: 1rem; flex: none; border-radius: 50%;
  border: 2px solid currentColor; border-right-color: transparent; animation: mpe-spin 0.8s linear infinite; }}
@keyframes mpe-spin {{ to {{ transform: rotate(360deg); }} }}
@media (prefers-reduced-motion: reduce) {{ .mpe-pending-ring {{ animation: none; }} }}
</style>
<div class="mpe-pending" role="status" aria-live="polite"><span class="mpe-pending-ring"></span>{CONTROLS_PENDING}</div>"""


def _controls_pending() -> None:
    """The chart-first run's running indicator in the sidebar (``PENDING_HTML``), sent after the chart: the
    sidebar holds nothing before it, since a sidebar that appears before the chart delays the chart's
    drawing (by 0.05-0.08 s on a 0.4-0.5 s returning visit, measured on a bare page). The full run's page
    links and widgets replace it."""
    st.sidebar.html(PENDING_HTML)
