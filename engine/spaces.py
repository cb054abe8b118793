"""One registry of the spaces the tool offers: URL key → labels, factory, data sources and the public
ball of its data (centre m0 = ``manifold.origin`` unless a data source says otherwise, default radius).

Pages, studies and the pipelines take their list of spaces from here instead of keeping their own;
the order of ``SPACES`` is the order the pages offer them in. The data sources are drawn by
``engine.pipelines.sources``; their fixed parameters are here because their labels show them.
The default radii are the papers' settings where one exists (Reimherr, Bharath & Soto 2021, §5:
r = π/8 on the sphere, r = 1.5 on SPD(2)).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from engine.manifolds import SPD, Hyperbolic, Kendall, Sphere
from engine.validation import check_int

#: Landmarks of the planar shapes unless the caller chooses.
DEFAULT_LANDMARKS = 12

# Fixed parameters of the data sources that have no ball of their own (shown in their labels).
VMF_CONCENTRATION = 50.0
WRAPPED_STD = 0.4
KENDALL_STD = 0.03
TREE = dict(branching=3, height=3, edge_length=0.3)
TEMPLATES = ("heart", "leaf", "star", "hand")


@dataclass(frozen=True)
class SpaceEntry:
    """One space.

    ``make(k)`` builds it (``k`` = landmarks, used by Kendall only); ``label`` names it with what it
    models, ``short_label`` fits a narrow sidebar select; ``sources`` maps the data sources' URL
    values to labels in display order, the first being the default. ``ambient_radius_tex`` is the
    formula of ``Manifold.ambient_ball_radius`` in TeX with ``{r}`` for the radius (``None`` where
    the space states no ambient ball). ``landmarks`` says its points are configurations of k
    landmarks, the ``k`` that ``make`` reads.
    """

    key: str
    label: str
    short_label: str
    make: Callable[[int], object]
    default_radius: float
    sources: dict[str, str]
    ambient_radius_tex: str | None = None
    landmarks: bool = False

    def ambient_radius_formula(self, r: str = "r") -> str:
        """r_E in TeX with ``r`` (a symbol or a number's text) for the radius, e.g. ``2\\sin(r/2)``."""
        if self.ambient_radius_tex is None:
            raise ValueError(f"space {self.key!r} states no ambient ball, so it has no ambient radius formula")
        return self.ambient_radius_tex.format(r=r)

    @property
    def embedded_in_ambient(self) -> bool:
        """Its ``to_ambient`` coordinates hold every geodesic ball in an ambient ball
        (``Manifold.ambient_ball_radius``): ambient distances mean something there, and the Euclidean
        Laplace baseline, which needs that ball, can be calibrated."""
        return self.make(DEFAULT_LANDMARKS).ambient_ball_radius(self.default_radius) is not None


SPACES = {
    "sphere": SpaceEntry(
        "sphere", "Sphere S² (directions)", "Sphere S²", lambda k: Sphere(2), float(np.pi / 8),
        {"cap": "Cap sampler (paper)", "ball": "Uniform in the ball B_r(m₀)",
         "vmf": f"von Mises–Fisher (κ = {VMF_CONCENTRATION:g})", "airports": "US airports (real data)"},
        r"2\sin({r}/2)"),
    "spd": SpaceEntry(
        "spd", "SPD(2) matrices, affine-invariant (covariances)", "SPD(2), affine", lambda k: SPD(2), 1.5,
        {"wishart": "Wishart recipe (paper)", "china": "china.jpg patches (real)",
         "flower": "flower.jpg patches (real)"},
        "e^{{{r}}} - 1"),
    "hyperbolic": SpaceEntry(
        "hyperbolic", "Hyperbolic plane H² (hierarchies)", "Hyperbolic plane H²", lambda k: Hyperbolic(2), 1.0,
        {"ball": "Uniform in the ball B_r(m₀)", "wrapped": f"Wrapped Gaussian (σ = {WRAPPED_STD:g})",
         "tree": "Embedded tree (40 nodes)"}),
    "kendall": SpaceEntry(
        "kendall", "Kendall shape space Σ^k_2 (planar shapes)", "Kendall planar shapes",
        lambda k: Kendall(check_int("k", k, minimum=3)), 0.25,
        {name: f"Noisy copies of the {name}" for name in TEMPLATES}, landmarks=True),
}


def space(key: str) -> SpaceEntry:
    """The registry entry of ``key``; ``ValueError`` naming the known keys otherwise."""
    try:
        return SPACES[key]
    except (KeyError, TypeError):
        raise ValueError(f"space must be one of {', '.join(SPACES)}, got {key!r}") from None


def make_manifold(key: str, k: int = DEFAULT_LANDMARKS):
    """The engine's manifold of the space ``key`` (``k`` landmarks for Kendall)."""
    return space(key).make(k)


#: The spaces whose Laplace samplers the sampler study and the Samplers page compare (Kendall with 5
#: landmarks), by key.
SAMPLER_SPACES = {key: make_manifold(key, k=5) for key in ("sphere", "hyperbolic", "kendall", "spd")}
