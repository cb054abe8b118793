"""The trade-off curve figure: a measured curve (``engine.audit.tradeoff.TradeoffCurve``) with its
simultaneous band, beside the curve its claim promises (pure plotly builder, no Streamlit)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.viz.palette import TEMPLATE

MEASURED = "#333333"  # neutral: every Okabe–Ito hue names a mechanism (engine.viz.palette); solid, unlike the bounds
CLAIM = "firebrick"


def tradeoff_figure(curve, *, title: str | None = None) -> go.Figure:
    """Type II error β against type I error α: the band (filled), the measured curve, the claim's curve
    (dashed) and, where the band lies wholly below the claim, those α marked (the claim is refuted there).

    Parameters
    ----------
    curve : TradeoffCurve
    title : default ``curve.label``.
    """
    alpha = np.asarray(curve.alpha)
    fig = add_measured(go.Figure(), curve, name="measured")
    fig.add_trace(go.Scatter(x=alpha, y=curve.claimed_beta, mode="lines", line=dict(color=CLAIM, dash="dash"),
                             name=f"claimed: {curve.claim}"))
    below = np.asarray(curve.beta_high) < np.asarray(curve.claimed_beta)
    if below.any():
        fig.add_trace(go.Scatter(x=alpha[below], y=np.asarray(curve.beta_high)[below], mode="markers",
                                 marker=dict(color=CLAIM, symbol="x", size=6), name="band below the claim"))
    fig.update_layout(template=TEMPLATE, title=curve.label if title is None else title,
                      xaxis_title="type I error α (rejects D when it is D)",
                      yaxis_title="type II error β (keeps D when it is D')",
                      xaxis=dict(range=[0, 1], constrain="domain"),
                      yaxis=dict(range=[0, 1], scaleanchor="x", constrain="domain"),
                      margin=dict(t=50, b=40, l=50, r=20), height=380, legend=dict(orientation="h", y=-0.25))
    return fig


def add_measured(fig: go.Figure, curve, *, name: str) -> go.Figure:
    """Add ``curve``'s band (filled between ``beta_low`` and ``beta_high``) and its measured β, named
    ``name``, to ``fig`` (for instance a figure of analytic curves); returns ``fig``."""
    alpha = np.asarray(curve.alpha)
    fig.add_trace(go.Scatter(x=alpha, y=curve.beta_high, mode="lines", line=dict(width=0), hoverinfo="skip",
                             showlegend=False, name="band upper edge"))
    fig.add_trace(go.Scatter(x=alpha, y=curve.beta_low, mode="lines", line=dict(width=0), fill="tonexty",
                             fillcolor="rgba(51, 51, 51, 0.18)", name=f"{1 - curve.level:.1%} simultaneous band"))
    fig.add_trace(go.Scatter(x=alpha, y=curve.beta, mode="lines", line=dict(color=MEASURED, width=2), name=name))
    return fig
