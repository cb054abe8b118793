"""Non-private statistics and objectives on manifolds."""

from engine.estimators.ambient_mean import ambient_mean
from engine.estimators.erm import ERMProblem, RGDResult, riemannian_gradient_descent
from engine.estimators.frechet_mean import FrechetMeanResult, frechet_mean
from engine.estimators.matrix_completion import MatrixCompletion
from engine.estimators.riemannian_problems import FrechetMeanProblem, PrincipalEigenvector

__all__ = ["ERMProblem", "FrechetMeanProblem", "FrechetMeanResult", "MatrixCompletion", "PrincipalEigenvector",
           "RGDResult", "ambient_mean", "frechet_mean", "riemannian_gradient_descent"]
