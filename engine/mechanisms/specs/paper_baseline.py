"""The Euclidean baseline of Figure 1 of Reimherr, Bharath & Soto (2021): the ambient noise σ_E =
2 r_E/(nε) of ``EUCLID`` added around the Fréchet mean, a statistic that noise is not calibrated for,
so it is not ε-DP (``engine.pipelines.figure1_setting.baseline_privacy``); kept for a faithful figure."""

from __future__ import annotations

from engine.mechanisms.specs import euclidean_laplace
from engine.mechanisms.specs.spec import MechanismSpec

PAPER = MechanismSpec(
    key="paper", label="Paper's Euclidean baseline (not ε-DP)",
    long_label="Paper's Euclidean baseline around the Fréchet mean (not ε-DP)",
    chip="Paper's Euclidean baseline", audit_label="The paper's Euclidean baseline around the Karcher mean",
    color="#999933", symbol="square-open", dash="longdashdot", guarantee="none", sensitivity="ambient", statistic="frechet",
    law="ambient-laplace", build=euclidean_laplace.build, scale=euclidean_laplace.scale, draw=euclidean_laplace.draw,
    off_manifold=True, requires_ambient=True, playground=False, figure1=True)
