"""The Riemannian Laplace around the Fréchet mean (Reimherr, Bharath & Soto 2021, Theorems 1–2),
drawn exactly (``EXACT``) or by the Metropolis–Hastings chain (``MH``)."""

from __future__ import annotations

import numpy as np

from engine.formulas import chain
from engine.mechanisms.laplace import RiemannianLaplace, radial_law, riemannian_laplace
from engine.mechanisms.radial import sample_radius
from engine.mechanisms.spd_laplace import sample_eigenlog
from engine.mechanisms.specs.spec import MechanismSpec, NoiseFormula, NoiseNumbers


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


def noise_formula(run: NoiseNumbers) -> NoiseFormula | None:
    """σ = Δ/ε where the normaliser does not depend on the footpoint, 2Δ/ε where it does (Theorem 1)."""
    if not np.isfinite(run.sigma):
        return None
    if not run.footpoint_dependent:
        return NoiseFormula(
            "the normalising constant does not depend on the footpoint (homogeneous space), so Theorem 1 allows",
            (chain(r"\sigma", r"\frac{\Delta}{\varepsilon}", rf"\frac{{{run.sensitivity:.4g}}}{{{run.epsilon:g}}}",
                   f"{run.sigma:.4g}"),))
    return NoiseFormula(
        "the normalising constant depends on the footpoint (the space is not homogeneous), so Theorem 1 needs",
        (chain(r"\sigma", r"\frac{2\Delta}{\varepsilon}",
               rf"\frac{{2 \times {run.sensitivity:.4g}}}{{{run.epsilon:g}}}", f"{run.sigma:.4g}"),))


def audit_pair_gap(pair) -> float:
    """ρ between the pair's Fréchet means (``engine.audit.pairs.frechet_gap``)."""
    from engine.audit.pairs import frechet_gap  # engine.audit imports the specs: imported when an audit runs

    return frechet_gap(pair)


def _audit_target(mechanism, pair, *, sensitivity):
    from engine.audit.mechanisms import laplace_target
    from engine.audit.target import reach_note

    return laplace_target(mechanism, pair, notes=reach_note(audit_pair_gap(pair), sensitivity, "the Fréchet mean"))


EXACT = MechanismSpec(
    key="exact", label="Riemannian Laplace", long_label="Riemannian Laplace (exact sampler)",
    chip="Riemannian Laplace", audit_label="Riemannian Laplace", color="#0072B2", symbol="circle", dash="solid",
    guarantee="ε-DP", sensitivity="theorem2", statistic="frechet", law="riemannian-laplace", build=_build,
    scale=_scale, noise_formula=noise_formula, audit_pair_gap=audit_pair_gap, audit_target=_audit_target, draw=_draw,
    normalisable_only=True, common_draws=True, figure1=True, error_radius=error_radius, flat_error=_flat_error)

MH = MechanismSpec(
    key="mh", label="Riemannian Laplace (MH)", long_label="Riemannian Laplace (Metropolis–Hastings)",
    chip="Riemannian MH", audit_label="Riemannian Laplace (Metropolis–Hastings)", color="#56B4E9",
    symbol="circle-open", dash="dot", guarantee="ε-DP", sensitivity="theorem2", statistic="frechet",
    law="riemannian-laplace", build=_build, scale=_scale, noise_formula=noise_formula, audit_pair_gap=audit_pair_gap,
    audit_target=_audit_target, normalisable_only=True, chain=True)
