"""Non-private statistics and objectives on manifolds."""

from engine.estimators.ambient_mean import ambient_centre, ambient_mean
from engine.estimators.erm import ERMProblem, RGDResult, riemannian_gradient_descent
from engine.estimators.frechet_mean import PAPER_STEP, FrechetMeanResult, frechet_mean, prefix_frechet_means
from engine.estimators.geodesic_regression import GeodesicRegressionResult, geodesic_regression
from engine.estimators.matrix_completion import MatrixCompletion
from engine.estimators.riemannian_problems import FrechetMeanProblem, PrincipalEigenvector

__all__ = ["PAPER_STEP", "ERMProblem", "FrechetMeanProblem", "FrechetMeanResult", "GeodesicRegressionResult", "MatrixCompletion",
           "PrincipalEigenvector", "RGDResult", "ambient_centre", "ambient_mean", "frechet_mean", "geodesic_regression",
           "prefix_frechet_means", "riemannian_gradient_descent"]
