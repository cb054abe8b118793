"""Private optimization page (DP-RGD of Han, Mishra, Jawanpuria & Gao): the sidebar, the cached engine
calls and their views.

``controls.sidebar`` turns the widgets into one frozen ``Settings``; ``compute.run`` runs the
problem and the DP-RGD run of ``engine.pipelines.private_optimization`` under a progress bar;
``views.show`` draws the numbers and one section at a time (``ui.sections``), computing only the chosen one
(``compute.accountant``, ``compute.study``, ``compute.completion``); ``figures`` builds the charts and
``apps`` holds the five applications, their controls' ranges and the paper's presets.
"""

from ui.optimization.compute import run
from ui.optimization.controls import Settings, sidebar
from ui.optimization.views import show

__all__ = ["Settings", "run", "show", "sidebar"]
