"""The ε-DP Euclidean baseline: ℓ2 Laplace noise around the ambient mean, calibrated to its
sensitivity Δ_E = 2 r_E/n (Reimherr et al., supplement §1.4)."""

from __future__ import annotations

from engine.formulas import chain, rows
from engine.mechanisms.laplace import EuclideanLaplace, euclidean_laplace
from engine.mechanisms.specs.spec import MechanismSpec, NoiseFormula, NoiseNumbers


def build(manifold, *, epsilon, sensitivity, delta=None, m0=None) -> EuclideanLaplace:
    """The ambient ℓ2 Laplace at σ = Δ_E/ε (both Euclidean baselines build it)."""
    return EuclideanLaplace(manifold=manifold, epsilon=epsilon, sensitivity=sensitivity)


def scale(manifold, *, epsilon, sensitivity, delta=None) -> float:
    """σ_E of ``build`` (``EuclideanLaplace.sigma``)."""
    return build(manifold, epsilon=epsilon, sensitivity=sensitivity).sigma


def draw(manifold, footpoint, sigma, *, rng):
    """Ambient ℓ2 Laplace draws at σ around ``footpoint`` (``euclidean_laplace``)."""
    return euclidean_laplace(manifold, footpoint, sigma, rng=rng)


def noise_formula(run: NoiseNumbers) -> NoiseFormula | None:
    """Δ_E = 2 r_E/n of the ambient mean, r_E the radius of an ambient ball holding B_r(m₀), and σ_E = Δ_E/ε."""
    if run.ambient_radius is None:
        return None
    return NoiseFormula(
        "the geodesic ball sits inside an ambient ball of radius $r_E$, so the ambient mean moves by at most $2r_E/n$:",
        (chain("r_E", run.ambient_radius_tex, f"{run.ambient_radius:.4f}"),
         rows(rf"\Delta_E &= \frac{{2r_E}}{{n}} = {run.sensitivity:.4g}",
              rf"\sigma_E &= \frac{{\Delta_E}}{{\varepsilon}} = {run.sigma:.4g}")))


def _audit_pair_gap(pair) -> float:
    from engine.audit.pairs import ambient_gap  # engine.audit imports the specs: imported when an audit runs

    return ambient_gap(pair)


def _audit_target(mechanism, pair, *, sensitivity):
    from engine.audit.mechanisms import euclidean_target
    from engine.audit.target import reach_note

    return euclidean_target(mechanism, pair, summary="ambient",
                            notes=reach_note(_audit_pair_gap(pair), sensitivity, "the ambient mean"))


EUCLID = MechanismSpec(
    key="euclid", label="Euclidean Laplace", long_label="Euclidean Laplace (ambient coordinates)",
    chip="Euclidean Laplace", audit_label="Euclidean Laplace around the ambient mean", color="#D55E00",
    symbol="square", dash="longdash", guarantee="ε-DP", sensitivity="ambient", statistic="ambient",
    law="ambient-laplace", build=build, scale=scale, noise_formula=noise_formula, audit_pair_gap=_audit_pair_gap,
    audit_target=_audit_target, draw=draw, off_manifold=True, requires_ambient=True, baseline=True, figure1=True)
