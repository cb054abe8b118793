"""The sphere comparison's figure (``engine.experiments.gauss_vs_laplace``): the Riemannian Gaussian's and the
Riemannian Laplace's mean error at equal μ-GDP against n, one line per (mechanism, d), both axes logarithmic
(pure plotly builder, no Streamlit)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.spaces.family import power_name
from engine.viz import palette

#: Sᵈ as the study writes it (S¹, S⁹).
sphere_name = power_name("S")

#: Line dash per dimension d of Sᵈ, in the order the study lists them (the mechanism is the colour).
DIMENSION_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def gauss_vs_laplace_figure(errors: pd.DataFrame) -> go.Figure:
    """Mean error ρ(release, Fréchet mean) ± 1.96 SE against n.

    Parameters
    ----------
    errors : the study's ``errors`` table: columns d, n, mechanism (a label of ``engine.mechanisms.specs``),
        mean_error, error_se.
    """
    dims = list(dict.fromkeys(errors["d"]))
    fig = go.Figure()
    for (mechanism, d), rows in errors.groupby(["mechanism", "d"], sort=False):
        fig.add_trace(go.Scatter(
            x=rows["n"], y=rows["mean_error"], mode="lines+markers", name=f"{mechanism}, {sphere_name(d)}",
            error_y=dict(type="data", array=1.96 * rows["error_se"]),
            line=dict(color=palette.color(mechanism), dash=DIMENSION_DASHES[dims.index(d) % len(DIMENSION_DASHES)]),
            marker=dict(symbol=palette.symbol(mechanism)),
            hovertemplate=f"{mechanism} on {sphere_name(d)}<br>n %{{x}}<br>mean error %{{y:.4g}}<extra></extra>"))
    fig.update_layout(template=palette.TEMPLATE, title="Error ρ(release, Fréchet mean) at equal μ-GDP on Sᵈ",
                      xaxis_title="sample size n", yaxis_title="mean geodesic error", xaxis_type="log",
                      yaxis_type="log", height=460, legend=dict(orientation="h", y=-0.2))
    return fig


def plan_figure(dims, ns) -> go.Figure:
    """The cells a run of the study computes, before it has run: one marker per (n, d), both mechanisms' σ solved
    there at the common μ (``dims`` the d of Sᵈ, ``ns`` the sample sizes)."""
    cells = [(n, sphere_name(d)) for d in dims for n in ns]
    fig = go.Figure(go.Scatter(
        x=[n for n, _ in cells], y=[name for _, name in cells], mode="markers", name="cell to compute",
        marker=dict(symbol="circle-open", size=11, color=palette.color("data")),
        hovertemplate="n %{x} on %{y}<extra></extra>"))
    fig.update_layout(template=palette.TEMPLATE, title=f"What a run computes: {len(cells)} cells, two μ solves each",
                      xaxis_title="sample size n", yaxis_title="sphere", xaxis_type="log", height=320,
                      showlegend=False)
    return fig
