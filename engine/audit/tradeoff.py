"""Trade-off curves: what an audit's tests measured on its pair, beside the curve its claim promises.

A test between neighbouring data sets D and D' sees one release and rejects "the data is D" on a set
S. Its errors are α = P_D(S) (type I) and β = P_D'(not S) (type II); the trade-off function of the
pair is T(α) = inf{β of a test with type I error <= α} (Dong, Roth & Su, "Gaussian differential
privacy", J. R. Stat. Soc. B 84, 2022, arXiv 1905.02383, Definition 2.1). A mechanism is f-DP when
T >= f for every neighbouring pair; the claims the engine makes are (ibid., Propositions 2.4-2.5)

* (ε, δ)-DP: f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)) (ε-DP is δ = 0), ``engine.odds.dp_tradeoff_bound``;
* μ-GDP: f(α) = G_μ(α) = Φ(Φ⁻¹(1 − α) − μ), ``engine.odds.gaussian_tradeoff``.

These f are symmetric (f = f⁻¹), so T(D, D') >= f holds if and only if T(D', D) >= f: one ordering of
the pair is enough.

**Measured curve.** The audit thresholds a scalar statistic s of the release: its tests are
S = {s < v} and S = {s >= v} for every v, and any mixture of them (a randomised test). Their (α, β)
pairs, read from the empirical distribution functions of s on the two sides, form a point set whose
lower convex envelope is the curve of the family, T_fam >= T. With s the pair's log-likelihood ratio the
family holds the Neyman-Pearson tests and T_fam = T; with any other statistic T_fam is an upper
bound on T. Either way, T_fam below f somewhere refutes the claim.

**Band.** Each side's distribution function F is bounded at every threshold at once, by two bounds
at half that side's level each, and the tighter is kept:

* the Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant, P(sup_v |F̂_n(v) − F(v)| > r)
  <= 2 exp(−2 n r²) (Massart 1990, Ann. Probab. 18), for all v and left limits F(v−) alike;
* order statistics at ``RANKS`` fixed ranks k in each tail: with X = F⁻¹(U), U uniform, the k-th
  smallest of n draws obeys F(X_(k)−) <= U_(k) <= F(X_(k)) and U_(k) ~ Beta(k, n + 1 − k), so the
  Beta quantiles (Clopper–Pearson's) at level/(4·ranks), Bonferroni over the ranks, bound F between
  consecutive ranks by monotonicity, for any F (ties and atoms included). Near α = 0 or 1 they are
  tighter than DKW's constant width, which is where a broken ε shows first.

The level γ is split equally between the two sides. On the event that every bound holds (probability
>= 1 − γ), every test's true (α, β) lies in the box of its bounds. The true T_fam is then at most the
envelope of the boxes' upper-right corners and at least the envelope of their lower-left corners (T_fam
is the envelope of the true points; it is non-increasing and convex), at every α simultaneously:
``beta_low`` and ``beta_high``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.spatial import ConvexHull
from scipy.stats import beta as beta_law

from engine.odds import dp_tradeoff_bound, gaussian_tradeoff
from engine.validation import check_int, check_probability

#: Type I errors at which a curve is tabulated (the CSV's rows and the figure's points).
GRID_POINTS = 201
#: Order-statistic ranks per tail in the band (geometric from 1 to n/2, ``cdf_band``).
RANKS = 40
#: The columns of ``TradeoffCurve.frame`` (and of ``python -m engine.audit … --tradeoff``).
COLUMNS = ("alpha", "beta", "beta_low", "beta_high", "claimed_beta")


def default_grid() -> np.ndarray:
    """``GRID_POINTS`` type I errors evenly spaced over [0, 1]."""
    return np.linspace(0.0, 1.0, GRID_POINTS)


def claimed_tradeoff(claim, alpha) -> np.ndarray:
    """The curve f the guarantee ``claim`` promises, at the type I errors ``alpha``.

    ``claim`` is read by what it has, so any statement of the engine plugs in (a ``PrivacyGuarantee``,
    an ``AuditTarget``, an ``AuditResult``):

    * a non-empty ``void`` (a guarantee that does not hold): no promise, f = 0;
    * a ``mu`` that is not None: μ-GDP, ``gaussian_tradeoff`` (the stronger statement when the claim
      also carries the (ε, δ) it converts to). This is the extension point for GDP mechanisms: give
      the guarantee (and the audit target it builds) a ``mu`` field;
    * otherwise ``epsilon`` and ``delta``: ``dp_tradeoff_bound``.
    """
    alpha = np.asarray(alpha, dtype=float)
    if getattr(claim, "void", ""):
        return np.zeros_like(alpha)
    mu = getattr(claim, "mu", None)
    if mu is not None:
        return gaussian_tradeoff(alpha, float(mu))
    return dp_tradeoff_bound(alpha, float(claim.epsilon), float(claim.delta))


def claim_label(claim) -> str:
    """How the claim reads on a figure: ``"1-DP"``, ``"(1, 1e-05)-DP"``, ``"0.5-GDP"`` or ``"no claim"``."""
    if getattr(claim, "void", ""):
        return "no claim"
    mu = getattr(claim, "mu", None)
    if mu is not None:
        return f"{float(mu):g}-GDP"
    if float(claim.delta) == 0.0:
        return f"{float(claim.epsilon):g}-DP"
    return f"({float(claim.epsilon):g}, {float(claim.delta):g})-DP"


@functools.lru_cache(maxsize=64)
def _rank_bounds(n: int, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ranks k of ``cdf_band`` (``RANKS`` geometric ones per tail) and Beta(k, n + 1 − k) quantiles
    low_k <= U_(k) <= high_k, all at once with probability >= 1 − ``level`` (Bonferroni)."""
    tail = np.unique(np.round(np.geomspace(1.0, max(n / 2.0, 1.0), RANKS)).astype(int))
    ranks = np.unique(np.concatenate([tail, n + 1 - tail]))
    each = level / (2.0 * ranks.size)
    return ranks, beta_law.ppf(each, ranks, n + 1 - ranks), beta_law.ppf(1.0 - each, ranks, n + 1 - ranks)


def cdf_band(sorted_draws, values, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """F̂(v−) and a band holding at every v at once with probability >= 1 − ``level`` (module notes).

    Parameters
    ----------
    sorted_draws : (n,) the draws, sorted.
    values : (m,) thresholds v.
    level : error probability, half to DKW, half to the order statistics.

    Returns
    -------
    (estimate, low, high) : (m,) arrays, low <= F(v−) <= high.
    """
    n = sorted_draws.size
    below = np.searchsorted(sorted_draws, values, side="left")  # c(v) = #{x < v}
    estimate = below / n
    r = dkw_radius(n, level / 2.0)
    ranks, low_k, high_k = _rank_bounds(n, level / 2.0)
    # X_(k) < v exactly when k <= c(v): the largest such rank bounds F(v−) below, the next one above.
    at = np.searchsorted(ranks, below, side="right")
    low = np.where(at > 0, low_k[np.maximum(at - 1, 0)], 0.0)
    high = np.where(at < ranks.size, high_k[np.minimum(at, ranks.size - 1)], 1.0)
    return estimate, np.maximum(estimate - r, low), np.minimum(estimate + r, high)


def threshold_tests(first, second, level: float | None = None):
    """Estimated (α, β) of every threshold test on the statistics ``first`` (on D) and ``second`` (on D').

    The tests are S = {s < v} for v over the pooled distinct values and +∞ (α = F̂_D(v−),
    β = 1 − F̂_D'(v−)), and their complements {s >= v} (1 − α, 1 − β); the first and last are the
    trivial tests (0, 1) and (1, 0).

    Returns
    -------
    (alpha, beta) : two arrays of shape (2 (m + 1),), m the number of distinct pooled values; with a
    ``level``, also (alpha_low, alpha_high, beta_low, beta_high), each test's box, holding for every
    test at once with probability >= 1 − level (``cdf_band`` at level/2 on each side).
    """
    a = np.sort(np.asarray(first, dtype=float).ravel())
    b = np.sort(np.asarray(second, dtype=float).ravel())
    if a.size == 0 or b.size == 0:
        raise ValueError(f"a trade-off curve needs statistics on both sides, got {a.size} and {b.size}")
    values = np.append(np.unique(np.concatenate([a, b])), np.inf)
    if level is None:
        alpha = np.searchsorted(a, values, side="left") / a.size
        beta = 1.0 - np.searchsorted(b, values, side="left") / b.size
        return np.concatenate([alpha, 1.0 - alpha]), np.concatenate([beta, 1.0 - beta])
    alpha, alpha_low, alpha_high = cdf_band(a, values, level / 2.0)
    kept, kept_low, kept_high = cdf_band(b, values, level / 2.0)  # F_D'(v−) = 1 − β of {s < v}
    # {s < v}: (α, 1 − kept); its complement {s >= v}: (1 − α, kept).
    return (np.concatenate([alpha, 1.0 - alpha]), np.concatenate([1.0 - kept, kept]),
            np.concatenate([alpha_low, 1.0 - alpha_high]), np.concatenate([alpha_high, 1.0 - alpha_low]),
            np.concatenate([1.0 - kept_high, kept_low]), np.concatenate([1.0 - kept_low, kept_high]))


def lower_envelope(alpha, beta, grid) -> np.ndarray:
    """The lower convex envelope of the points (α, β) ⊂ [0, 1]² and the trivial tests (0, 1), (1, 0), at ``grid``.

    The envelope g(a) = min{b : (a, b) in the convex hull}: the best β of the mixtures of the tests at
    type I error a. With (1, 0) among the points it is non-increasing, so it is the family's trade-off
    curve. Mixing the trivial tests reaches β = 1 − a, so points with α + β >= 1 cannot lower it.
    """
    alpha, beta = np.asarray(alpha, dtype=float), np.asarray(beta, dtype=float)
    below = alpha + beta < 1.0
    # (1, 1) keeps the hull two-dimensional when no test beats guessing; it is above every lower edge.
    points = np.column_stack([np.concatenate([alpha[below], [0.0, 1.0, 1.0]]),
                              np.concatenate([beta[below], [1.0, 0.0, 1.0]])])
    hull = points[ConvexHull(points).vertices]  # counter-clockwise
    start = np.lexsort((hull[:, 1], hull[:, 0]))[0]  # the lowest of the leftmost
    hull = np.roll(hull, -start, axis=0)
    end = np.lexsort((hull[:, 1], -hull[:, 0]))[0]  # the lowest of the rightmost
    chain = hull[: end + 1]  # counter-clockwise from the leftmost to the rightmost runs along the bottom
    return np.interp(grid, chain[:, 0], chain[:, 1])


def dkw_radius(n: int, level: float) -> float:
    """r with P(sup |F̂_n − F| > r) <= ``level``: √(log(2/level) / (2n)) (DKW with Massart's constant)."""
    return float(np.sqrt(np.log(2.0 / level) / (2.0 * check_int("n", n, minimum=1))))


@dataclass(frozen=True)
class TradeoffCurve:
    """A measured trade-off curve on a grid of type I errors, with its band and the claim's curve.

    Attributes
    ----------
    alpha : (g,) type I errors in [0, 1].
    beta : (g,) the family's curve from the estimated errors.
    beta_low, beta_high : (g,) the simultaneous band: the family's true curve lies between them at every
        α at once with probability >= 1 − ``level``.
    claimed_beta : (g,) the claim's curve f (``claimed_tradeoff``).
    level : the band's error probability.
    claim : how the claim reads (``claim_label``).
    label : what was measured.
    """

    alpha: np.ndarray
    beta: np.ndarray
    beta_low: np.ndarray
    beta_high: np.ndarray
    claimed_beta: np.ndarray
    level: float
    claim: str
    label: str = ""

    def frame(self) -> pd.DataFrame:
        """The columns ``COLUMNS``, one row per α."""
        return pd.DataFrame({name: getattr(self, name) for name in COLUMNS})

    @property
    def deficit(self) -> float:
        """max over α of f(α) − beta_high(α): above 0, the band lies below the claim there and the claim
        is refuted at the band's level; at or below 0, the measurement is consistent with the claim."""
        return float(np.max(self.claimed_beta - self.beta_high))

    @property
    def refutes(self) -> bool:
        """Whether the whole band falls below the claim's curve somewhere (``deficit`` > 0)."""
        return self.deficit > 0.0


def empirical_tradeoff(first, second, *, level: float = 0.05, grid=None) -> tuple[np.ndarray, ...]:
    """The family's curve and its simultaneous band from the statistics ``first`` (D) and ``second`` (D').

    Parameters
    ----------
    first, second : 1-D arrays of the statistic of independent releases on D and on D'.
    level : the band's error probability γ in (0, 1), split equally between the two sides (``cdf_band``).
    grid : type I errors in [0, 1] (default ``default_grid()``).

    Returns
    -------
    (grid, beta, beta_low, beta_high) : arrays of the grid's shape (module notes).
    """
    level = check_probability("level", level)
    grid = default_grid() if grid is None else np.asarray(grid, dtype=float)
    if grid.ndim != 1 or grid.size == 0 or not np.all((grid >= 0.0) & (grid <= 1.0)):
        raise ValueError("grid must be a non-empty 1-D array of type I errors in [0, 1]")
    alpha, beta, alpha_low, alpha_high, beta_low, beta_high = threshold_tests(first, second, level)
    # The trivial tests, known without error, are in every envelope (``lower_envelope``).
    high = lower_envelope(alpha_high, beta_high, grid)
    low = lower_envelope(alpha_low, beta_low, grid)
    return grid, lower_envelope(alpha, beta, grid), low, high


def tradeoff_curve(first, second, claim, *, level: float = 0.05, grid=None, label: str = "") -> TradeoffCurve:
    """``empirical_tradeoff`` of the statistics beside ``claimed_tradeoff(claim)``, as a ``TradeoffCurve``."""
    grid, beta, low, high = empirical_tradeoff(first, second, level=level, grid=grid)
    return TradeoffCurve(grid, beta, low, high, claimed_tradeoff(claim, grid), float(level), claim_label(claim), label)


def audit_tradeoff(result, *, claim=None, grid=None) -> TradeoffCurve:
    """The trade-off curve of an ``engine.audit.AuditResult`` from its releases on its pair.

    The curve takes every threshold, so it uses both halves of the releases (the rejection set chosen
    on one half plays no part). The band's level is the α_k of the checkpoint the audit stopped at
    (``engine.audit.run``: they sum to at most the audit's α over every checkpoint), so the band keeps
    its level whatever the checkpoint the audit stopped at. ``claim`` defaults to ``result`` itself (its ε
    and δ, or a ``mu`` if it has one).
    """
    level = float(result.history["alpha"].iloc[-1])
    first = np.concatenate([result.statistic_first, result.selection_first])
    second = np.concatenate([result.statistic_second, result.selection_second])
    return tradeoff_curve(first, second, result if claim is None else claim, level=level, grid=grid,
                          label=result.label)


def target_tradeoff(target, *, samples: int, rng=None, level: float = 0.05, grid=None) -> TradeoffCurve:
    """The trade-off curve of ``samples`` fresh releases per side of an ``AuditTarget`` on its statistic,
    beside its claim (``claimed_tradeoff(target)``), without running an audit.

    The target must have a statistic (the claimed law's log-likelihood ratio); a learned score needs
    training releases the audit draws (``audit_tradeoff``).
    """
    if target.statistic is None:
        raise ValueError(f"{target.label} has no statistic of its own (a learned score); run the audit and use "
                         "audit_tradeoff")
    samples = check_int("samples", samples, minimum=1)
    rng = np.random.default_rng(rng)
    first, second = ([target.statistic(target.draw(side, size, rng)) for size in _batches(samples, target.batch_size)]
                     for side in (0, 1))
    return tradeoff_curve(np.concatenate(first), np.concatenate(second), target, level=level, grid=grid,
                          label=target.label)


def _batches(total: int, batch: int) -> list[int]:
    """``total`` cut into sizes of at most ``batch``."""
    return [min(batch, total - start) for start in range(0, total, batch)]
