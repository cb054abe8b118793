"""Releases on S² seen from the true mean: the tangent-plane (azimuthal equidistant) view.

Each release x is drawn at its Riemannian logarithm Log_μ(x) = θ (x − cos θ μ)/sin θ, θ = arccos⟨μ, x⟩,
written in an orthonormal basis (e₁, e₂) of T_μS²: its distance from the origin is the geodesic
error ρ(μ, x) and its angle the direction in which it left μ. A flat SVG chart, so an animation of it
(``add_parameter_frames`` with ``redraw=False``) only moves the markers: no WebGL scene to redraw.

When the mean moves between frames (an animation over the sample size), each frame is seen from its
own mean in the basis carried there from a reference point by parallel transport
(``carried_basis``): a release whose direction is carried the same way keeps its angle in the view.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.manifolds import Sphere
from engine.viz import palette
from engine.viz._common import as_points

_S2 = Sphere(2)


def carried_basis(reference, means) -> np.ndarray:
    """``Sphere(2).tangent_basis(reference)`` parallel-transported to each of ``means``.

    Parameters
    ----------
    reference : array ``(3,)``, a unit vector.
    means : array ``(F, 3)`` of unit vectors, none antipodal to ``reference``.

    Returns
    -------
    ndarray ``(F, 2, 3)``: an orthonormal basis of T_mean S² per mean (the reference's own basis at
    ``reference``).
    """
    reference = _S2.check_points(as_points("reference", reference, (3,), single=True), "reference")
    means = _S2.check_points(as_points("means", means, (3,)), "means")
    basis = _S2.tangent_basis(reference)
    return _S2.parallel_transport(reference, means[:, None], np.broadcast_to(basis, (len(means), 2, 3)))


def tangent_coordinates(mean, points, basis=None) -> np.ndarray:
    """Coordinates ``(..., 2)`` of Log_mean(points) in an orthonormal basis of T_mean S².

    Parameters
    ----------
    mean : array ``(3,)``, a unit vector.
    points : array ``(..., 3)`` of unit vectors, none antipodal to ``mean`` (Log is undefined there).
    basis : array ``(2, 3)``, optional; default ``Sphere(2).tangent_basis(mean)`` (e.g. one row of
        ``carried_basis`` instead).

    Returns
    -------
    ndarray ``(..., 2)``; its norm is the geodesic distance to ``mean``.
    """
    mean = _S2.check_points(as_points("mean", mean, (3,), single=True), "mean")
    points = _S2.check_points(np.asarray(points, dtype=float), "points")
    if np.any(points @ mean <= -1.0 + 1e-12):
        raise ValueError("points must not be antipodal to mean: Log is undefined there")
    if basis is None:
        basis = _S2.tangent_basis(mean)
    basis = as_points("basis", basis, (3,))
    if basis.shape != (2, 3) or not np.allclose(basis @ basis.T, np.eye(2), atol=1e-9) \
            or not np.allclose(basis @ mean, 0.0, atol=1e-9):
        raise ValueError(f"basis must be an orthonormal basis (2, 3) of the tangent plane at mean, got {basis.tolist()}")
    return _S2.log(mean, points) @ basis.T


def tangent_view_figure(*, mean, releases, name: str, key: str, radius: float | None = None,
                        extent: float | None = None, title: str | None = None, height: int = 420) -> go.Figure:
    """Scatter of the releases at Log_mean(x) (geodesic error = distance from the centre).

    Parameters
    ----------
    mean : array ``(3,)``, the true mean (the origin of the view).
    releases : array ``(m, 3)`` of points on S².
    name, key : legend name of the releases and their palette key (colour and symbol).
    radius : optional geodesic radius drawn as a dotted circle (e.g. the public data radius r).
    extent : half-width of both axes in radians; default the largest distance, padded by 10 %.
    title, height : as in ``palette.layout``.

    Returns
    -------
    go.Figure
        Trace 0 is the releases (``customdata`` the geodesic error), trace 1 the true mean, trace 2
        the circle when ``radius`` is given; equal axis scales.
    """
    coords = tangent_coordinates(mean, releases)
    distances = np.linalg.norm(coords, axis=-1)
    if extent is None:
        extent = 1.1 * max(float(distances.max(initial=0.0)), radius or 0.0, 1e-3)
    if not np.isfinite(extent) or extent <= 0:
        raise ValueError(f"extent must be > 0, got {extent}")
    traces = [
        go.Scatter(x=coords[:, 0], y=coords[:, 1], mode="markers", name=name, customdata=distances,
                   marker=dict(size=6, color=palette.color(key), symbol=palette.symbol(key), opacity=0.8,
                               line=palette.outline(key)),
                   hovertemplate="geodesic error %{customdata:.3f}<extra>%{fullData.name}</extra>"),
        go.Scatter(x=[0.0], y=[0.0], mode="markers", name=palette.label("true mean"),
                   marker=dict(size=11, color=palette.color("true mean"), symbol=palette.symbol("true mean")),
                   hovertemplate="true Fréchet mean<extra></extra>"),
    ]
    if radius is not None:
        angle = np.linspace(0.0, 2.0 * np.pi, 121)
        traces.append(go.Scatter(x=radius * np.cos(angle), y=radius * np.sin(angle), mode="lines",
                                 name=f"geodesic distance {radius:.3g} (the data radius r)", hoverinfo="skip",
                                 line=dict(color="#444444", width=1, dash="dot")))
    fig = go.Figure(data=traces, layout=palette.layout(title, height=height))
    axis = dict(range=[-extent, extent], zeroline=False)
    fig.update_layout(xaxis=dict(**axis, title="along e₁ (radians)"),
                      yaxis=dict(**axis, title="along e₂ (radians)", scaleanchor="x", scaleratio=1))
    return fig
