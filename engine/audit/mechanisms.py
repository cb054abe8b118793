"""Audit targets for the engine's mechanisms, built from their public API and a neighbouring pair.

Each builder takes a constructed mechanism (its ε, δ and σ come from its ``privacy_guarantee()``), releases
through the protocol only (``release``/``fit`` and the ``points`` of the ``Release``), and uses as statistic the
log-likelihood ratio log p_D(x)/p_D'(x) of the law the mechanism claims to sample:

* Riemannian Laplace (Reimherr et al. 2021, Definition 3): (ρ(x, η') − ρ(x, η))/σ; on homogeneous
  spaces without ball the normalisers cancel, so its supremum ρ(η, η')/σ is the most the pair can
  show.
* Euclidean K-norm baseline: (‖a − c'‖ − ‖a − c‖)/σ in ambient coordinates; the most is ‖c − c'‖/σ.
* Tangent Gaussian at a public base point w (Han et al., Proposition 2): with u = Log_w x and
  b = Log_w f(D), (‖u − b'‖² − ‖u − b‖²)/(2σ²); the pair shows at most the exact ε(δ) of the
  Gaussian mechanism with sensitivity ‖b − b'‖ (Balle & Wang 2018). Where geodesics close
  (``Manifold.geodesic_period`` L: the lines of Gr(n, 1)), Exp_w maps every (θ + kL)û onto x, so the
  release's density sums the Gaussian over them (``tangent_gaussian_llr``); Log alone reads only the
  nearest and, past the cut locus, points the wrong way.
* Riemannian Gaussian (Jiang et al. 2023): (ρ(x, η′)² − ρ(x, η)²)/(2σ²); the normalisers cancel on its
  homogeneous spaces, and the pair shows at most its exact ε(δ) (``gdp.pair_epsilon``, by quadrature).
* K-norm gradient: (‖grad F_D'(W)‖ − ‖grad F_D(W)‖)/σ, the ratio up to the data-dependent
  normalisers (unknown, so the pair's most is not known in closed form).
* DP-RGD: the released path w_0..w_T is audited (the guarantee covers it). Given w_t, step t is a
  Gaussian in T_{w_t}M around −η_t g_D(w_t), so with v_t = −Log_{w_t}(w_{t+1})/η_t the path's
  log-likelihood ratio is Σ_t (‖v_t − g_D'(w_t)‖² − ‖v_t − g_D(w_t)‖²)/(2σ²) (exact on Hadamard
  spaces, where Log inverts Exp). Its law is that of a Gaussian mechanism with μ² = Σ_t ‖g_D − g_D'‖²/σ²
  ≤ T(2L0/n)²/σ² (Dong, Roth & Su 2022, Gaussian differential privacy), whose exact ε(δ) is the
  most the pair shows.
"""

from __future__ import annotations

import numpy as np
from scipy.special import log_ndtr, logsumexp, ndtr, xlogy

from engine.audit.pairs import NeighbouringPair
from engine.audit.target import AuditTarget
from engine.mechanisms.gdp import pair_epsilon
from engine.mechanisms.kng import frechet_gradient_norm
from engine.odds import epsilon_at_delta

# DP-RGD paths are evaluated a few steps at a time, about this many numbers per temporary array
# (small enough to stay in cache).
_CHUNK_ELEMENTS = 1 << 19


def gaussian_epsilon(mu: float, delta: float) -> float:
    """Exact ε(δ) of a Gaussian mechanism with sensitivity/σ = μ (Balle & Wang 2018, Theorem 8).

    δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) decreases in ε; returns the root (0 if δ(0) <= δ).
    """
    if mu <= 0:
        return 0.0

    def excess(eps):
        return ndtr(mu / 2 - eps / mu) - np.exp(eps + log_ndtr(-mu / 2 - eps / mu)) - delta

    return epsilon_at_delta(excess)


def _claim(mechanism, claimed_epsilon, guarantee=None):
    """The guarantee under audit (the mechanism's own unless given) and the ε claimed."""
    g = mechanism.privacy_guarantee() if guarantee is None else guarantee
    eps = g.epsilon if claimed_epsilon is None else float(claimed_epsilon)
    return g, eps


def laplace_target(mechanism, pair: NeighbouringPair, *, claimed_epsilon=None, label=None, notes="",
                   batch_size=100_000) -> AuditTarget:
    """Audit of a ``RiemannianLaplace`` (or any ``Mechanism`` releasing that law) releasing the Fréchet
    mean of each data set of ``pair``; σ is that of its guarantee."""
    m = pair.manifold
    eta = pair.frechet_means()
    g, eps = _claim(mechanism, claimed_epsilon)
    sigma = float(g.sigma)
    dependent = bool(getattr(mechanism, "footpoint_dependent", False))
    gap = float(m.dist(*eta))

    def draw(side, size, rng):
        return mechanism.release(eta[side], size=size, rng=rng).points

    def statistic(x):
        return (m.dist(x, eta[1]) - m.dist(x, eta[0])) / sigma

    return AuditTarget(
        label=label or g.mechanism, draw=draw, statistic=statistic, epsilon=eps, delta=g.delta,
        reachable_epsilon=np.nan if dependent else gap / sigma,
        statistic_name="Laplace log-likelihood ratio (ρ(x, η′) − ρ(x, η)) / σ",
        pair_description=f"{pair.description}; Fréchet means {gap:.4g} apart", notes=notes, batch_size=batch_size)


def riemannian_gaussian_target(mechanism, pair: NeighbouringPair, *, claimed_epsilon=None, label=None, notes="",
                               batch_size=100_000) -> AuditTarget:
    """Audit of a ``RiemannianGaussian`` releasing around the Fréchet mean of each data set of ``pair``."""
    m = pair.manifold
    eta = pair.frechet_means()
    g, eps = _claim(mechanism, claimed_epsilon)
    sigma = float(g.sigma)
    gap = float(m.dist(*eta))

    def draw(side, size, rng):
        return mechanism.release(eta[side], size=size, rng=rng).points

    def statistic(x):
        return (m.dist(x, eta[1]) ** 2 - m.dist(x, eta[0]) ** 2) / (2 * sigma ** 2)

    return AuditTarget(
        label=label or g.mechanism, draw=draw, statistic=statistic, epsilon=eps, delta=g.delta,
        reachable_epsilon=pair_epsilon(m, sigma, gap, g.delta, pair=eta),
        statistic_name="Gaussian log-likelihood ratio (ρ(x, η′)² − ρ(x, η)²) / (2σ²)",
        pair_description=f"{pair.description}; Fréchet means {gap:.4g} apart", notes=notes, batch_size=batch_size,
        mu=g.mu if claimed_epsilon is None else None)


def euclidean_target(mechanism, pair: NeighbouringPair, *, summary: str = "ambient", claimed_epsilon=None,
                     label=None, notes="", batch_size=100_000) -> AuditTarget:
    """Audit of a ``EuclideanLaplace`` released around the ambient (arithmetic) mean of each data
    set (``summary="ambient"``, the statistic its sensitivity 2 r_E/n is about) or around the
    Fréchet mean (``"frechet"``, the paper's Figure 1 baseline)."""
    m = pair.manifold
    if summary == "ambient":
        centres = pair.ambient_means()
    elif summary == "frechet":
        centres = tuple(m.to_ambient(f) for f in pair.frechet_means())
    else:
        raise ValueError(f"summary must be 'ambient' or 'frechet', got {summary!r}")
    g, eps = _claim(mechanism, claimed_epsilon)
    sigma = float(g.sigma)
    gap = float(np.linalg.norm(centres[0] - centres[1]))

    def draw(side, size, rng):
        return mechanism.release_centre(centres[side], size=size, rng=rng).points

    def statistic(x):
        a = m.to_ambient(x)
        return (np.linalg.norm(a - centres[1], axis=-1) - np.linalg.norm(a - centres[0], axis=-1)) / sigma

    return AuditTarget(
        label=label or g.mechanism, draw=draw, statistic=statistic, epsilon=eps, delta=g.delta,
        reachable_epsilon=gap / sigma, statistic_name="K-norm log-likelihood ratio (|a − c′| − |a − c|) / σ",
        pair_description=f"{pair.description}; {summary} means {gap:.4g} apart in ambient coordinates",
        notes=notes, batch_size=batch_size)


def tangent_gaussian_llr(manifold, w, b, sigma: float):
    """The statistic log p₀(x)/p₁(x) of releases x = Exp_w(b_i + ξ), ξ ~ N(0, σ²I) in T_wM, for the
    two tangent vectors ``b = (b₀, b₁)`` at w; a function of x ``(N, *point_shape)`` -> ``(N,)``.

    Without ``manifold.geodesic_period`` it is (‖u − b₁‖² − ‖u − b₀‖²)/(2σ²), u = Log_w x. With a period L
    the tangent vectors Exp_w maps onto x are s_k û (s_k = θ + kL, Log_w x = θû), so the density of x is
    Σ_k |s_k|^{d−1} φ_σ(s_k û − b_i) / J(θ) (polar coordinates; J is L-periodic, so J(θ) cancels); k runs
    over every s_k within 12σ + max ‖b_i‖ of 0.
    """
    m = manifold
    period = m.geodesic_period
    squares = [float(m.inner(w, bi, bi)) for bi in b]

    def log_point(x):
        return m.log(np.broadcast_to(w, x.shape), x)

    if period is None:
        def statistic(x):
            u = log_point(x)
            return (m.norm(w, u - b[1]) ** 2 - m.norm(w, u - b[0]) ** 2) / (2.0 * sigma**2)
        return statistic
    turns = int(np.ceil((12.0 * sigma + np.sqrt(max(squares))) / period)) + 1
    k = np.arange(-turns, turns + 1)

    def statistic(x):
        u = log_point(x)
        theta = m.norm(w, u)
        unit = u / m.per_point(np.where(theta > 0, theta, 1.0))
        s = theta[:, None] + period * k
        weight = xlogy(m.dim - 1, np.abs(s))
        log_density = [logsumexp(weight - (s**2 - 2.0 * s * m.inner(w, unit, bi)[:, None] + sq) / (2.0 * sigma**2),
                                 axis=1) for bi, sq in zip(b, squares)]
        return log_density[0] - log_density[1]

    return statistic


#: Grid of the released points on which ``released_loss_bound`` takes the largest privacy loss: distances
#: θ ∈ [0, L/2], angles α and, in dimension >= 3, the share ρ of the direction in the plane of b₀, b₁.
LOSS_GRID = dict(distances=161, angles=160, shares=9)


def released_loss_bound(manifold, w, b, statistic) -> float:
    """The largest privacy loss |log p₀(x)/p₁(x)| of the released points on a grid (``LOSS_GRID``), on a
    space whose geodesics close (``geodesic_period`` L): the pure ε of the release, the most a test on it
    can show, below the tangent vectors' own ε(δ) whenever Exp_w folds the noise over the space.

    ``statistic`` is ``tangent_gaussian_llr``: it reads x only through θ = ρ(w, x) ∈ [0, L/2] and the
    projections of the direction û of Log_w x on b₀ and b₁, so the grid spans θ and û = ρ(cos α e₁ +
    sin α e₂) + √(1 − ρ²) e₃ with e₁, e₂ an orthonormal basis of a plane holding b₀, b₁ and e₃ ⊥ both
    (ρ = 1 in dimension 2).
    """
    m = manifold
    basis = m.tangent_basis(w)
    frame = np.linalg.qr(np.column_stack([[m.inner(w, e, bi) for e in basis] for bi in b]
                                         + [np.eye(m.dim)[:, i] for i in range(m.dim)]))[0][:, :3]
    theta = np.linspace(0.0, m.geodesic_period / 2, LOSS_GRID["distances"])
    alpha = np.linspace(0.0, 2 * np.pi, LOSS_GRID["angles"], endpoint=False)
    share = np.linspace(0.0, 1.0, LOSS_GRID["shares"]) if m.dim >= 3 else np.ones(1)
    t, a, r = (g.ravel() for g in np.meshgrid(theta, alpha, share, indexing="ij"))
    coords = (r * np.cos(a))[:, None] * frame[:, 0] + (r * np.sin(a))[:, None] * frame[:, 1]
    if m.dim >= 3:
        coords = coords + np.sqrt(1.0 - r**2)[:, None] * frame[:, 2]
    steps = np.tensordot(t[:, None] * coords, basis, axes=1)
    return float(np.max(np.abs(statistic(m.exp(np.broadcast_to(w, steps.shape), steps)))))


def tangent_gaussian_target(mechanism, pair: NeighbouringPair, *, claimed_epsilon=None, label=None, notes="",
                            batch_size=100_000) -> AuditTarget:
    """Audit of a ``TangentGaussian`` with a public base point releasing the Fréchet mean."""
    m = pair.manifold
    w = getattr(mechanism, "base_point", None)
    if w is None:
        raise ValueError("the tangent Gaussian audit needs a public base_point: with base_point=None the noise "
                         "lives in the tangent space of the private footpoint (issue 19, item 3)")
    eta = pair.frechet_means()
    b = tuple(m.log(w, e) for e in eta)
    g, eps = _claim(mechanism, claimed_epsilon)
    sigma = float(g.sigma)
    gap = float(m.norm(w, b[0] - b[1]))

    def draw(side, size, rng):
        return mechanism.release(eta[side], size=size, rng=rng).points

    statistic = tangent_gaussian_llr(m, w, b, sigma)
    reachable = gaussian_epsilon(gap / sigma, g.delta)
    name = "Gaussian log-likelihood ratio in T_wM at the base point"
    if m.geodesic_period is not None:
        name += ", summed over every tangent vector Exp_w maps onto the release"
        tangent, reachable = reachable, min(reachable, released_loss_bound(m, w, b, statistic))
        if reachable < tangent:
            notes = (notes + " " if notes else "") + (
                f"Exp_w folds the tangent noise (σ = {sigma:.3g}) over {m.name}, whose geodesics close after "
                f"{m.geodesic_period:.4g}: the released points' privacy loss never exceeds {reachable:.3g} (its "
                f"largest value on a grid of points), below the {tangent:.3g} of the tangent vectors, so no test "
                f"on the releases can show more.")
    return AuditTarget(
        label=label or g.mechanism, draw=draw, statistic=statistic, epsilon=eps, delta=g.delta,
        reachable_epsilon=reachable, statistic_name=name,
        pair_description=f"{pair.description}; log_w of the means {gap:.4g} apart", notes=notes,
        batch_size=batch_size)


def kng_target(mechanism, pair: NeighbouringPair, *, claimed_epsilon=None, label=None, notes="", chains=1_000,
               burn_in=1_000, thin=20) -> AuditTarget:
    """Audit of a ``KNormGradient``: ``chains`` Metropolis–Hastings chains per call, each giving
    draws ``thin`` steps apart after ``burn_in`` steps (fewer than the defaults, for speed)."""
    m = pair.manifold
    data = (pair.first, pair.second)
    g, eps = _claim(mechanism, claimed_epsilon)
    sigma = float(g.sigma)

    def draw(side, size, rng):
        k = min(size, chains)
        per_chain = -(-size // k)
        points = np.broadcast_to(data[side], (k,) + data[side].shape)
        out = mechanism.release(points, size=per_chain, rng=rng, burn_in=burn_in, thin=thin).points
        return out.reshape((-1,) + m.point_shape)[:size]

    def statistic(x):
        norms = [frechet_gradient_norm(m, x, np.broadcast_to(d, (len(x),) + d.shape)) for d in data]
        return (norms[1] - norms[0]) / sigma

    chain_note = (f"MCMC draws ({chains} chains, burn-in {burn_in}, thinning {thin}): approximately independent.")
    if mechanism.data_dependent_normaliser:
        reachable = np.nan
        law_note = ("The normalising constants depend on the data set, so the most this pair can show is not known "
                    "in closed form; σ = 2Δ/ε spends half the claim on their ratio, which a pair moves little, so "
                    "here even the 2× twin shows about ε at most (on R², where the normaliser is the same for "
                    "every data set, σ = Δ/ε and the pair reaches the claim).")
    else:
        # grad F_D(W) = W − mean(D) in linear coordinates: the ratio's supremum is |mean(D) − mean(D′)|/σ.
        reachable = float(m.dist(*pair.frechet_means())) / sigma
        law_note = ("The normaliser is the same for every data set on this flat space, so the statistic is the "
                    "exact log-likelihood ratio and the pair shows at most |mean(D) − mean(D′)|/σ.")
    return AuditTarget(
        label=label or g.mechanism, draw=draw, statistic=statistic, epsilon=eps, delta=g.delta,
        reachable_epsilon=reachable,
        statistic_name="K-norm gradient log-likelihood ratio up to the normalisers",
        pair_description=pair.description,
        notes=" ".join(part for part in (notes, chain_note, law_note) if part),
        batch_size=10 * chains)


def dp_rgd_target(mechanism, first, second, init, *, pair_description="", claimed_epsilon=None, label=None,
                  notes="", batch_size=10_000) -> AuditTarget:
    """Audit of ``DPRGD`` (full batch) run end to end on the problems ``first`` and ``second``.

    Parameters
    ----------
    mechanism : DPRGD with ``batch_size=None``.
    first, second : ERM problems on the neighbouring data sets (same manifold and n).
    init : the public starting point.
    """
    m = first.manifold
    if not (m.kappa_max <= 0 and np.isinf(m.injectivity_radius)):
        raise ValueError(f"the DP-RGD path audit needs Log to invert Exp (a Hadamard space), got {m.name}")
    if mechanism.batch_size is not None:
        raise ValueError(f"the DP-RGD path audit covers the full batch only, got batch_size={mechanism.batch_size!r}")
    problems = (first, second)
    steps = mechanism.steps
    probe = mechanism.fit(first, init, rng=0, record_every=steps)
    sigma = probe.sigma
    # The accountant's ε for this data size: the run's own guarantee.
    g, eps = _claim(mechanism, claimed_epsilon, probe.guarantee)
    eta = mechanism.step_sizes
    full = np.arange(first.n)
    expand = (None, slice(None)) + (None,) * m.point_ndim

    def draw(side, size, rng):
        start = np.broadcast_to(init, (size,) + m.point_shape)
        path = mechanism.fit(problems[side], start, rng=rng, record_every=steps).path
        return np.moveaxis(path, 0, 1)

    def statistic(path):
        total = np.zeros(len(path))
        chunk = max(1, _CHUNK_ELEMENTS // max(1, path[:, 0].size))
        for t0 in range(0, steps, chunk):
            t1 = min(t0 + chunk, steps)
            w, nxt = path[:, t0:t1], path[:, t0 + 1:t1 + 1]
            v = -m.log(w, nxt) / eta[t0:t1][expand]
            g0 = first.clipped_mean_gradient(w, full, mechanism.clip)
            g1 = second.clipped_mean_gradient(w, full, mechanism.clip)
            total += np.sum(m.norm(w, v - g1) ** 2 - m.norm(w, v - g0) ** 2, axis=1) / (2.0 * sigma**2)
        return total

    mu = np.sqrt(steps) * 2.0 * mechanism.clip / first.n / sigma
    return AuditTarget(
        label=label or g.mechanism, draw=draw, statistic=statistic, epsilon=eps, delta=g.delta,
        reachable_epsilon=gaussian_epsilon(mu, g.delta),
        statistic_name="log-likelihood ratio of the whole path w_0..w_T",
        pair_description=pair_description, notes=notes, batch_size=batch_size)

