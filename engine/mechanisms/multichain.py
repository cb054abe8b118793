"""Multi-chain Metropolis–Hastings with over-dispersed starts and R̂/ESS diagnostics (for KNG).

Each target (a leading batch axis: data sets, privacy budgets, replicate releases) is sampled by
``chains`` chains at once. The steps cycle through Metropolis–Hastings kernels, each of which leaves the
target invariant (so does their cycle); one proposal per step:

* **random walk**: y = Exp_x(s·U^{1/d}·u), u uniform on the unit sphere of T_xM, U uniform — symmetric
  on the symmetric spaces used here (see ``engine.mechanisms.mcmc``); s is adapted per chain in the
  first half of the warm-up towards acceptance 0.3 (Robbins–Monro on log s) and frozen afterwards;
* **independence around the centre**: y = Exp_c(r·u) with r ~ Gamma(d, scale a) and u uniform, around a
  public-to-the-sampler centre c per target (for KNG: the non-private optimum, which only the curator
  sees). Its density w.r.t. the Riemannian volume is q(y) ∝ exp(−r/a) r^{d−1}/J(r), J the polar volume
  density of the space (``radial_law``), so the acceptance uses π(y)q(x)/(π(x)q(y)). Radii at or beyond
  the injectivity radius are rejected (a lazy move, still reversible). In R^d this proposal is the ℓ2
  K-norm law itself, so a KNG target that is close to flat is sampled almost independently;
* **independence on the ball** (when the target is conditioned on a public ball B_R(m0)): y uniform on
  the ball w.r.t. the volume, y = Exp_m0(r·u) with r of density ∝ J(r) on [0, R] (drawn exactly by
  rejection from the density ∝ r^{d−1}, accepting with probability J(r)/(r^{d−1} e^{cR}) ≤ 1). Its
  density is the constant 1/vol(B), so the acceptance is π(y)/π(x). In high dimension the volume of
  the ball sits at its boundary, and a K-norm law with clipped gradients (nearly flat there, see
  ``engine.mechanisms.dp_geodesic_regression``) is close to uniform on it: these proposals are then
  accepted almost always and each one is a fresh, nearly independent draw.

Each cycle is one random-walk step and ``INDEPENDENT_PER_WALK`` independence proposals, shared equally
between the two independence kinds during the warm-up and, after it, in proportion to how often each was
accepted in its second half (then fixed, so the kept draws come from one kernel). The independence
proposals do not depend on the chains' states, so they are drawn and their log densities evaluated before
the chains run, a few hundred points per call instead of one step's points; only the random-walk steps
evaluate the target one step at a time.

Chains start over-dispersed at Exp_c(r u) with r ~ Gamma(d, scale ``over_dispersion``·a); a start where the
target density vanishes is drawn uniform on the ball instead (when there is one), else put at c.

Diagnostics after the warm-up (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021, *Rank-normalization,
folding, and localization: an improved R̂*, Bayesian Analysis 16(2)): the rank-normalised split-R̂ of
the log density and of every coordinate of the state (``rank_rhat``; coordinates: ambient ones on a
flat space, else those of Log_c(x) in an orthonormal basis of T_cM), reported as their maximum; bulk
and tail ESS of the log density (``arviz-stats``), and the acceptance rate per chain. The sampler is
approximate; R̂ > 1.01 says the chains have not mixed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.mechanisms.diagnostics import chain_diagnostics, rank_rhat
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
        ``(*batch, *point_shape)`` for ``size=None`` (chain 0's last kept draw) or ``(size, *batch,
        *point_shape)``: thinned post-warm-up states taken from the chains in turn.
    acceptance_rate : ndarray ``(chains, *batch)``
        Accepted fraction of the post-warm-up proposals (all kinds).
    rhat : ndarray ``(*batch,)``
        Rank-normalised split-R̂, the largest over the log density and every coordinate of the state
        (all chains together).
    ess_bulk, ess_tail : ndarray ``(*batch,)``
        Bulk and tail effective sample sizes of the log-density traces, by ``arviz-stats``.
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


#: Points per batched call of the target's log density when the independence proposals are evaluated (arrays
#: of a few hundred points stay in cache: about twice as fast per point as 4096 for the Σ^50_2 gradients).
_CHUNK_POINTS = 512

#: Independence proposals per random-walk step.
INDEPENDENT_PER_WALK = 4


def _cycle(kinds, weights) -> list[str]:
    """One cycle of the schedule: ``"walk"``, then ``INDEPENDENT_PER_WALK`` slots shared among ``kinds`` in
    proportion to ``weights`` (largest remainders; equal shares when every weight is 0), interleaved."""
    weights = np.asarray(weights, dtype=float)
    if not weights.sum() > 0:
        weights = np.ones(len(kinds))
    share = INDEPENDENT_PER_WALK * weights / weights.sum()
    counts = np.floor(share).astype(int)
    counts[np.argsort(counts - share)[: INDEPENDENT_PER_WALK - counts.sum()]] += 1
    slots = []
    while len(slots) < INDEPENDENT_PER_WALK:
        for i, kind in enumerate(kinds):
            if counts[i] > 0:
                slots.append(kind)
                counts[i] -= 1
    return ["walk"] + slots


def _proposal_log_density(law, radius, scale):
    """log q up to a constant for the Gamma-radius independence proposal at distance ``radius``."""
    safe = np.maximum(radius, 1e-300)
    return -radius / scale - law.growth * radius - law.log_accept(safe)


def _around(manifold, center, scale, law, rng):
    """Exp_c(r u), r ~ Gamma(d, scale) (below the support), u uniform; also r (NaN beyond the support)."""
    r = rng.gamma(manifold.dim, 1.0, size=np.shape(scale)) * scale
    r = np.where(r < law.support, r, np.nan)
    u = manifold.random_unit_tangent(center, rng)
    return manifold.exp(center, manifold.per_point(np.where(np.isnan(r), 0.0, r)) * u), r


def ball_radii(law, radius: float, shape: tuple, rng) -> np.ndarray:
    """Distances to the centre of points uniform on a geodesic ball of ``radius``: density ∝ J(r) on [0, R].

    Exact rejection sampling from the density ∝ r^{d−1} on [0, R] (r = R·U^{1/d}), accepting with
    probability J(r)/(r^{d−1} e^{cR}) = exp(log_accept(r) + c(r − R)) <= 1 (``RadialLaw``). R is capped at
    the support of the law (a larger ball is the whole space).
    """
    radius = min(float(radius), law.support)
    size = int(np.prod(shape, dtype=int))
    out = np.empty(0)
    while out.size < size:
        need = size - out.size
        r = radius * rng.random(2 * need + 16) ** (1.0 / law.shape)
        keep = np.log(rng.random(r.size)) < law.log_accept(r) + law.growth * (r - radius)
        out = np.concatenate([out, r[keep][:need]])
    return out.reshape(shape)


def uniform_in_ball(manifold, ball, law, lead: tuple, rng) -> np.ndarray:
    """Points ``(*lead, *point_shape)`` uniform on the ball ``(centre, radius)`` w.r.t. the volume: Exp_m0(r u)
    with r from ``ball_radii`` and u uniform on the unit sphere of T_m0M (polar coordinates dv = J(r) dr du)."""
    m0 = np.broadcast_to(ball[0], lead + manifold.point_shape)
    radii = ball_radii(law, ball[1], lead, rng)
    return manifold.exp(m0, manifold.per_point(radii) * manifold.random_unit_tangent(m0, rng))


def _evaluate(log_density, y, point_ndim: int):
    """log_density of proposals ``(T, chains, *batch, *point_shape)``: T·chains rows merged into the chain
    axis of the callable, evaluated in chunks of about ``_CHUNK_POINTS`` points."""
    rows = y.reshape((y.shape[0] * y.shape[1],) + y.shape[2:])
    per_row = int(np.prod(y.shape[2: y.ndim - point_ndim], dtype=int))
    step = max(1, _CHUNK_POINTS // per_row)
    parts = [np.asarray(log_density(rows[i: i + step]), dtype=float) for i in range(0, rows.shape[0], step)]
    return np.concatenate(parts, axis=0).reshape(y.shape[: y.ndim - point_ndim])


def _coordinates(manifold, center, points):
    """Coordinates of ``points`` ``(..., *batch, *point_shape)`` for the per-coordinate R̂: ambient ones on a
    flat space, else those of Log_c(x) in ``tangent_basis(c)`` (``center`` ``(*batch, *point_shape)``)."""
    if manifold.flat:
        return manifold.to_ambient(points)
    log = manifold.log(np.broadcast_to(center, points.shape), points)
    basis = manifold.tangent_basis(center)
    axis = -manifold.point_ndim - 1
    return np.stack([manifold.inner(center, log, np.take(basis, i, axis=axis)) for i in range(manifold.dim)],
                    axis=-1)


def multichain_mh(manifold, log_density, center, *, proposal_scale, chains: int = 4, size=None, rng=None,
                  warmup: int = 1000, thin: int = 10, max_step=None, over_dispersion: float = 2.0, ball=None,
                  window: int = 0, diagnostics: bool = True) -> ChainsResult:
    """Multi-chain MH draws from densities ∝ exp(log_density) w.r.t. the Riemannian volume.

    Parameters
    ----------
    manifold : Manifold
        A space with a polar volume density (Euclidean, Sphere, Hyperbolic, Kendall).
    log_density : callable
        ``(chains, *batch, *point_shape)`` -> ``(chains, *batch)`` unnormalised log density of
        target b in column b (any number of rows: the independence proposals are evaluated many
        chains' worth at a time); ``-inf`` where it vanishes.
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
    ball : (centre, radius) or None
        The public ball B_R(m0) the target is conditioned on (its density must vanish outside): adds the
        uniform independence proposal on it, and starts outside it are redrawn uniform on it.
    window : int >= 0
        Least number of post-warm-up steps: the chains run on after the last kept draw until the
        diagnostics have this many states per chain.
    diagnostics : bool
        Compute R̂ and ESS (NaN when False).

    Returns
    -------
    ChainsResult
    """
    chains = check_int("chains", chains, minimum=4)
    warmup = check_int("warmup", warmup, minimum=2)
    thin = check_int("thin", thin)
    window = check_int("window", window, minimum=0)
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

    draws_per_chain = -(-n_samples // chains)
    post = max(draws_per_chain * thin, window)
    total = warmup + post
    independent = ("centre", "ball") if ball is not None else ("centre",)

    def draw(kind, count):
        """``count`` steps' worth of independence proposals of ``kind``: points, log π, log q_centre, refused."""
        lead = (count,) + full
        if kind == "centre":
            y, r = _around(manifold, np.broadcast_to(c, lead + manifold.point_shape), np.broadcast_to(scale, lead),
                           law, rng)
            outside = np.isnan(r)
            lq_y = _proposal_log_density(law, np.where(outside, 1.0, r), np.broadcast_to(scale, lead))
        else:
            y = uniform_in_ball(manifold, ball, law, lead, rng)
            outside = np.zeros(lead, dtype=bool)
            lq_y = _proposal_log_density(law, manifold.dist(np.broadcast_to(c, y.shape), y),
                                         np.broadcast_to(scale, lead))
        return y, _evaluate(log_density, y, manifold.point_ndim), lq_y, outside

    def plan(n_steps, weights):
        """Schedule of ``n_steps`` kinds (each cycle: a walk, then ``INDEPENDENT_PER_WALK`` independence
        proposals shared among the kinds in proportion to ``weights``) and its drawn proposals."""
        schedule = (_cycle(independent, weights) * -(-n_steps // (INDEPENDENT_PER_WALK + 1)))[:n_steps]
        return schedule, {kind: draw(kind, schedule.count(kind)) for kind in independent if kind in schedule}

    x, r0 = _around(manifold, c_all, over_dispersion * a_all, law, rng)
    lp = np.asarray(log_density(x), dtype=float)
    bad = np.isnan(r0) | ~np.isfinite(lp)
    if ball is not None and bad.any():
        # Starts beyond the ball (a target much wider than the ball) are drawn uniform on the ball instead.
        x = np.where(manifold.per_point(bad), uniform_in_ball(manifold, ball, law, full, rng), x)
        lp = np.where(bad, np.asarray(log_density(x), dtype=float), lp)
        bad = ~np.isfinite(lp)
    x = np.where(manifold.per_point(bad), c_all, x)
    lp = np.where(bad, lp_center, lp)
    lq = _proposal_log_density(law, manifold.dist(c_all, x), a_all)

    inj = manifold.injectivity_radius
    cap = min(inj if inj > 0 else np.inf, np.inf if max_step is None else check_positive("max_step", max_step))
    log_step = np.log(np.minimum(a_all, cap))
    trace = np.empty((post,) + full)
    states = np.empty((post,) + full + manifold.point_shape) if diagnostics else None
    kept = np.empty((draws_per_chain,) + full + manifold.point_shape)
    accepted = np.zeros(full)
    log_u = np.log(rng.random((total,) + full))
    walks = 0
    schedule, proposals = plan(warmup, np.ones(len(independent)))
    used = dict.fromkeys(independent, 0)
    # Acceptance of each independence kind over the second half of the warm-up (sets the kept kernel's mix).
    tried, passed = np.zeros(len(independent)), np.zeros(len(independent))
    # Mean distance of the states from c over the same half, per target: the Gamma(d, a) radius has mean d·a.
    distance_sum, distance_count = np.zeros(batch), 0
    for t in range(1, total + 1):
        if t == warmup + 1:
            # The kernel of the kept draws, fixed from here on: the centre proposal's scale matched to the late
            # warm-up states' mean distance from c, and independence proposals in proportion to how often each
            # kind was accepted late in the warm-up.
            if distance_count:
                scale = np.maximum(distance_sum / distance_count / manifold.dim, 1e-300)
                a_all = np.broadcast_to(scale, full)
                lq = _proposal_log_density(law, manifold.dist(c_all, x), a_all)
            schedule, proposals = plan(post, passed / np.maximum(tried, 1.0))
            used = dict.fromkeys(independent, 0)
        if warmup // 2 < t <= warmup:
            distance_sum = distance_sum + manifold.dist(c_all, x).mean(axis=0)
            distance_count += 1
        kind = schedule[t - 1 if t <= warmup else t - warmup - 1]
        if kind == "walk":
            walks += 1
            length = np.exp(log_step) * rng.random(full) ** (1.0 / manifold.dim)
            y = manifold.random_step(x, length, rng)
            lp_y = np.asarray(log_density(y), dtype=float)
            accept = log_u[t - 1] < lp_y - lp
            lq_y = _proposal_log_density(law, manifold.dist(c_all, y), a_all)
            if t <= warmup // 2:
                gain = 2.0 / (walks + 10.0) ** 0.6
                log_step = np.minimum(log_step + gain * (accept - TARGET_ACCEPTANCE), np.log(cap))
        else:
            i = used[kind]
            used[kind] += 1
            y_all, lp_all, lq_all, out_all = proposals[kind]
            y, lp_y, lq_y = y_all[i], lp_all[i], lq_all[i]
            # NaN radii (beyond the support) and -inf densities never pass; the ball proposal's density is
            # constant, so only the centre proposal carries the Hastings ratio q(x)/q(y).
            ratio = lp_y - lp + (lq - lq_y if kind == "centre" else 0.0)
            accept = (log_u[t - 1] < ratio) & ~out_all[i]
            if warmup // 2 < t <= warmup:
                tried[independent.index(kind)] += accept.size
                passed[independent.index(kind)] += accept.sum()
        x = np.where(manifold.per_point(accept), y, x)
        lp = np.where(accept, lp_y, lp)
        lq = np.where(accept, lq_y, lq)
        if t > warmup:
            trace[t - warmup - 1] = lp
            if states is not None:
                states[t - warmup - 1] = x
            accepted += accept
            if (t - warmup) % thin == 0 and (t - warmup) // thin <= draws_per_chain:
                kept[(t - warmup) // thin - 1] = x
    if diagnostics:
        diag = chain_diagnostics(np.moveaxis(trace, 0, 1))
        coords = _coordinates(manifold, c, states)
        coord_rhat = rank_rhat(np.moveaxis(coords, 0, 1)).max(axis=-1)
        diag["rhat"] = np.maximum(diag["rhat"], coord_rhat)
    else:
        diag = dict.fromkeys(("rhat", "ess_bulk", "ess_tail"), np.full(batch, np.nan))
    if size is None:
        samples = kept[-1, 0]
    else:
        samples = kept.reshape((-1,) + batch + manifold.point_shape)[:n_samples]
    return ChainsResult(samples=samples, acceptance_rate=accepted / post, rhat=diag["rhat"],
                        ess_bulk=diag["ess_bulk"], ess_tail=diag["ess_tail"], step=np.exp(log_step),
                        trace=np.moveaxis(trace, 0, 1), warmup=warmup, thin=thin)
