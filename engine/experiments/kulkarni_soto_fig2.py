"""Kulkarni & Soto, Figure 2: predicted shapes at ages 60, 65, 70, 75, 80 from the non-private and the
private geodesic (ε_p = ε_v = 0.3), on the synthetic corpus-callosum stand-in (n = 100, k = 50).

The predictions are Exp(p, x v) at x = (age − 70)/10, aligned to the non-private prediction at the
same age (ordinary Procrustes) so the outlines overlay as in the paper's figure.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.data.regression import age_covariate, callosum_data, callosum_template
from engine.estimators.geodesic_regression import energy
from engine.experiments.kulkarni_soto_setting import check_callosum_setting
from engine.experiments.protocol import WORD, Task, make_config
from engine.manifolds import Kendall
from engine.mechanisms.dp_geodesic_regression import PrivateGeodesicRegression
from engine.validation import check_positive

AGES = (60.0, 65.0, 70.0, 75.0, 80.0)

#: The tables of a run, in the order ``combine`` returns them (the cache checks its entries against them).
TABLES = ("shapes", "distances")


@dataclass(frozen=True)
class Config:
    """Every setting of the study; ``reps`` private geodesics drawn (one in the paper's figure)."""

    reps: int = 1
    seed: int | tuple[int, ...] = 0
    n: int = 100
    k: int = 50
    noise: float = 0.003
    tau: float = 0.05
    ball_radius: float = float(np.pi / 16)
    eps_p: float = 0.3
    eps_v: float = 0.3
    ages: tuple[float, ...] = AGES
    scale: str = "private"
    clip_residuals: bool = True

    def __post_init__(self):
        check_callosum_setting(self)
        set_ = functools.partial(object.__setattr__, self)
        set_("eps_p", check_positive("eps_p", self.eps_p))
        set_("eps_v", check_positive("eps_v", self.eps_v))
        set_("ages", tuple(float(age) for age in self.ages))
        for age in self.ages:
            if not 60 <= age <= 80:
                raise ValueError(f"ages must lie in [60, 80], got {age!r}")


def tasks(config: Config) -> list[Task]:
    """One task, keyed ``("shapes",)``: the data set, its fit and every private release share one draw."""
    return [Task(("shapes",), predicted_shapes, (config,), cost=config.reps * config.n)]


def footprint(config: Config) -> dict[str, float]:
    """Lower estimate of the bytes of the data and of the outlines (``protocol.check_footprint``)."""
    outlines = (1 + config.reps) * len(config.ages) * config.k
    return {
        f"the data set (n = {config.n:.3g} shapes of k = {config.k:.3g} landmarks)": config.n * config.k * 2 * WORD,
        f"the shapes table ((1 + reps = {config.reps:.3g}) × {len(config.ages)} ages × k = {config.k:.3g} "
        f"landmarks, 6 columns)": outlines * 6 * WORD,
    }


def predicted_shapes(config: Config, *, rng) -> dict[str, pd.DataFrame]:
    """The data set, its fit, ``config.reps`` private geodesics and their outlines at ``config.ages``."""
    m = Kendall(config.k)
    ages, y = callosum_data(config.n, k=config.k, noise=config.noise, rng=rng)
    x = age_covariate(ages)
    mech = PrivateGeodesicRegression(manifold=m, n=config.n, epsilon_p=config.eps_p, epsilon_v=config.eps_v,
                                     tau=config.tau, ball_center=callosum_template(70.0, k=config.k),
                                     ball_radius=config.ball_radius, scale=config.scale,
                                     clip_residuals=config.clip_residuals)
    out = mech.release(x, y, size=config.reps, rng=rng, diagnostics=False)
    grid = age_covariate(np.asarray(config.ages))
    truth = m.geodesic(out.fit.footpoint, out.fit.velocity, grid)
    private = m.align(truth[:, None], m.geodesic(out.points, out.velocity, grid))
    frames = [_outline_rows(truth, "non-private", 0, config.ages)]
    frames += [_outline_rows(private[:, r], "private", r, config.ages) for r in range(config.reps)]
    e_private = energy(m, out.points, out.velocity, x, y)
    dist = pd.DataFrame([{"release": r, "age": age, "procrustes_distance": float(m.dist(truth[a], private[a, r])),
                          "energy_private": float(e_private[r]), "energy_nonprivate": float(out.fit.energy)}
                         for r in range(config.reps) for a, age in enumerate(config.ages)])
    return {"shapes": pd.concat(frames, ignore_index=True), "distances": dist}


def combine(config: Config, outputs: list) -> dict[str, pd.DataFrame]:
    """The one task's tables."""
    return outputs[0]


def run(*, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Predicted outlines and their Procrustes distances, in-process (``Config`` lists the settings).

    Returns
    -------
    ``{"shapes": source ("non-private" or "private"), release, age, landmark, x, y;
    "distances": release, age, procrustes_distance, energy_private, energy_nonprivate}``
    """
    from engine.experiments import runner

    return runner.run(sys.modules[__name__], make_config(Config, settings), progress=progress)


def _outline_rows(shapes, source, release, ages) -> pd.DataFrame:
    k = shapes.shape[-2]
    return pd.DataFrame({
        "source": source, "release": release, "age": np.repeat(np.asarray(ages, dtype=float), k),
        "landmark": np.tile(np.arange(k), len(ages)), "x": shapes[..., 0].ravel(), "y": shapes[..., 1].ravel(),
    })


def figures(results) -> dict:
    """The outlines at each age, non-private and private overlaid."""
    from engine.viz.regression import figure2_outlines

    return {"predicted-shapes": figure2_outlines(results["shapes"])}
