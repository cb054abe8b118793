"""Exact vs Metropolis–Hastings samplers of the Riemannian Laplace law, side by side.

For each space and scale σ: the distance ρ(η, x̃) of N draws from each sampler is compared with
the exact radial law by the Kolmogorov–Smirnov distance, and each sampler's throughput is timed.
The exact radial CDF comes from quadrature of f(ρ) ∝ e^{−ρ/σ} J(ρ) (engine.mechanisms.radial); on
SPD(2) from f(ρ) ∝ e^{−ρ/σ} ρ ∫₀^{2π} sinh(ρ|cos φ − sin φ|/2) dφ (Hajri et al. 2016, polar form).
"""

from __future__ import annotations

import functools
import sys
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from engine import spaces
from engine.experiments.protocol import WORD, Task, make_config, normalise_seed
from engine.mechanisms import laplace_mh, riemannian_laplace
from engine.mechanisms.radial_density import radial_cdf, radial_density
from engine.spaces import SAMPLER_SPACES as SPACES
from engine.validation import check_int, check_positive

#: The two scales σ compared on each space (its entry's sampler setting).
DEFAULT_SIGMAS = {key: spaces.space(key).sampler.sigmas for key in SPACES}


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("summary", "radii")


@dataclass(frozen=True)
class Config:
    """Settings of the comparison (see ``run``); ``sigmas`` overrides ``DEFAULT_SIGMAS`` per space."""

    reps: int = 2000
    seed: int | tuple[int, ...] = 0
    spaces: tuple[str, ...] = tuple(SPACES)
    sigmas: dict | None = None
    burn_in: int = 1000
    thin: int = 10

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps))
        set_("seed", normalise_seed(self.seed))
        set_("burn_in", check_int("burn_in", self.burn_in))
        set_("thin", check_int("thin", self.thin))
        set_("spaces", tuple(self.spaces))
        unknown = [s for s in self.spaces if s not in SPACES]
        if unknown:
            raise ValueError(f"unknown spaces {unknown}; known: {list(SPACES)}")
        merged = {**DEFAULT_SIGMAS, **(self.sigmas or {})}
        set_("sigmas", {key: tuple(check_positive("sigma", s) for s in merged[key]) for key in self.spaces})


def tasks(config: Config) -> list[Task]:
    """One task per (space, σ), keyed ``(space, σ)``."""
    return [Task((key, sigma), compare_samplers, (key, sigma, config.reps, config.burn_in, config.thin))
            for key in config.spaces for sigma in config.sigmas[key]]


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the radii table and of one task's draws (``protocol.check_footprint``)."""
    cells = sum(len(config.sigmas[key]) for key in config.spaces)
    coordinates = max(int(np.prod(SPACES[key].point_shape)) for key in config.spaces)
    return {
        f"the radii table ({cells} cells × 2 samplers × reps = {config.reps:.3g} rows of 4 columns)":
            cells * 2 * config.reps * 4 * WORD,
        f"one task's draws (2 samplers × reps = {config.reps:.3g} points of {coordinates} coordinates)":
            2 * config.reps * coordinates * WORD,
    }


def compare_samplers(key: str, sigma: float, reps: int, burn_in: int, thin: int, *, rng) -> dict:
    """``reps`` exact draws and ``reps`` MH chains at the origin of space ``key``: summary rows and radii."""
    manifold = SPACES[key]
    eta = np.broadcast_to(manifold.origin, (reps,) + manifold.point_shape)
    cdf = radial_cdf(manifold, sigma)
    exact, t_exact = _timed(lambda: riemannian_laplace(manifold, eta, sigma, rng=rng))
    mh, t_mh = _timed(lambda: laplace_mh(manifold, eta, sigma, rng=rng, burn_in=burn_in, thin=thin))
    rows, radii = [], []
    for sampler, draws, seconds, extra in (
        ("exact", exact, t_exact, {}),
        ("mh", mh.samples, t_mh, {"acceptance_rate": float(np.mean(mh.acceptance_rate)),
                                  "effective_sample_size": float(np.mean(mh.effective_sample_size))}),
    ):
        rho = manifold.dist(eta, draws)
        ks = stats.kstest(rho, cdf)
        rows.append({"space": key, "sigma": sigma, "sampler": sampler, "ks_distance": ks.statistic,
                     "ks_pvalue": ks.pvalue, "draws_per_second": reps / seconds, **extra})
        radii.append(pd.DataFrame({"space": key, "sigma": sigma, "sampler": sampler, "rho": rho}))
    return {"rows": rows, "radii": radii}


def combine(config: Config, outputs: list[dict]) -> dict[str, pd.DataFrame]:
    """The summary rows and the radii of every (space, σ), in task order."""
    return {"summary": pd.DataFrame([row for out in outputs for row in out["rows"]]),
            "radii": pd.concat([frame for out in outputs for frame in out["radii"]], ignore_index=True)}


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Compare samplers in-process; ``reps`` independent draws per sampler (one MH chain per draw).

    Returns ``{"summary": DataFrame}`` with space, sigma, sampler, ks_distance, ks_pvalue,
    draws_per_second, acceptance_rate and effective_sample_size (MH only), and
    ``{"radii": DataFrame}`` with the individual distances for histograms.
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def figures(results: dict[str, pd.DataFrame]) -> dict:
    """Histogram of the radii of each sampler against the exact density, per space and σ."""
    from engine.viz.curves import histogram_with_density

    out = {}
    for (key, sigma), rows in results["radii"].groupby(["space", "sigma"], sort=False):
        manifold = SPACES[key]
        grid = np.linspace(0.0, rows.rho.max() * 1.05, 400)
        exact = rows[rows.sampler == "exact"].rho.to_numpy()
        out[f"{key}-sigma{sigma:g}"] = histogram_with_density(
            exact, grid, radial_density(manifold, sigma, grid), title=f"{manifold.name}, σ = {sigma:g}")
    return out
