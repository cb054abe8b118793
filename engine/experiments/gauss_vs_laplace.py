"""The sphere comparison of Jiang, Chang, Liu, Ding, Kong & Jiang (NeurIPS 2023): the Riemannian Gaussian against
the Riemannian Laplace at equal privacy, over the dimension d of Sᵈ and the sample size n.

Setting: the Fréchet mean of n records in the ball B_r(m0) of Sᵈ (r = π/8 by default), sensitivity Δ from
Theorem 2 of Reimherr, Bharath & Soto (2021). Equal privacy is equal μ-GDP: each mechanism's σ is the smallest
whose exact μ (``engine.mechanisms.gdp``, quadrature; the Laplace's loss (ρ′ − ρ)/σ, the Gaussian's
(ρ′² − ρ²)/(2σ²)) is at most ``mu``. Error: the geodesic distance ρ(release, x̄) to the private Fréchet mean,
the privacy cost alone; its law is the mechanism's radial law, so each cell draws ``reps`` exact radii (the
mechanisms' own samplers) and also reports the exact mean radius by quadrature. The paper reports errors against
the population mean, which adds the same sampling error to both mechanisms.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.bounds import frechet_mean_sensitivity
from engine.experiments.protocol import WORD, Task, make_config, normalise_seed
from engine.manifolds import Sphere
from engine.mechanisms import gdp
from engine.mechanisms.laplace import radial_law
from engine.mechanisms.radial import sample_radius
from engine.mechanisms.riemannian_gaussian import gaussian_radial_log_density, sample_gaussian_radius
from engine.spaces.family import power_name
from engine.validation import check_int, check_positive

TABLES = ("errors",)
MECHANISMS = {gdp.GAUSSIAN: "Riemannian Gaussian", gdp.LAPLACE: "Riemannian Laplace"}
#: Sᵈ as the page and the figure write it (S¹, S⁹).
sphere_name = power_name("S")


@dataclass(frozen=True)
class Config:
    """Settings: dimensions d of Sᵈ, sample sizes n, the common μ, the data radius r, draws per cell."""

    reps: int = 4000
    seed: int | tuple[int, ...] = 0
    dims: tuple[int, ...] = (1, 2, 4, 9)
    ns: tuple[int, ...] = (10, 20, 40, 80, 160)
    mu: float = 1.0
    radius: float = float(np.pi / 8)

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("reps", check_int("reps", self.reps, minimum=2))
        set_("seed", normalise_seed(self.seed))
        set_("dims", tuple(check_int("dims", d) for d in self.dims))
        set_("ns", tuple(check_int("ns", n, minimum=2) for n in self.ns))
        set_("mu", check_positive("mu", self.mu))
        set_("radius", check_positive("radius", self.radius))
        frechet_mean_sensitivity(min(self.ns), self.radius, 1.0)  # Theorem 2's domain, one line if outside


def tasks(config: Config) -> list[Task]:
    """One task per (d, n, mechanism)."""
    return [Task((d, n, power), cell, (d, n, power, config.mu, config.radius, config.reps))
            for d in config.dims for n in config.ns for power in MECHANISMS]


def footprint(config: Config) -> dict[str, float]:
    """The draws of one task and the table."""
    cells = len(config.dims) * len(config.ns) * len(MECHANISMS)
    return {f"one task's radii (reps = {config.reps:.3g})": config.reps * WORD,
            f"the errors table ({cells} rows of 9 columns)": cells * 9 * WORD}


def _mean_radius(manifold, sigma: float, power: int) -> float:
    """E ρ under the radial law ∝ e^{−g(ρ)} J(ρ) on [0, π], by the trapezoidal rule on 20,001 points."""
    law = radial_law(manifold)
    grid = np.linspace(0.0, law.support, 20001)
    log_f = (gaussian_radial_log_density(law, grid, sigma) if power == gdp.GAUSSIAN
             else law.log_density(grid, sigma))
    f = np.exp(log_f - np.max(log_f))
    return float(np.trapezoid(grid * f, grid) / np.trapezoid(f, grid))


def cell(d: int, n: int, power: int, mu: float, radius: float, reps: int, *, rng) -> dict:
    """σ at μ-GDP ``mu`` for Δ = Theorem 2's bound of n records in B_r on Sᵈ, and the error of ``reps`` releases."""
    m = Sphere(d)
    delta = float(frechet_mean_sensitivity(n, radius, 1.0))
    sigma = gdp.sigma_for_mu(m, mu, delta, power=power)
    law = radial_law(m)
    rho = sample_gaussian_radius(law, sigma, reps, rng) if power == gdp.GAUSSIAN else sample_radius(law, sigma, reps,
                                                                                                       rng)
    return {"d": d, "n": n, "mechanism": MECHANISMS[power], "sensitivity": delta, "sigma": sigma, "mu": mu,
            "mean_error": float(rho.mean()), "error_se": float(rho.std(ddof=1) / np.sqrt(reps)),
            "exact_mean_error": _mean_radius(m, sigma, power)}


def combine(config: Config, outputs: list[dict]) -> dict[str, pd.DataFrame]:
    """One row per (d, n, mechanism), in task order."""
    return {"errors": pd.DataFrame(outputs)}


def ratios(errors: pd.DataFrame) -> pd.DataFrame:
    """Exact mean error of the Gaussian over the Laplace's, per (d, n): below 1 where the Gaussian wins."""
    wide = errors.pivot_table(index=["d", "n"], columns="mechanism", values="exact_mean_error")
    return (wide[MECHANISMS[gdp.GAUSSIAN]] / wide[MECHANISMS[gdp.LAPLACE]]).rename("ratio").reset_index()


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """The comparison in-process (``runner.run``)."""
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def reading(errors: pd.DataFrame) -> str:
    """Where the paper's claim (the Gaussian's error below the Laplace's at equal privacy on Sᵈ) holds in ``errors``,
    in plain text: per d the ratio of the exact mean errors (``ratios``) over the n run, and how it moves with d."""
    found = ratios(errors)
    mu = float(errors["mu"].iloc[0])
    per_d = found.groupby("d", sort=False)["ratio"].agg(["min", "max"])
    spans = [f"{_span(row['min'], row['max'])} on {sphere_name(d)}" for d, row in per_d.iterrows()]
    won = per_d[per_d["max"] < 1].index.tolist()
    lost = per_d[per_d["max"] >= 1].index.tolist()
    ns = sorted(found["n"].unique())
    where = f"n = {ns[0]}" if len(ns) == 1 else f"n = {ns[0]}–{ns[-1]}"
    if not lost:
        verdict = "The claim holds at every d and n run: the Gaussian's error is the smaller everywhere"
    elif not won:
        verdict = "The claim does not hold here: the Gaussian's error is never the smaller"
    else:
        verdict = (f"The claim holds on {', '.join(sphere_name(d) for d in won)} and not on "
                   f"{', '.join(sphere_name(d) for d in lost)}")
    means = per_d.mean(axis=1)
    trend = ("; the advantage shrinks as d grows" if len(means) > 1 and means.is_monotonic_increasing and won else
             "; the advantage grows with d" if len(means) > 1 and means.is_monotonic_decreasing and won else "")
    return (f"{verdict}{trend}. Error of the Gaussian over the Laplace's at equal μ = {mu:g} ({where}): "
            f"{', '.join(spans)}.")


def _span(low: float, high: float) -> str:
    """"0.770" or "0.954–0.960": three decimals, one number when they agree."""
    a, b = f"{low:.3f}", f"{high:.3f}"
    return a if a == b else f"{a}–{b}"


def figures(results: dict[str, pd.DataFrame]) -> dict:
    """Mean error against n, one line per (mechanism, d), log axes (``engine.viz.gauss_vs_laplace``)."""
    from engine.viz.gauss_vs_laplace import gauss_vs_laplace_figure

    return {"errors": gauss_vs_laplace_figure(results["errors"])}
