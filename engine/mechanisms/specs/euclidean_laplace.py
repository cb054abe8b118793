"""The ε-DP Euclidean baseline: ℓ2 Laplace noise around the ambient mean, calibrated to its
sensitivity Δ_E = 2 r_E/n (Reimherr et al., supplement §1.4)."""

from __future__ import annotations

from engine.mechanisms.laplace import EuclideanLaplace, euclidean_laplace
from engine.mechanisms.specs.spec import MechanismSpec


def build(manifold, *, epsilon, sensitivity, delta=None, m0=None) -> EuclideanLaplace:
    """The ambient ℓ2 Laplace at σ = Δ_E/ε (both Euclidean baselines build it)."""
    return EuclideanLaplace(manifold=manifold, epsilon=epsilon, sensitivity=sensitivity)


def scale(manifold, *, epsilon, sensitivity, delta=None) -> float:
    """σ_E of ``build`` (``EuclideanLaplace.sigma``)."""
    return build(manifold, epsilon=epsilon, sensitivity=sensitivity).sigma


def draw(manifold, footpoint, sigma, *, rng):
    """Ambient ℓ2 Laplace draws at σ around ``footpoint`` (``euclidean_laplace``)."""
    return euclidean_laplace(manifold, footpoint, sigma, rng=rng)


EUCLID = MechanismSpec(
    key="euclid", label="Euclidean Laplace", long_label="Euclidean Laplace (ambient coordinates)",
    chip="Euclidean Laplace", audit_label="Euclidean Laplace around the ambient mean", color="#D55E00",
    symbol="square", dash="longdash", guarantee="ε-DP", sensitivity="ambient", statistic="ambient",
    law="ambient-laplace", build=build, scale=scale, draw=draw, off_manifold=True, requires_ambient=True, baseline=True, figure1=True)
