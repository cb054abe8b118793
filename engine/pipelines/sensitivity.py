"""The sensitivity of the Fréchet mean, simulated and bounded: the path the Sensitivity page shows.

Theorem 2 of Reimherr, Bharath & Soto (2021): for records in a geodesic ball B_r(m0) of a space of
sectional curvature at most κ, replacing one record moves the Fréchet mean by at most

    Δ(n, r, κ) = 2r (2 − h) / (n h),   h(r, κ) = 2r√κ cot(2r√κ) (κ > 0), 1 (κ <= 0),

for r < r* = min{inj/2, π/(4√κ)} (``engine.bounds``). The simulation draws ``reps`` data sets of
each size n with the paper's data recipe (``engine.experiments.reimherr_fig1``), replaces one
record at random and adversarially (the outermost record moved across the ball), and records
ρ(x̄, x̄′), the geodesic distance the mean moves.

``run(SensitivityConfig(...))`` is deterministic for a seed; the sample size n of the config joins
the study's grid ``N_GRID``. Each n is simulated by ``neighbour_replicates`` from its own stream
(``[seed, n]``), so a page can cache and report the sizes one at a time and ``assemble`` them.
The curves (``bound_vs_r``, ``bound_vs_kappa``, ``constants_vs_r``, ``intrinsic_vs_ambient``) are
closed forms, tidy frames with columns (x, value, curve).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine import bounds, spaces
from engine.audit.pairs import frechet_gap, replace_one_pair
from engine.budget import check_memory
from engine.estimators import PAPER_STEP, frechet_mean
from engine.pipelines import figure1_setting
from engine.pipelines.summary import plain
from engine.threads import blas_capped
from engine.validation import check_int, check_positive

#: Sample sizes of the empirical study (the config's n joins them).
N_GRID = (10, 25, 50, 100, 200)
#: Copies of the simulated records held at the peak (measured ~5 at reps = 10⁴, n = 1000 on the sphere).
PEAK_COPIES = 8
#: Range of the curvature bound κ the curves span.
KAPPA_RANGE = (0.0, 4.0)
#: A bound curve is drawn while h >= H_FLOOR; it grows without limit as h -> 0 (r -> π/(4√κ)).
H_FLOOR = 0.1
#: Fréchet mean tolerance: far below the smallest moves measured (~1e-4 at n = 500).
TOL = 1e-9
#: Boundary grid of the supplement's constant (``engine.bounds.boundary_log_constant``).
BOUNDARY_GRID = 24
#: The spaces with the paper's data recipe, in the registry's order (the page offers them so).
SPACES = tuple(key for key in spaces.SPACES if key in figure1_setting.RECIPES)


def _check_space(space: str) -> str:
    if space not in SPACES:
        raise ValueError(f"space must be one of {', '.join(SPACES)}, got {space!r}")
    return space


@dataclass(frozen=True, kw_only=True)
class SensitivityConfig:
    """Everything the simulation depends on (hashable, so a page can key its cache by it).

    ``kappa`` is the curvature bound fed to Theorem 2 (it may differ from the space's own, see
    ``Theorem2.below_own``); ``reps`` pairs of neighbouring data sets are simulated per sample size.
    """

    space: str = "sphere"
    radius: float = float(np.pi / 8)
    kappa: float = 1.0
    n: int = 50
    reps: int = 100
    seed: int = 0

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("space", _check_space(self.space))
        set_("radius", check_positive("radius", self.radius))
        if not np.isfinite(self.kappa):
            raise ValueError(f"kappa must be finite, got {self.kappa!r}")
        set_("kappa", float(self.kappa))
        set_("n", check_int("n", self.n))
        set_("reps", check_int("reps", self.reps, minimum=2))
        set_("seed", check_int("seed", self.seed, minimum=0))
        coordinates = int(np.prod(spaces.make_manifold(self.space).point_shape))
        check_memory(f"reps = {self.reps} pairs of data sets of {' + '.join(map(str, self.sample_sizes))} records, "
                     f"{coordinates} coordinates each,", PEAK_COPIES * self.reps * sum(self.sample_sizes) * coordinates,
                     fix="lower reps or n")

    @property
    def sample_sizes(self) -> tuple[int, ...]:
        """The study's sizes ``N_GRID`` with the config's n, ascending."""
        return tuple(sorted(set(N_GRID) | {self.n}))


@dataclass(frozen=True)
class Theorem2:
    """Theorem 2's numbers at one (n, r, κ) on one space.

    ``limit`` is r* = min{inj/2, π/(4√κ)}; ``valid`` says r < r*; ``h`` and ``delta`` are NaN when it
    is not. ``own_kappa`` is the space's curvature bound (``below_own``: κ is below it, so the bound
    rests on a false assumption) and ``own_limit`` r* at that bound. ``ambient_radius`` r_E bounds the
    records' ambient distance from m0 and ``ambient_delta`` = 2 r_E / n is the ambient mean's
    sensitivity; ``kappa_limit`` = (π/(4r))² is the κ at which h reaches 0 for this r.
    """

    n: int
    radius: float
    kappa: float
    manifold_name: str
    own_kappa: float
    own_limit: float
    limit: float
    valid: bool
    h: float
    delta: float
    ambient_radius: float
    ambient_delta: float
    kappa_limit: float

    @property
    def below_own(self) -> bool:
        return self.kappa < self.own_kappa



def theorem2(config: SensitivityConfig) -> Theorem2:
    """Theorem 2's bound, its validity and the ambient sensitivity at the config's n, r and κ."""
    m = spaces.make_manifold(config.space)
    limit = float(bounds.radius_limits(config.kappa, m.injectivity_radius).sensitivity)
    valid = config.radius < limit
    h = float(bounds.curvature_factor(config.radius, config.kappa)) if valid else np.nan
    delta = float(bounds.frechet_mean_sensitivity(config.n, config.radius, config.kappa)) if valid else np.nan
    r_e = float(bounds.ambient_radius(m, config.radius))
    own_limit = float(bounds.radius_limits(m.kappa_max, m.injectivity_radius).sensitivity)
    return Theorem2(n=config.n, radius=config.radius, kappa=config.kappa, manifold_name=m.name,
                    own_kappa=float(m.kappa_max), own_limit=own_limit, limit=limit, valid=bool(valid), h=h,
                    delta=delta,
                    ambient_radius=r_e, ambient_delta=float(bounds.ambient_sensitivity(config.n, r_e)),
                    kappa_limit=float((np.pi / (4 * config.radius)) ** 2))


def neighbour_replicates(space: str, radius: float, n: int, reps: int, seed: int, *,
                         tol: float = TOL) -> pd.DataFrame:
    """ρ(x̄, x̄′) for ``reps`` pairs of neighbouring data sets of size n in B_r(m0).

    Returns a tidy frame with columns n, replicate, neighbour ("random replacement": the first record
    replaced by a fresh draw; "adversarial replacement": the outermost record moved to the opposite
    side of the boundary, ``figure1_setting.adversarial_neighbours``) and sensitivity, ``2·reps`` rows.
    Draws from ``np.random.default_rng([seed, n])``.
    """
    setting = figure1_setting.SpaceSetting(_check_space(space), spaces.make_manifold(space), radius)
    rng = np.random.default_rng([seed, n])
    data = setting.sample(n, reps, rng)
    means = frechet_mean(setting.manifold, data, step=PAPER_STEP, tol=tol).mean
    moved = figure1_setting.neighbour_sensitivities(setting, data, means, rng, tol=tol)
    return pd.concat([pd.DataFrame({"n": n, "replicate": np.arange(reps), "neighbour": f"{kind} replacement",
                                    "sensitivity": values}) for kind, values in moved.items()], ignore_index=True)


@dataclass(frozen=True)
class SensitivityResult:
    """The run: its config, Theorem 2's numbers and the simulated replicates (all sample sizes)."""

    config: SensitivityConfig
    theorem2: Theorem2
    replicates: pd.DataFrame

    @property
    def largest(self) -> float:
        """Largest simulated move ρ(x̄, x̄′) at the config's n."""
        return float(self.replicates.loc[self.replicates["n"] == self.config.n, "sensitivity"].max())

    def table(self) -> pd.DataFrame:
        """The replicates with Theorem 2's bound at their n (NaN where the theorem does not apply)."""
        c = self.config
        bound = bounds.frechet_mean_sensitivity(self.replicates["n"], c.radius, c.kappa) if self.theorem2.valid \
            else np.nan
        return self.replicates.assign(bound=bound)

    def bound_curve(self, points: int = 80) -> pd.DataFrame | None:
        """Theorem 2's bound on a log grid of n over the simulated range (columns n, bound); ``None``
        where the theorem does not apply."""
        if not self.theorem2.valid:
            return None
        ns = self.replicates["n"]
        grid = np.unique(np.geomspace(ns.min(), ns.max(), points).round())
        return pd.DataFrame({"n": grid, "bound": bounds.frechet_mean_sensitivity(grid, self.config.radius,
                                                                                  self.config.kappa)})

    def summary(self) -> dict:
        """The numbers without the replicates (JSON-ready, ``engine.pipelines.summary.plain``): the config,
        Theorem 2's numbers, the largest move at n, and per neighbour kind and n the mean, standard error
        and maximum of the simulated moves with the bound."""
        table = summarise(self.replicates)
        bound = bounds.frechet_mean_sensitivity(table["n"], self.config.radius, self.config.kappa) \
            if self.theorem2.valid else np.nan
        return plain(dict(config=self.config, theorem2=self.theorem2, largest=self.largest,
                          simulated=table.assign(bound=bound)))


def assemble(config: SensitivityConfig, frames: list[pd.DataFrame]) -> SensitivityResult:
    """The result from the ``neighbour_replicates`` frames of ``config.sample_sizes``."""
    return SensitivityResult(config, theorem2(config), pd.concat(frames, ignore_index=True))


@blas_capped
def run(config: SensitivityConfig, *, progress=None) -> SensitivityResult:
    """Simulate every sample size of ``config`` (``progress(done, total, n)`` after each)."""
    sizes = config.sample_sizes
    frames = []
    for i, n in enumerate(sizes):
        frames.append(neighbour_replicates(config.space, config.radius, n, config.reps, config.seed))
        if progress is not None:
            progress(i + 1, len(sizes), n)
    return assemble(config, frames)


def summarise(replicates: pd.DataFrame) -> pd.DataFrame:
    """Mean (column ``sensitivity``), standard error ``se`` and ``maximum`` per neighbour kind and n."""
    grouped = replicates.groupby(["neighbour", "n"], sort=False)["sensitivity"]
    out = grouped.agg(sensitivity="mean", sd="std", maximum="max", count="size").reset_index()
    out["se"] = out["sd"].fillna(0.0) / np.sqrt(out["count"])
    return out.drop(columns=["sd", "count"])


def drawn_bound(n, radius, kappa) -> np.ndarray:
    """Δ of Theorem 2, broadcast over n, r and κ, NaN where h < ``H_FLOOR`` or outside its domain."""
    n, radius, kappa = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (n, radius, kappa)))
    drawn = bounds.theorem2_domain(radius, kappa) & (bounds.curvature_factor(radius, kappa) >= H_FLOOR)
    out = np.full(radius.shape, np.nan)
    out[drawn] = bounds.frechet_mean_sensitivity(n[drawn], radius[drawn], kappa[drawn])
    return out


def bound_vs_r(n: int, kappa: float, r_max: float, *, points: int = 200) -> pd.DataFrame:
    """Δ against r in (0, r_max] at curvature bound κ and for a flat space (κ <= 0), at sample size n."""
    r = np.linspace(r_max / points, r_max, points)
    return pd.concat([
        pd.DataFrame({"r": r, "value": drawn_bound(n, r, kappa), "curve": "Theorem 2 bound"}),
        pd.DataFrame({"r": r, "value": drawn_bound(n, r, 0.0), "curve": "flat space (κ ≤ 0)"}),
    ], ignore_index=True)


#: The curve name of ``adversarial_move_vs_r``.
ADVERSARIAL_MOVE = "one record replaced (measured)"


def adversarial_move_vs_r(space: str, n: int, r_max: float, *, points: int = 24) -> pd.DataFrame:
    """How far replacing one of n records moves the Fréchet mean, measured on the audit's adversarial
    replace-one pair (``engine.audit.pairs.replace_one_pair``, its gap ``frechet_gap``) at ``points`` radii in
    (0, r_max], in the frame of ``bound_vs_r`` (columns r, value, curve = ``ADVERSARIAL_MOVE``)."""
    manifold = spaces.make_manifold(_check_space(space))
    r = np.linspace(check_positive("r_max", r_max) / points, r_max, check_int("points", points, minimum=2))
    moves = [frechet_gap(replace_one_pair(manifold, check_int("n", n, minimum=2), float(radius))) for radius in r]
    return pd.DataFrame({"r": r, "value": moves, "curve": ADVERSARIAL_MOVE})


def bound_vs_kappa(n: int, radius: float, *, points: int = 200) -> pd.DataFrame:
    """Δ against κ over ``KAPPA_RANGE`` at radius r and sample size n."""
    kappa = np.linspace(*KAPPA_RANGE, points)
    return pd.DataFrame({"kappa": kappa, "value": drawn_bound(n, radius, kappa), "curve": "Theorem 2 bound"})


def boundary_radii(r_max: float, points: int = 20) -> tuple[float, ...]:
    """The coarse radii at which ``constants_vs_r`` evaluates the boundary constant (a grid search)."""
    return tuple(float(v) for v in np.round(np.linspace(r_max / points, r_max, points), 4))


def boundary_constants(space: str, radii) -> pd.DataFrame:
    """The supplement's constant max ‖log_{x1}(x_i) − log_{x1}(x_j)‖ over x's on ∂B_r(m0), per r
    (columns r, value)."""
    m = spaces.make_manifold(_check_space(space))
    values = [bounds.boundary_log_constant(m, m.origin, r, grid=BOUNDARY_GRID) for r in radii]
    return pd.DataFrame({"r": tuple(radii), "value": values})


def constants_vs_r(space: str, r_max: float, boundary: pd.DataFrame, *, points: int = 200) -> pd.DataFrame:
    """h(r, κ), 2r, 2r(2 − h) (NaN where h < ``H_FLOOR``) and the ``boundary_constants`` frame
    ``boundary`` against r, at the space's own κ."""
    kappa = float(spaces.make_manifold(_check_space(space)).kappa_max)
    r = np.linspace(r_max / points, r_max, points)
    h = bounds.curvature_factor(r, kappa)
    inside = bounds.theorem2_domain(r, kappa)
    ok = inside & (h >= H_FLOOR)
    return pd.concat([
        pd.DataFrame({"r": r, "value": np.where(inside, h, np.nan), "curve": "h(r, κ)"}),
        pd.DataFrame({"r": r, "value": 2 * r, "curve": "2r"}),
        pd.DataFrame({"r": r, "value": np.where(ok, 2 * r * (2 - h), np.nan), "curve": "2r(2 − h)"}),
        boundary.assign(curve="boundary constant"),
    ], ignore_index=True)


def intrinsic_vs_ambient(space: str, radius: float, kappa: float, *, points: int = 80) -> pd.DataFrame:
    """Theorem 2's Δ (only where it applies) and the ambient 2 r_E / n against n from 5 to 500."""
    m = spaces.make_manifold(_check_space(space))
    n = np.unique(np.geomspace(5, 500, points).round())
    r_e = float(bounds.ambient_radius(m, radius))
    frames = [pd.DataFrame({"n": n, "value": bounds.ambient_sensitivity(n, r_e), "curve": "ambient Δ_E = 2r_E/n"})]
    if radius < bounds.radius_limits(kappa, m.injectivity_radius).sensitivity:
        delta = bounds.frechet_mean_sensitivity(n, radius, kappa)
        frames.insert(0, pd.DataFrame({"n": n, "value": delta, "curve": "intrinsic Δ (Theorem 2)"}))
    return pd.concat(frames, ignore_index=True)
