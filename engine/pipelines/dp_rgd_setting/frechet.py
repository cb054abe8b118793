"""The SPD(2) problems of Han, Mishra, Jawanpuria & Gao (§5.2–5.3, §6.1–6.2), shared by the study
``engine.experiments.dp_rgd_frechet`` and the Private optimization pipeline
(``engine.pipelines.private_optimization``): the data radius r and clipping norm L0 per metric and
the curvature bound of the data ball, with the Bures–Wasserstein convexity check.
"""

from __future__ import annotations

import numpy as np

from engine.manifolds.spd import SPD

DEFAULTS = {"affine": {"radius": 1.0, "clip": 1.0}, "bures-wasserstein": {"radius": 0.3, "clip": 0.3}}


def domain_curvature(manifold: SPD, radius: float) -> float:
    """κ_max over B_r(I) (0 for the affine metric); where it is positive (Bures–Wasserstein) also checks that the
    domain diameter 2r is below π/(2√κ_max), where F is geodesically strongly convex."""
    kappa = float(manifold.kappa_max_ball(manifold.origin, radius))
    if kappa > 0 and not 2.0 * radius < np.pi / (2.0 * np.sqrt(kappa)):
        raise ValueError(
            f"radius {radius!r} gives domain diameter {2 * radius:g}, not below pi/(2 sqrt(kappa_max)) = "
            f"{np.pi / (2 * np.sqrt(kappa)):.4g} (kappa_max = {kappa:.4g}): the barycenter problem is not "
            f"geodesically strongly convex there")
    return kappa
