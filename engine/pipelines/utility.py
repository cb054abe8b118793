"""The price of privacy, simulated: the path the Utility page shows.

The utility panels of Figure 1 of Reimherr, Bharath & Soto (2021), run as
``engine.experiments.reimherr_fig1`` runs them (same data generators, noise calibration and error
metric) but one sample size at a time, so that a page can cache each piece and follow them with a
progress bar: data in B_r(m0) → Fréchet mean x̄ and ambient mean x̄_E → one release per replicate
from the intrinsic (Riemannian) Laplace around x̄ with σ = C/(nε) and from the Euclidean Laplace
around x̄_E with σ_E = 2r_E/(nε) (the ambient mean is the statistic 2r_E/n bounds, so this baseline
is ε-DP); optionally the paper's baseline, the same noise around x̄, which is not ε-DP
(``figure1_setting.baseline_privacy``). Error = Euclidean distance between release and x̄ in ambient
coordinates (the paper's metric).

Against it: √ of Theorem 3's bound (C₂/C₁)·d(d + 1)σ² on E ρ(x̃, x̄)² (``sqrt_bound``) and the
exact mean ℓ2 norm of the Euclidean noise, E‖noise‖ = Dσ_E (``euclidean_constant``). Error falls
like 1/(nε), so one constant c per mechanism, fitted on the simulation (``fit_scaling``), answers
"what ε (or n) for a target error?" (``plan``).

``run(UtilityConfig(...))`` is deterministic for a seed: each sample size n draws its data from
``[seed, n]`` and its releases at ε from ``[seed, n, round(ε·10⁶)]``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine import bounds, spaces
from engine.budget import check_memory
from engine.estimators import PAPER_STEP, ambient_mean, frechet_mean
from engine.mechanisms import scale_limit, specs
from engine.pipelines import figure1_setting, who_wins
from engine.pipelines.checks import Check
from engine.pipelines.release_errors import ReleaseErrors, measure_releases
from engine.pipelines.summary import plain
from engine.threads import blas_capped
from engine.validation import check_int, check_positive, check_probability

#: Mechanism key (``figure1_setting.UTILITY_MECHANISMS``) → label (``engine.mechanisms.specs``).
LABELS = {spec.key: spec.label for spec in specs.UTILITY}
#: Mechanisms a spec adds to the page beside Figure 1's (``MechanismSpec.utility``), simulated when chosen.
ADDABLE = tuple(spec.key for spec in specs.UTILITY if not spec.figure1)
#: The grids of n of the error-against-n chart.
N_GRIDS = {"quick": (10, 20, 50, 100, 300), "paper": tuple(figure1_setting.DEFAULT_NS)}
#: Copies of the simulated records held at the peak (measured ~3 at reps = 1000, ns = 1000,10000 on the sphere).
PEAK_COPIES = 8
#: The ε of the error-against-ε chart (the config's ε joins them).
EPS_GRID = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
#: Sensitivity constants of the sphere (``figure1_setting.sensitivity_constant``).
CONSTANTS = ("theorem", "empirical")
#: The spaces with the paper's data recipe, in the registry's order.
SPACES = tuple(key for key in spaces.SPACES if key in figure1_setting.RECIPES)


def _setting(space: str, radius: float) -> figure1_setting.SpaceSetting:
    if space not in SPACES:
        raise ValueError(f"space must be one of {', '.join(SPACES)}, got {space!r}")
    return figure1_setting.SpaceSetting(space, spaces.make_manifold(space), radius)


#: ε enters each cell's seed as round(ε · SEED_SCALE), so ε must keep that product finite.
SEED_SCALE = 1e6
#: Largest ε whose seed key is finite.
MAX_EPSILON = np.finfo(float).max / SEED_SCALE

@dataclass(frozen=True, kw_only=True)
class UtilityConfig:
    """Everything the simulation depends on (hashable, so a page can key its cache by it).

    ``ns`` are the sizes of the error-against-n sweep (at ``epsilon``); the ε sweep holds n at ``n``.
    ``sphere_constant`` chooses C on the sphere ("theorem": Theorem 2's proven constant, the default;
    "empirical": the supplement's numerical boundary constant, which reproduces the paper's Figure 1
    but is not a proven bound); SPD always uses Theorem 2's. ``added``: mechanisms of ``ADDABLE`` simulated beside
    Figure 1's (where their spec supports the space), ``delta`` the δ of the (ε, δ) ones (the playground's default).
    """

    space: str = "sphere"
    radius: float = float(np.pi / 8)
    sphere_constant: str = "theorem"
    ns: tuple[int, ...] = N_GRIDS["quick"]
    epsilon: float = 1.0
    n: int = 50
    reps: int = 200
    seed: int = 0
    paper_baseline: bool = False
    added: tuple[str, ...] = ()
    delta: float = 1e-3

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        _setting(self.space, self.radius)
        set_("radius", check_positive("radius", self.radius))
        if self.sphere_constant not in CONSTANTS:
            raise ValueError(f"sphere_constant must be one of {', '.join(CONSTANTS)}, got {self.sphere_constant!r}")
        set_("ns", tuple(check_int("n", n) for n in self.ns))
        if not self.ns:
            raise ValueError("ns must hold at least one sample size, got ()")
        set_("epsilon", check_positive("epsilon", self.epsilon))
        if not self.epsilon * SEED_SCALE < float("inf"):  # its seed key, round(ε · 10⁶), must be an integer
            raise ValueError(f"epsilon must be at most {MAX_EPSILON:g}, got {self.epsilon!r}; at such an ε the noise "
                             f"is nil: give a smaller epsilon")
        set_("n", check_int("n", self.n))
        set_("reps", check_int("reps", self.reps, minimum=2))
        set_("seed", check_int("seed", self.seed, minimum=0))
        set_("paper_baseline", bool(self.paper_baseline))
        set_("delta", check_probability("delta", self.delta))
        unknown = sorted(set(self.added) - set(ADDABLE))
        if unknown:
            raise ValueError(f"added must hold keys of {ADDABLE}, got {unknown}")
        set_("added", tuple(key for key in ADDABLE if key in self.added))
        coordinates = int(np.prod(spaces.make_manifold(self.space).point_shape))
        records = sum(self.ns) + len(self.epsilons) * self.n
        check_memory(f"reps = {self.reps} data sets of {' + '.join(map(str, self.ns))} records and "
                     f"{len(self.epsilons)} of n = {self.n}, {coordinates} coordinates each,",
                     PEAK_COPIES * self.reps * records * coordinates, fix="lower reps, ns or n")

    @property
    def epsilons(self) -> tuple[float, ...]:
        """``EPS_GRID`` with the config's ε, ascending."""
        return tuple(sorted(set(EPS_GRID) | {self.epsilon}))


def radius_note(space: str, radius: float) -> Check | None:
    """A warning when r is at or beyond r*, where neither constant calibrates the noise (the boundary
    constant replaces a step of Theorem 2's proof, so it needs the theorem's domain too)."""
    m = spaces.make_manifold(space)
    limit = float(bounds.radius_limits(m.kappa_max, m.injectivity_radius).sensitivity)
    if radius < limit:
        return None
    return Check("warning", "Radius beyond the curvature limit",
                 f"r = {radius:.3f} is at or beyond π/(4√κ) = {limit:.4f}, where Theorem 2 stops applying: neither "
                 f"its constant nor the paper's boundary constant (which replaces a step of its proof) calibrates the "
                 f"noise there. Lower r below {limit:.4f}.")


def noise_constant(space: str, radius: float, sphere_constant: str) -> float:
    """C with σ = C/(nε): Theorem 2's 2r(2 − h)/h, or the supplement's boundary constant over h on the
    sphere (``figure1_setting.sensitivity_constant``); ``ValueError`` beyond Theorem 2's domain."""
    return float(figure1_setting.sensitivity_constant(_setting(space, radius), sphere_constant))


def noise_scales(space: str, radius: float, constant: float, n: int, epsilon: float) -> dict[str, float]:
    """σ of each mechanism (``figure1_setting.noise_scales``: the mechanisms' own) at n and ε for C."""
    return figure1_setting.noise_scales(_setting(space, radius), constant, n, epsilon)


def sample_means(space: str, radius: float, n: int, reps: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Fréchet means and ambient means ``(reps, *point_shape)`` of ``reps`` data sets of size n in
    B_r(m0), drawn from ``np.random.default_rng([seed, n])``."""
    setting = _setting(space, radius)
    data = setting.sample(n, reps, np.random.default_rng([seed, n]))
    # The paper's fixed step, so the study's numbers are the supplement's iteration (``frechet_mean.PAPER_STEP``).
    return frechet_mean(setting.manifold, data, step=PAPER_STEP).mean, ambient_mean(setting.manifold, data)


def sqrt_bound(space: str, radius: float, sigma) -> np.ndarray:
    """√ of Theorem 3's bound (C₂/C₁)·d(d + 1)σ² on E ρ(x̃, x̄)², broadcast over σ."""
    m = spaces.make_manifold(space)
    return np.sqrt(bounds.laplace_utility_bound(sigma, m.dim, radius, m.kappa_min, m.kappa_max))


def euclidean_constant(space: str, radius: float) -> float:
    """c_E with E‖noise‖ = c_E/(nε) exactly: D·2r_E (the ℓ2 Laplace radius is σ_E·Gamma(D, 1)); the
    ε-DP baseline's error against the Fréchet mean adds the ambient mean's bias to it."""
    m = spaces.make_manifold(space)
    return m.ambient_dim * 2.0 * float(bounds.ambient_radius(m, radius))


def release_summary(space: str, radius: float, n: int, reps: int, seed: int, constant: float,
                    epsilons: tuple[float, ...], paper_baseline: bool = False, *,
                    means: tuple[np.ndarray, np.ndarray] | None = None, added: tuple[str, ...] = (),
                    delta: float = 1e-3) -> pd.DataFrame:
    """Error of each mechanism of Figure 1 and of ``added`` (keys of ``ADDABLE``) whose spec supports the space,
    at sample size n, one row per (ε, mechanism), in display order (Figure 1's draw first, so their numbers do not
    depend on ``added``); the paper's baseline (not ε-DP) only when ``paper_baseline``; ``delta`` calibrates the
    (ε, δ) ones.

    ``means`` are ``sample_means(space, radius, n, reps, seed)`` when the caller has them. Columns: n,
    epsilon, mechanism, sigma, status ("ok", or why no release was made), mean_error and se (ambient
    distance to the Fréchet mean), share_off_manifold and share_se, rms_geodesic (√ mean ρ², intrinsic
    only), sqrt_bound (√ of Theorem 3's bound on E ρ² at that σ, Riemannian Laplace only), mean_geodesic and
    geodesic_se (geodesic distance to the Fréchet mean, off-sphere releases projected back and non-PD
    ones left out: ``engine.pipelines.release_errors``), geodesic_bias and ambient_bias (the ambient
    mean's geodesic distance, after projection, and ambient distance to the Fréchet mean; Euclidean
    Laplace only).
    """
    setting = _setting(space, radius)
    m = setting.manifold
    frechet, ambient = sample_means(space, radius, n, reps, seed) if means is None else means
    limit = scale_limit(m)
    mechanisms = [s.key for s in specs.UTILITY if (s.figure1 or s.key in added)
                  and (paper_baseline or s.guarantee != "none") and (s.supports is None or s.supports(m))]
    rows = []
    for eps in epsilons:
        rng = np.random.default_rng([seed, n, round(eps * SEED_SCALE)])
        for mechanism in mechanisms:
            row = {"n": n, "epsilon": eps, "mechanism": mechanism, "sigma": np.nan, "status": "ok",
                   "mean_error": np.nan, "se": np.nan, "share_off_manifold": np.nan, "share_se": np.nan,
                   "rms_geodesic": np.nan, "sqrt_bound": np.nan, "mean_geodesic": np.nan, "geodesic_se": np.nan,
                   "geodesic_bias": np.nan, "ambient_bias": np.nan}
            spec = specs.spec(mechanism)
            try:
                sigma = row["sigma"] = figure1_setting.noise_scale(setting, mechanism, constant, n, eps,
                                                                   delta=delta if spec.needs_delta else None)
            except ValueError as err:  # a budget out of the mechanism's reach (the Riemannian Gaussian's μ plateau)
                row["status"] = str(err)
                rows.append(row)
                continue
            if spec.normalisable_only and sigma >= limit:
                row["status"] = f"σ = {sigma:.3g} ≥ {limit:.3g}: the Laplace law on {m.name} is not normalisable"
                rows.append(row)
                continue
            try:
                release, error, off = figure1_setting.release_errors(setting, frechet, mechanism, sigma, rng,
                                                                   ambient_means=ambient)
            except ValueError as err:  # draws beyond what float64 holds, near the normalisability limit
                row["status"] = str(err)
                rows.append(row)
                continue
            geodesic = measure_releases(m, frechet, release)
            row.update(mean_error=error.mean(), se=error.std(ddof=1) / np.sqrt(reps),
                       share_off_manifold=off.mean(), share_se=np.sqrt(off.mean() * (1 - off.mean()) / reps),
                       mean_geodesic=geodesic.geodesic, geodesic_se=geodesic.geodesic_se)
            if spec.statistic == "ambient":
                bias = measure_releases(m, frechet, ambient)
                row.update(geodesic_bias=bias.geodesic, ambient_bias=bias.ambient)
            if not spec.off_manifold:
                row["rms_geodesic"] = float(np.sqrt(np.mean(m.dist(release, frechet) ** 2)))
            if spec.law == specs.EXACT.law:  # Theorem 3 bounds the Riemannian Laplace
                row["sqrt_bound"] = sqrt_bound(space, radius, sigma)
            rows.append(row)
    return pd.DataFrame(rows)


def _released_row(summary: pd.DataFrame, n: int, epsilon: float, mechanism: str) -> pd.Series:
    """The ``release_summary`` row of ``mechanism`` at (n, ε); ``ValueError`` with the row's status when
    it released nothing there."""
    rows = summary[(summary["n"] == n) & np.isclose(summary["epsilon"], epsilon) & (summary["mechanism"] == mechanism)]
    if rows.empty:
        raise ValueError(f"no {LABELS[mechanism]} row at n = {n}, ε = {epsilon:g} in the summary")
    row = rows.iloc[0]
    if row["status"] != "ok":
        raise ValueError(f"the {LABELS[mechanism]} made no release at n = {n}, ε = {epsilon:g}: {row['status']}")
    return row


def _row_errors(row: pd.Series) -> ReleaseErrors:
    return ReleaseErrors(geodesic=float(row["mean_geodesic"]), geodesic_se=float(row["geodesic_se"]),
                         ambient=float(row["mean_error"]), off_share=float(row["share_off_manifold"]))


def verdict(space: str, radius: float, n: int, epsilon: float, proven: pd.DataFrame, *,
            paper: tuple[float, pd.DataFrame] | None = None, reps: int | None = None) -> who_wins.Verdict:
    """``engine.pipelines.who_wins.verdict`` at (n, ε) from ``release_summary`` rows made with Theorem 2's
    constant (``proven``), and, when the page charts the paper's numerical constant C, ``paper`` =
    (C, its rows); ``reps``, the data sets the rows average over, said in the sentence (``who_wins.over_data_sets``);
    ``ValueError`` when a mechanism released nothing there."""
    euclidean = _released_row(proven, n, epsilon, specs.EUCLID.key)
    bias = ReleaseErrors(geodesic=float(euclidean["geodesic_bias"]), geodesic_se=np.nan,
                         ambient=float(euclidean["ambient_bias"]), off_share=0.0)
    if paper is not None:
        paper = (paper[0], _row_errors(_released_row(paper[1], n, epsilon, specs.EXACT.key)))
    return who_wins.verdict(_setting(space, radius).manifold, radius, n, epsilon,
                            intrinsic=_row_errors(_released_row(proven, n, epsilon, specs.EXACT.key)),
                            euclidean=_row_errors(euclidean), bias=bias, paper=paper,
                            averaged=None if reps is None else who_wins.over_data_sets(reps))


def baseline_privacy(space: str, radius: float, n: int, epsilon: float) -> pd.DataFrame:
    """True ε of both Euclidean baselines on the worse of two neighbouring pairs of boundary points
    (``figure1_setting.baseline_privacy``)."""
    return figure1_setting.baseline_privacy(_setting(space, radius), n, epsilon=epsilon)


def error_bounds(space: str, radius: float, constant: float, *, n, epsilon) -> pd.DataFrame:
    """The reference curves of the error charts over a grid of n (at one ε) or of ε (at one n):
    ``bound`` = √ of Theorem 3's bound at σ = C/(nε), ``euclid`` = Dσ_E, the exact mean Euclidean
    noise. Columns n, epsilon, bound, euclid (broadcast)."""
    n, epsilon = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(epsilon, dtype=float))
    return pd.DataFrame({"n": n, "epsilon": epsilon, "bound": sqrt_bound(space, radius, constant / (n * epsilon)),
                         specs.EUCLID.key: euclidean_constant(space, radius) / (n * epsilon)})


def reduction_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per n: mean error of both mechanisms, the intrinsic noise reduction in percent (as Figure 1
    reports it), the Euclidean share off the manifold, and the intrinsic RMS geodesic error against
    √ of Theorem 3's bound."""
    by = {mechanism: rows.set_index("n") for mechanism, rows in summary.groupby("mechanism")}
    intrinsic, euclidean = by.get(specs.EXACT.key), by.get(specs.EUCLID.key)
    table = pd.DataFrame(index=pd.Index(sorted(summary["n"].unique()), name="n"))
    table["intrinsic error"] = intrinsic["mean_error"] if intrinsic is not None else np.nan
    table["Euclidean error"] = euclidean["mean_error"] if euclidean is not None else np.nan
    table["noise reduction (%)"] = 100 * (1 - table["intrinsic error"] / table["Euclidean error"])
    table["Euclidean off the manifold (%)"] = 100 * euclidean["share_off_manifold"] if euclidean is not None else np.nan
    table["intrinsic RMS ρ"] = intrinsic["rms_geodesic"] if intrinsic is not None else np.nan
    table["√ Theorem 3 bound"] = intrinsic["sqrt_bound"] if intrinsic is not None else np.nan
    return table.reset_index()


def fit_scaling(points: pd.DataFrame) -> pd.DataFrame:
    """Per mechanism, fit error ≈ c'/(nε)^α on log scales (α), and c with α = 1 (c).

    Returns columns mechanism, alpha (free fit), c (median of error·nε, robust to the points where large
    noise bends the curve), lo and hi (range of nε).
    """
    rows = []
    for mechanism, group in points.groupby("mechanism", sort=False):
        x = (group["n"] * group["epsilon"]).to_numpy(dtype=float)
        y = group["mean_error"].to_numpy(dtype=float)
        slope = np.polyfit(np.log(x), np.log(y), 1)[0] if np.unique(x).size > 1 else np.nan
        rows.append({"mechanism": mechanism, "alpha": -slope, "c": float(np.median(x * y)),
                     "lo": float(x.min()), "hi": float(x.max())})
    return pd.DataFrame(rows)


def plan(fits: pd.DataFrame, *, space: str, radius: float, constant: float, target: float, solve: str,
         held: float) -> pd.DataFrame:
    """What ε (``solve="eps"``, n held at ``held``) or n (``solve="n"``, ε held) reaches mean error
    ``target``: error ≈ c/(nε) gives ε = c/(n·target), n = ⌈c/(ε·target)⌉.

    ``fits`` is ``fit_scaling``'s; adds columns simulated (from the fitted c), theory (√ of Theorem 3's
    bound for the Riemannian Laplace, the exact Dσ_E for the Euclidean one) and outside (the n·ε the
    answer asks for lies beyond the simulated range, so it is extrapolated).
    """
    if solve not in ("eps", "n"):
        raise ValueError(f"solve must be 'eps' or 'n', got {solve!r}")
    target, held = check_positive("target", target), check_positive("held", held)
    theory = {specs.EXACT.law: float(sqrt_bound(space, radius, constant)),
              specs.EUCLID.law: euclidean_constant(space, radius)}
    answers = fits.assign(simulated=fits["c"] / (held * target),
                          theory=fits["mechanism"].map(lambda key: theory[specs.spec(key).law]) / (held * target))
    if solve == "n":
        answers[["simulated", "theory"]] = np.ceil(answers[["simulated", "theory"]])
    needed = answers["c"] / target  # the n·ε the answer asks for
    return answers.assign(outside=(needed < answers["lo"]) | (needed > answers["hi"]))


@dataclass(frozen=True)
class UtilityResult:
    """The run: its config, the noise constant C, and the summaries of the n sweep (at the config's ε)
    and of the ε sweep (at the config's n), in ``release_summary``'s columns."""

    config: UtilityConfig
    constant: float
    by_n: pd.DataFrame
    by_eps: pd.DataFrame

    @property
    def skipped(self) -> pd.DataFrame:
        """The (n, ε, mechanism) rows without a release, each once, with the reason in ``status``."""
        rows = pd.concat([self.by_n, self.by_eps])
        return rows[rows["status"] != "ok"].drop_duplicates(["n", "epsilon", "mechanism"])

    @property
    def ok_n(self) -> pd.DataFrame:
        return self.by_n[self.by_n["status"] == "ok"]

    @property
    def ok_eps(self) -> pd.DataFrame:
        return self.by_eps[self.by_eps["status"] == "ok"]

    def scaling_points(self) -> pd.DataFrame:
        """The released points of both sweeps, each once, of the ε-DP mechanisms: the planner's error ≈ c/(nε)
        holds for σ ∝ 1/ε, so neither the paper's baseline (not private) nor an (ε, δ) one, whose σ is not."""
        points = pd.concat([self.ok_n, self.ok_eps]).drop_duplicates(["n", "epsilon", "mechanism"])
        return points[points["mechanism"].map(lambda key: specs.spec(key).guarantee == "ε-DP")]

    def summary(self) -> dict:
        """The numbers of both sweeps, JSON-ready (``engine.pipelines.summary.plain``): the config, the
        noise constant C and one row per (n, ε, mechanism) in ``release_summary``'s columns."""
        return plain(dict(config=self.config, constant=self.constant, by_n=self.by_n, by_eps=self.by_eps))


@blas_capped
def run(config: UtilityConfig, *, progress=None) -> UtilityResult:
    """Both sweeps of ``config`` (``progress(done, total, n)`` after each sample size); ``ValueError``
    when the noise cannot be calibrated (r beyond Theorem 2's domain)."""
    c = config
    constant = noise_constant(c.space, c.radius, c.sphere_constant)
    parts = []
    total = len(c.ns) + 1
    for i, n in enumerate(c.ns):
        parts.append(release_summary(c.space, c.radius, n, c.reps, c.seed, constant, (c.epsilon,), c.paper_baseline,
                                     added=c.added, delta=c.delta))
        if progress is not None:
            progress(i + 1, total, n)
    by_eps = release_summary(c.space, c.radius, c.n, c.reps, c.seed, constant, c.epsilons, c.paper_baseline,
                             added=c.added, delta=c.delta)
    if progress is not None:
        progress(total, total, c.n)
    return UtilityResult(c, constant, pd.concat(parts, ignore_index=True), by_eps)
