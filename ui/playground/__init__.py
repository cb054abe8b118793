"""Private mean playground: the sidebar, the one cached computation and its views.

``controls.sidebar`` turns the widgets into a ``PrivateMeanConfig``; ``compute.private_means`` samples the
data, computes the Fréchet mean, calibrates each mechanism from public parameters only and draws
the releases (``data``, ``releases`` and ``checks`` hold its parts); ``views`` and ``slides`` turn
the result into figures, tables and boxes. The names the page uses are re-exported here.
"""

from ui.playground.compute import private_means
from ui.playground.controls import sidebar
from ui.playground.slides import slides_button
from ui.playground.spaces import CAPTIONS, ERROR_NOTES, MECHANISMS, SPACES, ZOOM_NOTE
from ui.playground.views import (
    error_table,
    figure,
    hidden_caption,
    points_table,
    show_checks,
    show_data_note,
    show_guarantees,
    show_noise_scale,
)

__all__ = [
    "CAPTIONS",
    "ERROR_NOTES",
    "MECHANISMS",
    "SPACES",
    "ZOOM_NOTE",
    "error_table",
    "figure",
    "hidden_caption",
    "private_means",
    "points_table",
    "show_checks",
    "show_data_note",
    "show_guarantees",
    "show_noise_scale",
    "sidebar",
    "slides_button",
]
