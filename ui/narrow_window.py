"""A window too narrow for the sidebar beside the page starts with the sidebar collapsed.

Streamlit collapses its sidebar on its own only up to its ``md`` breakpoint, 768 px, and keeps it open
beside the page in any wider window: at 800 px its 300 px leave the page 500, too few for the formulas,
the tables and a chart's numbers. In a window of at most ``NARROW`` px this script collapses the sidebar
once per page a window opens, as Streamlit does below 768 px: the page takes the full width and the
sidebar's ``>>`` button in the top left opens it. A sidebar the visitor opened or closed before (Streamlit
remembers that choice in the browser) is left as it is, and the collapse here is not remembered, so a
wider window later opens with the sidebar as usual.
"""

from __future__ import annotations

import streamlit as st

#: Widest window (CSS px) whose sidebar starts collapsed: the sidebar (300 px) beside a page of at least 700.
NARROW = 1000
#: Streamlit's key prefix of the visitor's own sidebar choice in ``localStorage``.
_CHOICE = "stSidebarCollapsed-"
#: The script: waits for the sidebar's collapse button (the sidebar arrives with the page's first widgets),
#: presses it, and removes the choice Streamlit stores for that press.
SCRIPT = f"""<script>
(() => {{
  const done = window.__narrowCollapsed || (window.__narrowCollapsed = new Set());
  const page = location.pathname;
  const choices = () => Object.keys(localStorage).filter(key => key.startsWith("{_CHOICE}"));
  if (window.innerWidth > {NARROW} || done.has(page) || choices().length) return;
  done.add(page);
  const press = () => {{
    const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
    if (!button) return false;
    if (button.getAttribute("aria-expanded") === "true") button.click();
    choices().forEach(key => localStorage.removeItem(key));
    return true;
  }};
  if (press()) return;
  const watch = new MutationObserver(() => {{ if (press()) watch.disconnect(); }});
  watch.observe(document.body, {{childList: true, subtree: true}});
}})();
</script>"""


def collapse_when_narrow() -> None:
    """Send the script (an element of no height; the browser runs it once per page). Drawn with the sidebar's
    page links by a page's full run (``ui.navigation``): a chart-first run sends the chart alone."""
    st.html(SCRIPT, unsafe_allow_javascript=True)
