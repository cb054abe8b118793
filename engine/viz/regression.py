"""Figures of private geodesic regression (Kulkarni & Soto): Figure 1 curves, predicted outlines
(Figure 2), fitted and private geodesic arcs on S².

Outlines are rotated onto the non-private prediction at the same covariate value (ordinary Procrustes,
``Kendall.align``), so what differs is the shape.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.manifolds.kendall import Kendall
from engine.manifolds.sphere import Sphere
from engine.viz import palette
from engine.viz.sphere import sphere_figure

#: Colour of the private fits (Okabe–Ito bluish green, as the K-norm gradient curves elsewhere).
PRIVATE_COLOR = "#009E73"
FAMILY_TITLES = {"unequal": ("ε_p (ε_v = 2.02 − ε_p)", "eps_p", "Unequal splits, total ε = 2.02"),
                 "equal": ("total ε (ε_p = ε_v = ε/2)", "eps_total", "Equal splits")}


def figure1_panels(curves: pd.DataFrame) -> dict[str, go.Figure]:
    """ln Ē against ε for each split family, with the non-private ln E as a dotted line.

    Parameters
    ----------
    curves : DataFrame with columns family, eps_p, eps_total, log_mean_energy, log_nonprivate_energy

    Returns
    -------
    dict family -> go.Figure (two traces: private curve, non-private line)
    """
    missing = {"family", "eps_p", "eps_total", "log_mean_energy", "log_nonprivate_energy"} - set(curves.columns)
    if missing:
        raise ValueError(f"curves lacks columns {sorted(missing)}")
    out = {}
    for family, rows in curves.groupby("family", sort=False):
        x_title, column, title = FAMILY_TITLES[family]
        rows = rows.sort_values(column)
        fig = go.Figure(layout=palette.layout(f"Figure 1 — {title}", height=420))
        fig.add_trace(go.Scatter(x=rows[column], y=rows["log_mean_energy"], mode="lines+markers",
                                 name="private (p̃, ṽ)", line=dict(color=PRIVATE_COLOR, width=2.5),
                                 hovertemplate="ε %{x:.3g}<br>ln Ē %{y:.3f}<extra></extra>"))
        level = float(rows["log_nonprivate_energy"].iloc[0])
        fig.add_trace(go.Scatter(x=[rows[column].min(), rows[column].max()], y=[level, level], mode="lines",
                                 name="non-private", line=dict(color=palette.color("non-private"), dash="dot",
                                                               width=2.5), hoverinfo="skip"))
        fig.update_xaxes(title_text=x_title)
        fig.update_yaxes(title_text="ln Ē (log average energy)")
        out[f"figure1-{family}"] = fig
    return out


def outlines_figure(truth, private, labels, *, title: str | None = None, height: int = 380) -> go.Figure:
    """Predicted outlines side by side: non-private and private overlaid in each panel.

    Parameters
    ----------
    truth : array ``(A, k, 2)``
        Non-private predictions at A covariate values.
    private : array ``(A, R, k, 2)``
        R private predictions at each value.
    labels : sequence of A str
        Panel titles (e.g. "age 60").

    Returns
    -------
    go.Figure
        One subplot per value; traces: non-private outline, then the private outlines (one trace per panel).
    """
    truth = np.asarray(truth, dtype=float)
    private = np.asarray(private, dtype=float)
    if (truth.ndim != 3 or private.ndim != 4 or private.shape[0] != truth.shape[0]
            or private.shape[2:] != truth.shape[1:]):
        raise ValueError(f"truth must be (A, k, 2) and private (A, R, k, 2), got {truth.shape} and {private.shape}")
    m = Kendall(truth.shape[1])
    truth = m.projection(truth)
    aligned = m.align(truth[:, None], m.projection(private))
    panels = len(labels)
    traces, axes, titles = [], {}, []
    # Panels laid out by axis domains in one layout (make_subplots plus per-panel updates of the templated
    # layout cost about a second of CPU in plotly for five panels).
    for a in range(panels):
        suffix = str(a + 1) if a else ""
        path = np.concatenate([aligned[a], aligned[a, :, :1], np.full_like(aligned[a, :, :1], np.nan)], axis=1)
        path = path.reshape(-1, 2)
        closed = np.vstack([truth[a], truth[a, :1]])
        traces.append(go.Scatter(x=path[:, 0], y=path[:, 1], mode="lines", name="private", legendgroup="private",
                                 showlegend=a == 0, line=dict(color=PRIVATE_COLOR, width=1.5), hoverinfo="skip",
                                 xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
        traces.append(go.Scatter(x=closed[:, 0], y=closed[:, 1], mode="lines", name="non-private",
                                 legendgroup="non-private", showlegend=a == 0, hoverinfo="skip",
                                 line=dict(color=palette.color("non-private"), width=2.5),
                                 xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
        lo, hi = a / panels + 0.01, (a + 1) / panels - 0.01
        axes[f"xaxis{suffix}"] = dict(visible=False, domain=[lo, hi], anchor=f"y{suffix}")
        axes[f"yaxis{suffix}"] = dict(visible=False, scaleanchor=f"x{suffix}", anchor=f"x{suffix}")
        titles.append(dict(text=str(labels[a]), x=(lo + hi) / 2, y=1.0, xref="paper", yref="paper",
                           xanchor="center", yanchor="bottom", showarrow=False))
    layout = palette.layout(title, height=height)
    layout.update(annotations=titles, **axes)
    return go.Figure(data=traces, layout=layout)


def figure2_outlines(shapes: pd.DataFrame) -> go.Figure:
    """Figure 2 from the tidy table of ``kulkarni-soto-fig2`` (source, release, age, landmark, x, y)."""
    ages = sorted(shapes["age"].unique())
    k = int(shapes["landmark"].max()) + 1

    def block(rows):
        return rows.sort_values(["age", "release", "landmark"])[["x", "y"]].to_numpy().reshape(len(ages), -1, k, 2)

    truth = block(shapes[shapes.source == "non-private"])[:, 0]
    private = block(shapes[shapes.source == "private"])
    return outlines_figure(truth, private, [f"age {a:g}" for a in ages],
                           title="Figure 2 — predicted shapes, non-private and private")


def sphere_regression_figure(*, data, footpoint, velocity, private_footpoints, private_velocities, center, radius,
                             times=(-1.0, 1.0), title: str | None = None) -> go.Figure:
    """S² with the data, the fitted geodesic arc and the private arcs over the covariate range; the scene frames
    all three (``sphere_figure``'s ``hold``), and the private arcs share one legend entry.

    Parameters
    ----------
    data : array ``(n, 3)``
    footpoint, velocity : arrays ``(3,)``: the non-private fit
    private_footpoints, private_velocities : arrays ``(R, 3)``
    center, radius : the data ball drawn on the sphere
    times : (t_min, t_max) covariate range of the arcs
    """
    s2 = Sphere(2)
    grid = np.linspace(float(times[0]), float(times[1]), 60)
    fit = s2.geodesic(np.asarray(footpoint, float), np.asarray(velocity, float), grid)
    private = [s2.geodesic(np.asarray(p, float), np.asarray(v, float), grid)
               for p, v in zip(private_footpoints, private_velocities, strict=True)]
    fig = sphere_figure(data=data, mean=footpoint, releases={}, center=center, radius=radius, title=title,
                        show_cap=False, hold=np.concatenate([np.asarray(data, float).reshape(-1, 3), fit, *private]))
    arcs = [("non-private geodesic", fit, palette.color("non-private"), 7, True)]
    arcs += [("private geodesics", arc, PRIVATE_COLOR, 3, index == 0) for index, arc in enumerate(private)]
    for name, arc, color, width, legend in arcs:
        fig.add_trace(go.Scatter3d(x=arc[:, 0], y=arc[:, 1], z=arc[:, 2], mode="lines", name=name,
                                   legendgroup=name, showlegend=legend, hoverinfo="skip",
                                   line=dict(color=color, width=width)))
    return fig
