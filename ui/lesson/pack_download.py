"""The Lesson page's "Download the Lesson pack (.zip)" button: the static, offline pack (``lesson_pack``),
built only when clicked (a deferred download, held until the browser fetches it, ``ui.held_downloads``)."""

from __future__ import annotations

import streamlit as st

from ui import first_paint, presenter
from ui.held_downloads import hold_deferred_files

LABEL = "Download the Lesson pack (.zip)"


def _zip() -> bytes:
    """The pack as a zip (its builder imported on the first click, not with the page)."""
    from lesson_pack.folder import zip_bytes

    return zip_bytes()


def show() -> None:
    """The button, below the step (not in presenter mode, nor in a chart-first run, ``ui.first_paint``)."""
    if presenter.active() or first_paint.running():
        return
    hold_deferred_files()
    st.download_button(LABEL, _zip, "lesson-pack.zip", "application/zip", key="lesson_pack_zip",
                       on_click="ignore", icon=":material/download:",
                       help="The nine steps as one folder that opens from its index.html in any browser, with no "
                            "server and no network: the same charts and answers, ε and n sliders and the game. Built "
                            "on click (10-20 s); about 5 MB zipped, 12 MB unzipped.")
