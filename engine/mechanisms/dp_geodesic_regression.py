"""Differentially private geodesic regression (Kulkarni & Soto): p̃ by KNG, then ṽ ∈ T_p̃M by KNG.

Step 1 releases a footpoint p̃ from the density ∝ exp(−‖∇_p E_τ(p, 0)‖/σ_p) on M, step 2 a shooting
vector ṽ from ∝ exp(−‖∇_v E_τ(p̃, v)‖/σ_v) on T_p̃M (with Lebesgue measure in an orthonormal basis), with
σ = 2Δ/ε (``GradientKNG``; the paper's Δ/ε as ``scale="paper"``, then each step is 2ε-DP). Sequential
composition: (ε_p + ε_v)-DP in total; step 2 only uses p̃, which is already public.

Three choices make the Table 1 argument hold at every state the sampler visits, not only at the fit
(the paper assumes τ-closeness at the least-squares geodesic only):

* **Clipped residuals.** E_τ is the Huber energy of ``geodesic_regression`` (residuals clipped at τ):
  each record's gradient term is then at most τ times the Jacobi factors, whatever (p, v).
* **v = 0 in step 1.** The gradient in p must not depend on the data through v (a non-private v̂ in
  ∇_p E(p, v̂) would change with every record). With the covariate centred on the middle of its public
  range, ∇_p E(p, v) does not depend on v at all in flat space (Σ x_i = 0), so v = 0 is the natural
  data-independent choice; step 1 is then KNG on the clipped Fréchet objective.
* **Public balls.** With clipping the gradients stay bounded at infinity, so the laws are conditioned on
  public balls: p on B_r(m0) when one is given (required on negatively curved spaces), v on
  {‖v‖ ≤ v_max} (default per unit covariate: 2r, the longest geodesic inside the data ball; 2(τ_m + τ) on
  κ < 0, the geodesic length Table 1 assumes; half the injectivity radius without a ball).

**What clipping costs in high dimension.** Far from the data every clipped residual has length τ, so
‖∇E_τ‖ levels off near τ while the volume of a ball of radius ρ in dimension d grows like ρ^d. The density
ratio between the fit and far away is only about e^{τ/σ} = e^{nε/4} (σ = 2Δ/ε, Δ = 2τ/n), against a
volume ratio that can exceed 10^{90} on Σ^50_2 (d = 96): without a ball the law then sits near the cut
locus of the data unless ε is large. Conditioning on the public data ball keeps it in the region where
the paper's bound was derived; the unclipped gradient would concentrate better but would only have
sensitivity 2τ/n where the residuals stay below τ, which the sampler cannot guarantee.

Reference: A. Kulkarni and C. Soto, *Differentially private geodesic regression* (densities, Table 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.bounds.regression import radius_limit, table1_sensitivities
from engine.estimators.geodesic_regression import (
    GeodesicRegressionResult,
    check_regression_space,
    energy_gradient,
    geodesic_regression,
    residuals,
)
from engine.manifolds import Euclidean
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.kng import GradientKNG
from engine.mechanisms.multichain import ChainsResult
from engine.mechanisms.protocol import Release
from engine.validation import check_finite_array, check_int, check_positive

# Chain settings of ``release`` when not given: step-1 warm-up and thinning, step-2 warm-up and post-warm-up steps.
FOOTPOINT_WARMUP = 400
FOOTPOINT_THIN = 50
VELOCITY_WARMUP = 150
VELOCITY_DRAWS = 50
# Gradient steps of the inner solve for the step-2 proposal centre v*(p̃) (only the sampler's efficiency
# depends on it).
_CENTRE_STEPS = 20


@dataclass(frozen=True)
class AssumptionCheck:
    """One assumption of the guarantee or of Table 1, checked on public inputs or on the data."""

    name: str
    holds: bool
    detail: str


@dataclass(frozen=True, kw_only=True)
class PrivateRegressionRelease(Release):
    """Private (p̃, ṽ) and what the curator sees (a ``Release`` whose ``points`` are the footpoints p̃).

    Attributes
    ----------
    points, velocity : ndarray ``(*batch, *point_shape)`` or ``(size, *batch, *point_shape)``
        The released footpoints p̃ and shooting vectors ṽ (tangent at p̃).
    sigma, guarantee
        σ_p of the footpoint step and the composed guarantee (``privacy_guarantee()``).
    fit : GeodesicRegressionResult
        The non-private least-squares geodesic (never published).
    chain, velocity_chain : ChainsResult
        Sampler diagnostics of the footpoint and the shooting-vector steps (acceptance, split-R̂,
        bulk/tail ESS, traces).
    """

    velocity: np.ndarray
    fit: GeodesicRegressionResult
    velocity_chain: ChainsResult


class PrivateGeodesicRegression:
    """(ε_p + ε_v)-DP geodesic regression by two K-norm gradient releases (module docstring).

    Parameters (keyword-only)
    -------------------------
    manifold : Manifold
        Sphere, Hyperbolic, Euclidean or Kendall.
    n : int
        Number of records (public).
    epsilon_p, epsilon_v : float > 0
        Budgets of the footpoint and of the shooting vector.
    tau : float > 0
        Public residual bound τ (residuals beyond it are clipped).
    x_max : float > 0
        Public bound on |x_i|; covariates outside [−x_max, x_max] are refused.
    tau_m : float > 0 or None
        Table 1's radius bound on negatively curved spaces (required there).
    ball_center, ball_radius : optional
        Public data ball B_r(m0): records outside are refused and p̃ is drawn inside.
    v_max : float > 0 or None
        Radius of the public ball of shooting vectors.
    scale : {"private", "paper"}
        σ = 2Δ/ε or the paper's Δ/ε (then the guarantee is 2(ε_p + ε_v)).
    chains : int >= 4
    clip_residuals : bool
        Clip residuals at τ (default). ``False`` samples the paper's unclipped law, whose Table 1 bound only
        holds where every residual stays below τ; the guarantee then says so.
    """

    def __init__(self, *, manifold, n, epsilon_p, epsilon_v, tau, x_max=1.0, tau_m=None, ball_center=None,
                 ball_radius=None, v_max=None, scale="private", chains=4, clip_residuals=True):
        check_regression_space(manifold)
        self.clip_residuals = bool(clip_residuals)
        self.manifold = manifold
        self.n = check_int("n", n)
        self.tau = check_positive("tau", tau)
        self.x_max = check_positive("x_max", x_max)
        self.tau_m = None if tau_m is None else check_positive("tau_m", tau_m)
        kappa_l = manifold.kappa_min
        if kappa_l < 0 and (ball_center is None or self.tau_m is None):
            raise ValueError(f"on {manifold.name} (curvature {kappa_l:g} < 0) give tau_m and a public data ball "
                             f"(ball_center, ball_radius): Table 1 needs them and the footpoint law is only "
                             f"normalisable on a ball, got tau_m={tau_m!r}, ball_center={ball_center!r}")
        self.delta_p, self.delta_v = table1_sensitivities(self.n, self.tau, kappa_l, tau_m=self.tau_m,
                                                          x_max=self.x_max)
        if v_max is None:
            if kappa_l < 0:
                limit = 2.0 * (self.tau_m + self.tau)
            elif ball_radius is not None:
                limit = 2.0 * check_positive("ball_radius", ball_radius)
            else:
                limit = 0.5 * manifold.injectivity_radius
            v_max = limit / self.x_max
        self.v_max = check_positive("v_max", v_max)
        self.footpoint_mechanism = GradientKNG(
            manifold=manifold, epsilon=epsilon_p, sensitivity=self.delta_p, scale=scale, ball_center=ball_center,
            ball_radius=ball_radius, chains=chains, objective="the footpoint gradient of the clipped regression energy")
        self.velocity_space = Euclidean(manifold.dim)
        self.velocity_mechanism = GradientKNG(
            manifold=self.velocity_space, epsilon=epsilon_v, sensitivity=self.delta_v, scale=scale,
            ball_center=np.zeros(manifold.dim), ball_radius=self.v_max, chains=chains,
            objective="the shooting-vector gradient of the clipped regression energy at the released footpoint")
        self.ball = self.footpoint_mechanism.ball

    @property
    def epsilon_p(self) -> float:
        return self.footpoint_mechanism.epsilon

    @property
    def epsilon_v(self) -> float:
        return self.velocity_mechanism.epsilon

    def least_squares(self, x, y) -> GeodesicRegressionResult:
        """The least-squares geodesic of validated data (curator-side, never released), started from the
        footpoint mechanism's public reference so that it depends on neither the records' order nor their
        representatives."""
        return geodesic_regression(self.manifold, x, y, init=self.footpoint_mechanism.reference)

    def check_data(self, x, y):
        """Validated covariate ``(..., n)`` and responses ``(..., n, *point_shape)``; ValueError names the record."""
        m = self.manifold
        y = m.check_points(y, "y")
        if y.ndim < m.point_ndim + 1 or y.shape[y.ndim - m.point_ndim - 1] != self.n:
            raise ValueError(f"y must hold n = {self.n} records, shape (..., {self.n}, *{m.point_shape}), got shape "
                             f"{y.shape}")
        x = check_finite_array("x", x)
        if x.ndim < 1 or x.shape[-1] != self.n:
            raise ValueError(f"covariate x must have last axis of length n = {self.n}, got shape {x.shape}")
        if np.any(np.abs(x) > self.x_max):
            i = tuple(int(j) for j in np.argwhere(np.abs(x) > self.x_max)[0])
            raise ValueError(f"covariate x[{i}] = {x[i]:.6g} lies outside the public range [-{self.x_max:g}, "
                             f"{self.x_max:g}]; rescale it with public bounds")
        if self.ball:
            d = m.dist(y, self.ball[0])
            if np.any(d > self.ball[1]):
                i = tuple(int(j) for j in np.argwhere(d > self.ball[1])[0])
                raise ValueError(f"record y[{i}] is at distance {d[i]:.6g} from the ball centre, outside the public "
                                 f"data ball of radius {self.ball[1]:g}")
        return x, y

    def assumptions(self, x, y, fit: GeodesicRegressionResult | None = None) -> list[AssumptionCheck]:
        """Table 1's assumptions on these data (a curator-side report; the fit and residuals are not private)."""
        m = self.manifold
        x, y = self.check_data(x, y)
        fit = self.least_squares(x, y) if fit is None else fit
        limit = radius_limit(m.kappa_min, m.kappa_max, tau_m=self.tau_m)
        checks = []
        if self.ball:
            r = self.ball[1]
            checks.append(AssumptionCheck(
                "data radius", bool(r <= limit),
                f"public ball radius r = {r:.4g} against Table 1's limit {limit:.4g} "
                + ("(pi/(8 sqrt(kappa_h)))" if m.kappa_max > 0 else "(tau_m)" if m.kappa_min < 0 else "")
                + "; with clipped residuals the sensitivity holds for any r, the limit keeps the fit unique"))
        else:
            spread = float(np.max(m.dist(y, np.expand_dims(fit.footpoint, -m.point_ndim - 1))))
            checks.append(AssumptionCheck(
                "data radius", bool(spread <= limit),
                f"largest distance of a record from the fitted footpoint {spread:.4g} against Table 1's limit "
                f"{limit:.4g} (no public ball given, so this is only a diagnostic)"))
        q, e = residuals(m, fit.footpoint, fit.velocity, x, y)
        worst = float(np.max(m.norm(q, e)))
        share = float(np.mean(m.norm(q, e) > self.tau))
        checks.append(AssumptionCheck(
            "tau-close fit", bool(worst <= self.tau),
            f"largest residual of the least-squares geodesic {worst:.4g} against tau = {self.tau:g} "
            f"({100 * share:.1f} % of residuals above tau are clipped, which biases the private fit)"))
        checks.append(AssumptionCheck(
            "covariate range", True, f"|x_i| <= x_max = {self.x_max:g} (checked; Table 1's Delta_v takes x_max = 1)"))
        length = float(np.max(np.abs(x))) * self.v_max
        checks.append(AssumptionCheck(
            "geodesic length", bool(m.kappa_min >= 0 or length <= 2 * (self.tau_m + self.tau)),
            f"longest geodesic segment the sampler can reach |x| v_max = {length:.4g}"
            + (f" against 2(tau_m + tau) = {2 * (self.tau_m + self.tau):.4g}" if m.kappa_min < 0 else
               " (no limit needed when kappa_l >= 0)")))
        return checks

    def release(self, x, y, *, size=None, rng=None, warmup: int = FOOTPOINT_WARMUP, thin: int = FOOTPOINT_THIN,
                velocity_warmup: int = VELOCITY_WARMUP, velocity_draws: int = VELOCITY_DRAWS, window: int = 0,
                diagnostics: bool = True, fit: GeodesicRegressionResult | None = None) -> PrivateRegressionRelease:
        """Private (p̃, ṽ) for each data set: ``size`` pairs per data set (one if ``None``).

        Parameters
        ----------
        x : array ``(n,)`` or ``(..., n)``, within [−x_max, x_max]
        y : array ``(..., n, *point_shape)``
        size : int or None
            Number of pairs: ``size`` footpoints from the step-1 chains (thinned, taken in turn), then one
            velocity per footpoint, each from its own ``chains`` chains.
        rng : numpy.random.Generator, int or None
        warmup, thin : int
            Step-1 warm-up and thinning.
        velocity_warmup, velocity_draws : int
            Step-2 warm-up (its independence proposal is close to the target: a short warm-up suffices) and
            the post-warm-up steps whose traces feed the diagnostics; ṽ is chain 0's last state.
        window : int
            Least number of post-warm-up steps of both steps' chains (``multichain_mh``): the chains run on
            after the kept draws until the diagnostics have this many states per chain.
        diagnostics : bool
            Compute R̂ and ESS (arviz-stats, about 4 ms per target).
        fit : GeodesicRegressionResult or None
            The least-squares fit of these data (curator-side, never released), computed when ``None``; a study
            that releases many times from one data set passes it once.
        """
        rng = np.random.default_rng(rng)
        x, y = self.check_data(x, y)
        fit = self.least_squares(x, y) if fit is None else fit
        p_release = self.release_footpoint(x, y, fit=fit, size=size, rng=rng, warmup=warmup, thin=thin,
                                           window=window, diagnostics=diagnostics)
        v_release = self.release_velocity(x, y, p_release.points, fit=fit, rng=rng, warmup=velocity_warmup,
                                          draws=velocity_draws, window=window, diagnostics=diagnostics)
        guarantee = self.privacy_guarantee()
        return PrivateRegressionRelease(points=p_release.points, sigma=guarantee.sigma, guarantee=guarantee,
                                        exact=False, chain=p_release.chain, velocity=v_release.points, fit=fit,
                                        velocity_chain=v_release.chain)

    def release_footpoint(self, x, y, *, fit: GeodesicRegressionResult | None = None, size=None, rng=None,
                          warmup: int = FOOTPOINT_WARMUP, thin: int = FOOTPOINT_THIN, window: int = 0,
                          diagnostics: bool = True) -> Release:
        """Step 1 alone: the private footpoints p̃ (``points``; ``chain`` is the sampler's ``ChainsResult``),
        arguments as in ``release``."""
        x, y = self.check_data(x, y)
        fit = self.least_squares(x, y) if fit is None else fit
        centre, unclipped = self._footpoint_centre(fit.footpoint, x, y)
        return self.footpoint_mechanism.release(self.footpoint_gradient_norm(x, y), centre,
                                                curvature=np.maximum(unclipped, 0.1), size=size, rng=rng,
                                                warmup=warmup, thin=thin, window=window, diagnostics=diagnostics)

    def footpoint_gradient_norm(self, x, y):
        """Step 1's K-norm p ↦ ‖∇_p E_τ(p, 0)‖_p on validated data (p ``(..., *batch, *point_shape)``)."""
        m = self.manifold
        tau, zero = (self.tau if self.clip_residuals else None), np.zeros(m.point_shape)

        def norm(p):
            return m.norm(p, energy_gradient(m, p, zero, x, y, clip=tau, part="p"))
        return norm

    def velocity_gradient_norm(self, x, y, p_tilde):
        """Step 2's K-norm v ↦ ‖∇_v E_τ(p̃, v)‖ at the footpoints ``p_tilde`` ``(*batch, *point_shape)``
        (v ``(..., *batch, *point_shape)`` tangent at p̃) on validated data."""
        m = self.manifold
        tau = self.tau if self.clip_residuals else None

        def norm(v):
            return m.norm(p_tilde, energy_gradient(m, p_tilde, v, x, y, clip=tau, part="v"))
        return norm

    def release_velocity(self, x, y, p_tilde, *, fit: GeodesicRegressionResult | None = None, rng=None,
                         warmup: int = VELOCITY_WARMUP, draws: int = VELOCITY_DRAWS, window: int = 0,
                         diagnostics: bool = True) -> Release:
        """Step 2 alone: one shooting vector ṽ ∈ T_p̃M per footpoint of ``p_tilde`` ``(*batch, *point_shape)``,
        public to this step (``release`` passes its private p̃); ``points`` are the ṽ, ``chain`` the sampler's
        ``ChainsResult``. ``warmup``, ``draws``, ``window``, ``diagnostics`` and ``fit`` as ``velocity_warmup``,
        ``velocity_draws`` and the others in ``release``."""
        m = self.manifold
        x, y = self.check_data(x, y)
        p_tilde = m.check_points(p_tilde, "p_tilde")
        fit = self.least_squares(x, y) if fit is None else fit
        basis = m.tangent_basis(p_tilde)
        idx = "abcd"[: m.point_ndim]
        flat_basis = basis.reshape(basis.shape[: basis.ndim - m.point_ndim] + (-1,))

        def to_vector(coef):
            # A batched matrix product (BLAS) rather than einsum: this runs at every step of every chain.
            return (coef[..., None, :] @ flat_basis)[..., 0, :].reshape(coef.shape[:-1] + m.point_shape)

        gradient_norm = self.velocity_gradient_norm(x, y, p_tilde)
        centre = self._velocity_centre(p_tilde, fit, x, y)
        coef_centre = np.einsum(f"...i{idx},...{idx}->...i", basis, centre)
        out = self.velocity_mechanism.release(
            lambda coef: gradient_norm(to_vector(coef)), coef_centre, curvature=np.mean(x**2), size=None, rng=rng,
            warmup=warmup, thin=check_int("draws", draws), window=window, diagnostics=diagnostics)
        return Release(points=to_vector(out.points), sigma=out.sigma, guarantee=out.guarantee, exact=False,
                       chain=out.chain)

    def _footpoint_centre(self, start, x, y):
        """Minimiser of E_τ(p, 0) (the clipped Fréchet mean) from ``start``, and its share of unclipped records.

        The share is the Hessian scale of ‖∇_p E_τ(·, 0)‖ near its zero, which sets the proposal's radius.
        """
        m, p = self.manifold, start
        zero = np.zeros(m.point_shape)
        clip = self.tau if self.clip_residuals else None
        for _ in range(_CENTRE_STEPS):
            p = m.exp(p, -energy_gradient(m, p, zero, x, y, clip=clip, part="p"))
        d = m.dist(y, np.expand_dims(p, -m.point_ndim - 1))
        return p, (np.mean(d <= self.tau, axis=-1) if self.clip_residuals else np.ones(d.shape[:-1]))

    def _velocity_centre(self, p_tilde, fit, x, y):
        """argmin_v E_τ(p̃, v) in the v-ball, by preconditioned gradient steps from the transported v̂."""
        m = self.manifold
        v = np.broadcast_to(fit.velocity, p_tilde.shape)
        if not (m.kappa_min == m.kappa_max == 0):
            v = m.to_tangent(p_tilde, m.parallel_transport(np.broadcast_to(fit.footpoint, p_tilde.shape), p_tilde, v))
        h = np.mean(x**2)
        clip = self.tau if self.clip_residuals else None
        for _ in range(_CENTRE_STEPS):
            v = v - energy_gradient(m, p_tilde, v, x, y, clip=clip, part="v") / h
            length = m.norm(p_tilde, v)
            v = v * m.per_point(np.minimum(1.0, 0.99 * self.v_max / np.maximum(length, 1e-300)))
        return v

    def privacy_guarantee(self) -> PrivacyGuarantee:
        gp = self.footpoint_mechanism.privacy_guarantee()
        gv = self.velocity_mechanism.privacy_guarantee()
        held = ("residuals clipped at τ so they hold at every (p, v)" if self.clip_residuals else
                "residuals NOT clipped (the paper's law): they hold only where every residual is at most τ, which "
                "fails far from the fit, where the law also puts mass, so the guarantee is not established")
        assumptions = (
            f"Table 1 sensitivities Δ_p = {self.delta_p:.4g}, Δ_v = {self.delta_v:.4g} (n = {self.n}, "
            f"τ = {self.tau:g}, κ_l = {self.manifold.kappa_min:g}); {held}",
            "step 1 evaluates the footpoint gradient at v = 0 (data-independent), step 2 at the released footpoint",
            f"covariate within the public range [−{self.x_max:g}, {self.x_max:g}], n public, neighbours replace one "
            "record",
            f"shooting vectors conditioned on the public ball ‖v‖ ≤ {self.v_max:.4g}",
        ) + gp.assumptions[1:]
        return PrivacyGuarantee(
            mechanism=f"private geodesic regression (two K-norm gradient releases) on {self.manifold.name}",
            epsilon=gp.epsilon + gv.epsilon, delta=0.0, sigma=gp.sigma,
            rule=f"sequential composition: footpoint {gp.rule} (σ_p = {gp.sigma:.4g}, ε = {gp.epsilon:g}) "
                 f"then shooting vector {gv.rule} (σ_v = {gv.sigma:.4g}, ε = {gv.epsilon:g})",
            reason=f"{gp.reason}; {gv.reason}; the second release uses the first only as public input",
            assumptions=assumptions,
        )
