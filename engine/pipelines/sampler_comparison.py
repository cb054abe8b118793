"""Exact against Metropolis–Hastings draws of one Laplace law: the path the Samplers page shows.

Both samplers target the Riemannian Laplace law ∝ exp(−ρ(x, η)/σ) (Reimherr, Bharath & Soto 2021,
Definition 3) around the space's origin η. The exact sampler draws a uniform direction and an exact
radius (``engine.mechanisms``); the random-walk MH sampler of the papers runs ``chains`` chains from
η (``engine.mechanisms.laplace_mh``), optionally adapting its step during the burn-in. The radii of
both are compared with the exact radial density f(ρ) ∝ e^{−ρ/σ} J(ρ)
(``engine.mechanisms.radial_density``) by the Kolmogorov–Smirnov distance
D = sup_ρ |F_n(ρ) − F(ρ)|, with F the trapezoid CDF of f on a grid of ``GRID_POINTS`` points.

``run(SamplerComparisonConfig(...), progress=...)`` is deterministic for a seed apart from the two
timings (the exact sampler and the chains draw from two streams spawned from it);
``progress(fraction, text)`` follows the MH chains.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
from scipy import integrate, stats
from scipy.special import gammaincinv

from engine import spaces
from engine.mechanisms import effective_sample_size, laplace_mh, riemannian_laplace, scale_limit
from engine.mechanisms.radial_density import radial_density
from engine.pipelines.summary import plain
from engine.spaces import SAMPLER_SPACES as MANIFOLDS
from engine.threads import blas_capped
from engine.validation import check_int, check_positive

#: The spaces compared, in the registry's order (``engine.spaces``).
SPACES = tuple(key for key in spaces.SPACES if key in MANIFOLDS)
#: Points of the grid carrying the exact density and CDF.
GRID_POINTS = 4001
#: Distances beyond this overflow e^ρ in double precision (matrix entries on SPD, cosh ρ on H²).
MAX_RADIUS = 700.0
#: Tail mass of the radial law left beyond the density grid.
TAIL = 1e-10


@dataclass(frozen=True, kw_only=True)
class SamplerComparisonConfig:
    """Everything a comparison depends on (hashable, so a page can key its store by it).

    ``step=None`` adapts the MH proposal radius towards 30 % acceptance in the first half of the
    burn-in; each of the ``chains`` chains keeps ``draws`` states (every ``thin``-th after
    ``burn_in``), and the exact sampler draws ``draws × chains`` points.
    """

    space: str = "sphere"
    sigma: float = 0.5
    step: float | None = None
    burn_in: int = 500
    thin: int = 5
    draws: int = 100
    chains: int = 10
    seed: int = 0

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        if self.space not in SPACES:
            raise ValueError(f"space must be one of {', '.join(SPACES)}, got {self.space!r}")
        set_("sigma", check_positive("sigma", self.sigma))
        if self.step is not None:
            set_("step", check_positive("step", self.step))
        set_("burn_in", check_int("burn_in", self.burn_in))
        set_("thin", check_int("thin", self.thin))
        set_("draws", check_int("draws", self.draws))
        set_("chains", check_int("chains", self.chains))
        set_("seed", check_int("seed", self.seed, minimum=0))

    @property
    def steps(self) -> int:
        """Length of each MH chain after its start: burn-in plus the thinned draws."""
        return self.burn_in + self.thin * (self.draws - 1)

    @property
    def total(self) -> int:
        """Draws per sampler, ``draws × chains``."""
        return self.draws * self.chains


@dataclass(frozen=True)
class SamplerComparison:
    """Radii and diagnostics of both samplers on one target.

    Attributes
    ----------
    config : SamplerComparisonConfig
    exact_radii : ndarray, shape ``(draws × chains,)``
    mh_radii : ndarray, shape ``(draws, chains)``
        Kept MH states' distances to η.
    chain : ndarray, shape ``(steps + 1,)``
        Distance to η of the first chain at every step, the start included.
    grid, density : ndarray, shape ``(GRID_POINTS,)``
        The exact radial density, normalised on the grid.
    mean_radius : float
        E ρ under the exact law (trapezoid rule on the grid).
    ks_exact, ks_mh : float
        KS distances of the two samples to the exact CDF.
    exact_per_second, mh_per_second : float
        Points per second of wall clock (MH: kept draws per second of chain time).
    acceptance, ess, autocorrelation_time, step : float
        MH acceptance rate, effective sample size summed over chains (Geyer's initial monotone
        sequence), mean autocorrelation time and the (final) proposal radius.
    """

    config: SamplerComparisonConfig
    exact_radii: np.ndarray
    mh_radii: np.ndarray
    chain: np.ndarray
    grid: np.ndarray
    density: np.ndarray
    mean_radius: float
    ks_exact: float
    ks_mh: float
    exact_per_second: float
    mh_per_second: float
    acceptance: float
    ess: float
    autocorrelation_time: float
    step: float

    def radii(self) -> pd.DataFrame:
        """Tidy radii of both samplers: sampler, chain, draw, rho (exact draws have chain −1)."""
        draws, chains = self.mh_radii.shape
        mh = pd.DataFrame({"sampler": "metropolis-hastings", "chain": np.tile(np.arange(chains), draws),
                           "draw": np.repeat(np.arange(draws), chains), "rho": self.mh_radii.ravel()})
        exact = pd.DataFrame({"sampler": "exact", "chain": -1, "draw": np.arange(self.exact_radii.size),
                              "rho": self.exact_radii})
        return pd.concat([exact, mh], ignore_index=True)

    @property
    def ks_critical(self) -> float:
        """The KS distance that ``draws × chains`` independent exact draws exceed 5 % of the time,
        1.36/√(draws × chains) (asymptotic Kolmogorov quantile)."""
        return float(1.36 / np.sqrt(self.config.total))

    def summary(self) -> dict:
        """The page's metrics as JSON-ready numbers (``engine.pipelines.summary.plain``): the config, E ρ,
        both KS distances with the 5 % critical value 1.36/√(draws × chains), and the MH diagnostics.

        The two timings are left out: they measure this machine, not the seed's draws.
        """
        return plain(dict(config=self.config, mean_radius=self.mean_radius, ks_exact=self.ks_exact,
                          ks_mh=self.ks_mh, ks_critical=self.ks_critical,
                          acceptance=self.acceptance, ess=self.ess,
                          autocorrelation_time=self.autocorrelation_time, step=self.step))


def _envelope(space: str) -> tuple[int, float, float]:
    """Shape, volume growth and support of the Gamma envelope of the space's radial law (its entry's
    sampler setting)."""
    return spaces.space(space).sampler.envelope(MANIFOLDS[space])


def numeric_scale_limit(space: str) -> float:
    """Largest σ whose density grid ends before ``MAX_RADIUS`` (``inf`` on compact spaces): the
    envelope's rate 1/σ − growth must leave mass ``TAIL`` beyond ``MAX_RADIUS`` at most, and σ must
    not pass the largest scale whose exact releases float64 holds (the sampler setting's)."""
    shape, growth, support = _envelope(space)
    if np.isfinite(support):
        return np.inf
    limit = float(1.0 / (growth + gammaincinv(shape, 1.0 - TAIL) / MAX_RADIUS))
    return min(limit, spaces.space(space).sampler.representable_sigma)


def grid_end(space: str, sigma: float) -> float:
    """End of the density grid: the support, or where the law's Gamma envelope leaves mass ``TAIL``.

    Raises ``ValueError`` when that end lies beyond ``MAX_RADIUS`` (σ too close to the limit)."""
    m = MANIFOLDS[space]
    shape, growth, support = _envelope(space)
    if np.isfinite(support):
        return float(support)
    rate = 1.0 / sigma - growth
    end = float(gammaincinv(shape, 1.0 - TAIL) / rate)
    if end > MAX_RADIUS:
        raise ValueError(
            f"σ = {sigma:g} is too close to the normalisability limit {scale_limit(m):.4g} of {m.name}: the law "
            f"reaches distances near {end:.0f}, where e^ρ overflows double precision. Lower σ a little")
    return end


def _exact_radii(space: str, sigma: float, size: int, rng) -> np.ndarray:
    """Exact draws of ρ: the radial law itself (the exact sampler's radius)."""
    return spaces.space(space).sampler.radii(MANIFOLDS[space], sigma, size, rng)


@blas_capped
def run(config: SamplerComparisonConfig, *, progress: Callable[[float, str], None] | None = None
        ) -> SamplerComparison:
    """Run both samplers for ``draws × chains`` draws each and compare them with the exact law.

    Parameters
    ----------
    config : SamplerComparisonConfig
    progress : callable, optional
        ``progress(fraction, text)`` while the MH chains run, e.g. "10 MH chains: step 8,000 of 15,900".

    Returns
    -------
    SamplerComparison

    Raises
    ------
    ValueError
        For a non-normalisable σ or a step beyond the injectivity radius (from the engine), when σ
        is too close to the limit for double precision, or when a chain's distances overflow.
    """
    sigma, chains, steps, total = config.sigma, config.chains, config.steps, config.total

    def chain_progress(fraction: float) -> None:
        if progress is not None:
            progress(fraction, f"{chains} MH chains: step {round(fraction * steps):,} of {steps:,}")

    m = MANIFOLDS[config.space]
    # One stream per sampler, so the chains do not depend on how many uniforms the exact sampler used.
    exact_rng, mh_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(config.seed).spawn(2))
    start = time.perf_counter()
    riemannian_laplace(m, m.origin, sigma, size=total, rng=exact_rng)
    exact_seconds = time.perf_counter() - start
    exact = _exact_radii(config.space, sigma, total, exact_rng)
    grid = np.linspace(0.0, grid_end(config.space, sigma), GRID_POINTS)
    density = radial_density(m, sigma, grid)
    cdf = integrate.cumulative_trapezoid(density, grid, initial=0.0)
    cdf /= cdf[-1]
    start = time.perf_counter()
    result = laplace_mh(m, np.broadcast_to(m.origin, (chains,) + m.point_shape), sigma, size=config.draws, rng=mh_rng,
                        step=config.step, burn_in=config.burn_in, thin=config.thin, keep_chain=True,
                        progress=chain_progress)
    mh_seconds = time.perf_counter() - start
    mh = result.chain[config.burn_in::config.thin]
    if not np.all(np.isfinite(result.chain)):
        raise ValueError(f"the MH chain on {m.name} went so far from the footpoint (σ = {sigma:g}) that its distances "
                         f"overflow double precision; lower σ")

    def exact_cdf(rho):
        return np.interp(rho, grid, cdf)

    return SamplerComparison(
        config=config, exact_radii=exact, mh_radii=mh, chain=result.chain[:, 0], grid=grid, density=density,
        mean_radius=float(integrate.trapezoid(grid * density, grid)),
        ks_exact=float(stats.kstest(exact, exact_cdf).statistic),
        ks_mh=float(stats.kstest(mh.ravel(), exact_cdf).statistic),
        exact_per_second=total / exact_seconds, mh_per_second=total / mh_seconds,
        acceptance=float(np.mean(result.acceptance_rate)),
        ess=float(np.sum(effective_sample_size(mh, axis=0))),
        autocorrelation_time=float(np.mean(result.autocorrelation_time)),
        step=float(np.mean(result.step)),
    )
