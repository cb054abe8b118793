"""Turn the engine's ``ValueError`` into a readable ``st.error`` instead of a traceback."""

from __future__ import annotations

from contextlib import contextmanager

import streamlit as st

from ui import first_paint


@contextmanager
def shown_as_error(what: str):
    """Run the body; a ``ValueError`` becomes ``st.error`` naming ``what`` failed and why, and stops the page.

    In a chart-first run (``ui.first_paint``) it reruns the page in full instead, which shows the error
    with the sidebar's widgets.
    """
    try:
        yield
    except ValueError as err:
        first_paint.rerun_in_full()
        st.error(f"Cannot {what}: {err}")
        st.stop()
