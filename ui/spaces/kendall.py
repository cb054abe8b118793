"""Kendall's shape space on the pages: the mean outline and private outlines rotated onto it."""

from __future__ import annotations

from engine.spaces import SAMPLER_SPACES
from engine.viz.shapes import shapes_figure
from ui.spaces.view import SpaceView

# The shapes view draws at most this many private outlines per mechanism (more become a blur).
KENDALL_MAX_OUTLINES = 50


def _figure(result, clouds, settings, hold):
    outlines = {name: c[:KENDALL_MAX_OUTLINES] for name, c in clouds.items()}
    return shapes_figure(mean=result.mean, releases=outlines, data=result.data, release_opacity=0.3,
                         height=640)


def _coordinates(points):
    columns = {}
    for j in range(points.shape[1]):
        columns[f"x{j + 1}"] = points[:, j, 0]
        columns[f"y{j + 1}"] = points[:, j, 1]
    return columns


VIEW = SpaceView(
    key="kendall",
    radius_slider=(0.02, 0.75, 0.01),
    # 60–85 steps of autocorrelation on the 12-dimensional shape space of 8 landmarks.
    mh_thin=100,
    caption=f"The thick black outline is the true mean shape and each thin outline one private mean shape rotated "
            f"onto it (at most {KENDALL_MAX_OUTLINES} per mechanism): look at how much the landmarks wobble.",
    error_note="Euclidean releases are noisy pre-shapes, never of unit size: each is scaled back to a shape "
               "before measuring it.",
    figure=_figure,
    coordinates=_coordinates,
    volume_tex=rf"\sin^{{2m-1}}\rho\,\cos\rho,\ \rho \in [0, \pi/2],\ m = k - 2 = {SAMPLER_SPACES['kendall'].k - 2}",
    figure1=None,
)
