"""The released points on the manifold for the Private optimization page's "On the manifold" section: S²
(eigenvector), the SPD cone, or the Poincaré disk. Its own module because the 3D builders import pyvista
(about 1.4 s), which the first chart should not wait for.

The builder returns the figure and the tidy table behind it (for the download row).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.manifolds import Hyperbolic
from engine.mechanisms import specs
from engine.pipelines.private_optimization import sphere_coordinates
from engine.viz import palette
from engine.viz.poincare import poincare_figure
from engine.viz.spd_cone import spd_cone_figure
from engine.viz.sphere import ball_name, sphere_figure
from ui.figure_cache import cache_figures

VIEW_CAPTIONS = {
    "eigenvector": "Look at how far the DP-RGD outputs sit from u₁: the angle to ±u₁ is exact, the longitude is the "
                   "direction within span(u₂, u₃) of the {d}-dimensional space. When the top eigenvalues are nearly "
                   "equal (the synthetic eigengap is 10⁻³) directions far from u₁ lose almost nothing, so even the "
                   "noiseless outputs may sit far from it.",
    "frechet": "Look at the DP-RGD outputs against the minimiser W*, the noiseless run and the Riemannian Laplace "
               "releases at the same ε (σ = Δ/ε): every release stays inside the cone.",
    "barycenter": "Look at the DP-RGD outputs against the minimiser W* and the noiseless run on the cone of 2 × 2 "
                  "covariance matrices.",
    "hyperbolic": "Look at the DP-RGD predictions around the exact prediction ŷ, and both against the held-out leaf "
                  "(dotted circles: hyperbolic distance 0.5, 1 and 2 from it).",
}

def _rename(fig: go.Figure, old: str, new: str) -> None:
    """Rename the legend entry ``old`` of a figure built by ``engine.viz``; ``ValueError`` if it has none, so a
    renamed builder's trace cannot keep its old name here unnoticed."""
    if not any(trace.name == old for trace in fig.data):
        raise ValueError(f"the figure has no trace named {old!r} to rename to {new!r}")
    fig.for_each_trace(lambda trace: trace.update(name=new), selector=dict(name=old))


@cache_figures(max_entries=16)
def manifold_view(app: str, view: dict, optimum: np.ndarray, outputs: dict, laplace) -> tuple[go.Figure, pd.DataFrame]:
    """The released points on the manifold: S² (eigenvector), the SPD cone, or the Poincaré disk."""
    if app == "eigenvector":
        clouds = {name: sphere_coordinates(w, view["basis"]) for name, w in outputs.items()}
        angles = np.arccos(np.clip(clouds["dp-rgd"][:, 0], -1.0, 1.0))
        radius = float(np.clip(np.median(angles), 1e-3, np.pi / 2))
        fig = sphere_figure(data=None, mean=np.array([1.0, 0.0, 0.0]), releases=clouds, center=[1.0, 0.0, 0.0],
                            radius=radius, show_cap=False, height=600)
        _rename(fig, palette.label("true mean"), "Top eigenvector u₁ (exact, not private)")
        _rename(fig, ball_name(radius), f"median DP-RGD angle to u₁: {radius:.3g} rad")
        frame = pd.concat([pd.DataFrame({"method": name, "angle_to_u1": np.arccos(np.clip(p[:, 0], -1, 1)),
                                         "x": p[:, 0], "y": p[:, 1], "z": p[:, 2]}) for name, p in clouds.items()])
        return fig, frame
    if app == "hyperbolic":
        releases = {"dp-rgd": outputs["dp-rgd"], "non-private": optimum[None]}
        fig = poincare_figure(data=view["data"], mean=view["truth"], releases=releases, edges=view["edges"], height=600)
        _rename(fig, palette.label("true mean"), "Truth: the held-out leaf (not private)")
        _rename(fig, "Non-private", "Non-private prediction ŷ (exact)")
        disk = Hyperbolic(2).to_poincare
        frame = pd.concat([pd.DataFrame({"role": role, "px": disk(p)[:, 0], "py": disk(p)[:, 1]})
                           for role, p in {"truth": view["truth"][None], **releases}.items()])
        return fig, frame
    releases = {"dp-rgd": outputs["dp-rgd"], "non-private": outputs["non-private"]}
    if laplace is not None:
        releases[specs.EXACT.key] = laplace
    fig = spd_cone_figure(data=view["data"], mean=optimum, releases=releases, height=600)
    _rename(fig, palette.label("true mean"), "Minimiser W* (exact, not private)")
    frame = pd.concat([pd.DataFrame({"method": name, "a": p[:, 0, 0], "b": p[:, 0, 1], "c": p[:, 1, 1]})
                       for name, p in {"optimum": optimum[None], **releases}.items()])
    return fig, frame
