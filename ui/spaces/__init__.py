"""The pages' side of each space: one view module per space of ``engine.spaces`` (``registry.VIEWS``).

Nothing here imports Streamlit, so a notebook draws a result with the page's own builders.
"""

from ui.spaces.figure import clouds, space_figure
from ui.spaces.registry import VIEWS, view
from ui.spaces.view import Figure1View, SpaceView

__all__ = ["VIEWS", "Figure1View", "SpaceView", "clouds", "space_figure", "view"]
