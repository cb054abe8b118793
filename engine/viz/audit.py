"""Figures of the empirical audit: the lower bound against the releases drawn, and the two release
histograms on the rejection statistic (pure plotly builders, no Streamlit)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.viz.palette import TEMPLATE


def bound_curve(history, epsilon: float, reachable: float, *, title: str = "") -> go.Figure:
    """The 95 % lower bound on ε at each checkpoint (``history``: samples, epsilon_lower) with the
    nominal ε and, when known, the most the pair can show, as horizontal lines."""
    fig = go.Figure(go.Scatter(x=history["samples"], y=history["epsilon_lower"], mode="lines+markers",
                               name="95% lower bound on epsilon"))
    fig.add_hline(y=epsilon, line_dash="dash", line_color="firebrick", annotation_text=f"claimed epsilon {epsilon:g}")
    if np.isfinite(reachable) and abs(reachable - epsilon) > 1e-3 * epsilon:
        fig.add_hline(y=reachable, line_dash="dot", line_color="grey",
                      annotation_text=f"most this pair can show {reachable:.3g}", annotation_position="bottom right")
    fig.update_layout(template=TEMPLATE, title=title, xaxis_title="releases per side", yaxis_title="epsilon",
                      xaxis_type="log",
                      yaxis_rangemode="tozero", margin=dict(t=50, b=40, l=50, r=20), height=330, showlegend=False)
    return fig


def statistic_histograms(first, second, threshold: float, *, title: str = "") -> go.Figure:
    """Histograms of the statistic of releases on D and on D', with the rejection threshold."""
    fig = go.Figure()
    edges = np.histogram_bin_edges(np.concatenate([first, second]), bins=60)
    for values, name in ((first, "releases on D"), (second, "releases on D'")):
        counts, _ = np.histogram(values, bins=edges)
        fig.add_trace(go.Bar(x=0.5 * (edges[1:] + edges[:-1]), y=counts / max(len(values), 1), name=name,
                             opacity=0.6))
    if np.isfinite(threshold):
        fig.add_vline(x=threshold, line_dash="dash", annotation_text="threshold")
    fig.update_layout(template=TEMPLATE, title=title, barmode="overlay", xaxis_title="statistic",
                      yaxis_title="share of releases",
                      margin=dict(t=50, b=40, l=50, r=20), height=300, legend=dict(orientation="h", y=-0.3))
    return fig


def audit_curve(result) -> go.Figure:
    """``bound_curve`` of one ``engine.audit.AuditResult``, titled with its label (the Audit page's curve)."""
    return bound_curve(result.history, result.epsilon, result.reachable_epsilon, title=result.label)


def audit_histograms(result) -> go.Figure:
    """``statistic_histograms`` of one ``engine.audit.AuditResult``'s evaluation half with its threshold."""
    return statistic_histograms(result.statistic_first, result.statistic_second, result.rejection.threshold,
                                title="Releases on the statistic")
