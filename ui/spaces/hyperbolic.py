"""The hyperbolic plane H² on the pages: the Poincaré disk, with geodesic circles around the mean."""

from __future__ import annotations

import numpy as np

from engine.manifolds import Hyperbolic
from engine.viz.poincare import poincare_figure
from ui.spaces.view import SpaceView

# Releases farther than this from the mean are not drawn on the Poincaré disk: tanh(ρ/2) rounds
# to 1 in double precision beyond ρ ≈ 37, and the rim is unreadable long before.
POINCARE_MAX_DIST = 25.0
_H2 = Hyperbolic(2)


def _drawn(mean, cloud) -> np.ndarray:
    """Which releases the Poincaré disk shows: points of H² (Euclidean releases outside the unit disk are
    not) within ``POINCARE_MAX_DIST`` of the mean."""
    on = _H2.belongs(cloud)
    return on & (np.where(on, _H2.dist(mean, np.where(on[:, None], cloud, _H2.origin)), np.inf) <= POINCARE_MAX_DIST)


def _figure(result, clouds, settings, hold):
    shown = {name: c[_drawn(result.mean, c)] for name, c in clouds.items()}
    return poincare_figure(data=result.data, mean=result.mean, releases=shown, edges=result.edges, height=640)


def _hidden(result, clouds) -> int:
    """Releases too far out to draw on the Poincaré disk, or off H²."""
    return int(sum((~_drawn(result.mean, c)).sum() for c in clouds.values()))


def _coordinates(points):
    disk = _H2.to_ambient(points)
    return dict(x0=points[:, 0], x1=points[:, 1], x2=points[:, 2], poincare_u=disk[:, 0], poincare_v=disk[:, 1])


VIEW = SpaceView(
    key="hyperbolic",
    radius_slider=(0.1, 3.0, 0.05),
    mh_thin=25,
    caption="Dotted geodesic circles of radius 0.5, 1 and 2 surround the true mean: the same hyperbolic "
            "distance looks shorter towards the rim.",
    error_note="Euclidean releases are points of the Poincaré disk: those outside the unit disk are no point of H² "
               "(counted off the manifold) and have no geodesic error.",
    figure=_figure,
    coordinates=_coordinates,
    volume_tex=r"\sinh\rho",
    figure1=None,
    hidden_releases=_hidden,
    hidden_caption=f"{{count}} releases lie more than {POINCARE_MAX_DIST:g} from the mean or outside the disk "
                   f"(off H²) and are not drawn.",
)
