"""Utility page: the sidebar, the cached simulation and its views.

``controls.sidebar`` turns the widgets into ``Settings``; ``compute.compute`` calibrates the noise
and runs ``engine.pipelines.utility`` one sample size at a time under a progress bar; ``views.show``
draws the noise scales, the figures of ``engine.viz.utility``, the sections and the downloads.
"""

from engine.pipelines.utility import N_GRIDS
from engine.viz.utility import BOUND_NAME
from ui.utility.compute import compute
from ui.utility.controls import PRESETS, Settings, sidebar
from ui.utility.views import SECTION_KEY, SECTIONS, show

__all__ = ["BOUND_NAME", "N_GRIDS", "PRESETS", "SECTIONS", "SECTION_KEY", "Settings", "compute", "show", "sidebar"]
