"""Figures of the sensitivity study (``engine.pipelines.sensitivity``): simulated moves of the
Fréchet mean under Theorem 2's bound, and the bound's curves against r, κ and n."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.mechanisms import specs
from engine.viz import palette
from engine.viz.curves import band_figure

NEIGHBOUR_COLORS = {"random replacement": "#56B4E9", "adversarial replacement": "#CC79A7"}
CURVE_COLORS = {
    "Theorem 2 bound": palette.color("bound"),
    "flat space (κ ≤ 0)": palette.color("data"),
    "h(r, κ)": "#0072B2",
    "2r": "#E69F00",
    "2r(2 − h)": "#009E73",
    "boundary constant": "#CC79A7",
    "intrinsic Δ (Theorem 2)": palette.color(specs.EXACT.key),
    "ambient Δ_E = 2r_E/n": palette.color(specs.EUCLID.key),
    "one record replaced (measured)": NEIGHBOUR_COLORS["adversarial replacement"],
}
INVALID_FILL = "rgba(213, 94, 0, 0.10)"


def _axis_type(values: np.ndarray, log: bool) -> dict:
    """Linear, or log labelled at powers of ten only when the data span a decade (readable on a projector)."""
    if not log:
        return dict(type="linear")
    positive = values[np.isfinite(values) & (values > 0)]
    decades = np.log10(positive.max() / positive.min()) if positive.size else 0.0
    return dict(type="log", dtick=1 if decades >= 1 else "D2")


def curves_figure(curves: pd.DataFrame, *, x: str, x_title: str, y_title: str, invalid_from: float | None = None,
                  markers: dict[str, float] | None = None, log_x: bool = False, log_y: bool = False,
                  y_max: float | None = None, height: int = 440) -> go.Figure:
    """Lines of ``curves`` (columns ``x``, ``value``, ``curve``; curve names of ``CURVE_COLORS``).

    ``invalid_from`` shades x >= that value ("Theorem 2 does not apply"); ``markers`` draws labelled
    dotted vertical lines (e.g. the current r); ``y_max`` caps a linear y axis (curves leave at the
    top). The Theorem 2 bound is dashed; NaN values leave gaps.
    """
    fig = go.Figure(layout=palette.layout(None, height=height))
    for name, rows in curves.groupby("curve", sort=False):
        dashed = name == "Theorem 2 bound"
        shown = palette.chart_text(name)
        fig.add_scatter(x=rows[x], y=rows["value"], mode="lines", name=shown, connectgaps=False,
                        line=dict(color=CURVE_COLORS[name], width=3, dash="dash" if dashed else "solid"),
                        hovertemplate=f"{x} %{{x:.4g}}<br>%{{y:.4g}}<extra>{shown}</extra>")
    upper = float(curves[x].max())
    if invalid_from is not None and invalid_from < upper:
        fig.add_vrect(x0=invalid_from, x1=upper, fillcolor=INVALID_FILL, line_width=0,
                      annotation_text="Theorem 2 does not apply", annotation_position="top left")
    values = curves["value"].to_numpy(dtype=float)
    values = values[np.isfinite(values) & ((values > 0) if log_y else True)]
    low, high = (float(values.min()), float(min(values.max(), y_max or np.inf))) if values.size else (0.0, 1.0)
    for label, value in (markers or {}).items():
        # A trace rather than a shape: shapes and annotations need log10 coordinates on log axes.
        fig.add_scatter(x=[value, value], y=[low, high], mode="lines+text", text=["", label],
                        textposition="bottom right", showlegend=False, hoverinfo="skip",
                        line=dict(color="#444444", width=1.5, dash="dot"))
    fig.update_xaxes(title_text=x_title, **_axis_type(curves[x].to_numpy(dtype=float), log_x))
    fig.update_yaxes(title_text=y_title, **_axis_type(values, log_y))
    if y_max is not None and not log_y:
        fig.update_yaxes(range=[min(0.0, float(curves["value"].min())), y_max])
    return fig


def empirical_figure(replicates: pd.DataFrame, summary: pd.DataFrame, bound: pd.DataFrame | None, *,
                     log: bool) -> go.Figure:
    """Simulated sensitivities against n: one dot per pair (``replicates``: n, neighbour, sensitivity),
    mean ± 2 SE per neighbour kind (``summary``: n, neighbour, sensitivity, se) and Theorem 2's bound
    dashed (``bound``: n, bound; ``None`` where the theorem does not apply)."""
    return band_figure(summary, x="n", y="sensitivity", se="se", group="neighbour", points=replicates, bound=bound,
                       bound_y="bound", bound_name="Theorem 2 bound", colors=NEIGHBOUR_COLORS, log_x=log, log_y=log,
                       x_title="sample size n", y_title="ρ(x̄, x̄′), distance the mean moves", height=500)
