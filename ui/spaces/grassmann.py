"""Lines of R³, Gr(3, 1), on the pages: each line as its antipodal pair on the unit sphere."""

from __future__ import annotations

from engine.viz.lines import lines_figure
from ui.spaces.view import SpaceView


def _figure(result, clouds, settings, hold):
    return lines_figure(data=result.data, mean=result.mean, releases=clouds, center=result.m0,
                        radius=settings.radius, height=640)


VIEW = SpaceView(
    key="grassmann",
    radius_slider=(0.05, 0.75, 0.005),
    mh_thin=25,
    caption="Each line through the origin meets the sphere in two opposite points, so every record and release "
            "appears twice; the black axis is the true mean line. Drag to rotate.",
    error_note="The geodesic error is the angle between lines; Euclidean releases are noisy projectors xxᵀ rounded "
               "to the nearest line (their top eigenvector).",
    figure=_figure,
    coordinates=lambda points: dict(zip("xyz", points[..., 0].T)),
    volume_tex=r"\sin\rho,\ \rho \in [0, \pi/2]",
    figure1=None,
)
