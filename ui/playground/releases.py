"""One mechanism's run in the playground: calibrated from public parameters only (r, m0, n, ε,
δ), released many times around the data's mean, and measured against it."""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.bounds import ambient_radius, ambient_sensitivity, log_lipschitz, tangent_mean_sensitivity
from engine.estimators import ambient_mean
from engine.mechanisms import (
    EuclideanLaplace,
    RiemannianLaplace,
    TangentGaussian,
    laplace_mh,
    off_manifold,
    scale_limit,
)
from ui.playground.spaces import PALETTE_NAMES, SHORT_NAMES, Settings


def _errors(space: str, manifold, mean: np.ndarray, releases: np.ndarray) -> dict:
    """Mean geodesic and ambient errors against the true mean, and the share off the manifold.

    Releases off the sphere are projected radially before measuring their geodesic error; off
    the SPD cone (not positive definite) they have none and are left out of the mean.
    """
    off = off_manifold(manifold, releases)
    if space == "sphere":
        geodesic = manifold.dist(mean, manifold.projection(releases))
    elif off.all():
        geodesic = np.array([np.nan])
    else:
        geodesic = manifold.dist(mean, releases[~off])
    ambient = np.nan
    if space in ("sphere", "spd"):
        gap = manifold.to_ambient(releases) - manifold.to_ambient(mean)
        ambient = float(np.linalg.norm(gap, axis=-1).mean())
    return dict(geodesic=float(np.mean(geodesic)), ambient=ambient, off_share=float(off.mean()))


def _run_euclidean(key: str, s: Settings, manifold, ctx: dict, rng, run: dict):
    """Ambient ℓ2 Laplace around the extrinsic mean, Δ_E = 2 r_E / n."""
    run["ambient_radius"] = float(ambient_radius(manifold.name, s.radius))
    run["sensitivity"] = float(ambient_sensitivity(ctx["n_used"], run["ambient_radius"]))
    mechanism = EuclideanLaplace(manifold=manifold, epsilon=s.epsilon, sensitivity=run["sensitivity"])
    run["sigma"] = mechanism.sigma
    extrinsic = ambient_mean(manifold, ctx["data"])
    return mechanism, mechanism.release(extrinsic, size=s.releases, rng=rng)


def _run_gaussian(key: str, s: Settings, manifold, ctx: dict, rng, run: dict):
    """Gaussian noise on log_m0(x̄) in T_m0M, Δ_T = L·Δ, σ by the analytic calibration."""
    run["lipschitz"] = float(log_lipschitz(s.radius, manifold.kappa_max))
    run["sensitivity"] = float(tangent_mean_sensitivity(ctx["n_used"], s.radius, manifold.kappa_max))
    mechanism = TangentGaussian(manifold=manifold, epsilon=s.epsilon, delta=s.delta, sensitivity=run["sensitivity"],
                                base_point=ctx["m0"], calibration="analytic")
    run["sigma"] = mechanism.sigma
    return mechanism, mechanism.release(ctx["mean"], size=s.releases, rng=rng)


def _run_laplace(key: str, s: Settings, manifold, ctx: dict, rng, run: dict):
    """Riemannian Laplace around x̄ with σ = Δ/ε, drawn exactly or by the MH chain."""
    run["sensitivity"] = ctx["theorem2"]["sensitivity"]
    run["sigma"] = run["sensitivity"] / s.epsilon
    limit = scale_limit(manifold)
    if run["sigma"] >= limit:
        raise ValueError(f"σ = {run['sigma']:.4g} is beyond the normalisability limit {limit:.4g} "
                         f"(see the normalisability check).")
    mechanism = RiemannianLaplace(manifold=manifold, epsilon=s.epsilon, sensitivity=run["sensitivity"])
    if key == "exact":
        return mechanism, mechanism.release(ctx["mean"], size=s.releases, rng=rng)
    chain = laplace_mh(manifold, ctx["mean"], mechanism.sigma, size=s.releases, rng=rng, step=s.step,
                       burn_in=s.burn_in, thin=s.thin)
    run["diagnostics"] = dict(acceptance=float(chain.acceptance_rate), ess=float(chain.effective_sample_size),
                              autocorrelation=float(chain.autocorrelation_time), step=float(chain.step),
                              window=int(chain.diagnostic_steps), steps=s.burn_in + s.thin * (s.releases - 1))
    return mechanism, chain.samples


_RUNNERS = {"exact": _run_laplace, "mh": _run_laplace, "euclid": _run_euclidean, "gauss": _run_gaussian}


def release(key: str, settings: Settings, manifold, ctx: dict, rng) -> dict:
    """Calibrate and run one mechanism; a ``ValueError`` becomes ``skipped`` with its reason."""
    run = dict(key=key, label=SHORT_NAMES[key], palette=PALETTE_NAMES[key], sensitivity=np.nan, sigma=np.nan,
               releases=None, skipped=None, guarantee=None, diagnostics=None, errors=None)
    try:
        if key != "euclid" and ctx["theorem2"] is None:
            raise ValueError("Theorem 2 gives no sensitivity bound at this radius (see the radius check).")
        mechanism, releases = _RUNNERS[key](key, settings, manifold, ctx, rng, run)
    except ValueError as err:
        run["skipped"] = str(err)
        return run
    run["releases"] = releases
    run["guarantee"] = dataclasses.asdict(mechanism.privacy_guarantee())
    run["errors"] = _errors(settings.space, manifold, ctx["mean"], releases)
    return run

