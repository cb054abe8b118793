"""Figures of the utility study (``engine.pipelines.utility``): error of the private means against
n and ε with their reference curves, the share of Euclidean releases off the manifold, and the
1/(nε) scaling behind the budget planner."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.mechanisms import specs
from engine.viz import palette
from engine.viz.curves import band_figure

BOUND_NAME = "Theorem 3: √(bound on E ρ²)"


def error_figure(summary: pd.DataFrame, *, x: str, x_title: str, bounds: pd.DataFrame, log: bool) -> go.Figure:
    """Mean error ± 2 SE per mechanism against ``x`` ("n" or "epsilon"; ``summary`` in the columns of
    ``utility.release_summary``), √ of Theorem 3's bound dashed and the exact Euclidean mean error Dσ_E
    dotted (``bounds``: columns ``x``, bound, euclid, from ``utility.error_bounds``)."""
    fig = band_figure(summary, x=x, y="mean_error", se="se", group="mechanism", bound=bounds[[x, "bound"]],
                      bound_y="bound", bound_name=BOUND_NAME, log_x=log, log_y=log, x_title=x_title,
                      y_title="error ‖x̃ − x̄‖ (ambient)", height=500)
    fig.add_scatter(x=bounds[x], y=bounds[specs.EUCLID.key], mode="lines",
                    name=palette.chart_text("Euclidean noise alone: E‖noise‖ = Dσ_E"),
                    line=dict(color=palette.color(specs.EUCLID.key), width=2, dash="dot"),
                    hovertemplate=f"{x} %{{x:.4g}}<br>{palette.chart_text('Dσ_E')} %{{y:.4g}}<extra></extra>")
    return fig


def share_figure(summary: pd.DataFrame, *, log: bool) -> go.Figure:
    """Share of Euclidean releases off the manifold (not positive definite on SPD) against n, ± 2 SE."""
    rows = summary[summary["mechanism"] == specs.EUCLID.key]
    fig = band_figure(rows, x="n", y="share_off_manifold", se="share_se", group="mechanism", log_x=log,
                      x_title="sample size n", y_title="share of releases not positive definite", height=420)
    fig.update_yaxes(range=[0, 1], tickformat=".0%")
    return fig


def scaling_figure(points: pd.DataFrame, fits: pd.DataFrame) -> go.Figure:
    """n·ε·error against n·ε (flat when error ∝ 1/(nε)), with the fitted constant c of each mechanism
    dotted (``fits``: columns mechanism, c, from ``utility.fit_scaling``)."""
    n_eps = points["n"] * points["epsilon"]
    scaled = points.assign(n_eps=n_eps, scaled=points["mean_error"] * n_eps, scaled_se=points["se"] * n_eps)
    scaled = scaled.groupby(["mechanism", "n_eps"], sort=False, as_index=False)[["scaled", "scaled_se"]].mean()
    fig = band_figure(scaled, x="n_eps", y="scaled", se="scaled_se", group="mechanism", log_x=True,
                      x_title="n · ε", y_title="n · ε · error", height=440)
    for row in fits.itertuples():
        fig.add_hline(y=row.c, line=dict(color=palette.color(row.mechanism), width=1.5, dash="dot"),
                      annotation_text=f"c = {row.c:.3g}", annotation_position="top left")
    return fig
