"""The Riemannian Gaussian around the Fréchet mean (Jiang, Chang, Liu, Ding, Kong & Jiang, NeurIPS 2023), drawn
exactly, μ-GDP with μ by quadrature, calibrated from the user's (ε, δ) (``engine.mechanisms.riemannian_gaussian``)."""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

from engine.formulas import rows
from engine.mechanisms import gdp, riemannian_gaussian
from engine.mechanisms.riemannian_gaussian import RiemannianGaussian
from engine.mechanisms.specs.riemannian_laplace import audit_pair_gap
from engine.mechanisms.specs.spec import MechanismSpec, NoiseFormula, NoiseNumbers


def _build(manifold, *, epsilon, sensitivity, delta, m0=None) -> RiemannianGaussian:
    return RiemannianGaussian(manifold=manifold, epsilon=epsilon, delta=delta, sensitivity=sensitivity, reference=m0)


def _draw(manifold, footpoint, sigma, *, rng):
    return riemannian_gaussian.riemannian_gaussian(manifold, footpoint, sigma, rng=rng)


def _flat_error(dim):
    return float(np.sqrt(2.0) * np.exp(gammaln((dim + 1) / 2) - gammaln(dim / 2)))  # ρ ~ σ·χ_d in Rᵈ


def noise_formula(run: NoiseNumbers) -> NoiseFormula | None:
    """Theorem 2's Δ and the σ whose exact μ-GDP (by quadrature) gives the chosen (ε, δ)."""
    if not np.isfinite(run.sigma):
        return None
    return NoiseFormula(
        f"Theorem 2's Δ, and the σ at which the Gaussian law's μ (by quadrature, Jiang et al. 2023) gives "
        f"(ε, δ) = ({run.epsilon:g}, {run.delta:g}):",
        (rows(rf"\Delta &= {run.sensitivity:.4g}", rf"\sigma &= {run.sigma:.4g}"),))


def _audit_target(mechanism, pair, *, sensitivity):
    from engine.audit.mechanisms import riemannian_gaussian_target
    from engine.audit.target import reach_note

    return riemannian_gaussian_target(mechanism, pair,
                                      notes=reach_note(audit_pair_gap(pair), sensitivity, "the Fréchet mean"))


RGAUSS = MechanismSpec(
    key="rgauss", label="Riemannian Gaussian", long_label="Riemannian Gaussian (μ-GDP, exact sampler)",
    chip="Riemannian Gaussian", audit_label="Riemannian Gaussian", color="#882255", symbol="diamond-open",
    dash="dash", guarantee="(ε, δ)-DP", sensitivity="theorem2", statistic="frechet", law="riemannian-gaussian",
    build=_build, scale=riemannian_gaussian.scale, noise_formula=noise_formula, audit_pair_gap=audit_pair_gap,
    audit_target=_audit_target, draw=_draw, utility=True, error_radius=riemannian_gaussian.gaussian_error_radius,
    flat_error=_flat_error, supports=gdp.supports,
    solved_scale=True)
