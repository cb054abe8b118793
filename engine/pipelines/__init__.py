"""The paths a user takes, as parameter object in, result object out (``DESIGN.md`` §1).

Pages cache these calls; ``python -m engine.pipelines NAME ...`` runs them from the command line.

Names: a pipeline's parameter object is its ``*Config`` (``PrivateMeanConfig``), as a study's is its
``Config`` (``engine.pipelines.studies``); ``settings`` are their plain JSON form (a ``--settings`` file, a
page's download); a page's ``Settings`` (``ui/*/controls.py``) are its sidebar's values, which make the
pipeline's config (``Settings.config``) and add what only the page draws.
"""

from engine.pipelines.checks import Check
from engine.pipelines.private_mean import MECHANISMS, PrivateMeanConfig, PrivateMeanResult, run

__all__ = ["MECHANISMS", "Check", "PrivateMeanConfig", "PrivateMeanResult", "run"]
