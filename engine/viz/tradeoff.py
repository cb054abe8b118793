"""The trade-off curve figure: a measured curve (``engine.audit.tradeoff.TradeoffCurve``) with its
simultaneous band, beside the curve its claim promises, over every α and, in a second panel, zoomed where the
measured curve comes closest to the claim (a break in the tails, a few thousandths in β, is invisible on the
unit square) (pure plotly builder, no Streamlit)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from engine.viz.palette import TEMPLATE

MEASURED = "#333333"  # neutral: every Okabe–Ito hue names a mechanism (engine.viz.palette); solid, unlike the bounds
CLAIM = "firebrick"
#: Half-width in α of the zoomed panel (``closest_window``).
ZOOM_HALF_WIDTH = 0.025
#: Room above and below the zoomed curves, as a share of their span.
ZOOM_PADDING = 0.15


def closest_window(curve) -> tuple[tuple[float, float], tuple[float, float]]:
    """The zoomed panel's α and β ranges: ``ZOOM_HALF_WIDTH`` either side of the α where the claim's curve exceeds the
    measured one most (where it comes closest from above, for a curve that stays above), among the α where the claim
    promises anything (f > 0), and the span of the band and the claim there, padded."""
    alpha, claimed = np.asarray(curve.alpha), np.asarray(curve.claimed_beta)
    margin = np.where(claimed > 0, claimed - np.asarray(curve.beta), -np.inf)
    centre = float(alpha[int(np.argmax(margin))]) if np.isfinite(margin).any() else 0.5
    low, high = max(0.0, centre - ZOOM_HALF_WIDTH), min(1.0, centre + ZOOM_HALF_WIDTH)
    inside = (alpha >= low) & (alpha <= high)
    values = np.concatenate([np.asarray(curve.beta_low)[inside], np.asarray(curve.beta_high)[inside], claimed[inside]])
    bottom, top = float(values.min()), float(values.max())
    pad = ZOOM_PADDING * max(top - bottom, 1e-3)
    return (low, high), (bottom - pad, top + pad)


def tradeoff_figure(curve, *, title: str | None = None) -> go.Figure:
    """Type II error β against type I error α: the band (filled), the measured curve, the claim's curve
    (dashed) and, where the band lies wholly below the claim, those α marked (the claim is refuted there); on the
    left over the unit square, on the right the same traces zoomed on ``closest_window``.

    Parameters
    ----------
    curve : TradeoffCurve
    title : default ``curve.label``.
    """
    (low, high), (bottom, top) = closest_window(curve)
    fig = make_subplots(rows=1, cols=2, column_widths=[0.58, 0.42], horizontal_spacing=0.12,
                        subplot_titles=("every test", f"zoomed: α in [{low:.3g}, {high:.3g}]"))
    for col in (1, 2):
        _draw(fig, curve, col=col)
    fig.update_layout(template=TEMPLATE, title=curve.label if title is None else title,
                      xaxis=dict(range=[0, 1], constrain="domain", title="type I error α (rejects D when it is D)"),
                      yaxis=dict(range=[0, 1], scaleanchor="x", constrain="domain",
                                 title="type II error β (keeps D when it is D')"),
                      xaxis2=dict(range=[low, high], title="α"), yaxis2=dict(range=[bottom, top], title="β"),
                      margin=dict(t=70, b=40, l=50, r=20), height=400, legend=dict(orientation="h", y=-0.25))
    return fig


def _draw(fig: go.Figure, curve, *, col: int) -> None:
    """The band, the measured curve, the claim and the refuted α into panel ``col`` (legend entries once)."""
    alpha = np.asarray(curve.alpha)
    add_measured(fig, curve, name="measured", col=col)
    fig.add_trace(go.Scatter(x=alpha, y=curve.claimed_beta, mode="lines", line=dict(color=CLAIM, dash="dash"),
                             name=f"claimed: {curve.claim}", showlegend=col == 1, legendgroup="claim"), row=1, col=col)
    below = np.asarray(curve.beta_high) < np.asarray(curve.claimed_beta)
    if below.any():
        fig.add_trace(go.Scatter(x=alpha[below], y=np.asarray(curve.beta_high)[below], mode="markers",
                                 marker=dict(color=CLAIM, symbol="x", size=6), name="band below the claim",
                                 showlegend=col == 1, legendgroup="below"), row=1, col=col)


def add_measured(fig: go.Figure, curve, *, name: str, col: int | None = None) -> go.Figure:
    """Add ``curve``'s band (filled between ``beta_low`` and ``beta_high``) and its measured β, named
    ``name``, to ``fig`` (for instance a figure of analytic curves), into subplot column ``col`` of a figure made
    with subplots (its legend entries only in column 1); returns ``fig``."""
    alpha = np.asarray(curve.alpha)
    where = {} if col is None else dict(row=1, col=col)
    legend = col in (None, 1)
    fig.add_trace(go.Scatter(x=alpha, y=curve.beta_high, mode="lines", line=dict(width=0), hoverinfo="skip",
                             showlegend=False, name="band upper edge"), **where)
    fig.add_trace(go.Scatter(x=alpha, y=curve.beta_low, mode="lines", line=dict(width=0), fill="tonexty",
                             fillcolor="rgba(51, 51, 51, 0.18)", name=f"{1 - curve.level:.1%} simultaneous band",
                             showlegend=legend, legendgroup="band"), **where)
    fig.add_trace(go.Scatter(x=alpha, y=curve.beta, mode="lines", line=dict(color=MEASURED, width=2), name=name,
                             showlegend=legend, legendgroup="measured"), **where)
    return fig
