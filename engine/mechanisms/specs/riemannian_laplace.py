"""The Riemannian Laplace around the Fréchet mean (Reimherr, Bharath & Soto 2021, Theorems 1–2),
drawn exactly (``EXACT``) or by the Metropolis–Hastings chain (``MH``)."""

from __future__ import annotations

import numpy as np

from engine.mechanisms.laplace import RiemannianLaplace, radial_law, riemannian_laplace
from engine.mechanisms.radial import sample_radius
from engine.mechanisms.spd_laplace import sample_eigenlog
from engine.mechanisms.specs.spec import MechanismSpec


def _build(manifold, *, epsilon, sensitivity, delta=None, m0=None) -> RiemannianLaplace:
    return RiemannianLaplace(manifold=manifold, epsilon=epsilon, sensitivity=sensitivity, reference=m0)


def _scale(manifold, *, epsilon, sensitivity, delta=None) -> float:
    return RiemannianLaplace.scale(manifold=manifold, epsilon=epsilon, sensitivity=sensitivity)


def _draw(manifold, footpoint, sigma, *, rng):
    return riemannian_laplace(manifold, footpoint, sigma, rng=rng)


def error_radius(manifold, sigma, size, rng):
    """ρ(η, release) of the exact sampler: its radial draw (ρ = ‖r‖ of the eigen-log draw on SPD(k))."""
    if manifold.polar_volume == "spd-affine":
        return np.linalg.norm(sample_eigenlog(manifold.k, sigma, size, rng), axis=-1)
    return sample_radius(radial_law(manifold), sigma, size, rng)


def _flat_error(dim):
    return float(dim)  # ρ ~ σ·Gamma(d, 1) in Rᵈ


EXACT = MechanismSpec(
    key="exact", label="Riemannian Laplace", long_label="Riemannian Laplace (exact sampler)",
    chip="Riemannian Laplace", audit_label="Riemannian Laplace", color="#0072B2", symbol="circle", dash="solid",
    guarantee="ε-DP", sensitivity="theorem2", statistic="frechet", law="riemannian-laplace", build=_build,
    scale=_scale, draw=_draw, normalisable_only=True, common_draws=True, figure1=True, error_radius=error_radius,
    flat_error=_flat_error)

MH = MechanismSpec(
    key="mh", label="Riemannian Laplace (MH)", long_label="Riemannian Laplace (Metropolis–Hastings)",
    chip="Riemannian MH", audit_label="Riemannian Laplace (Metropolis–Hastings)", color="#56B4E9",
    symbol="circle-open", dash="dot", guarantee="ε-DP", sensitivity="theorem2", statistic="frechet",
    law="riemannian-laplace", build=_build, scale=_scale, normalisable_only=True, chain=True)
