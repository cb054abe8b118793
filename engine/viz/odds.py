"""What ε means, drawn: the trade-off curve of a mechanism against its ε-DP bound, the posterior range, and the
sphere of the "which data set?" game.

Curves from ``engine.odds`` (Dong, Roth & Su 2022): type I error α on x, type II error β on y;
a test on a private release can never go below the bound.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.odds import dp_tradeoff_bound, guess_ceiling, laplace_tradeoff, posterior_range
from engine.viz import palette
from engine.viz.sphere import sphere_figure


def tradeoff_figure(epsilon: float, *, reach: float | None = None, points: int = 201, height: int = 360) -> go.Figure:
    """The ε-DP bound max(0, 1 − e^ε α, e^{−ε}(1 − α)), the Laplace mechanism's exact curve on a pair
    whose privacy loss reaches ``reach`` (ε when ``None``: the adversarial pair attains the sensitivity), and the
    line of the tests right e^ε/(1 + e^ε) of the time at even odds (α + β = 2/(1 + e^ε))."""
    alpha = np.linspace(0.0, 1.0, points)
    fig = go.Figure(layout=palette.layout(None, height=height))
    fig.add_scatter(x=alpha, y=1.0 - alpha, mode="lines", name="no information (a coin)",
                    line=dict(color=palette.color("data"), width=2, dash="dot"))
    fig.add_scatter(x=alpha, y=laplace_tradeoff(alpha, epsilon if reach is None else reach, 1.0), mode="lines",
                    name=palette.label("exact"),
                    line=dict(color=palette.color("exact"), width=3))
    fig.add_scatter(x=alpha, y=dp_tradeoff_bound(alpha, epsilon), mode="lines", name=f"ε = {epsilon:g} bound",
                    line=dict(color=palette.color("bound"), width=2, dash="dash"))
    # A test right a share p of the time at even odds has α + β = 2(1 − p): the tests at the ceiling lie on this line,
    # which touches the bound at α = β; a curve between it and the coin's line guesses right between 1/2 and p.
    ceiling = guess_ceiling(epsilon)
    fig.add_scatter(x=[0.0, 2 * (1 - ceiling)], y=[2 * (1 - ceiling), 0.0], mode="lines",
                    name=f"tests right e^ε/(1 + e^ε) = {ceiling:.1%} of the time",
                    line=dict(color=palette.color("bound"), width=1.5, dash="dot"))
    fig.update_xaxes(title_text="type I error α (say D′ when it was D)", range=[0, 1])
    fig.update_yaxes(title_text="type II error β (say D when it was D′)", range=[0, 1])
    return fig


def posterior_figure(epsilon: float, *, points: int = 101, height: int = 360) -> go.Figure:
    """The highest and lowest posterior an ε-DP release can leave, against the prior."""
    prior = np.linspace(0.0, 1.0, points)
    low, high = posterior_range(prior, epsilon)
    fig = go.Figure(layout=palette.layout(None, height=height))
    fig.add_scatter(x=prior, y=high, mode="lines", name="highest posterior",
                    line=dict(color=palette.color("euclid"), width=3))
    fig.add_scatter(x=prior, y=low, mode="lines", name="lowest posterior", fill="tonexty",
                    fillcolor=palette.rgba(palette.color("euclid"), 0.15),
                    line=dict(color=palette.color("exact"), width=3, dash="dash"))
    fig.update_xaxes(title_text="belief before the release (prior)", range=[0, 1])
    fig.update_yaxes(title_text="belief after it (posterior)", range=[0, 1])
    return fig


def game_scene_figure(*, first, second, means, center, radius: float, height: int = 420) -> go.Figure:
    """The game's sphere without a release: the records of D ``(n, 3)``, the moved last record of D′ (``second``
    ``(n, 3)``), and both Fréchet means ``(2, 3)`` (a filled and an open diamond), framed on all of them so that
    the camera gives nothing away. A round's release is drawn after these traces."""
    records = np.concatenate([np.asarray(first, float), np.asarray(second, float)[-1:]])
    means = np.asarray(means, dtype=float)
    fig = sphere_figure(data=records, mean=means[0], releases={}, center=center, radius=radius, resolution=32,
                        height=height, hold=np.concatenate([records, means]))
    first_mean = fig.data[-1]
    first_mean.update(name="mean of D", legendgroup="mean of D", hovertemplate="mean of D<extra></extra>")
    fig.add_scatter3d(x=means[1:, 0], y=means[1:, 1], z=means[1:, 2], mode="markers", name="mean of D′",
                      legendgroup="mean of D′", hovertemplate="mean of D′<extra></extra>",
                      marker=dict(size=first_mean.marker.size, color=first_mean.marker.color, symbol="diamond-open",
                                  line=dict(width=0)))
    return fig
