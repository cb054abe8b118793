"""Tangent-space Gaussian mechanism (Han, Mishra, Jawanpuria & Gao, Definition 3 and Proposition 2).

ξ ~ N_w(0, σ²) on T_wM has density ∝ exp(−‖ξ‖²_w/(2σ²)): in an orthonormal basis (e_i) of T_wM
(``tangent_basis``), ξ = Σ_i g_i e_i with g_i ~ N(0, σ²) i.i.d. Proposition 2: for a query H with
values in a fixed tangent space T_wM and sensitivity Δ = sup ‖H(D) − H(D')‖_w, releasing H(D) + ξ
is (ε, δ)-DP when σ² >= 2 log(1.25/δ) Δ²/ε². In the orthonormal coordinates this is exactly the
classical Gaussian mechanism on R^dim, whose proof (Dwork & Roth 2014, Theorem A.1) needs ε <= 1
(Han et al. state the proposition without that condition). For ε > 1 the classical σ can fail:
ε = 10, δ = 0.5 gives σ = 0.135Δ whose true δ(ε) is 0.985. ``calibration="analytic"`` uses the
exact condition of Balle & Wang (2018, Theorem 8) instead, valid for every ε > 0:

    Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) <= δ.

Mapping the release to the manifold with Exp_w is post-processing.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr, ndtr

from engine.budget import draw_batch
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.protocol import Release
from engine.validation import check_positive, check_probability

CALIBRATIONS = ("classical", "analytic")


def tangent_gaussian(manifold, x, sigma, *, size=None, rng=None) -> np.ndarray:
    """Isotropic Gaussian tangent vectors ξ ~ N_x(0, σ²) (exact).

    Parameters
    ----------
    manifold : Manifold
    x : array_like, shape ``(*batch, *point_shape)``
        Base points.
    sigma : float
        Standard deviation σ > 0 of every coordinate in an orthonormal basis of T_xM.
    size : int or None
        ``None``: one vector per base point; m: shape ``(m, *batch, *point_shape)``.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray
        Tangent vectors Σ_i g_i e_i(x), g_i ~ N(0, σ²), so E‖ξ‖²_x = dim·σ².
    """
    sigma = check_positive("sigma", sigma)
    x = manifold.check_points(x, "x")
    rng = np.random.default_rng(rng)
    batch = x.shape[: x.ndim - manifold.point_ndim]
    out_batch = draw_batch(size, batch, manifold.point_shape)
    coef = sigma * rng.standard_normal(out_batch + (manifold.dim,))
    return manifold.from_coordinates(np.broadcast_to(x, out_batch + manifold.point_shape), coef)


def gaussian_delta(sigma, epsilon, sensitivity) -> float:
    """Exact δ(ε) of the Gaussian mechanism with noise σ and ℓ2 sensitivity Δ (Balle & Wang 2018)."""
    sigma = check_positive("sigma", sigma)
    epsilon = check_positive("epsilon", epsilon)
    sensitivity = check_positive("sensitivity", sensitivity)
    a = sensitivity / (2.0 * sigma)
    b = epsilon * sigma / sensitivity
    return float(max(ndtr(a - b) - np.exp(epsilon + log_ndtr(-a - b)), 0.0))


def classical_gaussian_sigma(epsilon, delta, sensitivity) -> float:
    """σ = Δ √(2 log(1.25/δ)) / ε (Proposition 2 / Dwork & Roth Theorem A.1), for ε <= 1 only."""
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    sensitivity = check_positive("sensitivity", sensitivity)
    if epsilon > 1:
        raise ValueError(
            f"the classical calibration sigma^2 >= 2 log(1.25/delta) sensitivity^2/epsilon^2 is proven only for "
            f"epsilon <= 1 (Dwork & Roth, Theorem A.1), got epsilon={epsilon!r}; use calibration='analytic' "
            f"(Balle & Wang 2018), exact for every epsilon"
        )
    return sensitivity * np.sqrt(2.0 * np.log(1.25 / delta)) / epsilon


def analytic_gaussian_sigma(epsilon, delta, sensitivity) -> float:
    """Smallest σ with ``gaussian_delta(σ, ε, Δ) <= δ`` (Balle & Wang 2018), any ε > 0."""
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    sensitivity = check_positive("sensitivity", sensitivity)
    lo = hi = sensitivity / epsilon
    # δ(σ) decreases in σ: widen the bracket geometrically until it straddles the target.
    while gaussian_delta(hi, epsilon, sensitivity) > delta:
        hi *= 2.0
    while gaussian_delta(lo, epsilon, sensitivity) <= delta:
        lo /= 2.0
    root = brentq(lambda s: gaussian_delta(np.exp(s), epsilon, sensitivity) - delta, np.log(lo), np.log(hi), xtol=1e-13)
    # Step just above the root so that δ(σ) <= δ holds despite the root finder's tolerance.
    return float(np.exp(root) * (1.0 + 1e-9))


class TangentGaussian:
    """(ε, δ)-DP release with isotropic Gaussian noise in a tangent space, then Exp.

    Parameters (keyword-only)
    -------------------------
    manifold : Manifold
    epsilon : float > 0
        At most 1 with ``calibration="classical"``.
    delta : float in (0, 1)
    sensitivity : float > 0
        Public bound Δ on ‖log_w f(D) − log_w f(D')‖_w (with a ``base_point`` w), or on the
        tangent-space query the caller perturbs.
    base_point : array_like or None
        Public base point w: releases are Exp_w(log_w f(D) + ξ), covered by Proposition 2. ``None``
        adds the noise in the tangent space of the footpoint itself, Exp_{f(D)}(ξ): exact on a flat
        space (it is f(D) + ξ), and on a curved space only with ``public_footpoint=True``.
    public_footpoint : bool
        The caller declares that the footpoints passed to ``release`` are public (an earlier private
        release, as the iterates of DP-RGD). Without it a curved space and ``base_point=None`` are
        refused: the release Exp_{f(D)}(ξ) has the density factor ρ/sin ρ (sphere), which diverges at
        the antipode of f(D), so a small cap there has probability of order s under D and s² under a
        neighbour D′ — no (ε, δ) holds (an audit on S², n = 3, r = π/8, claimed (1, 1e−5) measured
        ε >= 5.16). Han et al. note the same: the tangent space at the summary itself is not private.
    calibration : {"classical", "analytic"}
    """

    def __init__(self, *, manifold, epsilon, delta, sensitivity, base_point=None, public_footpoint=False,
                 calibration="classical"):
        self.epsilon = check_positive("epsilon", epsilon)
        self.delta = check_probability("delta", delta)
        self.sensitivity = check_positive("sensitivity", sensitivity)
        if calibration not in CALIBRATIONS:
            raise ValueError(f"calibration must be one of {CALIBRATIONS}, got {calibration!r}")
        self.manifold = manifold
        self.calibration = calibration
        self.base_point = None if base_point is None else manifold.check_points(base_point, "base_point")
        if self.base_point is not None and self.base_point.shape != manifold.point_shape:
            raise ValueError(
                f"base_point must be one point of shape {manifold.point_shape}, got shape {self.base_point.shape}"
            )
        if calibration == "classical":
            self.sigma = classical_gaussian_sigma(self.epsilon, self.delta, self.sensitivity)
        else:
            self.sigma = analytic_gaussian_sigma(self.epsilon, self.delta, self.sensitivity)
        self.public_footpoint = bool(public_footpoint)
        if base_point is None and not manifold.flat and not self.public_footpoint:
            raise ValueError(
                f"noise in the tangent space of a private footpoint f(D) on the curved {manifold.name} is not "
                "differentially private: Exp_f(D)(xi) has a volume factor that differs between neighbouring data "
                "sets (it diverges at the antipode of f(D) on the sphere); pass a public base_point (e.g. the "
                "ball centre m0), or public_footpoint=True when the footpoint is itself public (an earlier private "
                "release, as in DP-RGD)"
            )

    def release(self, footpoint, *, size=None, rng=None) -> Release:
        """Exp_w(log_w f(D) + ξ) (or Exp_{f(D)}(ξ) without base point), exact; ``points`` has the
        shapes of ``tangent_gaussian``. ``ValueError`` when a release is not finite in float64."""
        m = self.manifold
        eta = m.check_points(footpoint, "footpoint")
        if self.base_point is None:
            points = m.exp(eta, tangent_gaussian(m, eta, self.sigma, size=size, rng=rng))
        else:
            w = np.broadcast_to(self.base_point, eta.shape)
            points = m.exp(w, m.log(w, eta) + tangent_gaussian(m, w, self.sigma, size=size, rng=rng))
        bad = ~np.isfinite(points).all(axis=tuple(range(-m.point_ndim, 0)))
        if bad.any():
            raise ValueError(
                f"{int(bad.sum())} of {bad.size} tangent Gaussian releases on {m.name} at sigma={self.sigma:.4g} are "
                f"not representable in float64 (the exponential map overflows so far out); raise epsilon or delta"
            )
        return Release(points=points, sigma=self.sigma, guarantee=self.privacy_guarantee())

    def privacy_guarantee(self) -> PrivacyGuarantee:
        if self.calibration == "classical":
            rule = "σ = Δ·√(2 ln(1.25/δ))/ε (ε ≤ 1)"
            gaussian = "the classical Gaussian mechanism (Dwork & Roth, Theorem A.1, ε ≤ 1)"
        else:
            rule = "the smallest σ with Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ"
            gaussian = "the analytic Gaussian mechanism (Balle & Wang 2018, Theorem 8, exact for every ε)"
        space = "T_wM at the public base point w" if self.base_point is not None else "the tangent space at f(D)"
        assumptions = [
            f"the sensitivity Δ = {self.sensitivity:g} is a public bound on the tangent-space query in the Riemannian norm",
            "only the release is published; Exp of the noisy tangent vector is post-processing",
        ]
        if self.base_point is None and self.public_footpoint:
            assumptions.append(
                "the footpoint is public (the caller declared it: e.g. an earlier private release, as in DP-RGD), "
                "so the tangent space the noise lives in does not depend on the private data"
            )
        elif self.base_point is None:
            assumptions.append(
                f"{self.manifold.name} is flat: Exp at f(D) of ξ is f(D) + ξ, the Gaussian mechanism in coordinates"
            )
        else:
            assumptions.append("the base point w is public and data-independent, and Log at w is defined at every f(D)")
        return PrivacyGuarantee(
            mechanism=f"tangent-space Gaussian on {self.manifold.name}",
            epsilon=self.epsilon, delta=self.delta, sigma=self.sigma, rule=rule,
            reason=(
                f"Proposition 2 (Han, Mishra, Jawanpuria & Gao): in an orthonormal basis of {space} the query is a "
                f"vector with ℓ₂ sensitivity Δ and the noise is N(0, σ²I), i.e. {gaussian}"
            ),
            assumptions=tuple(assumptions),
        )
