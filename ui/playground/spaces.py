"""The playground's sidebar ranges per space, labels and captions; the spaces, their data sources and
default radii come from the registry (``engine.spaces``), the mechanisms and the ``Settings`` every
computation is keyed by from ``engine.pipelines``."""

from __future__ import annotations

from dataclasses import dataclass

from engine import pipelines, spaces
from engine.viz.private_mean import KENDALL_MAX_OUTLINES

#: The mechanisms the playground offers (key → chip label; the engine's pipeline runs them).
MECHANISMS = {
    "exact": "Riemannian Laplace",
    "mh": "Riemannian MH",
    "euclid": "Euclidean Laplace",
    "gauss": "Tangent Gaussian",
}
OUTSIDE = {
    "clip": "Clip onto the boundary",
    "drop": "Drop them",
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
    ambient coordinates, and by default the exact sampler against the baseline the space has (the
    Euclidean Laplace, else the tangent Gaussian)."""
    entry = spaces.space(key)
    baseline = "euclid" if entry.embedded_in_ambient else "gauss"
    return SpaceSpec(radius=(low, high, entry.default_radius, step), sources=entry.sources,
                     default_source=next(iter(entry.sources)),
                     mechanisms=tuple(m for m in MECHANISMS if m != "euclid" or entry.embedded_in_ambient),
                     default_mechanisms=("exact", baseline), mh_thin=mh_thin)


#: Radius slider (min, max, step) and default MH thinning of every space of the registry. The
#: thinning is just above the chain's autocorrelation time at the default settings, so adding MH does
#: not trigger the page's own "correlated" check (about 15 steps on S², SPD(2) and H², 60–85 on the
#: 12-dimensional shape space of 8 landmarks).
RANGES = {
    "sphere": (0.05, 1.5, 0.005, 25),
    "spd": (0.5, 3.0, 0.05, 25),
    "hyperbolic": (0.1, 3.0, 0.05, 25),
    "kendall": (0.02, 0.75, 0.01, 100),
}
#: The playground's choices per space, in the registry's order.
SPACES = {key: _spec(key, *RANGES[key]) for key in spaces.SPACES}

CAPTIONS = {
    "sphere": "Seen from the side: Riemannian releases stay on the sphere around the true mean (black diamond), while "
              "Euclidean ones float above and below it (faint orange segments join each to the sphere). Drag to "
              "rotate.",
    "spd": "Each matrix [[a, b], [b, c]] is the point (a, √2·b, c) and only points inside the cone are positive "
           "definite: open diamonds are Euclidean releases that are not valid covariance matrices.",
    "hyperbolic": "Dotted geodesic circles of radius 0.5, 1 and 2 surround the true mean: the same hyperbolic "
                  "distance looks shorter towards the rim.",
    "kendall": f"The thick black outline is the true mean shape and each thin outline one private mean shape rotated "
               f"onto it (at most {KENDALL_MAX_OUTLINES} per mechanism): look at how much the landmarks wobble.",
}

#: What the geodesic error column measures on each space (caption under the error table).
ERROR_NOTES = {
    "sphere": "Euclidean releases are projected back onto the sphere before measuring it.",
    "spd": "Euclidean releases count only when positive definite: the others have no geodesic distance.",
    "hyperbolic": "Every mechanism here releases a point of H², so none is projected.",
    "kendall": "Every mechanism here releases a shape, so none is projected.",
}
ZOOM_NOTE = ("The view is zoomed on the releases: at this n and ε they spread over less than a sixth of the data "
             "ball, which extends beyond the frame.")

#: Everything the computation depends on (hashable, so it can key the cache): the engine's config.
Settings = pipelines.PrivateMeanConfig
