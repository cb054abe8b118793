"""The playground's animations: the release clouds over a grid of ε, or the exact Riemannian Laplace
cloud over a grid of the sample size n, inside the chart.

Over ε, every shown mechanism releases at each frame's ε (``engine.pipelines.epsilon_frames``), so a
frame compares the mechanisms at one budget; the exact Laplace releases of every ε come from one set of
draws (``engine.mechanisms.common_draws``): each release keeps its direction and slides towards the
true mean as ε grows. Over n, frame n takes
the first n records of the page's data set (in a seeded random order), their true Fréchet mean, Theorem
2's Δ(n) and σ = Δ(n)/ε at the sidebar's ε (``engine.pipelines.sample_size_frames``); each release
keeps its uniform and its direction (parallel-transported from the mean at the sidebar's n), so the
cloud tightens around a mean that settles as n grows, and the data and the mean follow the slider
too. The figure carries one plotly frame per value with a slider and a play button, so scrubbing runs
in the browser only. Each frame is an exact draw of the mechanism at its value; the frames share their
randomness, so only one of them could ever be published.

Beside the sphere, ``tangent_figure`` animates the same frames in the tangent plane at each frame's
true mean (``engine.viz.tangent_view``): a 2D chart whose frames move only the markers, so it follows
the slider at once where the 3D scene has to re-render its WebGL canvas for every frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from engine.manifolds import Sphere
from engine.mechanisms import specs
from engine.pipelines import epsilon_frames as eps_engine
from engine.pipelines import sample_size_frames as sizes_engine
from engine.pipelines.private_mean import PrivateMeanConfig
from engine.spaces import make_manifold
from engine.viz import palette
from engine.viz.animation import add_parameter_frames
from engine.viz.sphere import beyond_dome, release_traces
from engine.viz.tangent_view import carried_basis, tangent_coordinates, tangent_view_figure
from ui import controls, state
from ui.figure_cache import cache_figures
from ui.playground.compute import private_means
from ui.playground.views import figure
from ui.spaces import view

#: The mechanism the chart animates: the one whose releases at every ε share their draws (the exact Laplace).
ANIMATED = next(spec for spec in specs.PLAYGROUND if spec.common_draws)

KEY = "anim"
#: What the chart animates (URL value → label), bound to ``?anim_over=``.
OVER_KEY = "anim_over"
OVER = {"eps": "the privacy budget ε", "n": "the sample size n"}
#: The ε grid of the frames: log-spaced over the sidebar slider's range, plus the chosen ε.
EPSILON_GRID = tuple(float(f"{e:.2g}") for e in np.geomspace(0.1, 10.0, 21))
_S2 = Sphere(2)
#: Pixels of the 3D figure's own height its slider and play button take, in a strip between the scene and
#: the legend: the figure keeps its height, so the chart stays above the fold at 1280×720.
SLIDER_PX = 64
#: Legend rank of the animated cloud: after every other entry (plotly's default rank is 1000).
LAST_IN_LEGEND = 1001

#: Caption under the tangent-plane view.
TANGENT_CAPTION = (
    "Each release is drawn at its distance and direction from the true mean (the sphere unrolled around the "
    "mean: distance from the centre = geodesic error, in radians; dotted circle = the data radius r). This view "
    "follows its slider at once; the sphere above redraws its whole 3D scene for every frame.")
#: Caption under the sphere when it animates n.
SIZE_CAPTION = (
    "On the slider, n is the number of records: frame n uses the first n records of this data set (taken in a "
    "random order), their true Fréchet mean and Theorem 2's sensitivity Δ(n) ∝ 1/n at the sidebar's ε. Each "
    "release keeps its direction and its random quantile, so the cloud tightens as n grows. The other "
    "mechanisms stay at the sidebar's n.")


def available_for(space: str) -> bool:
    """Whether the space's figure animates and exports slides (its view says: the 3D sphere; 2D views
    keep the ε slider of the sidebar)."""
    return view(space).animated


def available(settings: PrivateMeanConfig) -> bool:
    """Whether the animation applies: an animated space with the exact Riemannian Laplace selected."""
    return available_for(settings.space) and ANIMATED.key in settings.mechanisms


def control(settings: PrivateMeanConfig, keys: list[str]) -> str | None:
    """The sidebar switch (``?anim=``) and, when on, what the chart animates (``?anim_over=``); appends
    their URL keys. Returns ``None`` (no animation), ``"eps"`` or ``"n"``."""
    state.own([KEY, OVER_KEY])
    if not available(settings):
        return None
    on = controls.toggle(
        "Animate inside the chart", KEY, default=False,
        help="Adds a slider and a play button under the sphere: every shown mechanism's releases for ε "
             "from 0.1 to 10 (all at the slider's ε), or the exact Riemannian Laplace releases for n from 5 "
             "to the chosen n, built from the same random draws, so each release slides towards the mean as "
             "ε or n grows. Scrubbing runs in your browser, without "
             "recomputing.")
    keys.append(KEY)
    shown = [KEY]
    over = None
    if on:
        over = controls.select(
            "The chart animates", OVER_KEY, OVER, default="eps",
            help="ε: the same data at every privacy budget. n: the first n records of the same data set at the "
                 "sidebar's ε, with their own true mean and sensitivity.")
        keys.append(OVER_KEY)
        shown.append(OVER_KEY)
    state.sync(shown)
    return over


def epsilon_grid(epsilon: float) -> list[float]:
    """The frames' ε values: ``EPSILON_GRID`` and the chosen ε, ascending."""
    return sorted(set(EPSILON_GRID) | {float(epsilon)})


@st.cache_data(max_entries=8, show_spinner=False)
def epsilon_frames(settings: PrivateMeanConfig) -> eps_engine.EpsilonFrames | None:
    """Every chosen mechanism released at every ε of the grid on the page's records
    (``engine.pipelines.epsilon_frames``); ``None`` when Theorem 2 gives no Δ."""
    result = private_means(settings)
    if result.theorem2 is None:
        return None
    return eps_engine.epsilon_frames(settings, result.data, result.m0, result.mean,
                                     result.theorem2.sensitivity, epsilon_grid(settings.epsilon))


@st.cache_data(max_entries=8, show_spinner=False)
def size_frames(settings: PrivateMeanConfig) -> sizes_engine.SampleSizeFrames | None:
    """Exact Laplace releases of the mean of the first n records for n on ``sample_size_grid`` up to the
    records used (``engine.pipelines.sample_size_frames``); ``None`` when Theorem 2 gives no Δ."""
    result = private_means(settings)
    if result.theorem2 is None:
        return None
    rng = np.random.default_rng(np.random.SeedSequence([settings.seed, 15, 2]))
    return sizes_engine.sample_size_frames(
        make_manifold(settings.space, settings.k), result.data, sizes=sizes_engine.sample_size_grid(result.n_used),
        radius=settings.radius, epsilon=settings.epsilon, size=settings.releases, rng=rng)


@dataclass(frozen=True)
class Frames:
    """What both charts animate: slider ``labels`` (``prefix`` before them), the frame drawn first,
    each frame's true mean ``(F, 3)``, the exact Laplace releases ``(F, m, 3)``, over ε the other
    mechanisms' releases (palette name -> ``(F, m, 3)``) and over n the records."""

    over: str
    prefix: str
    labels: list[str]
    active: int
    means: np.ndarray
    releases: np.ndarray
    data: list[np.ndarray] | None = None
    others: dict[str, np.ndarray] = field(default_factory=dict)


def frames(settings: PrivateMeanConfig, over: str) -> Frames | None:
    """The frames of the animation over ``over`` (``"eps"`` or ``"n"``); ``None`` when there are none."""
    if over not in OVER:
        raise ValueError(f"over must be one of {', '.join(OVER)}, got {over!r}")
    result = private_means(settings)
    if over == "n":
        computed = size_frames(settings)
        if computed is None:
            return None
        data = result.data[computed.order]
        return Frames(over=over, prefix="n = ", labels=[str(n) for n in computed.sizes],
                      active=len(computed.sizes) - 1, means=computed.means, releases=computed.releases,
                      data=[data[:n] for n in computed.sizes])
    computed = epsilon_frames(settings)
    if computed is None or not computed.epsilons:
        return None
    epsilons = computed.epsilons
    active = epsilons.index(float(settings.epsilon)) if settings.epsilon in epsilons else 0
    means = np.broadcast_to(np.asarray(result.mean, dtype=float), (len(epsilons), 3))
    others = {key: frames for key, frames in computed.releases.items() if key != ANIMATED.key}
    return Frames(over=over, prefix="ε = ", labels=[f"{e:g}" for e in epsilons], active=active, means=means,
                  releases=computed.releases[ANIMATED.key], others=others)


def _trace_index(fig: go.Figure, name: str) -> int | None:
    return next((i for i, t in enumerate(fig.data) if t.name == name), None)


def _other_clouds(fig: go.Figure, animation: Frames) -> dict:
    """Trace index -> one coordinate dict per frame for every trace of the other mechanisms' clouds
    (markers with their hover data, and gap segments), as ``sphere_figure`` draws them."""
    moving = {}
    for name, clouds in animation.others.items():
        drawn = [release_traces(name, cloud, mean) for cloud, mean in zip(clouds, animation.means)]
        for position, trace in enumerate(drawn[0]):
            index = _trace_index(fig, trace.name)
            if index is not None:
                moving[index] = [dict(x=t[position].x, y=t[position].y, z=t[position].z,
                                      **({} if t[position].customdata is None else {"customdata": t[position].customdata}))
                                 for t in drawn]
    return moving


@cache_figures(max_entries=8)
def animated_figure(settings: PrivateMeanConfig, over: str = "eps") -> go.Figure:
    """The playground's figure with the exact Laplace cloud animated over ``over`` (slider and play
    button). Over ε, the scene is the static figure's (the data and the sidebar's releases) and every other mechanism's cloud (and its
    gaps to the sphere) moves to the same ε; over n, the scene holds every frame's releases and the data
    and the true mean move too."""
    animation = frames(settings, over)
    if animation is None:
        return go.Figure(figure(settings))
    # Over n the scene holds every frame; over ε it stays on the data and the sidebar's releases (the
    # releases at ε = 0.1 would frame the whole sphere and shrink the data into a dot).
    fig = go.Figure(figure(settings, hold=animation.releases.reshape(-1, 3) if over == "n" else None))
    label = palette.label(ANIMATED.key)
    index = _trace_index(fig, label)
    if index is None:
        return fig
    distances = _S2.dist(animation.means[:, None], animation.releases)
    coordinates = [dict(x=f[:, 0], y=f[:, 1], z=f[:, 2], customdata=d) for f, d in zip(animation.releases, distances)]
    also = _other_clouds(fig, animation)
    if over == "n":
        mean_index, data_index = _trace_index(fig, palette.label("true mean")), _trace_index(fig, palette.label("data"))
        m0 = np.asarray(private_means(settings).m0)
        if mean_index is not None:
            also[mean_index] = [dict(x=m[None, 0], y=m[None, 1], z=m[None, 2]) for m in animation.means]
        if data_index is not None:
            also[data_index] = [dict(x=d[:, 0], y=d[:, 1], z=d[:, 2], customdata=_S2.dist(m0, d))
                                for d in animation.data]
    add_parameter_frames(fig, trace=index, coordinates=coordinates, labels=animation.labels,
                         active=animation.active, prefix=animation.prefix, also=also,
                         name=f"{label} ({animation.prefix.split()[0]} on the slider below)")
    # The slider and its buttons in a strip at the bottom of the plotting area, the scene above them and the
    # legend below, as in the still figure; the animated cloud's long name last there, where no entry follows it.
    strip = SLIDER_PX / (fig.layout.height - fig.layout.margin.t - fig.layout.margin.b)
    fig.update_layout(scene=dict(domain=dict(y=[strip, 1.0])))
    fig.data[index].legendrank = LAST_IN_LEGEND
    fig.layout.sliders[0].update(y=strip, pad=dict(t=0, b=0))
    fig.layout.updatemenus[0].update(y=strip, pad=dict(t=0, r=10))
    return fig


def beyond_dome_caption(settings: PrivateMeanConfig, over: str = "eps") -> str:
    """What the caption says of the releases the animation's frames put beyond the drawn dome (over ε its scene
    stays on the data and the sidebar's releases): how many at the first and the last frame where some are,
    from which frame on none is, and, when those frames lie below the sidebar's value, how to widen the
    view; "" when every frame's releases are in the scene."""
    animation = frames(settings, over)
    if animation is None:
        return ""
    fig = animated_figure(settings, over)
    clouds = [animation.releases, *animation.others.values()]
    counts = [sum(int(beyond_dome(fig, cloud[s]).sum()) for cloud in clouds) for s in range(len(animation.labels))]
    some = [s for s, count in enumerate(counts) if count]
    if not some:
        return ""
    first, last = some[0], some[-1]
    at = [f"{counts[first]} of {sum(cloud.shape[1] for cloud in clouds)} releases at "
          f"{animation.prefix}{animation.labels[first]} on the slider"]
    if last != first:
        at.append(f"{counts[last]} at {animation.prefix}{animation.labels[last]}")
    if last + 1 < len(counts):
        at.append(f"none from {animation.prefix}{animation.labels[last + 1]} on")
    text = "Beyond the drawn dome: " + ", ".join(at) + "."
    if first < animation.active:
        text += (f" The scene stays framed on the data and the sidebar's releases: a smaller "
                 f"{animation.prefix.split()[0]} in the sidebar widens it.")
    return text


@cache_figures(max_entries=8)
def tangent_figure(settings: PrivateMeanConfig, over: str = "eps") -> go.Figure | None:
    """The exact Laplace frames seen from each frame's true mean (Log coordinates in the basis carried
    from the mean of the chosen settings), animated over ``over`` without redraws; axes fixed over all
    frames so the cloud visibly shrinks. None when there are no frames."""
    animation = frames(settings, over)
    if animation is None:
        return None
    reference = animation.means[animation.active]
    bases = carried_basis(reference, animation.means)
    coords = np.stack([tangent_coordinates(m, f, basis=b) for m, f, b in zip(animation.means, animation.releases, bases)])
    distances = np.linalg.norm(coords, axis=-1)
    label = palette.label(ANIMATED.key)
    active = animation.active
    title = "The same releases seen from the true mean" + (" of each frame's n records" if over == "n" else "")
    fig = tangent_view_figure(mean=animation.means[active], releases=animation.releases[active], name=label,
                              key=ANIMATED.key, radius=settings.radius, extent=1.05 * float(distances.max()),
                              title=title)
    coordinates = [dict(x=c[:, 0], y=c[:, 1], customdata=d) for c, d in zip(coords, distances)]
    add_parameter_frames(fig, trace=0, coordinates=coordinates, labels=animation.labels, active=active,
                         prefix=animation.prefix, name=f"{label} ({animation.prefix.split()[0]} on the slider below)",
                         redraw=False)
    # Below the axis title and above the legend: the slider and its buttons, then the legend.
    fig.update_layout(height=560, margin=dict(b=230))
    fig.layout.sliders[0].update(y=-0.17, x=0.2, len=0.8)
    fig.layout.updatemenus[0].update(y=-0.17)
    return fig
