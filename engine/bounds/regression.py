"""Sensitivities of private geodesic regression (Kulkarni & Soto, Table 1) and their assumptions.

Table 1 bounds how much one record moves the gradients of E(p, v) = (1/(2n)) Σ d(Exp(p, x_i v), y_i)²
when the sectional curvature lies in [κ_l, κ_h], the data lie in B_r(m0) with r ≤ π/(8√κ_h) (κ_h > 0)
or r < τ_m (κ_l < 0), and the fitted geodesic is τ-close to the data (every residual ≤ τ):

    κ_l ≥ 0:  Δ_p = 2τ/n,                          Δ_v = 2τ/n,
    κ_l < 0:  Δ_p = (2τ/n) cosh(2√−κ_l (τ_m + τ)),  Δ_v = τ sinh(2√−κ_l (τ_m + τ)) / (n √−κ_l (τ_m + τ)).

Why (with the adjoint Jacobi fields of ``engine.estimators.geodesic_regression``): record i contributes
−d_pExp^† e_i/n and −x_i d_vExp^† e_i/n; the adjoints scale the normal part of e_i by cos or sin(L)/L
(|·| ≤ 1) when κ ≥ 0, and by at most cosh(√−κ L) or sinh(√−κ L)/(√−κ L) when κ < 0, L = |x_i v| the
geodesic length, which the table takes to be at most 2(τ_m + τ). Replacing one record changes one term,
so the change is at most twice the largest term: 2τ/n times those factors. The Δ_v column takes
|x_i| ≤ 1 (the factor x_i); ``x_max`` scales it for other covariate ranges.
"""

from __future__ import annotations

import numpy as np

from engine.validation import check_int, check_positive


def table1_sensitivities(n, tau, kappa_l, *, tau_m=None, x_max=1.0) -> tuple[float, float]:
    """(Δ_p, Δ_v) of Kulkarni & Soto's Table 1.

    Parameters
    ----------
    n : int >= 1
        Number of records (public).
    tau : float > 0
        Public bound on every residual d(y_i, Exp(p, x_i v)).
    kappa_l : float
        Lower curvature bound κ_l.
    tau_m : float > 0, required when κ_l < 0
        The radius bound of the negatively curved case (data in B_r(m0) with r < τ_m).
    x_max : float > 0
        Public bound on |x_i| (Table 1 takes 1); Δ_v is multiplied by it.

    Returns
    -------
    (float, float)
    """
    n = check_int("n", n)
    tau = check_positive("tau", tau)
    x_max = check_positive("x_max", x_max)
    base = 2.0 * tau / n
    if kappa_l >= 0:
        return base, base * x_max
    if tau_m is None:
        raise ValueError(f"tau_m is required when the curvature can be negative (kappa_l = {kappa_l:g})")
    tau_m = check_positive("tau_m", tau_m)
    a = 2.0 * np.sqrt(-kappa_l) * (tau_m + tau)
    return base * float(np.cosh(a)), tau * float(np.sinh(a)) / (n * np.sqrt(-kappa_l) * (tau_m + tau)) * x_max


def radius_limit(kappa_l, kappa_h, *, tau_m=None) -> float:
    """Largest data radius Table 1 allows: π/(8√κ_h) for κ_h > 0, τ_m for κ_l < 0, else ∞."""
    if kappa_h > 0:
        return float(np.pi / (8.0 * np.sqrt(kappa_h)))
    if kappa_l < 0:
        if tau_m is None:
            raise ValueError(f"tau_m is required when the curvature can be negative (kappa_l = {kappa_l:g})")
        return check_positive("tau_m", tau_m)
    return float("inf")
