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
from engine.validation import check_int, check_positive

TABLES = ("errors",)
MECHANISMS = {gdp.GAUSSIAN: "Riemannian Gaussian", gdp.LAPLACE: "Riemannian Laplace"}


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


def figures(results: dict[str, pd.DataFrame]) -> dict:
    """Mean error against n, one line per (mechanism, d), log axes."""
    import plotly.graph_objects as go

    fig = go.Figure()
    for (mechanism, d), rows in results["errors"].groupby(["mechanism", "d"], sort=False):
        fig.add_trace(go.Scatter(x=rows.n, y=rows.mean_error, mode="lines+markers", name=f"{mechanism}, S^{d}",
                                 error_y=dict(type="data", array=1.96 * rows.error_se),
                                 line=dict(dash="solid" if "Gaussian" in mechanism else "dot")))
    fig.update_layout(title="Error ρ(release, Fréchet mean) at equal μ-GDP", xaxis_title="n", yaxis_title="mean error",
                      xaxis_type="log", yaxis_type="log")
    return {"errors": fig}
