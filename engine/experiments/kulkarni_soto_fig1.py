"""Kulkarni & Soto, Figure 1: log average energy of private geodesic regression on Σ^50_2 against ε.

Data: one synthetic corpus-callosum data set (``engine.data.callosum_data``; n = 100, k = 50, ages
60–80 mapped to x = (age − 70)/10), standing in for the paper's ADNI outlines. For every budget split
(ε_p, ε_v), ``reps`` private pairs (p̃, ṽ) are drawn by ``PrivateGeodesicRegression`` (step 1: KNG on
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

import functools
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.bounds.regression import table1_sensitivities
from engine.data.regression import age_covariate, callosum_data, callosum_template
from engine.estimators.geodesic_regression import energy, energy_gradient, geodesic_regression, residuals
from engine.experiments.kulkarni_soto_setting import check_callosum_setting
from engine.experiments.protocol import WORD, Task, make_config, task_seed
from engine.manifolds import Kendall
from engine.mechanisms.diagnostics import chain_diagnostics
from engine.mechanisms.dp_geodesic_regression import PrivateGeodesicRegression
from engine.validation import check_int, check_positive

UNEQUAL_EPS_P = (0.02, 0.25, 0.5, 1.0, 1.5, 2.0)
EQUAL_TOTALS = (0.2, 0.6, 1.0, 1.4, 2.0)
TOTAL = 2.02

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("curves", "sensitivity")


@dataclass(frozen=True)
class Config:
    """Every setting of the study; ``reps`` private pairs (p̃, ṽ) per budget split (100 in the paper)."""

    reps: int = 100
    seed: int | tuple[int, ...] = 0
    n: int = 100
    k: int = 50
    noise: float = 0.003
    tau: float = 0.05
    ball_radius: float = float(np.pi / 16)
    unequal_eps_p: tuple[float, ...] = UNEQUAL_EPS_P
    equal_totals: tuple[float, ...] = EQUAL_TOTALS
    scale: str = "private"
    clip_residuals: bool = True
    warmup: int = 400
    thin: int = 10
    velocity_warmup: int = 60

    def __post_init__(self):
        check_callosum_setting(self)
        set_ = functools.partial(object.__setattr__, self)
        for name in ("warmup", "thin", "velocity_warmup"):
            set_(name, check_int(name, getattr(self, name)))
        set_("unequal_eps_p", tuple(float(e) for e in self.unequal_eps_p))
        for eps in self.unequal_eps_p:
            if not 0 < eps < TOTAL:
                raise ValueError(f"unequal_eps_p values must lie in (0, {TOTAL}), got {eps!r}")
        set_("equal_totals", tuple(check_positive("equal_totals", eps) for eps in self.equal_totals))

    def splits(self) -> list[tuple[str, float, float]]:
        """(family, ε_p, ε_v) for every point of both curves."""
        return ([("unequal", e, TOTAL - e) for e in self.unequal_eps_p]
                + [("equal", t / 2, t / 2) for t in self.equal_totals])


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


@functools.lru_cache(maxsize=4)
def shape_data(seed, n: int, k: int, noise: float):
    """The run's data set and its least-squares fit, drawn from the task seed of key ``("data",)``.

    Every task of a run rebuilds the same (Kendall(k), x ``(n,)``, y ``(n, k, 2)``, fit), once per process.
    """
    m = Kendall(k)
    ages, y = callosum_data(n, k=k, noise=noise, rng=np.random.default_rng(task_seed(seed, ("data",))))
    x = age_covariate(ages)
    return m, x, y, geodesic_regression(m, x, y)


def tasks(config: Config) -> list[Task]:
    """One task per budget split, keyed ``("split", family, ε_p)``, then the Table 1 check, keyed ``("table1",)``."""
    data = (config.seed, config.n, config.k, config.noise)
    chains = (config.reps, config.warmup, config.thin, config.velocity_warmup)
    mechanism = (config.tau, config.ball_radius, config.scale, config.clip_residuals)
    return ([Task(("split", family, eps_p), release_split, (data, family, eps_p, eps_v, mechanism, chains),
                  cost=config.reps * config.n)
             for family, eps_p, eps_v in config.splits()]
            + [Task(("table1",), table1_check, (data, config.tau), cost=config.n)])


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the data and of one split's releases (``protocol.check_footprint``)."""
    return {
        f"the data set and its residuals (2 × n = {config.n:.3g} shapes of k = {config.k:.3g} landmarks)":
            2 * config.n * config.k * 2 * WORD,
        f"one split's releases (reps = {config.reps:.3g} footpoints and shooting vectors of k = {config.k:.3g} "
        f"landmarks)": 2 * config.reps * config.k * 2 * WORD,
    }


def release_split(data: tuple, family: str, eps_p: float, eps_v: float, mechanism: tuple, chains: tuple, *,
                  rng) -> dict:
    """The row of ``curves`` for one budget split: ``pairs`` private (p̃, ṽ) and their energies."""
    m, x, y, fit = shape_data(*data)
    tau, ball_radius, scale, clip_residuals = mechanism
    pairs, warmup, thin, velocity_warmup = chains
    centre = callosum_template(70.0, k=m.k)
    mech = PrivateGeodesicRegression(manifold=m, n=len(x), epsilon_p=eps_p, epsilon_v=eps_v, tau=tau,
                                     ball_center=centre, ball_radius=ball_radius, scale=scale,
                                     clip_residuals=clip_residuals)
    out = mech.release(x, y, size=pairs, rng=rng, warmup=warmup, thin=thin, velocity_warmup=velocity_warmup,
                       velocity_draws=1, diagnostics=False, fit=fit)
    energies = energy(m, out.points, out.velocity, x, y)
    dist = m.dist(out.points, centre)
    return {
        "family": family, "eps_p": eps_p, "eps_v": eps_v, "eps_total": eps_p + eps_v,
        "log_mean_energy": float(np.log(np.mean(energies))), "log_nonprivate_energy": float(np.log(fit.energy)),
        "mean_distance_footpoint": float(np.mean(m.dist(out.points, fit.footpoint))),
        "share_footpoint_at_ball_edge": float(np.mean(dist > 0.9 * ball_radius)),
        "rhat_footpoint": float(chain_diagnostics(out.chain.trace)["rhat"]),
        "acceptance_footpoint": float(np.mean(out.chain.acceptance_rate)),
        "acceptance_velocity": float(np.mean(out.velocity_chain.acceptance_rate)),
        "sigma_p": mech.footpoint_mechanism.sigma, "sigma_v": mech.velocity_mechanism.sigma,
    }


def table1_check(data: tuple, tau: float, *, rng) -> pd.DataFrame:
    """The ``sensitivity`` table: simulated gradient changes at the fit against Table 1's Δ_p = Δ_v = 2τ/n."""
    m, x, y, fit = shape_data(*data)
    sens = simulated_sensitivity(m, x, y, fit, tau, rng)
    dp, dv = table1_sensitivities(len(x), tau, m.kappa_min)
    q, e = residuals(m, fit.footpoint, fit.velocity, x, y)
    return sens.assign(delta_p_bound=dp, delta_v_bound=dv, ratio_p=sens.delta_p_simulated / dp,
                       ratio_v=sens.delta_v_simulated / dv, largest_residual=float(np.max(m.norm(q, e))), tau=tau)


def combine(config: Config, outputs: list) -> dict[str, pd.DataFrame]:
    """``curves`` (one row per split, in the order of ``config.splits()``) and ``sensitivity``."""
    return {"curves": pd.DataFrame(outputs[:-1]), "sensitivity": outputs[-1]}


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Figure 1's curves and the Table 1 check, in-process (``Config`` lists the settings).

    Returns
    -------
    ``{"curves": family, eps_p, eps_v, eps_total, log_mean_energy, log_nonprivate_energy, mean_distance_footpoint,
    share_footpoint_at_ball_edge, rhat_footpoint, acceptance_footpoint, acceptance_velocity, sigma_p, sigma_v;
    "sensitivity": neighbour, delta_p_simulated, delta_v_simulated, delta_p_bound, delta_v_bound, ratio_p, ratio_v,
    largest_residual, tau}``
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def figures(results) -> dict:
    """ln Ē against ε_p (unequal splits) and against the total ε (equal splits)."""
    from engine.viz.regression import figure1_panels

    return figure1_panels(results["curves"])

