"""Figures of the Private subspaces page: subspaces of R³ through the origin, and the d-sweep.

``subspace_figure`` draws the data, the true subspace U and private releases Π̂ (points of
Gr(3, k), Singhal & Steinke 2021) as translucent discs with their rims (k = 2) or segments (k = 1)
through the origin; the releases' discs are a tenth smaller so the truth's rim stays visible. ``dimension_sweep_figure`` draws the success rate against n with one colour per method and
one dash per ambient dimension d, so curves that do not move with d lie on top of each other.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.validation import check_int, check_positive
from engine.viz import palette
from engine.viz._common import as_points

TRUTH_COLOR = "#000000"
RELEASE_COLOR = "#0072B2"
OUTLIER_COLOR = "#D55E00"
#: Private releases drawn at most (more would hide each other); the page states how many are shown.
MAX_DRAWN = 8
#: Line dash per ambient dimension in the d-sweep, in increasing d.
DASHES = ("solid", "dash", "dot", "dashdot")


def disc(basis, radius: float, segments: int = 48) -> tuple[np.ndarray, np.ndarray]:
    """Triangle fan of the disc of ``radius`` around 0 in span(basis), basis of shape (3, 2).

    Returns vertices ``(segments + 1, 3)`` (the centre first) and triangles ``(segments, 3)``.
    """
    basis = as_points("basis", basis, (3, 2), single=True)
    radius = check_positive("radius", radius)
    segments = check_int("segments", segments, minimum=3)
    phi = np.linspace(0.0, 2.0 * np.pi, segments, endpoint=False)
    rim = radius * (np.cos(phi)[:, None] * basis[:, 0] + np.sin(phi)[:, None] * basis[:, 1])
    vertices = np.vstack([np.zeros(3), rim])
    index = np.arange(1, segments + 1)
    triangles = np.column_stack([np.zeros(segments, dtype=int), index, np.roll(index, -1)])
    return vertices, triangles


def _subspace_traces(basis, radius: float, *, color: str, opacity: float, width: int, name: str,
                     showlegend: bool) -> list:
    """A translucent disc with its rim (k = 2), or a segment (k = 1), through the origin."""
    if basis.shape[1] == 1:
        ends = radius * np.vstack([-basis[:, 0], basis[:, 0]])
        return [go.Scatter3d(x=ends[:, 0], y=ends[:, 1], z=ends[:, 2], mode="lines", name=name, legendgroup=name,
                             showlegend=showlegend, line=dict(color=color, width=width), hoverinfo="name")]
    vertices, triangles = disc(basis, radius)
    rim = np.vstack([vertices[1:], vertices[1:2]])
    return [go.Mesh3d(x=vertices[:, 0], y=vertices[:, 1], z=vertices[:, 2], i=triangles[:, 0], j=triangles[:, 1],
                      k=triangles[:, 2], color=color, opacity=opacity, name=name, legendgroup=name,
                      showlegend=showlegend, hoverinfo="name", flatshading=True),
            go.Scatter3d(x=rim[:, 0], y=rim[:, 1], z=rim[:, 2], mode="lines", name=name, legendgroup=name,
                         showlegend=False, line=dict(color=color, width=width), hoverinfo="name")]


def distinct_releases(bases, bottom, *, atol: float = 1e-3, limit: int = MAX_DRAWN) -> np.ndarray:
    """Indices of up to ``limit`` non-⊥ releases whose projectors differ pairwise by more than ``atol``
    (operator norm, far below what a figure shows): the exact algorithm's releases, one subspace up to
    its public rounding grid, are drawn once."""
    kept: list[int] = []
    for index in np.flatnonzero(~np.asarray(bottom, dtype=bool)):
        projector = bases[index] @ bases[index].T
        if all(np.linalg.norm(projector - bases[j] @ bases[j].T, 2) > atol for j in kept):
            kept.append(int(index))
            if len(kept) == limit:
                break
    return np.array(kept, dtype=int)


def subspace_figure(data, outlier, truth, bases, bottom, *, title: str = "") -> go.Figure:
    """Points of R³, the true subspace and up to ``MAX_DRAWN`` distinct private releases.

    Parameters
    ----------
    data : (n, 3) points; ``outlier`` (n,) bool marks the points off U.
    truth : (3, k) orthonormal basis of U, k ∈ {1, 2}.
    bases : (m, 3, k) private bases (NaN rows where ⊥); ``bottom`` (m,) bool.
    """
    data = as_points("data", data, (3,))
    outlier = np.asarray(outlier, dtype=bool)
    if outlier.shape != (len(data),):
        raise ValueError(f"outlier must have shape ({len(data)},), got shape {outlier.shape}")
    truth = np.asarray(truth, dtype=float)
    if truth.ndim != 2 or truth.shape[0] != 3 or truth.shape[1] not in (1, 2):
        raise ValueError(f"truth must have shape (3, 1) or (3, 2), got shape {truth.shape}")
    bottom = np.asarray(bottom, dtype=bool)
    bases = np.asarray(bases, dtype=float)
    if bases.shape != bottom.shape + truth.shape:
        raise ValueError(f"bases must have shape {bottom.shape + truth.shape}, got shape {bases.shape}")
    norms = np.linalg.norm(data, axis=1)
    radius = float(np.quantile(norms, 0.95)) if len(data) else 1.0
    radius = radius if radius > 0 else 1.0
    fig = go.Figure()
    for mask, name, color, size in ((~outlier, "data", palette.color("data"), 3),
                                    (outlier, "outliers", OUTLIER_COLOR, 5)):
        if mask.any():
            pts = data[mask]
            fig.add_trace(go.Scatter3d(x=pts[:, 0], y=pts[:, 1], z=pts[:, 2], mode="markers", name=name,
                                       marker=dict(size=size, color=color, opacity=0.8)))
    fig.add_traces(_subspace_traces(truth, radius, color=TRUTH_COLOR, opacity=0.12, width=8, name="true subspace U (not private)",
                                    showlegend=True))
    for i, index in enumerate(distinct_releases(bases, bottom)):
        fig.add_traces(_subspace_traces(bases[index], 0.9 * radius, color=RELEASE_COLOR, opacity=0.2, width=4,
                                        name="private releases", showlegend=i == 0))
    limit = 1.05 * float(np.abs(data).max()) if len(data) else 1.0
    axis = dict(range=[-limit, limit], zeroline=False, showbackground=False, exponentformat="power")
    fig.update_layout(title=title, scene=dict(xaxis=axis, yaxis=axis, zaxis=axis, aspectmode="cube"),
                      legend=dict(orientation="h", y=-0.02), margin=dict(l=0, r=0, t=50 if title else 10, b=0),
                      height=560)
    return fig


def private_subspace_figure(result) -> go.Figure:
    """``subspace_figure`` of a ``PrivateSubspaceResult`` (``engine.pipelines.private_subspace``), titled by
    its true subspace's shape (the Private subspaces page and its notebook draw it alike)."""
    shape = "plane" if result.truth.shape[1] == 2 else "line"
    return subspace_figure(result.data, result.outlier, result.truth, result.bases, result.bottom,
                           title=f"Points near a {shape} in R³: the true subspace and private releases")


def dimension_sweep_figure(summary: pd.DataFrame, *, colors: Mapping[str, str], labels: Mapping[str, str],
                           title: str = "") -> go.Figure:
    """Success rate against n, one colour per method and one dash per d.

    ``summary`` has columns d, n, method, success (as ``engine.experiments.singhal_steinke.summarize``
    returns); ``colors`` and ``labels`` map each method to its colour and legend label.
    """
    for column in ("d", "n", "method", "success"):
        if column not in summary.columns:
            raise ValueError(f"summary has no column {column!r}; columns are {list(summary.columns)}")
    dims = sorted(summary["d"].unique())
    if len(dims) > len(DASHES):
        raise ValueError(f"at most {len(DASHES)} dimensions can be told apart by dash, got {len(dims)}")
    fig = go.Figure()
    for method, rows in summary.groupby("method", sort=False):
        if method not in colors or method not in labels:
            raise ValueError(f"method {method!r} has no colour or label; pass it in colors and labels")
        for dash, d in zip(DASHES, dims):
            cell = rows[rows["d"] == d].sort_values("n")
            fig.add_trace(go.Scatter(x=cell["n"], y=cell["success"], mode="lines+markers",
                                     name=f"{labels[method]}, d = {d}", legendgroup=method,
                                     line=dict(color=colors[method], dash=dash, width=3),
                                     marker=dict(size=8, color=colors[method])))
    fig.update_layout(title=title, xaxis=dict(title=dict(text="sample size n"), type="log", exponentformat="power"),
                      yaxis=dict(title=dict(text="P(success)"), range=[-0.03, 1.03], exponentformat="power"),
                      height=460,
                      legend=dict(font=dict(size=13)))
    return fig
