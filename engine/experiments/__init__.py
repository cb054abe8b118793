"""Simulation studies returning tidy pandas DataFrames; run them with ``python -m engine.experiments``.

Each study module exposes ``run(*, reps, seed, progress=None, **settings) -> dict[str, DataFrame]``
and ``figures(results) -> dict[str, plotly Figure]``.
"""

from __future__ import annotations

import importlib

STUDIES = {
    "reimherr-fig1": ("engine.experiments.reimherr_fig1",
                      "Figure 1 of Reimherr et al. 2021: sensitivity and utility on SPD(2) and S^2"),
    "sampler-check": ("engine.experiments.sampler_check",
                      "Exact vs Metropolis–Hastings Laplace samplers: KS distance and draws per second"),
    "dp-rgd-eigenvector": ("engine.experiments.dp_rgd_eigenvector",
                           "Han et al.: private principal eigenvector on the sphere, excess risk against ε"),
    "dp-rgd-frechet": ("engine.experiments.dp_rgd_frechet",
                       "Han et al.: private Fréchet mean on SPD (affine or Bures–Wasserstein), excess risk against n"),
    "dp-rgd-hyperbolic": ("engine.experiments.dp_rgd_hyperbolic",
                          "Han et al.: private structured prediction on the Poincaré disk"),
    "dp-rgd-matrix-completion": ("engine.experiments.dp_rgd_matrix_completion",
                                 "Han et al.: private low-rank matrix completion on the Grassmannian"),
    "kulkarni-soto-fig1": ("engine.experiments.kulkarni_soto_fig1",
                           "Kulkarni & Soto Figure 1: log energy of private geodesic regression on shapes against ε, "
                           "and Table 1 checked by simulation"),
    "kulkarni-soto-fig2": ("engine.experiments.kulkarni_soto_fig2",
                           "Kulkarni & Soto Figure 2: predicted shapes at ages 60-80, non-private and private"),
}


def load(name: str):
    """The module of study ``name``; ``ValueError`` naming the known studies otherwise."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r}; known: {', '.join(STUDIES)}")
    return importlib.import_module(STUDIES[name][0])
