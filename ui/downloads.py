"""Download buttons under each chart: data (CSV), figure (HTML, PNG where Chromium is present),
settings (JSON that reproduces the view from the command line)."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import streamlit as st

from engine.viz.export import figure_to_html, figure_to_png


@st.cache_data(max_entries=16, show_spinner=False)
def _png(fig_json: str) -> bytes:
    import plotly.io as pio

    return figure_to_png(pio.from_json(fig_json))


def download_row(name: str, *, fig=None, data: pd.DataFrame | None = None, settings: dict | None = None) -> None:
    """One row of download buttons with stable keys derived from ``name``."""
    cols = st.columns(4)
    if data is not None:
        cols[0].download_button("Data (CSV)", data.to_csv(index=False).encode(), f"{name}.csv", "text/csv",
                                key=f"dl-csv-{name}", help="The numbers behind this chart.")
    if fig is not None:
        cols[1].download_button("Figure (HTML)", figure_to_html(fig).encode(), f"{name}.html", "text/html",
                                key=f"dl-html-{name}", help="Interactive figure that opens offline in any browser.")
        if shutil.which("chromium") is None:
            cols[2].button("Figure (PNG)", key=f"dl-png-{name}", disabled=True,
                           help="PNG export needs Debian's chromium package, which this machine lacks.")
        elif cols[2].toggle("Prepare PNG", key=f"png-{name}", help="Renders a 2× PNG with kaleido (about 3 s)."):
            cols[2].download_button("Figure (PNG)", _png(fig.to_json()), f"{name}.png", "image/png",
                                    key=f"dl-png-{name}")
    if settings is not None:
        cols[3].download_button("Settings (JSON)", json.dumps(settings, indent=2, default=str).encode(),
                                f"{name}-settings.json", "application/json", key=f"dl-json-{name}",
                                help="Run `python -m engine.experiments NAME --settings FILE` to reproduce.")
