"""Sensitivity page: the sidebar, the cached simulation and its views.

``controls.sidebar`` turns the widgets into ``Settings``; ``compute.compute`` runs
``engine.pipelines.sensitivity`` one sample size at a time under a progress bar; ``views.show``
draws Theorem 2's numbers, the figures of ``engine.viz.sensitivity``, the sections and the downloads.
"""

from ui.sensitivity.compute import compute
from ui.sensitivity.controls import PAPER_RADIUS, PRESETS, RADIUS_RANGE, SPACES, Settings, sidebar
from ui.sensitivity.views import SECTION_KEY, SECTIONS, show

__all__ = ["PAPER_RADIUS", "PRESETS", "RADIUS_RANGE", "SECTIONS", "SPACES", "SECTION_KEY", "Settings", "compute", "show",
           "sidebar"]
