"""Figure 1 of Reimherr, Bharath & Soto (2021): sensitivity and utility on SPD(2) and S^2.

Panels 1 and 3: empirical sensitivity ρ(x̄, x̄′) over neighbouring data sets (one point replaced,
at random or adversarially on the boundary of B_r(m0)) against the Theorem 2 bound. Panels 2 and
4: Euclidean distance between the Fréchet mean and its private release for the intrinsic
(Riemannian) Laplace and the Euclidean Laplace in ambient coordinates, with ±2 SE bands, plus the
share of Euclidean SPD releases that are not positive definite.

Two Euclidean baselines (``MECHANISMS``). ``"euclid"`` is ε-DP: it adds the K-norm noise
calibrated to Δ_E = 2r_E/n around the statistic that Δ_E bounds, the ambient mean, and its error is
measured against the Fréchet mean like the intrinsic one's (so its bias shows). The paper adds the
same noise around the Fréchet mean: ``"paper"``, kept for a faithful Figure 1,
is *not* ε-DP, because the Fréchet mean's ambient sensitivity exceeds 2r_E/n (by up to
r e^r/(e^r − 1) on SPD: 1.93 at r = 1.5); ``baseline_privacy`` measures the excess on a pair.

Settings (paper §5 and supplement §1.2–1.3): SPD(2) affine-invariant, Wishart W(I/2, 2) data
kept within r = 1.5 of I; S^2 with the cap sampler, r = π/8, m0 = north pole; 1,000 replicates
per n; ε = 1. The sphere study of the paper calibrates σ with the empirical boundary constant of
the supplement instead of 2r(2 − h): ``sphere_constant`` chooses ("empirical" or "theorem").
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine import bounds
from engine.estimators import PAPER_STEP, ambient_mean, frechet_mean
from engine.experiments.protocol import WORD, Task, make_config, normalise_seed, replicate_blocks
from engine.mechanisms import specs
from engine.pipelines.figure1_setting import (
    DEFAULT_NS,
    MECHANISMS,
    RECIPES,
    SETTINGS,
    baseline_privacy,
    neighbour_sensitivities,
    noise_scales,
    release_errors,
    sensitivity_constant,
)
from engine.validation import check_int, check_positive

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("sensitivity", "utility", "summary", "baseline_privacy")


@dataclass(frozen=True)
class Config:
    """Settings of the study (see ``run``); ``block`` replicates per task."""

    reps: int = 1000
    seed: int | tuple[int, ...] = 0
    ns: tuple[int, ...] = DEFAULT_NS
    epsilon: float = 1.0
    sphere_constant: str = "empirical"
    block: int = 1000

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        # Each cell's band is a standard error (ddof = 1): one replicate leaves it undefined.
        set_("reps", check_int("reps", self.reps, minimum=2))
        set_("seed", normalise_seed(self.seed))
        set_("ns", tuple(check_int("n", n) for n in self.ns))
        set_("epsilon", check_positive("epsilon", self.epsilon))
        set_("block", check_int("block", self.block))
        if self.sphere_constant not in ("empirical", "theorem"):
            raise ValueError(f"sphere_constant must be 'empirical' or 'theorem', got {self.sphere_constant!r}")


def tasks(config: Config) -> list[Task]:
    """One task per (space, n, replicate block), keyed ``(space, n, first replicate)``."""
    return [Task((setting.key, n, start), simulate_cell,
                 (setting.key, n, start, stop, config.epsilon, config.sphere_constant), cost=n * (stop - start))
            for setting in SETTINGS for n in config.ns
            for start, stop in replicate_blocks(config.reps, config.block)]


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the tables and of one task's data sets (``protocol.check_footprint``)."""
    cells, block = len(SETTINGS) * len(config.ns), min(config.block, config.reps)
    return {
        f"the utility table ({cells} cells × 3 mechanisms × reps = {config.reps:.3g} rows of 6 columns)":
            cells * len(MECHANISMS) * config.reps * 6 * WORD,
        f"the sensitivity table ({cells} cells × 2 neighbours × reps = {config.reps:.3g} rows of 6 columns)":
            cells * 2 * config.reps * 6 * WORD,
        f"one task's data sets and neighbours (3 × block = {block:.3g} × n = {max(config.ns):.3g} points of 4 "
        f"coordinates)": 3 * block * max(config.ns) * 4 * WORD,
    }


@functools.lru_cache(maxsize=8)
def _sensitivity_constant(key: str, sphere_constant: str) -> float:
    """``sensitivity_constant`` of space ``key``, once per process (the sphere's takes a grid search)."""
    return sensitivity_constant(next(s for s in SETTINGS if s.key == key), sphere_constant)


def simulate_cell(key: str, n: int, start: int, stop: int, epsilon: float, sphere_constant: str, *,
                  rng) -> dict:
    """Replicates ``start`` to ``stop - 1`` at sample size n on space ``key``.

    Returns ``{"sensitivity": DataFrame, "utility": DataFrame, "sigma": {mechanism: σ}}`` with the
    columns of ``run``'s tables.
    """
    setting = next(s for s in SETTINGS if s.key == key)
    m = setting.manifold
    reps, replicate = stop - start, np.arange(start, stop)
    constant = _sensitivity_constant(key, sphere_constant)
    sens_rows, util_rows = [], []
    data = setting.sample(n, reps, rng)
    means = frechet_mean(m, data, step=PAPER_STEP).mean
    ambient_means = ambient_mean(m, data)
    bound = float(bounds.frechet_mean_sensitivity(n, setting.radius, m.kappa_max))
    for kind, moved in neighbour_sensitivities(setting, data, means, rng).items():
        sens_rows.append(pd.DataFrame({"space": setting.key, "n": n, "replicate": replicate,
                                       "neighbour": kind, "sensitivity": moved, "bound": bound}))
    scales = noise_scales(setting, constant, n, epsilon)
    for mechanism, scale in scales.items():
        _, err, off = release_errors(setting, means, mechanism, scale, rng, ambient_means=ambient_means)
        util_rows.append(pd.DataFrame({"space": setting.key, "n": n, "replicate": replicate,
                                       "mechanism": mechanism, "euclidean_error": err,
                                       "on_manifold": ~off}))
    return {"sensitivity": pd.concat(sens_rows, ignore_index=True),
            "utility": pd.concat(util_rows, ignore_index=True), "sigma": scales}


def combine(config: Config, outputs: list[dict]) -> dict[str, pd.DataFrame]:
    """Concatenate the blocks and summarise each (space, n, mechanism) over all replicates."""
    utility = pd.concat([out["utility"] for out in outputs], ignore_index=True)
    sigmas = {(out["utility"].space.iloc[0], out["utility"].n.iloc[0]): out["sigma"] for out in outputs}
    summary_rows = []
    for (space, n), cell in utility.groupby(["space", "n"], sort=False):
        errors = {}
        for mechanism, rows in cell.groupby("mechanism", sort=False):
            err, off = rows.euclidean_error.to_numpy(), ~rows.on_manifold.to_numpy()
            errors[mechanism] = err
            summary_rows.append({"space": space, "n": n, "mechanism": mechanism,
                                 "mean_error": err.mean(), "se": err.std(ddof=1) / np.sqrt(len(err)),
                                 "share_off_manifold": off.mean(),
                                 "sigma": sigmas[space, n][mechanism]})
        for row in summary_rows[-len(MECHANISMS):]:
            for column, baseline in (("noise_reduction_pct", specs.EUCLID.key),
                                     ("noise_reduction_vs_paper_pct", specs.PAPER.key)):
                row[column] = 100.0 * (1.0 - errors[specs.EXACT.key].mean() / errors[baseline].mean())
    return {
        "sensitivity": pd.concat([out["sensitivity"] for out in outputs], ignore_index=True),
        "utility": utility,
        "summary": pd.DataFrame(summary_rows),
        "baseline_privacy": pd.concat([baseline_privacy(setting, min(config.ns), epsilon=config.epsilon)
                                       for setting in SETTINGS], ignore_index=True),
    }


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Simulate all four panels in-process (``Config`` lists the settings).

    Returns
    -------
    dict with tidy DataFrames:
      ``sensitivity``: space, n, replicate, neighbour ("random" | "adversarial"), sensitivity, bound;
      ``utility``: space, n, replicate, mechanism, euclidean_error, on_manifold;
      ``summary``: per space, n and mechanism the mean error, its SE, the share off the manifold,
      the noise scale σ and the percentage noise reduction of the intrinsic mechanism against the ε-DP
      baseline (``noise_reduction_pct``) and against the paper's (``noise_reduction_vs_paper_pct``);
      ``baseline_privacy``: ``baseline_privacy`` per space at the smallest n.
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def sensitivity_summary(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Mean empirical sensitivity and its SE per space, n and neighbour kind, with the bound."""
    grouped = sensitivity.groupby(["space", "n", "neighbour"], sort=False)
    out = grouped.agg(mean=("sensitivity", "mean"), sd=("sensitivity", "std"), count=("sensitivity", "size"),
                      maximum=("sensitivity", "max"), bound=("bound", "first")).reset_index()
    out["se"] = out["sd"].fillna(0.0) / np.sqrt(out["count"])
    return out.drop(columns=["sd", "count"])


def figures(results: dict[str, pd.DataFrame]) -> dict:
    """The four panels as plotly figures (panels 1/3: sensitivity, 2/4: utility)."""
    from engine.viz.curves import band_figure

    sens = sensitivity_summary(results["sensitivity"])
    summary = results["summary"]
    out = {}
    for key, recipe in RECIPES.items():
        panel = recipe.panels[0]
        rows = sens[sens.space == key].assign(group=lambda d: "neighbour: " + d.neighbour)
        colors = {"neighbour: random": "#009E73", "neighbour: adversarial": "#CC79A7"}
        out[f"panel{panel}-{key}-sensitivity"] = band_figure(
            rows, x="n", y="mean", se="se", group="group", colors=colors,
            bound=rows.drop_duplicates("n")[["n", "bound"]], bound_name="Theorem 2 bound", log_x=True, log_y=True,
            title=f"Sensitivity of the Fréchet mean — {recipe.title}", x_title="sample size n",
            y_title="ρ(x̄, x̄′)")
    for key, recipe in RECIPES.items():
        panel = recipe.panels[1]
        rows = summary[summary.space == key]
        out[f"panel{panel}-{key}-utility"] = band_figure(
            rows, x="n", y="mean_error", se="se", group="mechanism", log_x=True, log_y=True,
            title=f"Error of the private mean — {recipe.title}", x_title="sample size n",
            y_title="Euclidean distance ‖x̄ − x̃‖")
    return out
