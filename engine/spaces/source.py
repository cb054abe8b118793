"""A data source of a space: its label, how it draws a data set and the note the pages show.

Synthetic sources draw around the space's origin m0; real ones are public catalogues from which the
private data set is a random sample (the catalogue, and so m0, is public). ``engine.pipelines.sources``
draws them for the private-mean pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Sample:
    """A data set ``(n, *point_shape)``, its public centre m0, the catalogue size of a real source
    (``None`` when synthetic), tree edges between sampled nodes (else ``None``) and a note."""

    data: np.ndarray
    m0: np.ndarray
    n_available: int | None
    edges: np.ndarray | None
    note: str


@dataclass(frozen=True)
class SourceRequest:
    """What a draw needs: the space's manifold, n, r, landmarks k, the airports' region, the stream
    of synthetic draws and the stream that subsamples a catalogue."""

    manifold: object
    n: int
    radius: float
    k: int
    region: str
    data_rng: np.random.Generator
    subsample_rng: np.random.Generator


@dataclass(frozen=True)
class DataSource:
    """One data source: ``label`` for the select, ``draw(request, note) -> Sample``, the ``note``
    saying where the data come from (empty when ``draw`` writes its own) and ``reads``, the fields of the
    ``SourceRequest`` it reads beyond n, the radius, the rngs and the manifold (e.g. ``("region",)``), so
    that a run's reproduction leaves out what no source of its run reads."""

    label: str
    draw: Callable[[SourceRequest, str], Sample]
    note: str = ""
    reads: tuple[str, ...] = ()


def remap_edges(edges: np.ndarray | None, kept: np.ndarray) -> np.ndarray | None:
    """Edges between rows that survive ``kept``, re-indexed to the surviving rows."""
    if edges is None:
        return None
    position = np.cumsum(kept) - 1
    return position[edges[kept[edges].all(axis=1)]]


def catalogue_sample(points: np.ndarray, m0: np.ndarray, n: int, rng, note: str, edges=None) -> Sample:
    """A random sample of min(n, len(points)) rows of a public catalogue, in catalogue order."""
    chosen = np.zeros(len(points), dtype=bool)
    chosen[rng.choice(len(points), size=min(n, len(points)), replace=False)] = True
    return Sample(points[chosen], m0, len(points), remap_edges(edges, chosen), note)


def synthetic(draw: Callable[[SourceRequest], np.ndarray]):
    """A synthetic source around the space's origin m0: ``draw(request)`` gives the records."""
    return lambda q, note: Sample(draw(q), q.manifold.origin, None, None, note)
