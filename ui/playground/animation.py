"""The playground's ε animation: the exact Riemannian Laplace cloud over a grid of ε inside the chart.

The releases of every ε come from one set of draws (``engine.mechanisms.common_draws``): each
release keeps its direction and slides towards the true mean as ε grows. The figure carries one
plotly frame per ε with a slider and a play button, so scrubbing ε runs in the browser only. Each
frame is an exact draw of the mechanism at its ε (σ = Δ/ε); the frames share their randomness,
so only one of them could ever be published.

Beside the sphere, ``tangent_figure`` animates the same frames in the tangent plane at the true mean
(``engine.viz.tangent_view``): a 2D chart whose frames move only the markers, so it follows the
slider at once where the 3D scene has to re-render its WebGL canvas for every frame.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from engine.mechanisms import scale_limit
from engine.mechanisms.common_draws import laplace_common_draws
from engine.pipelines.private_mean import PALETTE
from engine.spaces import make_manifold
from engine.viz import palette
from engine.viz.animation import add_parameter_frames
from engine.viz.tangent_view import tangent_coordinates, tangent_view_figure
from ui import controls, state
from ui.playground.compute import private_means
from ui.playground.spaces import Settings
from ui.playground.views import figure

KEY = "anim"
#: Spaces whose figure animates (the 3D sphere; 2D views keep the ε slider of the sidebar).
ANIMATED_SPACES = ("sphere",)
#: The ε grid of the frames: log-spaced over the sidebar slider's range, plus the chosen ε.
EPSILON_GRID = tuple(float(f"{e:.2g}") for e in np.geomspace(0.1, 10.0, 21))


#: Caption under the tangent-plane view.
TANGENT_CAPTION = (
    "Each release is drawn at its distance and direction from the true mean (the sphere unrolled around the "
    "mean: distance from the centre = geodesic error, in radians; dotted circle = the data radius r). This view "
    "follows its slider at once; the sphere above redraws its whole 3D scene for every frame.")


def available(settings: Settings) -> bool:
    """Whether the animation applies: the sphere with the exact Riemannian Laplace selected."""
    return settings.space in ANIMATED_SPACES and "exact" in settings.mechanisms


def toggle(settings: Settings, keys: list[str]) -> bool:
    """The sidebar switch (bound to ``?anim=``) when the animation applies; appends its URL key."""
    if not available(settings):
        return False
    on = controls.toggle(
        "Animate ε inside the chart", KEY, default=False,
        help="Adds a slider and a play button under the sphere: the exact Riemannian Laplace releases for ε "
             "from 0.1 to 10, built from the same random draws, so each release slides towards the mean as ε "
             "grows. Scrubbing runs in your browser, without recomputing.")
    keys.append(KEY)
    state.sync([KEY])
    return bool(on)


def epsilon_grid(epsilon: float) -> list[float]:
    """The frames' ε values: ``EPSILON_GRID`` and the chosen ε, ascending."""
    return sorted(set(EPSILON_GRID) | {float(epsilon)})


@st.cache_data(max_entries=8, show_spinner=False)
def epsilon_frames(settings: Settings) -> dict:
    """Exact Laplace releases around the true mean at every ε of the grid (common random numbers).

    Returns
    -------
    dict
        ``epsilons`` (the ε with a normalisable law, ascending), ``sigmas`` (Δ/ε) and ``frames``
        ``(E, releases, *point_shape)``; empty lists when Theorem 2 gives no Δ.
    """
    result = private_means(settings)
    if result["theorem2"] is None:
        return dict(epsilons=[], sigmas=[], frames=None)
    manifold = make_manifold(settings.space, settings.k)
    delta = result["theorem2"]["sensitivity"]
    epsilons = [e for e in epsilon_grid(settings.epsilon) if delta / e < scale_limit(manifold)]
    sigmas = [delta / e for e in epsilons]
    rng = np.random.default_rng(np.random.SeedSequence([settings.seed, 15]))
    frames = laplace_common_draws(manifold, result["mean"], sigmas, size=settings.releases, rng=rng)
    return dict(epsilons=epsilons, sigmas=sigmas, frames=frames)


@st.cache_data(max_entries=8, show_spinner=False)
def animated_figure(settings: Settings) -> go.Figure:
    """The playground's figure with the exact Laplace cloud animated over ε (slider and play button)."""
    fig = go.Figure(figure(settings))
    computed = epsilon_frames(settings)
    label = palette.label(PALETTE["exact"])
    index = next((i for i, t in enumerate(fig.data) if t.name == label), None)
    if index is None or not computed["epsilons"]:
        return fig
    mean = np.asarray(private_means(settings)["mean"])
    distances = np.arccos(np.clip(computed["frames"] @ mean, -1.0, 1.0))
    coordinates = [dict(x=f[:, 0], y=f[:, 1], z=f[:, 2], customdata=d) for f, d in zip(computed["frames"], distances)]
    labels = [f"{e:g}" for e in computed["epsilons"]]
    active = computed["epsilons"].index(float(settings.epsilon)) if settings.epsilon in computed["epsilons"] else 0
    return add_parameter_frames(fig, trace=index, coordinates=coordinates, labels=labels, active=active,
                                prefix="ε = ", name=f"{label} (ε on the slider below)")


@st.cache_data(max_entries=8, show_spinner=False)
def tangent_figure(settings: Settings) -> go.Figure | None:
    """The exact Laplace frames seen from the true mean (Log coordinates), animated over ε without
    redraws; axes fixed over all frames so the cloud visibly shrinks. None when there are no frames."""
    computed = epsilon_frames(settings)
    if not computed["epsilons"]:
        return None
    mean = np.asarray(private_means(settings)["mean"])
    coords = tangent_coordinates(mean, computed["frames"])
    distances = np.linalg.norm(coords, axis=-1)
    active = computed["epsilons"].index(float(settings.epsilon)) if settings.epsilon in computed["epsilons"] else 0
    label = palette.label(PALETTE["exact"])
    fig = tangent_view_figure(mean=mean, releases=computed["frames"][active], name=label, key=PALETTE["exact"],
                              radius=settings.radius, extent=1.05 * float(distances.max()),
                              title="The same releases seen from the true mean")
    coordinates = [dict(x=c[:, 0], y=c[:, 1], customdata=d) for c, d in zip(coords, distances)]
    add_parameter_frames(fig, trace=0, coordinates=coordinates, labels=[f"{e:g}" for e in computed["epsilons"]],
                         active=active, prefix="ε = ", name=f"{label} (ε on the slider below)", redraw=False)
    # Below the axis title and above the legend: the slider and its buttons, then the legend.
    fig.update_layout(height=560, margin=dict(b=230), legend=dict(y=-0.62))
    fig.layout.sliders[0].update(y=-0.17, x=0.2, len=0.8)
    fig.layout.updatemenus[0].update(y=-0.17)
    return fig
