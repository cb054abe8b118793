"""Convergence diagnostics of Markov chain samplers: single-chain ESS (Geyer 1992) and multi-chain R̂/ESS.

Geyer, C. J. (1992), *Practical Markov chain Monte Carlo*, Statistical Science 7(4), 473–483, §3.3:
the initial positive and initial monotone sequence estimators of the integrated autocorrelation
time of a stationary, reversible chain. ``chain_diagnostics`` delegates the multi-chain diagnostics
(rank-normalised split-R̂, bulk and tail ESS) to ``arviz-stats``. ``effective_sample_size`` stays a
vectorised numpy function: it is called on up to 10,000 single-chain traces at once, where the
per-series loop of arviz-stats' array interface (about 4 ms per series here) would dominate.
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


def _split_rhat(z: np.ndarray) -> np.ndarray:
    """Split-R̂ of draws ``(chains, draws, ...)`` (Gelman et al., BDA3 §11.4): chains halved (the middle
    draw of an odd length dropped), R̂ = √(((N − 1)/N · W + B/N)/W)."""
    n = z.shape[1] // 2
    halves = np.concatenate([z[:, :n], z[:, z.shape[1] - n:]], axis=0)
    within = halves.var(axis=1, ddof=1).mean(axis=0)
    between = halves.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(((n - 1) / n * within + between) / within)


def _rank_normal(x: np.ndarray) -> np.ndarray:
    """Φ⁻¹((r − 3/8)/(S + 1/4)) of the pooled ranks r (ties averaged) of ``(chains, draws, ...)`` draws."""
    from scipy.special import ndtri
    from scipy.stats import rankdata

    pooled = x.reshape((-1,) + x.shape[2:])
    ranks = rankdata(pooled, axis=0, method="average")
    return ndtri((ranks - 0.375) / (pooled.shape[0] + 0.25)).reshape(x.shape)


def rank_rhat(traces) -> np.ndarray:
    """Rank-normalised split-R̂ (Vehtari et al. 2021), vectorised over any number of series.

    The larger of the split-R̂ of the rank-normalised draws (bulk) and of the rank-normalised
    |x − median| (folded, sensitive to a difference in scale); the same statistic as
    ``arviz-stats``' ``rhat`` (``chain_diagnostics``), without its per-series loop, for the hundreds
    of coordinates of a high-dimensional chain. Series that are constant get R̂ = 1.

    Parameters
    ----------
    traces : array_like, shape ``(chains, draws, *batch)``, draws >= 4

    Returns
    -------
    ndarray, shape ``(*batch,)``
    """
    x = np.asarray(traces, dtype=float)
    if x.ndim < 2 or x.shape[1] < 4:
        raise ValueError(f"traces must have shape (chains, draws >= 4, ...), got shape {x.shape}")
    folded = np.abs(x - np.median(x.reshape((-1,) + x.shape[2:]), axis=0))
    rhat = np.maximum(_split_rhat(_rank_normal(x)), _split_rhat(_rank_normal(folded)))
    constant = np.ptp(x.reshape((-1,) + x.shape[2:]), axis=0) == 0
    return np.where(constant, 1.0, rhat)


def chain_diagnostics(traces) -> dict[str, np.ndarray]:
    """Rank-normalised split-R̂ and bulk/tail ESS of several chains per target, by ``arviz-stats``.

    Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), *Rank-normalization, folding, and
    localization: an improved R̂ for assessing convergence of MCMC*, Bayesian Analysis 16(2):
    R̂ is the larger of the split-R̂ of the rank-normalised draws and of their folded version; the bulk
    ESS is that of the rank-normalised draws, the tail ESS the smaller of the ESS of the 5 % and 95 %
    quantile indicators. A target whose traces are all one constant gets R̂ = 1 and ESS = 1 (nothing
    to estimate, and nothing moved).

    Parameters
    ----------
    traces : array_like, shape ``(chains, draws, *batch)``
        One scalar summary (e.g. the log density) per state, chains first.

    Returns
    -------
    dict with ``rhat``, ``ess_bulk``, ``ess_tail``, each of shape ``(*batch,)``
    """
    from arviz_stats.base import array_stats

    x = np.asarray(traces, dtype=float)
    arr = np.moveaxis(x, (0, 1), (-2, -1))
    constant = np.ptp(arr.reshape(arr.shape[:-2] + (-1,)), axis=-1) == 0
    # arviz divides 0 by 0 for constant traces (replaced below); keep that out of the warnings.
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {
            "rhat": array_stats.rhat(arr, chain_axis=-2, draw_axis=-1),
            "ess_bulk": array_stats.ess(arr, chain_axis=-2, draw_axis=-1, method="bulk"),
            "ess_tail": array_stats.ess(arr, chain_axis=-2, draw_axis=-1, method="tail", prob=(0.05, 0.95)),
        }
    return {key: np.where(constant, 1.0, np.asarray(value, dtype=float)) for key, value in out.items()}
