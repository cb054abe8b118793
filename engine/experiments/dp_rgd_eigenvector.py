"""Private principal eigenvector on the sphere (§5.1 and §6.3 of Han, Mishra, Jawanpuria & Gao).

Problem (2): minimise F(w) = −(1/n) Σ_i (wᵀz_i)² over S^{d−1};
T = ⌈log(n²ε²/(d L0² log(1/δ)))⌉ (Theorem 4, at least 1); δ = 1e-3; repeats vectorised.

Clipping norm. The paper takes L0 = max_i 2‖z_i‖² from the data, so its ε holds only if that
maximum were public. Here every record is first clipped into a public ball, z_i ← z_i·min(1,
R/‖z_i‖), with R = √(d/n) by default (``public_radius``: with the data scaled to ‖Z‖₂ = 1, Σ‖z_i‖² =
‖Z‖_F² <= d, so R is the largest root-mean-square record norm), and L0 = 2R² (``private_problem``).
L0 then depends on n and d only; the methods run on the clipped records and their excess risk is
measured on the original data. The scaling to ‖Z‖₂ = 1 is still the paper's data-dependent
preprocessing: the guarantee treats the scaled records as the data.

Methods (all (ε, δ)-DP for replace-one neighbours of clipped records):

* ``dp-rgd``: Algorithm 1, full batch, last iterate, tangent noise N_w(0, σ²);
* ``dp-pgd``: w ← (w − η(ḡ + ζ))/‖·‖ with the clipped mean Euclidean gradient ḡ (per-example
  norm ‖2(wᵀz_i)z_i‖ <= L0) and ζ ~ N(0, σ² I_d) in the ambient space: the same σ and T, hence the
  same (ε, δ);
* ``analyze gauss`` (Dwork, Talwar, Thakurta & Zhang 2014): top eigenvector of A + E, E symmetric
  with i.i.d. N(0, s²) upper triangle, s = (L0/n)·√(2 ln(1.25/δ))/ε — L0/n bounds the Frobenius
  change of A = (1/n)Σ z_i z_iᵀ when one record is replaced (the notes' s = L0·√(2 ln(1.25/δ))/ε
  is the same rule for the unnormalised Σ z_i z_iᵀ).

The non-private optimum is the top eigenvector of A (``PrincipalEigenvector.top_eigenvector``,
an eigen-decomposition), whose excess risk is 0 by definition.

Step sizes are quoted as in the paper (0.9 for DP-RGD, 10 for DP-PGD) for data scaled to
‖Z‖₂ = 1 and the sum objective −wᵀZᵀZw; on F that is η = step·n. The paper's public code
adds noise of the size calibrated for F to the gradient of the sum objective, i.e. n times too
little noise for the stated guarantee; here σ is calibrated for the averaged gradient.

``excess_risk`` is |wᵀAw − λ_max|/λ_max on the original records, which equals the paper's
|wᵀZᵀZw − 1| when ‖Z‖₂ = 1.

The data, the clipping and the step rule are shared with the Private optimization page
(``engine.pipelines.dp_rgd_setting.eigenvector``).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.estimators.riemannian_problems import PrincipalEigenvector
from engine.experiments.protocol import WORD, Task, make_config, normalise_seed, replicate_blocks, task_seed
from engine.mechanisms.dp_rgd import DPRGD
from engine.mechanisms.gaussian import classical_gaussian_sigma
from engine.pipelines.dp_rgd_setting.eigenvector import DATASETS, load_data, private_problem, steps_rule
from engine.validation import check_int, check_positive, check_probability

EPSILONS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 0.7)
METHODS = ("dp-rgd", "dp-pgd", "analyze gauss")
COLORS = {"dp-pgd": "#D55E00", "analyze gauss": "#56B4E9"}


def dp_pgd(problem: PrincipalEigenvector, init, *, sigma: float, steps: int, step_size: float, rng):
    """Noisy projected gradient descent in R^d on clipped records (``private_problem``), batched over
    starts ``init`` ``(R, d)``: w ← (w − η(ḡ + ζ))/‖·‖, ζ ~ N(0, σ² I_d).

    Every Euclidean per-example gradient −2(wᵀz_i)z_i has norm <= 2‖z_i‖² <= L0 = 2R², so clipping
    at L0 changes nothing and the clipped mean ḡ is exactly −2Aw (O(d²) per step).
    """
    w = np.array(init, dtype=float)
    for _ in range(steps):
        grad = -2.0 * w @ problem.covariance
        w = w - step_size * (grad + sigma * rng.standard_normal(w.shape))
        w /= np.linalg.norm(w, axis=-1, keepdims=True)
    return w


def analyze_gauss(problem: PrincipalEigenvector, reps: int, *, epsilon: float, delta: float, clip: float, rng):
    """Top eigenvectors ``(reps, d)`` of A + E, E symmetric Gaussian (see module notes); ``clip`` is the
    public L0 = 2R² of records clipped to norm R."""
    d = problem.d
    scale = classical_gaussian_sigma(epsilon, delta, clip / problem.n)
    upper = np.triu(scale * rng.standard_normal((reps, d, d)))
    noisy = problem.covariance + upper + np.swapaxes(np.triu(upper, 1), -1, -2)
    return np.linalg.eigh(noisy)[1][..., -1]

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("risk", "summary")


@dataclass(frozen=True)
class Config:
    """Settings of the study (see ``run``); ``block`` repeats per task."""

    reps: int = 20
    seed: int | tuple[int, ...] = 0
    epsilons: tuple[float, ...] = EPSILONS
    datasets: tuple[str, ...] = ("synthetic", "china-patches")
    n: int = 20_000
    d: int = 50
    eigengap: float = 1e-3
    delta: float = 1e-3
    rgd_step: float = 0.9
    pgd_step: float = 10.0
    noise: str = "calibrated"
    radius: float | None = None
    block: int = 20

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps))
        set_("seed", normalise_seed(self.seed))
        set_("epsilons", tuple(check_positive("epsilon", e) for e in self.epsilons))
        set_("delta", check_probability("delta", self.delta))
        set_("radius", None if self.radius is None else check_positive("radius", self.radius))
        set_("block", check_int("block", self.block))
        if self.noise not in ("calibrated", "paper"):
            raise ValueError(f"noise must be 'calibrated' or 'paper', got {self.noise!r}")
        set_("datasets", tuple(self.datasets))
        for name in self.datasets:
            if name not in DATASETS:
                raise ValueError(f"dataset must be one of {DATASETS}, got {name!r}")


@functools.lru_cache(maxsize=4)
def dataset_problem(name: str, n: int, d: int, eigengap: float, seed,
                    radius: float | None) -> tuple[PrincipalEigenvector, PrincipalEigenvector, float]:
    """The problem of data set ``name`` (its synthetic draw seeded by the run's key ``("data", name)``),
    the problem the private methods see (records clipped to the public radius) and the public L0
    (cached per process: every task of a data set shares them; treat them as read-only)."""
    rng = np.random.default_rng(task_seed(seed, ("data", name)))
    data = load_data(name, n=n, d=d, eigengap=eigengap, rng=rng)
    problem, clip, _ = private_problem(data, radius)
    return PrincipalEigenvector(data), problem, clip


def tasks(config: Config) -> list[Task]:
    """One task per (data set, ε, block of repeats), keyed ``(data set, ε, first repeat)``."""
    return [Task((name, eps, start), excess_risks, (config, name, eps, start, stop))
            for name in config.datasets for eps in config.epsilons
            for start, stop in replicate_blocks(config.reps, config.block)]


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the data sets and of the risk table (``protocol.check_footprint``)."""
    cells = len(config.datasets) * len(config.epsilons)
    return {
        f"the data sets ({len(config.datasets)} × 2 copies of n = {config.n:.3g} × d = {config.d:.3g})":
            len(config.datasets) * 2 * config.n * config.d * WORD,
        f"the risk table ({cells} cells × 3 methods × reps = {config.reps:.3g} rows of 9 columns)":
            cells * len(METHODS) * config.reps * 9 * WORD,
    }


def excess_risks(config: Config, name: str, eps: float, start: int, stop: int, *, rng) -> pd.DataFrame:
    """Rows of the ``risk`` table for repeats ``start`` to ``stop - 1`` of every method at ε."""
    truth, problem, clip = dataset_problem(name, config.n, config.d, config.eigengap, config.seed, config.radius)
    reps, delta = stop - start, config.delta
    steps = steps_rule(problem.n, problem.d, eps, clip, delta)
    init = problem.manifold.random_point(reps, rng)
    mech = DPRGD(epsilon=eps, delta=delta, clip=clip, steps=steps, step_size=config.rgd_step * problem.n,
                 sigma=None if config.noise == "calibrated" else "paper")
    private = mech.fit(problem, init, rng=rng)
    outputs = {
        "dp-rgd": (private.points, private.epsilon_spent),
        "dp-pgd": (dp_pgd(problem, init, sigma=private.sigma, steps=steps,
                          step_size=config.pgd_step * problem.n, rng=rng), private.epsilon_spent),
        "analyze gauss": (analyze_gauss(problem, reps, epsilon=eps, delta=delta, clip=clip, rng=rng), eps),
    }
    return pd.concat([pd.DataFrame({
        "method": method, "dataset": name, "epsilon": eps, "repeat": np.arange(start, stop),
        "excess_risk": truth.excess_risk(w) / truth.lambda_max, "steps": steps, "clip": clip,
        "sigma": private.sigma if method in ("dp-rgd", "dp-pgd") else np.nan,
        "epsilon_spent": spent,
    }) for method, (w, spent) in outputs.items()], ignore_index=True)


def combine(config: Config, outputs: list[pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The ``risk`` rows in task order and their mean and SE per (method, data set, ε)."""
    risk = pd.concat(outputs, ignore_index=True)
    summary = (risk.groupby(["method", "dataset", "epsilon"], sort=False)["excess_risk"]
               .agg(mean="mean", se=lambda s: s.std(ddof=1) / np.sqrt(len(s))).reset_index())
    return {"risk": risk, "summary": summary}


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Excess risk of each method over ε, ``reps`` repeats per (data set, ε), in-process.

    Parameters
    ----------
    reps, seed : repeats and the root ``SeedSequence(seed)`` of the run's task keys.
    epsilons : ε values; datasets : names from ``DATASETS``.
    n, d, eigengap : synthetic data size (the paper's d = 50, ν = 1e-3; n = 20,000 by default
        because with correctly calibrated noise n = 2,000 leaves every method at chance level).
    delta : δ; rgd_step, pgd_step : step sizes in the paper's units (see module notes).
    noise : "calibrated" (σ from the RDP accountant: ε is met exactly) or "paper" (σ² =
        T log(1/δ) L0²/(n²ε²), whose accountant ε is reported in ``epsilon_spent``).
    block : repeats per task.
    radius : public bound R on the records' norm (default ``public_radius(n, d)`` of each data set);
        records are clipped to it and L0 = 2R².
    progress : optional callable receiving the completed fraction.

    Returns
    -------
    ``{"risk": method, dataset, epsilon, repeat, excess_risk, steps, sigma, epsilon_spent;
    "summary": method, dataset, epsilon, mean, se}`` (``risk`` also holds ``clip``, the public L0).
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def figures(results) -> dict:
    """Mean excess risk ± 2 SE against ε, one log–log figure per data set."""
    from engine.viz.curves import band_figure

    summary = results["summary"]
    return {
        f"excess-risk-{name}": band_figure(
            rows.fillna({"se": 0.0}), x="epsilon", y="mean", se="se", group="method", log_x=True, log_y=True,
            colors=COLORS, title=f"Principal eigenvector ({name})", x_title="ε",
            y_title="excess risk |wᵀAw − λ_max|/λ_max")
        for name, rows in summary.groupby("dataset", sort=False)
    }
