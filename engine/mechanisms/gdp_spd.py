"""Exact μ-GDP budget of the Riemannian Gaussian on SPD(2) with the affine-invariant metric, by quadrature.

**Reduction.** SPD(2) is the product R × H²(−1/2): with the eigen-logarithm v of η^{-1/2} X η^{-1/2},
s = (v₁ + v₂)/√2 = log det(η⁻¹X)/√2 is the flat coordinate and |v₁ − v₂|/√2 the distance in the unimodular
factor, whose polar volume sinh(ρ/√2) is that of the hyperbolic plane of curvature −1/2 (``spd_gaussian``);
ρ² adds over the factors. So N(η, σ²) is the product of N(0, σ²) on R and the Riemannian Gaussian of the
factor, which is the Riemannian Gaussian of H² (curvature −1) at σ/√2 with distances divided by √2. A pair
η, η′ at ρ(η, η′) = Δ splits as Δ² = a² + b² (a = |v₁ + v₂|/√2, b = |v₁ − v₂|/√2 for v the eigen-logarithm of
η^{-1/2} η′ η^{-1/2}), and the privacy loss is the sum of two independent losses: L = L_R + L_H with
L_R ~ N(a²/(2σ²), a²/σ²) under η and L_H that of H² at (σ/√2, b/√2) (``gdp.loss_cdf``). Hence

    F(t) = P(L <= t) = ∫ φ(z) F_H(t − a²/(2σ²) − (a/σ) z) dz,

and likewise S. F_H, S_H are tabulated on a grid of losses and interpolated in log (monotone cubic), the z
integral is Gauss–Legendre on panels over [−14, 14] (the normal mass beyond is below 1e-44) refined where
t − a²/(2σ²) − (a/σ) z crosses the range of L_H.

**Worst direction.** SPD(2) is homogeneous but not isotropic: μ depends on the split. The angle θ of
(a, b) = Δ(cos θ, sin θ) is searched on a grid of ``ANGLES`` angles in [0, π/2], then on ``ANGLES`` more
between the neighbours of the largest (θ = 0 is the flat Gaussian, μ = Δ/σ exactly; θ = π/2 the hyperbolic
factor alone). Wherever measured μ increases with θ, so the worst split is the hyperbolic one (the grid's
resolution, π/(12·(ANGLES + 1)), bounds how far an interior maximum could be missed).

**SPD(k), k >= 3** has rank k − 1 and its loss depends on the rotation U between the eigenframes of η′ and
the release, not on a product of low-dimensional factors: no exact reduction is offered there.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.interpolate import PchipInterpolator
from scipy.special import ndtr

from engine.manifolds import Hyperbolic
from engine.mechanisms import gdp

#: The hyperbolic factor, rescaled to curvature −1.
PLANE = Hyperbolic(2)
#: The normal variable of the flat loss is integrated over [−Z_MAX, Z_MAX].
Z_MAX = 14.0
#: Gauss–Legendre panels per piece (``gdp.PANELS``; the budget doubles it for its error estimate).
PANELS = 12
#: Angles of the first pass of the search over the split of Δ.
ANGLES = 7


def supports(manifold) -> bool:
    """SPD(2) with the affine-invariant metric (``manifold.polar_volume == "spd-affine"``, k = 2)."""
    return manifold.polar_volume == "spd-affine" and getattr(manifold, "k", None) == 2


def refusal(manifold) -> str:
    """The one-line refusal on SPD(k), k >= 3."""
    return (f"no exact GDP budget of the Riemannian Gaussian on {manifold.name}: for k = {manifold.k} >= 3 the "
            f"privacy loss depends on the rotation between eigenframes (rank k - 1 = {manifold.k - 1}), with no "
            f"reduction to a low-dimensional integral; use SPD(2) (an exact product R x H^2), or the Riemannian "
            f"Laplace on SPD({manifold.k})")


def split(eta, eta2) -> tuple[float, float]:
    """(a, b): the flat and hyperbolic parts of the displacement η → η′ on SPD(2), a² + b² = ρ(η, η′)²."""
    eta, eta2 = np.asarray(eta, dtype=float), np.asarray(eta2, dtype=float)
    w, q = np.linalg.eigh(eta)
    inv_root = (q / np.sqrt(w)) @ q.T
    v = np.log(np.linalg.eigvalsh(inv_root @ eta2 @ inv_root))
    return float(abs(v[0] + v[1]) / np.sqrt(2)), float(abs(v[0] - v[1]) / np.sqrt(2))


@functools.lru_cache(maxsize=64)
def _hyperbolic_table(sigma: float, curved: float, panels: int):
    """F_H, S_H of the hyperbolic factor's loss on a grid of ``40·panels + 1`` losses over its range [−B, B]:
    (B, interpolants of log F_H and log S_H)."""
    h_sigma, h_distance = sigma / np.sqrt(2), curved / np.sqrt(2)
    bound = gdp._loss_bound(PLANE, h_sigma, h_distance, gdp.GAUSSIAN)
    u = np.linspace(-bound, bound, 40 * panels + 1)
    F, S = gdp.loss_cdf(PLANE, h_sigma, h_distance, u, panels=panels)
    tiny = np.finfo(float).tiny
    return (bound, PchipInterpolator(u, np.log(np.maximum(F, tiny))),
            PchipInterpolator(u, np.log(np.maximum(S, tiny))))


def loss_cdf(sigma: float, flat: float, curved: float, t, *, panels: int = PANELS):
    """F(t) = P_η(L <= t) and S(t) = P_η(L > t), each ``(len(t),)``, on SPD(2) for the displacement with flat
    part ``flat`` = a and hyperbolic part ``curved`` = b (module docstring)."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    shift, spread = flat ** 2 / (2 * sigma ** 2), flat / sigma
    if curved == 0:
        return ndtr((t - shift) / spread), ndtr((shift - t) / spread)
    if flat == 0:
        return gdp.loss_cdf(PLANE, sigma / np.sqrt(2), curved / np.sqrt(2), t, panels=panels)
    bound, log_F, log_S = _hyperbolic_table(float(sigma), float(curved), int(panels))
    # z where u = t − shift − spread·z crosses ±B, and panels of the u range between them.
    z_ends = np.stack([(t - shift - bound) / spread, (t - shift + bound) / spread], axis=-1)
    inside = z_ends[:, :1] + (z_ends[:, 1:] - z_ends[:, :1]) * np.linspace(0.0, 1.0, 4 * panels + 1)
    uniform = np.broadcast_to(np.linspace(-Z_MAX, Z_MAX, 4 * panels + 1), (len(t), 4 * panels + 1))
    edges = np.sort(np.clip(np.concatenate([uniform, inside], axis=-1), -Z_MAX, Z_MAX), axis=-1)
    z, weight = gdp._gauss_legendre(edges)
    u = t[:, None] - shift - spread * z
    kernel = weight * np.exp(-z ** 2 / 2) / np.sqrt(2 * np.pi)
    inner = np.abs(u) < bound
    clipped = np.clip(u, -bound, bound)
    F_H = np.where(inner, np.exp(log_F(clipped)), (u >= bound).astype(float))
    S_H = np.where(inner, np.exp(log_S(clipped)), (u <= -bound).astype(float))
    return np.sum(kernel * F_H, axis=-1), np.sum(kernel * S_H, axis=-1)


def split_mu(sigma, distance, angle, panels):
    """sup_t μ of the split (a, b) = Δ(cos θ, sin θ); Δ/σ exactly at θ = 0 (the flat Gaussian)."""
    if angle <= 0:
        return distance / sigma
    return gdp.sup_over_losses(split_cdf(sigma, distance, angle, panels), loss_bound(sigma, distance, angle))


def loss_bound(sigma, distance, angle) -> float:
    """A bound on the |t| searched: the hyperbolic factor's (``gdp._loss_bound``) plus the flat loss's mean and
    ``Z_MAX`` standard deviations."""
    flat, curved = distance * np.cos(angle), distance * np.sin(angle)
    h_bound = gdp._loss_bound(PLANE, sigma / np.sqrt(2), curved / np.sqrt(2), gdp.GAUSSIAN) if curved > 0 else 0.0
    return h_bound + flat ** 2 / (2 * sigma ** 2) + Z_MAX * flat / sigma


def worst_split(sigma, distance, panels: int = PANELS) -> tuple[float, float]:
    """(μ, θ): the largest sup_t μ over the splits of Δ = ``distance`` and the angle θ where it is reached: a grid
    of ``ANGLES`` angles, then ``ANGLES`` more between the neighbours of the largest."""
    angles = np.linspace(0.0, np.pi / 2, ANGLES)
    values = [split_mu(sigma, distance, a, panels) for a in angles]
    j = int(np.argmax(values))
    finer = np.linspace(angles[max(j - 1, 0)], angles[min(j + 1, ANGLES - 1)], ANGLES + 2)[1:-1]
    angles = np.concatenate([angles, finer])
    values = np.concatenate([values, [split_mu(sigma, distance, a, panels) for a in finer]])
    j = int(np.argmax(values))
    return float(values[j]), float(angles[j])


def pair_angle(eta, eta2) -> tuple[float, float]:
    """(ρ(η, η′), θ) of the pair's own split, (a, b) = ρ(cos θ, sin θ)."""
    flat, curved = split(eta, eta2)
    return float(np.hypot(flat, curved)), float(np.arctan2(curved, flat))


def split_cdf(sigma, distance, angle, panels: int = PANELS):
    """``loss_cdf`` of the split at angle θ, as a callable ``t -> (F, S)``."""
    flat = 0.0 if angle >= np.pi / 2 else distance * np.cos(angle)
    curved = distance * np.sin(angle)
    return lambda t: loss_cdf(sigma, flat, curved, t, panels=panels)


@functools.lru_cache(maxsize=256)
def budget(sigma: float, sensitivity: float, panels: int = PANELS, check_distances: bool = True):
    """``gdp.GDPBudget`` on SPD(2): the worst split at Δ (searched with ``panels`` panels), μ there with 2·``panels``
    and the error |μ(2·panels) − μ(panels)|, and with ``check_distances`` the distances jΔ/8 along that split
    (cached)."""
    coarse, angle = worst_split(sigma, sensitivity, panels)
    fine = split_mu(sigma, sensitivity, angle, 2 * panels)
    error = abs(fine - coarse)
    worst, mu = sensitivity, fine
    if check_distances:
        for j in range(1, 8):
            value = split_mu(sigma, j * sensitivity / 8, angle, panels)
            if value > mu:
                worst, mu = j * sensitivity / 8, value
    return gdp.GDPBudget(mu=mu + error, error=error, worst_distance=worst, worst_angle=angle)
