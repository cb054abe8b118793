"""Batched (weighted) Fréchet mean by Riemannian gradient descent.

Supplement of Reimherr, Bharath & Soto (2021), §1.1: start at a data point, step
μ_k = Exp_{μ_{k−1}}(t · v_k) with v_k = Σ_i w_i Log_{μ_{k−1}}(x_i) (w_i = 1/n unweighted), stop
when ρ(μ_k, μ_{k−1}) < tol; the paper's t = 0.5 (``PAPER_STEP``), tol = 1e−5 and at most 500 iterations.

The minimiser is unique when the data lie in a ball of radius r < ½·min{inj, π/√κ} (Afsari 2011);
each result says whether its records lie within that radius of the returned mean (``unique``).
Outside it (e.g. two antipodal points of S², whose minimisers fill the equator) the iteration may
stop at a critical point that is no minimiser, so ``converged`` alone certifies nothing there.

``step="newton"`` replaces t · v_k by the Newton step H_k⁻¹ v_k (H_k the Riemannian Hessian of the
Fréchet function) on spaces that have it in closed form (``Manifold.frechet_newton_step``: S^d, H^d and
SPD(k) affine-invariant): it reaches |grad| ~ 1e−10 and below in a few iterations where the paper's
rule needs dozens, and it converges on spread H^d data where the paper's rule does not (H² balls of
radius >= 10, H⁶ >= 5: the fixed step overshoots once the Hessian's largest eigenvalue exceeds
2/t = 4). ``step="auto"``, the default, runs the iteration the space names (``Manifold.frechet_step``):
Newton steps on H^d, Karcher's step t = 1 elsewhere (on SPD(k) a Newton step's Hessian needs an
eigen-decomposition per record and costs 13 log sums: 1,000 SPD(3) sets × 100 to tol 1e-12 took 12 steps
t = 1 in 0.17 s against 4 Newton steps in 0.76 s). Near the mean t = 1 contracts by max|1 − λ| over the
Hessian's eigenvalues λ, t = 0.5 by max|1 − λ/2|: on the same batches to tol 1e-5, S² 4 steps against 16
(0.008 s against 0.026 s of CPU), SPD(2) 6 against 18, SPD(3) 6 against 18, H² 4 Newton steps against 15.
On spaces with Newton steps (weights >= 0) the fixed step is watched: the data sets on which it overshoots
(a step longer than the one before, or not finite) or does not converge are restarted from their start
with Newton steps. It starts where the space says (``Manifold.frechet_start``): on S^d and H^d the normalised
weighted centroid (to tol 1e-10 on those batches: S² 4.4 steps on average against 6.0 from the first record,
H² 3 Newton steps against 4), elsewhere the first record. Negative weights take the paper's t = 0.5 from the
first record.
``FrechetMeanResult.method`` says which ran on each data set. Code that must reproduce the paper's
iterates passes ``step=PAPER_STEP``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np

from engine.bounds.frechet import radius_limits
from engine.threads import blas_capped
from engine.validation import check_finite_array, check_int, check_positive

#: The supplement's fixed step t of Reimherr, Bharath & Soto (2021), §1.1.
PAPER_STEP = 0.5


@dataclass(frozen=True)
class FrechetMeanResult:
    """Means ``(..., *point_shape)``, iterations and convergence flags ``(...)`` per data set.

    ``gradient_norm`` is ‖Σ_i w_i Log_mean(x_i)‖ at the returned mean (the first-order condition).
    ``unique`` says the records of non-zero weight lie within ½·min{inj, π/√κ} of the mean, so the
    minimiser is unique (and the mean is it, once converged); ``False`` flags data beyond that guarantee.
    ``method`` ``(...)`` is the iteration that gave each mean: ``"newton"`` or ``"gradient"`` (fixed step t;
    ``step="auto"`` runs the paper's t = 0.5 where it does not take Newton steps). Where ``step="auto"``
    restarted an overshooting data set with Newton steps, ``n_iter`` counts the fixed steps tried too.
    """

    mean: np.ndarray
    n_iter: np.ndarray
    converged: np.ndarray
    gradient_norm: np.ndarray
    unique: np.ndarray
    method: np.ndarray


def _normalised_weights(weights, n: int, batch_shape: tuple[int, ...]) -> np.ndarray:
    if weights is None:
        return np.full(batch_shape + (n,), 1.0 / n)
    w = check_finite_array("weights", weights)
    if w.shape[-1:] != (n,):
        raise ValueError(f"weights must have last axis of length n = {n}, got shape {w.shape}")
    total = w.sum(axis=-1, keepdims=True)
    if np.any(np.abs(total) < 1e-12):
        raise ValueError(f"weights must not sum to 0 (sums: {np.round(total[..., 0], 6)})")
    # Negative weights are allowed (kernel-regression weights); only the normalisation is needed.
    return np.broadcast_to(w / total, batch_shape + (n,))


def _moved(manifold, m, move, new) -> np.ndarray:
    """ρ(m, Exp_m(move)): on a Hadamard space |move|_m exactly, and the norm costs less than the distance."""
    return manifold.norm(m, move) if manifold.injectivity_radius == np.inf else manifold.dist(m, new)


def _gradient_steps(manifold, prepared, weights, mean, *, step, tol, max_iter, watch=False):
    """The paper's iteration m <- Exp_m(t Σ_i w_i Log_m(x_i)) on ``mean`` ``(B, *point_shape)`` in place;
    returns the iterations, the convergence flags and the overshoot flags ``(B,)``.

    With ``watch``, a data set whose step is not finite or longer than its previous one (and not below
    ``tol``) stops, its mean left at the last iterate, and is flagged: near the mean the steps shrink
    by max|1 − tλ| (λ the Hessian's eigenvalues) per iteration, so a growing step means tλ > 2. Data
    sets still unconverged after ``max_iter`` steps are flagged too.
    """
    n_iter = np.zeros(len(mean), dtype=int)
    converged = np.zeros(len(mean), dtype=bool)
    overshot = np.zeros(len(mean), dtype=bool)
    last = np.full(len(mean), np.inf)
    active = np.arange(len(mean))
    for _ in range(max_iter):
        if active.size == 0:
            break
        # Index only once some data sets have converged: fancy indexing copies the whole batch.
        everyone = active.size == len(mean)
        m = mean if everyone else mean[active]
        move = step * manifold.weighted_log_sum(m, prepared if everyone else prepared[active],
                                                weights if everyone else weights[active])
        # Watched, an overshooting step may overflow (cosh of a huge distance on H^d): the non-finite
        # length flags it below, so the warnings are expected there and silenced.
        with np.errstate(over="ignore", invalid="ignore") if watch else contextlib.nullcontext():
            new = manifold.exp(m, move)
            length = _moved(manifold, m, move, new)
        done = length < tol
        # ``not <=`` is also true for a NaN length.
        bad = watch & ~done & ~(length <= last[active])
        mean[active] = np.where(manifold.per_point(bad), m, new) if watch else new
        last[active] = length
        n_iter[active] += 1
        converged[active[done]] = True
        overshot[active[bad]] = True
        active = active[~done & ~bad]
    # A step cycling at a constant length never grows: watched, running out of iterations counts too.
    return n_iter, converged, overshot | (watch & ~converged)


def _newton_steps(manifold, prepared, weights, mean, *, tol, max_iter):
    """Newton steps m <- Exp_m(λ v), v = H⁻¹ Σ_i w_i Log_m(x_i), on ``mean`` in place, safeguarded
    because far from the mean a full step can overshoot: a candidate is taken if it lowers the
    Fréchet function F = ½ Σ_i w_i d²(·, x_i) (relative slack 1e-12) or if its own Newton step is
    at most (1 − λ/2)|v| (Deuflhard's natural monotonicity test, which still decides where F's
    rounding no longer does, e.g. far from the origin); otherwise it is retried with λ halved
    (λ = 1 again after a step is taken). A step shorter than ``tol`` is the data set's last: it is taken
    without evaluating the candidate (it moves the mean less than ``tol``), which saves one Hessian per
    data set. An iteration is one step tried. Returns the iterations and the convergence flags ``(B,)``.
    """
    n_iter = np.zeros(len(mean), dtype=int)
    converged = np.zeros(len(mean), dtype=bool)
    move, value = manifold.frechet_newton_step(mean, prepared, weights)
    scale = np.ones(len(mean))
    active = np.arange(len(mean))
    for _ in range(max_iter):
        if active.size == 0:
            break
        everyone = active.size == len(mean)
        m = mean if everyone else mean[active]
        trial = manifold.per_point(scale[active]) * move[active]
        candidate = manifold.exp(m, trial)
        short = _moved(manifold, m, trial, candidate) < tol
        n_iter[active] += 1
        mean[active[short]] = candidate[short]
        converged[active[short]] = True
        if short.all():
            break
        if short.any():
            keep = ~short
            active, m, candidate, everyone = active[keep], m[keep], candidate[keep], False
        new_move, new_value = manifold.frechet_newton_step(candidate, prepared if everyone else prepared[active],
                                                           weights if everyone else weights[active])
        contracted = manifold.norm(candidate, new_move) <= (1.0 - 0.5 * scale[active]) * manifold.norm(m, move[active])
        taken = contracted | (new_value <= value[active] + 1e-12 * np.abs(value[active]))
        rows = active[taken]
        mean[rows], move[rows], value[rows] = candidate[taken], new_move[taken], new_value[taken]
        scale[active] = np.where(taken, 1.0, 0.5 * scale[active])
    return n_iter, converged


@blas_capped
def frechet_mean(manifold, points, *, weights=None, step: float | str = "auto", tol: float = 1e-5,
                 max_iter: int = 500, init=None) -> FrechetMeanResult:
    """Fréchet means of many data sets at once.

    Parameters
    ----------
    manifold : Manifold
    points : array ``(..., n, *point_shape)``; leading axes index data sets.
    weights : array ``(..., n)`` or ``(n,)``, optional. Normalised to sum 1; may be negative
        (not with ``step="newton"``; ``"auto"`` then takes the paper's step).
    step : ``"auto"`` (default): with weights >= 0 the space's ``frechet_step``, a fixed step watched and
        restarted with Newton steps where it overshoots (module notes), else the paper's t = 0.5;
        ``"newton"``; or a step size t in (0, 2).
    tol : stop when the intrinsic distance between successive iterates is below ``tol``.
    max_iter : iteration cap; data sets that hit it are flagged ``converged=False``. ``"auto"``'s Newton
        restart of a data set the paper's step failed on has a cap of its own.
    init : optional starting points ``(..., *point_shape)``; default ``Manifold.frechet_start`` with ``"auto"``
        and weights >= 0 (the normalised weighted centroid on S^d and H^d, else the first record), the first
        record otherwise.

    Returns
    -------
    FrechetMeanResult

    Raises
    ------
    ValueError
        Points of the wrong shape or no records (n = 0), weights, step, tol or max_iter out of range.
    """
    pts = manifold.check_points(points, "points")
    nd = manifold.point_ndim
    if pts.ndim < nd + 1:
        raise ValueError(f"points must have shape (..., n, *{manifold.point_shape}), got {pts.shape}")
    if pts.shape[pts.ndim - nd - 1] == 0:
        raise ValueError(f"points must hold at least one record per data set (n >= 1), got shape {pts.shape}")
    if isinstance(step, str) and step not in ("auto", "newton"):
        raise ValueError(f"step must be a number in (0, 2), 'auto' or 'newton', got {step!r}")
    if not isinstance(step, str) and not 0 < check_positive("step", step) < 2:
        raise ValueError(f"step must lie in (0, 2), got {step}")
    tol = check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter)

    batch_shape = pts.shape[: pts.ndim - nd - 1]
    n = pts.shape[pts.ndim - nd - 1]
    w = _normalised_weights(weights, n, batch_shape)
    flat_pts = pts.reshape((-1, n) + manifold.point_shape)
    flat_w = w.reshape(-1, n)
    # ``auto``: the space's own start and iteration; a fixed step is watched and restarts the data sets it
    # overshoots on with Newton steps where the space has them.
    nonnegative = bool(np.all(w >= 0))
    own = step == "auto" and nonnegative
    fallback = own and manifold.has_frechet_newton_step
    if step == "auto":
        step = manifold.frechet_step if nonnegative else PAPER_STEP
    if init is not None:
        mean = manifold.check_points(np.broadcast_to(init, batch_shape + manifold.point_shape), "init")
        mean = mean.reshape((-1,) + manifold.point_shape).copy()
    else:
        mean = (manifold.frechet_start(flat_pts, flat_w) if own else flat_pts[:, 0]).copy()
    newton = step == "newton"
    if newton and np.any(w < 0):
        raise ValueError(f"step='newton' needs weights >= 0 (got {np.min(w):.3g} after normalising): "
                         "use a step in (0, 2)")
    # Point-only quantities of the inner step computed once (``Manifold.log_sum_points``).
    prepared = manifold.log_sum_points(flat_pts)
    if newton:
        n_iter, converged = _newton_steps(manifold, prepared, flat_w, mean, tol=tol, max_iter=max_iter)
        by_newton = np.ones(len(mean), dtype=bool)
    else:
        start = mean.copy() if fallback else None
        n_iter, converged, overshot = _gradient_steps(manifold, prepared, flat_w, mean, step=step, tol=tol,
                                                      max_iter=max_iter, watch=fallback)
        by_newton = overshot
        if overshot.any():
            rows = np.flatnonzero(overshot)
            restart = start[rows]
            more, done = _newton_steps(manifold, prepared[rows], flat_w[rows], restart, tol=tol, max_iter=max_iter)
            mean[rows], n_iter[rows], converged[rows] = restart, n_iter[rows] + more, done

    grad = manifold.weighted_log_sum(mean, prepared, flat_w)
    return FrechetMeanResult(
        mean=mean.reshape(batch_shape + manifold.point_shape),
        n_iter=n_iter.reshape(batch_shape),
        converged=converged.reshape(batch_shape),
        gradient_norm=manifold.norm(mean, grad).reshape(batch_shape),
        unique=_within_uniqueness_radius(manifold, mean, flat_pts, flat_w).reshape(batch_shape),
        method=np.where(by_newton, "newton", "gradient").reshape(batch_shape),
    )


def _within_uniqueness_radius(manifold, mean: np.ndarray, points: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Whether every record of non-zero weight lies within ½·min{inj, π/√κ} of its data set's mean,
    shape ``(batch,)`` from ``mean (batch, *point_shape)``, ``points (batch, n, *point_shape)``."""
    limit = radius_limits(manifold.kappa_max, manifold.injectivity_radius).unique_mean
    if not np.isfinite(limit):
        return np.ones(len(points), dtype=bool)
    return manifold.farthest_distance(mean, points, weights) < limit


def prefix_frechet_means(manifold, points, sizes, **options) -> FrechetMeanResult:
    """Fréchet means of the nested prefixes ``points[:sizes[0]]``, ``points[:sizes[1]]``, … in one
    batched call.

    The prefix of n records is the data set ``points`` with weights 1/n on its first n records and 0
    on the others, so all prefixes share one array and one ``frechet_mean`` call (a batch of
    ``len(sizes)`` weighted data sets). Each starts at the first record, as ``frechet_mean`` does.

    Parameters
    ----------
    manifold : Manifold
    points : array ``(N, *point_shape)``, the records in the order the prefixes take them.
    sizes : sequence of int, each in [1, N].
    **options : ``step``, ``tol``, ``max_iter`` of ``frechet_mean``.

    Returns
    -------
    FrechetMeanResult
        ``mean`` of shape ``(len(sizes), *point_shape)``; ``n_iter``, ``converged`` and
        ``gradient_norm`` of shape ``(len(sizes),)``.

    Raises
    ------
    ValueError
        Points that are not one data set, or a size outside [1, N].
    """
    pts = manifold.check_points(points, "points")
    if pts.ndim != manifold.point_ndim + 1:
        raise ValueError(f"points must have shape (N, *{manifold.point_shape}), got {pts.shape}")
    sizes = np.atleast_1d(np.asarray(sizes))
    if sizes.ndim != 1 or sizes.size == 0 or not np.issubdtype(sizes.dtype, np.integer):
        raise ValueError(f"sizes must be a non-empty 1-D sequence of integers, got {sizes.tolist()!r}")
    if np.any((sizes < 1) | (sizes > len(pts))):
        raise ValueError(f"sizes must lie in [1, {len(pts)}] (the number of points), got {sizes.tolist()}")
    weights = (np.arange(len(pts)) < sizes[:, None]).astype(float)
    batch = np.broadcast_to(pts, (sizes.size,) + pts.shape)
    return frechet_mean(manifold, batch, weights=weights, **options)
