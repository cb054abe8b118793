"""Private regression page (K-norm gradient releases of a geodesic regression, Kulkarni & Soto): the
sidebar, the cached engine calls and their views.

``controls.sidebar`` turns the widgets into one frozen ``Settings`` (``Settings.config`` is the
engine's ``RegressionConfig``); ``compute.compute`` runs ``engine.pipelines.private_regression`` under a
spinner; ``views.show`` draws one section at a time (``ui.sections``), computing only what the chosen one shows (the private run
for the first two, the Figure 1 study in its own); ``figures`` picks the engine's figures for a run.
"""

from ui.regression.compute import compute
from ui.regression.controls import PRESETS, Settings, sidebar
from ui.regression.views import SECTION_KEY, SECTIONS, show

__all__ = ["PRESETS", "SECTIONS", "SECTION_KEY", "Settings", "compute", "show", "sidebar"]
