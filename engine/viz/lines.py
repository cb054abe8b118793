"""Interactive 3D figure of Gr(3, 1), the lines through the origin of R³ (the real projective plane).

A line span(x) meets the unit sphere in the antipodal pair ±x, so each record and each release is
drawn as its two points on a faint sphere, the true mean as its axis through the origin, and the
data ball B_r(m0) as the two antipodal circles at angle r from ±m0. Hover texts give the angle to
the mean, the Grassmann distance.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.manifolds.grassmann import Grassmann
from engine.validation import check_positive
from engine.viz import palette
from engine.viz._common import as_clouds, as_points, mesh_trace
from engine.viz.sphere import SURFACE_COLOR, ball_boundary, sphere_mesh

_GR31 = Grassmann(3, 1)
#: Half-width of the scene's cube: the unit sphere and a margin.
HALF_WIDTH = 1.15


def _unit(name: str, points) -> np.ndarray:
    """Bases ``(m, 3, 1)`` of lines as unit vectors ``(m, 3)``; ``ValueError`` off Gr(3, 1)."""
    points = as_points(name, points, (3, 1))
    if not np.all(_GR31.belongs(points, atol=1e-6)):
        raise ValueError(f"{name} must be unit vectors (bases of lines of R³), got norms "
                         f"{np.linalg.norm(points[..., 0], axis=-1)[:3]} …")
    return points[..., 0]


def _pairs(name: str, key: str, directions: np.ndarray, mean: np.ndarray, *, size: float,
           opacity: float) -> go.Scatter3d:
    """Markers at ±x for each line x, hover: the angle to the mean line."""
    angle = np.tile(_GR31.dist(mean[None, :, None], directions[..., None]), 2)
    both = np.concatenate([directions, -directions])
    return go.Scatter3d(
        x=both[:, 0], y=both[:, 1], z=both[:, 2], mode="markers", name=name, legendgroup=name,
        customdata=angle, hovertemplate="angle to the true mean %{customdata:.3f}<extra>%{fullData.name}</extra>",
        marker=dict(size=size, color=palette.color(key), symbol=palette.symbol(key), opacity=opacity,
                    line=palette.outline(key)))


def lines_figure(*, data, mean, releases, center, radius: float, title: str | None = None,
                 height: int = 650) -> go.Figure:
    """Lines of R³ of a private Fréchet mean experiment on Gr(3, 1).

    Parameters
    ----------
    data : array_like, shape ``(n, 3, 1)``, or None
        Records: unit bases of lines.
    mean : array_like, shape ``(3, 1)``
        The true Fréchet mean; hover texts give each line's angle to it.
    releases : mapping str -> array_like, shape ``(m, 3, 1)``
        Release clouds keyed by mechanism key (``"exact"``, ``"euclid"``, ...).
    center : array_like, shape ``(3, 1)``
        Centre m0 of the data ball B_r(m0).
    radius : float
        Radius r of the ball, 0 < r < π/2.
    title : str, optional
    height : int
        Figure height in pixels.

    Returns
    -------
    go.Figure
        Traces in order: sphere, the two boundary circles of the data ball, [data], the mean's axis,
        then one trace per release cloud (both points of each line).

    Raises
    ------
    ValueError
        On wrong shapes, bases that are not unit vectors, a radius outside (0, π/2) or a release
        name without a palette entry.
    """
    r = check_positive("radius", radius)
    if not r < np.pi / 2:
        raise ValueError(f"radius must be < π/2 on Gr(3, 1) (its injectivity radius), got {radius!r}")
    center = _unit("center", np.asarray(center, dtype=float)[None])[0]
    mean = _unit("mean", np.asarray(mean, dtype=float)[None])[0]
    clouds = {name: _unit(f"releases[{name!r}]", cloud) for name, cloud in as_clouds(releases, (3, 1)).items()}

    points, triangles = sphere_mesh(32)
    traces = [mesh_trace(points, triangles, name="unit sphere", color=SURFACE_COLOR, opacity=0.25)]
    circle = ball_boundary(center, r)
    both = np.concatenate([circle, np.full((1, 3), np.nan), -circle])
    traces.append(go.Scatter3d(
        x=both[:, 0], y=both[:, 1], z=both[:, 2], mode="lines", hoverinfo="skip",
        name=f"boundary of the data ball, r = {r:.3g}", line=dict(color="#444444", width=4)))
    if data is not None:
        traces.append(_pairs(palette.label("data"), "data", _unit("data", data), mean, size=3, opacity=0.7))
    axis = np.stack([-1.1 * mean, 1.1 * mean])
    traces.append(go.Scatter3d(
        x=axis[:, 0], y=axis[:, 1], z=axis[:, 2], mode="lines+markers", name=palette.label("true mean"),
        hovertemplate="true Fréchet mean<extra></extra>",
        line=dict(color=palette.color("true mean"), width=6),
        marker=dict(size=6, color=palette.color("true mean"), symbol=palette.symbol("true mean"))))
    for name, cloud in clouds.items():
        traces.append(_pairs(palette.label(name), name, cloud, mean, size=3.5, opacity=0.85))

    fig = go.Figure(data=traces, layout=palette.layout(title, scene=True, height=height))
    scene = {f"{c}axis": dict(range=[-HALF_WIDTH, HALF_WIDTH], visible=False) for c in "xyz"}
    eye = 1.6 * (0.35 * center + 0.9 * np.array([1.0, 0.6, 0.4]) / np.linalg.norm([1.0, 0.6, 0.4]))
    fig.update_layout(scene=dict(**scene, aspectmode="cube", camera=dict(eye=dict(zip("xyz", eye.tolist())))))
    return fig
