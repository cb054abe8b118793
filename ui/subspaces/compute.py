"""The page's cached computations: the releases in R³ (one call of the private-subspace pipeline)
and its 3D figure, and the cells of the dimension sweep (the ``singhal-steinke-dimension`` study, one
(d, n) at a time so that a progress bar can follow and each cell is cached)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.pipelines import private_subspace
from engine.pipelines.studies import study
from engine.viz.subspaces import private_subspace_figure
from ui import studies
from ui.figure_cache import cache_figures

SWEEP_STUDY = study("singhal-steinke-dimension")
#: The sweep: methods, dimensions, sample sizes and releases per cell (a small run of the study).
SWEEP_METHODS = ("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss")
SWEEP_DIMENSIONS = (10, 100, 1000)
SWEEP_SIZES = (100, 400, 1600)
SWEEP_REPS = 10


@st.cache_data(max_entries=16, show_spinner=False)
def private_subspaces(config: private_subspace.PrivateSubspaceConfig) -> private_subspace.PrivateSubspaceResult:
    """``private_subspace.run(config)``; ``ValueError`` when n is too small for the method."""
    return private_subspace.run(config)


@cache_figures(max_entries=16)
def main_figure(config: private_subspace.PrivateSubspaceConfig):
    """The 3D figure of ``private_subspaces(config)``, cached: building it took 17-32 ms on every rerun."""
    return private_subspace_figure(private_subspaces(config))


def sweep_config(k: int, epsilon: float, delta: float, seed: int, d: int, n: int):
    """The study's parameters for one cell of the sweep."""
    return SWEEP_STUDY.config(reps=SWEEP_REPS, seed=seed, k=k, epsilon=epsilon, delta=delta, dimensions=(d,),
                              sample_sizes=(n,), methods=SWEEP_METHODS, block=SWEEP_REPS)


@st.cache_data(max_entries=128, show_spinner=False)
def sweep_cell(k: int, epsilon: float, delta: float, seed: int, d: int, n: int) -> pd.DataFrame:
    """Summary rows (d, n, method, success, ...) of one cell of the sweep."""
    return studies.run(SWEEP_STUDY.name, sweep_config(k, epsilon, delta, seed, d, n))["summary"]
