"""The first assumption of every guarantee: records lie in the public ball B_r(m0).

Reimherr, Bharath & Soto (2021), Theorem 2 and every sensitivity bound of ``engine.bounds`` assume
ρ(x_i, m0) <= r for all records, with r and m0 fixed before looking at the data. ``enforce_ball``
checks it on the data → mean → release path and, by the caller's choice, refuses or clips records
outside the ball, or (voiding the guarantee, for teaching only) drops or keeps them.
"""

from __future__ import annotations

import numpy as np

from engine.validation import check_positive

#: Relative slack of the membership test, so that points generated on the boundary count as inside.
BALL_RTOL = 1e-9
POLICIES = ("refuse", "clip", "drop", "keep")


def enforce_ball(manifold, data, center, radius, policy: str = "refuse") -> tuple[np.ndarray, dict]:
    """Apply ``policy`` to records farther than ``radius`` from ``center``.

    Parameters
    ----------
    data : array ``(n, *point_shape)``
    center : array ``point_shape``, the public centre m0
    radius : float > 0, the public radius r
    policy : {"refuse", "clip", "drop", "keep"}
        ``"refuse"`` (the default) raises ``ValueError`` naming the first record outside;
        ``"clip"`` moves each outside record to Exp_m0(r·log_m0(x)/|log_m0(x)|) on the boundary (up to a
        relative 1e−9 inside it; a
        per-record map, so the neighbouring relation and the guarantee are kept); ``"drop"`` removes
        them (n then depends on the data, so the guarantee does not hold: ``void_reason``); ``"keep"``
        leaves them and the guarantee does not hold either.

    Returns
    -------
    (data, info) with info = ``n_outside``, ``max_dist`` and ``kept`` (mask of input rows still present).
    """
    radius = check_positive("radius", radius)
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    data = manifold.check_points(data, "data")
    center = manifold.check_points(center, "center")
    dist = manifold.dist(center, data)
    outside = dist > radius * (1.0 + BALL_RTOL)
    info = dict(n_outside=int(outside.sum()), max_dist=float(dist.max()), kept=np.ones(len(data), dtype=bool))
    if not outside.any() or policy == "keep":
        return data, info
    if policy == "refuse":
        first = int(np.argmax(outside))
        raise ValueError(
            f"record {first} lies at distance {dist[first]:.6g} from the centre, outside the public ball of radius "
            f"{radius:.6g} ({info['n_outside']} of {len(data)} records do): every sensitivity bound assumes all "
            f"records inside; clip or drop them, or choose a larger public radius"
        )
    if policy == "clip":
        v = manifold.log(center, data[outside])
        # A hair inside the boundary, so that rounding cannot leave a clipped record outside the ball.
        scale = radius * (1.0 - BALL_RTOL) / manifold.norm(center, v)
        data = data.copy()
        data[outside] = manifold.exp(center, manifold.per_point(scale) * v)
        return data, info
    if outside.all():
        raise ValueError(f"all {len(data)} records lie outside the ball of radius {radius:.6g}: "
                         f"nothing is left after dropping them; raise r or clip instead")
    return data[~outside], info | dict(kept=~outside)


def void_reason(policy: str, n_outside: int, n_before: int, radius: float) -> str:
    """Why the releases of data that went through ``enforce_ball`` are not ε-DP, or ``""`` when they are:
    records outside the ball kept (the sensitivity bound fails) or dropped (n and Δ depend on the data)."""
    if n_outside == 0 or policy in ("refuse", "clip"):
        return ""
    if policy == "keep":
        return (f"{n_outside} of {n_before} records lie outside the public ball of radius {radius:.6g} and were kept, "
                "so the sensitivity bound does not hold; clip them instead")
    return (f"{n_outside} of {n_before} records outside the public ball of radius {radius:.6g} were dropped, so n and "
            "the sensitivity calibrated from it depend on the data; clip them instead")
