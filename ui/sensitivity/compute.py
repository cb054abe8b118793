"""The Sensitivity page's cached calls into ``engine.pipelines.sensitivity``: one sample size at a
time, so that a progress bar follows the simulation and a changed n recomputes only its own piece."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.pipelines import sensitivity
from ui import errors
from ui.sensitivity.controls import Settings


@st.cache_data(max_entries=32, show_spinner=False)
def neighbour_replicates(space: str, radius: float, n: int, reps: int, seed: int) -> pd.DataFrame:
    """``sensitivity.neighbour_replicates``, cached per sample size."""
    return sensitivity.neighbour_replicates(space, radius, n, reps, seed)


@st.cache_data(max_entries=8, show_spinner=False)
def boundary_constants(space: str, radii: tuple[float, ...]) -> pd.DataFrame:
    """``sensitivity.boundary_constants`` (a grid search per radius), cached."""
    return sensitivity.boundary_constants(space, radii)


def compute(settings: Settings) -> sensitivity.SensitivityResult:
    """Simulate every sample size under a progress bar; a ``ValueError`` becomes ``st.error``."""
    config = settings.config
    sizes = config.sample_sizes
    progress = st.progress(0.0, text="Simulating neighbouring data sets …")
    frames = []
    with errors.shown_as_error("simulate neighbouring data sets"):
        for i, size in enumerate(sizes):
            frames.append(neighbour_replicates(config.space, config.radius, size, config.reps, config.seed))
            progress.progress((i + 1) / len(sizes), text=f"Simulated n = {size} ({i + 1} of {len(sizes)} sample sizes)")
    progress.empty()
    return sensitivity.assemble(config, frames)
