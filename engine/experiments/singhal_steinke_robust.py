"""Singhal & Steinke (2021): success against the number of adversarial points ℓ.

Outliers are Gaussian points of R^d off the plane. Algorithm 1 is told ℓ (n_min = 3ℓ + ⌊2A⌋ + 2
grows with it); Algorithm 2 adds one block per outlier; the baselines are not told anything.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pandas as pd

from engine.experiments.protocol import Task, make_config
from engine.experiments.singhal_steinke import (
    RELEASE_TABLES,
    SubspaceConfig,
    check_outliers,
    combine_releases,
    setting_footprint,
    setting_tasks,
    success_figures,
)
from engine.validation import check_int, check_nonnegative

OUTLIERS = (0, 5, 10, 20, 40)
BY = ("d", "n", "outliers")

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = RELEASE_TABLES


@dataclass(frozen=True)
class Config(SubspaceConfig):
    """The shared settings plus the grid: numbers of ``outliers`` at one (d, n, noise)."""

    reps: int = 100
    outliers: tuple[int, ...] = OUTLIERS
    d: int = 50
    n: int = 2400
    noise: float = 0.0

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "d", self._check_dimension("d", self.d))
        object.__setattr__(self, "n", check_int("n", self.n))
        object.__setattr__(self, "noise", check_nonnegative("noise", self.noise))
        self._grid("outliers", self.outliers, lambda name, o: check_outliers(o, self.n))


def grid(config: Config) -> list[tuple]:
    """Settings ``(d, n, noise, outliers)`` in the order of the tables."""
    return [(config.d, config.n, config.noise, o) for o in config.outliers]


def tasks(config: Config) -> list[Task]:
    """One task per (outlier count, replicate block), keyed ``(d, n, noise, outliers, first replicate)``."""
    return setting_tasks(config, grid(config))


def footprint(config: Config) -> dict[str, float]:
    """``singhal_steinke.setting_footprint`` over ``grid(config)``."""
    return setting_footprint(config, grid(config))


def combine(config: Config, outputs: list[pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """``releases`` (one row per release) and ``summary`` (per d, n, outliers and method)."""
    return combine_releases(outputs, BY)


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Run in-process (``Config`` lists the settings); ``{"releases", "summary"}`` over the outlier counts."""
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def figures(results: dict[str, pd.DataFrame]) -> dict:
    """Success against the number of outliers."""
    return success_figures(results["summary"], x="outliers", facet="d", log_x=False,
                           title="Private subspace: success against outliers", x_title="outliers ℓ")
