"""Figure 1 of Reimherr, Bharath & Soto (2021): sensitivity and utility on SPD(2) and S^2.

Panels 1 and 3: empirical sensitivity ρ(x̄, x̄′) over neighbouring data sets (one point replaced,
at random or adversarially on the boundary of B_r(m0)) against the Theorem 2 bound. Panels 2 and
4: Euclidean distance between the Fréchet mean and its private release for the intrinsic
(Riemannian) Laplace and the Euclidean Laplace in ambient coordinates, with ±2 SE bands, plus the
share of Euclidean SPD releases that are not positive definite.

Two Euclidean baselines (``MECHANISMS``). ``"euclidean laplace"`` is ε-DP: it adds the K-norm noise
calibrated to Δ_E = 2r_E/n around the statistic that Δ_E bounds, the ambient mean, and its error is
measured against the Fréchet mean like the intrinsic one's (so its bias shows). The paper adds the
same noise around the Fréchet mean: ``"paper euclidean baseline"``, kept for a faithful Figure 1,
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
from typing import Callable

import numpy as np
import pandas as pd

from engine import bounds, spaces
from engine.data import spd_wishart, sphere_cap
from engine.estimators import ambient_mean, frechet_mean
from engine.experiments.protocol import WORD, Task, make_params, normalise_seed, replicate_blocks
from engine.mechanisms import EuclideanLaplace, RiemannianLaplace, euclidean_laplace, off_manifold, riemannian_laplace
from engine.validation import check_int, check_positive

DEFAULT_NS = (10, 20, 30, 40, 50, 75, 100, 150, 200, 300)
#: The intrinsic mechanism, the ε-DP Euclidean baseline (ambient mean) and the paper's (Fréchet mean, not ε-DP).
MECHANISMS = ("riemannian laplace", "euclidean laplace", "paper euclidean baseline")


@dataclass(frozen=True)
class Recipe:
    """The paper's study of one space.

    Attributes
    ----------
    generate : callable ``(n, radius, reps, rng) -> (reps, n, *point_shape)``
        The data generator (supplement §2.1).
    boundary_constant : bool
        Whether the paper calibrated σ with the supplement's empirical boundary constant instead of
        Theorem 2's 2r(2 − h) (its sphere study, supplement §1.3.2); ``sphere_constant`` then chooses.
    """

    generate: Callable[..., np.ndarray]
    boundary_constant: bool = False


#: The paper's recipe per space of ``engine.spaces``.
RECIPES = {
    "spd": Recipe(lambda n, radius, reps, rng: spd_wishart(n, k=2, radius=radius, size=(reps,), rng=rng)),
    "sphere": Recipe(lambda n, radius, reps, rng: sphere_cap(n, radius, size=(reps,), rng=rng), boundary_constant=True),
}


@dataclass(frozen=True)
class SpaceSetting:
    """One half of the figure: a space of ``engine.spaces``, its recipe (``RECIPES``) and the ball B_r(m0)."""

    key: str
    manifold: object
    radius: float

    @property
    def recipe(self) -> Recipe:
        return RECIPES[self.key]

    def sample(self, n: int, reps: int, rng) -> np.ndarray:
        return self.recipe.generate(n, self.radius, reps, rng)


SETTINGS = tuple(SpaceSetting(key, spaces.make_manifold(key), spaces.space(key).default_radius) for key in RECIPES)


def adversarial_neighbours(setting: SpaceSetting, data: np.ndarray) -> np.ndarray:
    """Replace each data set's outermost point by the boundary point on the opposite side of m0.

    That replacement moves one point by about 2r, the largest change a single record can make
    inside B_r(m0).
    """
    m = setting.manifold
    m0 = m.origin
    logs = m.log(m0, data)
    radii = m.norm(m0, logs)
    j = np.argmax(radii, axis=1)
    rows = np.arange(len(data))
    direction = logs[rows, j] / m.per_point(np.maximum(radii[rows, j], 1e-12))
    # Stay a hair inside the closed ball so generators' strict "< r" is respected.
    out = data.copy()
    out[rows, j] = m.exp(m0, -0.999999 * setting.radius * direction)
    return out


def random_neighbours(setting: SpaceSetting, data: np.ndarray, rng) -> np.ndarray:
    """Replace each data set's first record by a fresh draw of the generator."""
    out = data.copy()
    out[:, 0] = setting.sample(1, len(data), rng)[:, 0]
    return out


def neighbour_sensitivities(setting: SpaceSetting, data: np.ndarray, means: np.ndarray, rng, *,
                            tol: float = 1e-5) -> dict[str, np.ndarray]:
    """ρ(x̄, x̄′) per data set ``(reps,)`` for a random and an adversarial replacement of one record.

    ``data`` is ``(reps, n, *point_shape)`` and ``means`` their Fréchet means; the neighbours' means
    start from ``means`` (they are close), which saves most iterations.
    """
    m = setting.manifold
    out = {}
    for kind, neighbours in (("random", random_neighbours(setting, data, rng)),
                             ("adversarial", adversarial_neighbours(setting, data))):
        out[kind] = m.dist(means, frechet_mean(m, neighbours, init=means, tol=tol).mean)
    return out


def release_errors(setting: SpaceSetting, means: np.ndarray, mechanism: str, sigma: float, rng, *,
                   ambient_means: np.ndarray | None = None):
    """One release per data set by ``mechanism`` (one of ``MECHANISMS``) at scale σ.

    ``"riemannian laplace"`` and ``"paper euclidean baseline"`` release around the Fréchet ``means``;
    ``"euclidean laplace"`` around ``ambient_means`` (``engine.estimators.ambient_mean``), the statistic
    whose sensitivity 2r_E/n calibrates it. Returns the releases, their Euclidean distance to the
    Fréchet mean in ambient coordinates (the paper's metric, ``(reps,)``) and the mask of releases off
    the manifold.
    """
    m = setting.manifold
    if mechanism == "riemannian laplace":
        release = riemannian_laplace(m, means, sigma, rng=rng)
    elif mechanism == "euclidean laplace":
        if ambient_means is None:
            raise ValueError("the 'euclidean laplace' baseline releases the ambient mean: pass ambient_means")
        release = euclidean_laplace(m, ambient_means, sigma, rng=rng)
    elif mechanism == "paper euclidean baseline":
        release = euclidean_laplace(m, means, sigma, rng=rng)
    else:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    error = np.linalg.norm(m.to_ambient(release) - m.to_ambient(means), axis=-1)
    return release, error, off_manifold(m, release)


def baseline_privacy(setting: SpaceSetting, n: int, *, epsilon: float = 1.0) -> pd.DataFrame:
    """True ε of both Euclidean baselines on neighbouring pairs, against the claimed ε.

    Two replace-one pairs on the boundary of B_r(m0), with u, w the first two tangent basis vectors
    at m0 and each baseline reporting the worse: "collinear", D = n copies of Exp_{m0}(r u) and D′ one
    of them moved to Exp_{m0}(−r u) (on SPD(2): diag(e^r, 1) against diag(e^−r, 1)); "orthogonal", the
    other n − 1 records half at Exp_{m0}(r u), half at Exp_{m0}(−r u), and the moved one going from
    Exp_{m0}(r w) to Exp_{m0}(−r w) (positive curvature flattens the Fréchet function across u, so on
    the sphere this pair moves the mean further). For the ℓ2 K-norm mechanism with σ = Δ_E/ε the
    privacy loss of a pair is exactly ‖a − a′‖/σ, so a pair shows true ε = ε·‖a − a′‖/Δ_E, a lower
    bound on the mechanism's real ε; a ratio above 1 breaks the claim. On SPD(2), n = 10, r = 1.5 the
    paper's baseline gives 1.1616/0.6963 = 1.67.

    Returns columns space, n, baseline, pair, claimed_epsilon, gap, sensitivity, true_epsilon_on_pair, ratio.
    """
    n = check_int("n", n, minimum=2)
    epsilon = check_positive("epsilon", epsilon)
    m = setting.manifold
    m0 = m.origin
    u, w = m.tangent_basis(m0)[:2]

    def boundary(direction):
        return m.exp(m0, setting.radius * direction)

    rest = np.stack([boundary(u if i % 2 == 0 else -u) for i in range(n - 1)])
    pairs = {"collinear": (np.broadcast_to(boundary(u), (n - 1,) + m.point_shape), boundary(u), boundary(-u)),
             "orthogonal": (rest, boundary(w), boundary(-w))}
    sensitivity = float(bounds.ambient_sensitivity(n, bounds.ambient_radius(m, setting.radius)))
    worst = {}
    for pair_name, (others, before, after) in pairs.items():
        pair = np.stack([np.concatenate([others, before[None]]), np.concatenate([others, after[None]])])
        statistics = {"euclidean laplace": ambient_mean(m, pair),
                      "paper euclidean baseline": frechet_mean(m, pair, init=pair[:, 0], tol=1e-13,
                                                               max_iter=20_000).mean}
        for baseline, (a, a_prime) in statistics.items():
            gap = float(np.linalg.norm(m.to_ambient(a) - m.to_ambient(a_prime)))
            if gap > worst.get(baseline, (-1.0, ""))[0]:
                worst[baseline] = (gap, pair_name)
    return pd.DataFrame([{"space": setting.key, "n": n, "baseline": baseline, "pair": pair_name,
                          "claimed_epsilon": epsilon, "gap": gap, "sensitivity": sensitivity,
                          "true_epsilon_on_pair": epsilon * gap / sensitivity, "ratio": gap / sensitivity}
                         for baseline, (gap, pair_name) in worst.items()])


def sensitivity_constant(setting: SpaceSetting, sphere_constant: str) -> float:
    """C with Δ(n) = C/n: 2r(2 − h)/h of Theorem 2, or, where the paper's study used it (the sphere,
    ``Recipe.boundary_constant``) and ``sphere_constant="empirical"``, the supplement's boundary
    constant in place of 2r(2 − h), i.e. C = max‖log_{x1}x_i − log_{x1}x_j‖ / h."""
    m = setting.manifold
    if setting.recipe.boundary_constant and sphere_constant == "empirical":
        # The boundary constant replaces 2r(2 − h) inside Theorem 2's proof, so it needs its domain too
        # (beyond it h <= 0 and the "constant" turns negative).
        if not bounds.theorem2_domain(setting.radius, m.kappa_max):
            bounds.frechet_mean_sensitivity(1, setting.radius, m.kappa_max)  # raises, naming the limit
        h = float(bounds.curvature_factor(setting.radius, m.kappa_max))
        return bounds.boundary_log_constant(m, m.origin, setting.radius, grid=60) / h
    return float(bounds.frechet_mean_sensitivity(1, setting.radius, m.kappa_max))


def laplace_scale(setting: SpaceSetting, constant: float, n: int, epsilon: float) -> float:
    """σ of the Riemannian Laplace for Δ = C/n (``RiemannianLaplace.scale``: C/(nε) on a homogeneous
    space, 2C/(nε) otherwise), also where the law is not normalisable."""
    return RiemannianLaplace.scale(manifold=setting.manifold, epsilon=epsilon, sensitivity=constant / n)


def euclidean_scale(setting: SpaceSetting, n: int, epsilon: float) -> float:
    """σ_E of the Euclidean Laplace for Δ_E = 2 r_E/n (``EuclideanLaplace.sigma``), both baselines'."""
    m = setting.manifold
    sensitivity = float(bounds.ambient_sensitivity(n, float(bounds.ambient_radius(m, setting.radius))))
    return EuclideanLaplace(manifold=m, epsilon=epsilon, sensitivity=sensitivity).sigma


def noise_scales(setting: SpaceSetting, constant: float, n: int, epsilon: float) -> dict[str, float]:
    """σ of each of ``MECHANISMS`` at sample size n and ε, as the mechanisms compute it."""
    euclid = euclidean_scale(setting, n, epsilon)
    return dict(zip(MECHANISMS, (laplace_scale(setting, constant, n, epsilon), euclid, euclid)))


@dataclass(frozen=True)
class Params:
    """Settings of the study (see ``run``); ``block`` replicates per task."""

    reps: int = 1000
    seed: int | tuple[int, ...] = 0
    ns: tuple[int, ...] = DEFAULT_NS
    epsilon: float = 1.0
    sphere_constant: str = "empirical"
    block: int = 1000

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps))
        set_("seed", normalise_seed(self.seed))
        set_("ns", tuple(check_int("n", n) for n in self.ns))
        set_("epsilon", check_positive("epsilon", self.epsilon))
        set_("block", check_int("block", self.block))
        if self.sphere_constant not in ("empirical", "theorem"):
            raise ValueError(f"sphere_constant must be 'empirical' or 'theorem', got {self.sphere_constant!r}")


def tasks(params: Params) -> list[Task]:
    """One task per (space, n, replicate block), keyed ``(space, n, first replicate)``."""
    return [Task((setting.key, n, start), simulate_cell,
                 (setting.key, n, start, stop, params.epsilon, params.sphere_constant), cost=n * (stop - start))
            for setting in SETTINGS for n in params.ns
            for start, stop in replicate_blocks(params.reps, params.block)]


def footprint(params: Params) -> dict[str, float]:
    """Lower estimate of the bytes of the tables and of one task's data sets (``protocol.check_footprint``)."""
    cells, block = len(SETTINGS) * len(params.ns), min(params.block, params.reps)
    return {
        f"the utility table ({cells} cells × 3 mechanisms × reps = {params.reps:.3g} rows of 6 columns)":
            cells * len(MECHANISMS) * params.reps * 6 * WORD,
        f"the sensitivity table ({cells} cells × 2 neighbours × reps = {params.reps:.3g} rows of 6 columns)":
            cells * 2 * params.reps * 6 * WORD,
        f"one task's data sets and neighbours (3 × block = {block:.3g} × n = {max(params.ns):.3g} points of 4 "
        f"coordinates)": 3 * block * max(params.ns) * 4 * WORD,
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
    means = frechet_mean(m, data).mean
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


def combine(params: Params, outputs: list[dict]) -> dict[str, pd.DataFrame]:
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
            for column, baseline in (("noise_reduction_pct", "euclidean laplace"),
                                     ("noise_reduction_vs_paper_pct", "paper euclidean baseline")):
                row[column] = 100.0 * (1.0 - errors["riemannian laplace"].mean() / errors[baseline].mean())
    return {
        "sensitivity": pd.concat([out["sensitivity"] for out in outputs], ignore_index=True),
        "utility": utility,
        "summary": pd.DataFrame(summary_rows),
        "baseline_privacy": pd.concat([baseline_privacy(setting, min(params.ns), epsilon=params.epsilon)
                                       for setting in SETTINGS], ignore_index=True),
    }


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Simulate all four panels in-process (``Params`` lists the settings).

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

    return runner.run(sys.modules[__name__], make_params(Params, settings), progress=progress)


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

    titles = {"spd": "SPD(2), affine-invariant, r = 1.5", "sphere": "S², r = π/8"}
    sens = sensitivity_summary(results["sensitivity"])
    summary = results["summary"]
    out = {}
    for panel, key in ((1, "spd"), (3, "sphere")):
        rows = sens[sens.space == key].assign(group=lambda d: "neighbour: " + d.neighbour)
        colors = {"neighbour: random": "#009E73", "neighbour: adversarial": "#CC79A7"}
        out[f"panel{panel}-{key}-sensitivity"] = band_figure(
            rows, x="n", y="mean", se="se", group="group", colors=colors,
            bound=rows.drop_duplicates("n")[["n", "bound"]], bound_name="Theorem 2 bound", log_x=True, log_y=True,
            title=f"Sensitivity of the Fréchet mean — {titles[key]}", x_title="sample size n",
            y_title="ρ(x̄, x̄′)")
    for panel, key in ((2, "spd"), (4, "sphere")):
        rows = summary[summary.space == key]
        out[f"panel{panel}-{key}-utility"] = band_figure(
            rows, x="n", y="mean_error", se="se", group="mechanism", log_x=True, log_y=True,
            title=f"Error of the private mean — {titles[key]}", x_title="sample size n",
            y_title="Euclidean distance ‖x̄ − x̃‖")
    return out
