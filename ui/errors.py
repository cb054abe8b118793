"""Turn the engine's ``ValueError`` into a readable ``st.error`` instead of a traceback."""

from __future__ import annotations

from contextlib import contextmanager

import streamlit as st


@contextmanager
def shown_as_error(what: str):
    """Run the body; a ``ValueError`` becomes ``st.error`` naming ``what`` failed and why, and stops the page."""
    try:
        yield
    except ValueError as err:
        st.error(f"Cannot {what}: {err}")
        st.stop()
