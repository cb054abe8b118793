"""Cached computation and figures of the Samplers page: exact against Metropolis–Hastings Laplace draws.

Both samplers target the Riemannian Laplace law ∝ exp(−ρ(x, η)/σ) around the space's origin η.
The exact sampler draws the radius ρ from its exact law and the direction uniformly
(``engine.mechanisms``); the random-walk MH sampler of the papers runs ``chains`` chains from η
(``engine.mechanisms.laplace_mh``). Their radii are compared with the exact radial density of
``engine.experiments.sampler_check`` by the Kolmogorov–Smirnov distance.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from scipy import integrate, stats
from scipy.special import gammaincinv

from engine import spaces
from engine.experiments.sampler_check import SPACES as MANIFOLDS
from engine.experiments.sampler_check import radial_density
from engine.mechanisms import (
    effective_sample_size,
    laplace_mh,
    radial_law,
    riemannian_laplace,
    sample_eigenlog,
    sample_radius,
    scale_limit,
    spd_growth,
)
from engine.viz.curves import histogram_with_density, trace_figure
from ui import limits, presets
from ui.result_store import shared_store

#: The spaces of the registry (``engine.spaces``: keys, order and labels) that the sampler check covers.
SPACES = {key: spaces.space(key).short_label for key in spaces.SPACES if key in MANIFOLDS}
#: Volume density J(ρ) in geodesic polar coordinates, shown next to the radial law.
JACOBIANS = {
    "sphere": r"\sin\rho,\ \rho \in [0, \pi]",
    "hyperbolic": r"\sinh\rho",
    "spd": r"\rho \int_0^{2\pi} \sinh\!\big(\rho\,|\cos\varphi - \sin\varphi|/2\big)\,d\varphi",
    "kendall": rf"\sin^{{2m-1}}\rho\,\cos\rho,\ \rho \in [0, \pi/2],\ m = k - 2 = {MANIFOLDS['kendall'].k - 2}",
}
GRID_POINTS = 4001
#: Distances beyond this overflow e^ρ in double precision (matrix entries on SPD, cosh ρ on H²).
MAX_RADIUS = 700.0
#: Tail mass of the radial law left beyond the density grid.
TAIL = 1e-10
#: Longest trace drawn; longer chains are shown every k-th step.
TRACE_POINTS = 6000
#: Name of the traced quantity (axis title and CSV column): the distance of the chain's state to η.
TRACE_VALUE = "ρ(xₜ, η)"
#: Named settings, loaded by a sidebar button or ``?preset=NAME`` (``ui.presets``).
PRESETS = {
    "near-limit": {"space": "hyperbolic", "sigma": 0.95, "adapt": True, "burn": 500, "thin": 5, "draws": 100,
                   "chains": 10},
    "reimherr-mh": {"space": "sphere", "sigma": 0.5, "adapt": True, "burn": 10_000, "thin": 100, "draws": 20,
                    "chains": 10},
}
PRESET_NOTES = {
    "near-limit": "Loaded the near-limit example: H² with σ = 0.95, just below its limit σ < 1, and a 500-step "
                  "burn-in. Compare the two histograms.",
    "reimherr-mh": "Loaded the Metropolis–Hastings settings of the supplement of Reimherr, Bharath & Soto (2021): "
                   "burn-in 10,000 and thinning 100 on S². Each of the 10 chains keeps 20 draws (11,900 steps) to "
                   "stay quick; raise Draws per chain for more.",
}
PRESET_NOTE_KEY = "samplers-preset-note"


def apply_preset(name: str) -> None:
    """Load preset ``name`` (a button callback)."""
    presets.apply_preset(PRESETS, name, PRESET_NOTE_KEY)


def preset_from_url() -> str | None:
    """Apply ``?preset=NAME`` from the address once (see ``ui.presets.preset_from_url``)."""
    return presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)


@dataclass(frozen=True)
class Comparison:
    """Radii and diagnostics of both samplers on one target.

    ``mh_radii`` has shape ``(draws, chains)``; ``chain`` is the distance to the footpoint of the first
    chain at every step (start included); ``grid``/``density`` describe the exact radial law.
    """

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


def _envelope(space: str) -> tuple[int, float]:
    """Shape and volume growth of the Gamma envelope of the space's radial law (non-compact spaces)."""
    if space == "spd":
        return 3, spd_growth(2)
    law = radial_law(MANIFOLDS[space])
    return law.shape, law.growth


#: Largest σ on SPD(2) whose exact releases float64 holds (see ``numeric_scale_limit``).
SPD_REPRESENTABLE_SIGMA = 0.7


def numeric_scale_limit(space: str) -> float:
    """Largest σ whose density grid ends before ``MAX_RADIUS`` (``inf`` on compact spaces): the
    envelope's rate 1/σ − growth must leave mass ``TAIL`` beyond ``MAX_RADIUS`` at most."""
    if space in ("sphere", "kendall"):
        return np.inf
    shape, growth = _envelope(space)
    limit = float(1.0 / (growth + gammaincinv(shape, 1.0 - TAIL) / MAX_RADIUS))
    # SPD(2) points at radius 20 and more lose positive definiteness in float64 and the engine refuses such
    # releases; up to σ = 0.7 fewer than 1 in 10⁵ exact draws go that far (measured), beyond it the page would fail.
    return min(limit, SPD_REPRESENTABLE_SIGMA) if space == "spd" else limit


def sigma_range(space: str, *, low: float, high: float, step: float) -> limits.SliderRange:
    """The σ slider's range on ``space`` (``ui.limits``): below the normalisability limit and below the
    point where the exact density no longer fits in double precision."""
    return limits.scale_range(MANIFOLDS[space], low=low, high=high, step=step,
                              numeric_limit=numeric_scale_limit(space))


def _grid_end(space: str, sigma: float) -> float:
    """End of the density grid: the support, or where the law's Gamma envelope leaves mass ``TAIL``."""
    m = MANIFOLDS[space]
    if space != "spd" and np.isfinite(radial_law(m).support):
        return float(radial_law(m).support)
    shape, growth = _envelope(space)
    rate = 1.0 / sigma - growth
    end = float(gammaincinv(shape, 1.0 - TAIL) / rate)
    if end > MAX_RADIUS:
        raise ValueError(
            f"σ = {sigma:g} is too close to the normalisability limit {scale_limit(m):.4g} of {m.name}: the law "
            f"reaches distances near {end:.0f}, where e^ρ overflows double precision. Lower σ a little")
    return end


def _exact_radii(space: str, sigma: float, size: int, rng) -> np.ndarray:
    """Exact draws of ρ: the radial law itself (the exact sampler's radius)."""
    if space == "spd":
        return np.linalg.norm(sample_eigenlog(2, sigma, size, rng), axis=-1)
    return sample_radius(radial_law(MANIFOLDS[space]), sigma, size, rng)


def compare(space: str, sigma: float, step: float | None, burn_in: int, thin: int, draws: int, chains: int,
            seed: int, *, progress: Callable[[float, str], None] | None = None) -> Comparison:
    """Run both samplers for ``draws × chains`` draws each; ``step=None`` adapts the MH step.

    Kept in a shared ``ResultStore`` (not ``st.cache_data``) so that ``progress`` can follow the MH
    chains, (fraction done, text), while a new comparison runs.

    Raises ``ValueError`` (from the engine) for a non-normalisable σ or a step beyond the injectivity
    radius, and when σ is too close to the limit for double precision.
    """
    args = (space, sigma, step, burn_in, thin, draws, chains, seed)
    return shared_store("samplers").get(args, lambda: _compare(*args, progress=progress))


def _compare(space: str, sigma: float, step: float | None, burn_in: int, thin: int, draws: int, chains: int,
             seed: int, *, progress: Callable[[float, str], None] | None) -> Comparison:
    """``compare`` computed afresh."""
    steps = burn_in + thin * (draws - 1)

    def chain_progress(fraction: float) -> None:
        if progress is not None:
            progress(fraction, f"{chains} MH chains: step {round(fraction * steps):,} of {steps:,}")

    m = MANIFOLDS[space]
    rng = np.random.default_rng(seed)
    total = draws * chains
    start = time.perf_counter()
    riemannian_laplace(m, m.origin, sigma, size=total, rng=rng)
    exact_seconds = time.perf_counter() - start
    exact = _exact_radii(space, sigma, total, rng)
    grid = np.linspace(0.0, _grid_end(space, sigma), GRID_POINTS)
    density = radial_density(m, sigma, grid)
    cdf = integrate.cumulative_trapezoid(density, grid, initial=0.0)
    cdf /= cdf[-1]
    start = time.perf_counter()
    result = laplace_mh(m, np.broadcast_to(m.origin, (chains,) + m.point_shape), sigma, size=draws, rng=rng,
                        step=step, burn_in=burn_in, thin=thin, keep_chain=True, progress=chain_progress)
    mh_seconds = time.perf_counter() - start
    mh = result.chain[burn_in::thin]
    if not np.all(np.isfinite(result.chain)):
        raise ValueError(f"the MH chain on {m.name} went so far from the footpoint (σ = {sigma:g}) that its distances "
                         f"overflow double precision; lower σ")

    def exact_cdf(rho):
        return np.interp(rho, grid, cdf)

    return Comparison(
        exact_radii=exact, mh_radii=mh, chain=result.chain[:, 0], grid=grid, density=density,
        mean_radius=float(integrate.trapezoid(grid * density, grid)),
        ks_exact=float(stats.kstest(exact, exact_cdf).statistic),
        ks_mh=float(stats.kstest(mh.ravel(), exact_cdf).statistic),
        exact_per_second=total / exact_seconds, mh_per_second=total / mh_seconds,
        acceptance=float(np.mean(result.acceptance_rate)),
        ess=float(np.sum(effective_sample_size(mh, axis=0))),
        autocorrelation_time=float(np.mean(result.autocorrelation_time)),
        step=float(np.mean(result.step)),
    )


@st.cache_data(max_entries=16, show_spinner=False)
def figures(space: str, sigma: float, step: float | None, burn_in: int, thin: int, draws: int, chains: int,
            seed: int) -> dict:
    """The page's figures and chart data for the arguments of ``compare`` (cached: building the trace
    figure takes longer than the whole cached rerun may).

    Returns ``{"exact": fig, "mh": fig, "trace": fig, "trace_data": DataFrame, "radii": DataFrame}``.
    """
    result = compare(space, sigma, step, burn_in, thin, draws, chains, seed)
    exact, mh = histograms(result)
    trace_fig, trace_data = trace(result, burn_in)
    return {"exact": exact, "mh": mh, "trace": trace_fig, "trace_data": trace_data, "radii": radii_table(result)}


def histograms(result: Comparison) -> tuple[go.Figure, go.Figure]:
    """Radius histograms of the exact and the MH sampler against the exact density, on one x range."""
    end = 1.05 * max(result.exact_radii.max(), result.mh_radii.max())
    keep = result.grid <= end
    grid, density = result.grid[keep], result.density[keep]
    exact = histogram_with_density(result.exact_radii, grid, density, name="riemannian laplace",
                                   x_title="distance to the footpoint ρ",
                                   title=f"Exact sampler: KS distance {result.ks_exact:.3f}")
    mh = histogram_with_density(result.mh_radii.ravel(), grid, density, name="riemannian laplace (mh)",
                                x_title="distance to the footpoint ρ",
                                title=f"Metropolis–Hastings: KS distance {result.ks_mh:.3f}")
    top = 1.1 * max(max(trace.y.max() for trace in fig.data) for fig in (exact, mh))
    for fig in (exact, mh):
        fig.update_xaxes(range=[0, end])
        fig.update_yaxes(range=[0, top])
    return exact, mh


def trace(result: Comparison, burn_in: int) -> tuple[go.Figure, pd.DataFrame]:
    """Trace of the first chain's distance to the footpoint, burn-in shaded, exact mean radius dashed."""
    stride = max(1, -(-len(result.chain) // TRACE_POINTS))
    steps = np.arange(0, len(result.chain), stride)
    data = pd.DataFrame({"iteration": steps, TRACE_VALUE: result.chain[steps]})
    fig = trace_figure(data, value=TRACE_VALUE, burn_in=burn_in, row_height=360)
    # The exact mean radius is a legend entry, not an annotation on the line: a label placed on the
    # chart lands on the trace wherever the chain happens to be.
    fig.add_trace(go.Scatter(x=[steps[0], steps[-1]], y=[result.mean_radius] * 2, mode="lines",
                             name=f"exact mean E ρ = {result.mean_radius:.3g}", hoverinfo="skip",
                             line=dict(color="#000000", width=2, dash="dash")))
    return fig, data


def radii_table(result: Comparison) -> pd.DataFrame:
    """Tidy radii of both samplers: sampler, chain, draw, rho (exact draws have no chain)."""
    draws, chains = result.mh_radii.shape
    mh = pd.DataFrame({"sampler": "metropolis-hastings", "chain": np.tile(np.arange(chains), draws),
                       "draw": np.repeat(np.arange(draws), chains), "rho": result.mh_radii.ravel()})
    exact = pd.DataFrame({"sampler": "exact", "chain": -1, "draw": np.arange(result.exact_radii.size),
                          "rho": result.exact_radii})
    return pd.concat([exact, mh], ignore_index=True)
