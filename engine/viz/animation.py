"""Plotly frames over a parameter grid with a slider and a play button, drawn in the browser only.

``add_parameter_frames`` turns any figure into an animation of one of its traces (and of any others
that move with it, ``also``): frame s replaces those traces' coordinates and nothing else, so
scrubbing the slider or pressing play runs no Python. The rest of the figure (surface, legend,
camera) stays as built.
A 3D scene only shows new data after a full redraw (``redraw=True``), which rebuilds the whole
figure; a 2D (SVG) chart moves its markers without one (``redraw=False``). The app's live chart
(``ui.live_chart``) shows a 3D figure's frames without plotly's redraw where they only move points.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

#: Milliseconds per frame when playing.
PLAY_FRAME_MS = 250


def add_parameter_frames(fig: go.Figure, *, trace: int, coordinates, labels, active: int = 0,
                         prefix: str = "ε = ", name: str | None = None, redraw: bool = True,
                         also: dict | None = None) -> go.Figure:
    """Add frames, a slider and play/pause buttons that animate trace ``trace`` of ``fig``.

    Parameters
    ----------
    fig : go.Figure
        The figure; modified in place and returned.
    trace : int
        Index of the trace whose coordinates change between frames.
    coordinates : sequence of dict
        One dict per frame of the trace's coordinate arrays, e.g. ``{"x": ..., "y": ..., "z": ...}``
        (the keys of the trace type: x/y for 2D scatter, x/y/z for Scatter3d).
    labels : sequence of str
        Slider label of each frame (e.g. the ε value); also the frame names, so they must be unique.
    active : int
        Frame shown first; the trace is set to its coordinates.
    prefix : str
        Text before the current label above the slider.
    name : str, optional
        Legend name of the animated trace (kept in every frame).
    redraw : bool
        Redraw the whole figure at each frame: needed for 3D scenes, not for 2D charts.
    also : dict, optional
        Further traces that change with the frames: trace index → one coordinate dict per frame, as
        ``coordinates`` (e.g. the data and the true mean of an animation over the sample size). The
        frames list ``trace`` first, then these.

    Returns
    -------
    go.Figure

    Raises
    ------
    ValueError
        Mismatched or empty frames, a trace index out of range or repeated, duplicate labels or
        ``active`` outside the frames.
    """
    coordinates, labels = list(coordinates), [str(label) for label in labels]
    if not coordinates or len(coordinates) != len(labels):
        raise ValueError(f"coordinates and labels must be non-empty and of equal length, got "
                         f"{len(coordinates)} and {len(labels)}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"labels must be unique, got {labels}")
    moving = {trace: coordinates}
    for index, frames in (also or {}).items():
        if index in moving:
            raise ValueError(f"also must name traces other than trace {trace}, got {index} twice")
        moving[index] = list(frames)
        if len(moving[index]) != len(labels):
            raise ValueError(f"also[{index}] must have one coordinate dict per label ({len(labels)}), "
                             f"got {len(moving[index])}")
    for index in moving:
        if not 0 <= index < len(fig.data):
            what = "trace" if index == trace else "also"
            raise ValueError(f"{what} must index one of the figure's {len(fig.data)} traces, got {index}")
    if not 0 <= active < len(labels):
        raise ValueError(f"active must lie in [0, {len(labels) - 1}], got {active}")
    extra = {index: {} if name is None or index != trace else {"name": name} for index in moving}

    def frame_trace(index: int, coords: dict):
        return type(fig.data[index])(**{k: np.asarray(v).tolist() for k, v in coords.items()}, **extra[index])

    fig.frames = [go.Frame(name=label, traces=list(moving),
                           data=[frame_trace(index, frames[s]) for index, frames in moving.items()])
                  for s, label in enumerate(labels)]
    for index, frames in moving.items():
        fig.data[index].update(**{k: np.asarray(v) for k, v in frames[active].items()}, **extra[index])
    still = dict(mode="immediate", frame=dict(duration=0, redraw=redraw), transition=dict(duration=0))
    steps = [dict(method="animate", label=label, args=[[label], still]) for label in labels]
    fig.update_layout(
        sliders=[dict(active=active, steps=steps, currentvalue=dict(prefix=prefix), pad=dict(t=10, b=10),
                      x=0.2, len=0.8, y=0.0, yanchor="top")],
        updatemenus=[dict(type="buttons", direction="left", showactive=False, x=0.0, y=0.0, xanchor="left",
                          yanchor="top", pad=dict(t=10, r=10), buttons=[
                              dict(label="▶", method="animate",
                                   args=[None, dict(mode="immediate", fromcurrent=True, transition=dict(duration=0),
                                                    frame=dict(duration=PLAY_FRAME_MS, redraw=redraw))]),
                              dict(label="❚❚", method="animate", args=[[None], still]),
                          ])],
    )
    return fig
