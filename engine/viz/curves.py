"""Line charts of the sensitivity and utility pages: ± 2 SE bands, bounds, histograms, MCMC traces.

Inputs are tidy pandas DataFrames (one row per observation, one column per variable), as the
studies of ``engine.experiments`` return them. Groups are coloured by ``engine.viz.palette``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from engine.mechanisms import specs
from engine.validation import check_finite_array, check_int
from engine.viz import palette

BAND_ALPHA = 0.2
LOG_FLOOR = 0.1  # on a log axis, a band reaching <= 0 is cut at LOG_FLOOR·y (the axis has no 0)


def _columns(df, columns: dict[str, str | None], what: str) -> pd.DataFrame:
    """Check that ``df`` is a DataFrame holding the named columns; numeric ones must be finite."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{what} must be a pandas DataFrame, got {type(df).__name__}")
    for role, col in columns.items():
        if col is None:
            continue
        if col not in df.columns:
            raise ValueError(f"{what} has no column {col!r} (the {role} column); columns are {list(df.columns)}")
        if role != "group":
            check_finite_array(f"{what}[{col!r}]", pd.to_numeric(df[col], errors="raise").to_numpy())
    return df


def _marks(group) -> dict:
    """Line dash, marker symbol and marker outline of a group: its palette entry's, plain for a group outside the
    palette (given its colour in ``colors``), so mechanisms differ in more than hue."""
    if not palette.known(group):
        return dict(dash="solid", symbol="circle", outline=dict(width=0))
    return dict(dash=palette.dash(group), symbol=palette.symbol(group), outline=palette.outline(group))


def _style(group, colors: Mapping | None) -> tuple[str, str]:
    """Colour and legend label of a group: ``colors[group]`` if given, else the palette entry."""
    if colors is not None and group in colors:
        return colors[group], palette.chart_text(palette.label(group) if palette.known(group) else group)
    if not palette.known(group):
        raise ValueError(f"group {group!r} has no palette entry; pass colors={{{group!r}: '#RRGGBB'}}")
    return palette.color(group), palette.chart_text(palette.label(group))


def axis_layout(title: str, values: np.ndarray, log: bool) -> dict:
    """Axis settings; a log axis spanning a decade or more is labelled at powers of ten only
    (plotly's default also labels 2, 3, ..., 9 in between, unreadable from the back row)."""
    title = dict(text=palette.chart_text(title))
    if not log:
        return dict(title=title, type="linear")
    positive = values[values > 0]
    decades = np.log10(positive.max() / positive.min()) if positive.size else 0.0
    return dict(title=title, type="log", dtick=1 if decades >= 1 else "D2")


def band_figure(df, *, x: str, y: str, se: str, group: str, bound=None, bound_y: str = "bound",
                bound_name: str = "bound", points=None, log_x: bool = False, log_y: bool = False,
                colors: Mapping | None = None, title: str | None = None, x_title: str | None = None,
                y_title: str | None = None, height: int = 520) -> go.Figure:
    """Mean ± 2 SE bands per group, with an optional bound curve and per-replicate dots.

    Parameters
    ----------
    df : pandas.DataFrame
        Summary table, one row per (group, x), with columns ``x``, ``y`` (the mean), ``se``
        (its standard error, ≥ 0) and ``group`` (e.g. the mechanism).
    x, y, se, group : str
        Column names.
    bound : pandas.DataFrame, optional
        Columns ``x`` and ``bound_y``: a theoretical curve drawn dashed in the palette's "bound"
        colour and named ``bound_name`` (e.g. "Theorem 2 bound").
    points : pandas.DataFrame, optional
        Per-replicate values with columns ``x``, ``y`` and ``group`` (e.g. empirical
        sensitivities), drawn as small translucent dots.
    log_x, log_y : bool
        Logarithmic axes. On a log y axis, the part of a band below zero is cut at
        ``LOG_FLOOR``·y, since the axis cannot show it.
    colors : mapping group -> "#RRGGBB", optional
        Colours of groups that are not palette keys (e.g. curvature levels); palette keys keep
        their palette colour unless overridden here.
    title, x_title, y_title : str, optional
    height : int

    Returns
    -------
    go.Figure
        Per group, in order of first appearance: a filled band trace (name ``"<label> ± 2 SE"``,
        ``meta="band"``) and a line trace (``meta="mean"``); then per-replicate dots
        (``meta="points"``) and the bound (``meta="bound"``).

    Raises
    ------
    ValueError
        On a missing column, non-finite values, a negative standard error or a group with
        neither a palette entry nor a colour in ``colors``.
    """
    _columns(df, {"x": x, "y": y, "se": se, "group": group}, "df")
    if len(df) and (df[se] < 0).any():
        raise ValueError(f"df[{se!r}] must be >= 0 (a standard error), got {float(df[se].min())!r}")
    traces = []
    for name, rows in df.groupby(group, sort=False):
        rows = rows.sort_values(x)
        col, shown = _style(name, colors)
        marks = _marks(name)
        xs, ys, err = (rows[c].to_numpy(dtype=float) for c in (x, y, se))
        lower, upper = ys - 2.0 * err, ys + 2.0 * err
        if log_y:
            lower = np.where(lower > 0, lower, LOG_FLOOR * ys)
        traces.append(go.Scatter(
            x=np.concatenate([xs, xs[::-1]]), y=np.concatenate([upper, lower[::-1]]),
            fill="toself", fillcolor=palette.rgba(col, BAND_ALPHA), line=dict(width=0),
            mode="lines", name=f"{shown} ± 2 SE", legendgroup=shown, showlegend=False,
            hoverinfo="skip", meta="band",
        ))
        traces.append(go.Scatter(
            x=xs, y=ys, mode="lines+markers", name=shown, legendgroup=shown, meta="mean",
            customdata=err, line=dict(color=col, width=3, dash=marks["dash"]),
            marker=dict(size=8, color=col, symbol=marks["symbol"], line=marks["outline"]),
            hovertemplate=f"{x} %{{x:.4g}}<br>{y} %{{y:.4g}} ± 2·%{{customdata:.2g}}<extra>{shown}</extra>",
        ))
    banded = set(df[group].unique())
    if points is not None:
        _columns(points, {"x": x, "y": y, "group": group}, "points")
        for name, rows in points.groupby(group, sort=False):
            col, shown = _style(name, colors)
            marks = _marks(name)
            traces.append(go.Scatter(
                x=rows[x], y=rows[y], mode="markers", name=shown if name not in banded else f"{shown}: replicates",
                legendgroup=shown, showlegend=name not in banded, meta="points",
                marker=dict(size=5, color=col, opacity=0.35, symbol=marks["symbol"], line=marks["outline"]),
                hovertemplate=f"{x} %{{x:.4g}}<br>{y} %{{y:.4g}}<extra>{shown}</extra>",
            ))
    if bound is not None:
        _columns(bound, {"x": x, "bound": bound_y}, "bound")
        rows = bound.sort_values(x)
        traces.append(go.Scatter(
            x=rows[x], y=rows[bound_y], mode="lines", name=palette.chart_text(bound_name), meta="bound",
            line=dict(color=palette.color("bound"), width=2.5, dash="dash"),
            hovertemplate=f"{x} %{{x:.4g}}<br>bound %{{y:.4g}}<extra></extra>",
        ))
    xs = np.concatenate([np.asarray(t.x, dtype=float) for t in traces]) if traces else np.empty(0)
    ys = np.concatenate([np.asarray(t.y, dtype=float) for t in traces]) if traces else np.empty(0)
    fig = go.Figure(data=traces, layout=palette.layout(title, height=height))
    fig.update_layout(xaxis=axis_layout(x_title or x, xs, log_x), yaxis=axis_layout(y_title or y, ys, log_y))
    return fig


def histogram_with_density(samples, grid, density, *, name: str = specs.EXACT.key,
                           bins: int = 40, density_name: str = "exact density",
                           x_title: str = "radius", title: str | None = None,
                           height: int = 480) -> go.Figure:
    """Histogram of samples normalised as a density, against an exact density curve.

    Parameters
    ----------
    samples : array_like, shape ``(n,)``
        Sampled values (e.g. radii d(x, m) of Laplace releases).
    grid, density : array_like, shape ``(g,)``
        Exact density evaluated on a grid.
    name : str
        Palette key of the sampler (colour and label of the bars).
    bins : int
        Number of equal-width bins over the sample range.
    density_name, x_title, title : str
    height : int

    Returns
    -------
    go.Figure
        A ``go.Bar`` histogram (``meta="histogram"``, bar areas sum to 1) and the density
        line (``meta="density"``, dashed, palette "bound" colour).
    """
    samples = check_finite_array("samples", samples)
    grid = check_finite_array("grid", grid)
    density = check_finite_array("density", density)
    if samples.ndim != 1 or samples.size == 0:
        raise ValueError(f"samples must be a non-empty 1-d array, got shape {samples.shape}")
    if grid.ndim != 1 or grid.shape != density.shape:
        raise ValueError(f"grid and density must be 1-d of equal length, got {grid.shape} and {density.shape}")
    heights, edges = np.histogram(samples, bins=check_int("bins", bins), density=True)
    col = palette.color(name)
    traces = [
        go.Bar(x=0.5 * (edges[:-1] + edges[1:]), y=heights, width=np.diff(edges),
               name=f"{palette.label(name)} (n = {samples.size})", meta="histogram",
               marker=dict(color=palette.rgba(col, 0.55), line=dict(color=col, width=1)),
               hovertemplate="%{x:.3g}: density %{y:.3g}<extra></extra>"),
        go.Scatter(x=grid, y=density, mode="lines", name=density_name, meta="density",
                   line=dict(color=palette.color("bound"), width=3, dash="dash"),
                   hovertemplate="%{x:.3g}: density %{y:.3g}<extra></extra>"),
    ]
    fig = go.Figure(data=traces, layout=palette.layout(title, height=height))
    fig.update_layout(bargap=0.0, xaxis=dict(title=dict(text=x_title)),
                      yaxis=dict(title=dict(text="density")))
    return fig


def trace_figure(trace, *, iteration: str = "iteration", value: str = "value",
                 quantity: str | None = None, name: str = specs.MH.key,
                 burn_in: int | None = None, title: str | None = None,
                 row_height: int = 220) -> go.Figure:
    """MCMC trace plot: value against iteration, one row per monitored quantity.

    Parameters
    ----------
    trace : pandas.DataFrame
        Tidy chain output with columns ``iteration`` and ``value`` (and ``quantity`` when several
        quantities are monitored, e.g. "distance to footpoint" and "log density").
    iteration, value, quantity : str
        Column names; ``quantity=None`` means a single series.
    name : str
        Palette key of the sampler.
    burn_in : int, optional
        Iterations discarded as burn-in, shaded grey.
    title : str, optional
    row_height : int
        Height in pixels of each row.

    Returns
    -------
    go.Figure
        One line trace per quantity (named after it), in shared-x subplot rows.
    """
    _columns(trace, {"iteration": iteration, "value": value, "group": quantity}, "trace")
    groups = list(trace.groupby(quantity, sort=False)) if quantity else [(palette.label(name), trace)]
    # The shared layout goes in first: update_layout() with it afterwards re-validates the whole template
    # key by key (0.4 s, longer than the rest of the figure).
    fig = make_subplots(rows=len(groups), cols=1, shared_xaxes=True, vertical_spacing=0.06,
                        subplot_titles=[str(g) for g, _ in groups] if quantity else None,
                        figure=go.Figure(layout=palette.layout(title, height=row_height * len(groups) + 120)))
    for row, (label, rows) in enumerate(groups, start=1):
        rows = rows.sort_values(iteration)
        fig.add_trace(go.Scatter(x=rows[iteration], y=rows[value], mode="lines", name=str(label),
                                 line=dict(color=palette.color(name), width=1.2), showlegend=False,
                                 hovertemplate="iteration %{x}<br>%{y:.4g}<extra></extra>"),
                      row=row, col=1)
        fig.update_yaxes(title_text=palette.chart_text(value) if quantity is None else None, row=row, col=1)
    if burn_in is not None:
        fig.add_vrect(x0=0, x1=check_int("burn_in", burn_in, minimum=0), fillcolor="#999999",
                      opacity=0.2, line_width=0, annotation_text="burn-in",
                      annotation_position="top left", row="all", col=1)
    fig.update_xaxes(title_text=iteration, row=len(groups), col=1)
    return fig
