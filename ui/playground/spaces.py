"""The playground's choices per space: the spaces, their data sources and default radii come from the
registry (``engine.spaces``), their slider ranges and captions from their views (``ui.spaces``); every
computation is keyed by the pipeline's ``PrivateMeanConfig`` (``engine.pipelines.private_mean``)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import spaces
from engine.mechanisms import specs
from ui.spaces import VIEWS

#: The mechanisms the playground offers (key → chip label, ``engine.mechanisms.specs``; the engine's pipeline runs them).
MECHANISMS = {spec.key: spec.chip for spec in specs.PLAYGROUND}
OUTSIDE = {
    "clip": "Clip onto the boundary",
    "drop": "Drop them (not ε-DP)",
    "keep": "Keep them (bound fails)",
}
DELTAS = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 5e-2)


@dataclass(frozen=True)
class SpaceSpec:
    """Sidebar ranges and choices of one space.

    ``radius`` is (min, max, default, step) of the radius slider (its top is further capped below
    the space's r* by ``ui.limits``); ``sources`` and ``mechanisms`` map URL values to labels, in
    display order. ``mh_thin`` is the default MH thinning.
    """

    radius: tuple[float, float, float, float]
    sources: dict
    default_source: str
    mechanisms: tuple[str, ...]
    default_mechanisms: tuple[str, ...]
    mh_thin: int = 25


def _spec(key: str, low: float, high: float, step: float, mh_thin: int) -> SpaceSpec:
    """The playground's choices on the registry's space ``key`` (``engine.spaces``): its sources (the
    first is the default) and default radius; the Euclidean Laplace only where the space sits in
    ambient coordinates, and by default the exact sampler against the first baseline the space offers
    (the Euclidean Laplace, else the tangent Gaussian)."""
    entry = spaces.space(key)
    offered = [spec for spec in specs.PLAYGROUND if spec.offered_on(entry)]
    intrinsic = next(spec for spec in offered if spec.common_draws)
    baseline = next(spec for spec in offered if spec.baseline)
    return SpaceSpec(radius=(low, high, entry.default_radius, step), sources=entry.sources,
                     default_source=next(iter(entry.sources)), mechanisms=tuple(spec.key for spec in offered),
                     default_mechanisms=(intrinsic.key, baseline.key), mh_thin=mh_thin)


#: The playground's choices per space, in the registry's order (ranges from each space's view).
SPACES = {key: _spec(key, *view.radius_slider, view.mh_thin) for key, view in VIEWS.items()}
#: Caption under each space's figure, and what its geodesic error column measures.
CAPTIONS = {key: view.caption for key, view in VIEWS.items()}
ERROR_NOTES = {key: view.error_note for key, view in VIEWS.items()}
ZOOM_NOTE = ("The view is zoomed on the releases: at this n and ε they spread over less than a sixth of the data "
             "ball, which extends beyond the frame.")
