"""Synthetic data on the unit sphere S^d ⊂ R^{d+1}: the paper's cap sampler, the uniform law on a
geodesic ball and the von Mises–Fisher law.

All three are exact samplers written as direction × radius around a centre (default the north
pole ``Sphere(dim).origin``): a direction u uniform on the unit sphere of T_cS^d and a geodesic
radius ρ, giving the point Exp_c(ρ u) = cos ρ c + sin ρ u.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from engine.bounds import check_radius
from engine.data._common import batch_shape, single_point, unit_tangent_directions
from engine.manifolds.sphere import Sphere
from engine.validation import check_positive


def _radial_points(manifold, center, radii, rng) -> np.ndarray:
    """Exp_center(ρ u) for radii ``ρ`` of shape S and fresh uniform tangent directions u."""
    u = unit_tangent_directions(manifold, center, radii.shape, rng)
    return manifold.exp(center, radii[..., None] * u)


def sphere_cap(n, radius, *, dim=2, center=None, size=(), rng=None) -> np.ndarray:
    """The cap sampler of the sphere study of Reimherr, Bharath & Soto (2021, supplement §2.1).

    Direction u uniform in T_cS^d, geodesic radius ρ ~ Uniform[0, r], point Exp_c(ρ u). On S^2
    with c the north pole this is the paper's recipe "polar angle uniform on [0, r], azimuth
    uniform on [0, 2π)" (they use r = π/8). The law is *not* uniform on the cap: its density
    w.r.t. the area is ∝ 1/sin^{d-1}ρ, concentrated towards the centre. Exact.

    Parameters
    ----------
    n : int
        Points per data set (>= 1).
    radius : float
        Geodesic radius r of the cap; checked by ``engine.bounds.check_radius(..., purpose="mean")``
        (r < π/2, so that the Fréchet mean is unique).
    dim : int
        Dimension d of the sphere (points live in R^{d+1}).
    center : array_like of shape (d + 1,), optional
        Centre of the cap, a unit vector; default the north pole e_{d+1}.
    size : int or tuple of int
        Batch shape of independent data sets.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray of shape ``(*size, n, d + 1)``; every point is within geodesic distance r of ``center``.
    """
    manifold = Sphere(dim)
    radius = check_positive("radius", radius)
    check_radius(manifold, radius, purpose="mean")
    c = single_point(manifold, center, "center")
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    return _radial_points(manifold, c, rng.uniform(0.0, radius, shape), rng)


def sphere_ball(n, radius, *, dim=2, center=None, size=(), rng=None) -> np.ndarray:
    """Points uniform (w.r.t. the Riemannian volume) in the geodesic ball B_r(c) of S^d.

    The geodesic radius has density ∝ sin^{d-1}ρ on [0, r]. Exact inverse-CDF sampler: for a
    uniform point of S^d, u = sin²(ρ/2) = (1 − <x, c>)/2 follows Beta(d/2, d/2) (its height <x, c>
    has density ∝ (1 − t²)^{d/2 − 1}), so the truncation ρ <= r is u <= sin²(r/2) and

        u = I⁻¹_{d/2,d/2}( V · I_{d/2,d/2}(sin²(r/2)) ),  V ~ Uniform(0, 1),  ρ = 2 arcsin √u,

    with I the regularised incomplete beta function. For d = 2 this is 1 − cos ρ = V (1 − cos r).

    Parameters
    ----------
    n : int
        Points per data set (>= 1).
    radius : float
        Geodesic radius r; checked by ``engine.bounds.check_radius(..., purpose="mean")``.
    dim : int
        Dimension d of the sphere.
    center : array_like of shape (d + 1,), optional
        Centre of the ball; default the north pole.
    size : int or tuple of int
        Batch shape of independent data sets.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray of shape ``(*size, n, d + 1)``.
    """
    manifold = Sphere(dim)
    radius = check_positive("radius", radius)
    check_radius(manifold, radius, purpose="mean")
    c = single_point(manifold, center, "center")
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    a = 0.5 * manifold.dim
    mass = special.betainc(a, a, np.sin(0.5 * radius) ** 2)
    # The ball's share of the sphere underflows for tiny radii in high dimension.
    if mass <= 0.0:
        raise ValueError(
            f"radius {radius!r} is too small for an exact ball sampler on S^{manifold.dim} "
            f"(the ball's volume fraction underflows to 0)"
        )
    u = special.betaincinv(a, a, rng.uniform(0.0, mass, shape))
    rho = 2.0 * np.arcsin(np.sqrt(u))
    return _radial_points(manifold, c, rho, rng)


#: Largest κ of ``sphere_vmf``: scipy's sampler forms κ², which overflows beyond about 1.3e154 (at κ = 1e150
#: every draw already equals the mean direction to double precision).
MAX_CONCENTRATION = 1e150


def sphere_vmf(n, concentration, *, dim=2, center=None, size=(), rng=None) -> np.ndarray:
    """von Mises–Fisher points on S^d, density ∝ exp(κ <x, μ>), via ``scipy.stats.vonmises_fisher``.

    Exact (scipy uses Wood's 1994 rejection sampler for the height <x, μ>).

    Parameters
    ----------
    n : int
        Points per data set (>= 1).
    concentration : float
        κ in (0, ``MAX_CONCENTRATION``]; the mean resultant length grows to 1 as κ grows (≈ 1 − d/(2κ)
        for large κ).
    dim : int
        Dimension d of the sphere.
    center : array_like of shape (d + 1,), optional
        Mean direction μ; default the north pole.
    size : int or tuple of int
        Batch shape of independent data sets.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray of shape ``(*size, n, d + 1)``. The law has unbounded support on S^d: no ball
    assumption holds for it, so ``check_radius`` is not applied.
    """
    manifold = Sphere(dim)
    kappa = check_positive("concentration", concentration)
    if kappa > MAX_CONCENTRATION:
        raise ValueError(f"concentration must be at most {MAX_CONCENTRATION:g} (scipy's sampler squares it), "
                         f"got {kappa!r}")
    mu = single_point(manifold, center, "center")
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    draws = stats.vonmises_fisher(mu / np.linalg.norm(mu), kappa).rvs(size=int(np.prod(shape)), random_state=rng)
    return draws.reshape(shape + manifold.point_shape)
