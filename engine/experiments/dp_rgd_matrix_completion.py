"""Private low-rank matrix completion on Gr(d, r) with DP-RSGD (§5.5 and §6.5 of Han, Mishra,
Jawanpuria & Gao), on synthetic data.

Data: X = U V with U a Haar d × r orthonormal basis and V an r × N Gaussian matrix, plus
N(0, noise²) entries; each entry is observed with probability ``observed`` and an observed entry
goes to the test set with probability ``test_fraction``. The privacy unit is one column (one
user's ratings). Objective: ``engine.estimators.matrix_completion.MatrixCompletion``.

Methods, from the same public random start (one per repeat, vectorised):

* ``dp-rgd``: DP-RSGD, batches of b columns drawn without replacement, per-column gradients
  clipped at L0, σ calibrated by the RDP accountant for the sampled Gaussian without replacement
  (``noise="calibrated"``) or the paper's rule σ² = c T log(1/δ) L0²/(N²ε²) with its c = 10⁴
  (``noise="paper"``, the accountant's ε is reported);
* ``non-private``: the same RSGD with σ = 0.

Train and test RMSE are recorded every ``record_every`` iterations. The exact non-private
optimum (full-batch RGD from the spectral start until ‖grad F‖ < 1e-8) is reported in
``optimum``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine import accounting
from engine.data import random_subspace
from engine.estimators.erm import riemannian_gradient_descent
from engine.estimators.matrix_completion import MatrixCompletion
from engine.mechanisms.dp_rgd import DPRGD
from engine.validation import check_int, check_nonnegative, check_positive, check_probability

#: c of the paper's noise rule σ² = c T log(1/δ) L0²/(N²ε²) in its matrix-completion experiment.
PAPER_C = 1e4


def low_rank_data(d: int, rank: int, n: int, *, observed: float, test_fraction: float, noise: float, rng):
    """Columns ``(n, d)`` of X = UV + noise and boolean train/test masks ``(n, d)``."""
    basis = random_subspace(check_int("d", d), check_int("rank", rank), rng)
    coef = rng.standard_normal((check_int("n", n), rank))
    values = coef @ basis.T + check_nonnegative("noise", noise) * rng.standard_normal((n, d))
    seen = rng.random((n, d)) < check_probability("observed", observed)
    test = seen & (rng.random((n, d)) < check_probability("test_fraction", test_fraction))
    return values, seen & ~test, test


def _rmse(prediction, values, masks) -> np.ndarray:
    """RMSE ``(len(masks), ...)`` of predictions ``(..., N, d)`` on each boolean mask ``(N, d)``."""
    sq = (prediction - values) ** 2
    return np.stack([np.sqrt(np.sum(sq * m, axis=(-1, -2)) / m.sum()) for m in masks])


def spectral_start(problem: MatrixCompletion) -> np.ndarray:
    """Top-r left singular vectors of the zero-filled training matrix (a non-private start)."""
    return np.linalg.svd(problem.values.T, full_matrices=False)[0][:, : problem.rank]


def run(*, reps: int = 5, seed: int = 0, d: int = 30, rank: int = 5, n: int = 2_000, observed: float = 0.5,
        test_fraction: float = 0.2, noise_level: float = 0.1, ridge: float = 1e-2, epsilon: float = 1.0,
        delta: float = 1e-3,
        batch_size: int = 10, steps: int = 1_000, step_size: float = 0.5, private_step_size: float = 0.05,
        clip: float = 1.0,
        noise: str = "calibrated", record_every: int = 25, progress=None) -> dict[str, pd.DataFrame]:
    """Train/test RMSE along DP-RSGD and RSGD paths.

    Parameters
    ----------
    reps, seed : repeats (random starts and noise) and the root of ``SeedSequence(seed).spawn``.
    d, rank, n : Gr(d, r) and the number of columns N (up to 10,000 in the paper's setting).
    observed, test_fraction, noise_level : data (see module notes); ridge : λ of the column fits
        (keeps test predictions of sparsely observed columns stable).
    epsilon, delta : privacy target (default ε = 1: at the paper's ε = 0.1 and N = 2,000 the
        calibrated noise swamps the signal and DP-RSGD does not move from its start).
    batch_size, steps, clip : b, T, L0.
    step_size, private_step_size : η of RSGD (also of the exact full-batch solver) and of DP-RSGD
        (smaller: the injected noise has norm about σ√(r(d − r)) per step, like the paper's tuned
        pair 10⁻⁵ / 5·10⁻⁶).
    noise : "calibrated" or "paper"; record_every : RMSE evaluation interval.
    progress : optional callable receiving the completed fraction.

    Returns
    -------
    ``{"rmse": method, repeat, iteration, split, rmse; "settings": one row of sigma,
    noise_multiplier, epsilon_spent, paper_sigma (the rule with the paper's c = ``PAPER_C``, the σ of
    ``noise="paper"``), paper_c, batch_size, steps, clip; "optimum": n_iter, gradient_norm, converged,
    train_rmse, test_rmse}``.
    """
    reps = check_int("reps", reps)
    record_every = check_int("record_every", record_every)
    steps = check_int("steps", steps)
    if noise not in ("calibrated", "paper"):
        raise ValueError(f"noise must be 'calibrated' or 'paper', got {noise!r}")
    # The mechanisms validate the privacy parameters before any data are drawn.
    paper_sigma = accounting.paper_sigma(epsilon, delta, steps, n, clip, c=PAPER_C)
    mechanism = DPRGD(epsilon=epsilon, delta=delta, clip=clip, steps=steps,
                      step_size=check_positive("private_step_size", private_step_size), batch_size=batch_size,
                      sigma=paper_sigma if noise == "paper" else None)
    noiseless = DPRGD(epsilon=epsilon, delta=delta, clip=clip, steps=steps, step_size=step_size,
                      batch_size=batch_size, sigma=0.0)
    data_seq, run_seq = np.random.SeedSequence(seed).spawn(2)
    values, train, test = low_rank_data(d, rank, n, observed=observed, test_fraction=test_fraction,
                                        noise=noise_level, rng=np.random.default_rng(data_seq))
    problem = MatrixCompletion(values, train, rank=rank, ridge=ridge)
    best = riemannian_gradient_descent(problem, spectral_start(problem), step=check_positive("step_size", step_size),
                                       tol=1e-8, max_iter=20_000)
    if progress is not None:
        progress(0.2)
    rng = np.random.default_rng(run_seq)
    start = problem.manifold.random_point(reps, rng)
    private = mechanism.fit(problem, start, rng=rng, record_every=record_every)
    if progress is not None:
        progress(0.6)
    plain = noiseless.fit(problem, start, rng=rng, record_every=record_every)
    if progress is not None:
        progress(0.9)
    iterations = private.diagnostic_iterations
    frames = []
    for method, result in (("dp-rgd", private), ("non-private", plain)):
        errors = np.stack([_rmse(problem.predict(result.path[t]), values, (train, test)) for t in iterations])
        for k, split in enumerate(("train", "test")):
            frames.append(pd.DataFrame({
                "method": method, "repeat": np.tile(np.arange(reps), len(iterations)),
                "iteration": np.repeat(iterations, reps), "split": split, "rmse": errors[:, k].ravel()}))
    settings = pd.DataFrame([{"sigma": private.sigma, "noise_multiplier": private.noise_multiplier,
                              "epsilon_spent": private.epsilon_spent, "paper_sigma": paper_sigma,
                              "paper_c": PAPER_C, "batch_size": batch_size, "steps": steps, "clip": clip}])
    optimum = pd.DataFrame([{"n_iter": int(best.n_iter), "gradient_norm": float(best.gradient_norm),
                             "converged": bool(best.converged),
                             "train_rmse": float(_rmse(problem.predict(best.point), values, (train,))[0]),
                             "test_rmse": float(_rmse(problem.predict(best.point), values, (test,))[0])}])
    if progress is not None:
        progress(1.0)
    return {"rmse": pd.concat(frames, ignore_index=True), "settings": settings, "optimum": optimum}


def figures(results) -> dict:
    """Mean RMSE ± 2 SE per iteration, train and test, private and non-private."""
    from engine.viz.curves import band_figure

    out = {}
    for split, rows in results["rmse"].groupby("split", sort=False):
        summary = (rows.groupby(["method", "iteration"], sort=False)["rmse"]
                   .agg(mean="mean", se=lambda s: s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else 0.0)
                   .reset_index())
        out[f"rmse-{split}"] = band_figure(summary, x="iteration", y="mean", se="se", group="method",
                                           log_y=True, title=f"Matrix completion on Gr(d, r): {split} RMSE",
                                           x_title="iteration", y_title="RMSE")
    return out
