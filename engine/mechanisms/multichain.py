"""Multi-chain Metropolis–Hastings with over-dispersed starts and R̂/ESS diagnostics (for KNG).

Each target (a leading batch axis: data sets, privacy budgets, replicate releases) is sampled by
``chains`` chains at once. The steps alternate between two Metropolis–Hastings kernels, each of which
leaves the target invariant (so does their cycle); one proposal kind per step halves the work:

* **random walk**: y = Exp_x(s·U^{1/d}·u), u uniform on the unit sphere of T_xM, U uniform — symmetric
  on the symmetric spaces used here (see ``engine.mechanisms.mcmc``); s is adapted per chain in the
  first half of the warm-up towards acceptance 0.3 (Robbins–Monro on log s) and frozen afterwards;
* **independence**: y = Exp_c(r·u) with r ~ Gamma(d, scale a) and u uniform, around a public-to-the-
  sampler centre c per target (for KNG: the non-private optimum, which only the curator sees). Its
  density w.r.t. the Riemannian volume is q(y) ∝ exp(−r/a) r^{d−1}/J(r), J the polar volume density of
  the space (``radial_law``), so the acceptance uses π(y)q(x)/(π(x)q(y)). Radii at or beyond the
  injectivity radius are rejected (a lazy move, still reversible). In R^d this proposal is the ℓ2
  K-norm law itself, so a KNG target that is close to flat is sampled almost independently.

Chains start over-dispersed: at Exp_c(r u) with r ~ Gamma(d, scale ``over_dispersion``·a), falling back
to c where the target density vanishes (outside a conditioning ball).

Diagnostics (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021, *Rank-normalization, folding, and
localization: an improved R̂*, Bayesian Analysis 16(2)) are computed by ``arviz-stats`` on the
log-density traces after the warm-up: rank-normalised split-R̂, bulk and tail ESS, and the acceptance
rate per chain. The sampler is approximate; R̂ > 1.01 says the chains have not mixed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.mechanisms.diagnostics import chain_diagnostics
from engine.mechanisms.laplace import radial_law
from engine.validation import check_int, check_positive

TARGET_ACCEPTANCE = 0.3


#: Split R̂ above this says the chains have not mixed (Vehtari et al. 2021).
RHAT_LIMIT = 1.01

@dataclass(frozen=True)
class ChainsResult:
    """Draws and diagnostics of ``multichain_mh``.

    Attributes
    ----------
    samples : ndarray
        ``(*batch, *point_shape)`` for ``size=None`` (chain 0's last state) or ``(size, *batch,
        *point_shape)``: thinned post-warm-up states taken from the chains in turn.
    acceptance_rate : ndarray ``(chains, *batch)``
        Accepted fraction of the post-warm-up proposals (both kinds).
    rhat, ess_bulk, ess_tail : ndarray ``(*batch,)``
        Rank-normalised split-R̂ and bulk/tail effective sample sizes of the log-density traces
        (all chains together), by ``arviz-stats``.
    step : ndarray ``(chains, *batch)``
        Random-walk radius after adaptation.
    trace : ndarray ``(chains, draws, *batch)``
        Log density of every post-warm-up state (for trace plots).
    warmup, thin : int
    """

    samples: np.ndarray
    acceptance_rate: np.ndarray
    rhat: np.ndarray
    ess_bulk: np.ndarray
    ess_tail: np.ndarray
    step: np.ndarray
    trace: np.ndarray
    warmup: int
    thin: int


def _proposal_log_density(law, radius, scale):
    """log q up to a constant for the Gamma-radius independence proposal at distance ``radius``."""
    safe = np.maximum(radius, 1e-300)
    return -radius / scale - law.growth * radius - law.log_accept(safe)


def _around(manifold, center, scale, law, rng):
    """Exp_c(r u), r ~ Gamma(d, scale) (below the support), u uniform; also r."""
    r = rng.gamma(manifold.dim, 1.0, size=np.shape(scale)) * scale
    r = np.where(r < law.support, r, np.nan)
    u = manifold.random_unit_tangent(center, rng)
    return manifold.exp(center, manifold.per_point(np.where(np.isnan(r), 0.0, r)) * u), r


def multichain_mh(manifold, log_density, center, *, proposal_scale, chains: int = 4, size=None, rng=None,
                  warmup: int = 1000, thin: int = 10, max_step=None, over_dispersion: float = 2.0,
                  diagnostics: bool = True) -> ChainsResult:
    """Multi-chain MH draws from densities ∝ exp(log_density) w.r.t. the Riemannian volume.

    Parameters
    ----------
    manifold : Manifold
        A space with a polar volume density (Euclidean, Sphere, Hyperbolic, Kendall).
    log_density : callable
        ``(chains, *batch, *point_shape)`` -> ``(chains, *batch)`` unnormalised log density of
        target b in column b; ``-inf`` where it vanishes.
    center : array ``(*batch, *point_shape)``
        Centre c of the independence proposal and of the starts, one per target, with finite density.
    proposal_scale : float or array ``(*batch,)``
        Gamma scale a of the independence proposal (the radial scale of the target); also the
        initial random-walk radius.
    chains : int >= 4
    size : int or None
    rng : numpy.random.Generator, int or None
    warmup, thin : int >= 1
    max_step : float or None
        Largest random-walk radius (default: the injectivity radius).
    over_dispersion : float >= 1
    diagnostics : bool
        Compute R̂ and ESS (about 4 ms per target in arviz-stats; NaN when False).

    Returns
    -------
    ChainsResult
    """
    chains = check_int("chains", chains, minimum=4)
    warmup = check_int("warmup", warmup, minimum=2)
    thin = check_int("thin", thin)
    n_samples = 1 if size is None else check_int("size", size)
    over_dispersion = check_positive("over_dispersion", over_dispersion)
    rng = np.random.default_rng(rng)
    law = radial_law(manifold)
    c = manifold.check_points(center, "center")
    batch = c.shape[: c.ndim - manifold.point_ndim]
    scale = np.broadcast_to(np.asarray(proposal_scale, dtype=float), batch)
    if not (np.all(np.isfinite(scale)) and np.all(scale > 0)):
        raise ValueError(f"proposal_scale must be finite and > 0, got {proposal_scale!r}")
    full = (chains,) + batch
    c_all = np.broadcast_to(c, full + manifold.point_shape)
    a_all = np.broadcast_to(scale, full)

    lp_center = np.asarray(log_density(c_all), dtype=float)
    if lp_center.shape != full:
        raise ValueError(f"log_density must map shape {c_all.shape} to {full}, got {lp_center.shape}")
    if not np.all(np.isfinite(lp_center)):
        raise ValueError("the target density must be positive and finite at every proposal centre")
    x, r0 = _around(manifold, c_all, over_dispersion * a_all, law, rng)
    lp = np.asarray(log_density(x), dtype=float)
    bad = ~np.isfinite(lp) | np.isnan(r0)
    x = np.where(manifold.per_point(bad), c_all, x)
    lp = np.where(bad, lp_center, lp)
    lq = _proposal_log_density(law, manifold.dist(c_all, x), a_all)

    inj = manifold.injectivity_radius
    cap = min(inj if inj > 0 else np.inf, np.inf if max_step is None else check_positive("max_step", max_step))
    log_step = np.log(np.minimum(a_all, cap))
    draws_per_chain = -(-n_samples // chains)
    total = warmup + draws_per_chain * thin
    trace = np.empty((total - warmup,) + full)
    kept = np.empty((draws_per_chain,) + full + manifold.point_shape)
    accepted = np.zeros(full)
    for t in range(1, total + 1):
        if t % 2 == 0:  # independence proposal
            y, r = _around(manifold, c_all, a_all, law, rng)
            outside = np.isnan(r)
            lq_y = _proposal_log_density(law, np.where(outside, 1.0, r), a_all)
            lp_y = np.asarray(log_density(y), dtype=float)
            # A fresh uniform per proposal; NaN radii (beyond the support) and -inf densities never pass.
            accept = (np.log(rng.random(full)) < lp_y - lp + lq - lq_y) & ~outside
        else:  # random walk
            u = manifold.random_unit_tangent(x, rng)
            y = manifold.exp(x, manifold.per_point(np.exp(log_step) * rng.random(full) ** (1.0 / manifold.dim)) * u)
            lp_y = np.asarray(log_density(y), dtype=float)
            accept = np.log(rng.random(full)) < lp_y - lp
            lq_y = _proposal_log_density(law, manifold.dist(c_all, y), a_all)
            if t <= warmup // 2:
                gain = 2.0 / ((t + 1) // 2 + 10.0) ** 0.6
                log_step = np.minimum(log_step + gain * (accept - TARGET_ACCEPTANCE), np.log(cap))
        x = np.where(manifold.per_point(accept), y, x)
        lp = np.where(accept, lp_y, lp)
        lq = np.where(accept, lq_y, lq)
        if t > warmup:
            trace[t - warmup - 1] = lp
            accepted += accept
            if (t - warmup) % thin == 0:
                kept[(t - warmup) // thin - 1] = x
    if diagnostics:
        diag = chain_diagnostics(np.moveaxis(trace, 0, 1))
    else:
        diag = dict.fromkeys(("rhat", "ess_bulk", "ess_tail"), np.full(batch, np.nan))
    if size is None:
        samples = kept[-1, 0]
    else:
        samples = kept.reshape((-1,) + batch + manifold.point_shape)[:n_samples]
    return ChainsResult(samples=samples, acceptance_rate=accepted / (total - warmup), rhat=diag["rhat"],
                        ess_bulk=diag["ess_bulk"], ess_tail=diag["ess_tail"], step=np.exp(log_step),
                        trace=np.moveaxis(trace, 0, 1), warmup=warmup, thin=thin)
