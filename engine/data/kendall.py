"""Planar shape data on Kendall's shape space Σ^k_2: template outlines and their noisy copies.

The templates are smooth synthetic closed curves shipped as CSV files in ``assets/shapes/``
(heart, leaf, star, hand; 360 points each, counter-clockwise; the generating formula is in each
file's header). ``shape_template`` resamples an outline to k landmarks equally spaced in arc
length and returns its pre-shape; ``kendall_noisy`` perturbs those landmarks with isotropic
Gaussian noise, the usual model for landmark data (Kendall, Barden, Carne & Le 1999, ch. 6;
Kulkarni & Soto, geodesic regression on Kendall's shape space).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from engine.data._common import batch_shape
from engine.manifolds.kendall import Kendall
from engine.validation import check_finite_array, check_int, check_positive

SHAPES_DIR = Path(__file__).resolve().parents[2] / "assets" / "shapes"
DEFAULT_LANDMARKS = 20


def template_names() -> list[str]:
    """Names of the shipped template outlines (the CSV files in ``assets/shapes/``), sorted."""
    return sorted(p.stem for p in SHAPES_DIR.glob("*.csv"))


def load_outline(name: str) -> np.ndarray:
    """The dense closed outline of a shipped template, shape ``(m, 2)`` (first point not repeated).

    Raises ``ValueError`` quoting ``name`` when no such template ships.
    """
    names = template_names()
    if name not in names:
        raise ValueError(f"unknown shape template {name!r}; available: {', '.join(names)}")
    table = pd.read_csv(SHAPES_DIR / f"{name}.csv", comment="#")
    return table[["x", "y"]].to_numpy(dtype=float)


def resample_closed_curve(points, k) -> np.ndarray:
    """k points equally spaced in arc length along the closed polygon through ``points``.

    Parameters
    ----------
    points : array_like of shape (m, 2)
        Vertices of a closed curve in order (the closing edge from the last vertex back to the
        first is implied), m >= 3.
    k : int
        Number of output landmarks (>= 3). The first landmark is the first vertex.

    Returns
    -------
    ndarray of shape ``(k, 2)``: the points at arc lengths j·L/k, j = 0..k−1, of the polygon of
    total length L (linear interpolation along its edges).
    """
    pts = check_finite_array("points", points)
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] < 3:
        raise ValueError(f"points must have shape (m, 2) with m >= 3, got shape {pts.shape}")
    k = check_int("k", k, minimum=3)
    closed = np.vstack([pts, pts[:1]])
    arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(closed, axis=0), axis=1))])
    if arc[-1] <= 0.0:
        raise ValueError(f"points must not all coincide, got {np.array2string(pts[:3], precision=4)} ...")
    s = arc[-1] * np.arange(k) / k
    return np.stack([np.interp(s, arc, closed[:, 0]), np.interp(s, arc, closed[:, 1])], axis=-1)


def _template_landmarks(template, k) -> np.ndarray:
    """Landmarks ``(k, 2)`` of a template given by name (resampled) or as an array of landmarks."""
    if isinstance(template, str):
        return resample_closed_curve(load_outline(template), DEFAULT_LANDMARKS if k is None else k)
    landmarks = check_finite_array("template", template)
    if landmarks.ndim != 2 or landmarks.shape[1] != 2:
        raise ValueError(f"template must be a name or landmarks of shape (k, 2), got shape {landmarks.shape}")
    if k is not None and check_int("k", k, minimum=3) != landmarks.shape[0]:
        raise ValueError(f"k = {k!r} does not match the {landmarks.shape[0]} landmarks of the template array")
    return landmarks


def shape_template(template="heart", k=None) -> np.ndarray:
    """The pre-shape of a template as a point of ``Kendall(k)``, shape ``(k, 2)``.

    Parameters
    ----------
    template : str or array_like of shape (k, 2)
        A name from ``template_names()`` (its outline is resampled to k landmarks equally spaced
        in arc length) or raw landmark coordinates.
    k : int, optional
        Number of landmarks for a named template (default 20); for an array it must match.

    Returns
    -------
    ndarray of shape ``(k, 2)``: centred, unit Frobenius norm.
    """
    landmarks = _template_landmarks(template, k)
    return Kendall(landmarks.shape[0]).preshape(landmarks)


def kendall_noisy(n, template="heart", *, k=None, std=0.02, size=(), rng=None) -> np.ndarray:
    """Noisy copies of a template shape: X_i = preshape(z + σ E_i), E_i with iid N(0, 1) entries.

    z is the template pre-shape (``shape_template``), so σ is measured in units of a configuration
    of unit size. For small σ only the noise in the 2k − 4 horizontal directions moves the shape,
    so the squared Procrustes distance of a copy to the template is ≈ σ²·χ²_{2k−4} (root mean
    square ≈ σ√(2k − 4)). Exact sampler of this model.

    Parameters
    ----------
    n : int
        Copies per data set (>= 1).
    template : str or array_like of shape (k, 2)
        Template name (see ``template_names()``) or landmarks.
    k : int, optional
        Number of landmarks for a named template (default 20).
    std : float
        Noise standard deviation σ > 0 per landmark coordinate.
    size : int or tuple of int
        Batch shape of independent data sets.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray of shape ``(*size, n, k, 2)`` of pre-shapes (points of ``Kendall(k)``).
    """
    z = shape_template(template, k)
    std = check_positive("std", std)
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    manifold = Kendall(z.shape[0])
    return manifold.preshape(z + std * rng.standard_normal(shape + z.shape))
