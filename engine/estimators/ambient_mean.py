"""The ambient (extrinsic, arithmetic) mean: the statistic the Euclidean Laplace baseline releases."""

from __future__ import annotations

import numpy as np


def ambient_centre(manifold, points, reference=None) -> np.ndarray:
    """The mean of to_ambient(x_i) in the ambient coordinates, shape ``(..., D)`` for ``points``
    ``(..., n, *point_shape)``: the statistic whose sensitivity 2 r_E / n calibrates the Euclidean
    Laplace (``EuclideanLaplace.release_centre``). Each x_i is first taken as
    ``manifold.representative(x_i, reference)`` (Kendall shapes: its pre-shape rotated onto the
    public ``reference`` m0, which they need)."""
    pts = np.asarray(points, dtype=float)
    if pts.ndim < manifold.point_ndim + 1:
        raise ValueError(f"points must have shape (..., n, *{manifold.point_shape}), got {pts.shape}")
    return manifold.to_ambient(manifold.representative(pts, reference)).mean(axis=-2)


def ambient_mean(manifold, points, reference=None) -> np.ndarray:
    """from_ambient(``ambient_centre``): shape ``(..., *point_shape)`` for ``points``
    ``(..., n, *point_shape)``; generally off the manifold (inside the sphere, a convex combination on SPD),
    and on Gr(n, p) rounded to the nearest subspace (the mean projector is no projector, and a basis
    cannot hold it), so noise for the ambient mean's sensitivity goes around ``ambient_centre``.

    Its sensitivity is what ``engine.bounds.ambient_sensitivity`` states: for records whose ambient
    coordinates lie in a ball of radius r_E, replacing one moves the mean by at most 2 r_E / n in the
    ℓ2 norm. The Fréchet mean has another (larger) ambient sensitivity, e.g. up to r e^r/(e^r − 1)
    times 2 r_E / n on SPD(2) affine-invariant (Reimherr et al. 2021, supplement §1.2, and issue 19).
    """
    return manifold.from_ambient(ambient_centre(manifold, points, reference))
