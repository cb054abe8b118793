"""One registry of the spaces the tool offers: one module per space, one entry each.

Each module (``sphere``, ``spd``, ``hyperbolic``, ``kendall``, …) defines one ``SpaceEntry`` carrying
everything the engine keeps about the space: its factory, labels, data sources with their notes,
public ball (centre m0 = ``manifold.origin`` unless a data source says otherwise, default radius),
the paper's recipe, the ambient radius of the Euclidean baseline, the audit's and the sampler
comparison's settings; what a space lacks is ``NotOffered`` with the reason. ``registry.SPACES``
lists them in the order the pages offer them; pages, studies and pipelines read their spaces from
here instead of keeping their own tables.
"""

from engine.spaces.entry import (
    DEFAULT_LANDMARKS,
    AuditSetting,
    NotOffered,
    PaperRecipe,
    SamplerSetting,
    SpaceEntry,
    offered,
)
from engine.spaces.family import DimensionFamily, power_name
from engine.spaces.registry import SAMPLER_SPACES, SPACES, make_manifold, space
from engine.spaces.source import DataSource, Sample, SourceRequest, remap_edges

__all__ = [
    "DEFAULT_LANDMARKS",
    "SAMPLER_SPACES",
    "SPACES",
    "AuditSetting",
    "DataSource",
    "DimensionFamily",
    "NotOffered",
    "PaperRecipe",
    "Sample",
    "SamplerSetting",
    "SourceRequest",
    "SpaceEntry",
    "make_manifold",
    "offered",
    "power_name",
    "remap_edges",
    "space",
]
