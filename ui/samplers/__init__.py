"""Samplers page: the sidebar, the comparison under a progress bar, and its views.

``controls.sidebar`` turns the widgets into ``Settings``; ``compute.compute`` runs
``engine.pipelines.sampler_comparison`` in a shared ``ResultStore`` so a ``DelayedProgress`` bar follows
the MH chains, then builds the cached figures of ``engine.viz.samplers``; ``views.show`` draws the
metrics, the charts and the downloads.
"""

from ui.samplers.compute import compare, compute, figures
from ui.samplers.controls import JACOBIANS, PRESETS, SPACES, Settings, sidebar, sigma_range
from ui.samplers.views import show

__all__ = ["JACOBIANS", "PRESETS", "SPACES", "Settings", "compare", "compute", "figures", "show", "sidebar",
           "sigma_range"]
