"""The sidebar's list of pages, drawn by every page.

Streamlit's automatic list names the home page after its file ("app"); this one says "Home".
``.streamlit/config.toml`` hides the automatic list (``client.showSidebarNavigation = false``).
"""

from __future__ import annotations

import streamlit as st

from ui import state

#: (script relative to app.py, label, icon) in sidebar order.
PAGES = (
    ("app.py", "Home", ":material/home:"),
    ("pages/1_Private_mean_playground.py", "Private mean playground", ":material/scatter_plot:"),
    ("pages/2_Sensitivity.py", "Sensitivity", ":material/straighten:"),
    ("pages/3_Utility.py", "Utility", ":material/trending_down:"),
    ("pages/4_Samplers.py", "Samplers", ":material/casino:"),
    ("pages/5_Private_optimization.py", "Private optimization", ":material/route:"),
    ("pages/6_Private_regression.py", "Private regression", ":material/timeline:"),
    ("pages/7_Private_subspaces.py", "Private subspaces", ":material/layers:"),
    ("pages/8_Audit.py", "Audit", ":material/verified_user:"),
)


def sidebar() -> None:
    """One link per page at the top of the sidebar, the current page highlighted.

    Drawn first by every page, it also gives the page its own control values (``ui.state.enter_page``)
    before the page applies a preset from the address.
    """
    state.enter_page()
    with st.sidebar:
        for script, label, icon in PAGES:
            st.page_link(script, label=label, icon=icon)
        st.divider()
