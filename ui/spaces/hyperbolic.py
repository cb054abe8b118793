"""The hyperbolic plane H² on the pages: the Poincaré disk, with geodesic circles around the mean."""

from __future__ import annotations

from engine.manifolds import Hyperbolic
from engine.viz.poincare import poincare_figure
from ui.spaces.view import SpaceView

# Releases farther than this from the mean are not drawn on the Poincaré disk: tanh(ρ/2) rounds
# to 1 in double precision beyond ρ ≈ 37, and the rim is unreadable long before.
POINCARE_MAX_DIST = 25.0
_H2 = Hyperbolic(2)


def _figure(result, clouds, settings, hold):
    shown = {name: c[_H2.dist(result["mean"], c) <= POINCARE_MAX_DIST] for name, c in clouds.items()}
    return poincare_figure(data=result["data"], mean=result["mean"], releases=shown, edges=result["edges"], height=640)


def _hidden(result, clouds) -> int:
    """Releases too far out to draw on the Poincaré disk."""
    return int(sum((_H2.dist(result["mean"], c) > POINCARE_MAX_DIST).sum() for c in clouds.values()))


def _coordinates(points):
    disk = _H2.to_poincare(points)
    return dict(x0=points[:, 0], x1=points[:, 1], x2=points[:, 2], poincare_u=disk[:, 0], poincare_v=disk[:, 1])


VIEW = SpaceView(
    key="hyperbolic",
    radius_slider=(0.1, 3.0, 0.05),
    mh_thin=25,
    caption="Dotted geodesic circles of radius 0.5, 1 and 2 surround the true mean: the same hyperbolic "
            "distance looks shorter towards the rim.",
    error_note="Every mechanism here releases a point of H², so none is projected.",
    figure=_figure,
    coordinates=_coordinates,
    volume_tex=r"\sinh\rho",
    figure1=None,
    hidden_releases=_hidden,
    hidden_caption=f"{{count}} releases lie more than {POINCARE_MAX_DIST:g} from the mean and are not drawn.",
)
