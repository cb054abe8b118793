"""The Private regression page's cached engine calls, each keyed by public settings only.

* ``private_regression``: data, fit, private releases and checks (``engine.pipelines.private_regression``);
* ``main_figure``: the figure of that run (plotly takes a while to build the 50-landmark outlines);
* ``figure1``: the Figure 1 study (``kulkarni-soto-fig1`` of ``engine.pipelines.studies``), run only when its section is chosen,
  kept in a shared ``ResultStore`` so that a progress bar can follow its budget splits.

``compute`` runs the first one under a spinner and turns a ``ValueError`` into ``st.error``.
"""

from __future__ import annotations

from typing import Callable

import streamlit as st

from engine.pipelines import studies
from engine.pipelines.private_regression import RegressionConfig, RegressionResult, run
from ui import errors
from ui.figure_cache import cache_figures
from ui.regression import figures
from ui.regression.controls import Settings
from ui.result_store import shared_store

#: Figure 1 on the page: the paper's grid with fewer private pairs per split (the CLI runs 100) and shorter
#: warm-ups (the CLI's 400 footpoint and 60 shooting-vector steps): the chains start uniform on the public
#: balls, where these K-norm laws with clipped gradients nearly are, and the independence proposals on the
#: balls are accepted most of the time, so 100 and 20 steps reach them (``rhat_footpoint`` shows it).
PAGE_PAIRS = 20
FIGURE1 = "kulkarni-soto-fig1"
PAGE_WARMUP = 100
PAGE_VELOCITY_WARMUP = 20


@st.cache_data(max_entries=16, show_spinner=False)
def private_regression(config: RegressionConfig) -> RegressionResult:
    """``engine.pipelines.private_regression.run``, cached."""
    return run(config)


@cache_figures(max_entries=16)
def main_figure(config: RegressionConfig):
    """``figures.main_figure`` of ``private_regression(config)``, cached."""
    return figures.main_figure(private_regression(config))


def figure1(n: int, k: int, tau: float, scale: str, clip: bool, seed: int, *,
            progress: Callable[[float, str], None] | None = None):
    """``kulkarni-soto-fig1`` with ``PAGE_PAIRS`` pairs per split and the page's warm-ups on the synthetic shapes;
    ``progress``
    receives (fraction done, text) while a new grid runs."""

    def step(fraction: float) -> None:
        if progress is not None:
            progress(fraction, f"Figure 1: {PAGE_PAIRS} private pairs per budget split, then Table 1's neighbours")

    return shared_store("regression-figure1").get(
        (n, k, tau, scale, clip, seed),
        lambda: studies.run(FIGURE1, studies.study(FIGURE1).config(
            reps=PAGE_PAIRS, n=n, k=k, tau=tau, scale=scale, clip_residuals=clip, seed=seed, warmup=PAGE_WARMUP,
            velocity_warmup=PAGE_VELOCITY_WARMUP), progress=step, shared_cache=False))


def compute(settings: Settings) -> RegressionResult:
    """The run of ``settings`` under a spinner; a ``ValueError`` becomes ``st.error`` and stops the page."""
    with st.spinner("Fitting the geodesic and drawing the private releases…"), \
            errors.shown_as_error("run the private regression"):
        return private_regression(settings.config)
