"""Shared parts of the Singhal & Steinke (2021) subspace studies: parameters, tasks, tidy rows.

The three studies (``singhal_steinke_dimension``, ``_gap``, ``_robust``) follow the study protocol
of ``engine.experiments``: each declares a ``Config`` subclass of ``SubspaceConfig`` with its grid
of settings (d, n, noise, outliers) and builds its tasks with ``setting_tasks``. A task covers one
setting and one block of replicates (key ``(d, n, noise, outliers, first replicate)``); inside it,
every ``RELEASES_PER_DATA_SET`` consecutive replicates share one data set drawn with
``engine.data.subspace_points`` (so the costly part of each method — scores, Gram matrices — is
computed once per data set) and get independent releases.

A release *succeeds* when it is not ⊥ and ‖Π̂ − Π‖₂ <= ``alpha``. A method whose guarantee needs
more points than n is not run: its rows say ``status = "n-too-small"`` and count as failures; so do
the rows of a release Algorithm 1 refuses (``status = "refused"``: points too thin or too far from U
for its δ, ``fitted_subspace``).

Methods: ``singhal-steinke-exact`` (Algorithm 1, ℓ = outliers + k − 1), ``singhal-steinke-approx``
(Algorithm 2, γ = max(noise, 1e-12), tolerating the outliers), ``analyze-gauss`` (Dwork et al.
2014), ``bingham`` (exponential mechanism) and ``non-private`` (top-k PCA).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.data import subspace_points, top_subspace
from engine.experiments.protocol import WORD, Task, normalise_seed, replicate_blocks
from engine.manifolds import Grassmann
from engine.mechanisms.subspace import (
    AnalyzeGauss,
    BinghamSubspace,
    ExactSubspace,
    RefusedRelease,
    SubsampleAggregateSubspace,
)
from engine.validation import check_int, check_positive, check_probability

METHODS = ("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss", "bingham", "non-private")
DEFAULT_METHODS = ("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss", "non-private")
RELEASES_PER_DATA_SET = 10
#: The tables of ``combine_releases``: every release, and its summary per setting and method.
RELEASE_TABLES = ("releases", "summary")
COLORS = {"singhal-steinke-exact": "#0072B2", "singhal-steinke-approx": "#009E73", "analyze-gauss": "#D55E00",
          "bingham": "#CC79A7", "non-private": "#7F7F7F"}
#: Columns of the ``releases`` table, one row per release.
RELEASE_COLUMNS = ("d", "n", "k", "epsilon", "delta", "noise", "outliers", "method", "repeat", "success", "bottom",
                   "proj_error", "status")


@dataclass(frozen=True)
class SubspaceConfig:
    """Settings every subspace study shares; a study's ``Config`` adds its grid.

    ``reps`` releases per (setting, method), ``block`` replicates per task, success when
    ‖Π̂ − Π‖₂ <= ``alpha``.
    """

    reps: int = 200
    seed: int | tuple[int, ...] = 0
    k: int = 2
    epsilon: float = 1.0
    delta: float = 1e-6
    alpha: float = 0.1
    methods: tuple[str, ...] = DEFAULT_METHODS
    block: int = 50

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps))
        set_("seed", normalise_seed(self.seed))
        set_("k", check_int("k", self.k))
        set_("epsilon", check_positive("epsilon", self.epsilon))
        set_("delta", check_probability("delta", self.delta))
        set_("alpha", check_positive("alpha", self.alpha))
        set_("block", check_int("block", self.block))
        methods = (self.methods,) if isinstance(self.methods, str) else tuple(self.methods)
        for method in methods:
            if method not in METHODS:
                raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        if not methods:
            raise ValueError(f"methods must name at least one of {METHODS}, got {self.methods!r}")
        set_("methods", methods)

    @property
    def data_sets(self) -> int:
        """Data sets drawn per (setting, method): ⌈reps / RELEASES_PER_DATA_SET⌉."""
        return -(-self.reps // RELEASES_PER_DATA_SET)

    def _grid(self, name: str, values, check) -> tuple:
        """``values`` as a non-empty tuple, each checked by ``check(name, value)``; stored as field ``name``."""
        values = (values,) if np.isscalar(values) else tuple(values)
        if not values:
            raise ValueError(f"{name} must hold at least one value, got {values!r}")
        values = tuple(check(name, v) for v in values)
        object.__setattr__(self, name, values)
        return values

    def _check_dimension(self, name: str, d) -> int:
        """An ambient dimension d > k (a proper subspace)."""
        d = check_int(name, d)
        if d <= self.k:
            raise ValueError(f"{name} must be > k = {self.k} (a proper subspace), got {d!r}")
        return d


def check_outliers(outliers, n: int) -> int:
    """0 <= outliers <= n."""
    outliers = check_int("outliers", outliers, minimum=0)
    if outliers > n:
        raise ValueError(f"outliers must be <= n = {n}, got {outliers}")
    return outliers


def setting_tasks(config: SubspaceConfig, grid) -> list[Task]:
    """One task per setting ``(d, n, noise, outliers)`` of ``grid`` and replicate block, in grid order."""
    shared = (config.k, config.epsilon, config.delta, config.alpha, config.methods)
    return [Task((d, n, noise, outliers, start), simulate_setting, (d, n, noise, outliers, start, stop) + shared)
            for d, n, noise, outliers in grid for start, stop in replicate_blocks(config.reps, config.block)]


def setting_footprint(config: SubspaceConfig, grid) -> dict[str, float]:
    """Lower estimate of the bytes of the releases table and of one task's data set and Gram matrix over
    the settings ``(d, n, noise, outliers)`` of ``grid`` (``protocol.check_footprint``)."""
    d, n = max(setting[0] for setting in grid), max(setting[1] for setting in grid)
    cells = len(grid) * len(config.methods)
    return {
        f"the releases table ({cells} settings × methods × reps = {config.reps:.3g} rows of "
        f"{len(RELEASE_COLUMNS)} columns)": cells * config.reps * len(RELEASE_COLUMNS) * WORD,
        f"one task's data set and Gram matrix (n = {n:.3g} points and d = {d:.3g} dimensions)":
            (n * d + d * d) * WORD,
    }


def make_mechanism(method: str, *, k: int, epsilon: float, delta: float, noise: float, outliers: int):
    """The mechanism named ``method`` for one setting, or None for non-private PCA."""
    if method == "singhal-steinke-exact":
        return ExactSubspace(k=k, epsilon=epsilon, delta=delta, ell=outliers + k - 1)
    if method == "singhal-steinke-approx":
        return SubsampleAggregateSubspace(k=k, epsilon=epsilon, delta=delta, gamma=max(noise, 1e-12),
                                          outliers=outliers)
    if method == "analyze-gauss":
        return AnalyzeGauss(k=k, epsilon=epsilon, delta=delta)
    if method == "bingham":
        return BinghamSubspace(k=k, epsilon=epsilon)
    if method == "non-private":
        return None
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def released(mech, data, size, k, rng):
    """``size`` bases and ⊥ flags of ``mech`` on ``data`` (non-private PCA when ``mech`` is None)."""
    if mech is None:
        return np.broadcast_to(top_subspace(data, k), (size, data.shape[1], k)), np.zeros(size, dtype=bool)
    release = mech.release(data, size=size, rng=rng)
    return release.points, release.bottom


def simulate_setting(d: int, n: int, noise: float, outliers: int, start: int, stop: int, k: int, epsilon: float,
                     delta: float, alpha: float, methods: tuple, *, rng) -> pd.DataFrame:
    """Replicates ``start`` to ``stop - 1`` of every method at one setting: the rows of ``RELEASE_COLUMNS``."""
    grassmann = Grassmann(d, k)
    rows = []
    for first in range(start, stop, RELEASES_PER_DATA_SET):
        size = min(RELEASES_PER_DATA_SET, stop - first)
        sample = subspace_points(n, d, k, noise=noise, outliers=outliers, rng=rng)
        for method in methods:
            mech = make_mechanism(method, k=k, epsilon=epsilon, delta=delta, noise=noise, outliers=outliers)
            error, bottom, status = np.full(size, np.nan), np.zeros(size, dtype=bool), "n-too-small"
            if n >= getattr(mech, "min_samples", 0):
                try:
                    bases, bottom = released(mech, sample.data, size, k, rng)
                except RefusedRelease:
                    status = "refused"
                else:
                    distance = grassmann.projection_distance(np.nan_to_num(bases), sample.subspace)
                    error, status = np.where(bottom, np.nan, distance), "ok"
            rows.append(pd.DataFrame({
                "d": d, "n": n, "k": k, "epsilon": epsilon, "delta": delta, "noise": noise, "outliers": outliers,
                "method": method, "repeat": np.arange(first, first + size),
                "success": (status == "ok") & ~bottom & (np.nan_to_num(error, nan=np.inf) <= alpha),
                "bottom": bottom, "proj_error": error, "status": status}))
    return pd.concat(rows, ignore_index=True)[list(RELEASE_COLUMNS)]


def combine_releases(outputs: list[pd.DataFrame], by) -> dict[str, pd.DataFrame]:
    """``{"releases": all rows, "summary": summarize(releases, by)}``."""
    releases = pd.concat(outputs, ignore_index=True)
    return {"releases": releases, "summary": summarize(releases, by)}


def summarize(releases: pd.DataFrame, by) -> pd.DataFrame:
    """Success rate (± SE), ⊥ rate and median projection error per group and method."""
    grouped = releases.groupby(list(by) + ["method"], sort=False)
    out = grouped.agg(success=("success", "mean"), bottom_rate=("bottom", "mean"),
                      median_proj_error=("proj_error", "median"), reps=("success", "size"),
                      status=("status", "first")).reset_index()
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
