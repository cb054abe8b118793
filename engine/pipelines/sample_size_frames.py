"""Exact Riemannian Laplace releases of the Fréchet mean over a grid of sample sizes n, with common
random numbers: the frames of the playground's n animation (issue 15).

One data set of N records is taken once, in a random order (a seeded permutation, so that each
prefix is a uniform random subset also when the records came in catalogue order). The frame of
size n uses its first n records (nested prefixes):

- its true (non-private) Fréchet mean μ_n, all prefixes in one batched call
  (``engine.estimators.prefix_frechet_means``);
- the sensitivity Δ(n) = 2r(2 − h)/(n h) of Theorem 2 (Reimherr, Bharath & Soto 2021) for the
  public radius r, and the Riemannian Laplace's scale σ(n) for it (Δ(n)/ε on a homogeneous space);
- ``releases`` exact draws Exp_{μ_n}(F_σ(n)⁻¹(U_i) · u_i^{(n)}) (``engine.mechanisms.common_draws``):
  one uniform U_i and one direction u_i per release shared by all frames, the direction drawn at
  the mean of the largest n and parallel-transported to μ_n along the minimising geodesic.

So every frame is an exact draw of the mechanism at its n on its prefix, and each release keeps its
direction while its distance to the frame's mean, F_σ(n)⁻¹(U_i), shrinks as n grows (σ(n) ∝ 1/n and
F_σ⁻¹(U) increases with σ). The frames share their randomness: only one of them could be published.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.bounds import check_radius, frechet_mean_sensitivity
from engine.estimators import PAPER_STEP, prefix_frechet_means
from engine.mechanisms.common_draws import laplace_common_draws
from engine.mechanisms.laplace import RiemannianLaplace, scale_limit
from engine.validation import check_int, check_positive

#: Frames of ``sample_size_grid`` at most (before rounding merges the smallest sizes).
GRID_FRAMES = 16
#: The smallest n of ``sample_size_grid`` (or N when it is smaller).
GRID_START = 5


def sample_size_grid(n: int, *, start: int = GRID_START, frames: int = GRID_FRAMES) -> list[int]:
    """Integer sizes from ``min(start, n)`` to ``n``, log-spaced, ascending, n included.

    Examples: ``sample_size_grid(50)`` gives 5, 6, 7, 8, 9, 11, 13, 15, 17, 20, 23, 27, 32, 37, 43, 50.
    """
    n = check_int("n", n)
    start = min(check_int("start", start), n)
    frames = check_int("frames", frames)
    grid = np.rint(np.geomspace(start, n, frames)).astype(int)
    return sorted(set(grid.tolist()) | {n})


@dataclass(frozen=True)
class SampleSizeFrames:
    """The frames of ``sample_size_frames``; F is the number of sizes kept.

    Attributes
    ----------
    sizes : ndarray ``(F,)``, ascending.
    order : ndarray ``(N,)``, the permutation of the records: frame s uses ``data[order[:sizes[s]]]``.
    means : ndarray ``(F, *point_shape)``, the true Fréchet mean of each prefix.
    converged : ndarray ``(F,)`` of bool, whether each mean's gradient descent converged.
    sensitivities, sigmas : ndarray ``(F,)``, Δ(n) of Theorem 2 and σ(n) (``RiemannianLaplace.scale``).
    releases : ndarray ``(F, size, *point_shape)``, exact Laplace draws around ``means[s]`` at ``sigmas[s]``.
    dropped : tuple of int, sizes left out because σ(n) is beyond the normalisability limit.
    """

    sizes: np.ndarray
    order: np.ndarray
    means: np.ndarray
    converged: np.ndarray
    sensitivities: np.ndarray
    sigmas: np.ndarray
    releases: np.ndarray
    dropped: tuple[int, ...]


def sample_size_frames(manifold, data, *, sizes, radius: float, epsilon: float, size: int,
                       rng=None) -> SampleSizeFrames:
    """Exact Laplace releases of the Fréchet mean of nested prefixes of ``data`` (module docstring).

    Parameters
    ----------
    manifold : Manifold
        A space with a radial Laplace law and parallel transport, e.g. the sphere.
    data : array ``(N, *point_shape)``
        The records, public radius ``radius`` around a public centre (Assumption 1).
    sizes : sequence of int
        Prefix sizes in [1, N], e.g. ``sample_size_grid(N)``; sorted and de-duplicated.
    radius : float
        The public data radius r, below r* of Theorem 2.
    epsilon : float
        The privacy budget ε > 0 of every frame.
    size : int
        Releases per frame.
    rng : numpy.random.Generator, int or None
        Draws the permutation, then the directions and uniforms of the releases.

    Returns
    -------
    SampleSizeFrames

    Raises
    ------
    ValueError
        Bad data, sizes, radius (beyond Theorem 2's r*), ε or size; a space without a radial law or
        parallel transport; or no size with a normalisable σ(n).
    """
    points = manifold.check_points(data, "data")
    if points.ndim != manifold.point_ndim + 1:
        raise ValueError(f"data must have shape (N, *{manifold.point_shape}), got {points.shape}")
    sizes = np.unique(np.atleast_1d(np.asarray(sizes)))
    if sizes.size == 0 or not np.issubdtype(sizes.dtype, np.integer) or sizes[0] < 1 or sizes[-1] > len(points):
        raise ValueError(f"sizes must be integers in [1, {len(points)}] (the number of records), got {sizes.tolist()}")
    radius = check_radius(manifold, radius, purpose="sensitivity")
    epsilon = check_positive("epsilon", epsilon)
    size = check_int("size", size)
    sensitivities = np.asarray(frechet_mean_sensitivity(sizes, radius, manifold.kappa_max), dtype=float)
    sigmas = np.array([RiemannianLaplace.scale(manifold=manifold, epsilon=epsilon, sensitivity=s)
                       for s in sensitivities])
    normalisable = sigmas < scale_limit(manifold)
    if not normalisable.any():
        raise ValueError(f"no size has a normalisable Laplace law: σ(n) is at least {sigmas.min():.4g} "
                         f"for n up to {sizes[-1]}, beyond the limit {scale_limit(manifold):.4g} on {manifold.name}")
    dropped = tuple(int(n) for n in sizes[~normalisable])
    sizes, sensitivities, sigmas = sizes[normalisable], sensitivities[normalisable], sigmas[normalisable]
    rng = np.random.default_rng(rng)
    order = rng.permutation(len(points))
    fit = prefix_frechet_means(manifold, points[order], sizes, step=PAPER_STEP)
    releases = laplace_common_draws(manifold, fit.mean, sigmas, size=size, rng=rng)
    return SampleSizeFrames(sizes=sizes, order=order, means=fit.mean, converged=fit.converged,
                            sensitivities=sensitivities, sigmas=sigmas, releases=releases, dropped=dropped)
