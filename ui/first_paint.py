"""Chart first: a page's first run in a browser draws its title and main live chart, and nothing else;
the sidebar's widgets and the rest of the page follow in the run that the drawn chart asks for.

The browser has one main thread for Streamlit's React tree and for the live chart's plotly.js. Sent
together, the page's other elements (some 80 on the playground: widgets, formulas, tables) delay the
chart by 0.5-1 s. Drawn first, the chart comes within 1.2x a bare page with one chart, and the whole
page is complete no later than before (README, "Chart first").

The chart-first run computes the chart from the values the sidebar's widgets will have
(``ui.controls.values_only``), writes nothing into the session or the address, and stops after the
chart. ``ui.live_chart`` (``report_drawn=True``) sets its value once the chart is drawn, or its
drawing failed, which reruns the page in full. A session without a browser (AppTest, a bare script)
has no request headers and no chart to report, so it always gets the full page.
"""

from __future__ import annotations

import streamlit as st


def pending(chart_key: str) -> bool:
    """Whether this run draws the chart alone: a browser is attached and the live chart ``chart_key``
    has not yet reported that it is drawn (its value lasts while the page shows it, so leaving the
    page and coming back starts with the chart again)."""
    return bool(st.context.headers) and not st.session_state.get(chart_key)
