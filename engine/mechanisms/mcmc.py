"""Random-walk Metropolis–Hastings for the Riemannian Laplace law, one chain per footpoint.

Reimherr, Bharath & Soto (2021, §3 and supplement §1.5) sample the Laplace density
∝ exp(−ρ(x, η)/σ) (w.r.t. the Riemannian volume) with a random walk on the manifold: propose
y = Exp_x(v) for a random tangent vector v at the current state x and accept with probability
min(1, exp((ρ(x, η) − ρ(y, η))/σ)); burn-in 10,000 steps, thinning 100.

**Proposal.** v = s·U^{1/d}·u with u uniform on the unit sphere of T_xM and U uniform: v is
uniform in the tangent ball of radius s (the random length keeps the chain irreducible even on
one-dimensional spaces, where a fixed length would only visit a lattice).

**Symmetry.** The acceptance above omits the Hastings ratio, which is right iff the proposal is
symmetric w.r.t. the volume. For a fixed length t below the injectivity radius the proposal is
the image under Exp_x of the uniform law on the t-sphere of T_xM; its density on the geodesic
sphere S_t(x) is 1/J_x(t, u) relative to surface measure, J the Jacobian of Exp_x. On a
Riemannian *symmetric* space the geodesic symmetry at the midpoint of x and y is an isometry
swapping x and y and reversing the geodesic, so J_x(t, u) = J_y(t, u') for the return direction
u' and q(x -> y) = q(y -> x); mixing over t keeps the symmetry. This covers every space with an
exact sampler here (R^d, S^d, H^d, Kendall's CP^m, SPD affine-invariant and log-Euclidean) and
Grassmann; on spaces with a distance-only volume density (two-point homogeneous ones) J depends
on t only and the proposal is even uniform on S_t(x). On other spaces (SPD with the
Bures–Wasserstein metric) the chain targets the law only approximately. The step s is kept at or
below the injectivity radius, beyond which Exp_x is not injective and the argument fails.

**Step size.** ``step=None`` adapts s per chain during the first half of the burn-in (a
Robbins–Monro update of log s towards acceptance 0.3), then freezes it, so the retained samples
come from a fixed, valid kernel. The sampler is approximate: its law approaches the target as the
burn-in grows, and the result reports the acceptance rate and the effective sample size of the
distance-to-footpoint trace over the second half of the burn-in and the sampling phase.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.validation import check_int, check_positive

# Target acceptance rate of the step adaptation (between 0.234, optimal for a Gaussian random
# walk in high dimension, and 0.44 in one dimension).
TARGET_ACCEPTANCE = 0.3
# At most this many distances (all chains together) are kept for the ESS computation; longer
# windows are recorded with a stride.
_TRACE_BUDGET = 4_000_000


@dataclass(frozen=True)
class MHResult:
    """Output of ``laplace_mh``.

    Attributes
    ----------
    samples : ndarray
        ``(*batch, *point_shape)`` for ``size=None`` or ``(size, *batch, *point_shape)``.
    acceptance_rate : ndarray, shape ``(*batch,)``
        Fraction of accepted proposals per chain over the diagnostic window.
    effective_sample_size : ndarray, shape ``(*batch,)``
        ESS of the distance-to-footpoint trace over the diagnostic window (Geyer's initial
        monotone sequence estimator; at most the number of recorded trace values, which are every
        ``ceil(window · chains / 4e6)``-th step for long runs).
    autocorrelation_time : ndarray, shape ``(*batch,)``
        Window length / ESS, in steps: thinning by at least this much gives nearly independent draws.
    step : ndarray, shape ``(*batch,)``
        Proposal radius s used after the burn-in.
    burn_in, thin, diagnostic_steps : int
        Burn-in, thinning and the length of the diagnostic window (steps).
    chain : ndarray or None
        ``(n_steps + 1, *batch)`` distances ρ(x_t, η) at every step (start included) when
        ``keep_chain=True``, for trace plots.
    """

    samples: np.ndarray
    acceptance_rate: np.ndarray
    effective_sample_size: np.ndarray
    autocorrelation_time: np.ndarray
    step: np.ndarray
    burn_in: int
    thin: int
    diagnostic_steps: int
    chain: np.ndarray | None = None


def effective_sample_size(trace, axis: int = 0) -> np.ndarray:
    """Effective sample size of stationary series along ``axis`` (Geyer 1992).

    With autocorrelations ρ_t (FFT estimate), the pair sums Γ_j = ρ_{2j} + ρ_{2j+1} are kept while
    positive (initial positive sequence), made non-increasing (initial monotone sequence), and
    τ = −1 + 2 Σ_j Γ_j; ESS = n/τ, capped at n. Constant series give ESS = 1.

    Parameters
    ----------
    trace : array_like
        Series of length n along ``axis``; all other axes are independent series.

    Returns
    -------
    ndarray
        ``trace.shape`` without ``axis``.
    """
    x = np.moveaxis(np.asarray(trace, dtype=float), axis, 0)
    n = x.shape[0]
    if n < 2:
        return np.ones(x.shape[1:])
    x = x - x.mean(axis=0)
    spectrum = np.fft.rfft(x, n=2 * n, axis=0)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=2 * n, axis=0)[:n] / n
    var = acov[0]
    rho = acov / np.where(var > 0, var, 1.0)
    half = n // 2
    pairs = rho[0 : 2 * half : 2] + rho[1 : 2 * half : 2]
    positive = np.cumprod(pairs > 0, axis=0).astype(bool)
    monotone = np.minimum.accumulate(np.where(positive, pairs, 0.0), axis=0)
    tau = -1.0 + 2.0 * monotone.sum(axis=0)
    return np.where(var > 0, n / np.maximum(tau, 1.0), 1.0)


def check_ball(manifold, center, radius):
    """Validate a conditioning ball B_r(m0); ``None`` for no ball, else ``(center, radius)``."""
    if center is None and radius is None:
        return None
    if center is None or radius is None:
        raise ValueError(f"give both ball_center and ball_radius or neither, got center={center!r}, radius={radius!r}")
    center = manifold.check_points(center, "ball_center")
    if center.shape != manifold.point_shape:
        raise ValueError(f"ball_center must be one point of shape {manifold.point_shape}, got shape {center.shape}")
    return center, check_positive("ball_radius", radius)


def _point_axes(manifold, a: np.ndarray) -> np.ndarray:
    """Append one axis per point dimension so ``a`` broadcasts against points."""
    return np.reshape(a, np.shape(a) + (1,) * manifold.point_ndim)


def laplace_mh(
    manifold,
    footpoint,
    sigma,
    *,
    size=None,
    rng=None,
    step=None,
    burn_in: int = 10_000,
    thin: int = 100,
    ball_center=None,
    ball_radius=None,
    keep_chain: bool = False,
) -> MHResult:
    """Random-walk MH draws from the Laplace law ∝ exp(−ρ(x, η)/σ), one chain per footpoint.

    Parameters
    ----------
    manifold : Manifold
    footpoint : array_like, shape ``(*batch, *point_shape)``
        Footpoints η; each starts its own chain at η (at the ball centre if η lies outside the ball).
    sigma : float
        Scale σ > 0.
    size : int or None
        Draws per chain, taken after ``burn_in`` steps and then every ``thin`` steps.
    rng : numpy.random.Generator, int or None
    step : float or None
        Proposal radius s <= injectivity radius; ``None`` adapts it during the first half of the
        burn-in, starting from min(σ, cap) with cap = min(inj, 4·dim·σ, 2·ball_radius).
    burn_in, thin : int >= 1
    ball_center, ball_radius : optional
        Condition the law on B_r(m0) (Reimherr et al. Theorem 3): proposals outside are rejected.
    keep_chain : bool
        Also return the distance of every state to its footpoint.

    Returns
    -------
    MHResult
        Approximate draws (see the module docstring) and their diagnostics.
    """
    sigma = check_positive("sigma", sigma)
    eta = manifold.check_points(footpoint, "footpoint")
    burn_in = check_int("burn_in", burn_in)
    thin = check_int("thin", thin)
    n_samples = 1 if size is None else check_int("size", size)
    ball = check_ball(manifold, ball_center, ball_radius)
    rng = np.random.default_rng(rng)
    batch = eta.shape[: eta.ndim - manifold.point_ndim]
    inj = manifold.injectivity_radius
    # A space whose global injectivity radius is 0 (incomplete metrics) gets no cap; its chain is
    # approximate anyway (not a symmetric space).
    cap = inj if inj > 0 else np.inf
    adapt = step is None
    if adapt:
        cap = min(cap, 4.0 * manifold.dim * sigma, 2.0 * ball[1] if ball else np.inf)
        log_step = np.full(batch, np.log(min(sigma, cap)))
    else:
        step = check_positive("step", step)
        if step > cap:
            raise ValueError(
                f"step={step!r} exceeds the injectivity radius {cap:.6g} of {manifold.name}; beyond it "
                f"Exp is not injective and the random-walk proposal is no longer symmetric"
            )
        log_step = np.full(batch, np.log(step))

    x = eta.copy()
    if ball:
        outside = manifold.dist(eta, ball[0]) > ball[1]
        x = np.where(_point_axes(manifold, outside), ball[0], eta)
    d = manifold.dist(x, eta)
    total = burn_in + thin * (n_samples - 1)
    adapt_until = burn_in // 2
    window = total - adapt_until
    stride = max(1, -(-window * max(int(np.prod(batch, dtype=int)), 1) // _TRACE_BUDGET))
    trace = np.empty((-(-window // stride),) + batch)
    chain = np.empty((total + 1,) + batch) if keep_chain else None
    if keep_chain:
        chain[0] = d
    samples = np.empty((n_samples,) + eta.shape)
    n_accepted = np.zeros(batch)

    pad = batch + (1,) * manifold.point_ndim
    step_now = np.exp(log_step)
    for t in range(1, total + 1):
        uniforms = rng.random((2,) + batch)
        u = manifold.random_unit_tangent(x, rng)
        y = manifold.exp(x, np.reshape(step_now * uniforms[0] ** (1.0 / manifold.dim), pad) * u)
        dy = manifold.dist(y, eta)
        log_ratio = (d - dy) / sigma
        if ball:
            log_ratio = np.where(manifold.dist(y, ball[0]) <= ball[1], log_ratio, -np.inf)
        # Each proposal is compared against its own fresh uniform.
        accept = np.asarray(np.log(uniforms[1]) < log_ratio)
        x = np.where(np.reshape(accept, pad), y, x)
        d = np.where(accept, dy, d)
        if adapt and t <= adapt_until:
            gain = 2.0 / (t + 10.0) ** 0.6
            log_step = np.minimum(log_step + gain * (accept - TARGET_ACCEPTANCE), np.log(cap))
            step_now = np.exp(log_step)
        if t > adapt_until:
            n_accepted += accept
            if (t - adapt_until - 1) % stride == 0:
                trace[(t - adapt_until - 1) // stride] = d
        if keep_chain:
            chain[t] = d
        if t >= burn_in and (t - burn_in) % thin == 0:
            samples[(t - burn_in) // thin] = x

    # With stride > 1 the strided trace's ESS counts effective draws in the window (a lower bound
    # when the autocorrelation time is shorter than the stride).
    ess = effective_sample_size(trace)
    return MHResult(
        samples=samples[0] if size is None else samples,
        acceptance_rate=n_accepted / window,
        effective_sample_size=ess,
        autocorrelation_time=window / ess,
        step=step_now,
        burn_in=burn_in,
        thin=thin,
        diagnostic_steps=window,
        chain=chain,
    )
