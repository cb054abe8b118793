"""The assumptions behind a private release, each checked and explained as a structured result.

Every check returns ``Check(level, title, text)`` with ``level`` one of success/info/warning/error,
saying whether the assumption holds and why. Pages show them as coloured boxes; the CLI prints them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.mechanisms import scale_limit


@dataclass(frozen=True)
class Check:
    level: str
    title: str
    text: str


def radius_check(radius: float, limit: float, failure: str | None) -> Check:
    """Whether r is below Theorem 2's limit r* (``failure`` says why not, else ``None``)."""
    if failure is not None:
        return Check("error", "Radius beyond the curvature limit", failure)
    why = ("κ ≤ 0 and an infinite injectivity radius put no limit on r"
           if not np.isfinite(limit) else f"r = {radius:.4f} < r* = {limit:.4f} = min{{inj/2, π/(4√κ)}}")
    return Check("success", "Radius within the curvature limit",
                 f"{why}, so Theorem 2 bounds the sensitivity of the Fréchet mean.")


def ball_check(radius: float, policy: str, *, n_outside: int, n_before: int, n_used: int, max_dist: float) -> Check:
    """Whether every record lies in B_r(m0), and what the ball ``policy`` did about those that do not."""
    where = f"B_r(m₀) (r = {radius:.4f})"
    if n_outside == 0:
        return Check("success", "Every record inside the ball",
                      f"All {n_used} records lie within {where}, as Theorem 2 assumes.")
    if policy == "keep":
        return Check("error", f"{n_outside} of {n_before} records outside the ball",
                     f"They lie outside {where} (the farthest at distance {max_dist:.3f}), so the sensitivity bound "
                     f"Δ does not hold and these releases are NOT ε-DP. Clip or drop them, or choose a larger public "
                     f"r — but never set r from these distances: that would make r depend on the private data.")
    if policy == "clip":
        return Check("warning", f"{n_outside} records clipped onto the boundary",
                     f"Each was moved along its geodesic from m₀ onto the boundary of {where}. Clipping acts record "
                     f"by record, so Theorem 2 holds for the clipped data; the mean is biased towards m₀.")
    return Check("error", f"{n_outside} records dropped: NOT ε-DP",
                 f"n = {n_used} of {n_before} remain and Δ is calibrated from that n. How many records are dropped "
                 f"depends on the data: a neighbour that moves one record out of {where} changes n and Δ, and the "
                 f"released n, so these releases are NOT ε-DP. Clip instead: it moves each record onto the "
                 f"boundary by itself, keeps n public and keeps the guarantee.")


def convergence_check(converged: bool, iterations: int, unique: bool) -> list[Check]:
    """A warning when the Fréchet mean's gradient descent stopped before converging, and one when the
    records are not all within ½·min{inj, π/√κ} of the mean, so its uniqueness is not guaranteed
    (``FrechetMeanResult.unique``)."""
    found = []
    if not converged:
        found.append(Check("warning", "Fréchet mean did not converge",
                           f"Gradient descent stopped after {iterations} iterations; the footpoint of the releases "
                           f"is then only approximately the mean."))
    if not unique:
        found.append(Check("warning", "Fréchet mean not guaranteed unique",
                           "Some records lie at least ½·min{inj, π/√κ} from the mean (Afsari 2011's radius), so the "
                           "minimiser may not be unique and the point found may be none (two antipodal points of "
                           "the sphere have a whole equator of means). Lower r or clip the records to the ball."))
    return found


def normalisability_check(manifold, sigma: float) -> Check:
    """Whether exp(−ρ/σ) integrates at the Riemannian Laplace's σ (``engine.mechanisms.scale_limit``)."""
    limit = scale_limit(manifold)
    if not np.isfinite(limit):
        return Check("success", "Laplace law normalisable",
                     f"The volume of balls on {manifold.name} grows polynomially, so exp(−ρ/σ) integrates to a "
                     f"finite constant for every σ.")
    if sigma < limit:
        return Check("success", "Laplace law normalisable",
                     f"σ = {sigma:.4g} < {limit:.4g}, the largest scale at which exp(−ρ/σ) outweighs the "
                     f"exponential growth of volume on {manifold.name}.")
    return Check("error", "Laplace law not normalisable",
                 f"σ = {sigma:.4g} ≥ {limit:.4g}: the volume of balls on {manifold.name} grows like "
                 f"e^{{{manifold.volume_growth:.3g}·ρ}}, so σ < {limit:.4g} is needed. The density exp(−ρ/σ) cannot be "
                 f"normalised and the Riemannian Laplace releases are skipped. Raise n or ε, or lower r, to shrink σ.")


def mixing_check(diagnostics: dict, *, thin: int, burn_in: int) -> Check:
    """Whether the MH chain's autocorrelation time is within the thinning."""
    d = diagnostics
    chain = (f"{d['steps']:,} steps, acceptance rate {d['acceptance']:.0%}, proposal radius {d['step']:.3g}, "
             f"effective sample size {d['ess']:.0f} over the last {d['window']:,} steps")
    if d["autocorrelation"] > thin:
        return Check("warning", "MH releases are correlated",
                     f"The chain's autocorrelation time is {d['autocorrelation']:.0f} steps, more than the thinning "
                     f"{thin}: consecutive releases are not independent ({chain}). Raise the thinning.")
    return Check("success", "MH chain mixes",
                 f"Autocorrelation time {d['autocorrelation']:.1f} steps ≤ thinning {thin} ({chain}). The draws are "
                 f"still approximate: the burn-in is {burn_in:,} steps (the paper used 10,000).")
