"""Gaussian noise on log_m0 of the Fréchet mean in the tangent space at the public centre m0 (Han et
al., Proposition 2), analytically calibrated (Balle & Wang 2018); (ε, δ)-DP."""

from __future__ import annotations

from engine.mechanisms.gaussian import TangentGaussian, analytic_gaussian_sigma
from engine.mechanisms.specs.spec import MechanismSpec


def _build(manifold, *, epsilon, sensitivity, delta, m0) -> TangentGaussian:
    return TangentGaussian(manifold=manifold, epsilon=epsilon, delta=delta, sensitivity=sensitivity, base_point=m0,
                           calibration="analytic")


def _scale(manifold, *, epsilon, sensitivity, delta) -> float:
    return analytic_gaussian_sigma(epsilon, delta, sensitivity)


GAUSS = MechanismSpec(
    key="gauss", label="Tangent Gaussian", long_label="Tangent Gaussian (ε, δ)", chip="Tangent Gaussian",
    audit_label="tangent Gaussian at m₀ (analytic)", color="#009E73", symbol="cross", dash="dashdot", guarantee="(ε, δ)-DP",
    sensitivity="tangent", statistic="frechet", law="tangent-gaussian", build=_build, scale=_scale, baseline=True)
