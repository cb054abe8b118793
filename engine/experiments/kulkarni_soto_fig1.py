"""Kulkarni & Soto, Figure 1: log average energy of private geodesic regression on Σ^50_2 against ε.

Data: one synthetic corpus-callosum data set (``engine.data.callosum_data``; n = 100, k = 50, ages
60–80 mapped to x = (age − 70)/10), standing in for the paper's ADNI outlines. For every budget split
(ε_p, ε_v), ``pairs`` private pairs (p̃, ṽ) are drawn by ``PrivateGeodesicRegression`` (step 1: KNG on
the clipped footpoint gradient within the public ball B_{π/16}(template at 70), step 2: KNG on the
shooting-vector gradient at each p̃) and the figure's metric is ln Ē, Ē = mean over the pairs of the
energy E(p̃, ṽ; D) = (1/(2n)) Σ d(Exp(p̃, x_i ṽ), y_i)² (unclipped). Two families as in the paper:
unequal splits ε_p ∈ [0.02, 2.0] with ε_v = 2.02 − ε_p, and equal splits ε_p = ε_v = ε/2 for totals
ε ∈ [0.2, 2.0]. The non-private energy ln E(p̂, v̂) is the paper's dotted line.

A second table checks Table 1 by simulation at the least-squares fit: one record is replaced by a
neighbour whose residual is the original one reversed and stretched to τ (adversarial) or a uniform
draw in the τ-ball around the fitted point (random); the largest change of ‖∇_p E‖ and ‖∇_v E‖ over
all records is compared with Δ_p = Δ_v = 2τ/n.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd

from engine.bounds.regression import table1_sensitivities
from engine.data.regression import age_covariate, callosum_data, callosum_template
from engine.estimators.geodesic_regression import energy, energy_gradient, geodesic_regression, residuals
from engine.manifolds import Kendall
from engine.mechanisms.diagnostics import chain_diagnostics
from engine.mechanisms.dp_geodesic_regression import PrivateGeodesicRegression
from engine.validation import check_int, check_positive

UNEQUAL_EPS_P = (0.02, 0.25, 0.5, 1.0, 1.5, 2.0)
EQUAL_TOTALS = (0.2, 0.6, 1.0, 1.4, 2.0)
TOTAL = 2.02


@dataclass(frozen=True)
class Fig1Config:
    """Every parameter of the study (``run(**asdict(config))`` reproduces it)."""

    pairs: int = 100
    seed: int = 0
    n: int = 100
    k: int = 50
    noise: float = 0.003
    tau: float = 0.05
    ball_radius: float = float(np.pi / 16)
    unequal_eps_p: tuple = UNEQUAL_EPS_P
    equal_totals: tuple = EQUAL_TOTALS
    scale: str = "private"
    clip_residuals: bool = True
    warmup: int = 400
    thin: int = 10
    velocity_warmup: int = 60

    def __post_init__(self):
        check_int("pairs", self.pairs)
        check_int("n", self.n, minimum=3)
        check_int("k", self.k, minimum=3)
        check_positive("tau", self.tau)
        check_positive("ball_radius", self.ball_radius)
        for eps in self.unequal_eps_p:
            if not 0 < float(eps) < TOTAL:
                raise ValueError(f"unequal_eps_p values must lie in (0, {TOTAL}), got {eps!r}")
        for eps in self.equal_totals:
            check_positive("equal_totals", eps)

    def splits(self) -> list[tuple[str, float, float]]:
        """(family, ε_p, ε_v) for every point of both curves."""
        return ([("unequal", float(e), TOTAL - float(e)) for e in self.unequal_eps_p]
                + [("equal", float(t) / 2, float(t) / 2) for t in self.equal_totals])


def simulated_sensitivity(manifold, x, y, fit, tau, rng, trials_per_record: int = 1) -> pd.DataFrame:
    """Largest change of the gradients at the fit when one record is replaced (adversarial / random)."""
    rng = np.random.default_rng(rng)
    n = x.shape[-1]
    q, e = residuals(manifold, fit.footpoint, fit.velocity, x, y)
    g_p, g_v = energy_gradient(manifold, fit.footpoint, fit.velocity, x, y)
    rows = []
    for kind in ("adversarial", "random"):
        worst = np.zeros(2)
        for j in range(n):
            for _ in range(trials_per_record):
                if kind == "adversarial":
                    step = -tau * e[j] / max(float(manifold.norm(q[j], e[j])), 1e-300)
                else:
                    u = manifold.random_unit_tangent(q[j], rng)
                    step = tau * rng.random() ** (1.0 / manifold.dim) * u
                y2 = y.copy()
                y2[j] = manifold.exp(q[j], step)
                h_p, h_v = energy_gradient(manifold, fit.footpoint, fit.velocity, x, y2)
                worst = np.maximum(worst, [manifold.norm(fit.footpoint, g_p - h_p),
                                           manifold.norm(fit.footpoint, g_v - h_v)])
        rows.append({"neighbour": kind, "delta_p_simulated": worst[0], "delta_v_simulated": worst[1]})
    return pd.DataFrame(rows)


def run(*, reps=None, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Figure 1's curves and the Table 1 check.

    Parameters
    ----------
    reps : int or None
        Private pairs per budget split (``pairs``; 100 in the paper).
    progress : optional callable receiving the completed fraction.
    **settings : the fields of ``Fig1Config``.

    Returns
    -------
    ``{"curves": family, eps_p, eps_v, eps_total, log_mean_energy, log_nonprivate_energy, mean_distance_footpoint,
    share_footpoint_at_ball_edge, rhat_footpoint, acceptance_footpoint, acceptance_velocity, sigma_p, sigma_v;
    "sensitivity": neighbour, delta_p_simulated, delta_v_simulated, delta_p_bound, delta_v_bound, ratio_p, ratio_v,
    largest_residual, tau}``
    """
    if reps is not None:
        settings["pairs"] = reps
    known = {f.name for f in fields(Fig1Config)}
    unknown = set(settings) - known
    if unknown:
        raise ValueError(f"unknown settings {sorted(unknown)}; known: {sorted(known)}")
    config = Fig1Config(**settings)
    m = Kendall(config.k)
    data_stream, *streams = np.random.SeedSequence(config.seed).spawn(len(config.splits()) + 2)
    ages, y = callosum_data(config.n, k=config.k, noise=config.noise, rng=np.random.default_rng(data_stream))
    x = age_covariate(ages)
    centre = callosum_template(70.0, k=config.k)
    fit = geodesic_regression(m, x, y)
    rows = []
    for i, (family, eps_p, eps_v) in enumerate(config.splits()):
        mech = PrivateGeodesicRegression(manifold=m, n=config.n, epsilon_p=eps_p, epsilon_v=eps_v, tau=config.tau,
                                         ball_center=centre, ball_radius=config.ball_radius, scale=config.scale,
                                         clip_residuals=config.clip_residuals)
        out = mech.release(x, y, size=config.pairs, rng=np.random.default_rng(streams[i]), warmup=config.warmup,
                           thin=config.thin, velocity_warmup=config.velocity_warmup, velocity_draws=1,
                           diagnostics=False, fit=fit)
        energies = energy(m, out.points, out.velocity, x, y)
        dist = m.dist(out.points, centre)
        rows.append({
            "family": family, "eps_p": eps_p, "eps_v": eps_v, "eps_total": eps_p + eps_v,
            "log_mean_energy": float(np.log(np.mean(energies))), "log_nonprivate_energy": float(np.log(fit.energy)),
            "mean_distance_footpoint": float(np.mean(m.dist(out.points, fit.footpoint))),
            "share_footpoint_at_ball_edge": float(np.mean(dist > 0.9 * config.ball_radius)),
            "rhat_footpoint": float(chain_diagnostics(out.chain.trace)["rhat"]),
            "acceptance_footpoint": float(np.mean(out.chain.acceptance_rate)),
            "acceptance_velocity": float(np.mean(out.velocity_chain.acceptance_rate)),
            "sigma_p": mech.footpoint_mechanism.sigma, "sigma_v": mech.velocity_mechanism.sigma,
        })
        if progress is not None:
            progress((i + 1) / (len(config.splits()) + 1))
    sens = simulated_sensitivity(m, x, y, fit, config.tau, np.random.default_rng(streams[-1]))
    dp, dv = table1_sensitivities(config.n, config.tau, m.kappa_min)
    q, e = residuals(m, fit.footpoint, fit.velocity, x, y)
    sens = sens.assign(delta_p_bound=dp, delta_v_bound=dv, ratio_p=sens.delta_p_simulated / dp,
                       ratio_v=sens.delta_v_simulated / dv, largest_residual=float(np.max(m.norm(q, e))),
                       tau=config.tau)
    if progress is not None:
        progress(1.0)
    return {"curves": pd.DataFrame(rows), "sensitivity": sens}


def figures(results) -> dict:
    """ln Ē against ε_p (unequal splits) and against the total ε (equal splits)."""
    from engine.viz.regression import figure1_panels

    return figure1_panels(results["curves"])


DEFAULT_CONFIG = asdict(Fig1Config())
