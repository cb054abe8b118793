"""A private-mean result drawn on its space by the space's view: the playground and its notebook alike."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.pipelines.private_mean import PrivateMeanResult
from ui.spaces.registry import view


def clouds(result: PrivateMeanResult) -> dict:
    """Mechanism key (a palette name) -> releases of every mechanism that released."""
    return {run.key: run.releases for run in result.runs if run.releases is not None}


def space_figure(result: PrivateMeanResult, settings, hold: np.ndarray | None = None) -> go.Figure:
    """The figure of ``result`` (``engine.pipelines.private_mean.run``'s) on its space.

    ``settings`` is the page's settings or the pipeline's ``PrivateMeanConfig`` (the views read its
    ``radius``); ``hold`` ``(k, 3)``: on the sphere, further points the scene must frame (every frame of
    an animation).
    """
    return view(result.config.space).figure(result, clouds(result), settings, hold)
