"""Private subspaces page: the sidebar, the cached computations and their views.

``controls.sidebar`` turns the widgets into a ``PrivateSubspaceConfig``; ``compute`` runs the
private-subspace pipeline and the cells of the dimension sweep (cached); ``views`` draws the 3D
figure, the numbers, the sweep and the explanation.
"""

from ui.subspaces.compute import main_figure, private_subspaces
from ui.subspaces.controls import sidebar
from ui.subspaces.views import (
    WHY_D_DROPS_OUT,
    caption,
    dimension_sweep,
    releases_table,
    show_guarantee,
    show_numbers,
    sweep_caption,
    sweep_figure,
    sweep_settings,
)

__all__ = ["WHY_D_DROPS_OUT", "caption", "dimension_sweep", "main_figure", "private_subspaces", "releases_table",
           "show_guarantee", "show_numbers", "sweep_caption", "sweep_figure", "sweep_settings", "sidebar"]
