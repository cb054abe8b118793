"""Empirical (ε, δ) audit of a mechanism from samples on two neighbouring inputs.

For test sets A_1..A_J and draws from M(D) and M(D'), the release probabilities P(A) and Q(A) are
bounded with one-sided Clopper–Pearson intervals (Bonferroni over events and both directions).
A mechanism is flagged when, for some event, even the pessimistic bounds violate the definition:
lower(P(A)) > e^ε upper(Q(A)) + δ. A correct mechanism is flagged with probability at most α.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import beta


def clopper_pearson(k, n, alpha):
    """One-sided lower and upper (1 − α) confidence bounds for a binomial proportion k/n."""
    k = np.asarray(k, dtype=float)
    lower = np.where(k > 0, beta.ppf(alpha, np.maximum(k, 1), n - k + 1), 0.0)
    upper = np.where(k < n, beta.ppf(1 - alpha, k + 1, np.maximum(n - k, 1)), 1.0)
    return lower, upper


def certified_violation(in_p, in_q, epsilon, *, alpha=1e-3):
    """Largest certified lower bound of P(A) − e^ε Q(A) over events and both directions.

    Parameters
    ----------
    in_p, in_q : ndarray of bool, shape ``(n_events, n_draws)``
        Membership of the draws from M(D) and M(D') in each event.
    epsilon : float
    alpha : float
        Family-wise error level of the confidence bounds.

    Returns
    -------
    float
        δ certified to be exceeded; the mechanism violates (ε, δ)-DP if this exceeds δ.
    """
    n_events = in_p.shape[0]
    level = alpha / (4 * n_events)
    kp, kq = in_p.sum(axis=1), in_q.sum(axis=1)
    p_lo, p_hi = clopper_pearson(kp, in_p.shape[1], level)
    q_lo, q_hi = clopper_pearson(kq, in_q.shape[1], level)
    forward = p_lo - np.exp(epsilon) * q_hi
    backward = q_lo - np.exp(epsilon) * p_hi
    return float(max(forward.max(), backward.max()))


def certified_log_ratio(in_p, in_q, *, alpha=1e-3):
    """Largest certified lower bound of |log P(A)/Q(A)| over events (pure ε-DP audit)."""
    n_events = in_p.shape[0]
    level = alpha / (4 * n_events)
    kp, kq = in_p.sum(axis=1), in_q.sum(axis=1)
    p_lo, p_hi = clopper_pearson(kp, in_p.shape[1], level)
    q_lo, q_hi = clopper_pearson(kq, in_q.shape[1], level)
    with np.errstate(divide="ignore"):
        ratios = np.concatenate([np.log(p_lo / q_hi), np.log(q_lo / p_hi)])
    return float(ratios.max())
