"""Convergence diagnostics of Markov chain samplers: the effective sample size (Geyer 1992).

Geyer, C. J. (1992), *Practical Markov chain Monte Carlo*, Statistical Science 7(4), 473–483, §3.3:
the initial positive and initial monotone sequence estimators of the integrated autocorrelation
time of a stationary, reversible chain.
"""

from __future__ import annotations

import numpy as np


def effective_sample_size(trace, axis: int = 0) -> np.ndarray:
    """Effective sample size of stationary series along ``axis`` (Geyer 1992).

    With autocorrelations ρ_t (FFT estimate), the pair sums Γ_j = ρ_{2j} + ρ_{2j+1} are kept while
    positive (initial positive sequence), made non-increasing (initial monotone sequence), and
    τ = −1 + 2 Σ_j Γ_j; ESS = n/τ, capped at n. Constant series give ESS = 1.

    Parameters
    ----------
    trace : array_like
        Series of length n along ``axis``; all other axes are independent series.
    axis : int
        The time axis.

    Returns
    -------
    ndarray
        ``trace.shape`` without ``axis``.
    """
    x = np.moveaxis(np.asarray(trace, dtype=float), axis, 0)
    n = x.shape[0]
    if n < 2:
        return np.ones(x.shape[1:])
    x = x - x.mean(axis=0)
    spectrum = np.fft.rfft(x, n=2 * n, axis=0)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=2 * n, axis=0)[:n] / n
    var = acov[0]
    rho = acov / np.where(var > 0, var, 1.0)
    half = n // 2
    pairs = rho[0 : 2 * half : 2] + rho[1 : 2 * half : 2]
    positive = np.cumprod(pairs > 0, axis=0).astype(bool)
    monotone = np.minimum.accumulate(np.where(positive, pairs, 0.0), axis=0)
    tau = -1.0 + 2.0 * monotone.sum(axis=0)
    return np.where(var > 0, n / np.maximum(tau, 1.0), 1.0)
