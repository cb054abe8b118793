"""The "Reproduce this view" expander: the command line, a Python snippet, and a notebook and a script
to download, all for the page's current settings (built by ``engine.reproduce``; the two files only
when their button is clicked)."""

from __future__ import annotations

from functools import partial

import streamlit as st

from engine import reproduce
from ui import first_paint


def expander(page: str, config) -> None:
    """Draw the expander of page ``page`` (a key of ``engine.reproduce.VIEWS``) for ``config``, the
    pipeline config of the page's current settings; in a chart-first run (``ui.first_paint``) only its
    empty place, so what follows it, the chart among them, sits where the full run draws it."""
    if first_paint.running():
        st.empty()
        return
    view = reproduce.VIEWS[page]
    with st.expander("Reproduce this view"):
        st.caption("The same numbers outside the app, from the repository's root folder. The command line "
                   "(or `--settings FILE` with the \"Settings (JSON)\" download) prints the numbers as JSON:")
        st.code(reproduce.command(view, config), language="bash", wrap_lines=True)
        st.caption("In Python:")
        st.code(reproduce.snippet(view, config), language="python")
        row = st.container(horizontal=True, wrap=True, gap="small")
        row.download_button("Notebook (.ipynb)", partial(reproduce.notebook, view, config), f"{page}.ipynb",
                            "application/x-ipynb+json", key=f"dl-ipynb-{page}", on_click="ignore",
                            help="Runs the same pipeline with the same seed and draws the page's figures, one step "
                                 f"a cell, each citing {view.paper}")
        row.download_button("Script (.py)", partial(reproduce.script, view, config), f"{page}.py", "text/x-python",
                            key=f"dl-py-{page}", on_click="ignore",
                            help="The notebook's steps as a script; it writes the figures as HTML files.")
