"""The playground's one cached computation, ``private_means``.

It samples a data set, computes its Fréchet mean, calibrates each mechanism from public parameters
only (the radius r and centre m0 of the data ball, n, ε, δ) and draws the releases. The result is
a plain dict of arrays, numbers and strings so that the cache stores it cheaply.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine.bounds import check_radius, curvature_factor, frechet_mean_sensitivity, radius_limits
from engine.data.ball import enforce_ball
from engine.estimators import frechet_mean
from ui.playground.checks import assumption_checks
from ui.playground.data import make_manifold, remap_edges, sample_data
from ui.playground.releases import release
from ui.playground.spaces import MECHANISMS, Settings


def _theorem2(manifold, radius: float, n: int, limits) -> tuple[dict | None, str | None]:
    """Theorem 2's ``h`` and sensitivity for n records in B_r(m0), or ``None`` and why it does not apply."""
    try:
        check_radius(manifold, radius, purpose="sensitivity")
    except ValueError:
        return None, (
            f"r = {radius:.4f} is at or beyond r* = {limits.sensitivity:.4f} = min{{inj/2, π/(4√κ)}} on "
            f"{manifold.name} (curvature up to {manifold.kappa_max:g}). There the factor h = 2r√κ·cot(2r√κ) is ≤ 0 "
            f"and Theorem 2 gives no sensitivity bound, so the Riemannian mechanisms cannot be calibrated. Lower r "
            f"below {limits.sensitivity:.4f}. The Euclidean baseline still runs: it only needs an ambient ball.")
    return dict(h=float(curvature_factor(radius, manifold.kappa_max)),
                sensitivity=float(frechet_mean_sensitivity(n, radius, manifold.kappa_max))), None


@st.cache_data(max_entries=16, show_spinner=False)
def private_means(settings: Settings) -> dict:
    """Data, Fréchet mean, sensitivity and private releases for one set of playground settings.

    Returns
    -------
    dict
        Plain arrays, numbers and strings: ``space``, ``kappa_max``, ``data`` (after the ball
        choice), ``m0``, ``mean``, ``edges`` (tree data), ``note``, counts (``n_requested``,
        ``n_available``, ``n_before``, ``n_used``), ``theorem2`` (``h`` and ``sensitivity``, or
        ``None`` beyond the curvature limit), ``runs`` (one dict per chosen mechanism: ``sigma``,
        ``sensitivity``, ``releases``, ``errors``, ``guarantee``, ``diagnostics`` or ``skipped``)
        and ``checks`` (``level``, ``title``, ``text``).

    Raises
    ------
    ValueError
        When the data cannot be generated (e.g. a radius the sampler cannot fill).
    """
    s = settings
    manifold = make_manifold(s.space, s.k)
    streams = np.random.SeedSequence(s.seed).spawn(2 + len(MECHANISMS))
    sample = sample_data(s, manifold, np.random.default_rng(streams[0]), np.random.default_rng(streams[1]))
    data, ball = enforce_ball(manifold, sample["data"], sample["m0"], s.radius, s.outside)
    fit = frechet_mean(manifold, data)
    limits = radius_limits(manifold.kappa_max, manifold.injectivity_radius)
    theorem2, failure = _theorem2(manifold, s.radius, len(data), limits)
    ctx = dict(data=data, m0=sample["m0"], mean=fit.mean, limits=limits, n_before=len(sample["data"]),
               n_used=len(data), n_outside=ball["n_outside"], max_dist=ball["max_dist"],
               mean_converged=bool(np.all(fit.converged)), mean_iterations=int(np.max(fit.n_iter)),
               theorem2=theorem2, theorem2_failure=failure)
    runs = [release(key, s, manifold, ctx, np.random.default_rng(streams[2 + i]))
            for i, key in enumerate(MECHANISMS) if key in s.mechanisms]
    return dict(
        space=s.space, kappa_max=float(manifold.kappa_max), data=data, m0=sample["m0"], mean=fit.mean,
        edges=remap_edges(sample["edges"], ball["kept"]), note=sample["note"], n_requested=s.n,
        n_available=sample["n_available"], n_before=ctx["n_before"], n_used=ctx["n_used"],
        theorem2=theorem2, runs=runs, checks=assumption_checks(s, manifold, ctx, runs),
    )
