"""Named presets: a paper's settings put into the session from a button or from ``?preset=NAME``.

Every page with presets uses the same three steps: ``preset_from_url`` before its first widget,
``apply_preset`` as the callback of its sidebar button, and ``show_note`` after its sidebar, which
says (once) which settings were loaded. Home links to a preset with ``?preset=NAME``.
"""

from __future__ import annotations

import streamlit as st

from ui import controls
from ui.literal import literal


def apply_preset(presets: dict, name: str, note_key: str) -> None:
    """Put the widget values of preset ``name`` into the session (a button callback); remember the
    name under ``note_key`` so the page can say which settings were loaded."""
    for key, value in presets[name].items():
        st.session_state[key] = value
    st.session_state[note_key] = name


def preset_from_url(presets: dict, note_key: str) -> str | None:
    """Apply ``?preset=NAME`` once, before any widget is drawn; other address values win over it.

    The parameter is then removed, so the address shows the values themselves. An unknown name is
    reported with ``st.warning``, by a run that draws its widgets (``ui.controls.drawing``; a
    chart-first run leaves it to the full run). Returns the applied preset name, if any.
    """
    name = st.query_params.get("preset")
    if name is None or (name not in presets and not controls.drawing()):
        return None
    del st.query_params["preset"]
    if name not in presets:
        st.warning(f"Ignored the address parameter preset={literal(name)}: the known presets are {', '.join(presets)}.")
        return None
    for key, value in presets[name].items():
        if key not in st.query_params:
            st.session_state[key] = value
    st.session_state[note_key] = name
    return name


def show_note(note_key: str, notes: dict) -> str | None:
    """Say in an ``st.info`` which preset was just loaded (``notes``: name -> sentence); once per load,
    in a run that draws its widgets (``ui.controls.drawing``)."""
    if not controls.drawing():
        return None
    name = st.session_state.pop(note_key, None)
    if name is not None:
        st.info(notes[name])
    return name
