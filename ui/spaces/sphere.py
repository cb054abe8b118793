"""The sphere S² on the pages: a rotatable 3D scene, animated and exported for slides."""

from __future__ import annotations

from engine.viz.sphere import sphere_figure
from ui.spaces.view import Figure1View, SpaceView

#: Height (px) that keeps the whole chart above the fold at 1280×720 (its top sits at 374 px there).
PLAYGROUND_HEIGHT = 340


def _figure(result, clouds, settings, hold):
    return sphere_figure(data=result.data, mean=result.mean, releases=clouds, center=result.m0,
                         radius=settings.radius, resolution=48, height=PLAYGROUND_HEIGHT, hold=hold)


VIEW = SpaceView(
    key="sphere",
    radius_slider=(0.05, 1.5, 0.005),
    mh_thin=25,
    caption="Seen from outside, over the data (lower when a cloud floats off the sphere): Riemannian releases stay on the sphere around the true mean (black diamond), while "
            "Euclidean ones float above and below it (orange segments join each to the sphere). Drag to "
            "rotate.",
    error_note="Euclidean releases are projected back onto the sphere before measuring it.",
    figure=_figure,
    coordinates=lambda points: dict(zip("xyz", points.T)),
    volume_tex=r"\sin\rho,\ \rho \in [0, \pi]",
    figure1=Figure1View(
        radius_range=(0.05, 1.5),
        ambient_note="On the sphere the chord is shorter than the arc, so the ambient sensitivity is the smaller one; "
                     "but ambient noise pushes the release off the sphere (see the Utility page).",
        setting="S² with r = π/8",
        setting_detail=" and the supplement's numerical boundary constant, the paper's choice and not a proven bound"),
    animated=True,
)
