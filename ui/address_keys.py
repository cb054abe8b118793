"""Address keys a page does not know (``?foo=bar``, ``?epsilon=-1`` where the key is ``eps``): one
``st.warning`` line each, quoting the key and its value as literal text and naming the key the page
knows that it most resembles (``difflib``), or the keys it knows when none is alike, shown at the top
of the page.

``ui.navigation.sidebar`` keeps a place at the top of the page (``reserve``); the page calls ``report``
as its last line, once every widget and section switch has taken its key (``ui.state``). A chart-first run draws
no widgets and reports nothing; the full run that follows does.
"""

from __future__ import annotations

import difflib

import streamlit as st

from ui import controls, presenter, state
from ui.literal import literal

#: Session key of the run's reserved place at the top of the page.
SLOT = "_address_keys_slot"
#: Keys Streamlit itself reads from the address.
STREAMLIT_KEYS = frozenset({"embed", "embed_options"})
#: How alike (``difflib``'s ratio, 2·matches / total length) a known key must be to be named as the one
#: meant (``epsilon`` → ``eps`` is 0.6, ``epss`` → ``eps`` 0.86), not one merely least unlike (``foo`` → ``log`` 0.33).
CLOSENESS = 0.5
#: Known keys a warning lists when none resembles the unknown one.
LISTED = 10
#: Keys every page reads: Streamlit's and presenter mode's (``ui.presenter``); never named as a page's nearest.
EVERY_PAGE_KEYS = STREAMLIT_KEYS | {presenter.KEY}


def reserve() -> None:
    """Keep an empty place at the top of the main area for ``report`` (shows nothing when left empty)."""
    st.session_state[SLOT] = st.empty()


def nearest(key: str, known) -> str | None:
    """The known key most like ``key`` (``difflib``'s ratio), or ``None`` when none is ``CLOSENESS`` alike."""
    found = difflib.get_close_matches(key, sorted(known), n=1, cutoff=CLOSENESS)
    return found[0] if found else None


def warning(key: str, value: str, known) -> str:
    """The line that reports the unknown address key ``key`` (``value`` its address value)."""
    close, names = nearest(key, known), sorted(known)
    if close:
        fix = f"the nearest key it knows is {literal(close)}"
    elif names:
        more = f", … ({len(names)} in all)" if len(names) > LISTED else ""
        fix = f"the keys it knows are {', '.join(literal(name) for name in names[:LISTED])}{more}"
    else:
        fix = "it takes no keys from the address"
    return f"Ignored the address parameter {literal(f'{key}={value}')}: this page has no setting of that name; {fix}."


def report() -> list[str]:
    """Warn, in the place ``reserve`` kept, about each address key this page does not know; the keys."""
    if not controls.drawing():
        return []
    known = state.page_keys() | EVERY_PAGE_KEYS
    unknown = [key for key in st.query_params if key not in known]
    slot = st.session_state.pop(SLOT, None)
    if unknown and slot is not None:
        with slot.container():
            for key in unknown:
                st.warning(warning(key, st.query_params[key], known - EVERY_PAGE_KEYS))
    return unknown
