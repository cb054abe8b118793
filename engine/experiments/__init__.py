"""Simulation studies returning tidy pandas DataFrames; run them with ``python -m engine.experiments``.

Each study module exposes ``run(*, reps, seed, progress=None, **settings) -> dict[str, DataFrame]``
and ``figures(results) -> dict[str, plotly Figure]``.
"""

from __future__ import annotations

import importlib

STUDIES = {
    "reimherr-fig1": ("engine.experiments.reimherr_fig1",
                      "Figure 1 of Reimherr et al. 2021: sensitivity and utility on SPD(2) and S^2"),
    "sampler-check": ("engine.experiments.sampler_check",
                      "Exact vs Metropolis–Hastings Laplace samplers: KS distance and draws per second"),
}


def load(name: str):
    """The module of study ``name``; ``ValueError`` naming the known studies otherwise."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r}; known: {', '.join(STUDIES)}")
    return importlib.import_module(STUDIES[name][0])
