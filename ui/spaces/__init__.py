"""The pages' side of each space: one view module per space of ``engine.spaces`` (``registry.VIEWS``)."""

from ui.spaces.registry import VIEWS, view
from ui.spaces.view import Figure1View, SpaceView

__all__ = ["VIEWS", "Figure1View", "SpaceView", "view"]
