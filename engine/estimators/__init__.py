"""Non-private statistics on manifolds."""

from engine.estimators.frechet_mean import FrechetMeanResult, frechet_mean

__all__ = ["FrechetMeanResult", "frechet_mean"]
