"""Private hyperbolic structured prediction (§5.4 and §6.4 of Han, Mishra, Jawanpuria & Gao).

Data: a balanced tree embedded in H^2 by Sarkar's construction (``engine.data.tree_embedding``),
edge length D_W/(2·height) so that the embedding has diameter at most D_W = 10; features x_i are a
3-dimensional Laplacian eigenmap of the adjacency matrix with self-loops (scikit-learn's
``SpectralEmbedding``, as in the paper's code). One node is held out; the prediction at its
features x is the weighted Fréchet mean

    ŷ(x) = argmin_w F(w) = (1/(2n)) Σ_i α_i(x) d²(w, y_i),   α(x) = (K + γI)⁻¹ K_x,

with the RBF kernel k(a, b) = exp(−‖a − b‖²/(2υ²)), υ = 0.2, γ = 1e-5; the weights may be negative
(then F is non-convex, Theorem 5). L0 = max_i |α_i| D_W, L1 = D_W/tanh(D_W),
T = √L1·n·ε/(√(d log(1/δ))·L0) with d = 2 (at least 1).

The privacy unit is one training label y_i: the features, hence α and L0, are public. Step sizes
are quoted in the paper's units (its code descends on Σ_i α_i d²(w, y_i) = 2n·F): 0.001 private,
0.003 non-private; on F they are η = 2n·step. As in the other studies the noise is calibrated for
the averaged gradient, which the paper's code is not (it adds that noise to the sum).
Outputs: the held-out truth, the exact non-private prediction (RGD to ‖grad F‖ < 1e-8), ``reps``
DP-RGD predictions, and per-iteration distances of the DP-RGD and non-private RGD (paper step, 1,500
iterations) paths. The prediction problem and the step rule are shared with the Private
optimization page (``engine.pipelines.dp_rgd_setting.hyperbolic``).
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.experiments.protocol import WORD, Task, make_config, normalise_seed, replicate_blocks
from engine.manifolds.hyperbolic import Hyperbolic
from engine.mechanisms.dp_rgd import DPRGD
from engine.pipelines.dp_rgd_setting.hyperbolic import PredictionTask, prediction_task, steps_rule
from engine.validation import check_int, check_positive, check_probability

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("points", "edges", "path", "settings")


@dataclass(frozen=True)
class Config:
    """Settings of the prediction (see ``run``); ``block`` DP-RGD repeats per task."""

    reps: int = 20
    seed: int | tuple[int, ...] = 0
    taxonomy: str = "balanced"
    branching: int = 2
    height: int = 7
    test_node: int | None = None
    epsilon: float = 0.1
    delta: float = 1e-3
    diameter: float = 10.0
    width: float = 0.2
    ridge: float = 1e-5
    private_step: float = 0.001
    nonprivate_step: float = 0.003
    nonprivate_iterations: int = 1_500
    noise: str = "calibrated"
    block: int = 20

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps))
        set_("seed", normalise_seed(self.seed))
        set_("epsilon", check_positive("epsilon", self.epsilon))
        set_("delta", check_probability("delta", self.delta))
        set_("diameter", check_positive("diameter", self.diameter))
        set_("nonprivate_iterations", check_int("nonprivate_iterations", self.nonprivate_iterations))
        set_("block", check_int("block", self.block))
        set_("branching", check_int("branching", self.branching))
        set_("height", check_int("height", self.height))
        if self.noise not in ("calibrated", "paper"):
            raise ValueError(f"noise must be 'calibrated' or 'paper', got {self.noise!r}")


def _prediction_task(config: Config) -> PredictionTask:
    return prediction_task(taxonomy=config.taxonomy, branching=config.branching, height=config.height,
                           test_node=config.test_node, diameter=config.diameter, width=config.width,
                           ridge=config.ridge)


def _steps(config: Config, task: PredictionTask) -> int:
    return steps_rule(task.problem.n, config.epsilon, config.delta, task.clip, task.smoothness)


def tasks(config: Config) -> list[Task]:
    """Blocks of DP-RGD repeats, keyed ``("dp-rgd", first repeat)``, and the non-private path,
    keyed ``("non-private",)``. Builds the prediction problem first, so a bad setting fails here."""
    _prediction_task(config)
    blocks = [Task(("dp-rgd", start), private_block, (config, stop - start))
              for start, stop in replicate_blocks(config.reps, config.block)]
    return blocks + [Task(("non-private",), nonprivate_path, (config,))]


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the tree's adjacency matrix and of the paths (``protocol.check_footprint``)."""
    if config.taxonomy == "balanced":  # 1 + b + ... + b^h nodes, as a float (inf beyond 1e308)
        nodes = math.exp(min((config.height + 1) * math.log(config.branching), 709.0)) if config.branching > 1 \
            else config.height + 1.0
        tree = f"branching = {config.branching} and height = {config.height}"
    else:
        nodes, tree = 1182.0, "WordNet's mammal subtree"
    return {
        f"the adjacency matrix of the tree ({nodes:.3g} nodes for {tree}, squared)": nodes * nodes * WORD,
        f"the paths (reps = {config.reps:.3g} DP-RGD runs and nonprivate_iterations = "
        f"{config.nonprivate_iterations:.3g} steps of 3 coordinates)":
            (2 * config.reps + config.nonprivate_iterations + 1) * 3 * WORD,
    }


def private_block(config: Config, reps: int, *, rng) -> dict:
    """``reps`` DP-RGD runs from the root: outputs ``(reps, 3)``, paths ``(T + 1, reps, 3)``, σ, ε spent."""
    task = _prediction_task(config)
    n = task.problem.n
    private = DPRGD(epsilon=config.epsilon, delta=config.delta, clip=task.clip, steps=_steps(config, task),
                    step_size=2 * n * config.private_step,
                    sigma=None if config.noise == "calibrated" else "paper").fit(
        task.problem, np.broadcast_to(task.manifold.origin, (reps, 3)), rng=rng)
    return {"output": private.points, "path": private.path, "sigma": private.sigma,
            "epsilon_spent": private.epsilon_spent}


def nonprivate_path(config: Config, *, rng) -> np.ndarray:
    """The noiseless path ``(nonprivate_iterations + 1, 3)`` at the paper's non-private step."""
    task = _prediction_task(config)
    return DPRGD(epsilon=config.epsilon, delta=config.delta, clip=task.clip, steps=config.nonprivate_iterations,
                 step_size=2 * task.problem.n * config.nonprivate_step, sigma=0.0).fit(
        task.problem, task.manifold.origin).path


def combine(config: Config, outputs: list) -> dict[str, pd.DataFrame]:
    """Points, edges, paths and settings from the DP-RGD blocks (in order) and the non-private path."""
    task = _prediction_task(config)
    manifold, tree, problem, alpha, best = task.manifold, task.tree, task.problem, task.alpha, task.best
    blocks, plain = outputs[:-1], outputs[-1]
    output = np.concatenate([b["output"] for b in blocks])
    truth = tree.points[task.test]
    paths = [("dp-rgd", np.concatenate([b["path"] for b in blocks], axis=1)), ("non-private", plain[:, None, :])]
    path = pd.concat([pd.DataFrame({
        "method": method, "repeat": np.tile(np.arange(p.shape[1]), p.shape[0]),
        "iteration": np.repeat(np.arange(p.shape[0]), p.shape[1]),
        "distance_to_truth": manifold.dist(p, truth).ravel(),
        "distance_to_optimum": manifold.dist(p, best.point).ravel()}) for method, p in paths], ignore_index=True)
    roles = [("truth", truth[None]), ("non-private", best.point[None]), ("dp-rgd", output),
             ("data", tree.points)]
    points = pd.concat([_point_frame(manifold, role, pts) for role, pts in roles], ignore_index=True)
    settings = pd.DataFrame([{
        "n": problem.n, "steps": _steps(config, task), "sigma": blocks[0]["sigma"],
        "epsilon_spent": blocks[0]["epsilon_spent"], "clip": task.clip,
        "smoothness": task.smoothness, "alpha_min": float(alpha.min()), "alpha_max": float(alpha.max()),
        "n_negative_weights": int(np.sum(alpha < 0)), "optimum_gradient_norm": float(best.gradient_norm),
        "optimum_converged": bool(best.converged)}])
    return {"points": points, "edges": pd.DataFrame(tree.edges, columns=["parent", "child"]), "path": path,
            "settings": settings}


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Predict the embedding of a held-out tree node privately, in-process.

    Parameters
    ----------
    reps, seed : DP-RGD repeats (vectorised per block) and the root seed of their noise.
    taxonomy : "balanced" (default) or "wordnet-mammal" (see ``taxonomy_tree``).
    branching, height : the balanced tree; test_node : row index of the held-out node (default
        the last node in breadth-first order, a leaf).
    epsilon, delta : privacy target; diameter : D_W; width, ridge : υ and γ of the kernel ridge.
    private_step, nonprivate_step : step sizes in the paper's units (see module notes).
    nonprivate_iterations : length of the non-private RGD path; noise : "calibrated" or "paper".
    block : DP-RGD repeats per task.
    progress : optional callable receiving the completed fraction.

    Returns
    -------
    ``{"points": role, repeat, x0, x1, x2, px, py (Lorentz and Poincaré coordinates of the truth,
    the non-private prediction, the DP-RGD predictions and every tree node);
    "edges": parent, child (rows of the "data" points); "path": method, repeat, iteration,
    distance_to_truth, distance_to_optimum; "settings": one row of n, steps, sigma,
    epsilon_spent, clip, smoothness, alpha_min, alpha_max, n_negative_weights,
    optimum_gradient_norm, optimum_converged}``.
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def _point_frame(manifold: Hyperbolic, role: str, pts: np.ndarray) -> pd.DataFrame:
    disk = manifold.to_poincare(pts)
    return pd.DataFrame({"role": role, "repeat": np.arange(len(pts)), "x0": pts[:, 0], "x1": pts[:, 1],
                         "x2": pts[:, 2], "px": disk[:, 0], "py": disk[:, 1]})


def figures(results) -> dict:
    """The tree, truth and predictions on the Poincaré disk; distance to the optimum per iteration."""
    from engine.viz.curves import band_figure
    from engine.viz.poincare import poincare_figure

    pts = results["points"]
    lorentz = {role: rows[["x0", "x1", "x2"]].to_numpy() for role, rows in pts.groupby("role", sort=False)}
    disk = poincare_figure(data=lorentz["data"], mean=lorentz["truth"][0],
                           releases={"dp-rgd": lorentz["dp-rgd"], "non-private": lorentz["non-private"]},
                           edges=results["edges"].to_numpy(), title="Hyperbolic structured prediction")
    summary = (results["path"].groupby(["method", "iteration"], sort=False)["distance_to_optimum"]
               .agg(mean="mean", se=lambda s: s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else 0.0)
               .reset_index())
    curve = band_figure(summary, x="iteration", y="mean", se="se", group="method", log_y=True,
                        title="Distance to the non-private optimum", x_title="iteration",
                        y_title="d(w_t, ŷ)")
    return {"poincare": disk, "distance": curve}
