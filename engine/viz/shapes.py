"""Kendall planar shapes: the mean shape as a closed landmark outline, private means overlaid.

A shape is a pre-shape modulo rotation, so two outlines are only comparable after rotating one
onto the other. Every overlay (private mean shapes, optional data shapes) is therefore moved onto
the true mean by ordinary Procrustes, ``Kendall.align`` (rotation only, never a reflection); what
remains visible is the shape difference the privacy noise made.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.manifolds.kendall import Kendall
from engine.viz import palette
from engine.viz._common import as_clouds, as_points

DATA_COLOR = "#C8C8C8"


def closed_outline(shape: np.ndarray) -> np.ndarray:
    """Landmarks ``(k, 2)`` -> closed polyline ``(k + 1, 2)`` (first landmark repeated)."""
    return np.vstack([shape, shape[:1]])


def _outlines(shapes: np.ndarray) -> np.ndarray:
    """Many closed outlines ``(m, k, 2)`` in one polyline ``(m (k + 2), 2)`` with NaN breaks."""
    closed = np.concatenate([shapes, shapes[:, :1], np.full_like(shapes[:, :1], np.nan)], axis=1)
    return closed.reshape(-1, 2)


def _overlay(points: np.ndarray, *, name: str, color: str, width: float, legendgroup: str,
             dash: str = "solid") -> go.Scatter:
    path = _outlines(points)
    return go.Scatter(x=path[:, 0], y=path[:, 1], mode="lines", name=name, legendgroup=legendgroup,
                      hoverinfo="skip", line=dict(color=color, width=width, dash=dash))


def shapes_figure(*, mean, releases, data=None, title: str | None = None,
                  release_opacity: float = 0.35, height: int = 600) -> go.Figure:
    """Mean shape with Procrustes-aligned private mean shapes (and data shapes) overlaid.

    Parameters
    ----------
    mean : array_like, shape ``(k, 2)``
        The true mean shape (a pre-shape or any configuration of k >= 3 planar landmarks).
    releases : mapping str -> array_like, shape ``(m, k, 2)``
        Private mean shapes keyed by palette name; drawn as thin translucent outlines.
    data : array_like, shape ``(n, k, 2)``, optional
        Data shapes, drawn underneath in light grey.
    title : str, optional
    release_opacity : float
        Opacity of the release outlines, in (0, 1].
    height : int

    Returns
    -------
    go.Figure
        Traces in order: [data outlines], one trace of outlines per release cloud, the mean
        outline (lines + numbered landmark markers, on top). All configurations are converted to
        pre-shapes (centred, unit size) and every overlay is rotated onto the mean by
        ``Kendall(k).align``. Axes have equal scale.

    Raises
    ------
    ValueError
        On wrong shapes, coincident landmarks, an opacity outside (0, 1] or a release name
        without a palette entry.
    """
    mean = np.asarray(mean, dtype=float)
    if mean.ndim != 2 or mean.shape[1] != 2 or mean.shape[0] < 3:
        raise ValueError(f"mean must have shape (k, 2) with k >= 3, got shape {mean.shape}")
    k = mean.shape[0]
    space = Kendall(k)
    mean = space.preshape(mean)
    clouds = as_clouds(releases, (k, 2))
    if not 0.0 < float(release_opacity) <= 1.0:
        raise ValueError(f"release_opacity must lie in (0, 1], got {release_opacity!r}")

    traces = []
    if data is not None:
        shapes = space.align(mean, space.preshape(as_points("data", data, (k, 2))))
        traces.append(_overlay(shapes, name="data shapes", color=DATA_COLOR, width=1,
                               legendgroup="data"))
    for name, cloud in clouds.items():
        aligned = space.align(mean, space.preshape(cloud))
        traces.append(_overlay(aligned, name=palette.label(name), legendgroup=name, width=1.2,
                               color=palette.rgba(palette.color(name), release_opacity), dash=palette.dash(name)))

    outline = closed_outline(mean)
    numbers = np.append(np.arange(1, k + 1), 1)
    traces.append(go.Scatter(
        x=outline[:, 0], y=outline[:, 1], mode="lines+markers", name="true mean shape (not private)",
        customdata=numbers, hovertemplate="landmark %{customdata}<extra>true mean shape (not private)</extra>",
        line=dict(color=palette.color("true mean"), width=3),
        marker=dict(size=10, color=palette.color("true mean"), symbol=palette.symbol("true mean")),
    ))

    fig = go.Figure(data=traces, layout=palette.layout(title, height=height))
    fig.update_layout(
        xaxis=dict(visible=False, constrain="domain"),
        yaxis=dict(visible=False, scaleanchor="x", scaleratio=1, constrain="domain"),
    )
    return fig
