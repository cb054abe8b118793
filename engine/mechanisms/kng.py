"""K-norm gradient mechanism (KNG): for Fréchet means (``KNormGradient``) and any objective (``GradientKNG``).

Reimherr & Awan (2019, *KNG: The K-Norm Gradient Mechanism*, NeurIPS) release a draw from the
density ∝ exp(−(ε/(2Δ_∇))·‖∇ℓ_D(θ)‖_K) of an objective ℓ_D; Soto, Bharath, Reimherr & Slavković
(2022) carry it to manifolds ("FM-KNG" in Han, Mishra, Jawanpuria & Gao, §6.1–6.2), and Kulkarni &
Soto use it for geodesic regression. For the Fréchet objective F_D(W) = (1/(2n)) Σ_i d²(W, X_i),
grad F_D(W) = −(1/n) Σ_i Log_W(X_i), and the release has density

    g_D(W) ∝ exp(−‖grad F_D(W)‖_W / σ) = exp(−‖Σ_i Log_W X_i‖_W / (n σ))

w.r.t. the Riemannian volume, optionally restricted to a public ball B_r(m0).

**Privacy rule.** Let D, D' differ in one record (X_n replaced by X'_n). At every W the reverse
triangle inequality in T_WM gives |‖grad F_D(W)‖ − ‖grad F_D'(W)‖| ≤ ‖grad F_D(W) − grad F_D'(W)‖
= ‖Log_W X_n − Log_W X'_n‖_W / n ≤ Δ_∇, so the unnormalised densities differ by at most a factor
e^{Δ_∇/σ} at every W, and so do their integrals Z_D, Z_D'. Hence g_D/g_D' ≤ e^{2Δ_∇/σ} and
σ = 2Δ_∇/ε gives ε-DP: the density is exp(−ε‖grad F‖/(2Δ_∇)), Reimherr & Awan's form. The factor 2
may be dropped only where Z_D is the same for every data set. That holds on a complete flat space
(R^d, SPD with the log-Euclidean metric): in linear coordinates grad F_D(W) = W − x̄_D, a translate
of one function, and KNG is the ℓ2 K-norm mechanism around x̄_D with radius ~ Gamma(d, σ),
σ = Δ_∇/ε. On curved spaces Z_D depends on the data set (even on homogeneous ones: neighbouring data
sets are not isometric images of one another), and on any space once the law is conditioned on a
ball, so σ = 2Δ_∇/ε. Han et al. (§5) quote Soto et al.'s noise level σ = 4D_W/(nε) = 2(2D_W/n)/ε,
this rule with Δ_∇ = 2D_W/n. Kulkarni & Soto's densities exp(−‖∇E‖/(Δ/ε)) omit the factor: with
the gradient bounds of their Table 1 as Δ they are 2ε-DP, or ε-DP with Δ doubled.

**Sensitivity** Δ_∇ = sup ‖Log_W X − Log_W X'‖_W / n over the W the law can reach and X, X' in the
data domain B_r(m0) (``frechet_gradient_sensitivity``):

* Hadamard spaces (complete, simply connected, curvature ≤ 0: R^d, H^d, SPD affine-invariant):
  Exp_W does not decrease distances (Rauch comparison), so Log_W is 1-Lipschitz on all of M and
  ‖Log_W X − Log_W X'‖ ≤ d(X, X') ≤ 2r: Δ_∇ = 2r/n at *every* W, so the unconditioned law is private.
* Curvature ≤ κ with κ > 0: Log_W expands distances and jumps across the cut locus, so no bound of
  this kind holds on all of M. For W, X, X' in B_r(m0), r < π/(4√κ), Lemma 1 of the Reimherr,
  Bharath & Soto (2021) supplement (Karcher's Jacobi field estimates) gives ‖Log_W X − Log_W X'‖
  ≤ 2r(2 − h(r, κ)), h = 2r√κ·cot(2r√κ): Δ_∇ = 2r(2 − h)/n (Soto et al.'s value, Han et al. §6.2).
  It covers W in the ball only, so the law must be conditioned on B_r(m0) (``ball_center``,
  ``ball_radius``); on a compact space Δ_∇ = 2·diam(M)/n is a crude global alternative.

**Normalisability.** On a Hadamard space the CAT(0) angle comparison gives R − r ≤ ‖grad F_D(W)‖
≤ R + r with R = d(W, m0) (project each Log_W X_i on the direction of m0), so g_D is integrable
exactly when the Laplace law ∝ exp(−d(W, m0)/σ) is: σ < 1/(d − 1) on H^d and σ < 1/c_k on SPD(k)
affine (``engine.mechanisms.laplace.scale_limit``); larger σ needs the ball.

**Sampling.** Approximate: one ``metropolis_hastings`` chain per data set, started at its
non-private Fréchet mean (``engine.estimators.frechet_mean``), with the proposal and step
adaptation of that sampler (initial radius σ). Each step evaluates the full gradient: n
logarithms per chain (closed form on SPD(2) affine, ``Manifold.weighted_log_sum``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.estimators.frechet_mean import frechet_mean
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.laplace import radial_law, require_normalisable
from engine.mechanisms.mcmc import check_ball, metropolis_hastings
from engine.mechanisms.multichain import multichain_mh, uniform_in_ball
from engine.mechanisms.protocol import Release
from engine.mechanisms.representative import public_reference
from engine.validation import check_int, check_positive


def frechet_gradient_norm(manifold, w, points) -> np.ndarray:
    """‖grad F(W)‖_W = ‖(1/n) Σ_i Log_W X_i‖_W for each data set.

    Parameters
    ----------
    manifold : Manifold
    w : array ``(*batch, *point_shape)``
    points : array ``(*batch, n, *point_shape)``

    Returns
    -------
    ndarray, shape ``(*batch,)``
    """
    w = np.asarray(w, dtype=float)
    points = np.asarray(points, dtype=float)
    batch = w.shape[: w.ndim - manifold.point_ndim]
    n = points.shape[points.ndim - manifold.point_ndim - 1]
    flat_w = w.reshape((-1,) + manifold.point_shape)
    flat_points = points.reshape((flat_w.shape[0], n) + manifold.point_shape)
    total = manifold.weighted_log_sum(flat_w, flat_points, np.full((flat_w.shape[0], n), 1.0 / n))
    return manifold.norm(flat_w, total).reshape(batch)


class KNormGradient:
    """ε-DP Fréchet mean by the K-norm gradient mechanism, density ∝ exp(−‖grad F_D(W)‖_W/σ).

    Parameters (keyword-only)
    -------------------------
    manifold : Manifold
    epsilon : float > 0
    sensitivity : float > 0
        Public bound Δ_∇ on ‖grad F_D(W) − grad F_D'(W)‖_W over neighbouring data sets and every W
        the law can reach (``frechet_gradient_sensitivity``: 2r/n on Hadamard spaces).
    ball_center, ball_radius : optional
        Condition the law on B_r(m0), public; required in effect on positively curved spaces,
        where the Lemma 1 bound covers W in the ball only.
    reference : array or None
        Public point fixing the representative of the chain's start and of every release on a quotient
        space (``engine.mechanisms.representative``); the ball's centre, else ``manifold.origin``, when ``None``.

    Attributes
    ----------
    sigma : float
        Δ_∇/ε on a complete flat space without ball, 2Δ_∇/ε otherwise (module notes).

    Raises
    ------
    ValueError
        Invalid ε or Δ_∇, or a σ at which the unconditioned law is not normalisable.
    """

    def __init__(self, *, manifold, epsilon, sensitivity, ball_center=None, ball_radius=None, reference=None):
        self.epsilon = check_positive("epsilon", epsilon)
        self.sensitivity = check_positive("sensitivity", sensitivity)
        self.manifold = manifold
        self.ball = check_ball(manifold, ball_center, ball_radius)
        self.reference = public_reference(manifold, reference, self.ball)
        # Only on a flat space (isometric to R^d) without a ball does Z_D not depend on D.
        self.data_dependent_normaliser = not (manifold.flat and self.ball is None)
        self.sigma = (2.0 if self.data_dependent_normaliser else 1.0) * self.sensitivity / self.epsilon
        if self.ball is None:
            require_normalisable(manifold, self.sigma, self.sensitivity, self.epsilon, law="K-norm gradient law",
                                 why="far from the data it decays like the Laplace law of the same sigma")

    def release(self, points, *, size=None, rng=None, step=None, burn_in: int = 10_000, thin: int = 100,
                keep_chain: bool = False) -> Release:
        """Approximate KNG draws for each data set, one MH chain per data set.

        Parameters
        ----------
        points : array ``(*batch, n, *point_shape)``
            Data sets X_1..X_n (leading axes index independent data sets, e.g. repeated releases).
        size, rng, step, burn_in, thin
            As in ``metropolis_hastings``; chains start at the non-private Fréchet mean, computed from the
            public reference (at the ball centre if that mean lies outside the ball).
        keep_chain : bool
            Also record ‖grad F(W_t)‖ at every step (``release.chain.chain``).

        Returns
        -------
        Release
            ``points`` ``(*batch, *point_shape)`` or ``(size, *batch, *point_shape)``, approximate
            (``exact=False``); ``chain`` is the ``MHResult`` with the acceptance rate and ESS per chain
            (diagnostics for the curator, not for publication) and, with ``keep_chain``, the trace.
        """
        m = self.manifold
        pts = m.check_points(points, "points")
        if pts.ndim < m.point_ndim + 1:
            raise ValueError(f"points must have shape (..., n, *{m.point_shape}), got shape {pts.shape}")
        start = m.representative(frechet_mean(m, pts, init=self.reference).mean, self.reference)
        if self.ball:
            outside = m.dist(start, self.ball[0]) > self.ball[1]
            start = np.where(m.per_point(outside), self.ball[0], start)
        n = pts.shape[pts.ndim - m.point_ndim - 1]
        flat_points = pts.reshape((-1, n) + m.point_shape)
        weights = np.full(flat_points.shape[:1] + (n,), 1.0 / n)

        def log_density(w):
            log_g = -m.norm(w, m.weighted_log_sum(w, flat_points, weights)) / self.sigma
            if self.ball:
                log_g = np.where(m.dist(w, self.ball[0]) <= self.ball[1], log_g, -np.inf)
            return log_g

        result = metropolis_hastings(
            m, log_density, start, size=size, rng=rng, step=step, initial_step=self.sigma,
            max_step=min(4.0 * m.dim * self.sigma, 2.0 * self.ball[1] if self.ball else np.inf),
            burn_in=burn_in, thin=thin, keep_chain=keep_chain,
        )
        if keep_chain:
            result = replace(result, chain=-self.sigma * result.chain)
        return Release(points=m.representative(result.samples, self.reference), sigma=self.sigma,
                       guarantee=self.privacy_guarantee(), exact=False,
                       chain=result)

    def privacy_guarantee(self) -> PrivacyGuarantee:
        ratio = (
            "|‖grad F_D(W)‖ − ‖grad F_D′(W)‖| ≤ Δ at every W (reverse triangle inequality), so the "
            "density ratio is at most exp(Δ/σ)"
        )
        if self.data_dependent_normaliser:
            rule = "σ = 2Δ/ε"
            cause = ("the law is conditioned on a ball" if self.ball else f"{self.manifold.name} is curved")
            why = (f"K-norm gradient mechanism (Reimherr & Awan 2019; Soto et al. 2022 on manifolds): {ratio}, "
                   f"and since {cause} the normalising constant depends on the data set and contributes the "
                   "same factor")
        else:
            rule = "σ = Δ/ε"
            why = (f"K-norm gradient mechanism (Reimherr & Awan 2019): {ratio}; {self.manifold.name} is complete "
                   "and flat, grad F_D(W) = W − mean(D) in linear coordinates, so the normalising constant is the "
                   "same for every data set (the ℓ₂ K-norm mechanism around the mean)")
        assumptions = [
            f"the sensitivity Δ = {self.sensitivity:g} is a public, data-independent bound on "
            "‖Log_W X − Log_W X′‖/n for neighbouring data sets at every W the law can reach: 2r/n for data "
            "in B_r(m₀) on Hadamard spaces (any W); 2r(2 − h(r, κ))/n when the curvature is at most κ > 0, "
            "for W and data in B_r(m₀) (Reimherr et al., supplement Lemma 1), which needs the law conditioned on "
            "that ball",
            "the objective is F(W) = (1/(2n)) Σᵢ d²(W, Xᵢ) with n public (neighbours replace one record)",
            "approximate MCMC: the guarantee is that of the exact KNG law; the released Metropolis–Hastings state "
            "(random-walk, finite burn-in, adapted step) follows it only approximately, so the guarantee holds "
            "only up to the unquantified MCMC error",
            "only the samples are published: the chain starts at the non-private mean, and its trace, acceptance "
            "rate and effective sample size depend on the data",
        ]
        if self.ball:
            assumptions.append(f"the ball (radius {self.ball[1]:g}) and its centre are public and data-independent")
        return PrivacyGuarantee(
            mechanism=f"K-norm gradient (Fréchet mean) on {self.manifold.name}",
            epsilon=self.epsilon, delta=0.0, sigma=self.sigma, rule=rule, reason=why, assumptions=tuple(assumptions),
        )


SCALES = ("private", "paper")
# Uniform proposals per round of ``GradientKNG.release_exact`` (bounds the memory of one gradient evaluation).
_EXACT_CHUNK = 1 << 16


class GradientKNG:
    """K-norm gradient mechanism on any objective: density ∝ exp(−‖grad ℓ_D(θ)‖_θ/σ) w.r.t. the volume.

    The privacy argument of the module docstring holds for any objective ℓ_D whose gradient moves by at
    most Δ (``sensitivity``) in norm when one record changes, at every θ the law can reach: the
    unnormalised densities of neighbouring data sets differ by at most e^{Δ/σ} everywhere, and so do
    their normalising constants, which in general depend on D. Hence σ = 2Δ/ε gives ε-DP
    (``scale="private"``, the default). Kulkarni & Soto's densities exp(−‖∇E‖/(Δ/ε)) use σ = Δ/ε
    (``scale="paper"``): with a data-dependent normaliser that is a 2ε-DP mechanism, and
    ``privacy_guarantee()`` says so.

    Sampled by ``multichain_mh`` (≥ 4 chains from over-dispersed starts, random-walk steps adapted in
    the warm-up mixed with independence proposals from the flat ℓ2 K-norm law around the optimum and,
    with a ball, uniform on the ball; R̂ over the log density and every coordinate, ESS from arviz-stats).

    Parameters (keyword-only)
    -------------------------
    manifold : Manifold
        Euclidean, Sphere, Hyperbolic or Kendall (spaces with a polar volume density).
    epsilon : float > 0
    sensitivity : float > 0
        Public bound Δ on ‖grad ℓ_D(θ) − grad ℓ_D'(θ)‖_θ for neighbouring D, D' at every reachable θ.
    scale : {"private", "paper"}
    ball_center, ball_radius : optional
        Condition the law on the public ball B_r(m0) (needed where ‖grad ℓ_D‖ stays bounded at
        infinity, e.g. with clipped residuals, and to keep θ where Δ holds).
    chains : int >= 4
    objective : str
        Name of the objective, for the guarantee's text.
    reference : array or None
        Public point fixing the representative of the chain's start and of every release on a quotient
        space (``engine.mechanisms.representative``); the ball's centre, else ``manifold.origin``, when ``None``.
    """

    def __init__(self, *, manifold, epsilon, sensitivity, scale: str = "private", ball_center=None, ball_radius=None,
                 chains: int = 4, objective: str = "the objective", reference=None):
        self.epsilon = check_positive("epsilon", epsilon)
        self.sensitivity = check_positive("sensitivity", sensitivity)
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
        self.scale = scale
        self.manifold = manifold
        self.ball = check_ball(manifold, ball_center, ball_radius)
        self.reference = public_reference(manifold, reference, self.ball)
        self.chains = check_int("chains", chains, minimum=4)
        self.objective = objective
        self.sigma = (2.0 if scale == "private" else 1.0) * self.sensitivity / self.epsilon

    @property
    def epsilon_guaranteed(self) -> float:
        """The ε the release really satisfies: ε for σ = 2Δ/ε, 2ε for the paper's σ = Δ/ε."""
        return self.epsilon if self.scale == "private" else 2.0 * self.epsilon

    def log_density(self, gradient_norm):
        """θ ↦ −‖grad ℓ(θ)‖/σ, −inf outside the ball."""
        def log_g(theta):
            value = -np.asarray(gradient_norm(theta), dtype=float) / self.sigma
            if self.ball:
                value = np.where(self.manifold.dist(theta, self.ball[0]) <= self.ball[1], value, -np.inf)
            return value
        return log_g

    def release(self, gradient_norm, center, *, curvature=1.0, size=None, rng=None, warmup: int = 1000,
                thin: int = 10, window: int = 0, diagnostics: bool = True) -> Release:
        """Approximate KNG draws, ``self.chains`` chains per target (``exact=False``; ``chain`` is the
        ``ChainsResult`` with acceptance, split-R̂, bulk/tail ESS and traces).

        Parameters
        ----------
        gradient_norm : callable
            ``(chains, *batch, *point_shape)`` -> ``(chains, *batch)``: ‖grad ℓ_D(θ)‖ for target b's
            data in column b.
        center : array ``(*batch, *point_shape)``
            The non-private optimum (or any point of positive density): centre of the over-dispersed
            starts and of the independence proposal. Seen by the sampler only; never published.
        curvature : float or array ``(*batch,)``
            Approximate growth rate h of ‖grad ℓ‖ away from the optimum (Hessian scale); the
            independence proposal's radial scale is σ/h.
        size, rng, warmup, thin, window, diagnostics
            As in ``multichain_mh`` (the public ball, if any, adds its uniform independence proposal).
        """
        c = self.manifold.representative(self.manifold.check_points(center, "center"), self.reference)
        if self.ball:
            outside = self.manifold.dist(c, self.ball[0]) > self.ball[1]
            c = np.where(self.manifold.per_point(outside), self.ball[0], c)
        scale = self.sigma / np.asarray(curvature, dtype=float)
        chains = multichain_mh(self.manifold, self.log_density(gradient_norm), c, proposal_scale=scale,
                               chains=self.chains, size=size, rng=rng, warmup=warmup, thin=thin,
                               max_step=2.0 * self.ball[1] if self.ball else None, ball=self.ball, window=window,
                               diagnostics=diagnostics)
        return Release(points=self.manifold.representative(chains.samples, self.reference), sigma=self.sigma,
                       guarantee=self.privacy_guarantee(), exact=False,
                       chain=chains)

    def release_exact(self, gradient_norm, *, size: int, rng=None, max_proposals: int = 100_000_000) -> Release:
        """Exact draws of one data set's law on the public ball by rejection from the uniform law on it.

        A point θ uniform on the ball (w.r.t. the volume) is kept with probability exp(−‖grad ℓ_D(θ)‖/σ) <= 1,
        so the kept points follow the density ∝ exp(−‖grad ℓ_D‖/σ) on the ball exactly; the acceptance rate
        is Z_D/vol(B), affordable in low dimension (the audit's control on S²), not in high.

        Parameters
        ----------
        gradient_norm : callable ``(k, *point_shape) -> (k,)``
            ‖grad ℓ_D(θ)‖ of one data set.
        size : int
        rng : numpy.random.Generator, int or None
        max_proposals : int
            ValueError when ``size`` draws would need more uniform proposals than this.

        Returns
        -------
        Release
            ``points`` ``(size, *point_shape)``, ``exact=True``.
        """
        if not self.ball:
            raise ValueError("release_exact draws uniform points on the public ball: give ball_center and ball_radius")
        size = check_int("size", size)
        rng = np.random.default_rng(rng)
        m, law = self.manifold, radial_law(self.manifold)
        kept, tried, accepted = [], 0, 0
        while accepted < size:
            rate = max(accepted, 1) / tried if tried else 1.0
            batch = int(min(max(1024, 1.2 * (size - accepted) / rate), _EXACT_CHUNK))
            theta = uniform_in_ball(m, self.ball, law, (batch,), rng)
            keep = np.log(rng.random(batch)) < -np.asarray(gradient_norm(theta), dtype=float) / self.sigma
            kept.append(theta[keep])
            tried, accepted = tried + batch, accepted + int(keep.sum())
            if tried > max_proposals:
                raise ValueError(f"release_exact accepted {accepted} of {tried} uniform proposals, fewer than the "
                                 f"{size} draws asked for within max_proposals = {max_proposals}; use release (MCMC)")
        return Release(points=m.representative(np.concatenate(kept)[:size], self.reference), sigma=self.sigma,
                       guarantee=self.privacy_guarantee(),
                       exact=True)

    def privacy_guarantee(self) -> PrivacyGuarantee:
        ratio = (f"|‖grad ℓ_D‖ − ‖grad ℓ_D′‖| ≤ Δ = {self.sensitivity:g} at every θ, so the "
                 "unnormalised densities and their normalising constants (which depend on D) each differ by at "
                 "most exp(Δ/σ)")
        if self.scale == "private":
            rule = "σ = 2Δ/ε"
            why = f"K-norm gradient mechanism (Reimherr & Awan 2019) on {self.objective}: {ratio}"
        else:
            rule = "σ = Δ/ε (Kulkarni & Soto's scale)"
            why = (f"K-norm gradient mechanism on {self.objective} at the paper's scale: {ratio}, so the density "
                   f"ratio is at most exp(2Δ/σ) = exp(2ε): the guarantee is "
                   f"{self.epsilon_guaranteed:g}-DP, not {self.epsilon:g}-DP")
        assumptions = [
            f"the sensitivity Δ = {self.sensitivity:g} is a public, data-independent bound on the change of the gradient "
            "when one record is replaced, at every θ the law can reach",
            "approximate MCMC: the guarantee is that of the exact KNG law; the released Metropolis–Hastings state "
            "follows it only approximately (check R-hat ≤ 1.01 and the effective sample sizes)",
            "only the samples are published: the chains start around the non-private optimum, and the traces and "
            "diagnostics depend on the data",
        ]
        if self.ball:
            assumptions.append(f"the ball (radius {self.ball[1]:g}) and its centre are public and data-independent")
        return PrivacyGuarantee(
            mechanism=f"K-norm gradient ({self.objective}) on {self.manifold.name}",
            epsilon=self.epsilon_guaranteed, delta=0.0, sigma=self.sigma, rule=rule, reason=why,
            assumptions=tuple(assumptions),
        )
