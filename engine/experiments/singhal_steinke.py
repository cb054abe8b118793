"""Shared runner of the Singhal & Steinke (2021) subspace studies: one tidy row per release.

For every setting (d, n, noise, outliers) the runner draws ⌈reps/10⌉ data sets with
``engine.data.subspace_points`` and makes 10 releases of each method on each (so the costly part
of each method — scores, Gram matrices — is computed once per data set). A release *succeeds* when
it is not ⊥ and ‖Π̂ − Π‖₂ <= ``alpha``. A method whose guarantee needs more points than n is not
run: its rows say ``status = "n-too-small"`` and count as failures.

Methods: ``singhal-steinke-exact`` (Algorithm 1, ℓ = outliers + k − 1), ``singhal-steinke-approx``
(Algorithm 2, γ = max(noise, 1e-12), tolerating the outliers), ``analyze-gauss`` (Dwork et al.
2014), ``bingham`` (exponential mechanism) and ``non-private`` (top-k PCA).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.data import subspace_points, top_subspace
from engine.manifolds import Grassmann
from engine.mechanisms.subspace import AnalyzeGauss, BinghamSubspace, ExactSubspace, SubsampleAggregateSubspace
from engine.validation import check_int, check_positive, check_probability

METHODS = ("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss", "bingham", "non-private")
RELEASES_PER_DATA_SET = 10
COLORS = {"singhal-steinke-exact": "#0072B2", "singhal-steinke-approx": "#009E73", "analyze-gauss": "#D55E00",
          "bingham": "#CC79A7", "non-private": "#7F7F7F"}


@dataclass(frozen=True)
class SubspaceStudy:
    """Parameters shared by the three studies (each study fixes its own grid)."""

    k: int = 2
    epsilon: float = 1.0
    delta: float = 1e-6
    alpha: float = 0.1
    methods: tuple = ("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss", "non-private")

    def __post_init__(self):
        check_int("k", self.k)
        check_positive("epsilon", self.epsilon)
        check_probability("delta", self.delta)
        check_positive("alpha", self.alpha)
        for method in self.methods:
            if method not in METHODS:
                raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def make_mechanism(method: str, study: SubspaceStudy, *, noise: float, outliers: int):
    """The mechanism named ``method`` for one setting, or None for non-private PCA."""
    if method == "singhal-steinke-exact":
        return ExactSubspace(k=study.k, epsilon=study.epsilon, delta=study.delta, ell=outliers + study.k - 1)
    if method == "singhal-steinke-approx":
        return SubsampleAggregateSubspace(k=study.k, epsilon=study.epsilon, delta=study.delta,
                                          gamma=max(noise, 1e-12), outliers=outliers)
    if method == "analyze-gauss":
        return AnalyzeGauss(k=study.k, epsilon=study.epsilon, delta=study.delta)
    if method == "bingham":
        return BinghamSubspace(k=study.k, epsilon=study.epsilon)
    return None


def run_settings(study: SubspaceStudy, settings, *, reps: int, seed: int, progress=None) -> pd.DataFrame:
    """Rows d, n, noise, outliers, method, repeat, success, bottom, proj_error, status for each setting.

    ``settings`` is a list of dicts with keys d, n, noise, outliers.
    """
    reps = check_int("reps", reps)
    n_sets = -(-reps // RELEASES_PER_DATA_SET)
    streams = np.random.SeedSequence(seed).spawn(len(settings))
    rows = []
    for index, (setting, stream) in enumerate(zip(settings, streams)):
        d, n, noise, outliers = setting["d"], setting["n"], setting["noise"], setting["outliers"]
        grassmann = Grassmann(d, study.k)
        rng = np.random.default_rng(stream)
        for data_set in range(n_sets):
            size = min(RELEASES_PER_DATA_SET, reps - data_set * RELEASES_PER_DATA_SET)
            sample = subspace_points(n, d, study.k, noise=noise, outliers=outliers, rng=rng)
            for method in study.methods:
                mech = make_mechanism(method, study, noise=noise, outliers=outliers)
                base = {"d": d, "n": n, "k": study.k, "epsilon": study.epsilon, "delta": study.delta, "noise": noise,
                        "outliers": outliers, "method": method}
                if n < getattr(mech, "min_samples", 0):
                    error, bottom, status = np.full(size, np.nan), np.zeros(size, dtype=bool), "n-too-small"
                else:
                    if mech is None:
                        bases = np.broadcast_to(top_subspace(sample.data, study.k), (size, d, study.k))
                        bottom = np.zeros(size, dtype=bool)
                    else:
                        release = mech.release(sample.data, size=size, rng=rng)
                        bases, bottom = release.bases, release.bottom
                    error = np.where(bottom, np.nan, grassmann.projection_distance(np.nan_to_num(bases), sample.subspace))
                    status = "ok"
                for j in range(size):
                    rows.append({**base, "repeat": data_set * RELEASES_PER_DATA_SET + j,
                                 "success": bool(status == "ok" and not bottom[j] and error[j] <= study.alpha),
                                 "bottom": bool(bottom[j]), "proj_error": float(error[j]), "status": status})
        if progress is not None:
            progress((index + 1) / len(settings))
    return pd.DataFrame(rows)


def summarize(releases: pd.DataFrame, by) -> pd.DataFrame:
    """Success rate (± SE), ⊥ rate and median projection error per group."""
    grouped = releases.groupby(list(by) + ["method"], sort=False)
    out = grouped.agg(success=("success", "mean"), bottom_rate=("bottom", "mean"),
                      median_proj_error=("proj_error", "median"), reps=("success", "size")).reset_index()
    out["success_se"] = np.sqrt(out["success"] * (1 - out["success"]) / out["reps"])
    return out


def success_figures(summary: pd.DataFrame, *, x: str, facet: str, title: str, x_title: str, log_x: bool = True):
    """Success rate ± 2 SE against ``x``, one figure per value of ``facet``."""
    from engine.viz.curves import band_figure

    return {
        f"success-{facet}-{value}": band_figure(
            rows.rename(columns={"success": "mean", "success_se": "se"}), x=x, y="mean", se="se", group="method",
            log_x=log_x, colors=COLORS, title=f"{title} ({facet} = {value})", x_title=x_title,
            y_title="P(success): not ⊥ and ‖Π̂ − Π‖ <= α")
        for value, rows in summary.groupby(facet, sort=True)
    }
