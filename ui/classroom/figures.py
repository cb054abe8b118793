"""The class's tally as a chart: one horizontal bar per choice of the step's question, its count of answers,
the right choice marked once it is revealed."""

from __future__ import annotations

import plotly.graph_objects as go

from engine.viz import palette

#: Bar colours: every choice, and the right one after the reveal (``palette``'s non-private and DP-RGD hues).
BAR, RIGHT = "#56B4E9", "#009E73"


def tally_figure(choices: tuple[str, ...], counts: dict[int, int], right: int | None = None) -> go.Figure:
    """Bars of ``counts[i]`` answers for each of ``choices`` (top to bottom in their order); ``right``, the index
    of the right choice or ``None`` before the reveal, is drawn in its own colour and named in its label."""
    labels = [palette.chart_text(choice) + ("  ✓" if index == right else "") for index, choice in enumerate(choices)]
    values = [counts.get(index, 0) for index in range(len(choices))]
    figure = go.Figure(go.Bar(x=values, y=labels, orientation="h", text=values, textposition="auto",
                              marker_color=[RIGHT if index == right else BAR for index in range(len(choices))],
                              hovertemplate="%{y}: %{x} answers<extra></extra>"),
                       layout=palette.layout(height=80 + 60 * len(choices)))
    figure.update_layout(margin=dict(l=10, r=10, t=10, b=40), showlegend=False)
    figure.update_xaxes(title_text="answers", rangemode="tozero", dtick=max(1, (max(values, default=0) + 4) // 5))
    figure.update_yaxes(autorange="reversed", automargin=True)
    return figure
