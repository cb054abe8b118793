"""Exact μ-GDP budget of the Riemannian Gaussian mechanism on two-point homogeneous spaces, by quadrature.

Gaussian differential privacy (Dong, Roth & Su 2022): a mechanism is μ-GDP when the trade-off curve
T(P, Q)(α) (the smallest type II error of a level-α test between the releases on neighbours) lies above
G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) for every α. Jiang, Chang, Liu, Ding, Kong & Jiang (NeurIPS 2023) release a
draw of the Riemannian Gaussian N(η, σ²) ∝ exp(−ρ(x, η)²/(2σ²)) and compute μ by MCMC; here it is a
quadrature.

**Reduction.** On a homogeneous space the normalisers of N(η, σ²) and N(η′, σ²) agree, so the privacy
loss is L(x) = log p_η/p_η′ = (ρ(x, η′)² − ρ(x, η)²)/(2σ²). The best tests threshold L (Neyman–Pearson):
with F(t) = P_η(L <= t) and S(t) = P_η(L > t), and the isometry swapping η and η′ (L under N(η′) is −L
under N(η)), the test "reject η when L <= t" has α = F(t) and β = P_η′(L > t) = F(−t), so

    μ = sup_t Φ⁻¹(1 − α) − Φ⁻¹(β) = sup_t Φ⁻¹(S(−t)) − Φ⁻¹(F(t))   (G_μ touches T at α = F(t)).

Writing x = Exp_η(ρu), ρ has the radial law f(ρ) ∝ e^{−ρ²/(2σ²)} J(ρ) and u is uniform on the unit sphere
of T_ηM, independent; ρ(x, η′) depends on ρ and on c = ⟨u, direction of η′⟩ only (law of cosines:
cos ρ′ = cos ρ cos Δ + sin ρ sin Δ c on Sᵈ, cosh ρ′ = cosh ρ cosh Δ − sinh ρ sinh Δ c on Hᵈ,
ρ′² = ρ² + Δ² − 2ρΔc in Rᵈ, cos ρ′ = |cos ρ cos Δ + sin ρ sin Δ c| on RPᵈ), increasing (Sᵈ: decreasing)
in −c, so {L <= t} at fixed ρ is {c >= c*(ρ, t)} (two intervals on RPᵈ), whose probability is a
regularised incomplete beta ((1 + c)/2 ~ Beta((d−1)/2, (d−1)/2) for d >= 2). F and S are then 1-D
integrals in ρ, evaluated on a Gauss–Legendre grid of ``nodes`` panels.

**SPD(2)** (affine-invariant) is not of constant curvature but splits as R × H²(−1/2); its loss is the sum of
a Gaussian and a hyperbolic-plane loss, worst over the direction of η → η′ (``gdp_spd``, which the public
functions here dispatch to).

**Error.** The quadrature error of F and S is estimated by the change of μ when the grid is doubled
(``mu_error``); the integrand has kinks where c* crosses ±1, so the rule converges at second order there.
The sup over t is taken on a grid of loss values refined by a bounded scalar search around its maximum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.special import betainc, log_ndtr, ndtr, ndtri

from engine.mechanisms import gdp_spd
from engine.mechanisms.laplace import radial_law
from engine.odds import epsilon_at_delta
from engine.validation import check_positive

#: Exponents of the radial profiles g(ρ) (``profile``): the Riemannian Gaussian's and the Riemannian Laplace's.
GAUSSIAN, LAPLACE = 2, 1
#: Polar-volume families (``Manifold.polar_volume``) on which the loss reduces to (ρ, c): the spaces of
#: constant curvature (and Rᵈ), two-point homogeneous, where the paper's MCMC algorithm applies too.
GDP_FAMILIES = ("flat", "sphere", "hyperbolic", "real-projective")
#: Gauss–Legendre points per panel of the radial grid.
_ORDER = 8
#: Panels per piece of the radial grid between kinks (``gdp_mu`` doubles it for its error estimate).
PANELS = 12
#: Smallest α (and β) the sup over levels looks at; the radial law is cut where its tail mass is below 1e-60.
SMALLEST_LEVEL = 1e-40
#: Loss values the sup over t is searched on before its refinement.
LOSS_GRID = 101
#: Largest radius the radial grid may reach: beyond it sinh overflows in float64 (hyperbolic laws at large σ).
MAX_RADIUS = 700.0



class MuOutOfReach(ValueError):
    """A μ the Riemannian Gaussian cannot reach at any σ on the space: on exponentially growing volume μ levels
    off as σ grows, so a small enough target is out of reach (a property of the budget, not a bad input)."""

def supports(manifold) -> bool:
    """Whether μ can be computed exactly on ``manifold`` (``check_gdp_space`` without the error): a homogeneous
    space of constant curvature (``GDP_FAMILIES``), or SPD(2) affine-invariant (``gdp_spd``)."""
    return _radial(manifold) or gdp_spd.supports(manifold)


def _radial(manifold) -> bool:
    """A homogeneous space of ``GDP_FAMILIES``, where the loss reduces to (ρ, c)."""
    return manifold.polar_volume in GDP_FAMILIES and bool(manifold.homogeneous)


def check_gdp_space(manifold) -> None:
    """``ValueError`` (one line) unless μ can be computed exactly on ``manifold``."""
    if supports(manifold):
        return
    if manifold.polar_volume == "spd-affine":
        raise ValueError(gdp_spd.refusal(manifold))
    raise ValueError(
        f"no exact GDP budget of the Riemannian Gaussian on {manifold.name}: the privacy loss reduces to a "
        f"low-dimensional integral only on spaces of constant curvature (spheres, hyperbolic spaces, the lines "
        f"Gr(d, 1), R^d), where isometries fix the normaliser and act transitively on directions, and on SPD(2) "
        f"(R x H^2); use the Riemannian Laplace or the tangent Gaussian on this space")


def _check_radial(manifold) -> None:
    """``check_gdp_space``, and the (ρ, c) reduction of this module applies (not SPD(2), ``gdp_spd``)."""
    check_gdp_space(manifold)
    if not _radial(manifold):
        raise ValueError(f"the loss on {manifold.name} is not radial: use engine.mechanisms.gdp_spd")


def _radial_setup(manifold, sigma: float, power: int = GAUSSIAN):
    """The radial law's log f(ρ) ∝ −g(ρ) + log J(ρ), g = ``profile`` (callable), its upper end ρ_max (the support,
    or where f's tail mass falls below 1e-60: (growth)σ² + (√d + 18)σ for the Gaussian, (d + 150)/(1/σ − growth)
    for the Laplace) and log ∫f (Gauss–Legendre, f is smooth)."""
    law = radial_law(manifold)
    if power == GAUSSIAN:
        tail = law.growth * sigma ** 2 + (np.sqrt(law.shape) + 18.0) * sigma
    else:
        rate = 1.0 / sigma - law.growth
        if rate <= 0 and not np.isfinite(law.support):
            raise ValueError(f"the Laplace law on {manifold.name} at sigma={sigma:g} is not normalisable")
        tail = (law.shape + 150.0) / rate if rate > 0 else np.inf
    upper = min(law.support, tail)

    def log_f(rho):
        return law.log_jacobian(rho) - profile(rho, sigma, power)

    rho, weight = _gauss_legendre(np.linspace(0.0, upper, 201))
    values = log_f(rho)
    peak = float(np.max(values))
    return log_f, upper, peak, peak + float(np.log(np.sum(weight * np.exp(values - peak))))


def profile(rho, sigma, power: int = GAUSSIAN):
    """g(ρ) of the density ∝ e^{−g(ρ)}: ρ²/(2σ²) (``GAUSSIAN``) or ρ/σ (``LAPLACE``)."""
    rho = np.asarray(rho, dtype=float)
    return rho ** 2 / (2 * sigma ** 2) if power == GAUSSIAN else rho / sigma


def _gauss_legendre(edges: np.ndarray):
    """Nodes and weights of ``_ORDER``-point Gauss–Legendre on each panel between ``edges`` (``(..., k + 1)``)."""
    x, w = np.polynomial.legendre.leggauss(_ORDER)
    lo, hi = edges[..., :-1, None], edges[..., 1:, None]
    half = (hi - lo) / 2
    shape = edges.shape[:-1] + (-1,)
    return ((lo + hi) / 2 + half * x).reshape(shape), (half * w).reshape(shape)


def _kinks(manifold, distance: float, t: np.ndarray, sigma: float, power: int, upper: float) -> np.ndarray:
    """Radii ``(T, 5)`` where the integrand of ``loss_cdf`` is not smooth, for the losses t ``(T,)``: where c* = ±1,
    i.e. g(ρ(x, η′)) − g(ρ) = t for x on the geodesic through η and η′ (towards η′: ρ′ = |ρ − Δ|; away:
    ρ′ = ρ + Δ until it wraps at the diameter L, then 2L − ρ − Δ), at ρ = Δ, and on RPᵈ where r* reaches π/2."""
    D = distance
    family = manifold.polar_volume
    diameter = {"sphere": np.pi, "real-projective": np.pi / 2}.get(family)
    nan = np.full_like(t, np.nan)
    if power == GAUSSIAN:
        s = 2 * sigma ** 2 * t
        toward, away = (D ** 2 - s) / (2 * D), (s - D ** 2) / (2 * D)
        wrapped = nan if diameter is None else ((2 * diameter - D) ** 2 - s) / (2 * (2 * diameter - D))
        with np.errstate(invalid="ignore"):
            clip = np.sqrt(diameter ** 2 - s) if family == "real-projective" else nan
    else:  # ρ′ − ρ = σt: towards η′ inside ρ < Δ, the wrapped branch; away from η′ the loss is constant
        toward, away = np.minimum((D - sigma * t) / 2, D), nan
        wrapped = nan if diameter is None else (2 * diameter - D - sigma * t) / 2
        clip = diameter - sigma * t if family == "real-projective" else nan
    out = np.stack([toward, away, wrapped, clip, np.full_like(t, D)], axis=-1)
    return np.where((out > 0) & (out < upper), out, np.nan)


def _tails(dim: int, one_minus: np.ndarray, one_plus: np.ndarray):
    """P(⟨u, e⟩ >= c) and P(⟨u, e⟩ < c) for u uniform on the unit sphere of R^dim, from 1 − c and 1 + c (each
    computed without cancellation by the caller), each tail from its own incomplete beta."""
    if dim == 1:  # u = ±1: c <= 1 and c <= −1 each carry half
        upper = 0.5 * (one_minus >= 0) + 0.5 * (one_plus <= 0)
        return upper, 1.0 - upper
    lo, hi = np.clip(one_minus / 2, 0.0, 1.0), np.clip(one_plus / 2, 0.0, 1.0)
    a = (dim - 1) / 2.0
    return betainc(a, a, lo), betainc(a, a, hi)


def _below(manifold, rho: np.ndarray, rstar: np.ndarray, step: np.ndarray, distance: float):
    """P_u(ρ(Exp_η(ρu), η′) <= r*) and its complement, for ρ(η, η′) = ``distance``; ``step`` = r* − ρ (given
    accurately); r* = nan means never. 1 ∓ c* come from the law of cosines by product formulas
    (cos a − cos b = −2 sin((a + b)/2) sin((a − b)/2), likewise for cosh), so the tails keep their relative accuracy."""
    family, d, D = manifold.polar_volume, manifold.dim, distance
    never = ~np.isfinite(rstar)
    r = np.where(never, 0.0, rstar)
    h = np.where(never, 0.0, step)
    # ρ + Δ − r* = Δ − h, r* − ρ + Δ = Δ + h, r* + ρ − Δ = 2ρ + h − Δ, ρ + Δ + r* = 2ρ + h + Δ.
    near, far = D - h, D + h
    with np.errstate(divide="ignore", invalid="ignore"):
        if family == "flat":
            den = 2 * rho * D
            p, q = _tails(d, far * (2 * rho + h - D) / den, near * (2 * rho + h + D) / den)
        elif family == "sphere":
            den = np.sin(rho) * np.sin(D)
            capped = r >= np.pi
            p, q = _tails(d, 2 * np.sin((2 * rho + h - D) / 2) * np.sin(far / 2) / den,
                          2 * np.sin((2 * rho + h + D) / 2) * np.sin(near / 2) / den)
            p, q = np.where(capped, 1.0, p), np.where(capped, 0.0, q)
        elif family == "hyperbolic":
            den = np.sinh(rho) * np.sinh(D)
            p, q = _tails(d, 2 * np.sinh((2 * rho + h - D) / 2) * np.sinh(far / 2) / den,
                          2 * np.sinh((2 * rho + h + D) / 2) * np.sinh(near / 2) / den)
        else:  # real-projective: |cos ρ cos Δ + sin ρ sin Δ c| >= cos r*, i.e. c >= c₁ or c <= c₂ (c₂ <= c₁)
            den = np.sin(rho) * np.sin(D)
            up1, low1 = _tails(d, 2 * np.sin((2 * rho + h - D) / 2) * np.sin(far / 2) / den,
                               2 * np.sin((2 * rho + h + D) / 2) * np.sin(near / 2) / den)
            # 1 − c₂ = (cos(ρ − Δ) + cos r*)/b, 1 + c₂ = −(cos(ρ + Δ) + cos r*)/b.
            _, low2 = _tails(d, 2 * np.cos((2 * rho + h - D) / 2) * np.cos(far / 2) / den,
                             -2 * np.cos((2 * rho + h + D) / 2) * np.cos(near / 2) / den)
            full = r >= np.pi / 2
            p = np.where(full, 1.0, np.minimum(up1 + low2, 1.0))
            q = np.where(full, 0.0, np.maximum(low1 - low2, 0.0))
    # ρ = 0 (c undefined): ρ′ = Δ exactly.
    at_centre = (D <= r).astype(float)
    p = np.where(rho == 0, at_centre, np.nan_to_num(p, nan=0.0))
    q = np.where(rho == 0, 1.0 - at_centre, np.nan_to_num(q, nan=0.0))
    return np.where(never, 0.0, p), np.where(never, 1.0, q)


def loss_cdf(manifold, sigma: float, distance: float, t, *, panels: int = PANELS, power: int = GAUSSIAN):
    """F(t) = P_η(L <= t) and S(t) = P_η(L > t), each ``(len(t),)``, for L = g(ρ(x, η′)) − g(ρ(x, η)),
    x ~ e^{−g(ρ(x, η))} (the Riemannian Gaussian N(η, σ²); with ``power=LAPLACE`` the Riemannian Laplace),
    ρ(η, η′) = ``distance``. Each is a sum of non-negative terms (accurate in its tail), by
    Gauss–Legendre on ``panels`` panels per piece between the integrand's kinks (``_kinks``)."""
    _check_radial(manifold)
    log_f, upper, peak, log_mass = _radial_setup(manifold, sigma, power)
    if upper > MAX_RADIUS:
        raise ValueError(f"sigma={sigma:g} is too large for the quadrature on {manifold.name}: its radial law reaches "
                         f"radius {upper:.4g} > {MAX_RADIUS:g}, where sinh overflows in float64; use a smaller sigma")
    t = np.atleast_1d(np.asarray(t, dtype=float))
    breaks = np.sort(np.nan_to_num(_kinks(manifold, distance, t, sigma, power, upper), nan=upper), axis=-1)
    ends = np.concatenate([np.zeros((len(t), 1)), breaks, np.full((len(t), 1), upper)], axis=-1)
    fractions = np.linspace(0.0, 1.0, panels + 1)
    edges = (ends[:, :-1, None] + (ends[:, 1:] - ends[:, :-1])[:, :, None] * fractions).reshape(len(t), -1, panels + 1)
    rho, weight = _gauss_legendre(edges)
    rho, weight = rho.reshape(len(t), -1), weight.reshape(len(t), -1)
    f = weight * np.exp(log_f(rho) - log_mass)
    with np.errstate(divide="ignore", invalid="ignore"):
        if power == GAUSSIAN:  # r* = g⁻¹(g(ρ) + t), and r* − ρ = 2σ²t/(ρ + r*) without cancellation
            s = 2 * sigma ** 2 * t[:, None]
            r2 = rho ** 2 + s
            rstar = np.where(r2 >= 0, np.sqrt(np.maximum(r2, 0.0)), np.nan)
            step = np.where(rho + rstar > 0, s / (rho + rstar), 0.0)
        else:
            step = np.broadcast_to(sigma * t[:, None], rho.shape)
            rstar = np.where(rho + step >= 0, rho + step, np.nan)
    below, above = _below(manifold, rho, rstar, step, distance)
    return np.sum(below * f, axis=-1), np.sum(above * f, axis=-1)


def levels_mu(cdf, t) -> np.ndarray:
    """Φ⁻¹(S(−t)) − Φ⁻¹(F(t)) for each t, from ``cdf(t) -> (F, S)``, each Φ⁻¹ read from the smaller of the two
    tails (Φ⁻¹(p) = −Φ⁻¹(1 − p)); ``-inf`` where a tail is below ``SMALLEST_LEVEL``."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    F, S = cdf(np.concatenate([t, -t]))
    n = len(t)
    F_t, S_t, F_m, S_m = F[:n], S[:n], F[n:], S[n:]
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.where(S_m <= 0.5, ndtri(S_m), -ndtri(F_m))
        second = np.where(F_t <= 0.5, ndtri(F_t), -ndtri(S_t))
        ok = (np.minimum(F_t, S_t) > SMALLEST_LEVEL) & (np.minimum(F_m, S_m) > SMALLEST_LEVEL)
        return np.where(ok, first - second, -np.inf)


def _loss_bound(manifold, sigma, distance, power):
    """A bound on |L|: Δ(2ρ_max + Δ)/(2σ²) for the Gaussian (|ρ′² − ρ²| <= Δ(2ρ + Δ)), Δ/σ for the Laplace."""
    if power == GAUSSIAN:
        rho_max = _radial_setup(manifold, sigma, power)[1]
        return distance * (2 * rho_max + distance) / (2 * sigma ** 2)
    return distance / sigma


def sup_over_losses(cdf, bound: float) -> float:
    """sup_t of ``levels_mu(cdf, t)`` for |t| <= ``bound``: a grid over the loss range, refined around its
    maximum by a bounded scalar search."""
    grid = np.linspace(-bound, bound, LOSS_GRID)
    values = levels_mu(cdf, grid)
    j = int(np.argmax(values))
    lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]

    def negative(s):
        value = float(levels_mu(cdf, [s])[0])
        return -value if np.isfinite(value) else 1e300

    best = minimize_scalar(negative, bounds=(lo, hi), method="bounded", options={"xatol": 1e-6 * max(bound, 1.0)})
    return max(float(values[j]), -float(best.fun))


def _mu_sup(manifold, sigma, distance, panels, power=GAUSSIAN):
    """sup_t of ``levels_mu`` of the pair at ρ(η, η′) = ``distance``; on SPD(2) the largest over the splits of the
    distance (``gdp_spd.worst_split``)."""
    if gdp_spd.supports(manifold):
        return gdp_spd.worst_split(sigma, distance, panels)[0]
    return sup_over_losses(lambda s: loss_cdf(manifold, sigma, distance, s, panels=panels, power=power),
                           _loss_bound(manifold, sigma, distance, power))


@dataclass(frozen=True)
class GDPBudget:
    """μ of the Riemannian Gaussian N(·, σ²) for a sensitivity Δ on one space.

    Attributes
    ----------
    mu : float
        sup over t of Φ⁻¹(S(−t)) − Φ⁻¹(F(t)) at ρ(η, η′) = Δ, with the error estimate added (conservative).
    error : float
        |μ(panels) − μ(2·panels)|, the estimated quadrature error.
    worst_distance : float
        Where μ is largest over the checked distances jΔ/8, j = 1..8 (Δ when μ grows with the distance).
    worst_angle : float or None
        On SPD(2), the split of the displacement where μ is largest (``gdp_spd``; π/2: the hyperbolic factor).
    """

    mu: float
    error: float
    worst_distance: float
    worst_angle: float | None = None


def gdp_mu(manifold, sigma, sensitivity, *, panels: int = PANELS, check_distances: bool = True,
           power: int = GAUSSIAN) -> GDPBudget:
    """μ-GDP budget of releasing N(f(D), σ²) for ρ(f(D), f(D′)) <= Δ = ``sensitivity`` (module docstring); with
    ``power=LAPLACE`` that of the Riemannian Laplace ∝ e^{−ρ/σ} (for comparisons at equal μ).

    The sup over pairs at distance <= Δ: μ is computed at the distances jΔ/8 (j = 1..8, with
    ``check_distances``) and the largest is kept, so a non-monotone μ(distance) is not missed on that grid.
    """
    sigma = check_positive("sigma", sigma)
    delta = check_positive("sensitivity", sensitivity)
    check_gdp_space(manifold)
    if gdp_spd.supports(manifold):
        _gaussian_only(manifold, power)
        return gdp_spd.budget(sigma, delta, panels, check_distances)
    support = radial_law(manifold).support
    if delta > support:
        raise ValueError(f"sensitivity {delta:g} exceeds the diameter {support:g} of {manifold.name}")
    fine = _mu_sup(manifold, sigma, delta, 2 * panels, power)
    error = abs(fine - _mu_sup(manifold, sigma, delta, panels, power))
    worst, mu = delta, fine
    if check_distances:
        for j in range(1, 8):
            value = _mu_sup(manifold, sigma, j * delta / 8, panels, power)
            if value > mu:
                worst, mu = j * delta / 8, value
    return GDPBudget(mu=mu + error, error=error, worst_distance=worst)


def _gaussian_only(manifold, power) -> None:
    """``ValueError`` unless ``power`` is ``GAUSSIAN`` (SPD(2) has no Laplace reduction here)."""
    if power != GAUSSIAN:
        raise ValueError(f"no GDP budget of the Riemannian Laplace on {manifold.name}: only the Gaussian's loss "
                         "splits over R x H^2; compare on a space of constant curvature")


def gdp_delta(mu, epsilon) -> float:
    """δ(ε) of a μ-GDP mechanism: Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth & Su 2022, Corollary 2.13)."""
    mu = check_positive("mu", mu)
    eps = float(epsilon)
    return float(max(ndtr(-eps / mu + mu / 2) - np.exp(eps + log_ndtr(-eps / mu - mu / 2)), 0.0))


def gdp_mu_for(epsilon, delta) -> float:
    """The largest μ with δ_μ(ε) <= δ (μ-GDP then implies (ε, δ)-DP); δ_μ(ε) increases in μ."""
    epsilon = check_positive("epsilon", epsilon)
    delta = float(delta)
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    hi = 1.0
    while gdp_delta(hi, epsilon) < delta:
        hi *= 2.0
    lo = hi / 2
    while gdp_delta(lo, epsilon) > delta:
        lo /= 2.0
    return float(brentq(lambda m: gdp_delta(m, epsilon) - delta, lo, hi, xtol=1e-13) * (1 - 1e-9))


def sigma_for_mu(manifold, target_mu, sensitivity, *, panels: int = PANELS, power: int = GAUSSIAN) -> float:
    """The smallest σ (to 1e-4 relative) with ``gdp_mu(manifold, σ, Δ).mu <= target_mu``, by bisection on log σ
    (μ decreases in σ), starting from the flat σ = Δ/μ. On SPD(2) the bisection runs on the hyperbolic split (the
    worst one wherever measured, ``gdp_spd``) and the final step-up on the full budget, so σ stays conservative."""
    target_mu = check_positive("mu", target_mu)
    delta = check_positive("sensitivity", sensitivity)
    check_gdp_space(manifold)
    if gdp_spd.supports(manifold):
        _gaussian_only(manifold, power)

    def excess(log_sigma):
        sigma = float(np.exp(log_sigma))
        if gdp_spd.supports(manifold):
            return gdp_spd.split_mu(sigma, delta, np.pi / 2, panels) - target_mu
        return _mu_sup(manifold, sigma, delta, panels, power) - target_mu

    lo = hi = np.log(delta / target_mu)
    smallest = np.inf
    while True:
        try:
            value = excess(hi)
        except ValueError:  # σ beyond the quadrature's range while μ still exceeds the target
            raise MuOutOfReach(
                f"mu = {target_mu:.4g} is out of reach of the Riemannian Gaussian on {manifold.name} at sensitivity "
                f"{delta:g}: its mu levels off near {target_mu + smallest:.4g} as sigma grows (the volume grows "
                f"exponentially, so far releases still tell the pair apart); choose a larger epsilon or delta, or a "
                f"smaller sensitivity (larger n)") from None
        if value <= 0:
            break
        smallest = min(smallest, value)
        hi += 0.5
    while excess(lo) <= 0 and lo > hi - 20:
        lo -= 0.5
    sigma = float(np.exp(brentq(excess, lo, hi, xtol=1e-4)))
    # Step up until the conservative budget (worst distance, error added) meets the target.
    step = 2e-4
    while gdp_mu(manifold, sigma, delta, panels=panels, power=power).mu > target_mu:
        sigma *= 1.0 + step
        step *= 2
    return sigma


def _pair_cdf(manifold, sigma, distance, panels, pair):
    """``t -> (F, S)`` of the pair at ``distance``; on SPD(2) of the split of ``pair`` = (η, η′) when given, else
    of the worst split (``gdp_spd.worst_split``)."""
    check_gdp_space(manifold)
    if not gdp_spd.supports(manifold):
        return lambda t: loss_cdf(manifold, sigma, distance, t, panels=panels), None
    if pair is None:
        angle = gdp_spd.worst_split(sigma, distance, panels)[1]
    else:
        angle = gdp_spd.pair_angle(*pair)[1]
    return gdp_spd.split_cdf(sigma, distance, angle, panels), gdp_spd.loss_bound(sigma, distance, angle)


def pair_epsilon(manifold, sigma, distance, delta, *, panels: int = PANELS, pair=None) -> float:
    """Exact ε(δ) of the pair N(η, σ²), N(η′, σ²) at ρ(η, η′) = ``distance``: the root of
    δ(ε) = P_η(L > ε) − e^ε P_η′(L > ε) = S(ε) − e^ε F(−ε) (decreasing in ε), 0 when δ(0) <= δ. On SPD(2) the
    loss depends on the direction: ``pair`` = (η, η′) gives it (else the worst split)."""
    cdf, _ = _pair_cdf(manifold, sigma, distance, panels, pair)

    def excess(eps):
        F, S = cdf([eps, -eps])
        return S[0] - np.exp(eps) * F[1] - delta

    return epsilon_at_delta(excess, xtol=1e-10)


def tradeoff_curve(manifold, sigma, distance, alpha, *, panels: int = PANELS, pair=None) -> np.ndarray:
    """β = T(N(η, σ²), N(η′, σ²))(α) at ρ(η, η′) = ``distance`` for the levels ``alpha`` ``(m,)``: the
    Neyman–Pearson curve α = F(t), β = F(−t), read off a fine grid of t by interpolation (``pair`` as in
    ``pair_epsilon``)."""
    cdf, bound = _pair_cdf(manifold, sigma, distance, panels, pair)
    if bound is None:
        rho_max = _radial_setup(manifold, sigma)[1]
        bound = distance * (2 * rho_max + distance) / (2 * sigma ** 2)
    t = np.linspace(-bound, bound, 4001)
    F, _ = cdf(t)
    return np.interp(np.asarray(alpha, dtype=float), F, F[::-1])


def gaussian_tradeoff(mu, alpha) -> np.ndarray:
    """G_μ(α) = Φ(Φ⁻¹(1 − α) − μ)."""
    return ndtr(ndtri(1.0 - np.asarray(alpha, dtype=float)) - mu)
