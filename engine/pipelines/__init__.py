"""The paths a user takes, as parameter object in, result object out (``DESIGN.md`` §1).

Pages cache these calls; ``python -m engine.pipelines NAME ...`` runs them from the command line.
"""

from engine.pipelines.checks import Check
from engine.pipelines.private_mean import MECHANISMS, PrivateMeanConfig, PrivateMeanResult, run

__all__ = ["MECHANISMS", "Check", "PrivateMeanConfig", "PrivateMeanResult", "run"]
