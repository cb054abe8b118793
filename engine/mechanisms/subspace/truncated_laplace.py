"""Truncated Laplace noise: the (ε, δ)-DP additive mechanism with bounded noise.

Geng, Ding, Guo & Kumar (2020, "Tight analysis of privacy and utility tradeoff in approximate
differential privacy", AISTATS; Lemma 2.14 of Singhal & Steinke 2021): for a real statistic of
sensitivity Δ, adding Z with density

    f(z) = exp(−|z|/b) / (2b (1 − e^{−A/b}))   on [−A, A],   b = Δ/ε,
    A = (Δ/ε) · ln(1 + (e^ε − 1)/(2δ)),

is (ε, δ)-DP. The bound |Z| <= A is what makes the stable selection of ``stable_selection``
output the best candidate *with probability one* when its margin exceeds 2A.
"""

from __future__ import annotations

import numpy as np

from engine.validation import check_positive, check_probability


def truncated_laplace_bound(epsilon, delta, sensitivity) -> float:
    """A = (Δ/ε) ln(1 + (e^ε − 1)/(2δ)), the support half-width of the noise."""
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    sensitivity = check_positive("sensitivity", sensitivity)
    return float(sensitivity / epsilon * np.log1p(np.expm1(epsilon) / (2.0 * delta)))


def truncated_laplace(epsilon, delta, sensitivity, *, size=None, rng=None) -> np.ndarray:
    """Exact draws of the truncated Laplace noise, shape ``size`` (a float array, never a scalar).

    Inverse-CDF sampling of |Z| from the exponential law with scale b truncated to [0, A]:
    |Z| = −b ln(1 − U (1 − e^{−A/b})), and an independent fair sign.
    """
    rng = np.random.default_rng(rng)
    scale = check_positive("sensitivity", sensitivity) / check_positive("epsilon", epsilon)
    bound = truncated_laplace_bound(epsilon, delta, sensitivity)
    shape = () if size is None else size
    u = rng.random(shape)
    magnitude = -scale * np.log1p(-u * -np.expm1(-bound / scale))
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return np.asarray(np.minimum(magnitude, bound) * sign, dtype=float)


def truncated_laplace_cdf(z, epsilon, delta, sensitivity) -> np.ndarray:
    """P(Z <= z) for the truncated Laplace noise of ``truncated_laplace`` (broadcasts over ``z``).

    With b = Δ/ε, A the bound and c = 1 − e^{−A/b}: 0 below −A, (e^{z/b} − e^{−A/b})/(2c) on
    [−A, 0), 1 − (e^{−z/b} − e^{−A/b})/(2c) on [0, A], 1 above.
    """
    scale = check_positive("sensitivity", sensitivity) / check_positive("epsilon", epsilon)
    bound = truncated_laplace_bound(epsilon, delta, sensitivity)
    z = np.clip(np.asarray(z, dtype=float), -bound, bound)
    tail = (np.exp(-np.abs(z) / scale) - np.exp(-bound / scale)) / (-2.0 * np.expm1(-bound / scale))
    return np.where(z < 0, tail, 1.0 - tail)
