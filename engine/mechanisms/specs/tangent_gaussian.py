"""Gaussian noise on log_m0 of the Fréchet mean in the tangent space at the public centre m0 (Han et
al., Proposition 2), analytically calibrated (Balle & Wang 2018); (ε, δ)-DP."""

from __future__ import annotations

import numpy as np

from engine.formulas import chain, rows
from engine.mechanisms.gaussian import TangentGaussian, analytic_gaussian_sigma
from engine.mechanisms.specs.riemannian_laplace import audit_pair_gap
from engine.mechanisms.specs.spec import MechanismSpec, NoiseFormula, NoiseNumbers


def _build(manifold, *, epsilon, sensitivity, delta, m0) -> TangentGaussian:
    return TangentGaussian(manifold=manifold, epsilon=epsilon, delta=delta, sensitivity=sensitivity, base_point=m0,
                           calibration="analytic")


def _scale(manifold, *, epsilon, sensitivity, delta) -> float:
    return analytic_gaussian_sigma(epsilon, delta, sensitivity)


def noise_formula(run: NoiseNumbers) -> NoiseFormula | None:
    """Δ_T = L·Δ, L the Lipschitz constant of Log at m₀ on B_r(m₀), and σ of the analytic Gaussian mechanism."""
    if not np.isfinite(run.sigma):
        return None
    lipschitz = (chain("L", r"\frac{\sqrt{\kappa}\,r}{\sin(\sqrt{\kappa}\,r)}", f"{run.lipschitz:.4f}")
                 if run.kappa_max > 0 else r"L = 1 \quad (\kappa \le 0)")
    return NoiseFormula(
        "noise in the tangent space at the public $m_0$. The log map stretches distances in $B_r(m_0)$ by at most "
        f"$L$; σ from the analytic Gaussian mechanism (Balle & Wang 2018) at δ = {run.delta:g}:",
        (lipschitz, rows(rf"\Delta_T &= L\,\Delta = {run.sensitivity:.4g}", rf"\sigma &= {run.sigma:.4g}")))


def _audit_target(mechanism, pair, *, sensitivity):
    """The Gaussian audit in T_m₀M; the pair is the Fréchet mean's, its reach measured on Log at m₀ of the means."""
    from engine.audit.mechanisms import tangent_gaussian_target
    from engine.audit.target import reach_note

    m = pair.manifold
    logs = [m.log(m.origin, mean) for mean in pair.frechet_means()]
    gap = float(m.norm(m.origin, logs[0] - logs[1]))
    return tangent_gaussian_target(mechanism, pair, notes=reach_note(gap, sensitivity, "Log at m₀ of the Fréchet mean"))


GAUSS = MechanismSpec(
    key="gauss", label="Tangent Gaussian", long_label="Tangent Gaussian (ε, δ)", chip="Tangent Gaussian",
    audit_label="tangent Gaussian at m₀ (analytic)", color="#009E73", symbol="cross", dash="dashdot", guarantee="(ε, δ)-DP",
    sensitivity="tangent", statistic="frechet", law="tangent-gaussian", build=_build, scale=_scale, noise_formula=noise_formula,
    audit_pair_gap=audit_pair_gap, audit_target=_audit_target, baseline=True)
