"""Clopper–Pearson bounds and the lower confidence bound on ε they give for one rejection set.

For a rejection set S, (ε, δ)-DP requires P(S) <= e^ε Q(S) + δ with P, Q the release laws on the
two neighbouring data sets (Dwork & Roth 2014, Definition 2.4). With one-sided Clopper–Pearson
bounds P_lo <= P(S) and Q_hi >= Q(S), each at level α/2, the event P_lo <= P(S) and Q_hi >= Q(S)
has probability >= 1 − α, and on it every ε the mechanism satisfies obeys

    ε >= log((P_lo − δ) / Q_hi),

so that value is a (1 − α) lower confidence bound on the mechanism's ε at δ (Jagielski, Ullman &
Oprea 2020, "Auditing differentially private machine learning"; Bichsel et al. 2021, DP-Sniper).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import beta


def clopper_pearson_lower(k, n, alpha) -> np.ndarray:
    """One-sided (1 − α) Clopper–Pearson lower bound of a binomial proportion k/n (broadcasts)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    # beta.ppf needs a > 0: k = 0 gives the bound 0.
    return np.where(k > 0, beta.ppf(alpha, np.maximum(k, 1.0), n - k + 1.0), 0.0)


def clopper_pearson_upper(k, n, alpha) -> np.ndarray:
    """One-sided (1 − α) Clopper–Pearson upper bound of a binomial proportion k/n (broadcasts)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    # beta.ppf needs b > 0: k = n gives the bound 1.
    return np.where(k < n, beta.ppf(1.0 - alpha, k + 1.0, np.maximum(n - k, 1.0)), 1.0)


def epsilon_lower_bound(k_p, n_p, k_q, n_q, *, delta: float, alpha: float) -> np.ndarray:
    """(1 − α) lower confidence bound on ε at δ from counts k_p of n_p and k_q of n_q in one set S.

    Parameters
    ----------
    k_p, n_p : releases on the first data set that fall in S, and how many were drawn.
    k_q, n_q : the same on the neighbouring data set.
    delta : the δ at which ε is bounded (0 for pure ε-DP).
    alpha : total error probability, split equally between the two Clopper–Pearson bounds.

    Returns
    -------
    ndarray
        max(0, log((P_lo − δ)/Q_hi)); broadcasts over arrays of counts.
    """
    p_lo = clopper_pearson_lower(k_p, n_p, alpha / 2.0)
    q_hi = clopper_pearson_upper(k_q, n_q, alpha / 2.0)
    excess = p_lo - delta
    with np.errstate(divide="ignore", invalid="ignore"):
        eps = np.where(excess > 0, np.log(np.maximum(excess, np.finfo(float).tiny) / q_hi), 0.0)
    return np.maximum(eps, 0.0)
