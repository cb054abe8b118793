"""The Riemannian Gaussian mechanism (Jiang, Chang, Liu, Ding, Kong & Jiang, "Gaussian differential privacy
on Riemannian manifolds", NeurIPS 2023): release a draw of N(η, σ²) ∝ exp(−ρ(x, η)²/(2σ²)) w.r.t. the
Riemannian volume around η = f(D).

**Exact sampler.** In geodesic polar coordinates around η the law is uniform in direction and its radius
has density f(ρ) ∝ e^{−ρ²/(2σ²)} J(ρ) with the space's polar volume J (``engine.mechanisms.radial``). log J
is concave on every space of the radial framework (Sᵈ, Hᵈ, RPᵈ = Gr(d + 1, 1), Kendall's Σᵏ₂, Rᵈ) and
−ρ²/(2σ²) is concave, so f is log-concave and drawn exactly under its tangent-line envelope
(``log_concave.tangent_envelope``); the point is Exp_η(ρu), u uniform on the unit sphere of T_ηM. f is
normalisable for every σ (the Gaussian beats the exponential volume growth of Hᵈ). On SPD(k) with the
affine-invariant metric the law is not radial: its eigen-logarithm is drawn exactly (``spd_gaussian``). The
paper samples by MCMC.

**Privacy.** The paper's Theorem (GDP on manifolds whose Ricci curvature is bounded below, through
Bishop–Gromov) and its homogeneous case: on a homogeneous space the normalisers agree and μ is the GDP
budget of the pair (N(η, σ²), N(η′, σ²)), which the paper evaluates by MCMC on spaces of constant
curvature. ``engine.mechanisms.gdp`` computes it by quadrature on those spaces (Sᵈ, Hᵈ, RPᵈ, Rᵈ) and on
SPD(2) = R × H²(−1/2), worst over the direction of η → η′ (``gdp_spd``); elsewhere (Kendall, SPD(k >= 3))
the mechanism is refused.

**Calibration.** From the user's (ε, δ): the largest μ whose μ-GDP implies (ε, δ)-DP (Dong, Roth & Su 2022,
Corollary 2.13: δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) <= δ), then the smallest σ whose exact μ (with its
quadrature error, worst distance <= Δ) is at most that μ. The paper instead fixes σ and reports μ.
"""

from __future__ import annotations

import numpy as np

from engine.budget import draw_batch
from engine.mechanisms import gdp
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.laplace import radial_law
from engine.mechanisms.log_concave import tangent_envelope
from engine.mechanisms.protocol import Release
from engine.mechanisms.radial import RadialLaw
from engine.mechanisms.rejection import rejection_sample
from engine.mechanisms.representative import public_reference
from engine.mechanisms.spd_gaussian import sample_gaussian_eigenlog, spd_gaussian_points
from engine.validation import check_positive, check_probability


def gaussian_error_radius(manifold, sigma, size, rng=None) -> np.ndarray:
    """Exact draws ``size`` of ρ(η, X), X ~ N(η, σ²): the radial law's, or ‖r‖ of the eigen-log law on SPD(k)."""
    if manifold.polar_volume == "spd-affine":
        return np.linalg.norm(sample_gaussian_eigenlog(manifold.k, sigma, size, rng), axis=-1)
    return sample_gaussian_radius(radial_law(manifold), sigma, size, rng)


def gaussian_radial_log_density(law: RadialLaw, rho, sigma) -> np.ndarray:
    """Unnormalised log f(ρ) = −ρ²/(2σ²) + log J(ρ); ``-inf`` outside [0, support]."""
    rho = np.asarray(rho, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        return law.log_jacobian(rho) - rho ** 2 / (2 * sigma ** 2)


def sample_gaussian_radius(law: RadialLaw, sigma, size, rng=None) -> np.ndarray:
    """Exact draws ``size`` of ρ = ρ(η, X), X ~ N(η, σ²), by rejection under the tangent-line envelope."""
    sigma = check_positive("sigma", sigma)
    rng = np.random.default_rng(rng)
    shape = (size,) if np.isscalar(size) else tuple(size)

    def log_f(rho):
        return gaussian_radial_log_density(law, rho, sigma)

    def slope(rho):
        rho = np.asarray(rho, dtype=float)
        return law.log_jacobian_slope(rho) - rho / sigma ** 2

    envelope = tangent_envelope(log_f, slope, 0.0, law.support)

    def propose(m, g):
        rho, piece = envelope.propose(m, g)
        with np.errstate(divide="ignore"):
            return rho, log_f(rho) - envelope.offset - envelope.upper(rho, piece)

    return rejection_sample(propose, shape, rng)


def riemannian_gaussian(manifold, footpoint, sigma, *, size=None, rng=None) -> np.ndarray:
    """Exact draws of N(η, σ²) around each footpoint ``(*batch, *point_shape)``; shapes as ``riemannian_laplace``.
    On SPD(k) affine-invariant the eigen-log sampler (``spd_gaussian``); ``ValueError`` on a space without a
    radial law (polar volume depending on the direction)."""
    sigma = check_positive("sigma", sigma)
    eta = manifold.check_points(footpoint, "footpoint")
    rng = np.random.default_rng(rng)
    batch = eta.shape[: eta.ndim - manifold.point_ndim]
    out_batch = draw_batch(size, batch, manifold.point_shape)
    eta = np.broadcast_to(eta, out_batch + manifold.point_shape)
    if manifold.polar_volume == "spd-affine":
        return spd_gaussian_points(eta, sigma, rng)
    law = radial_law(manifold)
    rho = sample_gaussian_radius(law, sigma, out_batch, rng)
    direction = manifold.random_unit_tangent(eta, rng)
    return manifold.exp(eta, manifold.per_point(rho.reshape(out_batch)) * direction)


class RiemannianGaussian:
    """(ε, δ)-DP release through μ-GDP with the Riemannian Gaussian (module docstring).

    Parameters (keyword-only)
    -------------------------
    manifold : Manifold of constant curvature (``gdp.GDP_FAMILIES``); others are refused with one line.
    epsilon : float > 0; delta : float in (0, 1)
        The (ε, δ) the user chose; μ is the largest whose GDP implies it.
    sensitivity : float > 0
        Public bound Δ on ρ(f(D), f(D′)) (Theorem 2 of Reimherr et al. for Fréchet means).
    reference : public point fixing representatives on quotient spaces (as ``RiemannianLaplace``).
    """

    footpoint_dependent = False

    def __init__(self, *, manifold, epsilon, delta, sensitivity, reference=None):
        self.epsilon = check_positive("epsilon", epsilon)
        self.delta = check_probability("delta", delta)
        self.sensitivity = check_positive("sensitivity", sensitivity)
        gdp.check_gdp_space(manifold)
        self.manifold = manifold
        self.reference = public_reference(manifold, reference, None)
        self.mu = gdp.gdp_mu_for(self.epsilon, self.delta)
        self.sigma = scale(manifold, epsilon=self.epsilon, sensitivity=self.sensitivity, delta=self.delta)
        self.budget = gdp.gdp_mu(manifold, self.sigma, self.sensitivity)

    def release(self, footpoint, *, size=None, rng=None) -> Release:
        """Exact releases around ``footpoint`` = f(D) (shapes of ``riemannian_gaussian``)."""
        eta = self.manifold.representative(self.manifold.check_points(footpoint, "footpoint"), self.reference)
        points = riemannian_gaussian(self.manifold, eta, self.sigma, size=size, rng=rng)
        return Release(points=self.manifold.representative(points, self.reference), sigma=self.sigma,
                       guarantee=self.privacy_guarantee())

    def privacy_guarantee(self) -> PrivacyGuarantee:
        b = self.budget
        return PrivacyGuarantee(
            mechanism=f"Riemannian Gaussian on {self.manifold.name}",
            epsilon=self.epsilon, delta=self.delta, sigma=self.sigma, mu=b.mu,
            rule=(f"μ = {self.mu:.4g}, the largest with Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) ≤ δ; σ the smallest whose "
                  "exact μ of N(η, σ²) against N(η′, σ²), ρ(η, η′) ≤ Δ, is at most it"),
            reason=(
                f"Jiang, Chang, Liu, Ding, Kong & Jiang (NeurIPS 2023): on the homogeneous {self.manifold.name} the "
                f"normalisers agree, so the mechanism is μ-GDP for the μ of the pair at distance Δ; here μ = "
                f"{b.mu:.4g} by quadrature of the privacy loss (estimated error {b.error:.1e}, included), and "
                "μ-GDP implies (ε, δ)-DP (Dong, Roth & Su 2022)"),
            assumptions=(
                f"the sensitivity Δ = {self.sensitivity:g} is a public, data-independent bound on ρ(f(D), f(D′)) "
                "(Theorem 2 for Fréchet means)",
                self._reduction_assumption(),
                "the footpoint is f(D) itself and only the release is published; the sampler is exact",
            ),
        )


    def _reduction_assumption(self) -> str:
        """Why the privacy loss is a low-dimensional integral on this space, and what the search covers."""
        b = self.budget
        levels = f"the levels α, β below {gdp.SMALLEST_LEVEL:g} are not searched"
        if b.worst_angle is not None:
            return (f"{self.manifold.name} is R × H² of curvature −1/2, so the loss is the sum of a Gaussian and a "
                    "hyperbolic-plane loss; μ is the largest over the splits Δ² = a² + b² of the displacement "
                    f"(worst at angle {b.worst_angle:.3g} rad, π/2 being the hyperbolic factor alone) and the "
                    f"distances jΔ/8 along it (worst at {b.worst_distance:.4g}); {levels}")
        return (f"{self.manifold.name} has constant curvature and is two-point homogeneous, so the privacy loss "
                "depends on the distance to η and one angle only; μ is the largest over the distances jΔ/8 checked "
                f"(worst at {b.worst_distance:.4g}), and {levels}")


_SCALES: dict = {}


def scale(manifold, *, epsilon, sensitivity, delta) -> float:
    """σ of ``RiemannianGaussian`` for these public parameters (cached: each solve costs seconds)."""
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    sensitivity = check_positive("sensitivity", sensitivity)
    gdp.check_gdp_space(manifold)
    key = (manifold.polar_volume, manifold.dim, epsilon, delta, sensitivity)
    if key not in _SCALES:
        _SCALES[key] = gdp.sigma_for_mu(manifold, gdp.gdp_mu_for(epsilon, delta), sensitivity)
    return _SCALES[key]
