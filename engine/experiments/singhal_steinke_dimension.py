"""Singhal & Steinke (2021): success against n for d ∈ {10, 100, 1000} — the dimension drops out.

Data: n points of a random k-plane of R^d, no noise (Problem 3.1; Problem 4.1 with γ = 1e-12).
Noise off the plane, even 1e-10, makes Algorithm 1 refuse its release (``fitted_subspace``).
Algorithm 1 needs n >= 3ℓ + ⌊2A⌋ + 2 and Algorithm 2 needs n >= m·b_min, neither depending on d;
Analyze Gauss's noise ‖E‖₂ ≈ 2σ√d makes its curve move right as d grows.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pandas as pd

from engine.experiments.protocol import Task, make_config
from engine.experiments.singhal_steinke import COLORS as COLORS  # its figures' colours, for the pages
from engine.experiments.singhal_steinke import (
    RELEASE_TABLES,
    SubspaceConfig,
    combine_releases,
    setting_footprint,
    setting_tasks,
    success_figures,
)
from engine.validation import check_int, check_nonnegative

DIMENSIONS = (10, 100, 1000)
SAMPLE_SIZES = (100, 400, 1600)
#: Columns that identify a cell of the summary.
BY = ("d", "n")

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = RELEASE_TABLES


@dataclass(frozen=True)
class Config(SubspaceConfig):
    """The shared settings plus the grid: ``dimensions`` × ``sample_sizes`` at one ``noise`` level."""

    dimensions: tuple[int, ...] = DIMENSIONS
    sample_sizes: tuple[int, ...] = SAMPLE_SIZES
    noise: float = 0.0

    def __post_init__(self):
        super().__post_init__()
        self._grid("dimensions", self.dimensions, self._check_dimension)
        self._grid("sample_sizes", self.sample_sizes, check_int)
        object.__setattr__(self, "noise", check_nonnegative("noise", self.noise))


def grid(config: Config) -> list[tuple]:
    """Settings ``(d, n, noise, outliers)`` in the order of the tables."""
    return [(d, n, config.noise, 0) for d in config.dimensions for n in config.sample_sizes]


def tasks(config: Config) -> list[Task]:
    """One task per (d, n, replicate block), keyed ``(d, n, noise, 0, first replicate)``."""
    return setting_tasks(config, grid(config))


def footprint(config: Config) -> dict[str, float]:
    """``singhal_steinke.setting_footprint`` over ``grid(config)``."""
    return setting_footprint(config, grid(config))


def combine(config: Config, outputs: list[pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """``releases`` (one row per release) and ``summary`` (per d, n and method)."""
    return combine_releases(outputs, BY)


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Run in-process (``Config`` lists the settings).

    Returns
    -------
    ``{"releases": d, n, k, epsilon, delta, noise, outliers, method, repeat, success, bottom, proj_error,
    status; "summary": success (± SE), ⊥ rate and median ‖Π̂ − Π‖ per (d, n, method)}``.
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def figures(results: dict[str, pd.DataFrame]) -> dict:
    """Success against n, one figure per d."""
    return success_figures(results["summary"], x="n", facet="d", title="Private subspace: success against n",
                           x_title="n")

