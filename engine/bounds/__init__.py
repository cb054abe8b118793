"""Sensitivity and utility bounds as pure functions with paper references, one family per file.

* ``frechet``: radius limits, Theorem 2's sensitivity of the Fréchet mean, Lemma 1's gradient
  sensitivity, log_{m0}'s Lipschitz constant, ambient radii, the boundary constant
  (Reimherr, Bharath & Soto 2021);
* ``utility``: Theorems 3 and 4 of the same paper (the Laplace utility bound, the ambient inflation);
* ``regression``: Table 1 of Kulkarni & Soto (private geodesic regression), imported from
  ``engine.bounds.regression``.

Formulas read the space's curvature bounds and declared capabilities, never its name.
"""

from engine.bounds.frechet import (
    RadiusLimits,
    ambient_radius,
    ambient_sensitivity,
    boundary_log_constant,
    check_radius,
    curvature_factor,
    frechet_gradient_sensitivity,
    frechet_mean_sensitivity,
    log_lipschitz,
    radius_limits,
    tangent_mean_sensitivity,
    theorem2_domain,
)
from engine.bounds.utility import ambient_inflation_factor, jacobian_ratio, laplace_utility_bound

__all__ = [
    "RadiusLimits",
    "ambient_inflation_factor",
    "ambient_radius",
    "ambient_sensitivity",
    "boundary_log_constant",
    "check_radius",
    "curvature_factor",
    "frechet_gradient_sensitivity",
    "frechet_mean_sensitivity",
    "jacobian_ratio",
    "laplace_utility_bound",
    "log_lipschitz",
    "radius_limits",
    "tangent_mean_sensitivity",
    "theorem2_domain",
]
