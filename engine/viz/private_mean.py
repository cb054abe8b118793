"""The private mean's figure on its space, from a result of ``engine.pipelines.private_mean``: the
data, the true Fréchet mean and every mechanism's release cloud, drawn by the space's builder
(sphere, SPD cone, Poincaré disk, Kendall outlines). The playground and its notebook draw it alike."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.manifolds import Hyperbolic
from engine.viz.poincare import poincare_figure
from engine.viz.shapes import shapes_figure
from engine.viz.spd_cone import spd_cone_figure
from engine.viz.sphere import sphere_figure

# Releases farther than this from the mean are not drawn on the Poincaré disk: tanh(ρ/2) rounds
# to 1 in double precision beyond ρ ≈ 37, and the rim is unreadable long before.
POINCARE_MAX_DIST = 25.0
# The shapes view draws at most this many private outlines per mechanism (more become a blur).
KENDALL_MAX_OUTLINES = 50


def clouds(result: dict) -> dict:
    """Palette name -> releases ``(releases, *point_shape)`` of every mechanism that released."""
    return {run["palette"]: run["releases"] for run in result["runs"] if run["releases"] is not None}


def private_mean_figure(result: dict, radius: float, *, hold: np.ndarray | None = None,
                        height: int = 640) -> go.Figure:
    """The figure of ``result`` (``PrivateMeanResult.to_dict()``) on its space.

    ``radius`` is the public data radius r (the sphere draws B_r(m0)); ``hold`` ``(k, 3)``: on the
    sphere, further points the scene must frame (every frame of an animation).
    """
    released = clouds(result)
    if result["space"] == "sphere":
        return sphere_figure(data=result["data"], mean=result["mean"], releases=released, center=result["m0"],
                             radius=radius, resolution=48, height=height, hold=hold)
    if result["space"] == "spd":
        return spd_cone_figure(data=result["data"], mean=result["mean"], releases=released, height=height)
    if result["space"] == "hyperbolic":
        h2 = Hyperbolic(2)
        shown = {name: c[h2.dist(result["mean"], c) <= POINCARE_MAX_DIST] for name, c in released.items()}
        return poincare_figure(data=result["data"], mean=result["mean"], releases=shown,
                               edges=result["edges"], height=height)
    outlines = {name: c[:KENDALL_MAX_OUTLINES] for name, c in released.items()}
    return shapes_figure(mean=result["mean"], releases=outlines, data=result["data"], release_opacity=0.3,
                         height=height)
