"""A page that runs again by itself when its websocket reconnects, e.g. to another process of ``make serve``.

Streamlit 1.67's browser side, on reconnecting, asks for a run only if a run was under way, the last run
was a fragment's, or the page holds a fragment with ``run_every`` (its auto-rerun timers); an idle page
otherwise stays as it was, and a student whose process died (issue 45) would look at a page whose
downloads died with that process until they reload. ``keep_alive`` gives every page such a fragment: empty,
rerun every ``INTERVAL_SECONDS`` (one tiny run per student per interval, nothing sent), so the process the
proxy reconnects the student to runs the page at once from the widget values and address the browser
still holds.
"""

from __future__ import annotations

import streamlit as st

#: How often the empty fragment reruns; what matters is that it has a timer, not how often it fires.
INTERVAL_SECONDS = 600


@st.fragment(run_every=INTERVAL_SECONDS)
def _timer() -> None:
    """Nothing to draw: the fragment is there for its auto-rerun timer."""


def keep_alive() -> None:
    """Hold the page's auto-rerun timer (call once per full run, in the sidebar)."""
    _timer()
