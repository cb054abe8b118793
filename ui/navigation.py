"""The sidebar's list of pages, drawn by every page.

Streamlit's automatic list names the home page after its file ("app"); this one says "Home".
``.streamlit/config.toml`` hides the automatic list (``client.showSidebarNavigation = false``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from engine.spaces import SPACES
from ui import address_keys, first_paint, narrow_window, presenter, preset_steps, reconnect, state

#: The app's logo (page icon of every page, Home's picture).
LOGO = Path(__file__).resolve().parents[1] / "assets" / "logo.svg"
#: The app's name: Home's title, and the end of every other page's.
APP_NAME = "Manifold Privacy Explorer"


@dataclass(frozen=True)
class Page:
    """One page: its script (relative to app.py), sidebar label and icon, and what Home's card says it teaches."""

    script: str
    label: str
    icon: str
    teaches: str = ""


#: Every page in sidebar order, Home first: the one list the sidebar and Home's cards read.
PAGES = (
    Page("app.py", "Home", ":material/home:"),
    Page("pages/9_Lesson.py", "Lesson", ":material/school:",
         "Start here: the story in nine steps, from one record moving the mean to the guarantee audited in a "
         "\"which data set?\" game, each with a chart, a question to predict and a one-sentence takeaway."),
    Page("pages/1_Private_mean_playground.py", "Private mean playground", ":material/scatter_plot:",
         f"Release the mean of data on each of the tool's spaces ({'; '.join(e.short_label for e in SPACES.values())}) "
         "and watch the Riemannian Laplace mechanism keep its releases on the manifold while the Euclidean one leaves "
         "it."),
    Page("pages/2_Sensitivity.py", "Sensitivity", ":material/straighten:",
         "How much one person can move a Fréchet mean: Theorem 2's bound 2r(2 − h)/(nh) against the worst case "
         "found by swapping a record, and why positive curvature makes the bound grow."),
    Page("pages/3_Utility.py", "Utility", ":material/trending_down:",
         "How the error of a private mean shrinks with n and ε, and the paper's comparison of intrinsic and "
         "ambient noise, replicated with confidence bands."),
    Page("pages/4_Samplers.py", "Samplers", ":material/casino:",
         "How the Laplace law on a manifold is actually drawn: exact samplers against Metropolis–Hastings, with "
         "histograms, traces and where the law stops being normalisable."),
    Page("pages/5_Private_optimization.py", "Private optimization", ":material/route:",
         "Differentially private Riemannian gradient descent: noisy steps on the manifold, privacy accounting over "
         "iterations, and how it compares with releasing the answer once."),
    Page("pages/6_Private_regression.py", "Private regression", ":material/timeline:",
         "Fit a geodesic through shapes or directions against a covariate and release it privately with the K-norm "
         "gradient mechanism: Kulkarni & Soto's Table 1 with the numbers plugged in, and what dimension costs."),
    Page("pages/7_Private_subspaces.py", "Private subspaces", ":material/layers:",
         "Learn the plane or line the data lie in, privately: Singhal & Steinke count points instead of adding noise, "
         "answer ⊥ when the data do not fit, and need a sample size that does not grow with the dimension."),
    Page("pages/8_Audit.py", "Audit", ":material/verified_user:",
         "Evidence instead of promises: an empirical 95% lower bound on ε for every mechanism, beside its claim, "
         "and deliberately broken mechanisms the audit flags."),
)


def page_config(label: str | None = None) -> None:
    """The page's browser title (``label · APP_NAME``; Home, without a label: ``APP_NAME``), the logo as its
    icon and the wide layout; every page's first call."""
    st.set_page_config(page_title=f"{label} · {APP_NAME}" if label else APP_NAME, page_icon=str(LOGO), layout="wide")


def sidebar() -> None:
    """One link per page at the top of the sidebar, the current page highlighted.

    Drawn first by every page, it also gives the page its own control values (``ui.state.enter_page``)
    before the page applies a preset from the address, and keeps the place at the top of the page where
    the page's last line reports address keys it does not know (``ui.address_keys``); below it, in presenter
    mode, the steps through the page's Home presets (``ui.preset_steps``). A chart-first run
    (``ui.first_paint``) sends nothing to the sidebar before the chart: the links, the presenter button and
    the steps wait for the full run, and the sidebar says that the controls are on their way once the chart
    is sent (``first_paint.main_chart``). With the links comes the script that starts the sidebar collapsed
    in a window too narrow for it beside the page (``ui.narrow_window``), and the fragment that makes a page
    run again by itself after its websocket reconnected to another process (``ui.reconnect``).
    """
    state.enter_page()
    if not first_paint.running():
        with st.sidebar:
            _links()
            reconnect.keep_alive()
        presenter.setup()
    address_keys.reserve()
    first_paint.in_full_run(preset_steps.show)


def _links() -> None:
    """The page links, and the script that collapses the sidebar in a narrow window (``ui.narrow_window``)."""
    for page in PAGES:
        st.page_link(page.script, label=page.label, icon=page.icon)
    st.divider()
    narrow_window.collapse_when_narrow()
