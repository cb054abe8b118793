"""The private mean, from data to release: the path the playground shows, runnable anywhere.

data (a source of ``engine.pipelines.sources``) → records outside the public ball B_r(m0) refused,
clipped, dropped or kept (``engine.data.enforce_ball``) → Fréchet mean → Theorem 2's sensitivity
(Reimherr, Bharath & Soto 2021) → each chosen mechanism calibrated from public parameters only (r,
m0, n, ε, δ) and released ``releases`` times → errors against the mean → the assumption checks.

``run(PrivateMeanConfig(...))`` is deterministic for a seed; the playground page caches it and the
CLI (``python -m engine.pipelines private-mean ...``) prints it, so both show the same numbers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

import numpy as np

from engine.bounds import (
    ambient_radius,
    ambient_sensitivity,
    check_radius,
    curvature_factor,
    frechet_mean_sensitivity,
    log_lipschitz,
    radius_limits,
    tangent_mean_sensitivity,
)
from engine.budget import check_memory
from engine.data.ball import POLICIES, enforce_ball, void_reason
from engine.estimators import PAPER_STEP, ambient_centre, frechet_mean
from engine.mechanisms import scale_limit, specs
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.pipelines import checks
from engine.pipelines.release_errors import ReleaseErrors, measure_releases
from engine.pipelines.sources import SOURCES, remap_edges, sample_data
from engine.pipelines.summary import plain
from engine.spaces import SPACES, make_manifold
from engine.threads import blas_capped
from engine.validation import check_int, check_positive, check_probability

#: The mechanisms of the pipeline (key → label, ``engine.mechanisms.specs``), in the order they are run.
MECHANISMS = {spec.key: spec.long_label for spec in specs.PLAYGROUND}

#: Copies of the records and of the releases a run holds at its peak (measured: ~5 for the records, ~4 for
#: each mechanism's releases on the sphere at n = releases = 10⁶); ``engine.budget`` bounds their memory.
PEAK_COPIES = 8
#: Most steps of the MH chain, burn_in + thin·(releases − 1): ~13,000 a second on one core (sphere, 10⁶ steps in 77 s).
MAX_CHAIN_STEPS = 10_000_000


@dataclass(frozen=True)
class PrivateMeanConfig:
    """Everything a run depends on (hashable, so a page can key its cache by it).

    The defaults are the playground's. ``outside`` is the ball policy for records outside B_r(m0)
    (``engine.data.ball.POLICIES``; the page clips them);
    ``burn_in``, ``thin`` and ``step`` drive the MH chain; ``releases`` is the number of draws per
    mechanism; ``region`` filters the airports source (``"all"`` for every state).
    """

    space: str = "sphere"
    source: str = "cap"
    n: int = 50
    radius: float = float(np.pi / 8)
    epsilon: float = 1.0
    mechanisms: tuple[str, ...] = (specs.EXACT.key, specs.EUCLID.key)
    delta: float = 1e-3
    outside: str = "clip"
    k: int = 8
    region: str = "CA"
    burn_in: int = 1000
    thin: int = 25
    step: float | None = None
    releases: int = 200
    seed: int = 0

    def __post_init__(self):
        manifold = make_manifold(self.space, self.k)
        if self.source not in SOURCES[self.space]:
            raise ValueError(f"source must be one of {', '.join(SOURCES[self.space])} on {self.space}, "
                             f"got {self.source!r}")
        check_int("n", self.n, minimum=2)
        check_positive("radius", self.radius)
        check_positive("epsilon", self.epsilon)
        check_probability("delta", self.delta)
        check_int("burn_in", self.burn_in, minimum=0)
        check_int("thin", self.thin)
        check_int("releases", self.releases)
        check_int("seed", self.seed, minimum=0)
        if self.step is not None:
            check_positive("step", self.step)
        if self.outside not in POLICIES:
            raise ValueError(f"outside must be one of {POLICIES}, got {self.outside!r}")
        if any(m not in MECHANISMS for m in self.mechanisms):
            raise ValueError(f"mechanisms must be a subset of {tuple(MECHANISMS)}, got {self.mechanisms!r}")
        coordinates = int(np.prod(manifold.point_shape))
        check_memory(f"n = {self.n} records and {self.releases} releases for each of {len(self.mechanisms)} mechanisms, "
                     f"{coordinates} coordinates each,",
                     PEAK_COPIES * coordinates * (self.n + self.releases * len(self.mechanisms)),
                     fix="lower n or releases")
        steps = self.burn_in + self.thin * (self.releases - 1)
        if self.chain and steps > MAX_CHAIN_STEPS:
            raise ValueError(f"the MH chain would take burn_in + thin·(releases − 1) = {steps} steps, more than "
                             f"{MAX_CHAIN_STEPS} (about 13,000 steps a second: 10 million take ~15 minutes); lower "
                             f"burn_in, thin or releases")


    @property
    def idle_fields(self) -> tuple[str, ...]:
        """Fields that change nothing in this run: ``region`` unless the source reads it (the airports'), which
        the command line of ``engine.reproduce`` leaves out (their defaults stand in)."""
        reads = SPACES[self.space].data_sources[self.source].reads
        return () if "region" in reads else ("region",)

    @property
    def chain(self) -> bool:
        """Whether a chosen mechanism is drawn by a Markov chain (``MechanismSpec.chain``)."""
        return any(specs.spec(key).chain for key in self.mechanisms)


@dataclass(frozen=True)
class Theorem2Sensitivity:
    """Theorem 2 (Reimherr, Bharath & Soto 2021) at the run's n and r: h = 2r√κ·cot(2r√κ) (1 when κ ≤ 0) and
    the Fréchet mean's sensitivity Δ = 2r(2 − h)/(n h)."""

    h: float
    sensitivity: float


@dataclass
class MechanismRun:
    """One mechanism's calibration, releases (``(releases, *point_shape)``), guarantee and errors, or why it was
    skipped; the numbers its calibration used where its kind has them: ``footpoint_dependent`` (Theorem 1's
    factor 2 when the normaliser depends on the footpoint), ``ambient_radius`` r_E, ``lipschitz`` L of the log
    map, and ``rounded_share`` (releases rounded to the space)."""

    key: str
    label: str
    sensitivity: float = float("nan")
    sigma: float = float("nan")
    releases: np.ndarray | None = None
    skipped: str | None = None
    guarantee: PrivacyGuarantee | None = None
    diagnostics: dict | None = None
    errors: ReleaseErrors | None = None
    footpoint_dependent: bool | None = None
    ambient_radius: float | None = None
    lipschitz: float | None = None
    rounded_share: float | None = None


@dataclass
class PrivateMeanResult:
    """Data (after the ball policy), centre, mean, Theorem 2's numbers, one ``MechanismRun`` per chosen
    mechanism and the assumption checks (``engine.pipelines.checks.Check``)."""

    config: PrivateMeanConfig
    manifold_name: str
    kappa_max: float
    data: np.ndarray
    m0: np.ndarray
    mean: np.ndarray
    edges: np.ndarray | None
    note: str
    n_available: int | None
    n_before: int
    n_used: int
    theorem2: Theorem2Sensitivity | None
    runs: list[MechanismRun]
    checks: list[checks.Check]

    def summary(self) -> dict:
        """The numbers without the arrays of records and releases (JSON-ready)."""
        def number(x):
            return None if x is None or not np.isfinite(x) else float(x)
        return dict(
            config=dataclasses.asdict(self.config), space=self.manifold_name, n_used=self.n_used,
            mean=self.mean.tolist(), theorem2=None if self.theorem2 is None else dataclasses.asdict(self.theorem2),
            mechanisms=[dict(key=r.key, label=r.label, sensitivity=number(r.sensitivity), sigma=number(r.sigma),
                             skipped=r.skipped, errors=plain(r.errors),
                             guarantee=None if r.guarantee is None else dataclasses.asdict(r.guarantee),
                             diagnostics=r.diagnostics)
                        for r in self.runs],
            checks=[dataclasses.asdict(c) for c in self.checks],
        )


def _theorem2(manifold, radius: float, n: int, limits) -> tuple[Theorem2Sensitivity | None, str | None]:
    """Theorem 2's ``h`` and sensitivity for n records in B_r(m0), or ``None`` and why it does not apply."""
    try:
        check_radius(manifold, radius, purpose="sensitivity")
    except ValueError:
        return None, (
            f"r = {radius:.4f} is at or beyond r* = {limits.sensitivity:.4f} = min{{inj/2, π/(4√κ)}} on "
            f"{manifold.name} (curvature up to {manifold.kappa_max:g}). There the factor h = 2r√κ·cot(2r√κ) is ≤ 0 "
            f"and Theorem 2 gives no sensitivity bound, so the Riemannian mechanisms cannot be calibrated. Lower r "
            f"below {limits.sensitivity:.4f}. The Euclidean baseline still runs: it only needs an ambient ball.")
    return Theorem2Sensitivity(h=float(curvature_factor(radius, manifold.kappa_max)),
                               sensitivity=float(frechet_mean_sensitivity(n, radius, manifold.kappa_max))), None


def _errors(manifold, mean: np.ndarray, releases: np.ndarray) -> ReleaseErrors:
    """Mean geodesic and ambient errors against the true mean, and the share off the manifold
    (``engine.pipelines.release_errors``: off-sphere releases projected back, non-PD ones left out, an
    error float64 cannot compute NaN and counted as ``uncomputable``)."""
    return measure_releases(manifold, mean, releases)


def _theorem2_sensitivity(c: PrivateMeanConfig, manifold, ctx: dict, run: MechanismRun) -> float:
    """Theorem 2's Δ of the Fréchet mean."""
    return ctx["theorem2"].sensitivity


def _ambient_sensitivity(c: PrivateMeanConfig, manifold, ctx: dict, run: MechanismRun) -> float:
    """Δ_E = 2 r_E / n of the ambient mean (the statistic Δ_E bounds)."""
    run.ambient_radius = float(ambient_radius(manifold, c.radius, ctx["m0"]))
    return float(ambient_sensitivity(ctx["n_used"], run.ambient_radius))


def _tangent_sensitivity(c: PrivateMeanConfig, manifold, ctx: dict, run: MechanismRun) -> float:
    """Δ_T = L·Δ of log_m0(x̄) in T_m0M (public base point m0)."""
    run.lipschitz = float(log_lipschitz(c.radius, manifold.kappa_max))
    return float(tangent_mean_sensitivity(ctx["n_used"], c.radius, manifold.kappa_max))


#: Δ of each kind of ``MechanismSpec.sensitivity``.
_SENSITIVITY = {"theorem2": _theorem2_sensitivity, "ambient": _ambient_sensitivity, "tangent": _tangent_sensitivity}


def _chain_diagnostics(release, c: PrivateMeanConfig) -> dict | None:
    """Acceptance, ESS, autocorrelation time, step and window of an MCMC release (``None`` if exact)."""
    chain = release.chain
    if chain is None:
        return None
    return dict(acceptance=float(chain.acceptance_rate), ess=float(chain.effective_sample_size),
                autocorrelation=float(chain.autocorrelation_time), step=float(chain.step),
                window=int(chain.diagnostic_steps), steps=c.burn_in + c.thin * (c.releases - 1))


def _calibrate_and_release(key: str, c: PrivateMeanConfig, manifold, ctx: dict, rng, run: MechanismRun):
    """The mechanism ``key`` calibrated from public parameters (its spec's sensitivity, its own σ) and its
    releases; ``ValueError`` if it cannot be."""
    spec = specs.spec(key)
    if spec.needs_theorem2 and ctx["theorem2"] is None:
        raise ValueError("Theorem 2 gives no sensitivity bound at this radius (see the radius check).")
    run.sensitivity = _SENSITIVITY[spec.sensitivity](c, manifold, ctx, run)
    if spec.normalisable_only:
        sigma = spec.scale(manifold, epsilon=c.epsilon, sensitivity=run.sensitivity, delta=c.delta)
        limit = scale_limit(manifold)
        if np.isfinite(limit) and sigma >= limit:
            raise ValueError(f"σ = {sigma:.4g} is beyond the normalisability limit {limit:.4g} "
                             f"(see the normalisability check).")
    mechanism = spec.build(manifold, epsilon=c.epsilon, sensitivity=run.sensitivity, delta=c.delta, m0=ctx["m0"])
    run.sigma = mechanism.sigma
    # Theorem 1's factor (σ = 2Δ/ε where the normaliser depends on the footpoint), for the mechanisms that have one.
    run.footpoint_dependent = getattr(mechanism, "footpoint_dependent", None)
    chain = dict(method="mh", step=c.step, burn_in=c.burn_in, thin=c.thin, progress=ctx.get("progress"))
    if spec.statistic == "ambient":
        # The ambient mean in its own coordinates (records relative to the public centre m0): a point could
        # round it (Gr(n, p)), and Δ_E bounds the mean itself.
        centre = ambient_centre(manifold, ctx["data"], ctx["m0"])
        return mechanism, mechanism.release_centre(centre, size=c.releases, rng=rng)
    return mechanism, mechanism.release(ctx["mean"], size=c.releases, rng=rng, **(chain if spec.chain else {}))


def _release(key: str, c: PrivateMeanConfig, manifold, ctx: dict, rng) -> MechanismRun:
    """Calibrate and run one mechanism; a ``ValueError`` becomes ``skipped`` with its reason."""
    run = MechanismRun(key=key, label=specs.spec(key).label)
    try:
        _, release = _calibrate_and_release(key, c, manifold, ctx, rng, run)
    except ValueError as err:
        run.skipped = str(err)
        return run
    run.releases = release.points
    void = ctx.get("void", "")
    run.guarantee = release.guarantee.voided(void) if void else release.guarantee
    run.diagnostics = _chain_diagnostics(release, c)
    if "rounded_share" in release.diagnostics:
        run.rounded_share = release.diagnostics["rounded_share"]
    run.errors = _errors(manifold, ctx["mean"], release.points)
    return run


def release_on(key: str, config: PrivateMeanConfig, data, m0, *, rng=None):
    """Mechanism ``key`` of ``config`` on the given records, by the code ``run`` uses.

    The records are taken as they are (no source, no ball policy); n = len(data), m0 the public
    centre. Used by the empirical audit (``engine.audit.uses``) to run the playground's own
    calibration and release on an adversarial neighbouring pair.

    Parameters
    ----------
    key : one of ``MECHANISMS``
    config : PrivateMeanConfig
        Its space, k, radius, ε, δ and ``releases`` (draws per call) are used.
    data : array, shape ``(n, *point_shape)``
    m0 : array, shape ``point_shape``
    rng : numpy Generator, int or None

    Returns
    -------
    (mechanism, release) with ``release.points`` of shape ``(config.releases, *point_shape)`` (a
    ``Release``, also carrying σ and the guarantee).

    Raises
    ------
    ValueError
        When the mechanism cannot be calibrated, e.g. a radius beyond Theorem 2's domain (the
        message says why).
    """
    if key not in MECHANISMS:
        raise ValueError(f"key must be one of {tuple(MECHANISMS)}, got {key!r}")
    spec = specs.spec(key)
    manifold = make_manifold(config.space, config.k)
    data = manifold.check_points(data, "data")
    limits = radius_limits(manifold.kappa_max, manifold.injectivity_radius)
    theorem2, failure = _theorem2(manifold, config.radius, len(data), limits)
    if theorem2 is None and spec.needs_theorem2:
        raise ValueError(failure)
    m0 = manifold.check_points(m0, "m0")
    # The paper's step keeps the playground's numbers (its spaces' radii are within the step's reach).
    mean = frechet_mean(manifold, data, step=PAPER_STEP, init=m0).mean
    ctx = dict(data=data, m0=m0, mean=mean, n_used=len(data), theorem2=theorem2)
    return _calibrate_and_release(key, config, manifold, ctx, np.random.default_rng(rng),
                                  MechanismRun(key=key, label=spec.label))


def _stage_progress(report, done: int, stages: int, key: str, c: PrivateMeanConfig) -> Callable[[float], None]:
    """Progress of mechanism ``key`` (stage ``done`` of ``stages``, after 5% for the data) as the whole run's."""
    steps = c.burn_in + c.thin * (c.releases - 1)

    def stage(fraction: float) -> None:
        spec = specs.spec(key)
        text = f"{spec.label}: {c.releases:,} releases"
        if spec.chain:
            text = f"{spec.label}: chain step {round(fraction * steps):,} of {steps:,}"
        report(0.05 + 0.95 * (done + fraction) / stages, text)
    return stage


@blas_capped
def run(config: PrivateMeanConfig, *, progress: Callable[[float, str], None] | None = None) -> PrivateMeanResult:
    """The whole path for one configuration (see the module docstring); deterministic for a seed.

    ``progress`` (optional) receives the fraction done and what runs now, e.g. ``(0.4, "Riemannian
    Laplace (MH): chain step 8,000 of 59,900")``; the MH chain reports about every 1% of its steps.

    Raises ``ValueError`` when the data cannot be made (e.g. a radius the sampler cannot fill, or
    records outside the ball with ``outside="refuse"``); a mechanism that cannot be calibrated is
    reported in its run's ``skipped`` instead.
    """
    c = config
    report = progress if progress is not None else (lambda fraction, text: None)
    report(0.0, "Drawing the data set and its Fréchet mean")
    manifold = make_manifold(c.space, c.k)
    streams = np.random.SeedSequence(c.seed).spawn(2 + len(MECHANISMS))
    sample = sample_data(c.space, c.source, manifold, n=c.n, radius=c.radius, k=c.k, region=c.region,
                         data_rng=np.random.default_rng(streams[0]), subsample_rng=np.random.default_rng(streams[1]))
    data, ball = enforce_ball(manifold, sample.data, sample.m0, c.radius, c.outside)
    # Started from the public centre, the mean depends on neither the records' order nor their representatives.
    # The paper's step keeps the playground's numbers (its spaces' radii are within the step's reach).
    fit = frechet_mean(manifold, data, step=PAPER_STEP, init=sample.m0)
    limits = radius_limits(manifold.kappa_max, manifold.injectivity_radius)
    theorem2, failure = _theorem2(manifold, c.radius, len(data), limits)
    ctx = dict(data=data, m0=sample.m0, mean=fit.mean, n_used=len(data), theorem2=theorem2,
               void=void_reason(c.outside, ball["n_outside"], len(sample.data), c.radius))
    chosen = [(i, key) for i, key in enumerate(MECHANISMS) if key in c.mechanisms]
    runs = []
    for done, (i, key) in enumerate(chosen):
        ctx["progress"] = _stage_progress(report, done, len(chosen), key, c)
        ctx["progress"](0.0)
        runs.append(_release(key, c, manifold, ctx, np.random.default_rng(streams[2 + i])))
    report(1.0, "Checking the assumptions")
    found = [checks.radius_check(c.radius, limits.sensitivity, failure),
             checks.ball_check(c.radius, c.outside, n_outside=ball["n_outside"], n_before=len(sample.data),
                               n_used=len(data), max_dist=ball["max_dist"]),
             *checks.convergence_check(bool(np.all(fit.converged)), int(np.max(fit.n_iter)),
                                     bool(np.all(fit.unique)))]
    laplace = [specs.spec(r.key) for r in runs if specs.spec(r.key).normalisable_only]
    if laplace and theorem2 is not None:
        found.append(checks.normalisability_check(manifold, laplace[0].scale(
            manifold, epsilon=c.epsilon, sensitivity=theorem2.sensitivity, delta=c.delta)))
    found += [checks.mixing_check(r.diagnostics, thin=c.thin, burn_in=c.burn_in) for r in runs if r.diagnostics]
    return PrivateMeanResult(
        config=c, manifold_name=manifold.name, kappa_max=float(manifold.kappa_max), data=data, m0=sample.m0,
        mean=fit.mean, edges=remap_edges(sample.edges, ball["kept"]), note=sample.note,
        n_available=sample.n_available, n_before=len(sample.data), n_used=len(data), theorem2=theorem2, runs=runs,
        checks=found,
    )
