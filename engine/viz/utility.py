"""Figures of the utility study (``engine.pipelines.utility``): error of the private means against
n and ε with their reference curves, the noise reduction per n, the share of Euclidean releases off the
manifold, and the 1/(nε) scaling behind the budget planner."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.mechanisms import specs
from engine.viz import palette
from engine.viz.curves import axis_layout, band_figure

BOUND_NAME = "Theorem 3: √(bound on E ρ²)"
#: The column of ``utility.reduction_table`` that ``reduction_figure`` draws.
REDUCTION = "noise reduction (%)"
#: What the sign of the reduction says, written above and below its zero line.
ABOVE_ZERO, BELOW_ZERO = "↑ intrinsic release closer", "↓ Euclidean release closer"
#: Behind those words: the line of the reduction may pass under them.
WORDS_BACKGROUND = "rgba(255, 255, 255, 0.8)"


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


def reduction_figure(table: pd.DataFrame, *, log: bool) -> go.Figure | None:
    """The noise reduction in ambient error, 100·(1 − mean intrinsic error / mean Euclidean error) %,
    against n, as Reimherr, Bharath & Soto (2021), Figure 1, report it, with its zero line.

    Parameters
    ----------
    table : pandas.DataFrame
        ``utility.reduction_table``'s rows, one per n: columns ``n`` and ``REDUCTION``. A row whose
        reduction is NaN (one mechanism has no release at that n) is left out, not drawn as 0.
    log : bool
        A logarithmic n axis.

    Returns
    -------
    go.Figure or None
        One line-and-markers trace (``meta="reduction"``) over the dashed zero line, above which the
        intrinsic release is closer to the mean in ambient coordinates, said in words at the end of the n
        range whose reduction lies farther from 0; None when no row has a reduction.
    """
    missing = {"n", REDUCTION} - set(table.columns)
    if missing:
        raise ValueError(f"table has no column {sorted(missing)} (it must be utility.reduction_table's); "
                         f"columns are {list(table.columns)}")
    rows = table.dropna(subset=[REDUCTION]).sort_values("n")
    if rows.empty:
        return None
    n, reduction = rows["n"].to_numpy(dtype=float), rows[REDUCTION].to_numpy(dtype=float)
    color = palette.color(specs.EXACT.key)
    fig = go.Figure(go.Scatter(
        x=n, y=reduction, mode="lines+markers", name="noise reduction", meta="reduction", showlegend=False,
        line=dict(color=color, width=3), marker=dict(size=9, color=color),
        hovertemplate="n %{x:.4g}<br>noise reduction %{y:.1f} %<extra></extra>"), layout=palette.layout(height=420))
    low, high = min(0.0, reduction.min()), max(0.0, reduction.max())
    pad = max(0.15 * (high - low), 5.0)  # room for the words on both sides of the zero line
    fig.update_layout(xaxis=axis_layout("sample size n", n, log),
                      yaxis=dict(title=dict(text=REDUCTION), range=[low - pad, high + pad], zeroline=False))
    side = "right" if abs(reduction[-1]) > abs(reduction[0]) else "left"  # the end whose line is farther from 0
    words = dict(showarrow=False, bgcolor=WORDS_BACKGROUND, font=dict(size=palette.FONT_SIZE - 1))
    fig.add_hline(y=0, line=dict(color=palette.color("data"), width=2, dash="dash"))
    for text, anchor in ((ABOVE_ZERO, "bottom"), (BELOW_ZERO, "top")):
        fig.add_annotation(text=text, x=float(side == "right"), xref="x domain", xanchor=side, y=0, yanchor=anchor,
                           **words)
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
