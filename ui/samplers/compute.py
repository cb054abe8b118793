"""The Samplers page's one computation: ``engine.pipelines.sampler_comparison`` kept in a shared
``ResultStore`` (not ``st.cache_data``) so that a progress bar can follow the MH chains, and its
figures (``engine.viz.samplers``), cached."""

from __future__ import annotations

from typing import Callable

import streamlit as st

from engine.pipelines import sampler_comparison
from engine.pipelines.sampler_comparison import SamplerComparison, SamplerComparisonConfig
from engine.viz.samplers import chain_trace, radius_histograms
from ui import errors, first_paint
from ui.figure_cache import cache_figures
from ui.progress import DelayedProgress
from ui.result_store import shared_store
from ui.samplers.controls import JACOBIANS, Settings


def compare(config: SamplerComparisonConfig, *, progress: Callable[[float, str], None] | None = None
            ) -> SamplerComparison:
    """``sampler_comparison.run(config)``, stored for every session; ``progress`` (fraction done, text)
    follows the MH chains while a new comparison runs, a stored one returns at once."""
    return shared_store("samplers").get(config, lambda: sampler_comparison.run(config, progress=progress))


@cache_figures(max_entries=16)
def figures(config: SamplerComparisonConfig) -> dict:
    """The page's figures and chart data for ``config`` (cached: building the trace figure takes longer
    than the whole cached rerun may).

    Returns ``{"exact": fig, "mh": fig, "trace": fig, "trace_data": DataFrame, "radii": DataFrame}``.
    """
    result = compare(config)
    exact, mh = radius_histograms(result)
    trace_fig, trace_data = chain_trace(result, config.burn_in)
    return {"exact": exact, "mh": mh, "trace": trace_fig, "trace_data": trace_data, "radii": result.radii()}


def compute(settings: Settings) -> tuple[SamplerComparison, dict]:
    """State the target law, then run the comparison under a spinner and a delayed progress bar.

    Returns the comparison and its ``figures``; a ``ValueError`` (a non-normalisable σ, a step beyond
    the injectivity radius, σ too close to the limit for double precision) becomes ``st.error``.
    """
    first_paint.in_full_run(lambda: st.latex(
        r"p(x) \propto e^{-\rho(x,\eta)/\sigma}\ \Rightarrow\ f(\rho) \propto e^{-\rho/\sigma} J(\rho),\qquad "
        rf"J(\rho) = {JACOBIANS[settings.space]},\qquad \sigma = {settings.sigma:g}"))
    steps = settings.burn_in + settings.thin * (settings.draws - 1)
    with st.spinner(f"Running {settings.chains} MH chains of {steps:,} steps and "
                    f"{settings.draws * settings.chains:,} exact draws …", show_time=True), \
            errors.shown_as_error("compare the samplers"), DelayedProgress() as progress:
        config = settings.config
        result = compare(config, progress=progress)
        charts = figures(config)
    return result, charts
