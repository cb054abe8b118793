"""The playground's registry: spaces with their data sources and mechanisms, labels, captions,
the fixed parameters of the data sources, and the ``Settings`` every computation is keyed by."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Fixed parameters of the data sources that have no ball of their own (shown in their labels).
VMF_CONCENTRATION = 50.0
WRAPPED_STD = 0.4
KENDALL_STD = 0.03
TREE = dict(branching=3, height=3, edge_length=0.3)
TEMPLATES = ("heart", "leaf", "star", "hand")
# Releases farther than this from the mean are not drawn on the Poincaré disk: tanh(ρ/2) rounds
# to 1 in double precision beyond ρ ≈ 37, and the rim is unreadable long before.
POINCARE_MAX_DIST = 25.0
# The shapes view draws at most this many private outlines per mechanism (more become a blur).
KENDALL_MAX_OUTLINES = 50

MECHANISMS = {
    "exact": "Riemannian Laplace",
    "mh": "Riemannian MH",
    "euclid": "Euclidean Laplace",
    "gauss": "Tangent Gaussian",
}
SHORT_NAMES = {
    "exact": "Riemannian Laplace",
    "mh": "Riemannian Laplace (MH)",
    "euclid": "Euclidean Laplace",
    "gauss": "Tangent Gaussian",
}
PALETTE_NAMES = {
    "exact": "riemannian laplace",
    "mh": "riemannian laplace (mh)",
    "euclid": "euclidean laplace",
    "gauss": "tangent gaussian",
}
OUTSIDE = {
    "keep": "Keep them (bound fails)",
    "clip": "Clip onto the boundary",
    "drop": "Drop them",
}
DELTAS = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 5e-2)


@dataclass(frozen=True)
class SpaceSpec:
    """Sidebar ranges and choices of one space.

    ``radius`` is (min, max, default, step) of the radius slider (its top is further capped below
    the space's r* by ``ui.limits``); ``sources`` and ``mechanisms`` map URL values to labels, in
    display order. ``mh_thin`` is the default MH thinning: above the chain's autocorrelation time at
    the default settings, so adding MH does not trigger the page's own "correlated" check (about 15
    steps on S², SPD(2) and H², 60–85 on the 12-dimensional shape space of 8 landmarks).
    """

    radius: tuple[float, float, float, float]
    sources: dict
    default_source: str
    mechanisms: tuple[str, ...]
    default_mechanisms: tuple[str, ...]
    mh_thin: int = 25


SPACES = {
    "sphere": SpaceSpec(
        radius=(0.05, 1.5, np.pi / 8, 0.005),
        sources={
            "cap": "Cap sampler (paper)",
            "ball": "Uniform in the ball B_r(m₀)",
            "vmf": f"von Mises–Fisher (κ = {VMF_CONCENTRATION:g})",
            "airports": "US airports (real data)",
        },
        default_source="cap",
        mechanisms=("exact", "mh", "euclid", "gauss"),
        default_mechanisms=("exact", "euclid"),
    ),
    "spd": SpaceSpec(
        radius=(0.5, 3.0, 1.5, 0.05),
        sources={
            "wishart": "Wishart recipe (paper)",
            "china": "china.jpg patches (real)",
            "flower": "flower.jpg patches (real)",
        },
        default_source="wishart",
        mechanisms=("exact", "mh", "euclid", "gauss"),
        default_mechanisms=("exact", "euclid"),
    ),
    "hyperbolic": SpaceSpec(
        radius=(0.1, 3.0, 1.0, 0.05),
        sources={
            "ball": "Uniform in the ball B_r(m₀)",
            "wrapped": f"Wrapped Gaussian (σ = {WRAPPED_STD:g})",
            "tree": "Embedded tree (40 nodes)",
        },
        default_source="ball",
        mechanisms=("exact", "mh", "gauss"),
        default_mechanisms=("exact", "gauss"),
    ),
    "kendall": SpaceSpec(
        radius=(0.02, 0.75, 0.25, 0.01),
        sources={name: f"Noisy copies of the {name}" for name in TEMPLATES},
        default_source="heart",
        mechanisms=("exact", "mh", "gauss"),
        default_mechanisms=("exact", "gauss"),
        mh_thin=100,
    ),
}

SOURCE_NOTES = {
    ("sphere", "cap"): "The paper's recipe (Reimherr et al., supplement §2.1): polar angle uniform on [0, r] "
                       "around the north pole m₀, so points crowd towards the centre.",
    ("sphere", "ball"): "Points uniform (by area) in the geodesic ball B_r(m₀) around the north pole.",
    ("sphere", "vmf"): f"von Mises–Fisher law around the north pole m₀ with concentration {VMF_CONCENTRATION:g}. "
                       "Its support is the whole sphere, so a few points may fall outside B_r(m₀).",
    ("spd", "wishart"): "The paper's recipe: Wishart W(I/2, 2) matrices kept when their affine-invariant "
                        "distance to m₀ = I is below r.",
    ("hyperbolic", "ball"): "Points uniform (by hyperbolic area) in the geodesic ball B_r(m₀) around the origin.",
    ("hyperbolic", "wrapped"): f"Wrapped Gaussian around the origin m₀: Exp of a tangent Gaussian with σ = "
                               f"{WRAPPED_STD:g}. Unbounded, so some points may fall outside B_r(m₀).",
}

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


@dataclass(frozen=True)
class Settings:
    """Everything the computation depends on (hashable, so it can key the cache)."""

    space: str
    source: str
    region: str
    k: int
    n: int
    radius: float
    outside: str
    epsilon: float
    mechanisms: tuple[str, ...]
    delta: float
    burn_in: int
    thin: int
    step: float | None
    releases: int
    seed: int
