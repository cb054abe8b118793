"""Private geodesic regression from a data set name to released geodesics, Table 1 and checks.

``run(RegressionConfig(...))`` draws or loads the data, fits the least-squares geodesic (Fletcher
2011), releases ``releases`` private pairs (p̃, ṽ) (Kulkarni & Soto; ``PrivateGeodesicRegression``),
and collects what a page or a notebook shows: Table 1 with the numbers plugged in, the assumption
checks, the composed guarantee, the sampler diagnostics and predictions along both geodesics.

Data sets (all public inputs — centre, radius, covariate range — are fixed without the private data):

* ``callosum``: synthetic corpus-callosum outlines (k landmarks) against age 60–80, x = (age − 70)/10;
  ball centre: the generating template at 70, radius π/16 (Table 1's limit on Σ^k_2).
* ``cells``: the geomstats cell outlines against log centroid size, x rescaled to [−1, 1] by the range of
  the whole 650-cell collection; the private data set is a random sample of n cells from one half of the
  collection and the ball centre is the Fréchet mean of the other half (a public reference set); the
  radius is π/16 (Table 1's limit on Σ^k_2) and outlines farther from the centre are clipped onto the
  ball's boundary, record by record (``engine.data.enforce_ball``): the radius never comes from the data.
* ``drift``: directions on S² drifting along a great circle against time t ∈ [−1, 1]; ball centre: the
  generating footpoint, radius π/8 (Table 1's limit on S²); directions beyond it are clipped onto the
  boundary.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.bounds.regression import radius_limit
from engine.data.ball import enforce_ball
from engine.data.regression import (
    age_covariate,
    callosum_data,
    callosum_template,
    drift_truth,
    load_cells,
    size_covariate,
    sphere_drift,
)
from engine.estimators import frechet_mean
from engine.estimators.geodesic_regression import GeodesicRegressionResult, energy
from engine.manifolds import Kendall, Sphere
from engine.mechanisms.dp_geodesic_regression import AssumptionCheck, PrivateGeodesicRegression
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.multichain import RHAT_LIMIT
from engine.pipelines.summary import plain
from engine.threads import blas_capped
from engine.validation import check_int, check_positive

DATASETS = {"callosum": "shapes", "cells": "shapes", "drift": "sphere"}
#: The residual bound τ each data set is run with on the page and the command line when none is given:
#: the paper's 0.05 for the callosum outlines; 0.3 for the real cells and the drifting directions, whose
#: residuals about the fitted geodesic are larger.
DEFAULT_TAU = {"callosum": 0.05, "cells": 0.3, "drift": 0.3}
#: Most chain work n·k·(warmup + window)·releases of a run: ~30 minutes at the ~3·10⁶ a second measured
#: at n = 1000 and the defaults (2.5·10⁸ in 89 s on one core).
MAX_WORK = 5e9


@dataclass(frozen=True)
class RegressionConfig:
    """Inputs of one private regression run (all public).

    ``warmup`` is the footpoint chains' warm-up (the shooting-vector chains get half); both steps' chains then
    run at least ``max(window, warmup)`` steps, over which split R̂ and ESS are computed (600 keeps R̂ <= 1.01
    over the log density and all 96 coordinates at the defaults on Σ^50_2; on S² the drift data need a
    warm-up of 1,000, so raising the warm-up is what the page advises when R̂ is too large).
    """

    dataset: str = "callosum"
    n: int = 100
    k: int = 50
    noise: float = 0.003
    epsilon_p: float = 0.3
    epsilon_v: float = 0.3
    tau: float = DEFAULT_TAU["callosum"]
    releases: int = 5
    scale: str = "private"
    clip_residuals: bool = True
    warmup: int = 400
    window: int = 600
    seed: int = 0

    def __post_init__(self):
        check_int("warmup", self.warmup, minimum=2)
        check_int("window", self.window, minimum=0)
        if self.dataset not in DATASETS:
            raise ValueError(f"dataset must be one of {tuple(DATASETS)}, got {self.dataset!r}")
        check_int("n", self.n, minimum=3)
        check_int("k", self.k, minimum=3)
        check_int("releases", self.releases)
        check_positive("epsilon_p", self.epsilon_p)
        check_positive("epsilon_v", self.epsilon_v)
        check_positive("tau", self.tau)
        work = self.work
        if work > MAX_WORK:
            raise ValueError(f"n·k·(warmup + window)·releases = {work:.3g} is more than {MAX_WORK:.0e}, about "
                             f"half an hour of the chains (measured ~3·10⁶ a second: 2.5·10⁸ in 89 s); lower n, "
                             f"warmup, window or releases")

    @property
    def work(self) -> int:
        """The run's chain work n·k·(warmup + window)·releases, which its time grows with (``MAX_WORK``)."""
        return self.n * self.k * (self.warmup + self.window) * self.releases


@dataclass(frozen=True)
class RegressionResult:
    """Everything the page shows."""

    config: RegressionConfig
    manifold: object
    x: np.ndarray
    y: np.ndarray
    fit: GeodesicRegressionResult
    footpoints: np.ndarray
    velocities: np.ndarray
    ball_center: np.ndarray
    ball_radius: float
    footpoint_sigma: float
    covariate_name: str
    grid: np.ndarray
    grid_labels: list
    table1: pd.DataFrame
    assumptions: list[AssumptionCheck]
    guarantee: PrivacyGuarantee
    diagnostics: pd.DataFrame
    energies: pd.DataFrame
    trace: pd.DataFrame

    @property
    def worst_rhat(self) -> float:
        """Largest split R̂ over both steps' chains (NaN when neither step's R̂ is defined); above about
        1.01 the chains disagree and the draws may not follow the K-norm gradient law yet."""
        return float(self.diagnostics["split R̂ (max)"].max())

    @property
    def footpoint_spread(self) -> float:
        """Mean distance of the private footpoints from the non-private fit, as a fraction of the public
        ball's radius: near 1 the K-norm law is nearly flat over the ball and the releases sit at its edge."""
        return float(self.energies["footpoint_distance"].mean()) / self.ball_radius

    @property
    def chains_disagree(self) -> bool:
        """Whether ``worst_rhat`` exceeds ``RHAT_LIMIT`` (or is undefined): the draws are not yet established
        to follow the law the guarantee is about."""
        return not self.worst_rhat <= RHAT_LIMIT

    def summary(self) -> dict:
        """The numbers without the data and the chains' traces (JSON-ready,
        ``engine.pipelines.summary.plain``): the config, the space, the non-private fit, the private
        footpoints and shooting vectors, Table 1, the assumption checks, the composed guarantee, the
        chains' diagnostics and the energy of each release."""
        return plain(dict(config=self.config, space=self.manifold.name, ball_radius=self.ball_radius,
                          fit=dict(footpoint=self.fit.footpoint, velocity=self.fit.velocity, energy=self.fit.energy),
                          footpoints=self.footpoints, velocities=self.velocities, table1=self.table1,
                          assumptions=self.assumptions, guarantee=self.guarantee, diagnostics=self.diagnostics,
                          energies=self.energies))


def _data(config: RegressionConfig, rng):
    """(manifold, x, y, ball centre, ball radius, covariate name, grid, grid labels)."""
    if config.dataset == "callosum":
        m = Kendall(config.k)
        ages, y = callosum_data(config.n, k=config.k, noise=config.noise, rng=rng)
        grid = np.array([60.0, 65.0, 70.0, 75.0, 80.0])
        return (m, age_covariate(ages), y, callosum_template(70.0, k=config.k), float(np.pi / 16), "age",
                age_covariate(grid), [f"age {a:g}" for a in grid])
    if config.dataset == "cells":
        cells = load_cells(k=config.k)
        order = rng.permutation(len(cells.shapes))
        public, private = order[: len(order) // 2], order[len(order) // 2:]
        if config.n > len(private):
            raise ValueError(f"n must be at most {len(private)} for the cell data (half the collection is the public "
                             f"reference set), got {config.n}")
        chosen = rng.choice(private, size=config.n, replace=False)
        m = Kendall(config.k)
        centre = frechet_mean(m, cells.shapes[public]).mean
        radius = float(np.pi / 16)
        y, _ = enforce_ball(m, cells.shapes[chosen], centre, radius, policy="clip")
        lo, hi = float(cells.log_size.min()), float(cells.log_size.max())
        grid_sizes = np.linspace(lo, hi, 5)
        return (m, size_covariate(cells.log_size[chosen], cells), y, centre, radius, "log centroid size",
                size_covariate(grid_sizes, cells), [f"size {np.exp(s):.0f} px" for s in grid_sizes])
    m = Sphere(2)
    t, y = sphere_drift(config.n, rng=rng)
    centre, _ = drift_truth()
    radius = float(np.pi / 8)
    y, _ = enforce_ball(m, y, centre, radius, policy="clip")
    grid = np.linspace(-1.0, 1.0, 5)
    return m, t, y, centre, radius, "time", grid, [f"t = {g:g}" for g in grid]


def chain_settings(config: RegressionConfig) -> dict:
    """The chains' settings of a run, as keywords of ``PrivateGeodesicRegression.release`` (thinning and the
    shooting-vector draws are that method's defaults): the footpoint warm-up, half of it for the shooting
    vector, and the diagnostics window (at least the warm-up)."""
    return dict(warmup=config.warmup, velocity_warmup=max(config.warmup // 2, 2),
                window=max(config.window, config.warmup))


@blas_capped
def run(config: RegressionConfig) -> RegressionResult:
    """Data, fit, private releases and the checks (module docstring)."""
    data_stream, release_stream = np.random.SeedSequence(config.seed).spawn(2)
    m, x, y, centre, radius, covariate, grid, labels = _data(config, np.random.default_rng(data_stream))
    mech = PrivateGeodesicRegression(manifold=m, n=config.n, epsilon_p=config.epsilon_p, epsilon_v=config.epsilon_v,
                                     tau=config.tau, ball_center=centre, ball_radius=radius, scale=config.scale,
                                     clip_residuals=config.clip_residuals)
    out = mech.release(x, y, size=config.releases, rng=np.random.default_rng(release_stream), **chain_settings(config))
    kappa_l = m.kappa_min
    n, tau = config.n, config.tau
    table1 = pd.DataFrame([
        {"quantity": "Δ_p (footpoint)", "formula": "2τ/n" if kappa_l >= 0 else "(2τ/n) cosh(2√−κ_l (τ_m + τ))",
         "plugged in": f"2·{tau:g}/{n}", "value": mech.delta_p, "σ": mech.footpoint_mechanism.sigma,
         "ε": config.epsilon_p},
        {"quantity": "Δ_v (shooting vector)", "formula": "2τ/n" if kappa_l >= 0 else
         "τ sinh(2√−κ_l (τ_m + τ)) / (n √−κ_l (τ_m + τ))", "plugged in": f"2·{tau:g}/{n}", "value": mech.delta_v,
         "σ": mech.velocity_mechanism.sigma, "ε": config.epsilon_v},
        {"quantity": "radius limit r", "formula": "π/(8√κ_h)", "plugged in": f"π/(8·√{m.kappa_max:g})",
         "value": radius_limit(m.kappa_min, m.kappa_max), "σ": np.nan, "ε": np.nan},
    ])
    chains = {"footpoint": out.chain, "shooting vector": out.velocity_chain}
    diagnostics = pd.DataFrame([
        {"step": name, "chains": c.acceptance_rate.shape[0], "acceptance": float(np.mean(c.acceptance_rate)),
         "split R̂ (max)": float(np.nanmax(c.rhat)), "bulk ESS (min)": float(np.nanmin(c.ess_bulk)),
         "tail ESS (min)": float(np.nanmin(c.ess_tail)), "warm-up steps": c.warmup}
        for name, c in chains.items()])
    private_energy = energy(m, out.points, out.velocity, x, y)
    energies = pd.DataFrame({"release": np.arange(config.releases), "energy_private": private_energy,
                             "energy_nonprivate": float(out.fit.energy),
                             "footpoint_distance": m.dist(out.points, out.fit.footpoint)})
    trace = out.chain.trace
    trace_df = pd.DataFrame({"iteration": np.tile(np.arange(trace.shape[1]), trace.shape[0]),
                             "chain": np.repeat(np.arange(trace.shape[0]), trace.shape[1]),
                             "value": -mech.footpoint_mechanism.sigma * trace.reshape(-1)})
    return RegressionResult(
        config=config, manifold=m, x=x, y=y, fit=out.fit, footpoints=out.points, velocities=out.velocity,
        ball_center=centre, ball_radius=radius, footpoint_sigma=mech.footpoint_mechanism.sigma,
        covariate_name=covariate, grid=grid, grid_labels=labels,
        table1=table1, assumptions=mech.assumptions(x, y, out.fit), guarantee=out.guarantee,
        diagnostics=diagnostics, energies=energies, trace=trace_df)


def predictions(result: RegressionResult) -> tuple[np.ndarray, np.ndarray]:
    """Non-private ``(A, *point_shape)`` and private ``(A, R, *point_shape)`` predictions on the grid."""
    m = result.manifold
    truth = m.geodesic(result.fit.footpoint, result.fit.velocity, result.grid)
    private = m.geodesic(result.footpoints, result.velocities, result.grid)
    return truth, private
