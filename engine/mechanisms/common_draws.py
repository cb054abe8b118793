"""Riemannian Laplace releases over a grid of scales from common random numbers.

On a space whose Laplace law is a uniform direction times a radial law f_σ(ρ) ∝ exp(−ρ/σ) J(ρ)
(``radial.py``; Reimherr, Bharath & Soto 2021, Definition 3), a release is Exp_η(ρ u) with u uniform
on the unit sphere of T_ηM and ρ = F_σ⁻¹(U) for U uniform on (0, 1) (inverse-CDF sampling). Drawing
u and U once and mapping U through the quantile function of every σ gives, for each σ, releases
with exactly the Laplace law at that σ, while across σ each release keeps its direction and its
radius moves monotonically: f_σ has a monotone likelihood ratio in ρ, so F_σ⁻¹(U) increases with
σ. As ε grows (σ = Δ/ε shrinks) every release slides along its geodesic towards the footpoint,
which is what an animation over ε should show.

Moving footpoints: an animation over the sample size n releases around a different footpoint in
every frame (the Fréchet mean of the first n records). The directions are then drawn once at a
reference point ξ (by default the last footpoint) and carried to each frame's footpoint η_s by
parallel transport along the minimising geodesic from ξ to η_s. Parallel transport is a linear
isometry T_ξM → T_{η_s}M, so a uniform unit direction stays uniform, and it is independent of U:
every frame is still an exact draw of the Laplace law around its own footpoint. Transport depends
on the path on a curved space, so "the same direction" is defined relative to ξ: transporting a
frame's direction back along the same geodesic returns the direction drawn at ξ.

Exactness per frame: each frame is an exact draw from the Laplace law at its σ up to the error of
the numerical quantile, |F_σ(ρ̂) − U| below 1e−12 (8-point Gauss–Legendre integrals on 1,024 cells,
then Newton's method safeguarded by bisection inside the cell holding the root). Frames are dependent by construction;
never combine two frames into one release (that would spend the budget twice).
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammainccinv

from engine.mechanisms.laplace import radial_law
from engine.threads import blas_capped
from engine.validation import check_int, check_positive

_NODES = 1025
_GL_X, _GL_W = np.polynomial.legendre.leggauss(8)
_HALF_NODES = 0.5 * (_GL_X + 1.0)
_MAX_STEPS = 60
# Mass of the Gamma envelope left beyond the grid of an unbounded law (far below the quantile error).
_TAIL = 1e-15


def _density(law, rho: np.ndarray, sigma: float, shift: float) -> np.ndarray:
    """exp(log f_σ(ρ) − shift), 0 where the density vanishes."""
    return np.exp(law.log_density(rho, sigma) - shift)


def _integral(law, a, b, sigma: float, shift: float) -> np.ndarray:
    """∫_a^b exp(log f_σ − shift) by 8-point Gauss–Legendre (exact to rounding on one grid cell)."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    nodes = a[..., None] + (b - a)[..., None] * _HALF_NODES
    return 0.5 * (b - a) * np.sum(_GL_W * _density(law, nodes, sigma, shift), axis=-1)


def radial_quantile(law, sigma, u) -> np.ndarray:
    """ρ = F_σ⁻¹(u): quantiles of the radial Laplace law ``law`` at scale σ, shape of ``u``.

    Parameters
    ----------
    law : RadialLaw
        From ``engine.mechanisms.radial_law(manifold)``.
    sigma : float
        Scale σ > 0 with 1/σ > ``law.growth`` (normalisable).
    u : array_like
        Probabilities in (0, 1).

    Returns
    -------
    ndarray
        Radii with |F_σ(ρ) − u| < 1e−12 (module docstring).
    """
    sigma = check_positive("sigma", sigma)
    u = np.asarray(u, dtype=float)
    if np.any((u <= 0) | (u >= 1)):
        raise ValueError(f"u must lie in (0, 1), got values in [{u.min():g}, {u.max():g}]")
    rate = 1.0 / sigma - law.growth
    if rate <= 0:
        raise ValueError(f"the Laplace law on {law.name} with sigma={sigma!r} is not normalisable: it needs "
                         f"sigma < 1/{law.growth:g} = {1.0 / law.growth:.6g}")
    # The density is below the Gamma(n, rate) envelope ρ^{n−1} e^{−rate ρ}; past its 1 − 1e−15 quantile
    # the law has less mass still.
    upper = min(law.support, float(gammainccinv(law.shape, _TAIL)) / rate)
    grid = np.linspace(0.0, upper, _NODES)
    log_f = law.log_density(grid, sigma)
    shift = float(np.max(log_f[np.isfinite(log_f)]))
    cdf = np.concatenate([[0.0], np.cumsum(_integral(law, grid[:-1], grid[1:], sigma, shift))])
    target = u * cdf[-1]
    # The root lies in [grid[j], grid[j + 1]]; safeguarded Newton (bisection when a step leaves the bracket).
    j = np.clip(np.searchsorted(cdf, target, side="right") - 1, 0, _NODES - 2)
    lo, hi = grid[j], grid[j + 1]
    rho = np.clip(np.interp(target, cdf, grid), lo, hi)
    for _ in range(_MAX_STEPS):
        gap = cdf[j] + _integral(law, grid[j], rho, sigma, shift) - target
        done = np.abs(gap) <= 1e-14 * cdf[-1]
        if done.all():
            break
        lo, hi = np.where(gap < 0, rho, lo), np.where(gap >= 0, rho, hi)
        slope = _density(law, rho, sigma, shift)
        newton = rho - np.divide(gap, slope, out=np.full_like(rho, np.inf), where=slope > 0)
        step = np.where((newton >= lo) & (newton <= hi), newton, 0.5 * (lo + hi))
        rho = np.where(done, rho, step)
    return rho


@blas_capped
def laplace_common_draws(manifold, footpoint, sigmas, *, size: int, rng=None, reference=None) -> np.ndarray:
    """Exact Laplace releases around one footpoint (or one per scale) at every scale in ``sigmas``
    from one set of draws.

    Parameters
    ----------
    manifold : Manifold
        A space with a radial Laplace law (sphere, hyperbolic, Kendall, flat; ``radial_law``).
        SPD with the affine-invariant metric has no direction × radius form and is refused.
    footpoint : array_like, shape ``point_shape`` or ``(S, *point_shape)``
        The footpoint η of every frame (e.g. the Fréchet mean), or one footpoint per scale (e.g. the
        Fréchet means of nested data sets); the latter needs ``manifold.parallel_transport``.
    sigmas : array_like, shape ``(S,)``
        Scales σ > 0, each below the normalisability limit.
    size : int
        Releases per scale.
    rng : numpy.random.Generator, int or None
    reference : array_like, shape ``point_shape``, optional
        With one footpoint per scale: the point ξ where the directions are drawn, then parallel
        transported to each footpoint (module docstring); default the last footpoint. Not allowed
        with a single footpoint.

    Returns
    -------
    ndarray, shape ``(S, size, *point_shape)``
        Frame s holds ``size`` exact draws from the Laplace law at ``sigmas[s]`` around its footpoint
        (up to the quantile error of ``radial_quantile``); release i has the same direction in every
        frame (the same tangent vector, or its parallel transport from ξ) and a radius that grows with σ.

    Raises
    ------
    ValueError
        A bad σ, size, footpoint or reference, or a space without a radial law (or without parallel
        transport when the footpoints differ).
    """
    point_shape = manifold.point_shape
    eta = manifold.check_points(footpoint, "footpoint")
    sigmas = np.atleast_1d(np.asarray(sigmas, dtype=float))
    if sigmas.ndim != 1 or sigmas.size == 0:
        raise ValueError(f"sigmas must be a non-empty 1-D array, got shape {sigmas.shape}")
    moving = eta.shape != point_shape
    if moving and eta.shape != (sigmas.size,) + point_shape:
        raise ValueError(f"footpoint must be one point of shape {point_shape} or one per scale, of shape "
                         f"{(sigmas.size,) + point_shape}, got shape {eta.shape}")
    if reference is not None and not moving:
        raise ValueError("reference applies only with one footpoint per scale; got a single footpoint")
    for sigma in sigmas:
        check_positive("sigma", sigma)
    size = check_int("size", size)
    law = radial_law(manifold)
    xi = eta[-1] if moving else eta
    if reference is not None:
        xi = manifold.check_points(reference, "reference")
        if xi.shape != point_shape:
            raise ValueError(f"reference must be one point of shape {point_shape}, got shape {xi.shape}")
    rng = np.random.default_rng(rng)
    directions = manifold.random_unit_tangent(np.broadcast_to(xi, (size,) + point_shape), rng)
    u = rng.uniform(size=size)
    # uniform() can return exactly 0; the quantile needs (0, 1).
    u = np.where(u > 0, u, np.nextafter(0.0, 1.0))
    radii = manifold.per_point(np.stack([radial_quantile(law, float(sigma), u) for sigma in sigmas]))
    if not moving:
        return manifold.exp(eta, radii * directions)
    targets = np.broadcast_to(eta[:, None], (sigmas.size, size) + point_shape)
    carried = manifold.parallel_transport(np.broadcast_to(xi, targets.shape), targets,
                                          np.broadcast_to(directions, targets.shape))
    # Transport is an isometry; projecting and renormalising removes its rounding, so |direction| = 1.
    carried = manifold.to_tangent(targets, carried)
    carried = carried / manifold.per_point(manifold.norm(targets, carried))
    return manifold.exp(targets, radii * carried)
