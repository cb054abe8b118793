"""Sensitivity of Fréchet means and of the queries built on them, as pure functions.

Radius limits (Assumption 1), Theorem 2's sensitivity of the Fréchet mean and its factor h(r, κ),
the gradient sensitivity of supplement Lemma 1, the Lipschitz constant of log_{m0}, ambient radii
and the supplement's empirical boundary constant. Every formula reads the space's curvature bounds
and declared capabilities (``kappa_max``, ``injectivity_radius``, ``ambient_ball_radius``), never
its name.

References: Reimherr, Bharath & Soto (2021), "Differential privacy over Riemannian manifolds"
(Assumption 1, Theorem 2, supplement §1.2.2, §1.3.2, Lemma 1 and Figure 1 of the supplement).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.validation import check_int, check_positive


@dataclass(frozen=True)
class RadiusLimits:
    """Largest admissible data radius r for a curvature bound κ and injectivity radius.

    ``unique_mean`` = ½ min{inj, π/√κ} (Afsari 2011: existence and uniqueness of the mean);
    ``sensitivity`` = r* = min{inj/2, π/(4√κ)} (Assumption 1, needed by Theorem 2).
    """

    unique_mean: float
    sensitivity: float


def radius_limits(kappa_max: float, injectivity_radius: float = np.inf) -> RadiusLimits:
    """Radius limits of Assumption 1 for sectional curvature ≤ ``kappa_max``."""
    curvature_limit = np.pi / np.sqrt(kappa_max) if kappa_max > 0 else np.inf
    return RadiusLimits(
        unique_mean=0.5 * min(injectivity_radius, curvature_limit),
        sensitivity=min(injectivity_radius / 2, curvature_limit / 4),
    )


def check_radius(manifold, radius: float, *, purpose: str = "mean") -> float:
    """Return ``radius`` if data in B_r(m0) satisfy the assumption named by ``purpose``.

    ``purpose="mean"`` checks r < ½ min{inj, π/√κ} (unique Fréchet mean);
    ``purpose="sensitivity"`` checks r < r* = min{inj/2, π/(4√κ)} (Theorem 2). Raises ``ValueError``
    naming the limit that fails.
    """
    r = check_positive("radius", radius)
    limits = radius_limits(manifold.kappa_max, manifold.injectivity_radius)
    if purpose == "mean":
        limit, rule = limits.unique_mean, "½·min{inj, π/√κ} for a unique Fréchet mean"
    elif purpose == "sensitivity":
        limit, rule = limits.sensitivity, "r* = min{inj/2, π/(4√κ)} of Assumption 1 (Theorem 2)"
    else:
        raise ValueError(f"purpose must be 'mean' or 'sensitivity', got {purpose!r}")
    if not r < limit:
        raise ValueError(
            f"radius {r:.4g} is at or beyond the limit {limit:.4g} = {rule} on {manifold.name} "
            f"(curvature ≤ {manifold.kappa_max:g}, injectivity radius {manifold.injectivity_radius:g})"
        )
    return r


def curvature_factor(radius, kappa_max) -> np.ndarray:
    """h(r, κ) of Theorem 2: 2r√κ·cot(2r√κ) for κ > 0 and 1 for κ ≤ 0 (broadcasts).

    The bare formula, for drawing h across r: it is positive again on the periodic branches
    2r√κ ∈ (π, 3π/2), (2π, 5π/2), … where Theorem 2 does not apply. Whether a bound may use it is
    decided by ``theorem2_domain`` alone.
    """
    r = np.asarray(radius, dtype=float)
    kappa = np.asarray(kappa_max, dtype=float)
    t = 2.0 * r * np.sqrt(np.maximum(kappa, 0.0))
    # t / tan(t) -> 1 as t -> 0; the where avoids 0/0 for κ ≤ 0 or r = 0.
    safe_t = np.where(t > 0, t, 1.0)
    return np.where(t > 0, safe_t / np.tan(safe_t), 1.0)


def theorem2_domain(radius, kappa_max) -> np.ndarray:
    """Where Theorem 2 applies: 0 < r finite and 2r√κ < π/2, i.e. r < π/(4√κ) for κ > 0 (broadcasts).

    The one statement of the domain of Theorem 2 and of supplement Lemma 1; NaN and κ = +∞ are
    outside it. On (0, π/2) the factor h = t·cot t decreases from 1 to 0, so h > 0 there.
    """
    r = np.asarray(radius, dtype=float)
    kappa = np.asarray(kappa_max, dtype=float)
    with np.errstate(invalid="ignore"):
        t = 2.0 * r * np.sqrt(np.maximum(kappa, 0.0))
        return (r > 0) & np.isfinite(r) & ~np.isnan(kappa) & (kappa < np.inf) & (t < np.pi / 2)


def _first_bad(values: np.ndarray, bad: np.ndarray) -> float:
    return float(np.broadcast_to(values, bad.shape)[tuple(np.argwhere(bad)[0])])


def _radius_and_curvature(radius, kappa_max, *, allow_zero: bool, context: str):
    """r and κ as arrays; ``ValueError`` for a radius that is NaN, infinite or negative (or 0 unless
    ``allow_zero``) and for κ NaN or +∞, quoting the first bad value."""
    r = np.asarray(radius, dtype=float)
    bad_r = ~np.isfinite(r) | ~((r >= 0) if allow_zero else (r > 0))
    if np.any(bad_r):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"radius must be a finite number {bound}{context}, got {_first_bad(r, bad_r)!r}")
    kappa = np.asarray(kappa_max, dtype=float)
    bad_kappa = np.isnan(kappa) | (kappa == np.inf)
    if np.any(bad_kappa):
        raise ValueError(f"kappa_max must be a number below +inf{context}, got {_first_bad(kappa, bad_kappa)!r}")
    return r, kappa


def _finite(result: str, r: np.ndarray, value: np.ndarray) -> np.ndarray:
    """``value`` if every entry is finite; a radius so large that the bound overflows float64 is refused."""
    with np.errstate(over="ignore"):
        bad = ~np.isfinite(value)
    if np.any(bad):
        raise ValueError(f"radius {_first_bad(r, bad)!r} is too large for {result}: the sensitivity overflows float64")
    return value


def _theorem2_factor(n, radius, kappa_max, result: str):
    """Checked (n, r, h) of Theorem 2 and supplement Lemma 1; ``ValueError`` outside their domain:
    n an integer >= 1, r > 0 finite, κ not NaN nor +∞, and r < π/(4√κ) (``theorem2_domain``)."""
    n = np.asarray(n, dtype=float)
    bad_n = ~np.isfinite(n) | (n < 1) | (n != np.floor(n))
    if np.any(bad_n):
        raise ValueError(f"n must be an integer >= 1 for {result}, got {_first_bad(n, bad_n)!r}")
    r, kappa = _radius_and_curvature(radius, kappa_max, allow_zero=False, context=f" for {result}")
    outside = ~theorem2_domain(r, kappa)
    if np.any(outside):
        where = tuple(np.argwhere(outside)[0])
        r0 = float(np.broadcast_to(r, outside.shape)[where])
        k0 = float(np.broadcast_to(kappa, outside.shape)[where])
        raise ValueError(
            f"radius {r0!r} is at or beyond the limit π/(4√κ) = {np.pi / (4 * np.sqrt(k0)):.6g} for κ = {k0:g}: "
            f"{result} needs 2r√κ < π/2 and does not apply"
        )
    return n, r, curvature_factor(r, kappa)


def frechet_mean_sensitivity(n, radius, kappa_max) -> np.ndarray:
    """Theorem 2 of Reimherr et al.: ρ(x̄, x̄′) ≤ 2r(2 − h)/(n h), h = h(r, κ_max).

    Valid for data in B_r(m0) with r < π/(4√κ) (κ > 0) and integer n >= 1 (``theorem2_domain``);
    ``ValueError`` outside it, including the periodic branches where h is positive again.
    Examples: κ = 1, r = π/8, n = 10 gives 0.121460; κ ≤ 0, r = 1, n = 20 gives 0.1.
    """
    n, r, h = _theorem2_factor(n, radius, kappa_max, "Theorem 2")
    return _finite("Theorem 2", r, 2.0 * r * (2.0 - h) / (n * h))


def frechet_gradient_sensitivity(n, radius, kappa_max) -> np.ndarray:
    """Δ_∇ = sup ‖grad F_D(W) − grad F_D'(W)‖_W for data in B_r(m0), F = (1/(2n)) Σ d²(W, X_i).

    2r/n for κ_max ≤ 0 (valid at every W of a Hadamard space), 2r(2 − h(r, κ))/n with
    h = 2r√κ·cot(2r√κ) for κ = κ_max > 0 (valid for W in B_r(m0); Reimherr, Bharath & Soto 2021,
    supplement Lemma 1). Broadcasts; ``ValueError`` outside ``theorem2_domain`` or for n not an integer >= 1.
    Examples: κ ≤ 0, r = 1, n = 20 gives 0.1; κ = 1, r = π/8, n = 10 gives (2 − π/4)·π/40 = 0.095395.
    """
    n, r, h = _theorem2_factor(n, radius, kappa_max, "Lemma 1")
    return _finite("Lemma 1", r, 2.0 * r * (2.0 - h) / n)


def log_lipschitz(radius, kappa_max) -> np.ndarray:
    """Lipschitz constant L of log_{m0} on B_r(m0): ‖log_{m0}x − log_{m0}y‖ ≤ L·ρ(x, y) (broadcasts).

    L = √κ r / sin(√κ r) for κ = κ_max > 0 and L = 1 for κ ≤ 0.

    Derivation: write x = Exp_{m0}(v) with ‖v‖ = ρ ≤ r. By the Gauss lemma dExp_{m0} at v keeps the
    length of the radial direction, and by the Rauch comparison theorem (do Carmo 1992, *Riemannian
    Geometry*, ch. 10) it shrinks directions orthogonal to v by at least sn_κ(ρ)/ρ = sin(√κ ρ)/(√κ ρ)
    when the sectional curvature is ≤ κ (κ > 0, ρ < π/√κ), and not at all when κ ≤ 0. So the
    differential of log_{m0} = Exp_{m0}⁻¹ has operator norm ≤ √κ ρ/sin(√κ ρ) ≤ √κ r/sin(√κ r) (the
    ratio increases with ρ), respectively ≤ 1. When B_r(m0) is geodesically convex, the minimising
    geodesic from x to y stays in it and integrating this bound along it gives L. On S² (κ = 1) L
    is attained: two boundary points a small angle apart, orthogonally to the radius, have
    ‖log x − log y‖/ρ(x, y) → r/sin r.

    It turns Theorem 2's bound on ρ(x̄, x̄′) into a sensitivity of the tangent-space query
    log_{m0}(x̄) (``tangent_mean_sensitivity``).

    Valid for r < ½·min{inj, π/√κ} (where the ball is convex, ``check_radius(purpose="mean")``); the
    curvature part √κ r < π/2 is checked here (``ValueError`` beyond it), the injectivity radius
    is the caller's.
    """
    r, kappa = _radius_and_curvature(radius, kappa_max, allow_zero=True, context="")
    t = r * np.sqrt(np.maximum(kappa, 0.0))
    if np.any(t >= np.pi / 2):
        raise ValueError(
            f"radius {radius} is at or beyond π/(2√κ) for κ = {kappa_max}: B_r(m0) is not convex and the "
            f"Lipschitz bound of log_m0 does not apply"
        )
    # t / sin(t) -> 1 as t -> 0; the where avoids 0/0 for κ ≤ 0 or r = 0.
    safe_t = np.where(t > 0, t, 1.0)
    return np.where(t > 0, safe_t / np.sin(safe_t), 1.0)


def tangent_mean_sensitivity(n, radius, kappa_max) -> np.ndarray:
    """Sensitivity Δ_T = Δ·L of the tangent-space query log_{m0}(x̄) for data in B_r(m0).

    The Fréchet means x̄, x̄′ of neighbouring data sets lie in the convex ball B_r(m0), so
    ‖log_{m0}x̄ − log_{m0}x̄′‖ ≤ L·ρ(x̄, x̄′) ≤ L·Δ with Δ from Theorem 2
    (``frechet_mean_sensitivity``) and L from ``log_lipschitz``. This is the Δ of the tangent
    Gaussian mechanism with the public base point m0 (Han, Mishra, Jawanpuria & Gao, Proposition 2).
    Valid where Theorem 2 is (r < r*); ``ValueError`` beyond it.
    """
    return frechet_mean_sensitivity(n, radius, kappa_max) * log_lipschitz(radius, kappa_max)


def ambient_radius(manifold, radius, centre=None) -> np.ndarray:
    """Radius r_E of an ambient ball containing the geodesic ball B_r(centre) (the origin's when
    ``centre`` is ``None``), as the space states it (``Manifold.ambient_ball_radius``): λ_max(m0)(e^r − 1)
    on SPD (e^r − 1 around I, supplement, Proposition 1), the chord 2 sin(r/2) on the unit sphere
    (supplement §1.3.2). ``ValueError`` where none is known.
    """
    r_e = manifold.ambient_ball_radius(radius, centre)
    if r_e is None:
        raise ValueError(f"no ambient radius is known for {manifold.name}: the Euclidean baseline needs one")
    return r_e


def ambient_sensitivity(n, ambient_radius_value) -> np.ndarray:
    """Sensitivity of the ambient (Euclidean) mean for data in a ball of radius r_E: 2 r_E / n."""
    return 2.0 * np.asarray(ambient_radius_value, dtype=float) / np.asarray(n, dtype=float)


def boundary_log_constant(manifold, center, radius: float, *, grid: int = 48, rng=None) -> float:
    """Supplement Figure 1's empirical constant: max ‖log_{x1}(x_i) − log_{x1}(x_j)‖ over
    x1, x_i, x_j on a grid of the boundary ∂B_r(center).

    For dim = 2 the grid is ``grid`` equally spaced directions; otherwise ``grid`` random ones.
    Theorem 2 replaces it by 2r(2 − h); the paper's sphere study used this constant instead.
    """
    r = check_positive("radius", radius)
    g = check_int("grid", grid, minimum=3)
    center = manifold.check_points(center, "center")
    basis = manifold.tangent_basis(center)
    if manifold.dim == 2:
        angle = np.linspace(0.0, 2.0 * np.pi, g, endpoint=False)
        coef = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    else:
        coef = np.random.default_rng(rng).standard_normal((g, manifold.dim))
        coef /= np.linalg.norm(coef, axis=-1, keepdims=True)
    idx = "abcd"[: manifold.point_ndim]
    boundary = manifold.exp(center, r * np.einsum(f"gi,i{idx}->g{idx}", coef, basis))
    logs = manifold.log(boundary[:, None], boundary[None, :])  # logs[a, b] = log_{x_a}(x_b)
    diff = logs[:, :, None] - logs[:, None, :]
    return float(manifold.norm(boundary[:, None, None], diff).max())
