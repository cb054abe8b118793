"""Page helpers of "6 · Private regression": controls, the cached engine call and the views."""

from ui.regression.compute import PAGE_PAIRS, figure1, main_figure, private_regression
from ui.regression.controls import PRESETS, Settings, sidebar
from ui.regression.views import show_assumptions, show_diagnostics, show_guarantee, show_table1

__all__ = ["PAGE_PAIRS", "PRESETS", "Settings", "figure1", "main_figure", "private_regression", "show_assumptions",
           "show_diagnostics", "show_guarantee", "show_table1", "sidebar"]
