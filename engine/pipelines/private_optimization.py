"""DP-RGD on the five applications of Han, Mishra, Jawanpuria & Gao (Algorithm 1), as the Private
optimization page runs it: the problem, a run in blocks of chains, the accountant's curves and the
reading of the hyperbolic study's points.

Each application is built from the building blocks it shares with its study in ``engine.experiments``
(``engine.pipelines.dp_rgd_setting``: same data generators, objectives, clipping norms L0 and step
rules), so that one run of the page and the study's sweep describe the same problem:

* ``problem``: data, objective, public L0 and the exact minimiser of an application;
* ``run_block``: a block of DP-RGD chains and the same iterations without noise (σ = 0), from the
  same public start with the same clipping; losses and gradient norms per iteration. A run of R
  repeats is ``blocks(R)`` such blocks, each with its own random stream, so a caller can report
  progress between them and the numbers do not depend on how the blocks are scheduled;
* ``accountant``: the RDP accountant's ε after t steps for the calibrated σ and for the paper's rule
  σ² = c·T log(1/δ) L0²/(n²ε²);
* ``hyperbolic_errors``: distances to the held-out truth from the hyperbolic study's points;
* ``sphere_coordinates``: the eigenvector outputs on S², by their angle to the top eigenvector;
* ``run``: all of the above for one ``OptimizationConfig`` (the page's settings file), as the command
  line ``python -m engine.pipelines private-optimization`` runs it.

Seeds: ``SeedSequence(seed)`` child 0 draws the data (as the studies do), child 1 the run; block 0 of
the run uses child 1 itself and block k ≥ 1 its (k−1)-th child.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from engine import accounting
from engine.bounds import frechet_mean_sensitivity
from engine.budget import check_memory
from engine.data import spd_wishart
from engine.estimators import FrechetMeanProblem, MatrixCompletion, riemannian_gradient_descent
from engine.manifolds import SPD, Hyperbolic
from engine.mechanisms.dp_rgd import DPRGD
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.laplace import RiemannianLaplace
from engine.pipelines.dp_rgd_setting import eigenvector as eig
from engine.pipelines.dp_rgd_setting import frechet
from engine.pipelines.dp_rgd_setting import hyperbolic as hyper
from engine.pipelines.dp_rgd_setting import matrix_completion as lrmc
from engine.pipelines.summary import plain
from engine.threads import blas_capped
from engine.validation import check_int, check_positive, check_probability

APPLICATIONS = ("eigenvector", "frechet", "barycenter", "hyperbolic", "lrmc")
EIG_D, EIG_GAP = 50, 1e-3  # synthetic eigenvector data of §6.3
HYP_DIAMETER, HYP_WIDTH, HYP_RIDGE = 10.0, 0.2, 1e-5  # D_W, υ and γ of §6.4
LR_D, LR_RANK = 30, 5  # Gr(30, 5) of §6.5; the data options are the study's defaults
LR_DATA = dict(observed=0.5, test_fraction=0.2, noise=0.1)
LR_RIDGE, LR_STEP = 1e-2, 0.5
METRICS = {"frechet": "affine", "barycenter": "bures-wasserstein"}
#: The SPD runs start at W0 = Exp_I(t·diag(1, −1)/‖diag(1, −1)‖) with t = START_FACTOR · r: a public
#: point outside the data ball B_r(I), so the first picture shows both runs descend. (Started at I,
#: next to the minimiser, DP-RGD's noise only pushed it away and its loss rose.)
START_FACTOR = 1.5
#: Chains per block of a run: the unit of progress (a run of at most BLOCK repeats is one block).
BLOCK = 10
#: Cap of a single run's T taken from the paper's rule (the page's sliders stop lower still).
MAX_STEPS = 5_000
#: Coordinates of one SPD(2) record or iterate, and of one point of H² in the Lorentz model.
SPD_COORDINATES, HYP_COORDINATES = 4, 3
#: c of the paper's noise rule σ² = c·T log(1/δ) L0²/(n²ε²) in its experiments, per application.
PAPER_C = {"eigenvector": 1.0, "frechet": 1.0, "barycenter": 1.0, "hyperbolic": 1.0, "lrmc": 1e4}
#: The page's defaults that depend on the application: the taxonomy (hyperbolic); n, N or tree depth; step
#: size in the page's units; batch size (0: all n); T when the application has no rule for it.
APP_DEFAULTS = {
    "eigenvector": {"size": 20_000, "eta": 0.9, "batch": 0},
    "frechet": {"size": 100, "eta": 0.05, "batch": 0},
    "barycenter": {"size": 100, "eta": 0.05, "batch": 0},
    "hyperbolic": {"data": "balanced", "size": 5, "eta": 0.001, "batch": 0},
    "lrmc": {"size": 1_000, "eta": 0.05, "batch": 10, "steps": 200},
}
NOISES = ("calibrated", "paper")
#: The DP-RGD study (``engine.pipelines.studies``) that sweeps each application over ε or n.
STUDY_OF_APPLICATION = {"eigenvector": "dp-rgd-eigenvector", "frechet": "dp-rgd-frechet",
                        "barycenter": "dp-rgd-frechet", "hyperbolic": "dp-rgd-hyperbolic",
                        "lrmc": "dp-rgd-matrix-completion"}


def public_start(m, radius: float) -> np.ndarray:
    """W0 of the SPD applications: at distance ``START_FACTOR·radius`` from I, chosen before any data."""
    direction = np.diag([1.0, -1.0])
    direction = direction / m.norm(m.origin, direction)
    return m.exp(m.origin, START_FACTOR * radius * direction)


@dataclass(frozen=True)
class Problem:
    """The problem of one application: objective, public clipping norm L0 and its exact minimiser.

    ``scale`` divides excess losses (λ_max for the eigenvector, as in the study; 1 otherwise);
    ``eta_factor`` turns the step slider into η on F; ``start`` is the public starting point, or
    None for random public starts (one per repeat); ``view`` holds what the manifold figure needs.
    """

    objective: object
    n: int
    clip: float
    optimum: np.ndarray
    optimum_loss: float
    scale: float
    eta_factor: float
    start: np.ndarray | None
    view: dict
    smoothness: float | None = None


def _stream(seed: int, k: int = 0) -> np.random.SeedSequence:
    """The k-th child of ``SeedSequence(seed)``: the studies draw their data from child 0."""
    return np.random.SeedSequence(seed).spawn(k + 1)[k]


def problem(*, app: str, data: str, size: int, seed: int) -> Problem:
    """Data, objective, L0 and optimum of ``app`` (``data``: eigenvector data set or taxonomy; ``size``:
    n, N or tree depth).

    The eigenvector records are clipped to the public radius R = √(d/n) first, so L0 = 2R² is public
    (``engine.pipelines.dp_rgd_setting.eigenvector.private_problem``; ``view`` holds R and the count clipped).

    Raises ``ValueError`` naming the application when it is unknown, and the engine's when the data
    cannot be built.
    """
    rng = np.random.default_rng(_stream(seed))
    if app == "eigenvector":
        records = eig.load_data(data, n=size, d=EIG_D, eigengap=EIG_GAP, rng=rng)
        objective, clip, clipped = eig.private_problem(records)
        basis = np.linalg.eigh(objective.covariance)[1][:, ::-1][:, :3]
        view = {"basis": basis, "d": objective.d, "radius": float(np.sqrt(clip / 2)), "clipped": clipped}
        return Problem(objective, objective.n, clip, objective.top_eigenvector, -objective.lambda_max,
                       objective.lambda_max, float(objective.n), None, view)
    if app in METRICS:
        metric = METRICS[app]
        radius, clip = frechet.DEFAULTS[metric]["radius"], frechet.DEFAULTS[metric]["clip"]
        m = SPD(2, metric=metric)
        kappa = frechet.domain_curvature(m, radius)
        points = spd_wishart(size, k=2, radius=radius, metric=metric, rng=rng)
        objective = FrechetMeanProblem(m, points)
        best = riemannian_gradient_descent(objective, m.origin, step=1.0, tol=1e-8)
        view = {"data": points, "radius": radius,
                "sensitivity": float(frechet_mean_sensitivity(size, radius, kappa))}
        return Problem(objective, size, clip, best.point, float(best.loss), 1.0, 1.0, public_start(m, radius), view)
    if app == "hyperbolic":
        task = hyper.prediction_task(taxonomy=data, height=size, diameter=HYP_DIAMETER, width=HYP_WIDTH,
                                     ridge=HYP_RIDGE)
        view = {"data": task.tree.points, "edges": np.asarray(task.tree.edges),
                "truth": task.tree.points[task.test]}
        return Problem(task.problem, task.problem.n, task.clip, task.best.point, float(task.best.loss), 1.0,
                       2.0 * task.problem.n, task.manifold.origin, view, smoothness=task.smoothness)
    if app == "lrmc":
        values, train, _ = lrmc.low_rank_data(LR_D, LR_RANK, size, rng=rng, **LR_DATA)
        objective = MatrixCompletion(values, train, rank=LR_RANK, ridge=LR_RIDGE)
        best = riemannian_gradient_descent(objective, lrmc.spectral_start(objective), step=LR_STEP, tol=1e-8,
                                           max_iter=20_000)
        return Problem(objective, size, 1.0, best.point, float(best.loss), 1.0, 1.0, None, {})
    raise ValueError(f"app must be one of {APPLICATIONS}, got {app!r}")


def rule_steps(app: str, p: Problem, epsilon: float, delta: float) -> int | None:
    """T of the paper's rule for these settings (None for matrix completion, which has none)."""
    if app == "eigenvector":
        return eig.steps_rule(p.n, p.view["d"], epsilon, p.clip, delta)
    if app in METRICS:
        return p.n
    if app == "hyperbolic":
        return hyper.steps_rule(p.n, epsilon, delta, p.clip, p.smoothness)
    return None


def batch_size(batch: int, n: int) -> int:
    """The batch b actually used: all n records when ``batch`` is 0 or at least n."""
    return n if batch == 0 or batch >= n else batch


def noise_sigma(noise: str, c: float, epsilon: float, delta: float, steps: int, n: int, clip: float):
    """The ``sigma`` argument of ``DPRGD``: None (calibrated), "paper" (c = 1) or the paper's σ for c."""
    if noise == "calibrated":
        return None
    return "paper" if c == 1.0 else accounting.paper_sigma(epsilon, delta, steps, n, clip, c=c)


def blocks(reps: int) -> list[tuple[int, int]]:
    """The blocks ``(start, stop)`` of chains that make up a run of ``reps`` repeats."""
    return [(start, min(start + BLOCK, reps)) for start in range(0, reps, BLOCK)]


def _paths(method: str, result, p: Problem, first: int) -> pd.DataFrame:
    """Tidy excess loss and gradient norm per recorded iteration and chain of one fit."""
    its = result.diagnostic_iterations
    excess = (result.losses - p.optimum_loss) / p.scale
    reps = excess.shape[1]
    return pd.DataFrame({"method": method, "repeat": np.tile(np.arange(first, first + reps), len(its)),
                         "iteration": np.repeat(its, reps), "excess_loss": excess.ravel(),
                         "gradient_norm": result.gradient_norms.ravel()})


def summarize(frame: pd.DataFrame, by: list[str], value: str) -> pd.DataFrame:
    """Mean and standard error of ``value`` per group (SE 0 for a single value)."""
    out = frame.groupby(by, sort=False)[value].agg(mean="mean", se="sem", count="size").reset_index()
    return out.fillna({"se": 0.0})


@dataclass(frozen=True)
class RunNumbers:
    """The public numbers of a DP-RGD run: σ, the noise multiplier z = σ/L0, the ε the accountant spends, the
    paper's σ (c = 1), the batch b, the steps T, the clipping norm L0, n and the step size η (internal units)."""

    sigma: float
    noise_multiplier: float
    epsilon_spent: float
    paper_sigma: float
    batch_size: int
    steps: int
    clip: float
    n: int
    eta: float


@dataclass(frozen=True)
class DPRGDRun:
    """Chains of a DP-RGD run (or of one block of it) and of its noiseless twin.

    ``paths``: tidy rows (method, chain, iteration, excess_loss, gradient_norm); ``outputs``: method
    ("dp-rgd", "non-private") -> released points ``(chains, *point_shape)``; ``laplace``: Riemannian Laplace
    releases of the exact minimiser ``(chains, *point_shape)`` (the Fréchet mean only, else None); ``info``: σ,
    noise multiplier z, ε spent, the paper's σ (c = 1), b, T, L0, n and η (``RunNumbers``); ``guarantee``: the run's (its
    accountant's ε for n).
    """

    paths: pd.DataFrame
    outputs: dict[str, np.ndarray]
    laplace: np.ndarray | None
    info: RunNumbers
    guarantee: PrivacyGuarantee


def run_block(p: Problem, *, app: str, epsilon: float, delta: float, sigma, steps: int, batch: int, eta: float,
              seed: int, start: int, stop: int) -> DPRGDRun:
    """Chains ``start``..``stop − 1`` of one DP-RGD run and their noiseless twin on problem ``p``.

    ``sigma`` is the ``DPRGD`` argument (``noise_sigma``); ``eta`` is in the slider's units (times
    ``p.eta_factor``). With a fixed public start and the full batch the noiseless run has one path,
    which block 0 alone runs. The Fréchet mean (affine) adds Riemannian Laplace releases of the
    exact minimiser at the same ε (σ = Δ/ε), one per chain.

    Raises ``ValueError`` from the engine (bad settings, a subsampled calibration that fails, or
    iterates that leave the manifold under too much noise).
    """
    m = p.objective.manifold
    run_stream = _stream(seed, 1)
    block = start // BLOCK
    rng = np.random.default_rng(run_stream if block == 0 else run_stream.spawn(block)[block - 1])
    chains = stop - start
    b = batch_size(batch, p.n)
    init = (m.random_point(chains, rng) if p.start is None
            else np.broadcast_to(p.start, (chains,) + m.point_shape))
    every = max(1, steps // 100)
    common = dict(delta=delta, clip=p.clip, steps=steps, step_size=eta * p.eta_factor,
                  batch_size=None if b == p.n else b)
    mech = DPRGD(epsilon=epsilon, sigma=sigma, **common)
    private = mech.fit(p.objective, init, rng=rng, record_every=every)
    single = p.start is not None and b == p.n
    frames = [_paths("dp-rgd", private, p, start)]
    outputs = {"dp-rgd": private.points}
    if not single or block == 0:
        plain = DPRGD(epsilon=epsilon, sigma=0.0, **common).fit(p.objective, init[:1] if single else init, rng=rng,
                                                                 record_every=every)
        frames.append(_paths("non-private", plain, p, start))
        outputs["non-private"] = plain.points
    laplace = None
    if app == "frechet":
        lap = RiemannianLaplace(manifold=m, epsilon=epsilon, sensitivity=p.view["sensitivity"])
        laplace = lap.release(p.optimum, size=chains, rng=rng).points
    info = RunNumbers(sigma=private.sigma, noise_multiplier=private.noise_multiplier,
                      epsilon_spent=private.epsilon_spent, paper_sigma=private.paper_sigma, batch_size=b, steps=steps,
                      clip=p.clip, n=p.n, eta=eta * p.eta_factor)
    return DPRGDRun(paths=pd.concat(frames, ignore_index=True), outputs=outputs, laplace=laplace, info=info,
                    guarantee=private.guarantee)


def combine(parts: list[DPRGDRun]) -> DPRGDRun:
    """One run from its blocks (``run_block`` results in order): paths, outputs and Laplace releases
    stacked along the chains; ``info`` and ``guarantee`` are those of every block."""
    outputs = {name: np.concatenate([part.outputs[name] for part in parts if name in part.outputs])
               for name in ("dp-rgd", "non-private")}
    laplace = None if parts[0].laplace is None else np.concatenate([part.laplace for part in parts])
    return DPRGDRun(paths=pd.concat([part.paths for part in parts], ignore_index=True), outputs=outputs,
                    laplace=laplace, info=parts[0].info, guarantee=parts[0].guarantee)


def sphere_coordinates(w: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Points ``(k, 3)`` of S² drawing unit vectors w ``(k, d)``: the exact angle to ±u₁ (w and −w are one
    eigenvector) as colatitude and the direction within span(u₂, u₃) as longitude; ``basis`` ``(d, 3)``
    holds u₁, u₂, u₃ as columns."""
    c = w @ basis
    c = c * np.where(c[:, :1] < 0, -1.0, 1.0)
    theta = np.arccos(np.clip(c[:, 0], -1.0, 1.0))
    phi = np.arctan2(c[:, 2], c[:, 1])
    return np.stack([np.cos(theta), np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi)], axis=1)


def accountant(*, epsilon: float, delta: float, steps: int, n: int, batch: int, clip: float, c: float) -> dict:
    """Calibrated σ against the paper's rule for T steps, and ε(t) for both along t = 1..T.

    Returns ``{"curves": DataFrame(t, rule, epsilon), "z": calibrated z, "sigma": calibrated σ,
    "paper_sigma": σ of the rule with the paper's c, "paper_sigma_1": with c = 1, "paper_z",
    "paper_epsilon": ε the rule spends after T steps, "c_needed": c at which the rule meets ε}``.
    """
    q = batch / n
    z = accounting.calibrate_sigma(epsilon, steps, delta=delta, sampling_rate=q)
    sigma = accounting.noise_multiplier_to_sigma(z, clip=clip, batch_size=batch)
    paper_1 = accounting.paper_sigma(epsilon, delta, steps, n, clip)
    paper = accounting.paper_sigma(epsilon, delta, steps, n, clip, c=c)
    paper_z = accounting.sigma_to_noise_multiplier(paper, clip=clip, batch_size=batch)
    ts = np.unique(np.linspace(1, steps, min(steps, 120)).round().astype(int))
    both = {"calibrated": accounting.epsilon_curve(z, ts, delta=delta, sampling_rate=q),
            "paper": accounting.epsilon_curve(paper_z, ts, delta=delta, sampling_rate=q)}
    curves = pd.concat([pd.DataFrame({"t": ts, "rule": rule, "epsilon": values}) for rule, values in both.items()],
                       ignore_index=True)
    return {"curves": curves, "z": z, "sigma": sigma, "paper_sigma": paper, "paper_sigma_1": paper_1,
            "paper_z": paper_z, "paper_epsilon": float(both["paper"][-1]), "c_needed": (sigma / paper_1) ** 2}


@dataclass(frozen=True)
class OptimizationConfig:
    """One run of the Private optimization page: application, data and DP-RGD's settings (all public).

    ``data`` is the eigenvector data set or the hyperbolic taxonomy ("synthetic" otherwise); ``size`` is
    n, N or the tree depth; ``steps`` None takes T from the paper's rule, capped at ``MAX_STEPS``;
    ``batch`` 0 is the full batch; ``eta`` is in the page's units (``Problem.eta_factor``). The defaults
    are the page's for the Fréchet mean; ``APP_DEFAULTS`` holds the other applications'.
    """

    app: str = "frechet"
    data: str = "synthetic"
    size: int = APP_DEFAULTS["frechet"]["size"]
    epsilon: float = 1.0
    delta: float = 1e-3
    noise: str = "calibrated"
    steps: int | None = None
    batch: int = APP_DEFAULTS["frechet"]["batch"]
    eta: float = APP_DEFAULTS["frechet"]["eta"]
    reps: int = 5
    seed: int = 0

    def __post_init__(self):
        if self.app not in APPLICATIONS:
            raise ValueError(f"app must be one of {APPLICATIONS}, got {self.app!r}")
        if self.noise not in NOISES:
            raise ValueError(f"noise must be one of {NOISES}, got {self.noise!r}")
        check_positive("epsilon", self.epsilon)
        check_probability("delta", self.delta)
        check_positive("eta", self.eta)
        check_int("size", self.size, minimum=0)
        check_int("batch", self.batch, minimum=0)
        check_int("reps", self.reps)
        if self.steps is not None:
            check_int("steps", self.steps)
        elif self.app == "lrmc":
            raise ValueError(f"matrix completion has no rule for T; give steps (the page's default is "
                             f"{APP_DEFAULTS['lrmc']['steps']})")
        check_memory(f"{self.app} with size = {self.size} and reps = {self.reps} runs of T = "
                     f"{self.steps or MAX_STEPS} steps at most", self.floats(), fix="lower size or reps")

    def floats(self) -> float:
        """A lower estimate of the float64 values the run holds at once: its data (n × d records, N × d entries, or
        the 2^depth nodes of a tree at least binary) and the reps' paths of at most T iterates each."""
        records = {"eigenvector": EIG_D, "lrmc": LR_D, "hyperbolic": None}.get(self.app, SPD_COORDINATES)
        data = 2.0 ** min(self.size, 1000) * HYP_COORDINATES if records is None else float(self.size) * records
        point = {"eigenvector": EIG_D, "lrmc": LR_D * LR_RANK, "hyperbolic": HYP_COORDINATES}.get(self.app,
                                                                                              SPD_COORDINATES)
        return data + float(self.reps) * (self.steps or MAX_STEPS) * point


@dataclass(frozen=True)
class OptimizationResult:
    """One run of ``OptimizationConfig``: the problem, T of the paper's rule (None without one) and the T
    run, the batch b used, the combined run (``combine``) and the accountant's numbers (``accountant``)."""

    config: OptimizationConfig
    problem: Problem = field(repr=False)
    rule_steps: int | None
    steps: int
    batch: int
    run: DPRGDRun = field(repr=False)
    accountant: dict = field(repr=False)

    def summary(self) -> dict:
        """The numbers the page shows (JSON-ready): the config, n, L0, T, b, the run's σ and ε spent, its
        guarantee, the mean ± SE excess loss and gradient norm at the last iteration per method, and the
        accountant's σ of both rules."""
        paths = self.run.paths
        last = paths[paths["iteration"] == paths["iteration"].max()]
        final = summarize(last, ["method"], "excess_loss").merge(
            summarize(last, ["method"], "gradient_norm"), on=["method", "count"], suffixes=("_loss", "_gradient"))
        accountant_numbers = {key: value for key, value in self.accountant.items() if key != "curves"}
        return plain(dict(config=self.config, n=self.problem.n, clip=self.problem.clip, rule_steps=self.rule_steps,
                          steps=self.steps, batch=self.batch, info=self.run.info, guarantee=self.run.guarantee,
                          final=final, accountant=accountant_numbers))


def steps_run(config: OptimizationConfig, p: Problem) -> tuple[int | None, int]:
    """T of the paper's rule (None without one) and the T run: ``config.steps``, or the rule's capped at
    ``MAX_STEPS``."""
    rule = rule_steps(config.app, p, config.epsilon, config.delta)
    return rule, (min(rule, MAX_STEPS) if config.steps is None else config.steps)


@blas_capped
def run(config: OptimizationConfig) -> OptimizationResult:
    """Problem, DP-RGD run in ``blocks`` and the accountant of ``config`` (module docstring); the page runs
    the same blocks one by one under its progress bar."""
    p = problem(app=config.app, data=config.data, size=config.size, seed=config.seed)
    rule, steps = steps_run(config, p)
    b = batch_size(config.batch, p.n)
    sigma = noise_sigma(config.noise, PAPER_C[config.app], config.epsilon, config.delta, steps, p.n, p.clip)
    parts = [run_block(p, app=config.app, epsilon=config.epsilon, delta=config.delta, sigma=sigma, steps=steps,
                       batch=config.batch, eta=config.eta, seed=config.seed, start=start, stop=stop)
             for start, stop in blocks(config.reps)]
    numbers = accountant(epsilon=config.epsilon, delta=config.delta, steps=steps, n=p.n, batch=b, clip=p.clip,
                         c=PAPER_C[config.app])
    return OptimizationResult(config=config, problem=p, rule_steps=rule, steps=steps, batch=b, run=combine(parts),
                              accountant=numbers)


def hyperbolic_errors(result: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Distance d(ŷ, y) to the held-out truth of the DP-RGD predictions and of the non-private one, from
    the ``points`` and ``settings`` of a ``dp-rgd-hyperbolic`` study run (columns method, error, steps, sigma)."""
    pts, settings = result["points"], result["settings"].iloc[0]
    lorentz = {role: rows[["x0", "x1", "x2"]].to_numpy() for role, rows in pts.groupby("role", sort=False)}
    m = Hyperbolic(2)
    rows = [pd.DataFrame({"method": "dp-rgd", "error": m.dist(lorentz["dp-rgd"], lorentz["truth"][0]),
                          "steps": int(settings["steps"]), "sigma": float(settings["sigma"])}),
            pd.DataFrame({"method": "non-private", "error": m.dist(lorentz["non-private"], lorentz["truth"][0]),
                          "steps": 0, "sigma": 0.0})]
    return pd.concat(rows, ignore_index=True)
