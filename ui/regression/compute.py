"""Cached engine calls of the Private regression page."""

from __future__ import annotations

import streamlit as st

from engine.experiments import kulkarni_soto_fig1
from engine.pipelines.private_regression import RegressionConfig, run
from ui.regression.controls import Settings

#: Figure 1 on the page: the paper's grid with fewer private pairs per split (the CLI runs 100).
PAGE_PAIRS = 20


def _config(settings: Settings) -> RegressionConfig:
    return RegressionConfig(dataset=settings.dataset, n=settings.n, k=settings.k, epsilon_p=settings.eps_p,
                            epsilon_v=settings.eps_v, tau=settings.tau, releases=settings.releases,
                            scale="paper" if settings.paper_scale else "private", clip_residuals=settings.clip,
                            warmup=settings.warmup, seed=settings.seed)


@st.cache_data(max_entries=16, show_spinner=False)
def private_regression(settings: Settings):
    """Data, fit, private releases and checks (``engine.pipelines.private_regression.run``)."""
    return run(_config(settings))


@st.cache_data(max_entries=16, show_spinner=False)
def main_figure(settings: Settings):
    """The outlines or S² arcs of ``private_regression(settings)`` (cached: plotly takes a while to build it)."""
    from ui.regression.views import main_figure as build

    return build(private_regression(settings))


@st.cache_data(max_entries=4, show_spinner=False)
def figure1(n: int, k: int, tau: float, paper_scale: bool, clip: bool, seed: int):
    """``kulkarni-soto-fig1`` with ``PAGE_PAIRS`` pairs per split on the synthetic shapes."""
    return kulkarni_soto_fig1.run(pairs=PAGE_PAIRS, n=n, k=k, tau=tau, scale="paper" if paper_scale else "private",
                                  clip_residuals=clip, seed=seed)
