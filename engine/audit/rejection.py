"""Rejection sets {s > t} or {s < t} on a scalar statistic, chosen to maximise the ε lower bound.

The set is chosen on one half of the releases (the selection half) and its bound is evaluated on
the other half, so the choice cannot inflate the bound (DP-Sniper, Bichsel et al. 2021). On the
selection half every candidate is scored by its bound at level α divided by the number of
candidates (Bonferroni): without it the maximum lands on an extreme tail whose small counts
looked favourable by chance and do not repeat on the evaluation half.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.audit.confidence import epsilon_lower_bound

# Tail probabilities at which candidate thresholds are placed, from 1/N up to 1/2 in each tail.
N_CANDIDATES = 160


@dataclass(frozen=True)
class RejectionSet:
    """S = {s > threshold} (``upper``) or {s < threshold}; ``first_is_p``: the first data set's law
    plays P in P(S) <= e^ε Q(S) + δ (otherwise the second's)."""

    threshold: float
    upper: bool
    first_is_p: bool

    def count(self, stat: np.ndarray) -> int:
        """How many of the statistics ``stat`` fall in S."""
        return int(np.count_nonzero(stat > self.threshold if self.upper else stat < self.threshold))

    def describe(self) -> str:
        side = ">" if self.upper else "<"
        favoured = "D" if self.first_is_p else "D'"
        return f"S = {{statistic {side} {self.threshold:.4g}}}, more likely under {favoured}"


def _counts_above(sorted_stat: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    return len(sorted_stat) - np.searchsorted(sorted_stat, thresholds, side="right")


def _counts_below(sorted_stat: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    return np.searchsorted(sorted_stat, thresholds, side="left")


def choose_rejection_set(stat_first, stat_second, *, delta: float, alpha: float) -> tuple[RejectionSet, float]:
    """The set among the candidates with the largest ε lower bound on these (selection) statistics.

    Parameters
    ----------
    stat_first, stat_second : 1-D arrays, the statistic of releases on D and on D'.
    delta, alpha : as in ``epsilon_lower_bound``.

    Returns
    -------
    (RejectionSet, float)
        The set and its simultaneous bound on the selection half (re-evaluate on fresh draws).
    """
    a = np.sort(np.asarray(stat_first, dtype=float))
    b = np.sort(np.asarray(stat_second, dtype=float))
    pooled = np.sort(np.concatenate([a, b]))
    tail = np.geomspace(1.0 / len(pooled), 0.5, N_CANDIDATES)
    upper_t = np.unique(np.quantile(pooled, 1.0 - tail, method="lower"))
    lower_t = np.unique(np.quantile(pooled, tail, method="higher"))
    best = (RejectionSet(float(pooled[-1]), True, True), 0.0)
    level = alpha / (2 * (len(upper_t) + len(lower_t)))
    for upper, thresholds, counter in ((True, upper_t, _counts_above), (False, lower_t, _counts_below)):
        ka, kb = counter(a, thresholds), counter(b, thresholds)
        for first_is_p, (kp, np_, kq, nq) in ((True, (ka, len(a), kb, len(b))), (False, (kb, len(b), ka, len(a)))):
            eps = epsilon_lower_bound(kp, np_, kq, nq, delta=delta, alpha=level)
            i = int(np.argmax(eps))
            if eps[i] > best[1]:
                best = (RejectionSet(float(thresholds[i]), upper, first_is_p), float(eps[i]))
    return best


def evaluate(rejection: RejectionSet, stat_first, stat_second, *, delta: float, alpha: float) -> float:
    """The (1 − α) lower bound on ε at δ of ``rejection`` on fresh (evaluation) statistics."""
    ka, kb = rejection.count(np.asarray(stat_first)), rejection.count(np.asarray(stat_second))
    na, nb = len(stat_first), len(stat_second)
    kp, np_, kq, nq = (ka, na, kb, nb) if rejection.first_is_p else (kb, nb, ka, na)
    return float(epsilon_lower_bound(kp, np_, kq, nq, delta=delta, alpha=alpha))
