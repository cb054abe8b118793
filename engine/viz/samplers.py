"""Figures of the sampler comparison (``engine.pipelines.sampler_comparison``): radius histograms of
the exact and the Metropolis–Hastings sampler against the exact density, and the first chain's trace."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.mechanisms import specs
from engine.viz.curves import histogram_with_density, trace_figure

#: Longest trace drawn; longer chains are shown every k-th step.
TRACE_POINTS = 6000
#: Name of the traced quantity (axis title and CSV column): the distance of the chain's state to η.
TRACE_VALUE = "ρ(xₜ, η)"


def radius_histograms(result) -> tuple[go.Figure, go.Figure]:
    """Radius histograms of the exact and the MH sampler against the exact density, on one x and y range.

    ``result`` is a ``SamplerComparison`` (radii, grid, density and the two KS distances).
    """
    end = 1.05 * max(result.exact_radii.max(), result.mh_radii.max())
    keep = result.grid <= end
    grid, density = result.grid[keep], result.density[keep]
    exact = histogram_with_density(result.exact_radii, grid, density, name=specs.EXACT.key,
                                   x_title="distance to the footpoint ρ",
                                   title=f"Exact sampler: KS distance {result.ks_exact:.3f}")
    mh = histogram_with_density(result.mh_radii.ravel(), grid, density, name=specs.MH.key,
                                x_title="distance to the footpoint ρ",
                                title=f"Metropolis–Hastings: KS distance {result.ks_mh:.3f}")
    top = 1.1 * max(max(trace.y.max() for trace in fig.data) for fig in (exact, mh))
    for fig in (exact, mh):
        fig.update_xaxes(range=[0, end])
        fig.update_yaxes(range=[0, top])
    return exact, mh


def chain_trace(result, burn_in: int) -> tuple[go.Figure, pd.DataFrame]:
    """Trace of the first chain's distance to the footpoint (at most ``TRACE_POINTS`` steps shown),
    burn-in shaded, the exact mean radius dashed; returns the figure and its data."""
    stride = max(1, -(-len(result.chain) // TRACE_POINTS))
    steps = np.arange(0, len(result.chain), stride)
    data = pd.DataFrame({"iteration": steps, TRACE_VALUE: result.chain[steps]})
    fig = trace_figure(data, value=TRACE_VALUE, burn_in=burn_in, row_height=360)
    # The exact mean radius is a legend entry, not an annotation on the line: a label placed on the
    # chart lands on the trace wherever the chain happens to be.
    fig.add_trace(go.Scatter(x=[steps[0], steps[-1]], y=[result.mean_radius] * 2, mode="lines",
                             name=f"exact mean E ρ = {result.mean_radius:.3g}", hoverinfo="skip",
                             line=dict(color="#000000", width=2, dash="dash")))
    return fig, data
