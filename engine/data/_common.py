"""Helpers shared by the data generators: output shapes, centres, tangent directions, rejection.

Every generator returns arrays of shape ``(*size, n, *point_shape)``: ``size`` is a batch of
independent data sets (``()`` for a single one) and ``n`` the number of points in each.
"""

from __future__ import annotations

import numpy as np

from engine.validation import check_int

# Largest distance from the origin at which the generators place points of H^d: Lorentz
# coordinates there are ~e^30/2 ≈ 5e12, and beyond it doubles no longer resolve unit distances
# between neighbouring points (see ``engine.manifolds.hyperbolic``).
HYPERBOLIC_MAX_RADIUS = 30.0


def batch_shape(n, size) -> tuple[int, ...]:
    """Return ``(*size, n)`` after checking ``n >= 1`` and that ``size`` holds integers >= 1.

    Parameters
    ----------
    n : int
        Number of points in each data set (>= 1).
    size : int or tuple of int
        Batch shape of independent data sets; ``()`` for one data set.
    """
    n = check_int("n", n)
    raw = (size,) if isinstance(size, (int, np.integer)) and not isinstance(size, bool) else size
    try:
        dims = tuple(raw)
    except TypeError:
        raise ValueError(f"size must be an integer or a tuple of integers >= 1, got {size!r}") from None
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"size must be an integer or a tuple of integers >= 1, got {size!r}")
    return tuple(int(d) for d in dims) + (n,)


def single_point(manifold, point, name: str) -> np.ndarray:
    """Return ``manifold.origin`` when ``point`` is None, else ``point`` checked to be one point.

    Raises ``ValueError`` quoting the shape when ``point`` is not a single point of ``manifold``
    (batches of centres are not accepted: every data set of a batch shares its centre).
    """
    if point is None:
        return manifold.origin
    arr = manifold.check_points(point, name)
    if arr.shape != manifold.point_shape:
        raise ValueError(f"{name} must be one point of shape {manifold.point_shape}, got shape {arr.shape}")
    return arr


def tangent_vectors(manifold, center: np.ndarray, coef: np.ndarray) -> np.ndarray:
    """Tangent vectors ``sum_i coef[..., i] e_i`` at one point ``center``.

    ``coef`` has shape ``(..., dim)`` in the orthonormal ``manifold.tangent_basis(center)``; the
    result has shape ``(..., *point_shape)``. An isotropic law on the coefficients (Gaussian,
    uniform direction) is therefore isotropic in T_center M.
    """
    basis = manifold.tangent_basis(center)
    return np.tensordot(coef, basis, axes=([-1], [0]))


def unit_tangent_directions(manifold, center: np.ndarray, shape: tuple[int, ...], rng) -> np.ndarray:
    """Directions uniform on the unit sphere of T_center M, shape ``(*shape, *point_shape)``.

    A standard Gaussian vector of coefficients divided by its norm is uniform on S^{dim-1}.
    """
    coef = rng.standard_normal(shape + (manifold.dim,))
    coef /= np.linalg.norm(coef, axis=-1, keepdims=True)
    return tangent_vectors(manifold, center, coef)


def fill_by_rejection(
    count: int,
    propose,
    rng,
    *,
    context: str,
    min_acceptance: float = 1e-4,
    pilot: int | None = None,
    max_batch: int = 1 << 20,
    max_rounds: int = 50,
) -> np.ndarray:
    """Collect ``count`` accepted draws of a rejection sampler, drawing in vectorised rounds.

    Each round draws about ``1.2 × missing / (estimated acceptance rate)`` proposals (at most
    ``max_batch``). The sampler gives up with a ``ValueError`` instead of looping for ever when,
    after at least ``pilot`` proposals (default 10/``min_acceptance``, enough to see about ten
    acceptances at the smallest tolerated rate), the estimated acceptance rate is below
    ``min_acceptance``, or when ``max_rounds`` rounds did not suffice.

    Parameters
    ----------
    count : int
        Number of accepted values wanted.
    propose : callable
        ``propose(m, rng) -> (values, accepted)`` draws ``m`` proposals ``values`` of shape
        ``(m, ...)`` and a boolean mask ``accepted`` of shape ``(m,)``.
    rng : numpy.random.Generator
    context : str
        Description of the sampler and its parameters, quoted in error messages.
    min_acceptance, pilot, max_batch, max_rounds
        Guard against endless rejection (see above).

    Returns
    -------
    ndarray of shape ``(count, ...)``, accepted values in the order they were drawn.
    """
    pilot = int(np.ceil(10.0 / min_acceptance)) if pilot is None else pilot
    kept = []
    have = drawn = rounds = 0
    while have < count:
        if rounds == max_rounds:
            raise ValueError(
                f"{context}: only {have} of {count} points accepted after {max_rounds} rounds "
                f"({drawn} draws, acceptance rate {have / drawn:.2e})"
            )
        rounds += 1
        # Before any acceptance, plan for the lowest rate we tolerate so the guard is reached fast.
        rate = have / drawn if have else (1.0 if drawn == 0 else min_acceptance)
        m = int(min(max_batch, np.ceil(1.2 * (count - have) / max(rate, min_acceptance)) + 16))
        values, accepted = propose(m, rng)
        drawn += m
        kept.append(values[accepted])
        have += kept[-1].shape[0]
        if have < count and drawn >= pilot and have / drawn < min_acceptance:
            raise ValueError(
                f"{context}: estimated acceptance rate {have / drawn:.2e} ({have} of {drawn} draws "
                f"accepted) is below {min_acceptance:g}"
            )
    return np.concatenate(kept, axis=0)[:count]
