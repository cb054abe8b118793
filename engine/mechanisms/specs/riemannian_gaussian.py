"""The Riemannian Gaussian around the Fréchet mean (Jiang, Chang, Liu, Ding, Kong & Jiang, NeurIPS 2023), drawn
exactly, μ-GDP with μ by quadrature, calibrated from the user's (ε, δ) (``engine.mechanisms.riemannian_gaussian``)."""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

from engine.mechanisms import gdp, riemannian_gaussian
from engine.mechanisms.laplace import radial_law
from engine.mechanisms.riemannian_gaussian import RiemannianGaussian, sample_gaussian_radius
from engine.mechanisms.specs.spec import MechanismSpec


def _build(manifold, *, epsilon, sensitivity, delta, m0=None) -> RiemannianGaussian:
    return RiemannianGaussian(manifold=manifold, epsilon=epsilon, delta=delta, sensitivity=sensitivity, reference=m0)


def _draw(manifold, footpoint, sigma, *, rng):
    return riemannian_gaussian.riemannian_gaussian(manifold, footpoint, sigma, rng=rng)


def _error_radius(manifold, sigma, size, rng):
    return sample_gaussian_radius(radial_law(manifold), sigma, size, rng)


def _flat_error(dim):
    return float(np.sqrt(2.0) * np.exp(gammaln((dim + 1) / 2) - gammaln(dim / 2)))  # ρ ~ σ·χ_d in Rᵈ


RGAUSS = MechanismSpec(
    key="rgauss", label="Riemannian Gaussian", long_label="Riemannian Gaussian (μ-GDP, exact sampler)",
    chip="Riemannian Gaussian", audit_label="Riemannian Gaussian", color="#882255", symbol="diamond-open",
    dash="dash", guarantee="(ε, δ)-DP", sensitivity="theorem2", statistic="frechet", law="riemannian-gaussian",
    build=_build, scale=riemannian_gaussian.scale, draw=_draw, utility=True, error_radius=_error_radius,
    flat_error=_flat_error, supports=gdp.supports, solved_scale=True)
