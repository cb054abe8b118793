"""Random-walk Metropolis–Hastings on a manifold, many chains at once, and its Laplace instance.

Reimherr, Bharath & Soto (2021, §3 and supplement §1.5) sample the Laplace density
∝ exp(−ρ(x, η)/σ) (w.r.t. the Riemannian volume) with a random walk on the manifold: propose
y = Exp_x(v) for a random tangent vector v at the current state x and accept with probability
min(1, exp((ρ(x, η) − ρ(y, η))/σ)); burn-in 10,000 steps, thinning 100. Soto et al. (2022) and
Han, Mishra, Jawanpuria & Gao (§6.1) sample the K-norm gradient mechanism the same way.
``metropolis_hastings`` runs this walk for any unnormalised log-density π (accept with probability
min(1, π(y)/π(x))); ``laplace_mh`` is its Laplace instance.

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
log-density trace over the second half of the burn-in and the sampling phase.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from engine.budget import draw_batch
from engine.mechanisms.diagnostics import effective_sample_size
from engine.validation import check_int, check_positive

# Target acceptance rate of the step adaptation (between 0.234, optimal for a Gaussian random
# walk in high dimension, and 0.44 in one dimension).
TARGET_ACCEPTANCE = 0.3
# At most this many trace values (all chains together) are kept for the ESS computation; longer
# windows are recorded with a stride.
_TRACE_BUDGET = 4_000_000


@dataclass(frozen=True)
class MHResult:
    """Output of ``metropolis_hastings`` and of the samplers built on it.

    Attributes
    ----------
    samples : ndarray
        ``(*batch, *point_shape)`` for ``size=None`` or ``(size, *batch, *point_shape)``.
    acceptance_rate : ndarray, shape ``(*batch,)``
        Fraction of accepted proposals per chain over the diagnostic window.
    effective_sample_size : ndarray, shape ``(*batch,)``
        ESS of the log-density trace over the diagnostic window (Geyer's initial monotone sequence
        estimator; at most the number of recorded trace values, which are every
        ``ceil(window · chains / 4e6)``-th step for long runs). For ``laplace_mh`` this is the ESS
        of the distance to the footpoint, an affine function of the log density.
    autocorrelation_time : ndarray, shape ``(*batch,)``
        Window length / ESS, in steps: thinning by at least this much gives nearly independent draws.
    step : ndarray, shape ``(*batch,)``
        Proposal radius s used after the burn-in.
    burn_in, thin, diagnostic_steps : int
        Burn-in, thinning and the length of the diagnostic window (steps).
    chain : ndarray or None
        ``(n_steps + 1, *batch)`` trace at every step (start included) when ``keep_chain=True``,
        for trace plots: the log density for ``metropolis_hastings``, the distance ρ(x_t, η) for
        ``laplace_mh``, the gradient norm for ``KNormGradient.release``.
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


def _initial_log_density(log_density, x: np.ndarray) -> np.ndarray:
    """log_density(x) for the starting states, checked for shape ``(chains,)`` and finiteness."""
    chains = x.shape[0]
    value = np.asarray(log_density(x), dtype=float)
    if value.shape != (chains,):
        raise ValueError(
            f"log_density must map points of shape {x.shape} to shape ({chains},), got shape {value.shape}"
        )
    bad = ~np.isfinite(value)
    if bad.any():
        first = int(np.argmax(bad))
        raise ValueError(
            f"log_density is {float(value[first])!r} at the starting point of chain {first}; every chain must start "
            f"where the target density is positive and finite"
        )
    return value


def metropolis_hastings(
    manifold,
    log_density,
    init,
    *,
    size=None,
    rng=None,
    step=None,
    initial_step=1.0,
    max_step=None,
    burn_in: int = 10_000,
    thin: int = 100,
    keep_chain: bool = False,
    progress: Callable[[float], None] | None = None,
) -> MHResult:
    """Random-walk MH draws from the law with density ∝ exp(log_density(x)) w.r.t. the volume.

    Parameters
    ----------
    manifold : Manifold
    log_density : callable
        Maps states ``(chains, *point_shape)`` to unnormalised log densities ``(chains,)`` w.r.t. the
        Riemannian volume, chain c in row c (``chains`` = number of starting points, 1 for one
        point); ``-inf`` where the density vanishes (proposals there are rejected), e.g. outside
        the ball of a conditioned law.
    init : array_like, shape ``(*batch, *point_shape)``
        One starting point per chain, each with a finite log density.
    size : int or None
        Draws per chain, taken after ``burn_in`` steps and then every ``thin`` steps.
    rng : numpy.random.Generator, int or None
    step : float or None
        Fixed proposal radius s <= injectivity radius; ``None`` adapts s per chain during the
        first half of the burn-in, starting from min(``initial_step``, cap), cap = min(inj,
        ``max_step``) (inj taken as ``inf`` on spaces whose global injectivity radius is 0).
    initial_step : float > 0
        Starting radius of the adaptation, ideally the length scale of the target.
    max_step : float > 0 or None
        Largest radius the adaptation may reach (e.g. the diameter of a conditioning ball).
    burn_in, thin : int >= 1
    keep_chain : bool
        Also return the log density of every state.
    progress : callable or None
        Called with the fraction of the chain's steps done, in (0, 1], about every 1% of them (for a
        progress bar: the paper's burn-in 10,000 and thinning 100 run for seconds).

    Returns
    -------
    MHResult
        Approximate draws (see the module docstring) and their diagnostics.

    Raises
    ------
    ValueError
        Invalid sizes or steps, ``step`` beyond the injectivity radius, a ``log_density`` of the
        wrong shape or not finite at ``init``.
    """
    burn_in = check_int("burn_in", burn_in)
    thin = check_int("thin", thin)
    start = manifold.check_points(init, "init")
    batch = start.shape[: start.ndim - manifold.point_ndim]
    n_samples = 1 if size is None else draw_batch(size, batch, manifold.point_shape)[0]
    chains = int(np.prod(batch, dtype=int))
    inj = manifold.injectivity_radius
    # A space whose global injectivity radius is 0 (incomplete metrics) gets no cap; its chain is
    # approximate anyway (not a symmetric space).
    limit = inj if inj > 0 else np.inf
    adapt = step is None
    if adapt:
        cap = limit if max_step is None else min(limit, check_positive("max_step", max_step, allow_inf=True))
        log_step = np.full(chains, np.log(min(check_positive("initial_step", initial_step), cap)))
    else:
        step = check_positive("step", step)
        if step > limit:
            raise ValueError(
                f"step={step!r} exceeds the injectivity radius {limit:.6g} of {manifold.name}; beyond it "
                f"Exp is not injective and the random-walk proposal is no longer symmetric"
            )
        log_step = np.full(chains, np.log(step))
    rng = np.random.default_rng(rng)

    x = start.reshape((chains,) + manifold.point_shape).copy()
    lp = _initial_log_density(log_density, x)
    total = burn_in + thin * (n_samples - 1)
    adapt_until = burn_in // 2
    window = total - adapt_until
    stride = max(1, -(-window * chains // _TRACE_BUDGET))
    trace = np.empty((-(-window // stride), chains))
    chain = np.empty((total + 1, chains)) if keep_chain else None
    if keep_chain:
        chain[0] = lp
    samples = np.empty((n_samples, chains) + manifold.point_shape)
    n_accepted = np.zeros(chains)
    report_every = max(1, total // 100)

    step_now = np.exp(log_step)
    for t in range(1, total + 1):
        uniforms = rng.random((2, chains))
        y = manifold.random_step(x, step_now * uniforms[0] ** (1.0 / manifold.dim), rng)
        lp_y = np.asarray(log_density(y), dtype=float)
        # Each proposal is compared against its own fresh uniform; -inf (and NaN) proposals never pass.
        accept = np.log(uniforms[1]) < lp_y - lp
        x = np.where(manifold.per_point(accept), y, x)
        lp = np.where(accept, lp_y, lp)
        if adapt and t <= adapt_until:
            gain = 2.0 / (t + 10.0) ** 0.6
            log_step = np.minimum(log_step + gain * (accept - TARGET_ACCEPTANCE), np.log(cap))
            step_now = np.exp(log_step)
        if t > adapt_until:
            n_accepted += accept
            if (t - adapt_until - 1) % stride == 0:
                trace[(t - adapt_until - 1) // stride] = lp
        if keep_chain:
            chain[t] = lp
        if t >= burn_in and (t - burn_in) % thin == 0:
            samples[(t - burn_in) // thin] = x
        if progress is not None and (t % report_every == 0 or t == total):
            progress(t / total)

    # With stride > 1 the strided trace's ESS counts effective draws in the window (a lower bound
    # when the autocorrelation time is shorter than the stride).
    ess = effective_sample_size(trace).reshape(batch)
    samples = samples.reshape((n_samples,) + start.shape)
    return MHResult(
        samples=samples[0] if size is None else samples,
        acceptance_rate=(n_accepted / window).reshape(batch),
        effective_sample_size=ess,
        autocorrelation_time=window / ess,
        step=step_now.reshape(batch),
        burn_in=burn_in,
        thin=thin,
        diagnostic_steps=window,
        chain=None if chain is None else chain.reshape((total + 1,) + batch),
    )


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
    progress: Callable[[float], None] | None = None,
) -> MHResult:
    """Random-walk MH draws from the Laplace law ∝ exp(−ρ(x, η)/σ), one chain per footpoint.

    ``metropolis_hastings`` with log density −ρ(x, η)/σ (−∞ outside the ball, if any).

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
    progress : callable or None
        Receives the fraction of steps done (see ``metropolis_hastings``).

    Returns
    -------
    MHResult
        Approximate draws (see the module docstring) and their diagnostics.
    """
    sigma = check_positive("sigma", sigma)
    eta = manifold.check_points(footpoint, "footpoint")
    ball = check_ball(manifold, ball_center, ball_radius)
    start = eta
    if ball:
        outside = manifold.dist(eta, ball[0]) > ball[1]
        start = np.where(manifold.per_point(outside), ball[0], eta)
    flat_eta = eta.reshape((-1,) + manifold.point_shape)

    def log_density(x):
        log_p = -manifold.dist(x, flat_eta) / sigma
        if ball:
            log_p = np.where(manifold.dist(x, ball[0]) <= ball[1], log_p, -np.inf)
        return log_p

    result = metropolis_hastings(
        manifold, log_density, start, size=size, rng=rng, step=step, initial_step=sigma,
        max_step=min(4.0 * manifold.dim * sigma, 2.0 * ball[1] if ball else np.inf),
        burn_in=burn_in, thin=thin, keep_chain=keep_chain, progress=progress,
    )
    if not keep_chain:
        return result
    # The log density is −ρ/σ at every recorded state (all lie in the ball), so this is ρ.
    return replace(result, chain=-sigma * result.chain)
