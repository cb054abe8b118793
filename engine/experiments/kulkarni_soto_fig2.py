"""Kulkarni & Soto, Figure 2: predicted shapes at ages 60, 65, 70, 75, 80 from the non-private and the
private geodesic (ε_p = ε_v = 0.3), on the synthetic corpus-callosum stand-in (n = 100, k = 50).

The predictions are Exp(p, x v) at x = (age − 70)/10, aligned to the non-private prediction at the
same age (ordinary Procrustes) so the outlines overlay as in the paper's figure.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from engine.data.regression import age_covariate, callosum_data, callosum_template
from engine.estimators.geodesic_regression import energy
from engine.manifolds import Kendall
from engine.mechanisms.dp_geodesic_regression import PrivateGeodesicRegression
from engine.validation import check_int, check_positive

AGES = (60.0, 65.0, 70.0, 75.0, 80.0)


@dataclass(frozen=True)
class Fig2Config:
    """Every parameter of the study."""

    releases: int = 1
    seed: int = 0
    n: int = 100
    k: int = 50
    noise: float = 0.003
    tau: float = 0.05
    ball_radius: float = float(np.pi / 16)
    eps_p: float = 0.3
    eps_v: float = 0.3
    ages: tuple = AGES
    scale: str = "private"
    clip_residuals: bool = True

    def __post_init__(self):
        check_int("releases", self.releases)
        check_positive("eps_p", self.eps_p)
        check_positive("eps_v", self.eps_v)
        for age in self.ages:
            if not 60 <= float(age) <= 80:
                raise ValueError(f"ages must lie in [60, 80], got {age!r}")


def run(*, reps=None, progress=None, **settings) -> dict[str, pd.DataFrame]:
    """Predicted outlines (tidy: source, release, age, landmark, x, y) and their Procrustes distances.

    Returns
    -------
    ``{"shapes": source ("non-private" or "private"), release, age, landmark, x, y;
    "distances": release, age, procrustes_distance, energy_private, energy_nonprivate}``
    """
    if reps is not None:
        settings["releases"] = reps
    known = {f.name for f in fields(Fig2Config)}
    if set(settings) - known:
        raise ValueError(f"unknown settings {sorted(set(settings) - known)}; known: {sorted(known)}")
    config = Fig2Config(**settings)
    m = Kendall(config.k)
    data_stream, release_stream = np.random.SeedSequence(config.seed).spawn(2)
    ages, y = callosum_data(config.n, k=config.k, noise=config.noise, rng=np.random.default_rng(data_stream))
    x = age_covariate(ages)
    mech = PrivateGeodesicRegression(manifold=m, n=config.n, epsilon_p=config.eps_p, epsilon_v=config.eps_v,
                                     tau=config.tau, ball_center=callosum_template(70.0, k=config.k),
                                     ball_radius=config.ball_radius, scale=config.scale,
                                     clip_residuals=config.clip_residuals)
    out = mech.release(x, y, size=config.releases, rng=np.random.default_rng(release_stream), diagnostics=False)
    grid = age_covariate(np.asarray(config.ages, dtype=float))
    truth = m.geodesic(out.fit.footpoint, out.fit.velocity, grid)
    private = m.align(truth[:, None], m.geodesic(out.points, out.velocity, grid))
    frames = [_outline_rows(truth, "non-private", 0, config.ages)]
    frames += [_outline_rows(private[:, r], "private", r, config.ages) for r in range(config.releases)]
    e_private = energy(m, out.points, out.velocity, x, y)
    dist = pd.DataFrame([{"release": r, "age": age, "procrustes_distance": float(m.dist(truth[a], private[a, r])),
                          "energy_private": float(e_private[r]), "energy_nonprivate": float(out.fit.energy)}
                         for r in range(config.releases) for a, age in enumerate(config.ages)])
    if progress is not None:
        progress(1.0)
    return {"shapes": pd.concat(frames, ignore_index=True), "distances": dist}


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
