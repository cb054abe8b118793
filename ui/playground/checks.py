"""The assumptions behind the playground's numbers, each checked and explained.

Every check is a dict with a ``level`` (success/info/warning/error), a ``title`` and a ``text``
saying whether the assumption holds and why.
"""

from __future__ import annotations

import numpy as np

from engine.mechanisms import scale_limit
from ui.playground.spaces import Settings


def _radius(s: Settings, ctx: dict) -> dict:
    """Whether r is below Theorem 2's limit r* (``ctx["theorem2"]`` is ``None`` beyond it)."""
    limit = ctx["limits"].sensitivity
    if ctx["theorem2"] is None:
        return dict(level="error", title="Radius beyond the curvature limit", text=ctx["theorem2_failure"])
    why = ("κ ≤ 0 and an infinite injectivity radius put no limit on r"
           if not np.isfinite(limit) else f"r = {s.radius:.4f} < r* = {limit:.4f} = min{{inj/2, π/(4√κ)}}")
    return dict(level="success", title="Radius within the curvature limit",
                text=f"{why}, so Theorem 2 bounds the sensitivity of the Fréchet mean.")


def _ball(s: Settings, ctx: dict) -> dict:
    """Whether every record lies in B_r(m0), and what the ``outside`` choice did about those that do not."""
    n_out, where = ctx["n_outside"], f"B_r(m₀) (r = {s.radius:.4f})"
    if n_out == 0:
        return dict(level="success", title="Every record inside the ball",
                    text=f"All {ctx['n_used']} records lie within {where}, as Theorem 2 assumes.")
    if s.outside == "keep":
        return dict(level="error", title=f"{n_out} of {ctx['n_before']} records outside the ball",
                    text=f"They lie outside {where} (the farthest at distance {ctx['max_dist']:.3f}), so the "
                         f"sensitivity bound Δ does not hold and these releases are NOT ε-DP. Clip or drop "
                         f"them, or choose a larger public r — but never set r from these distances: that "
                         f"would make r depend on the private data.")
    if s.outside == "clip":
        return dict(level="warning", title=f"{n_out} records clipped onto the boundary",
                    text=f"Each was moved along its geodesic from m₀ onto the boundary of {where}. Clipping "
                         f"acts record by record, so Theorem 2 holds for the clipped data; the mean is biased "
                         f"towards m₀.")
    return dict(level="warning", title=f"{n_out} records dropped",
                text=f"n = {ctx['n_used']} remain and enter Δ. How many were dropped depends on the "
                     f"data, so strictly the released n needs protection too; clipping avoids this.")


def _convergence(ctx: dict) -> list[dict]:
    """A warning when the Fréchet mean's gradient descent stopped before converging."""
    if ctx["mean_converged"]:
        return []
    return [dict(level="warning", title="Fréchet mean did not converge",
                 text=f"Gradient descent stopped after {ctx['mean_iterations']} iterations; the footpoint "
                      f"of the releases is then only approximately the mean.")]


def _normalisability(s: Settings, manifold, ctx: dict, runs: list[dict]) -> list[dict]:
    """Whether exp(−ρ/σ) integrates at the Riemannian Laplace's σ (``engine.mechanisms.scale_limit``)."""
    laplace = [run for run in runs if run["key"] in ("exact", "mh")]
    if not laplace or ctx["theorem2"] is None:
        return []
    sigma, limit_sigma = laplace[0]["sigma"], scale_limit(manifold)
    if not np.isfinite(limit_sigma):
        return [dict(level="success", title="Laplace law normalisable",
                     text=f"{manifold.name} is compact, so exp(−ρ/σ) integrates to a finite constant for every σ.")]
    if sigma < limit_sigma:
        return [dict(level="success", title="Laplace law normalisable",
                     text=f"σ = {sigma:.4g} < {limit_sigma:.4g}, the largest scale at which exp(−ρ/σ) "
                          f"outweighs the exponential growth of volume on {manifold.name}.")]
    growth = ("balls of H² grow in area like e^ρ, so σ(d − 1) < 1 is needed"
              if s.space == "hyperbolic" else "volume on SPD(2) grows like e^{√2·ρ}, so σ < √2 is needed")
    return [dict(level="error", title="Laplace law not normalisable",
                 text=f"σ = Δ/ε = {sigma:.4g} ≥ {limit_sigma:.4g}: {growth}. The density "
                      f"exp(−ρ/σ) cannot be normalised and the Riemannian Laplace releases are skipped. "
                      f"Raise n or ε, or lower r, to shrink σ.")]


def _mixing(s: Settings, diag: dict) -> dict:
    """Whether the MH chain's autocorrelation time is within the thinning."""
    chain = (f"{diag['steps']:,} steps, acceptance rate {diag['acceptance']:.0%}, proposal radius "
             f"{diag['step']:.3g}, effective sample size {diag['ess']:.0f} over the last {diag['window']:,} steps")
    if diag["autocorrelation"] > s.thin:
        return dict(level="warning", title="MH releases are correlated",
                    text=f"The chain's autocorrelation time is {diag['autocorrelation']:.0f} steps, more "
                         f"than the thinning {s.thin}: consecutive releases are not independent "
                         f"({chain}). Raise the thinning.")
    return dict(level="success", title="MH chain mixes",
                text=f"Autocorrelation time {diag['autocorrelation']:.1f} steps ≤ thinning {s.thin} "
                     f"({chain}). The draws are still approximate: the burn-in is {s.burn_in:,} steps "
                     f"(the paper used 10,000).")


def assumption_checks(settings: Settings, manifold, ctx: dict, runs: list[dict]) -> list[dict]:
    """The assumptions behind the numbers, in display order: radius, ball, convergence of the mean,
    normalisability of the Laplace law and mixing of each MH chain."""
    s = settings
    return [
        _radius(s, ctx), _ball(s, ctx), *_convergence(ctx), *_normalisability(s, manifold, ctx, runs),
        *(_mixing(s, run["diagnostics"]) for run in runs if run["diagnostics"] is not None),
    ]
