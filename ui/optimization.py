"""Cached computations of the Private optimization page: DP-RGD (Algorithm 1 of Han, Mishra, Jawanpuria
& Gao) on the paper's five applications (their controls and presets are in ``ui.optimization_settings``).

Each application is built from the building blocks of its study in ``engine.experiments`` (same
data generators, objectives, clipping norms L0 and step-size units), so that one run of the page and
the study's sweep describe the same problem:

* ``run``: one DP-RGD run (``reps`` chains) and the same iterations without noise (σ = 0), from the
  same public start with the same clipping; losses and gradient norms per iteration;
* ``accountant``: the RDP accountant's ε after t steps for the calibrated σ and for the paper's rule
  σ² = c·T log(1/δ) L0²/(n²ε²);
* ``study``: points of the study (an ε or n grid) in cached pieces, so a progress bar can follow.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
import streamlit as st

from engine import accounting
from engine.bounds import frechet_mean_sensitivity
from engine.data import spd_wishart
from engine.estimators import FrechetMeanProblem, MatrixCompletion, riemannian_gradient_descent
from engine.experiments import dp_rgd_eigenvector as eig
from engine.experiments import dp_rgd_frechet as frechet
from engine.experiments import dp_rgd_hyperbolic as hyper
from engine.experiments import dp_rgd_matrix_completion as lrmc
from engine.manifolds import SPD, Hyperbolic
from engine.mechanisms.dp_rgd import DPRGD
from engine.mechanisms.laplace import RiemannianLaplace
from ui import studies
from ui.optimization_settings import APPS

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


def public_start(m, radius: float) -> np.ndarray:
    """W0 of the SPD applications: at distance ``START_FACTOR·radius`` from I, chosen before any data."""
    direction = np.diag([1.0, -1.0])
    direction = direction / m.norm(m.origin, direction)
    return m.exp(m.origin, START_FACTOR * radius * direction)


@dataclass(frozen=True)
class Setup:
    """The problem of one application: objective, public clipping norm L0 and its exact minimiser.

    ``scale`` divides excess losses (λ_max for the eigenvector, as in the study; 1 otherwise);
    ``eta_factor`` turns the step slider into η on F; ``start`` is the public starting point, or
    None for random public starts (one per repeat); ``view`` holds what the manifold figure needs.
    """

    problem: object
    n: int
    clip: float
    optimum: np.ndarray
    optimum_loss: float
    scale: float
    eta_factor: float
    start: np.ndarray | None
    view: dict
    smoothness: float | None = None


def _seed(seed: int, k: int = 0) -> np.random.Generator:
    """The k-th child stream of ``SeedSequence(seed)``: the studies draw their data from child 0."""
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(k + 1)[k])


@st.cache_data(max_entries=8, show_spinner=False)
def setup(app: str, data: str, size: int, seed: int) -> Setup:
    """Data, objective, L0 and optimum of ``app`` (``data``: eigenvector data set; ``size``: n, N or tree depth).

    The eigenvector records are clipped to the public radius R = √(d/n) first, so L0 = 2R² is public
    (``engine.experiments.dp_rgd_eigenvector.private_problem``; ``view`` holds R and the count clipped).

    Raises ``ValueError`` from the engine (e.g. a data set it cannot build).
    """
    if app == "eigenvector":
        records = eig.load_data(data, n=size, d=EIG_D, eigengap=EIG_GAP, rng=_seed(seed))
        problem, clip, clipped = eig.private_problem(records)
        basis = np.linalg.eigh(problem.covariance)[1][:, ::-1][:, :3]
        view = {"basis": basis, "d": problem.d, "radius": float(np.sqrt(clip / 2)), "clipped": clipped}
        return Setup(problem, problem.n, clip, problem.top_eigenvector, -problem.lambda_max, problem.lambda_max,
                     float(problem.n), None, view)
    if app in METRICS:
        metric = METRICS[app]
        radius, clip = frechet.DEFAULTS[metric]["radius"], frechet.DEFAULTS[metric]["clip"]
        m = SPD(2, metric=metric)
        kappa = frechet.domain_curvature(m, radius)
        points = spd_wishart(size, k=2, radius=radius, metric=metric, rng=_seed(seed))
        problem = FrechetMeanProblem(m, points)
        best = riemannian_gradient_descent(problem, m.origin, step=1.0, tol=1e-8)
        view = {"data": points, "radius": radius,
                "sensitivity": float(frechet_mean_sensitivity(size, radius, kappa))}
        return Setup(problem, size, clip, best.point, float(best.loss), 1.0, 1.0, public_start(m, radius), view)
    if app == "hyperbolic":
        return _hyperbolic(data, size)
    values, train, _ = lrmc.low_rank_data(LR_D, LR_RANK, size, rng=_seed(seed), **LR_DATA)
    problem = MatrixCompletion(values, train, rank=LR_RANK, ridge=LR_RIDGE)
    best = riemannian_gradient_descent(problem, lrmc.spectral_start(problem), step=LR_STEP, tol=1e-8,
                                       max_iter=20_000)
    return Setup(problem, size, 1.0, best.point, float(best.loss), 1.0, 1.0, None, {})


def _hyperbolic(taxonomy: str, height: int) -> Setup:
    """The problem of ``engine.experiments.dp_rgd_hyperbolic.run`` (held-out last leaf, its defaults)."""
    task = hyper.prediction_task(taxonomy=taxonomy, height=height, diameter=HYP_DIAMETER, width=HYP_WIDTH,
                                 ridge=HYP_RIDGE)
    view = {"data": task.tree.points, "edges": np.asarray(task.tree.edges), "truth": task.tree.points[task.test]}
    return Setup(task.problem, task.problem.n, task.clip, task.best.point, float(task.best.loss), 1.0,
                 2.0 * task.problem.n, task.manifold.origin, view, smoothness=task.smoothness)


def rule_steps(app: str, s: Setup, eps: float, delta: float) -> int | None:
    """T of the paper's rule for these settings (None for matrix completion, which has none)."""
    if app == "eigenvector":
        return eig.steps_rule(s.n, s.view["d"], eps, s.clip, delta)
    if app in METRICS:
        return s.n
    if app == "hyperbolic":
        return hyper.steps_rule(s.n, eps, delta, s.clip, s.smoothness)
    return None


def batch_size(batch: int, n: int) -> int:
    """The batch b actually used: all n records when ``batch`` is 0 or at least n."""
    return n if batch == 0 or batch >= n else batch


def noise_sigma(noise: str, c: float, eps: float, delta: float, steps: int, n: int, clip: float):
    """The ``sigma`` argument of ``DPRGD``: None (calibrated), "paper" (c = 1) or the paper's σ for c."""
    if noise == "calibrated":
        return None
    return "paper" if c == 1.0 else accounting.paper_sigma(eps, delta, steps, n, clip, c=c)


def _paths(method: str, result, s: Setup) -> pd.DataFrame:
    """Tidy excess loss and gradient norm per recorded iteration and chain of one fit."""
    its = result.diagnostic_iterations
    excess = (result.losses - s.optimum_loss) / s.scale
    reps = excess.shape[1]
    return pd.DataFrame({"method": method, "repeat": np.tile(np.arange(reps), len(its)),
                         "iteration": np.repeat(its, reps), "excess_loss": excess.ravel(),
                         "gradient_norm": result.gradient_norms.ravel()})


def summarize(frame: pd.DataFrame, by: list[str], value: str) -> pd.DataFrame:
    """Mean and standard error of ``value`` per group (SE 0 for a single value)."""
    out = frame.groupby(by, sort=False)[value].agg(mean="mean", se="sem", count="size").reset_index()
    return out.fillna({"se": 0.0})


@st.cache_data(max_entries=16, show_spinner=False)
def run(app: str, data: str, size: int, eps: float, delta: float, noise: str, steps: int, batch: int, eta: float,
        reps: int, seed: int) -> dict:
    """One DP-RGD run (``reps`` chains) and its noiseless twin on the problem of ``setup``.

    Returns ``{"paths": tidy losses/gradient norms, "outputs": {"dp-rgd", "non-private"} released
    points, "laplace": Riemannian Laplace releases around the optimum (affine Fréchet mean only),
    "info": σ, z, ε spent, paper σ (c = 1), b, T, L0, n, "guarantee": privacy_guarantee() as a dict}``.
    Raises ``ValueError`` from the engine (bad settings, or a subsampled calibration that fails).
    """
    s = setup(app, data, size, seed)
    m = s.problem.manifold
    rng = _seed(seed, 1)
    b = batch_size(batch, s.n)
    init = (m.random_point(reps, rng) if s.start is None
            else np.broadcast_to(s.start, (reps,) + m.point_shape))
    every = max(1, steps // 100)
    common = dict(delta=delta, clip=s.clip, steps=steps, step_size=eta * s.eta_factor,
                  batch_size=None if b == s.n else b)
    mech = DPRGD(epsilon=eps, sigma=noise_sigma(noise, APPS[app].paper_c, eps, delta, steps, s.n, s.clip), **common)
    private = mech.fit(s.problem, init, rng=rng, record_every=every)
    # Without noise a fixed start and the full batch give one path: run it once.
    plain_init = init if s.start is None or b < s.n else init[:1]
    plain = DPRGD(epsilon=eps, sigma=0.0, **common).fit(s.problem, plain_init, rng=rng, record_every=every)
    laplace = None
    if app == "frechet":
        lap = RiemannianLaplace(manifold=m, epsilon=eps, sensitivity=s.view["sensitivity"])
        laplace = lap.release(s.optimum, size=reps, rng=rng).points
    info = {"sigma": private.sigma, "noise_multiplier": private.noise_multiplier,
            "epsilon_spent": private.epsilon_spent, "paper_sigma": private.paper_sigma, "batch_size": b,
            "steps": steps, "clip": s.clip, "n": s.n, "eta": eta * s.eta_factor}
    return {"paths": pd.concat([_paths("dp-rgd", private, s), _paths("non-private", plain, s)], ignore_index=True),
            "outputs": {"dp-rgd": private.points, "non-private": plain.points}, "laplace": laplace, "info": info,
            "guarantee": asdict(private.guarantee)}


@st.cache_data(max_entries=16, show_spinner=False)
def accountant(eps: float, delta: float, steps: int, n: int, batch: int, clip: float, c: float) -> dict:
    """Calibrated σ against the paper's rule for T steps, and ε(t) for both along t = 1..T.

    Returns ``{"curves": DataFrame(t, rule, epsilon), "z": calibrated z, "sigma": calibrated σ,
    "paper_sigma": σ of the rule with the paper's c, "paper_sigma_1": with c = 1, "paper_z",
    "paper_epsilon": ε the rule spends after T steps, "c_needed": c at which the rule meets ε}``.
    """
    q = batch / n
    z = accounting.calibrate_sigma(eps, steps, delta=delta, sampling_rate=q)
    sigma = accounting.noise_multiplier_to_sigma(z, clip=clip, batch_size=batch)
    paper_1 = accounting.paper_sigma(eps, delta, steps, n, clip)
    paper = accounting.paper_sigma(eps, delta, steps, n, clip, c=c)
    paper_z = accounting.sigma_to_noise_multiplier(paper, clip=clip, batch_size=batch)
    ts = np.unique(np.linspace(1, steps, min(steps, 120)).round().astype(int))
    both = {"calibrated": accounting.epsilon_curve(z, ts, delta=delta, sampling_rate=q),
            "paper": accounting.epsilon_curve(paper_z, ts, delta=delta, sampling_rate=q)}
    curves = pd.concat([pd.DataFrame({"t": ts, "rule": rule, "epsilon": values}) for rule, values in both.items()],
                       ignore_index=True)
    return {"curves": curves, "z": z, "sigma": sigma, "paper_sigma": paper, "paper_sigma_1": paper_1,
            "paper_z": paper_z, "paper_epsilon": float(both["paper"][-1]), "c_needed": (sigma / paper_1) ** 2}


def study_grid(app: str, grid: str | None, eps: float, size: int) -> tuple:
    """The study's x values: the chosen grid plus this run's ε (eigenvector) or n (Fréchet studies).

    The hyperbolic study keeps its grid alone: its T grows like ε, so the grid bounds its cost.
    """
    if grid is None:
        return ()
    values = set(APPS[app].grids[grid][1])
    if app == "eigenvector":
        values.add(eps)
    elif app in METRICS:
        values.add(size)
    return tuple(sorted(values))


def study_blocks(app: str, values: tuple) -> list[tuple]:
    """The study's grid in cached pieces: one per value, but the whole ε grid at once for the eigenvector
    (its study draws the data set once per call, which dominates on the synthetic data)."""
    return [tuple(values)] if app == "eigenvector" else [(x,) for x in values]


@st.cache_data(max_entries=32, show_spinner=False)
def study(app: str, data: str, size: int, xs: tuple, eps: float, delta: float, noise: str, eta: float, reps: int,
          seed: int, burn: int) -> pd.DataFrame:
    """Points ``xs`` of the study: ε values (eigenvector, hyperbolic) or sample sizes n at ε = ``eps`` (Fréchet
    mean, barycenter; ``burn`` is the burn-in of their MH-sampled baselines).

    Returns columns method, x, mean, se, count, steps (T of the study's run) and sigma. The studies fix T
    by the paper's rule and use the full batch; the Fréchet studies draw each n's data from its own stream.
    """
    if app == "eigenvector":
        out = studies.run("dp-rgd-eigenvector", eig.Params(
            reps=reps, seed=seed, epsilons=xs, datasets=(data,), n=size, d=EIG_D, eigengap=EIG_GAP, delta=delta,
            rgd_step=eta, noise=noise))["risk"]
        out = out.rename(columns={"epsilon": "x", "excess_risk": "error"})
    elif app in METRICS:
        out = pd.concat([studies.run("dp-rgd-frechet", frechet.Params(
            reps=reps, seed=[seed, int(x)], ns=(int(x),), metric=METRICS[app], epsilon=eps, delta=delta,
            step_size=eta, noise=noise, laplace_burn_in=burn, kng_burn_in=burn))["risk"].assign(x=x, steps=int(x))
            for x in xs])
        out = out.rename(columns={"excess_risk": "error"})
    else:
        out = pd.concat([_hyperbolic_errors(data, size, x, delta, noise, eta, reps, seed).assign(x=x) for x in xs])
    summary = summarize(out, ["method", "x"], "error")
    extra = out.groupby(["method", "x"], sort=False)[["steps", "sigma"]].first().reset_index()
    return summary.merge(extra, on=["method", "x"])


def _hyperbolic_errors(taxonomy: str, height: int, eps: float, delta: float, noise: str, eta: float, reps: int,
                       seed: int) -> pd.DataFrame:
    """Distance to the held-out truth of the DP-RGD predictions and of the non-private one at ε."""
    result = studies.run("dp-rgd-hyperbolic", hyper.Params(
        reps=reps, seed=seed, taxonomy=taxonomy, height=height, epsilon=eps, delta=delta, private_step=eta,
        noise=noise, nonprivate_iterations=1))
    pts, settings = result["points"], result["settings"].iloc[0]
    lorentz = {role: rows[["x0", "x1", "x2"]].to_numpy() for role, rows in pts.groupby("role", sort=False)}
    m = Hyperbolic(2)
    rows = [pd.DataFrame({"method": "dp-rgd", "error": m.dist(lorentz["dp-rgd"], lorentz["truth"][0]),
                          "steps": int(settings["steps"]), "sigma": float(settings["sigma"])}),
            pd.DataFrame({"method": "non-private", "error": m.dist(lorentz["non-private"], lorentz["truth"][0]),
                          "steps": 0, "sigma": 0.0})]
    return pd.concat(rows, ignore_index=True)


@st.cache_data(max_entries=8, show_spinner=False)
def completion_study(size: int, eps: float, delta: float, noise: str, steps: int, batch: int, eta: float, reps: int,
                     seed: int) -> dict:
    """Train and test RMSE along DP-RSGD and RSGD (``engine.experiments.dp_rgd_matrix_completion``)."""
    return studies.run("dp-rgd-matrix-completion", lrmc.Params(
        reps=reps, seed=seed, d=LR_D, rank=LR_RANK, n=size, epsilon=eps, delta=delta,
        batch_size=batch_size(batch, size), steps=steps, private_step_size=eta, step_size=LR_STEP, ridge=LR_RIDGE,
        noise=noise, record_every=max(1, steps // 40)))
