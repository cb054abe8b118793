"""Data sources of the private-mean pipeline: one data set per (space, source) with its public
centre m0 and a note on where it comes from.

Each space's module under ``engine.spaces`` declares its sources (``DataSource``: label, draw and
note); synthetic ones follow the papers (Reimherr, Bharath & Soto 2021, supplement §2.1: the sphere
cap and the Wishart recipe), real ones are public catalogues from which the private data set is a
random sample (the catalogue, and so m0, is public).
"""

from __future__ import annotations

from engine.spaces import SPACES, Sample, SourceRequest, remap_edges

#: Data sources per space (URL value → label), in display order; the first is the default.
SOURCES = {key: entry.sources for key, entry in SPACES.items()}
#: How each (space, source) of ``SOURCES`` draws its data: ``draw(request, note) -> Sample``.
DRAWS = {(key, name): source.draw for key, entry in SPACES.items() for name, source in entry.data_sources.items()}
NOTES = {(key, name): source.note for key, entry in SPACES.items() for name, source in entry.data_sources.items()}

__all__ = ["DRAWS", "NOTES", "SOURCES", "Sample", "remap_edges", "sample_data"]


def sample_data(space: str, source: str, manifold, *, n: int, radius: float, k: int, region: str,
                data_rng, subsample_rng) -> Sample:
    """One data set of the source ``source`` on ``space`` (see ``SOURCES`` and ``DRAWS``)."""
    if source not in SOURCES.get(space, {}):
        raise ValueError(f"data source {source!r} is not available on the space {space!r}; "
                         f"choose one of {', '.join(SOURCES.get(space, {})) or 'none'}")
    request = SourceRequest(manifold, n, radius, k, region, data_rng, subsample_rng)
    return DRAWS[space, source](request, NOTES[space, source])
