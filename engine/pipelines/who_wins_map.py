"""Where the intrinsic mechanism wins: the error ratio (intrinsic / Euclidean Laplace) over the
radius r and the dimension of a family of spaces, and the contour where the two tie. The intrinsic
mechanism is a spec with an error law (``MAPPED``; the Riemannian Laplace by default).

Every cell uses the same recipe (Reimherr, Bharath & Soto 2021; ``engine.pipelines.who_wins``):

- data: ``datasets`` data sets of n records x_i = Exp_{m0}(r·V_i^{1/d}·u_i), V uniform on [0, 1] and
  u uniform on the unit sphere of T_{m0}M (a vector uniform in the tangent ball of radius r, mapped
  onto the space: every record lies in B_r(m0)); the base draws (V, u) are shared by every radius of
  one dimension (common random numbers), so a row of the map changes with r only through r;
- intrinsic: the mechanism of ``mechanism`` around the Fréchet mean with Theorem 2's proven Δ and its spec's σ
  (the Riemannian Laplace's Δ/ε on these homogeneous spaces; the Riemannian Gaussian's from (ε, δ)). Its
  geodesic error ρ(x̄, release) is the radius of the draw, whose law depends on σ only (radial density
  ∝ e^{−ρ/σ} J(ρ) for the Laplace), so the cell draws that radius with the mechanism's own exact sampler
  (``MechanismSpec.error_radius``: ``radial.sample_radius``; ``spd_laplace.sample_eigenlog``, ρ = ‖r‖, on SPD(k));
- Euclidean: the ℓ2 Laplace with Δ_E = 2r_E/n around the ambient mean (in its own coordinates,
  ``ambient_centre``: on Gr(d, 1) the mean projector, rounded to its top eigenvector only after the
  noise), measured as the playground measures it (``release_errors.measure_releases``: off-sphere
  releases projected back, releases outside the SPD cone left out and counted in ``off_share``); the noise's base draws are shared
  across the radii of a dimension too. Its standard error takes the data sets as clusters
  (``clustered``): the ambient mean's bias differs between data sets (on SPD(2) at r = 1.6 that
  spread doubles the standard error the releases alone would give).

Each side draws ``⌈2/(d·s²)⌉`` errors per cell (s = ``ratio_se``): the Laplace radius in flat space
is σ·Gamma(d, 1), of coefficient of variation 1/√d, so each mean has a relative standard error
about s/√2 and the ratio about s (0.025: a 95 % interval within about ±5 %). The standard errors
reported are the measured ones: at most 0.028·ratio on the default S^d grid; more on SPD(4) and
SPD(5) beyond r ≈ 1, where the Euclidean releases leave the cone and their data sets' spread grows. The tie along r at each dimension is where log(ratio) crosses 0, linearly
interpolated between neighbouring radii.

A process computes a parameter's data sets and Fréchet means once for every ε (``data_set_means``) and its
cells once per setting (``_cells_of``), so the maps of several budgets share them; ``clear_caches`` forgets both.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.bounds import radius_limits
from engine.budget import check_memory
from engine.data._common import tangent_vectors
from engine.estimators import ambient_centre, frechet_mean
from engine.mechanisms import specs
from engine.mechanisms.laplace import ambient_laplace_coordinates, rounded_by_from_ambient
from engine.pipelines.release_errors import ReleaseDistances, release_distances
from engine.pipelines.who_wins import Factors, ambient_stretch, factors, rounded_text
from engine.spaces import SPACES, DimensionFamily, offered
from engine.threads import blas_capped
from engine.validation import check_int, check_positive, check_probability

#: Share of Theorem 2's r* = min{inj/2, π/(4√κ)} the radius grid reaches (Δ grows without bound at r*).
RADIUS_SHARE_OF_LIMIT = 0.95
#: Copies of one dimension's records (data, tangent steps, Fréchet iterates) or of a cell's releases a map
#: holds at its peak; ``engine.budget`` bounds their memory.
PEAK_COPIES = 8
#: Tolerance of the Fréchet means: far below the smallest noise scale a map may have (``MIN_SIGMA``).
FRECHET_TOL = 1e-10
#: Smallest noise scale of a cell: below it the errors approach the Fréchet means' accuracy and
#: float64's resolution of the points, so the ratio would compare rounding, not mechanisms.
MIN_SIGMA = 1e-6
#: Largest radius on a space without Theorem 2 limit (κ <= 0): beyond it SPD records hold eigenvalues
#: e^{±r} whose matrices float64 can no longer take logarithms of accurately.
MAX_RADIUS = 10.0
#: Parameters whose data sets and Fréchet means a process keeps (``data_set_means``): the default maps of
#: every family hold 51, each a few hundred kB at most.
MEANS_CACHE_SIZE = 64
#: Parameter and budget settings whose cells a process keeps (``_cells_of``): one row of 15 numbers per radius.
CELLS_CACHE_SIZE = 256


#: The intrinsic mechanisms a map can compare with the Euclidean Laplace: the specs with an error law.
MAPPED = tuple(spec.key for spec in specs.REGISTRY if spec.error_radius is not None)

#: The families the map covers: every space of ``engine.spaces`` whose entry offers one (``DimensionFamily``).
FAMILIES = {key: entry.family for key, entry in SPACES.items() if offered(entry.family)}


def family(key: str) -> DimensionFamily:
    """The family ``key``; ``ValueError`` naming the known keys otherwise."""
    try:
        return FAMILIES[key]
    except (KeyError, TypeError):
        raise ValueError(f"space must be one of {', '.join(FAMILIES)}, got {key!r}") from None


def offers(space: str, mechanism: str, dims: tuple[int, ...] = ()) -> bool:
    """Whether the map of ``space`` (at its parameters ``dims``, default the family's) can compare ``mechanism``:
    a spec with an error law (``MAPPED``) whose ``supports`` holds at every parameter."""
    fam, spec = family(space), specs.spec(mechanism)
    return spec.key in MAPPED and (spec.supports is None or all(spec.supports(fam.make(p)) for p in dims or fam.dims))


@dataclass(frozen=True)
class WhoWinsMapConfig:
    """One map: the family ``space``, its parameters ``dims`` (empty: the family's defaults), ``radii``
    radii evenly spaced on (0, max_radius] (``max_radius`` 0: 95 % of Theorem 2's r*, or the family's
    cap where r* is infinite), n records, budget ε, ``datasets`` data sets per cell, the target
    relative standard error ``ratio_se`` of each ratio, and the seed; ``mechanism`` the intrinsic one (of
    ``MAPPED``), ``delta`` its δ if it is (ε, δ)-DP."""

    space: str = "sphere"
    dims: tuple[int, ...] = ()
    radii: int = 20
    max_radius: float = 0.0
    n: int = 50
    epsilon: float = 1.0
    datasets: int = 20
    ratio_se: float = 0.025
    seed: int = 0
    mechanism: str = specs.EXACT.key
    delta: float = 1e-3

    def __post_init__(self):
        fam = family(self.space)
        if self.mechanism not in MAPPED:
            raise ValueError(f"mechanism must be one of {', '.join(MAPPED)} (a spec with an error law), "
                             f"got {self.mechanism!r}")
        check_probability("delta", self.delta)
        if not offers(self.space, self.mechanism, self.dims):
            raise ValueError(f"the {specs.spec(self.mechanism).label} is not offered on {fam.label} (its guarantee "
                             f"does not hold there); map it on another space")
        missing = fam.baseline_missing
        if missing is not None:
            raise ValueError(f"{missing}; map one of "
                             f"{', '.join(k for k, f in FAMILIES.items() if f.baseline_missing is None)}")
        for p in self.dims:
            if check_int(f"dims entry {fam.parameter} of {fam.label}", p, minimum=fam.min_dim) > fam.max_dim:
                raise ValueError(f"dims entry {fam.parameter} of {fam.label} must be at most {fam.max_dim}, got {p}")
        if len(set(self.dims)) != len(self.dims):
            raise ValueError(f"dims must not repeat a value, got {self.dims}")
        check_int("radii", self.radii, minimum=2)
        if self.max_radius != 0.0:
            check_positive("max_radius", self.max_radius)
        check_int("n", self.n, minimum=2)
        check_positive("epsilon", self.epsilon)
        check_int("datasets", self.datasets, minimum=2)
        if not 0.001 <= check_positive("ratio_se", self.ratio_se) <= 0.5:
            raise ValueError(f"ratio_se must lie in [0.001, 0.5] (0.025: a ratio within ±5 % at 95 %), "
                             f"got {self.ratio_se}")
        check_int("seed", self.seed, minimum=0)
        top = fam.make(max(self.dims or fam.dims))
        cells = self.radii * self.datasets * self.n + releases_per_cell(top.dim, self.ratio_se)
        check_memory(f"{self.radii} radii × {self.datasets} data sets × n = {self.n} records and "
                     f"{releases_per_cell(top.dim, self.ratio_se)} releases per cell on {top.name},",
                     PEAK_COPIES * int(np.prod(top.point_shape)) * cells, fix="lower radii, datasets, n or "
                     "raise ratio_se")


def radius_grid(manifold, fam: DimensionFamily, count: int, max_radius: float = 0.0) -> np.ndarray:
    """``count`` radii r_j = j·R/count (j = 1..count), R = ``max_radius`` or else
    min(0.95·r*, the family's cap); ``ValueError`` when R reaches Theorem 2's r* or ``MAX_RADIUS``."""
    limit = radius_limits(manifold.kappa_max, manifold.injectivity_radius).sensitivity
    top = max_radius or min(RADIUS_SHARE_OF_LIMIT * limit, fam.max_radius)
    if not top < limit:
        raise ValueError(f"max_radius = {top:g} reaches Theorem 2's r* = {limit:.4g} on {manifold.name}, where no "
                         f"sensitivity bound holds; give max_radius below {limit:.4g}")
    if top > MAX_RADIUS:
        raise ValueError(f"max_radius = {top:g} is beyond {MAX_RADIUS:g}, where the records' matrices are too "
                         f"ill-conditioned for float64 (eigenvalues e^±r); give max_radius at most {MAX_RADIUS:g}")
    return top * np.arange(1, count + 1) / count


def releases_per_cell(dim: int, ratio_se: float) -> int:
    """⌈2/(d·s²)⌉ errors per mechanism and cell (module docstring)."""
    return math.ceil(2.0 / (dim * ratio_se**2))


def intrinsic_errors(manifold, sigma: float, size: int, rng, mechanism: str = specs.EXACT.key) -> np.ndarray:
    """``size`` geodesic errors ρ(x̄, release) of ``mechanism`` (of ``MAPPED``) at scale σ: exact radial draws
    of the mechanism's own sampler (they depend on σ only; ``MechanismSpec.error_radius``)."""
    return specs.spec(mechanism).error_radius(manifold, sigma, size, rng)


def tangent_ball_data(manifold, radii: np.ndarray, datasets: int, n: int, rng) -> np.ndarray:
    """Records Exp_{m0}(r·V^{1/d}·u) for each radius, the same (V, u) at every radius:
    shape ``(len(radii), datasets, n, *point_shape)``."""
    coef = rng.standard_normal((datasets, n, manifold.dim))
    coef *= (rng.uniform(size=(datasets, n)) ** (1.0 / manifold.dim) / np.linalg.norm(coef, axis=-1))[..., None]
    m0 = manifold.origin
    steps = np.asarray(radii, dtype=float)[:, None, None, None] * coef
    return manifold.exp(m0, tangent_vectors(manifold, m0, steps))


@dataclass(frozen=True)
class WhoWinsMap:
    """The cells of one map (``cells``: one row per (parameter, radius)), where the ratio crosses 1
    (``ties``: one row per crossing), where the ratio the noise alone predicts does
    (``predicted_ties``, from ``predicted_ratio``) and the config."""

    config: WhoWinsMapConfig
    family: DimensionFamily
    cells: pd.DataFrame
    ties: pd.DataFrame
    predicted_ties: pd.DataFrame

    def summary(self) -> dict:
        """JSON-ready numbers: the config, every cell and every tie, measured and predicted, and the map's
        ``reading`` (which names the n·ε it holds at)."""
        def plain(frame):
            return [{k: (None if isinstance(v, float) and not np.isfinite(v) else v) for k, v in row.items()}
                    for row in frame.to_dict("records")]
        return dict(config=dataclasses.asdict(self.config), space=self.family.label, cells=plain(self.cells),
                    ties=plain(self.ties), predicted_ties=plain(self.predicted_ties), reading=reading(self))


@dataclass(frozen=True)
class ClusteredErrors:
    """Euclidean errors per cell ``(cells,)`` over its data sets: the mean over every measured release,
    its standard error with the data sets as clusters (so the spread of the ambient mean's bias between
    data sets counts, not only the noise's), and the share of releases off the space."""

    geodesic: np.ndarray
    geodesic_se: np.ndarray
    off_share: np.ndarray


def clustered(found: ReleaseDistances) -> ClusteredErrors:
    """``ClusteredErrors`` of ``release_distances`` of shape ``(cells, releases, data sets)``: the ratio
    estimator Σ c_b g_b / Σ c_b (c_b measured releases of data set b, mean error g_b) with
    SE² = B/(B − 1) Σ_b c_b² (g_b − ḡ)² / (Σ c_b)²; NaN for a cell with no measured release or one whose
    error float64 cannot compute."""
    counts = found.measured.sum(axis=1)
    sums = np.where(found.measured, found.geodesic, 0.0).sum(axis=1)
    total = counts.sum(axis=1)
    with np.errstate(all="ignore"):
        mean = sums.sum(axis=1) / total
        spread = sums - counts * mean[:, None]
        b = counts.shape[1]
        se = np.sqrt(b / (b - 1) * np.sum(spread**2, axis=1)) / total
    bad = (total == 0) | found.uncomputable.any(axis=(1, 2)) | ~np.isfinite(mean)
    return ClusteredErrors(np.where(bad, np.nan, mean), np.where(bad, np.nan, se), found.off.mean(axis=(1, 2)))


def _row(manifold, p: int, f: Factors, intrinsic: np.ndarray, euclid: float, euclid_se: float, off_share: float,
         rounded_share: float) -> dict:
    """One cell's numbers (the columns of ``run``'s ``cells``); the noise alone predicts the ratio
    σ·(E ρ/σ in Rᵈ) / (D·σ_E·k·λ) (``Factors.predicted_ratio``)."""
    mean_i = float(intrinsic.mean())
    se_i = float(intrinsic.std(ddof=1) / np.sqrt(intrinsic.size))
    ratio = mean_i / euclid
    ratio_se = abs(ratio) * float(np.hypot(se_i / mean_i, euclid_se / euclid))
    return dict(parameter=p, dim=manifold.dim, ambient_dim=manifold.ambient_dim, radius=f.radius,
                ambient_radius=f.ambient_radius, sigma=f.sigma, sigma_euclidean=f.sigma_e,
                intrinsic=mean_i, intrinsic_se=se_i, euclidean=euclid, euclidean_se=euclid_se,
                ratio=ratio, ratio_se=ratio_se, off_share=off_share, rounded_share=rounded_share,
                predicted_ratio=f.predicted_ratio)


@dataclass(frozen=True)
class DataSetMeans:
    """What the cells of one parameter share at every ε: the ambient centres ``(radii, datasets, D)`` and
    the Fréchet means ``(radii, datasets, *point_shape)`` of its data sets (read-only arrays)."""

    centres: np.ndarray
    means: np.ndarray


@functools.lru_cache(maxsize=MEANS_CACHE_SIZE)
def data_set_means(space: str, p: int, radii: int, max_radius: float, n: int, datasets: int,
                   seed: int) -> DataSetMeans:
    """The data sets of parameter ``p`` (``tangent_ball_data`` from the first of ``_streams(seed, p)``) and
    their ambient centres and Fréchet means, computed once per process for each setting: the maps of
    several budgets ε (``ties_by_budget``) draw the same data sets."""
    manifold = family(space).make(p)
    grid = radius_grid(manifold, family(space), radii, max_radius)
    data = tangent_ball_data(manifold, grid, datasets, n, np.random.default_rng(_streams(seed, p)[0]))
    centres = ambient_centre(manifold, data, reference=manifold.origin)
    # The default iteration (``Manifold.frechet_step``: Newton steps on Hᵈ, 3–4 where t = 1 needs up to 200 at
    # r = 3; Karcher's t = 1 elsewhere, 3 to 13 iterations on SPD(5) from the projected ambient centre).
    fit = frechet_mean(manifold, data, tol=FRECHET_TOL, init=manifold.projection(manifold.from_ambient(centres)))
    if not np.all(fit.converged):
        raise ValueError(f"the Fréchet means on {manifold.name} did not converge; lower max_radius")
    centres.flags.writeable = fit.mean.flags.writeable = False
    return DataSetMeans(centres, fit.mean)


def _streams(seed: int, p: int) -> list[np.random.SeedSequence]:
    """The data, intrinsic and noise streams of parameter ``p``: they depend on the seed and p only, so a
    cell is the same whichever other parameters the map holds."""
    return np.random.SeedSequence([seed, p]).spawn(3)


@functools.lru_cache(maxsize=CELLS_CACHE_SIZE)
def _cells_of(p: int, c: WhoWinsMapConfig) -> tuple[dict, ...]:
    """The cells of parameter ``p`` of the map ``c`` (whose ``dims`` are left empty: they do not change
    the cells of p): one row per radius, computed once per process for each setting, so that the budget
    table's map at the page's own ε (``ties_by_budget``) reuses the page's cells."""
    fam = family(c.space)
    manifold = fam.make(p)
    radii = radius_grid(manifold, fam, c.radii, c.max_radius)
    stretch = ambient_stretch(manifold)
    found = [factors(manifold, float(radius), c.n, mechanism=c.mechanism, epsilon=c.epsilon, delta=c.delta,
                     stretch=stretch) for radius in radii]
    sigmas = [f.sigma for f in found]
    if min(sigmas) < MIN_SIGMA:
        raise ValueError(f"n = {c.n}, epsilon = {c.epsilon:g} give the noise scale σ = {min(sigmas):.3g} at "
                         f"r = {radii[0]:.3g}, below {MIN_SIGMA:g}, where the errors compare rounding; lower n or "
                         f"epsilon")
    shared = data_set_means(fam.key, p, c.radii, c.max_radius, c.n, c.datasets, c.seed)
    _, intrinsic_seed, noise_seed = _streams(c.seed, p)
    m = releases_per_cell(manifold.dim, c.ratio_se)
    per_data_set = math.ceil(m / c.datasets)
    noisy = np.stack([ambient_laplace_coordinates(manifold, centre, f.sigma_e, size=per_data_set,
                                                  rng=np.random.default_rng(noise_seed))
                      for f, centre in zip(found, shared.centres)])
    releases = manifold.from_ambient(noisy)
    rounded = rounded_by_from_ambient(manifold, noisy, releases).mean(axis=(1, 2))
    euclid = clustered(release_distances(manifold, shared.means[:, None], releases))
    return tuple(_row(manifold, p, f,
                      intrinsic_errors(manifold, f.sigma, m, np.random.default_rng(intrinsic_seed), c.mechanism),
                      float(euclid.geodesic[j]), float(euclid.geodesic_se[j]), float(euclid.off_share[j]),
                      float(rounded[j]))
                 for j, f in enumerate(found))


def clear_caches() -> None:
    """Forget every cached cell and data set (``_cells_of``, ``data_set_means``): the next map is computed
    from scratch, as on a fresh process (the benchmark's cold runs)."""
    _cells_of.cache_clear()
    data_set_means.cache_clear()


def tie_radii(cells: pd.DataFrame) -> pd.DataFrame:
    """Where the ratio crosses 1 along r, for each parameter: one row per crossing with the radius
    (log ratio interpolated linearly between the neighbouring radii) and which mechanism wins below it.

    ``cells`` needs the columns ``parameter``, ``radius`` and ``ratio``; cells without a ratio (NaN) are
    skipped. Returns a frame with ``parameter``, ``radius`` and ``below`` ("intrinsic" or "euclidean").
    """
    rows = []
    for p, group in cells.sort_values(["parameter", "radius"]).groupby("parameter", sort=True):
        group = group[np.isfinite(group["ratio"]) & (group["ratio"] > 0)]
        r, log_ratio = group["radius"].to_numpy(), np.log(group["ratio"].to_numpy())
        for i in np.flatnonzero(np.sign(log_ratio[:-1]) * np.sign(log_ratio[1:]) < 0):
            t = log_ratio[i] / (log_ratio[i] - log_ratio[i + 1])
            rows.append(dict(parameter=int(p), radius=float(r[i] + t * (r[i + 1] - r[i])),
                             below="intrinsic" if log_ratio[i] < 0 else "euclidean"))
    return pd.DataFrame(rows, columns=["parameter", "radius", "below"])


@blas_capped
def run(config: WhoWinsMapConfig) -> WhoWinsMap:
    """The map of ``config`` (module docstring), deterministic for its seed.

    Returns
    -------
    WhoWinsMap
        ``cells`` columns: parameter (d or k), dim and ambient_dim (d and D), radius r, ambient_radius
        r_E, sigma and sigma_euclidean, intrinsic and euclidean (mean geodesic errors) with their
        standard errors, ratio (intrinsic / Euclidean) and ratio_se, off_share (Euclidean releases off
        the space), rounded_share (those whose noisy ambient coordinates were no point of the space and
        ``from_ambient`` rounded onto it: every one on Gr(d, 1), none elsewhere), predicted_ratio (the noise alone: ``who_wins.Factors.predicted_ratio``).

    Raises
    ------
    ValueError
        Bad config, a family without Euclidean baseline, or a radius grid reaching Theorem 2's r*.
    """
    fam = family(config.space)
    dims = config.dims or fam.dims
    rows = [row for p in dims for row in _cells_of(p, dataclasses.replace(config, dims=()))]
    cells = pd.DataFrame(rows)
    return WhoWinsMap(config=config, family=fam, cells=cells, ties=tie_radii(cells),
                      predicted_ties=tie_radii(cells.assign(ratio=cells["predicted_ratio"])))


def _span(values) -> str:
    """"0.04–0.24" for a range of radii, one number when they agree to two digits."""
    low, high = f"{min(values):.2g}", f"{max(values):.2g}"
    return low if low == high else f"{low}–{high}"


def reading(found: WhoWinsMap) -> str:
    """One sentence from the map: where the intrinsic mechanism wins, where the Euclidean one does,
    by how much at the extremes, how many cells are too close to call, and the share of Euclidean
    releases off the space; then the n, ε and n·ε it holds at (the ratios and ties move with n·ε:
    ``engine.pipelines.ties_by_budget``).

    The tie of a parameter is its first crossing of 1 along r (``ties``); parameters without one are
    said to be won at every radius by the mechanism whose ratio side they stay on.
    """
    fam, cells = found.family, found.cells.dropna(subset=["ratio"])
    intrinsic, euclidean = specs.spec(found.config.mechanism).label, specs.EUCLID.label
    if cells.empty:
        return (f"On {fam.label} no cell has a finite error ratio (every error was uncomputable in float64), so "
                f"the map says nothing about who wins here; lower the radius or raise n·ε = "
                f"{found.config.n * found.config.epsilon:g}.")
    params = sorted(int(p) for p in cells["parameter"].unique())
    span = f"{params[0]}" if len(params) == 1 else f"{params[0]}–{params[-1]}"
    where = f"On {fam.label} ({fam.parameter} = {span}, r up to {cells['radius'].max():.2g})"
    first = found.ties.groupby("parameter").first()
    parts = []
    crossing = first[first["below"] == "intrinsic"]
    if len(crossing):
        low, high = crossing["radius"].idxmin(), crossing["radius"].idxmax()
        predicted = found.predicted_ties.groupby("parameter")["radius"].first()
        alone = (f"the noise scales and dimensions alone put the tie at r ≈ {_span(predicted)}" if len(predicted) else
                 "the noise scales and dimensions alone predict no tie in this range")
        parts.append(f"the {intrinsic} wins below r ≈ {_span(crossing['radius'])} ({fam.parameter} = {high}: "
                     f"{crossing.loc[high, 'radius']:.2g}; {fam.parameter} = {low}: {crossing.loc[low, 'radius']:.2g}) "
                     f"and the {euclidean} above ({alone})")
    reverse = first[first["below"] == "euclidean"]
    if len(reverse):
        parts.append(f"the {euclidean} wins below r ≈ {_span(reverse['radius'])} for {fam.parameter} = "
                     f"{', '.join(map(str, reverse.index))} and the {intrinsic} above")
    untied = cells[~cells["parameter"].isin(first.index)]
    closest = ((untied["ratio"] - 1).abs() / untied["ratio_se"]).groupby(untied["parameter"]).min()
    for name, side in ((intrinsic, untied.groupby("parameter")["ratio"].max() < 1),
                       (euclidean, untied.groupby("parameter")["ratio"].min() > 1)):
        whole = sorted(int(p) for p in side[side].index)
        which = "" if len(whole) == len(params) else f" for {fam.parameter} = {', '.join(map(str, whole))}"
        narrow = " (by less than two standard errors where closest)" if whole and closest[whole].min() <= 2 else ""
        if whole:
            parts.append(f"the {name} wins at every radius{which}{narrow}")
    best, worst = cells.loc[cells["ratio"].idxmin()], cells.loc[cells["ratio"].idxmax()]
    close = int(((cells["ratio"] - 1).abs() <= 2 * cells["ratio_se"]).sum())
    off, rounded = cells["off_share"], cells["rounded_share"]
    off_text = (rounded_text(fam.label, rounded.min(), rounded.max()) if rounded.max() > 0 else
                "every Euclidean release lies off the space and is projected back" if off.min() == 1 else
                "no Euclidean release leaves the space" if off.max() == 0 else
                f"up to {off.max():.0%} of the Euclidean releases leave the space and are left out of its error")
    scales = ("both noise scales shrink as 1/(n·ε)" if specs.spec(found.config.mechanism).guarantee == "ε-DP" else
              f"the Euclidean noise scale shrinks as 1/(n·ε) and the {intrinsic}'s as 1/n at a given (ε, δ)")
    return (f"{where}, " + "; ".join(parts) + f". The error ratio ({intrinsic} / {euclidean}) runs from "
            f"{best['ratio']:.2f} ({fam.parameter} = {int(best['parameter'])}, r = {best['radius']:.2g}) to "
            f"{worst['ratio']:.2f} ({fam.parameter} = {int(worst['parameter'])}, r = {worst['radius']:.2g}), within two "
            f"standard errors of 1 in {close} of {len(cells)} cells; {off_text}. All at n = {found.config.n} "
            f"records and ε = {found.config.epsilon:g}, n·ε = {found.config.n * found.config.epsilon:g}: {scales} "
            f"but the ambient mean's bias does not, so the ratios and the ties move with n·ε.")
