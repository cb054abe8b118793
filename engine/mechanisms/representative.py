"""The public point a mechanism writes its footpoints and releases by, on a space whose points have
several representatives (Kendall pre-shapes up to rotation, Grassmann bases up to O(p)).

A mechanism that adds noise around a footpoint computed in the records' own representatives releases
that representative: rotating one record of a shape data set (the same shape) turns every release by
the same angle. Each mechanism therefore passes its footpoint, chain start and release through
``Manifold.representative(·, reference)`` with a public ``reference``, so the release is a function
of the private statistic (a point of the quotient) and public values alone (DESIGN §4).
"""

from __future__ import annotations

import numpy as np


def public_reference(manifold, reference, ball) -> np.ndarray:
    """``reference`` (one point, checked) when given, else the ball's centre, else ``manifold.origin``."""
    if reference is None:
        return ball[0] if ball else manifold.origin
    point = manifold.check_points(reference, "reference")
    if point.shape != manifold.point_shape:
        raise ValueError(f"reference must be one point of shape {manifold.point_shape}, got shape {point.shape}")
    return point
