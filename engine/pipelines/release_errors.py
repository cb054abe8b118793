"""How far private releases land from the true mean: one measure for every page that compares mechanisms.

A release off a space of lower dimension than its ambient coordinates (the sphere) is projected onto
it first, as anyone using it would (post-processing costs no privacy); a release outside a space open
in them (the SPD cone: not positive definite) has no nearest point, so no geodesic error, and is left
out of the mean (``Manifold.open_in_ambient``). The ambient error is the straight-line distance in
ambient coordinates, without projecting (the metric of Figure 1 of Reimherr, Bharath & Soto 2021), to
the mean's representative nearest the release (``Manifold.representative``: the mean's pre-shape
rotated onto it on Kendall shapes), where the space states an ambient ball, else NaN. An error float64 cannot compute (a
non-finite release, or one whose projection or distance overflows) makes the mean NaN, never a number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.mechanisms import off_manifold


@dataclass(frozen=True)
class ReleaseErrors:
    """Mean geodesic error and its standard error (over the releases that have one), mean ambient
    error, the share of releases off the space and the number of releases whose error float64 cannot
    compute; NaN where undefined."""

    geodesic: float
    geodesic_se: float
    ambient: float
    off_share: float
    uncomputable: int = 0


@dataclass(frozen=True)
class ReleaseDistances:
    """Per release (shape ``(*batch,)``): its geodesic error (NaN where it has none: left out or not
    computable), whether it is measured, off the space, not computable, and its ambient error (NaN
    without an ambient ball)."""

    geodesic: np.ndarray
    measured: np.ndarray
    off: np.ndarray
    uncomputable: np.ndarray
    ambient: np.ndarray


def release_distances(manifold, mean, releases) -> ReleaseDistances:
    """``ReleaseDistances`` of ``releases`` ``(*batch, *point_shape)`` against ``mean`` (one point, or
    one per release), for callers that group the releases themselves (see the module docstring for
    what is projected and what is left out)."""
    releases = np.asarray(releases, dtype=float)
    mean = np.broadcast_to(np.asarray(mean, dtype=float), releases.shape)
    off = off_manifold(manifold, releases)
    axes = tuple(range(-manifold.point_ndim, 0))
    with np.errstate(all="ignore"):
        if manifold.open_in_ambient:
            points, measured = releases, ~off
            uncomputable = ~np.isfinite(releases).all(axis=axes)
        else:
            points = np.where(manifold.per_point(off), manifold.projection(releases), releases)
            measured = np.isfinite(points).all(axis=axes) & np.asarray(manifold.belongs(points, atol=1e-6))
            uncomputable = ~measured
        geodesic = np.full(off.shape, np.nan)
        if measured.any():
            geodesic[measured] = manifold.dist(mean[measured], points[measured])
        ambient = np.full(off.shape, np.nan)
        # Ambient coordinates with a meaning of their own; a non-finite release leaves them all NaN.
        if np.isfinite(releases).all() and manifold.ambient_ball_radius(1.0) is not None:
            nearest = manifold.representative(mean, releases)
            ambient = np.linalg.norm(manifold.to_ambient(releases) - manifold.to_ambient(nearest), axis=-1)
    return ReleaseDistances(geodesic=geodesic, measured=measured, off=off, uncomputable=uncomputable, ambient=ambient)


def measure_releases(manifold, mean, releases) -> ReleaseErrors:
    """Errors of ``releases`` ``(m, *point_shape)`` against ``mean`` (one point, or one per release).

    Returns ``ReleaseErrors`` (see the module docstring for what is projected and what is left out).
    """
    found = release_distances(manifold, mean, releases)
    geodesic = found.geodesic[found.measured]
    with np.errstate(all="ignore"):
        ambient = float(found.ambient.mean())
    count = geodesic.size
    computed = count and not found.uncomputable.any() and np.isfinite(geodesic).all()
    return ReleaseErrors(
        geodesic=float(geodesic.mean()) if computed else float("nan"),
        geodesic_se=float(geodesic.std(ddof=1) / np.sqrt(count)) if computed and count > 1 else float("nan"),
        ambient=ambient if np.isfinite(ambient) else float("nan"), off_share=float(found.off.mean()),
        uncomputable=int(found.uncomputable.sum()))
