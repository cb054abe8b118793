"""The Euclidean baseline of Figure 1 of Reimherr, Bharath & Soto (2021): the ambient noise σ_E =
2 r_E/(nε) of ``EUCLID`` added around the Fréchet mean, a statistic that noise is not calibrated for,
so it is not ε-DP (``engine.pipelines.figure1_setting.baseline_privacy``); kept for a faithful figure."""

from __future__ import annotations

from engine.mechanisms.specs import euclidean_laplace
from engine.mechanisms.specs.spec import MechanismSpec


def _audit_pair_gap(pair) -> float:
    from engine.audit.pairs import ambient_frechet_gap  # engine.audit imports the specs: imported when an audit runs

    return ambient_frechet_gap(pair)


def _audit_target(mechanism, pair, *, sensitivity):
    """The ℓ2 Laplace's audit around the Fréchet means in ambient coordinates, with why it exceeds its claim."""
    from engine.audit.mechanisms import euclidean_target

    return euclidean_target(mechanism, pair, summary="frechet", notes=(
        "Noise calibrated to 2 r_E/n, the sensitivity of the ambient mean, added around the Fréchet (Karcher) "
        "mean, a different statistic (issue 19, item 2): the paper's baseline, not ε-DP."))


PAPER = MechanismSpec(
    key="paper", label="Paper's Euclidean baseline (not ε-DP)",
    long_label="Paper's Euclidean baseline around the Fréchet mean (not ε-DP)",
    chip="Paper's Euclidean baseline", audit_label="The paper's Euclidean baseline around the Karcher mean",
    color="#999933", symbol="square-open", dash="longdashdot", guarantee="none", sensitivity="ambient", statistic="frechet",
    law="ambient-laplace", build=euclidean_laplace.build, scale=euclidean_laplace.scale, draw=euclidean_laplace.draw,
    noise_formula=euclidean_laplace.noise_formula, audit_pair_gap=_audit_pair_gap, audit_target=_audit_target,
    off_manifold=True, requires_ambient=True, playground=False, figure1=True)
