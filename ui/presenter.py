"""Presenter mode (``?present=1`` or the sidebar's button): the page as a projector shows it.

The sidebar is hidden, the type is larger and live charts fit the window's height (``ui.live_chart``'s
``fit``), so a page's main chart sits above the fold at 1280×720 and 1920×1080 (the Lesson's chart takes the
room its question leaves, ``fit_keep``); Esc leaves the mode.
The mode belongs to the session, not to a page: every page draws it through ``ui.navigation.sidebar``
and writes ``present=1`` back into the address, which a switch of page empties.
"""

from __future__ import annotations

import streamlit as st

from ui.literal import literal

#: The address key of presenter mode.
KEY = "present"
#: Session keys: whether the mode is on (kept over page switches), the buttons that turn it on and off.
ON, ENTER, LEAVE = "_presenter_on", "_presenter_enter", "_presenter_leave"
#: Address values of the mode.
VALUES = {"1": True, "true": True, "0": False, "false": False}
#: A chart: Streamlit's plotly chart or ``ui.live_chart``'s frame.
CHART = '[data-testid="stPlotlyChart"], iframe[src*="live_chart"]'
#: The mode's stylesheet, a constant (nothing from the address goes into it): no sidebar and no button to
#: open it, type and spacing 25 % larger (Streamlit sizes both in rem; in a window narrower than any projector's,
#: 800 px, the usual size, so formulas keep their width) but titles smaller, less blank space above them.
#: Streamlit stacks a page's elements in flex columns, so ``order`` redraws them without touching the page: in
#: each column the first element holding a chart comes first, and in a column with a chart the title and above
#: it the ← / → steppers (the Lesson's, ``ui.preset_steps``) come before it, and so does a section switch
#: (``ui.sections``) in the column of its section's chart; the text that explains the chart follows it. So
#: the main chart sits right under the title, above the fold.
STYLE = f"""<style>
[data-testid="stSidebar"], [data-testid="stExpandSidebarButton"] {{ display: none; }}
html {{ font-size: 125%; }}
@media (max-width: 1000px) {{ html {{ font-size: 100%; }} }}
[data-testid="stMainBlockContainer"] {{ padding-top: 3.5rem; padding-bottom: 2rem; }}
h1 {{ font-size: 2rem !important; padding-top: 0 !important; }}
[data-testid="stVerticalBlock"] > :has({CHART}):not(:has({CHART}) ~ *) {{ order: -1; }}
[data-testid="stVerticalBlock"]:has({CHART}) > :has(h1) {{ order: -2; }}
[data-testid="stVerticalBlock"]:has({CHART}) > [data-testid="stElementContainer"]:has(> [data-testid="stButtonGroup"]) {{ order: -2; }}
[data-testid="stVerticalBlock"]:has({CHART}) > :has(.st-key-lesson_back, .st-key-preset_steps_back) {{ order: -3; }}
</style>"""


def _address() -> tuple[str | None, bool | None]:
    """The address's ``present`` value as written, and the mode it asks for (``None``: none, or unreadable)."""
    raw = st.query_params.get(KEY)
    return raw, (None if raw is None else VALUES.get(raw.lower()))


def _asked() -> bool | None:
    """The mode the address asks for (None without ``present``); a value other than 1, 0, true or false
    warns, on every run while the address holds it, and asks for nothing."""
    raw, on = _address()
    if raw is not None and on is None:
        st.warning(f"Ignored the address parameter {literal(f'{KEY}={raw}')}: it must be 1 (presenter mode) or 0; "
                   "presenter mode stays as it was.")
    return on


def active() -> bool:
    """Whether the session shows its pages in presenter mode."""
    return bool(st.session_state.get(ON))


def coming() -> bool:
    """Whether this run is in presenter mode, or the address turns it on before the page draws (``setup``)."""
    return active() or _address()[1] is True


def _turn(on: bool) -> None:
    st.session_state[ON] = on


def setup() -> None:
    """Draw the mode's button into the sidebar (in the mode: its stylesheet and the Esc button that leaves
    it) and write the mode into the address. The address sets the mode at a session's start; the buttons
    later. Buttons, not a toggle: a page's chart-first run (``ui.first_paint``) draws no value widgets."""
    asked = _asked()
    if ON not in st.session_state:
        st.session_state[ON] = bool(asked)
    on = active()
    with st.sidebar:
        if on:
            st.button("Leave presenter mode", key=LEAVE, on_click=_turn, args=(False,), shortcut="Esc")
            st.markdown(STYLE, unsafe_allow_html=True)
        else:
            st.button("Presenter mode", key=ENTER, on_click=_turn, args=(True,), icon=":material/present_to_all:",
                      help="Hides this sidebar, enlarges the type and fits charts to the window; Esc leaves it. On "
                           "the Lesson page ← and → step through the lesson, on a page with presets on Home through "
                           "those presets. The address keeps present=1.")
    if on:
        st.query_params[KEY] = "1"
    elif asked is not None:
        del st.query_params[KEY]
