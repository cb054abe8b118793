"""The Utility page's cached calls into ``engine.pipelines.utility``: one sample size at a time, so
that a progress bar follows the simulation and a changed setting recomputes only its own pieces
(the data and means of a sample size are shared by every ε)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine.pipelines import figure1_setting, utility, who_wins
from ui import errors
from ui.utility.controls import Settings


@st.cache_data(max_entries=16, show_spinner=False)
def noise_constant(space: str, radius: float, sphere_constant: str) -> float:
    """``utility.noise_constant`` (the sphere's boundary constant is a grid search), cached."""
    return utility.noise_constant(space, radius, sphere_constant)


@st.cache_data(max_entries=32, show_spinner=False)
def sample_means(space: str, radius: float, n: int, reps: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``utility.sample_means``, cached per sample size."""
    return utility.sample_means(space, radius, n, reps, seed)


@st.cache_data(max_entries=32, show_spinner=False)
def release_summary(space: str, radius: float, n: int, reps: int, seed: int, constant: float,
                    epsilons: tuple[float, ...], paper_baseline: bool, added: tuple[str, ...] = (),
                    delta: float = utility.UtilityConfig.delta) -> pd.DataFrame:
    """``utility.release_summary`` on the cached means of that sample size."""
    return utility.release_summary(space, radius, n, reps, seed, constant, epsilons, paper_baseline,
                                   means=sample_means(space, radius, n, reps, seed), added=added, delta=delta)


@st.cache_data(max_entries=8, show_spinner=False)
def baseline_privacy(space: str, radius: float, n: int, epsilon: float) -> pd.DataFrame:
    """``utility.baseline_privacy``, cached."""
    return utility.baseline_privacy(space, radius, n, epsilon)


def compute(settings: Settings) -> utility.UtilityResult:
    """Calibrate the noise, then run both sweeps under a progress bar (one step per sample size).

    Why r is too large for Theorem 2 is said with ``st.warning`` first; a ``ValueError`` (no
    calibration, no simulation) becomes ``st.error`` and stops the page.
    """
    c = settings.config
    note = utility.radius_note(c.space, c.radius)
    if note is not None:
        st.warning(note.text)
    with errors.shown_as_error("calibrate the noise"):
        constant = noise_constant(c.space, c.radius, c.sphere_constant)
    steps = len(c.ns) + 1
    progress = st.progress(0.0, text="Simulating releases …")
    parts = []
    with errors.shown_as_error("simulate the releases"):
        for i, size in enumerate(c.ns):
            parts.append(release_summary(c.space, c.radius, size, c.reps, c.seed, constant, (c.epsilon,),
                                         c.paper_baseline, c.added, c.delta))
            progress.progress((i + 1) / steps, text=f"Simulated n = {size} ({i + 1} of {steps} steps)")
        by_eps = release_summary(c.space, c.radius, c.n, c.reps, c.seed, constant, c.epsilons, c.paper_baseline,
                                 c.added, c.delta)
    progress.empty()
    return utility.UtilityResult(c, constant, pd.concat(parts, ignore_index=True), by_eps)


def verdict(result: utility.UtilityResult) -> who_wins.Verdict:
    """Who wins at the ε sweep's (n, ε) (``utility.verdict``), always with Theorem 2's proven constant:
    when the page charts the paper's numerical constant, the proven rows are simulated too (same data
    and noise streams, cached) and the paper's enter the sentence as what that choice changes."""
    c = result.config
    if c.sphere_constant == "theorem" or not figure1_setting.RECIPES[c.space].boundary_constant:
        return utility.verdict(c.space, c.radius, c.n, c.epsilon, result.by_eps, reps=c.reps)
    proven = release_summary(c.space, c.radius, c.n, c.reps, c.seed, noise_constant(c.space, c.radius, "theorem"),
                             (c.epsilon,), False)
    return utility.verdict(c.space, c.radius, c.n, c.epsilon, proven, paper=(result.constant, result.by_eps),
                           reps=c.reps)
