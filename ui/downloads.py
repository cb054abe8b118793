"""Download buttons under each chart: data (CSV), figure (HTML; PNG where Chromium is present),
settings (JSON). Files are built only when a button is clicked (deferred downloads), so a rerun
never pays for a 5 MB offline HTML page or a 3 s PNG render; a built file waits for the browser's fetch
however many other sessions rerun meanwhile (``ui.held_downloads``)."""

from __future__ import annotations

import json
from functools import partial

import pandas as pd
import streamlit as st

from engine.viz.export import figure_to_html, figure_to_png, png_export_available
from ui.held_downloads import hold_deferred_files


def _settings_help(study: str | None, pipeline: str | None) -> str:
    if study:
        return f"Reproduce from the command line: `python -m engine.experiments {study} --settings FILE`."
    if pipeline:
        return (f"The pipeline's settings, key for key: `python -m engine.pipelines {pipeline} --settings FILE` "
                f"runs this view.")
    return "The page's settings; the same values as URL parameters reopen this view."


def download_row(name: str, *, fig=None, data: pd.DataFrame | None = None, settings: dict | None = None,
                 study: str | None = None, pipeline: str | None = None) -> None:
    """One row of download buttons with stable keys derived from ``name``.

    The buttons keep their natural width and wrap onto a second line in a narrow column (four equal
    columns cut their labels to "Figure (HT…" beside a half-width chart). ``study`` names the
    ``engine.experiments`` study the settings belong to, if any; it is written into the JSON so the
    command line can run it. ``pipeline`` names the ``engine.pipelines`` pipeline whose settings file
    (``engine.pipelines.settings_file.payload``) ``settings`` is.
    """
    hold_deferred_files()
    row = st.container(horizontal=True, wrap=True, gap="small")
    if data is not None:
        row.download_button("Data (CSV)", partial(data.to_csv, index=False), f"{name}.csv", "text/csv",
                                key=f"dl-csv-{name}", on_click="ignore", help="The numbers behind this chart.")
    if fig is not None:
        row.download_button("Figure (HTML)", partial(figure_to_html, fig), f"{name}.html", "text/html",
                                key=f"dl-html-{name}", on_click="ignore",
                                help="Interactive figure that opens offline in any browser.")
        available, reason = png_export_available()
        row.download_button("Figure (PNG)", partial(figure_to_png, fig) if available else b"", f"{name}.png",
                                "image/png", key=f"dl-png-{name}", on_click="ignore", disabled=not available,
                                help="A 2× PNG for slides, rendered by kaleido in Chromium (about 3 s)."
                                if available else f"PNG export is unavailable here: {reason}")
    if settings is not None:
        payload = {"study": study, **settings} if study else settings
        row.download_button("Settings (JSON)", json.dumps(payload, indent=2, default=str), f"{name}-settings.json",
                                "application/json", key=f"dl-json-{name}", on_click="ignore",
                                help=_settings_help(study, pipeline))
