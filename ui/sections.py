"""A page's sections: a row of buttons at the top of the main area (``st.segmented_control``) whose chosen
label lives in the address (``?key=label``, through ``ui.state``); only the chosen section's content runs,
so a page computes and draws one section at a time, and choosing another reruns the page.

A switch in its own place rather than ``st.tabs``: the content then is not inside the switch, so a
chart-first run (``ui.first_paint``) keeps the switch's place empty and sends the section's main chart
alone, at the place where the full run sends it again. Inside Streamlit's tabs the chart waited for the
tab bar's layout: Private regression's returning visit took 1.15x its chart alone (best of 11 visits)
against 1.03x with the chart sent alone (docs/page-speed.md). A label the address gives that is not
a section's is reported (``ui.state.init``) and the first section opens.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import first_paint, state

#: The switch's label, read by screen readers (hidden on the page, where the buttons' labels say it).
LABEL = "Section"
#: The chosen button's text, hovered or not, a shade darker than the theme's primary colour (#0072B2),
#: which on the button's primary tint (#CCE3F0) has 3.9:1, under WCAG AA's 4.5:1; #005A8C has 5.6:1.
#: Style alone, so Streamlit sends it to the page's event container, outside the elements' places.
STYLE = """<style>
[data-testid="stButtonGroup"] button[data-variant="segmented_control"][aria-checked="true"],
[data-testid="stButtonGroup"] button[data-variant="segmented_control"][aria-checked="true"]:hover { color: #005A8C; }
</style>"""


def chosen(key: str, labels) -> str:
    """The chosen section's label: the switch's value, or in a chart-first run the value it will have, whose
    place stays empty."""
    labels = list(labels)
    if first_paint.running():
        st.empty()
        return state.value(key, labels[0], options=labels)
    state.init(key, labels[0], options=labels)
    st.html(STYLE)
    label = st.segmented_control(LABEL, labels, key=key, required=True, label_visibility="collapsed")
    state.sync([key])
    return label


def show(key: str, sections: dict[str, Callable[[], None]]) -> None:
    """The switch over ``sections`` (label -> function drawing that section), then the chosen section, in one
    container (presenter mode, ``ui.presenter``, moves the container that holds the main chart, switch with
    it, under the title); a chart-first run whose section drew no main chart reruns in full after it."""
    with st.container():
        sections[chosen(key, sections)]()
    first_paint.rerun_in_full()
