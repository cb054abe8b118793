"""Exact Riemannian Gaussian sampler on SPD(k) with the affine-invariant metric.

Said, Bombrun, Berthoumieu & Manton (2017, "Riemannian Gaussian distributions on the space of symmetric
positive definite matrices"): in the polar form Y = η^{1/2} U diag(e^r) Uᵀ η^{1/2} (U Haar on O(k)), the law
N(η, σ²) ∝ exp(−ρ(Y, η)²/(2σ²)) has ρ(η, Y) = ‖r‖ = ‖log(η^{-1/2} Y η^{-1/2})‖_F and, for this metric
tr(X⁻¹UX⁻¹V), volume ∝ ∏_{i<j} sinh(|r_i − r_j|/2) dr dU (det(X)^{−(k+1)/2} dX with X = U e^{diag r} Uᵀ:
∏|e^{r_i} − e^{r_j}| ∏ e^{r_i} e^{−(k+1)Σr/2} = 2^N ∏ sinh(|r_i − r_j|/2), N = k(k − 1)/2). So

    p(r) ∝ exp(−‖r‖²/(2σ²)) ∏_{i<j} sinh(|r_i − r_j|/2),

normalisable for every σ. Two exact rejection envelopes; the sampler takes the one of least mass M (its
acceptance is Z/M, ``envelope_log_masses``):

* **Orderings** (large σ). sinh y <= e^y/2 and Σ_{i<j} |r_i − r_j| = max_π c_π·r over the k! orderings π,
  c_π = w permuted, w_i = k + 1 − 2i; so p <= 2^{−N} Σ_π exp(−‖r‖²/(2σ²) + c_π·r/2), a mixture of
  N(σ²c_π/2, σ²I) with mass 2^{−N} k! e^{σ²‖w‖²/8} (2πσ²)^{k/2}. Accept with
  2^N ∏ sinh(|Δ_ij|/2) / Σ_π exp(c_π·r/2); it tends to 1 as σ grows and to 0 like σ^N as σ shrinks.
* **GOE** (small σ, σ² < 12/k). sinh y / y <= e^{y²/6} (the product formula of sinh) and
  Σ_{i<j}(r_i − r_j)² = k‖r⊥‖² (r⊥ the part orthogonal to (1, ..., 1)) give
  p <= 2^{−N} |V(r)| exp(−γ‖r⊥‖² − (Σr)²/(2kσ²)), γ = 1/(2σ²) − k/24: the eigenvalues of a GOE matrix
  (density ∝ exp(−tr H²/(4v)), v = 1/(4γ)) re-centred, plus an independent N(0, σ²) along (1, ..., 1).
  Its mass is Mehta's integral; accept with ∏ sinh(y)/y · e^{−y²/6}, y = |r_i − r_j|/2, which tends to 1
  as σ shrinks.

"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.special import gammaln, logsumexp

from engine.manifolds._linalg import eigvalsh, sqrtm, sym
from engine.mechanisms.rejection import rejection_sample
from engine.mechanisms.spd_laplace import haar_orthogonal
from engine.validation import check_int, check_positive

#: Radius ρ = ‖r‖ beyond which SPD(k) releases lose positive definiteness in float64 (``engine.spaces.spd``).
REPRESENTABLE_RADIUS = 20.0
#: Largest matrix size: the orderings envelope sums over the k! orderings.
MAX_K = 6

def _weights(k: int) -> np.ndarray:
    """w_i = k + 1 − 2i, i = 1..k: Σ_{i<j} |r_i − r_j| = w·sort(r, decreasing)."""
    return k + 1 - 2 * np.arange(1, k + 1, dtype=float)


def envelope_log_masses(k: int, sigma: float) -> dict[str, float]:
    """log M of each envelope of p(r) (module docstring); ``inf`` for the GOE one when σ² >= 12/k."""
    n_pairs = k * (k - 1) / 2
    w = _weights(k)
    orderings = (-n_pairs * np.log(2.0) + gammaln(k + 1.0) + sigma ** 2 * float(w @ w) / 8
                 + k / 2 * np.log(2 * np.pi * sigma ** 2))
    gamma = 1.0 / (2 * sigma ** 2) - k / 24.0
    if gamma <= 0:
        return {"orderings": float(orderings), "goe": np.inf}
    j = np.arange(1, k + 1)
    # ∫_{R^k} |V(x)| e^{−γ‖x‖²} dx = (2γ)^{−(N + k)/2} (2π)^{k/2} ∏ Γ(1 + j/2)/Γ(3/2); the mean direction's
    # factor √(π/γ) is swapped for the target's √(2π) σ.
    log_full = (-(n_pairs + k) / 2 * np.log(2 * gamma) + k / 2 * np.log(2 * np.pi)
                + float(np.sum(gammaln(1 + j / 2) - gammaln(1.5))))
    goe = (-n_pairs * np.log(2.0) + log_full - 0.5 * np.log(np.pi / gamma)
           + 0.5 * np.log(2 * np.pi * sigma ** 2))
    return {"orderings": float(orderings), "goe": float(goe)}


def _log_acceptance_pairs(r: np.ndarray, rows, cols):
    """|Δ_ij| = |r_i − r_j| over the pairs i < j, shape ``(m, N)``."""
    return np.abs(r[:, rows] - r[:, cols])


def sample_gaussian_eigenlog(k: int, sigma, size, rng=None) -> np.ndarray:
    """Exact draws of the eigen-logarithm r with density ∝ exp(−‖r‖²/(2σ²)) ∏_{i<j} sinh(|r_i − r_j|/2).

    Parameters
    ----------
    k : int in [2, ``MAX_K``]
    sigma : float > 0
    size : int or tuple of int, leading shape of the result
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ndarray, shape ``(*size, k)``, exchangeable coordinates (module docstring).
    """
    k = check_int("k", k, minimum=2)
    if k > MAX_K:
        raise ValueError(f"the exact Riemannian Gaussian sampler on SPD(k) needs k <= {MAX_K} (its envelope sums "
                         f"over the k! eigenvalue orderings), got k={k}; use k <= {MAX_K}")
    sigma = check_positive("sigma", sigma)
    rng = np.random.default_rng(rng)
    shape = (size,) if np.isscalar(size) else tuple(size)
    masses = envelope_log_masses(k, sigma)
    rows, cols = np.triu_indices(k, 1)
    if masses["goe"] < masses["orderings"]:
        gamma = 1.0 / (2 * sigma ** 2) - k / 24.0
        v = 1.0 / (4 * gamma)
        idx = np.arange(k)

        def propose(m, g):
            h = np.zeros((m, k, k))
            h[:, idx, idx] = np.sqrt(2 * v) * g.standard_normal((m, k))
            upper = np.sqrt(v) * g.standard_normal((m, len(rows)))
            h[:, rows, cols] = upper
            h[:, cols, rows] = upper
            lam = eigvalsh(h)
            r = lam - lam.mean(axis=-1, keepdims=True) + sigma * g.standard_normal((m, 1)) / np.sqrt(k)
            y = _log_acceptance_pairs(r, rows, cols) / 2
            with np.errstate(divide="ignore", invalid="ignore"):
                log_acc = np.sum(y + np.log(-np.expm1(-2 * y)) - np.log(2 * y) - y ** 2 / 6, axis=-1)
            return g.permuted(r, axis=-1), np.nan_to_num(log_acc, nan=-np.inf)
    else:
        w = _weights(k)
        orders = np.array(list(itertools.permutations(range(k))))
        coefficients = w[orders]  # (k!, k): c_π, each a permutation of w

        def propose(m, g):
            c = coefficients[g.integers(len(coefficients), size=m)]
            r = sigma ** 2 * c / 2 + sigma * g.standard_normal((m, k))
            gaps = _log_acceptance_pairs(r, rows, cols)
            with np.errstate(divide="ignore"):
                log_num = np.sum(gaps / 2 + np.log(-np.expm1(-gaps)), axis=-1)
            log_acc = log_num - logsumexp(r @ coefficients.T / 2, axis=-1)
            return r, np.nan_to_num(log_acc, nan=-np.inf)

    return rejection_sample(propose, shape, rng)


def representable_reach(k: int, sigma: float) -> float:
    """σ²‖w‖/2 + 5σ√k: the radius of the orderings envelope's centres plus five of its standard deviations, which
    the releases at σ stay below but for a negligible fraction (the orderings envelope dominates the law)."""
    w = _weights(k)
    return float(sigma ** 2 * np.linalg.norm(w) / 2 + 5 * sigma * np.sqrt(k))


def spd_gaussian_points(footpoint, sigma, rng=None) -> np.ndarray:
    """One exact Riemannian Gaussian draw per footpoint ``(..., k, k)`` on SPD(k), affine-invariant:
    η^{1/2} U diag(e^r) Uᵀ η^{1/2} with U Haar and r from ``sample_gaussian_eigenlog``."""
    rng = np.random.default_rng(rng)
    footpoint = np.asarray(footpoint, dtype=float)
    batch, k = footpoint.shape[:-2], footpoint.shape[-1]
    reach = representable_reach(k, sigma)
    if reach > REPRESENTABLE_RADIUS:
        raise ValueError(f"the Riemannian Gaussian on SPD({k}) at sigma={sigma:g} puts releases near radius "
                         f"{reach:.3g} > {REPRESENTABLE_RADIUS:g}, where matrices lose positive definiteness in "
                         f"float64; use a smaller sigma (a larger epsilon or n)")
    r = sample_gaussian_eigenlog(k, sigma, batch, rng)
    u = haar_orthogonal(k, batch, rng)
    core = (u * np.exp(r)[..., None, :]) @ np.swapaxes(u, -1, -2)
    root = sqrtm(footpoint)
    return sym(root @ core @ root)
