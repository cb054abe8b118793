"""The Riemannian Gaussian around the Fréchet mean (Jiang, Chang, Liu, Ding, Kong & Jiang, NeurIPS 2023), drawn
exactly, μ-GDP with μ by quadrature, calibrated from the user's (ε, δ) (``engine.mechanisms.riemannian_gaussian``)."""

from __future__ import annotations

from engine.mechanisms import gdp, riemannian_gaussian
from engine.mechanisms.riemannian_gaussian import RiemannianGaussian
from engine.mechanisms.specs.spec import MechanismSpec


def _build(manifold, *, epsilon, sensitivity, delta, m0=None) -> RiemannianGaussian:
    return RiemannianGaussian(manifold=manifold, epsilon=epsilon, delta=delta, sensitivity=sensitivity, reference=m0)


def _draw(manifold, footpoint, sigma, *, rng):
    return riemannian_gaussian.riemannian_gaussian(manifold, footpoint, sigma, rng=rng)


RGAUSS = MechanismSpec(
    key="rgauss", label="Riemannian Gaussian", long_label="Riemannian Gaussian (μ-GDP, exact sampler)",
    chip="Riemannian Gaussian", audit_label="Riemannian Gaussian", color="#CC79A7", symbol="diamond", dash="dash",
    guarantee="(ε, δ)-DP", sensitivity="theorem2", statistic="frechet", law="riemannian-gaussian", build=_build,
    scale=riemannian_gaussian.scale, draw=_draw, utility=True, supports=gdp.supports)
