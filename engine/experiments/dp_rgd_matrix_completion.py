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
``optimum``. The data and the spectral start are shared with the Private optimization page
(``engine.pipelines.dp_rgd_setting.matrix_completion``).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine import accounting
from engine.estimators.erm import riemannian_gradient_descent
from engine.estimators.matrix_completion import MatrixCompletion
from engine.experiments.protocol import WORD, Task, make_config, normalise_seed, replicate_blocks, task_seed
from engine.mechanisms.dp_rgd import DPRGD
from engine.pipelines.dp_rgd_setting.matrix_completion import low_rank_data, spectral_start
from engine.validation import check_int, check_nonnegative, check_positive, check_probability

#: c of the paper's noise rule σ² = c T log(1/δ) L0²/(N²ε²) in its matrix-completion experiment.
PAPER_C = 1e4


def _rmse(prediction, values, masks) -> np.ndarray:
    """RMSE ``(len(masks), ...)`` of predictions ``(..., N, d)`` on each boolean mask ``(N, d)``."""
    sq = (prediction - values) ** 2
    return np.stack([np.sqrt(np.sum(sq * m, axis=(-1, -2)) / m.sum()) for m in masks])

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("rmse", "settings", "optimum")


@dataclass(frozen=True)
class Config:
    """Settings of the study (see ``run``); ``block`` repeats per task."""

    reps: int = 5
    seed: int | tuple[int, ...] = 0
    d: int = 30
    rank: int = 5
    n: int = 2_000
    observed: float = 0.5
    test_fraction: float = 0.2
    noise_level: float = 0.1
    ridge: float = 1e-2
    epsilon: float = 1.0
    delta: float = 1e-3
    batch_size: int = 10
    steps: int = 1_000
    step_size: float = 0.5
    private_step_size: float = 0.05
    clip: float = 1.0
    noise: str = "calibrated"
    record_every: int = 25
    block: int = 5

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps))
        set_("seed", normalise_seed(self.seed))
        set_("d", check_int("d", self.d))
        set_("rank", check_int("rank", self.rank))
        set_("n", check_int("n", self.n))
        set_("observed", check_probability("observed", self.observed))
        set_("test_fraction", check_probability("test_fraction", self.test_fraction))
        set_("noise_level", check_nonnegative("noise_level", self.noise_level))
        set_("record_every", check_int("record_every", self.record_every))
        set_("steps", check_int("steps", self.steps))
        set_("step_size", check_positive("step_size", self.step_size))
        set_("private_step_size", check_positive("private_step_size", self.private_step_size))
        set_("block", check_int("block", self.block))
        if self.noise not in ("calibrated", "paper"):
            raise ValueError(f"noise must be 'calibrated' or 'paper', got {self.noise!r}")
        # The privacy parameters are checked before any data are drawn.
        set_("epsilon", check_positive("epsilon", self.epsilon))
        set_("delta", check_probability("delta", self.delta))
        set_("clip", check_positive("clip", self.clip))
        set_("batch_size", check_int("batch_size", self.batch_size))


@functools.lru_cache(maxsize=4)
def completion_problem(d: int, rank: int, n: int, observed: float, test_fraction: float, noise_level: float,
                       ridge: float, step_size: float, seed):
    """``(values, train, test, problem, best)``: the data, drawn with the run's key ``("data",)``, and
    the exact non-private optimum (cached per process; treat the arrays as read-only)."""
    values, train, test = low_rank_data(d, rank, n, observed=observed, test_fraction=test_fraction,
                                        noise=noise_level, rng=np.random.default_rng(task_seed(seed, ("data",))))
    problem = MatrixCompletion(values, train, rank=rank, ridge=ridge)
    best = riemannian_gradient_descent(problem, spectral_start(problem), step=step_size, tol=1e-8, max_iter=20_000)
    return values, train, test, problem, best


def _problem(config: Config):
    return completion_problem(config.d, config.rank, config.n, config.observed, config.test_fraction,
                              config.noise_level, config.ridge, config.step_size, config.seed)


def tasks(config: Config) -> list[Task]:
    """One task per block of repeats, keyed ``("paths", first repeat)``."""
    return [Task(("paths", start), rmse_paths, (config, start, stop))
            for start, stop in replicate_blocks(config.reps, config.block)]


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the data, one task's predictions and the RMSE table (``check_footprint``)."""
    block, records = min(config.block, config.reps), config.steps // config.record_every + 1
    return {
        f"the data (values and 2 masks of n = {config.n:.3g} × d = {config.d:.3g})": config.n * config.d * (WORD + 2),
        f"one task's predictions (block = {block:.3g} repeats × n = {config.n:.3g} × d = {config.d:.3g})":
            block * config.n * config.d * WORD,
        f"the RMSE table (2 methods × 2 splits × reps = {config.reps:.3g} × {records:.3g} records, 5 columns)":
            4 * config.reps * records * 5 * WORD,
    }


def rmse_paths(config: Config, start: int, stop: int, *, rng) -> dict:
    """Repeats ``start`` to ``stop - 1``: DP-RSGD and RSGD from the same random starts.

    Returns ``{"rmse": DataFrame, "settings": dict, "optimum": dict}``.
    """
    values, train, test, problem, best = _problem(config)
    reps, steps, n = stop - start, config.steps, config.n
    epsilon, delta, clip, batch_size = config.epsilon, config.delta, config.clip, config.batch_size
    start_points = problem.manifold.random_point(reps, rng)
    paper_sigma = accounting.paper_sigma(epsilon, delta, steps, n, clip, c=PAPER_C)
    sigma = paper_sigma if config.noise == "paper" else None
    private = DPRGD(epsilon=epsilon, delta=delta, clip=clip, steps=steps, step_size=config.private_step_size,
                    batch_size=batch_size, sigma=sigma).fit(problem, start_points, rng=rng,
                                                            record_every=config.record_every)
    plain = DPRGD(epsilon=epsilon, delta=delta, clip=clip, steps=steps, step_size=config.step_size,
                  batch_size=batch_size, sigma=0.0).fit(problem, start_points, rng=rng,
                                                        record_every=config.record_every)
    iterations = private.diagnostic_iterations
    frames = []
    for method, result in (("dp-rgd", private), ("non-private", plain)):
        errors = np.stack([_rmse(problem.predict(result.path[t]), values, (train, test)) for t in iterations])
        for k, split in enumerate(("train", "test")):
            frames.append(pd.DataFrame({
                "method": method, "repeat": np.tile(np.arange(start, stop), len(iterations)),
                "iteration": np.repeat(iterations, reps), "split": split, "rmse": errors[:, k].ravel()}))
    settings = {"sigma": private.sigma, "noise_multiplier": private.noise_multiplier,
                "epsilon_spent": private.epsilon_spent, "paper_sigma": paper_sigma, "paper_c": PAPER_C,
                "batch_size": batch_size, "steps": steps, "clip": clip}
    optimum = {"n_iter": int(best.n_iter), "gradient_norm": float(best.gradient_norm),
               "converged": bool(best.converged),
               "train_rmse": float(_rmse(problem.predict(best.point), values, (train,))[0]),
               "test_rmse": float(_rmse(problem.predict(best.point), values, (test,))[0])}
    return {"rmse": pd.concat(frames, ignore_index=True), "settings": settings, "optimum": optimum}


def combine(config: Config, outputs: list[dict]) -> dict[str, pd.DataFrame]:
    """RMSE rows in task order; the settings and the optimum (the same in every block) once."""
    rmse = pd.concat([out["rmse"] for out in outputs], ignore_index=True)
    order = ["method", "split"]
    rmse = pd.concat([rows for _, rows in rmse.groupby(order, sort=False)], ignore_index=True)
    return {"rmse": rmse, "settings": pd.DataFrame([outputs[0]["settings"]]),
            "optimum": pd.DataFrame([outputs[0]["optimum"]])}


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Train/test RMSE along DP-RSGD and RSGD paths, in-process.

    Parameters
    ----------
    reps, seed : repeats (random starts and noise) and the root ``SeedSequence(seed)`` of the run's task keys.
    d, rank, n : Gr(d, r) and the number of columns N (up to 10,000 in the paper's setting).
    observed, test_fraction, noise_level : data (see module notes); ridge : λ of the column fits
        (keeps test predictions of sparsely observed columns stable).
    epsilon, delta : privacy target (default ε = 1: at the paper's ε = 0.1 and N = 2,000 the
        calibrated noise swamps the signal and DP-RSGD does not move from its start).
    batch_size, steps, clip : b, T, L0.
    step_size, private_step_size : η of RSGD (also of the exact full-batch solver) and of DP-RSGD
        (smaller: the injected noise has norm about σ√(r(d − r)) per step, like the paper's tuned
        pair 10⁻⁵ / 5·10⁻⁶).
    noise : "calibrated" or "paper"; record_every : RMSE evaluation interval; block : repeats per task.
    progress : optional callable receiving the completed fraction.

    Returns
    -------
    ``{"rmse": method, repeat, iteration, split, rmse; "settings": one row of sigma,
    noise_multiplier, epsilon_spent, paper_sigma (the rule with the paper's c = ``PAPER_C``, the σ of
    ``noise="paper"``), paper_c, batch_size, steps, clip; "optimum": n_iter, gradient_norm, converged,
    train_rmse, test_rmse}``.
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


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
