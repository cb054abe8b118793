"""The map of where the intrinsic mechanism wins (``engine.pipelines.who_wins_map``): a heatmap of the
error ratio intrinsic / Euclidean Laplace over the radius and the dimension, on a log scale centred
at 1 (the intrinsic mechanism's palette colour where it wins, blue for the default Riemannian Laplace,
vermillion where the Euclidean one does), with the radii where they tie drawn
as a dashed black line with diamonds, and where the noise scales and dimensions alone put them as a
dotted one."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.viz import palette

#: Ratios labelled on the colour bar.
TICKS = (0.25, 0.5, 1.0, 2.0, 4.0)
#: The colours saturate at ratios of 4 and 1/4 (log₂ ±2), so ratios near 1 stay visible beside a ratio
#: of 10 near Theorem 2's limit; the hover gives every cell's own number.
SATURATION = 2.0


def _colorscale(mechanism: str) -> list:
    """The intrinsic mechanism's colour (it wins) through white (tie) to vermillion (Euclidean wins)."""
    return [[0.0, palette.color(mechanism)], [0.5, "#FFFFFF"], [1.0, palette.color("euclid")]]


def who_wins_map_figure(cells: pd.DataFrame, ties: pd.DataFrame, *, space: str, parameter_label: str, n: int,
                        epsilon: float, predicted: pd.DataFrame | None = None, height: int = 560,
                        mechanism: str = "exact") -> go.Figure:
    """Heatmap of log₂(ratio) per (radius, parameter) with the tie radii drawn.

    Parameters
    ----------
    cells : frame with the columns of ``who_wins_map.run(...).cells``
    ties : frame with parameter and radius (``who_wins_map.tie_radii``)
    space : the family's label (Sᵈ, SPD(k)) for the title
    parameter_label : the y axis' words ("dimension d")
    n, epsilon : the records and the budget the map was computed at, named in the title with n·ε (the
        ratios and ties move with n·ε: ``engine.pipelines.ties_by_budget``)
    predicted : optional ties of the ratio the noise alone predicts, drawn dotted
    mechanism : the map's intrinsic mechanism (``WhoWinsMapConfig.mechanism``), for its colour and name

    Returns
    -------
    go.Figure
    """
    grid = cells.pivot(index="parameter", columns="radius", values="ratio").sort_index()
    radii, params = grid.columns.to_numpy(), grid.index.to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.log2(grid.to_numpy())
    finite = np.abs(z[np.isfinite(z)])
    reach = min(max(float(finite.max()) if finite.size else 1.0, 0.5), SATURATION)
    ticks = [t for t in TICKS if abs(np.log2(t)) <= reach + 1e-9]
    labels = [("≤ " if t < 1 else "≥ ") + f"{t:g}" if abs(np.log2(t)) == SATURATION else f"{t:g}" for t in ticks]
    keyed = cells.set_index(["parameter", "radius"])
    columns = ["ratio", "ratio_se", "intrinsic", "euclidean", "off_share", "predicted_ratio", "ambient_dim", "dim"]
    custom = np.stack([keyed[col].unstack("radius").reindex(index=params, columns=radii).to_numpy()
                       for col in columns], axis=-1)
    fig = go.Figure(go.Heatmap(
        x=radii, y=params, z=z, zmid=0.0, zmin=-reach, zmax=reach, colorscale=_colorscale(mechanism), customdata=custom,
        colorbar=dict(title=dict(text="error ratio<br>intrinsic / Euclidean", side="right"),
                      tickvals=[np.log2(t) for t in ticks], ticktext=labels),
        hovertemplate=(f"{parameter_label} = %{{y}}, radius r = %{{x:.3f}}<br>"
                       "error ratio %{customdata[0]:.3f} ± %{customdata[1]:.3f}<br>"
                       f"mean geodesic error: {palette.label(mechanism)} %{{customdata[2]:.4g}}, Euclidean "
                       "%{customdata[3]:.4g}<br>"
                       "noise alone predicts %{customdata[5]:.3f} (d = %{customdata[7]}, D = %{customdata[6]})<br>"
                       "Euclidean releases off the space: %{customdata[4]:.0%}<extra></extra>")))
    if len(ties):
        ordered = ties.sort_values(["parameter", "radius"])
        fig.add_scatter(x=ordered["radius"], y=ordered["parameter"], mode="lines+markers", name="tie (ratio 1)",
                        line=dict(color=palette.color("bound"), width=2.5, dash="dash"),
                        marker=dict(symbol="diamond", size=9, color=palette.color("bound")),
                        hovertemplate=f"tie at r = %{{x:.3f}}, {parameter_label} = %{{y}}<extra></extra>")
    if predicted is not None and len(predicted):
        ordered = predicted.sort_values(["parameter", "radius"])
        fig.add_scatter(x=ordered["radius"], y=ordered["parameter"], mode="lines", name="tie the noise alone predicts",
                        line=dict(color=palette.color("bound"), width=2, dash="dot"),
                        hovertemplate=f"predicted tie at r = %{{x:.3f}}, {parameter_label} = %{{y}}<extra></extra>")
    title = f"Where each mechanism wins on {space} at n·ε = {n * epsilon:g} (n = {n}, ε = {epsilon:g})"
    fig.update_layout(palette.layout(palette.chart_text(title), height=height))
    fig.update_xaxes(title_text="radius r of the data ball")
    fig.update_yaxes(title_text=parameter_label, dtick=1 if len(params) <= 12 else 2)
    return fig
