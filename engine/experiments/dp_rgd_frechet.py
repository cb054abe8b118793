"""Private Fréchet mean on SPD(2) (§5.2/§6.1) and Wasserstein barycenter (§5.3/§6.2) of Han,
Mishra, Jawanpuria & Gao: DP-RGD against output perturbation with the Riemannian Laplace and the
K-norm gradient mechanism.

Objective F(W) = (1/(2n)) Σ_i d²(W, X_i) (``FrechetMeanProblem``; the paper's code reports
(1/n) Σ d², twice our excess risk). Per n: one Wishart W(I/2, 2) data set kept within ``radius``
of I (``engine.data.spd_wishart``), its exact minimiser W* by Riemannian gradient descent (step 1,
‖grad F‖ < 1e-8), and ``reps`` independent releases of each method; metric F(W) − F(W*).

* ``dp-rgd``: Algorithm 1, full batch, T = n, η = 0.01, clipping norm L0, start at I (public),
  last iterate; σ calibrated by the RDP accountant (``noise="calibrated"``) or the paper's
  σ² = T log(1/δ) L0²/(n²ε²) (``noise="paper"``, spending the ``epsilon_spent`` reported).
* ``riemannian laplace`` (FM-LAP, Reimherr et al. 2021): Laplace draw around W* with the
  Theorem 2 sensitivity Δ (``engine.bounds.frechet_mean_sensitivity`` for radius r and the
  curvature bound of the data ball). Affine metric: homogeneous, σ = Δ/ε = 2/(nε) for r = 1,
  exact sampler. Bures–Wasserstein: the normalising constant depends on the footpoint, so
  σ = 2Δ/ε, and the law (conditioned on the public data ball) is sampled by the random-walk MH
  chain of ``engine.mechanisms.mcmc`` — approximate; its acceptance rate is reported.
* ``k-norm gradient`` (FM-KNG, Soto et al. 2022): a draw from ∝ exp(−‖grad F(W)‖_W/σ) on the
  public data ball B_r(I), σ = 2Δ_∇/ε (``engine.mechanisms.kng``). Affine metric (Hadamard):
  Δ_∇ = 2r/n, σ = 4r/(nε), the value Han et al. quote. Without the ball this law would not be
  normalisable for σ >= √2 (n <= 28 at r = 1, ε = 0.1), and the ball contains the data and W*, so
  conditioning on it costs nothing in privacy. Bures–Wasserstein (curvature ≤ κ_max > 0 on the
  ball): Δ_∇ = 2r(2 − h(r, κ_max))/n, valid for W in the ball only (Reimherr et al. supplement
  Lemma 1), hence the ball is required there. Sampled by ``metropolis_hastings`` with one chain
  per release started at the non-private mean, burn-in ``kng_burn_in`` (default 2,000; Han et al.
  use 5,000 with a fixed step; with the adapted step the excess risks after 2,000 and after
  6,000–10,000 steps agree, two-sample KS p > 0.3 over 100–200 chains at n = 20 and 300 for
  both metrics), step adapted to acceptance 0.3 — approximate (on Bures–Wasserstein also because
  the random walk is not symmetric there); mean acceptance rate and ESS are reported.

Bures–Wasserstein domain (§5.3): data in B_r(I), so the domain has diameter D = 2r and sectional
curvature at most κ_max = 3/(√2 − r)² (``SPD.kappa_max_ball``); F is geodesically strongly convex
when D < π/(2√κ_max), checked here. Default r = 0.3 and L0 = 0.3, the values of the paper's code
(which calls r the diameter D_W): then D = 0.6 < π/(2√κ_max) = 1.01.
The defaults and the check are shared with the Private optimization page
(``engine.pipelines.dp_rgd_setting.frechet``).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.bounds import frechet_gradient_sensitivity, frechet_mean_sensitivity
from engine.data import spd_wishart
from engine.estimators.erm import riemannian_gradient_descent
from engine.estimators.riemannian_problems import FrechetMeanProblem
from engine.experiments.protocol import WORD, Task, make_config, normalise_seed, replicate_blocks, task_seed
from engine.manifolds.spd import SPD
from engine.mechanisms.dp_rgd import DPRGD
from engine.mechanisms.kng import KNormGradient
from engine.mechanisms.laplace import RiemannianLaplace
from engine.pipelines.dp_rgd_setting.frechet import DEFAULTS, domain_curvature
from engine.validation import check_int, check_positive, check_probability

NS = tuple(range(20, 301, 20))
# engine.viz.palette has no K-norm gradient key; this figure borrows the Okabe–Ito bluish green,
# whose palette owner (the tangent Gaussian) does not appear in it.
COLORS = {"k-norm gradient": "#009E73"}

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("risk", "summary", "optimum")


@dataclass(frozen=True)
class Config:
    """Settings of the study (see ``run``); ``radius`` and ``clip`` default per metric (``DEFAULTS``)."""

    reps: int = 20
    seed: int | tuple[int, ...] = 0
    ns: tuple[int, ...] = NS
    metric: str = "affine"
    epsilon: float = 0.1
    delta: float = 1e-3
    radius: float | None = None
    clip: float | None = None
    step_size: float = 0.01
    noise: str = "calibrated"
    laplace_burn_in: int = 2_000
    kng_burn_in: int = 2_000
    block: int = 20

    def __post_init__(self):
        if self.metric not in DEFAULTS:
            raise ValueError(f"metric must be one of {tuple(DEFAULTS)}, got {self.metric!r}")
        if self.noise not in ("calibrated", "paper"):
            raise ValueError(f"noise must be 'calibrated' or 'paper', got {self.noise!r}")
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps))
        set_("seed", normalise_seed(self.seed))
        set_("ns", tuple(check_int("n", n) for n in self.ns))
        set_("epsilon", check_positive("epsilon", self.epsilon))
        set_("delta", check_probability("delta", self.delta))
        defaults = DEFAULTS[self.metric]
        set_("radius", check_positive("radius", defaults["radius"] if self.radius is None else self.radius))
        set_("clip", check_positive("clip", defaults["clip"] if self.clip is None else self.clip))
        set_("laplace_burn_in", check_int("laplace_burn_in", self.laplace_burn_in))
        set_("kng_burn_in", check_int("kng_burn_in", self.kng_burn_in))
        set_("block", check_int("block", self.block))
        domain_curvature(SPD(2, metric=self.metric), self.radius)


@functools.lru_cache(maxsize=8)
def optimum(metric: str, n: int, radius: float, seed):
    """``(problem, best)``: the data set of size n, drawn with the run's key ``("data", n)``, and its
    exact minimiser (cached per process: every block of n shares them; treat them as read-only)."""
    rng = np.random.default_rng(task_seed(seed, ("data", n)))
    manifold = SPD(2, metric=metric)
    problem = FrechetMeanProblem(manifold, spd_wishart(n, k=2, radius=radius, metric=metric, rng=rng))
    return problem, riemannian_gradient_descent(problem, manifold.origin, step=1.0, tol=1e-8)


def tasks(config: Config) -> list[Task]:
    """One task per (n, block of releases), keyed ``(n, first repeat)``."""
    return [Task((n, start), releases, (config, n, start, stop))
            for n in config.ns for start, stop in replicate_blocks(config.reps, config.block)]


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the risk table and of one task's K-norm gradients (``check_footprint``)."""
    block = min(config.block, config.reps)
    return {
        f"the risk table ({len(config.ns)} n × 3 methods × reps = {config.reps:.3g} rows of 7 columns)":
            len(config.ns) * 3 * config.reps * 7 * WORD,
        f"one task's gradient terms (block = {block:.3g} chains × n = {max(config.ns):.3g} points of 4 coordinates)":
            block * max(config.ns) * 4 * WORD,
    }


def releases(config: Config, n: int, start: int, stop: int, *, rng) -> dict:
    """Releases ``start`` to ``stop - 1`` of each method at sample size n.

    Returns ``{"risk": DataFrame, "optimum": dict, "laplace_acceptance", "kng_acceptance", "kng_ess":
    per-chain arrays}`` (the Laplace acceptance is empty for the exact affine sampler).
    """
    metric, radius, epsilon, reps = config.metric, config.radius, config.epsilon, stop - start
    problem, best = optimum(metric, n, radius, config.seed)
    manifold = problem.manifold
    kappa = domain_curvature(manifold, radius)
    identity = manifold.origin
    mech = DPRGD(epsilon=epsilon, delta=config.delta, clip=config.clip, steps=n, step_size=config.step_size,
                 sigma=None if config.noise == "calibrated" else "paper")
    private = mech.fit(problem, np.broadcast_to(identity, (reps, 2, 2)), rng=rng)
    lap = RiemannianLaplace(manifold=manifold, epsilon=epsilon,
                            sensitivity=float(frechet_mean_sensitivity(n, radius, kappa)),
                            **({} if metric == "affine" else {"ball_center": identity, "ball_radius": radius}))
    if metric == "affine":
        laplace = lap.release(best.point, size=reps, rng=rng)
    else:
        laplace = lap.release(np.broadcast_to(best.point, (reps, 2, 2)), rng=rng, method="mh",
                              burn_in=config.laplace_burn_in)
    acceptance = np.array([]) if laplace.exact else np.asarray(laplace.chain.acceptance_rate, dtype=float)
    kng = KNormGradient(manifold=manifold, epsilon=epsilon,
                        sensitivity=float(frechet_gradient_sensitivity(n, radius, kappa)),
                        ball_center=identity, ball_radius=radius)
    kng_release = kng.release(np.broadcast_to(problem.points, (reps,) + problem.points.shape), rng=rng,
                              burn_in=config.kng_burn_in)
    risk = pd.concat([pd.DataFrame({
        "method": method, "metric": metric, "n": n, "repeat": np.arange(start, stop),
        "excess_risk": problem.loss(points) - best.loss, "sigma": sigma, "epsilon_spent": spent,
    }) for method, points, sigma, spent in (("dp-rgd", private.points, private.sigma, private.epsilon_spent),
                                            ("riemannian laplace", laplace.points, laplace.sigma, epsilon),
                                            ("k-norm gradient", kng_release.points, kng_release.sigma, epsilon))],
        ignore_index=True)
    return {"risk": risk,
            "optimum": {"n": n, "n_iter": int(best.n_iter), "gradient_norm": float(best.gradient_norm),
                        "converged": bool(best.converged), "loss": float(best.loss)},
            "laplace_acceptance": acceptance,
            "kng_acceptance": np.asarray(kng_release.chain.acceptance_rate, dtype=float),
            "kng_ess": np.asarray(kng_release.chain.effective_sample_size, dtype=float)}


def combine(config: Config, outputs: list[dict]) -> dict[str, pd.DataFrame]:
    """Risk rows in task order, their summary per (method, n), and one ``optimum`` row per n with
    the acceptance rates and ESS averaged over every chain of that n."""
    risk = pd.concat([out["risk"] for out in outputs], ignore_index=True)
    summary = (risk.groupby(["method", "n"], sort=False)["excess_risk"]
               .agg(mean="mean", se=lambda s: s.std(ddof=1) / np.sqrt(len(s))).reset_index())
    rows = []
    for n in config.ns:
        blocks = [out for out in outputs if out["optimum"]["n"] == n]
        laplace = np.concatenate([out["laplace_acceptance"] for out in blocks])
        rows.append({**blocks[0]["optimum"],
                     "laplace_acceptance": float(np.mean(laplace)) if laplace.size else np.nan,
                     "kng_acceptance": float(np.mean(np.concatenate([out["kng_acceptance"] for out in blocks]))),
                     "kng_ess": float(np.mean(np.concatenate([out["kng_ess"] for out in blocks])))})
    return {"risk": risk, "summary": summary, "optimum": pd.DataFrame(rows)}


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Excess risk F(W) − F(W*) of DP-RGD, FM-LAP and FM-KNG over sample sizes n, in-process.

    Parameters
    ----------
    reps, seed : releases per (method, n) and the root ``SeedSequence(seed)`` of the run's task keys.
    ns : sample sizes; metric : "affine" (§6.1) or "bures-wasserstein" (§6.2).
    epsilon, delta : privacy target (the Laplace and K-norm gradient mechanisms are ε-DP, δ = 0).
    radius, clip : data radius r around I and clipping norm L0 (defaults: 1 and 1 for affine,
        0.3 and 0.3 for Bures–Wasserstein).
    step_size : η of DP-RGD; noise : "calibrated" or "paper" (see module notes).
    laplace_burn_in : burn-in of the MH chain (Bures–Wasserstein Laplace only).
    kng_burn_in : burn-in of the K-norm gradient chains (both metrics).
    block : releases per task.
    progress : optional callable receiving the completed fraction.

    Returns
    -------
    ``{"risk": method, metric, n, repeat, excess_risk, sigma, epsilon_spent;
    "summary": method, n, mean, se; "optimum": n, n_iter, gradient_norm, converged, loss,
    laplace_acceptance, kng_acceptance, kng_ess}`` (acceptance rates and ESS averaged over the
    chains; ``laplace_acceptance`` is NaN for the exact affine sampler).
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def figures(results) -> dict:
    """Mean excess risk ± 2 SE against n (log y)."""
    from engine.viz.curves import band_figure

    metric = results["risk"]["metric"].iloc[0]
    title = "Fréchet mean on SPD(2)" if metric == "affine" else "Bures–Wasserstein barycenter on SPD(2)"
    return {"excess-risk": band_figure(results["summary"].fillna({"se": 0.0}), x="n", y="mean", se="se",
                                       group="method", log_y=True, title=title, x_title="n",
                                       y_title="F(W) − F(W*)", colors=COLORS)}
