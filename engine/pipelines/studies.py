"""The simulation studies (``engine.experiments``) as the pages reach them: by name, through a ``Study``.

``study(name)`` is the registry's entry for one study: its description, its parameter object built from
settings (unknown or ill-typed ones refused in one line), a setting's default, the colours its figures give
its methods and its figure builders. ``run(name, config)`` runs it: from the disk cache the command line
shares, on a Dask scheduler or in-process (``engine.experiments.runner``), with the same numbers each way.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Callable

import pandas as pd

from engine import experiments
from engine.experiments import protocol


@dataclass(frozen=True)
class Study:
    """One registered study: ``name`` (as on the command line) and its one-line ``description``."""

    name: str
    description: str

    @property
    def module(self) -> ModuleType:
        """The study's module (imported on first use)."""
        return experiments.load(self.name)

    def config(self, **settings):
        """The study's parameter object from ``settings``; ``ValueError`` naming an unknown or ill-typed one."""
        return protocol.make_config(self.module.Config, settings)

    def default(self, setting: str):
        """The default of ``setting``, e.g. the paper's grid of a sweep; ``ValueError`` naming the known ones."""
        fields = {f.name: f for f in dataclasses.fields(self.module.Config)}
        if setting not in fields:
            raise ValueError(f"study {self.name!r} has no setting {setting!r}; known: {', '.join(fields)}")
        return fields[setting].default

    @property
    def colors(self) -> MappingProxyType:
        """Method -> hex colour that the study's figures give its baselines (empty when it keeps the palette's)."""
        return MappingProxyType(dict(getattr(self.module, "COLORS", {})))

    def task_count(self, config) -> int:
        """How many tasks a run at ``config`` has (the grid's cells)."""
        return len(self.module.tasks(config))

    def stored(self, config) -> bool:
        """Whether the disk cache the command line shares holds a run at ``config`` (under the study module's
        name, as the runner stores it)."""
        from engine.experiments import cache

        return cache.contains(cache.default_directory(), self.module.__name__, config)

    def figures(self, results: dict[str, pd.DataFrame]) -> dict:
        """The study's figures of its tables ``results`` (plotly figures by name)."""
        return self.module.figures(results)


def study(name: str) -> Study:
    """The study registered as ``name``; ``ValueError`` naming the known studies otherwise."""
    if name not in experiments.STUDIES:
        raise ValueError(f"unknown study {name!r}; known: {', '.join(experiments.STUDIES)}")
    return Study(name, experiments.STUDIES[name][1])


def run(name: str, config, *, scheduler: str | None = None, progress: Callable[[float], None] | None = None,
        shared_cache: bool = True) -> dict[str, pd.DataFrame]:
    """The tables of study ``name`` run with ``config`` (from ``study(name).config``).

    ``scheduler`` (an address such as ``"tcp://10.0.0.5:8786"``) runs its tasks there, in-process when
    ``None``; ``progress`` receives the completed fraction of its tasks. With ``shared_cache`` a result is
    read from (and stored in) the disk cache that ``python -m engine.experiments`` uses.
    """
    from engine.experiments import cache, runner

    study(name)
    cache_dir: Path | None = cache.default_directory() if shared_cache else None
    return runner.run(name, config, scheduler=scheduler, progress=progress, cache_dir=cache_dir)
