"""The Utility page's "Gaussian against Laplace" section: the sphere comparison of Jiang et al. (NeurIPS 2023,
``engine.experiments.gauss_vs_laplace``) at the command line's settings, its figure beside the paper's claim and, in
plain text, where the claim holds.

The study solves σ by quadrature for every dimension, n and mechanism (seconds each, minutes in all), so the section
runs it on a button press, through ``ui.studies`` into the disk cache the command line shares; once there (a press,
or ``python -m engine.experiments gauss-vs-laplace``), the section shows it at once."""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from engine.pipelines import studies as registry
from engine.viz.gauss_vs_laplace import gauss_vs_laplace_figure, plan_figure
from ui import presenter, studies
from ui.downloads import download_row
from ui.figure_cache import cache_figures
from ui.live_chart import PLAIN_CHART, live_chart

#: The study's name in ``engine.experiments.STUDIES``, its entry and its settings on the page: the command line's
#: defaults.
NAME = "gauss-vs-laplace"
STUDY = registry.study(NAME)
CONFIG = STUDY.config()
#: Key of the button that runs the study.
RUN_KEY = "gauss_vs_laplace_run"
#: What Jiang, Chang, Liu, Ding, Kong & Jiang (NeurIPS 2023, arXiv 2311.10101) claim, in our words.
CLAIM = ("Jiang, Chang, Liu, Ding, Kong & Jiang (NeurIPS 2023) compare their Riemannian Gaussian with the Riemannian "
         "Laplace of Reimherr et al. in simulations on spheres: at the same privacy, they report, the Gaussian's "
         "release lands closer to the mean.")

figure = cache_figures(max_entries=4)(gauss_vs_laplace_figure)


def plan(config):
    """The cells a run at ``config`` computes (``plan_figure``)."""
    return plan_figure(config.dims, config.ns)


@st.cache_data(max_entries=4, show_spinner="Running the sphere comparison (one μ solve per dimension, n and "
                                            "mechanism)…")
def errors(config) -> pd.DataFrame:
    """The study's ``errors`` table at ``config`` (``ui.studies.run``), cached."""
    return studies.run(NAME, config)["errors"]


def ratio_table(found: pd.DataFrame) -> pd.DataFrame:
    """The ratios of the exact mean errors (``study.ratios``), one row per d and one column per n."""
    wide = STUDY.module.ratios(found).pivot(index="d", columns="n", values="ratio")
    return pd.DataFrame({"space": [STUDY.module.sphere_name(d) for d in wide.index],
                         **{f"n = {n}": [f"{r:.3f}" for r in wide[n]] for n in wide.columns}})


def show() -> None:
    """The section: the paper's claim; once the study has run, its figure on the left and where the claim holds
    and the ratios on the right."""
    st.markdown(f"**The paper's claim.** {CLAIM}")
    tasks = STUDY.task_count(CONFIG)
    if not STUDY.stored(CONFIG):
        pressed = st.button(f"Run the comparison ({tasks} μ solves, a few minutes)", key=RUN_KEY,
                            help="Solves each mechanism's σ at equal μ by quadrature for every d and n, then draws "
                                 "the errors; the result is kept for every later visit.")
        if not pressed:
            st.caption(f"Not run yet on this server: press the button, or run python -m engine.experiments {NAME} "
                       f"on it. Each cell below averages {CONFIG.reps:,} exact draws at μ = {CONFIG.mu:g}.")
            live_chart(plan(CONFIG), key="chart-gauss-vs-laplace-plan", fit=presenter.active(), **PLAIN_CHART)
            return
    found = errors(CONFIG)
    mu = float(found["mu"].iloc[0])
    left, right = st.columns([3, 2])
    with left:
        fig = figure(found)
        live_chart(fig, key="chart-gauss-vs-laplace", fit=presenter.active(), **PLAIN_CHART)
        st.caption(f"Fréchet mean of n records in a ball of radius {CONFIG.radius:.3g} on Sᵈ, Theorem 2's sensitivity; "
                   f"each mechanism's σ is the smallest whose exact μ (by quadrature) is at most {mu:g}. Each point "
                   f"averages {CONFIG.reps:,} exact draws of the release's distance to the Fréchet mean.")
        download_row(NAME, fig=fig, data=found, settings=dataclasses.asdict(CONFIG), study=NAME)
    with right:
        st.info(f"**What this run finds.** {STUDY.module.reading(found)}")
        st.markdown("Error of the Gaussian over the Laplace's (exact mean errors; below 1 the Gaussian wins):")
        st.table(ratio_table(found), hide_index=True, border="horizontal")
