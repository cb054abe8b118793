"""Synthetic SPD(k) data: the Wishart recipe of Reimherr, Bharath & Soto (2021, supplement §1.3.1).

X ~ W(I/k, df) (mean (df/k)·I; df = k gives mean I), kept only when ρ(X, I) < r. The paper uses
k = 2, df = 2, r = 1.5 with the affine-invariant metric; Han et al.'s DP-RGD experiments use
r = 1. With ``metric="log-euclidean"`` or ``"bures-wasserstein"`` the ball is taken in that
metric instead (``SPD(k, metric).dist``), which is the data assumption the other metrics need.
"""

from __future__ import annotations

import numpy as np

from engine.bounds import check_radius, radius_limits
from engine.data._common import batch_shape, fill_by_rejection
from engine.manifolds.spd import SPD
from engine.validation import check_positive, check_probability


def _check_ball(manifold, radius: float) -> None:
    """Unique-mean condition r < ½ min{inj, π/√κ} for data in B_r(I).

    Bounded curvature (affine and log-Euclidean, κ <= 0, no limit): ``engine.bounds.check_radius``.
    Bures–Wasserstein has unbounded curvature and injectivity radius 0 on the whole cone, so the bounds of the ball
    are used instead: κ <= 3/(√2 − r)² (``SPD.kappa_max_ball``) and, since d(I, Y) >= |√λ_min(Y) − 1|
    (Mirsky), inj(Y) = √λ_min(Y) >= 1 − r. Together they require r < 1/3.
    """
    if np.isfinite(manifold.kappa_max):
        check_radius(manifold, radius, purpose="mean")
        return
    kappa = float(manifold.kappa_max_ball(manifold.origin, radius))
    limit = radius_limits(kappa, max(1.0 - radius, 0.0)).unique_mean
    if not radius < limit:
        raise ValueError(
            f"radius {radius!r} is too large for a unique Fréchet mean in the Bures–Wasserstein ball around I: "
            f"needs r < ½·min{{inj, π/√κ}} = {limit:.4g} with κ <= {kappa:.4g} and inj >= 1 − r on the ball "
            f"(holds for r < 1/3)"
        )


def wishart_identity(m: int, k: int, df: float, rng) -> np.ndarray:
    """``m`` draws of the Wishart law W(I/k, df), shape ``(m, k, k)``, by the Bartlett decomposition.

    X = A Aᵀ / k with A lower triangular, A_ii = √χ²(df − i) (i = 0 … k−1) and A_ij ~ N(0, 1) for
    i > j (Bartlett 1933): exact for every df > k − 1 and vectorised over draws, where
    ``scipy.stats.wishart`` pays a fixed overhead per call that dominated small batches.
    """
    a = np.tril(rng.standard_normal((m, k, k)), -1)
    a[:, np.arange(k), np.arange(k)] = np.sqrt(rng.chisquare(df - np.arange(k), size=(m, k)))
    x = a @ np.swapaxes(a, -1, -2) / k
    # The product is symmetric up to rounding; make it exactly so.
    return 0.5 * (x + np.swapaxes(x, -1, -2))


def spd_wishart(
    n, *, k=2, df=None, radius=1.5, metric="affine", size=(), rng=None, min_acceptance=1e-4
) -> np.ndarray:
    """Wishart W(I/k, df) draws kept within geodesic distance ``radius`` of the identity.

    Rejection sampler in vectorised rounds: each round draws about 1.2 × missing / (estimated
    acceptance rate) matrices with ``wishart_identity`` and keeps those with
    ``SPD(k, metric).dist(I, X) < radius``. The kept matrices are exactly the Wishart law
    conditioned on the ball. When the estimated acceptance rate (after at least
    10/``min_acceptance`` draws) falls below ``min_acceptance``, or 50 rounds do not suffice, a ``ValueError`` quoting the radius, df
    and the estimated rate is raised instead of looping for ever.

    Parameters
    ----------
    n : int
        Matrices per data set (>= 1).
    k : int
        Matrix size (>= 1).
    df : float, optional
        Degrees of freedom, > k − 1 (then every draw is positive definite); default k, as in the
        paper (df = k = 2).
    radius : float
        Ball radius r > 0 around I (paper: 1.5; DP-RGD experiments: 1); checked for a unique mean
        by ``engine.bounds.check_radius(..., purpose="mean")`` (affine, log-Euclidean: no limit)
        or, for Bures–Wasserstein, with the curvature and injectivity bounds of the ball (r < 1/3).
    metric : {"affine", "bures-wasserstein", "log-euclidean"}
        Metric of the ball (and of the ``SPD`` space the points belong to).
    size : int or tuple of int
        Batch shape of independent data sets.
    rng : numpy.random.Generator, int or None
    min_acceptance : float
        Smallest tolerated acceptance rate, in (0, 1).

    Returns
    -------
    ndarray of shape ``(*size, n, k, k)``: symmetric positive definite matrices X with
    ``dist(I, X) < radius``.
    """
    manifold = SPD(k, metric=metric)
    k = manifold.point_shape[-1]
    radius = check_positive("radius", radius)
    _check_ball(manifold, radius)
    df = float(k) if df is None else check_positive("df", df)
    if not df > k - 1:
        raise ValueError(f"df must be > k - 1 = {k - 1} for positive definite Wishart draws, got {df!r}")
    min_acceptance = check_probability("min_acceptance", min_acceptance)
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    identity = np.eye(k)

    def propose(m, gen):
        x = wishart_identity(m, k, df, gen)
        return x, manifold.dist(identity, x) < radius

    kept = fill_by_rejection(
        int(np.prod(shape)),
        propose,
        rng,
        context=f"spd_wishart with radius={radius!r}, df={df!r}, k={k}, metric={metric!r}",
        min_acceptance=min_acceptance,
        max_batch=max(1024, (1 << 22) // (k * k)),
    )
    return kept.reshape(shape + (k, k))
