"""One registry of the spaces the tool offers: URL key → label, factory and the public ball of its
data (centre m0 = ``manifold.origin`` unless a data source says otherwise, default radius).

Pages, studies and the pipelines take their list of spaces from here instead of keeping their own.
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


@dataclass(frozen=True)
class SpaceEntry:
    """One space: ``make(k)`` builds it (``k`` = landmarks, used by Kendall only)."""

    key: str
    label: str
    make: Callable[[int], object]
    default_radius: float


SPACES = {
    "sphere": SpaceEntry("sphere", "Sphere S² (directions)", lambda k: Sphere(2), float(np.pi / 8)),
    "spd": SpaceEntry("spd", "SPD(2) matrices, affine-invariant (covariances)", lambda k: SPD(2), 1.5),
    "hyperbolic": SpaceEntry("hyperbolic", "Hyperbolic plane H² (hierarchies)", lambda k: Hyperbolic(2), 1.0),
    "kendall": SpaceEntry("kendall", "Kendall shape space Σ^k_2 (planar shapes)",
                          lambda k: Kendall(check_int("k", k, minimum=3)), 0.25),
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
