"""Singhal & Steinke (2021): success against the noise level (the eigengap γ ≈ noise).

Algorithm 1 needs exact data (any noise above its membership tolerance gives ⊥); Algorithm 2
needs γ ≲ 1/poly(d) (its cell width grows with γ√d); the noise-addition baselines barely notice.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pandas as pd

from engine.experiments.protocol import Task, make_config
from engine.experiments.singhal_steinke import (
    METHODS,
    RELEASE_TABLES,
    SubspaceConfig,
    combine_releases,
    setting_footprint,
    setting_tasks,
    success_figures,
)
from engine.validation import check_int, check_nonnegative

NOISES = (0.0, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2)
BY = ("d", "n", "noise")

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = RELEASE_TABLES


@dataclass(frozen=True)
class Config(SubspaceConfig):
    """The shared settings plus the grid: ``noises`` at one (d, n)."""

    reps: int = 100
    methods: tuple[str, ...] = METHODS
    noises: tuple[float, ...] = NOISES
    d: int = 50
    n: int = 1600

    def __post_init__(self):
        super().__post_init__()
        self._grid("noises", self.noises, check_nonnegative)
        object.__setattr__(self, "d", self._check_dimension("d", self.d))
        object.__setattr__(self, "n", check_int("n", self.n))


def grid(config: Config) -> list[tuple]:
    """Settings ``(d, n, noise, outliers)`` in the order of the tables."""
    return [(config.d, config.n, noise, 0) for noise in config.noises]


def tasks(config: Config) -> list[Task]:
    """One task per (noise, replicate block), keyed ``(d, n, noise, 0, first replicate)``."""
    return setting_tasks(config, grid(config))


def footprint(config: Config) -> dict[str, float]:
    """``singhal_steinke.setting_footprint`` over ``grid(config)``."""
    return setting_footprint(config, grid(config))


def combine(config: Config, outputs: list[pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """``releases`` (one row per release) and ``summary`` (per d, n, noise and method)."""
    return combine_releases(outputs, BY)


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Run in-process (``Config`` lists the settings); ``{"releases", "summary"}`` over the noise levels."""
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def figures(results: dict[str, pd.DataFrame]) -> dict:
    """Success against the noise level (0 drawn at 1e-12 on the log axis)."""
    summary = results["summary"].assign(noise=lambda f: f["noise"].clip(lower=1e-12))
    return success_figures(summary, x="noise", facet="d", title="Private subspace: success against noise",
                           x_title="noise (γ; 0 drawn at 1e-12)")
