"""Synthetic data on hyperbolic space H^d (Lorentz model): uniform in a geodesic ball and the
wrapped Gaussian.

Both are written around a centre c (default the Lorentz origin): a tangent vector v at c in the
orthonormal basis ``Hyperbolic(dim).tangent_basis(c)`` and the point Exp_c(v).
"""

from __future__ import annotations

import numpy as np

from engine.bounds import check_radius
from engine.data._common import (
    HYPERBOLIC_MAX_RADIUS,
    batch_shape,
    fill_by_rejection,
    single_point,
    tangent_vectors,
    unit_tangent_directions,
)
from engine.manifolds.hyperbolic import Hyperbolic
from engine.validation import check_positive


def _ball_radii(count: int, radius: float, dim: int, rng) -> np.ndarray:
    """``count`` geodesic radii with density ∝ sinh^{d-1}ρ on [0, r] (exact rejection sampler).

    With w = cosh ρ − 1 = 2 sinh²(ρ/2) the density of w on [0, W], W = cosh r − 1, is
    ∝ w^{d/2−1} (w + 2)^{d/2−1}. Proposal: w = W·V^{2/d} (density ∝ w^{d/2−1}); accept with
    probability ((w + 2)/(W + 2))^{d/2−1} <= 1. For d = 2 every proposal is accepted and this is the
    inverse CDF cosh ρ − 1 = V (cosh r − 1); for any d and r the acceptance rate is >= 1/2 − o(1).
    """
    big_w = 2.0 * np.sinh(0.5 * radius) ** 2
    half = 0.5 * dim - 1.0

    def propose(m, gen):
        w = big_w * gen.random(m) ** (2.0 / dim)
        return w, gen.random(m) < ((w + 2.0) / (big_w + 2.0)) ** half

    w = fill_by_rejection(count, propose, rng, context=f"hyperbolic ball sampler (radius={radius!r}, dim={dim})")
    return 2.0 * np.arcsinh(np.sqrt(0.5 * w))


def hyperbolic_ball(n, radius, *, dim=2, center=None, size=(), rng=None) -> np.ndarray:
    """Points uniform (w.r.t. the Riemannian volume) in the geodesic ball B_r(c) of H^d.

    Direction uniform in T_cH^d × geodesic radius with density ∝ sinh^{d−1}ρ on [0, r]; exact
    (inverse CDF cosh ρ − 1 = V (cosh r − 1) for d = 2, a rejection sampler on cosh ρ − 1 with
    acceptance rate >= ~1/2 for d > 2, see ``_ball_radii``).

    Parameters
    ----------
    n : int
        Points per data set (>= 1).
    radius : float
        Geodesic radius 0 < r <= 30 (H^d has κ = −1: no curvature limit; the cap of 30 is
        where doubles stop resolving the points).
    dim : int
        Dimension d (points live in R^{d+1}).
    center : array_like of shape (d + 1,), optional
        Centre (a Lorentz point); default ``Hyperbolic(dim).origin``.
    size : int or tuple of int
        Batch shape of independent data sets.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray of shape ``(*size, n, d + 1)``.
    """
    manifold = Hyperbolic(dim)
    radius = check_positive("radius", radius)
    check_radius(manifold, radius, purpose="mean")
    if radius > HYPERBOLIC_MAX_RADIUS:
        raise ValueError(
            f"radius must be <= {HYPERBOLIC_MAX_RADIUS:g} (farther out doubles cannot resolve the points), "
            f"got {radius!r}"
        )
    c = single_point(manifold, center, "center")
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    rho = _ball_radii(int(np.prod(shape)), radius, manifold.dim, rng).reshape(shape)
    u = unit_tangent_directions(manifold, c, shape, rng)
    return manifold.exp(c, rho[..., None] * u)


def hyperbolic_wrapped_gaussian(n, std, *, dim=2, center=None, size=(), rng=None) -> np.ndarray:
    """Wrapped Gaussian on H^d: Exp_c(v) with v ~ N(0, σ² I_d) in an orthonormal basis of T_cH^d.

    Exact sampler of this law (the push-forward of a tangent Gaussian; Nagano et al. 2019 draw it
    at the origin and parallel-transport it to c, which gives the same law because the law at the
    origin is isotropic). The geodesic distance to c is σ·χ_d.

    Parameters
    ----------
    n : int
        Points per data set (>= 1).
    std : float
        0 < σ <= 30/(√d + 5), standard deviation of each tangent coordinate: the distance σ·χ_d then
        exceeds the radius 30 that doubles resolve (see ``hyperbolic_ball``) with probability below
        e^{−25/2} ≈ 4·10⁻⁶ (Gaussian concentration, P(χ_d > √d + t) <= e^{−t²/2}), and reaching the
        distance 354 where the Lorentz coordinates overflow is out of reach.
    dim : int
        Dimension d.
    center : array_like of shape (d + 1,), optional
        Centre; default ``Hyperbolic(dim).origin``.
    size : int or tuple of int
        Batch shape of independent data sets.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray of shape ``(*size, n, d + 1)``.
    """
    manifold = Hyperbolic(dim)
    std = check_positive("std", std)
    limit = HYPERBOLIC_MAX_RADIUS / (np.sqrt(manifold.dim) + 5.0)
    if std > limit:
        raise ValueError(f"std must be <= 30/(√d + 5) = {limit:.4g} for d = {manifold.dim} (farther out doubles "
                         f"cannot resolve the points), got {std!r}")
    c = single_point(manifold, center, "center")
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    coef = std * rng.standard_normal(shape + (manifold.dim,))
    return manifold.exp(c, tangent_vectors(manifold, c, coef))
