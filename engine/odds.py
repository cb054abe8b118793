"""What ε means to an observer: how far one release can move the odds about one person.

An observer who holds prior probability p that a person's record is in the data set (D rather than
its neighbour D') sees a release y of an ε-DP mechanism. Bayes' rule multiplies the prior odds by the
likelihood ratio p_D(y)/p_D'(y) ∈ [e^{−ε}, e^ε], so the posterior lies in

    [p e^{−ε} / (p e^{−ε} + 1 − p),  p e^ε / (p e^ε + 1 − p)]

(Kasiviswanathan & Smith 2014; in words as Nanayakkara et al. 2023 found works best). At p = ½ the
upper end e^ε/(1 + e^ε) is the most often any guess of "D or D'?" can be right.

For an (ε, δ) guarantee the same fact is a trade-off curve between the type I error α and the type II
error β of every test of D against D' (Dong, Roth & Su 2022, Gaussian differential privacy):

* any (ε, δ)-DP mechanism: β ≥ max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α));
* the Gaussian mechanism with μ = Δ/σ, exactly: β(α) = Φ(Φ⁻¹(1 − α) − μ);
* the Laplace mechanism on its adversarial pair Lap(0, b) against Lap(Δ, b), ε = Δ/b, exactly
  (the likelihood ratio grows with x, so the tests "x > t" are optimal; t = F⁻¹(1 − α)):
  β(α) = 1 − e^ε α for α ≤ e^{−ε}/2, e^{−ε}/(4α) for e^{−ε}/2 < α ≤ ½, e^{−ε}(1 − α) for α > ½.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr, ndtri

from engine.validation import check_nonnegative, check_positive, check_probability


def _probabilities(name: str, values) -> np.ndarray:
    """``values`` as a float array in [0, 1]; ``ValueError`` quoting the first value outside."""
    try:
        a = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers in [0, 1], got {values!r}") from None
    bad = ~((a >= 0.0) & (a <= 1.0))
    if bad.any():
        raise ValueError(f"{name} must lie in [0, 1], got {float(a[bad].flat[0])!r}")
    return a


def posterior_range(prior, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest posterior an ε-DP release can leave from the prior ``prior``.

    Parameters
    ----------
    prior : float or array in [0, 1]
        The observer's probability that the person's record is in the data set.
    epsilon : float >= 0

    Returns
    -------
    (low, high) : arrays shaped like ``prior``
        p e^{−ε}/(p e^{−ε} + 1 − p) and p e^ε/(p e^ε + 1 − p).
    """
    p = _probabilities("prior", prior)
    growth = np.exp(check_nonnegative("epsilon", epsilon))
    return p / (p + (1.0 - p) * growth), p * growth / (p * growth + 1.0 - p)


def guess_ceiling(epsilon: float) -> float:
    """e^ε/(1 + e^ε): the highest share of right guesses of "D or D'?" at even odds under ε-DP."""
    return float(posterior_range(0.5, epsilon)[1])


def dp_tradeoff_bound(alpha, epsilon: float, delta: float = 0.0) -> np.ndarray:
    """The least type II error β any test can reach at type I error α under (ε, δ)-DP.

    β = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)) (Dong, Roth & Su 2022, Proposition 2.5), shape of ``alpha``.
    """
    a = _probabilities("alpha", alpha)
    eps = check_nonnegative("epsilon", epsilon)
    d = check_probability("delta", delta, open_interval=False)
    return np.maximum.reduce([np.zeros_like(a), 1.0 - d - np.exp(eps) * a, np.exp(-eps) * (1.0 - d - a)])


def gaussian_tradeoff(alpha, mu: float) -> np.ndarray:
    """The Gaussian mechanism's exact trade-off curve β(α) = Φ(Φ⁻¹(1 − α) − μ), μ = Δ/σ (Dong, Roth & Su 2022)."""
    a = _probabilities("alpha", alpha)
    return ndtr(ndtri(1.0 - a) - check_nonnegative("mu", mu))


def laplace_tradeoff(alpha, shift: float, scale: float) -> np.ndarray:
    """The exact trade-off curve of Lap(0, b) against Lap(Δ, b) (module notes), shape of ``alpha``.

    Parameters
    ----------
    alpha : float or array in [0, 1], the type I error.
    shift : float >= 0, Δ (the sensitivity, the pair's distance).
    scale : float > 0, b.
    """
    a = _probabilities("alpha", alpha)
    eps = check_nonnegative("shift", shift) / check_positive("scale", scale)
    tail = 0.5 * np.exp(-eps)
    with np.errstate(divide="ignore"):
        middle = np.exp(-eps) / (4.0 * a)
    return np.where(a <= tail, 1.0 - np.exp(eps) * a, np.where(a <= 0.5, middle, np.exp(-eps) * (1.0 - a)))


def epsilon_at_delta(excess, *, xtol: float = 1e-12) -> float:
    """The ε where a pair's δ(ε) − δ, ``excess`` (decreasing in ε), crosses 0: its exact ε at δ; 0 if
    ``excess(0) <= 0``. The bracket doubles from [0, 1] until it holds the root."""
    if excess(0.0) <= 0:
        return 0.0
    hi = 1.0
    while excess(hi) > 0:
        hi *= 2.0
    return float(brentq(excess, 0.0, hi, xtol=xtol))
