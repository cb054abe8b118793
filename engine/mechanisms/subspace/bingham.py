"""Exponential mechanism for the top-k subspace: k Bingham draws, one eigenvector at a time.

Iterative eigenvector sampling (Amin, Dick, Kulesza, Munoz Medina & Vassilvitskii 2018; the
one-vector case is Chaudhuri, Sarwate & Sinha 2012 and Kapralov & Talwar 2013): with rows clipped to
norm C and A = Σ x_i x_iᵀ, the utility u(v) = vᵀAv changes by at most C² when one row is replaced,
so drawing v on the unit sphere of the orthogonal complement of the vectors already chosen with
density ∝ exp(ε_i vᵀAv/(2C²)), ε_i = ε/k, is ε_i-DP, and k rounds compose to ε-DP (δ = 0).

Each draw is exact: the Bingham law ∝ exp(−xᵀBx) on S^{p−1} (B = −ε_i A/(2C²), shifted so its
smallest eigenvalue is 0) is sampled by rejection from the angular central Gaussian ACG(Ω),
Ω = I + 2B/β₀, with β₀ solving Σ_j 1/(β₀ + 2λ_j) = 1 and acceptance probability
exp(−xᵀBx)(xᵀΩx)^{p/2} e^{(p−β₀)/2} (β₀/p)^{p/2} (Kent, Ganeiber & Mardia 2018).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.subspace.clipping import clip_rows
from engine.mechanisms.subspace.release import SubspaceRelease, batch_shape, check_data
from engine.validation import check_int, check_positive


def bingham_samples(eigenvalues, size: int, rng, *, max_tries: int = 100_000) -> np.ndarray:
    """``size`` independent exact draws from ∝ exp(−Σ_j λ_j x_j²) on the unit sphere, in the eigenbasis,
    shape ``(size, p)``.

    ``eigenvalues`` λ_j >= 0 (shifted so the smallest is 0). Rejection from ACG (module notes), all draws at
    once: each round proposes one point per draw still pending and keeps those accepted, so every draw is an
    accepted proposal of its own, as in a loop of single draws, at a numpy call per round instead of several
    per proposal (the 100,000 releases of the Bingham audit: one round of set-up instead of 100,000).
    """
    lam = np.asarray(eigenvalues, dtype=float)
    lam = lam - lam.min()
    p = lam.size
    size = check_int("size", size, minimum=0)
    if p == 1:
        return np.where(rng.random((size, 1)) < 0.5, -1.0, 1.0)
    root = brentq(lambda b: np.sum(1.0 / (b + 2.0 * lam)) - 1.0, 1e-12, float(p))
    omega = 1.0 + 2.0 * lam / root
    log_bound = -(p - root) / 2.0 + (p / 2.0) * np.log(p / root)
    draws = np.empty((size, p))
    pending = np.arange(size)
    for _ in range(max_tries):
        y = rng.standard_normal((pending.size, p)) / np.sqrt(omega)
        x = y / np.linalg.norm(y, axis=1, keepdims=True)
        squares = x * x
        log_ratio = -(squares @ lam) + (p / 2.0) * np.log(squares @ omega) - log_bound
        accepted = np.log(rng.random(pending.size)) < log_ratio
        draws[pending[accepted]] = x[accepted]
        pending = pending[~accepted]
        if pending.size == 0:
            return draws
    raise RuntimeError(f"Bingham rejection sampler accepted nothing in {max_tries} tries")


def bingham_sample(eigenvalues, rng, *, max_tries: int = 100_000) -> np.ndarray:
    """One exact draw of ``bingham_samples``, shape ``(p,)``."""
    return bingham_samples(eigenvalues, 1, rng, max_tries=max_tries)[0]


def _signed_eigh(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.linalg.eigh`` with each eigenvector's largest entry (in absolute value) made positive: LAPACK's
    signs follow the matrix's last bits, so two data sets with the same A up to rounding (the records
    reordered) would draw through eigenbases of opposite signs. The law of the draw is the same either way
    (the Bingham law is symmetric in each coordinate's sign); the fixed signs make the release a continuous
    function of A for a given seed."""
    values, vectors = np.linalg.eigh(matrix)
    peak = np.take_along_axis(vectors, np.abs(vectors).argmax(axis=0)[None, :], axis=0)
    return values, vectors * np.where(peak < 0, -1.0, 1.0)


class BinghamSubspace:
    """ε-DP top-k subspace by the exponential mechanism (k exact Bingham draws).

    Parameters (keyword-only)
    -------------------------
    k : int
    epsilon : float
        > 0, split evenly over the k draws.
    clip_norm : float
        C > 0: rows are scaled into the ball of radius C.
    """

    def __init__(self, *, k, epsilon, clip_norm=1.0):
        self.k = check_int("k", k)
        self.epsilon = check_positive("epsilon", epsilon)
        self.clip_norm = check_positive("clip_norm", clip_norm)

    def release(self, data, *, size=None, rng=None) -> SubspaceRelease:
        """``size`` independent releases; never ⊥."""
        x = clip_rows(check_data(data, self.k), self.clip_norm)
        d = x.shape[1]
        rng = np.random.default_rng(rng)
        shape = batch_shape(size)
        gram = x.T @ x
        scale = (self.epsilon / self.k) / (2.0 * self.clip_norm**2)
        bases = np.empty(shape + (d, self.k))
        # The first draw's law is the same for every release: all of them at once.
        values, vectors = _signed_eigh(gram)
        first = bingham_samples(-scale * values, int(np.prod(shape, dtype=int)), rng) @ vectors.T
        bases[..., 0] = first.reshape(shape + (d,))
        # The later draws live in the complement of the earlier ones: one release at a time.
        later = np.ndindex(shape) if self.k > 1 else ()
        for flat, index in enumerate(later):
            complement = np.linalg.qr(first[flat][:, None], mode="complete")[0][:, 1:]
            for i in range(1, self.k):
                values, vectors = _signed_eigh(complement.T @ gram @ complement)
                w = vectors @ bingham_sample(-scale * values, rng)
                bases[index + (slice(None), i)] = complement @ w
                complement = complement @ np.linalg.qr(w[:, None], mode="complete")[0][:, 1:]
        guarantee = self.privacy_guarantee()
        return SubspaceRelease(points=bases, sigma=guarantee.sigma, guarantee=guarantee,
                               bottom=np.zeros(shape, dtype=bool), diagnostics={"epsilon_per_draw": self.epsilon / self.k})

    def privacy_guarantee(self) -> PrivacyGuarantee:
        return PrivacyGuarantee(
            mechanism=f"Exponential mechanism (Bingham), top-{self.k} subspace",
            epsilon=self.epsilon, delta=0.0, sigma=2.0 * self.clip_norm**2 * self.k / self.epsilon,
            rule="vᵢ drawn with density ∝ exp(εᵢ vᵀAv/(2C²)) on the unit sphere orthogonal to v₁, …, vᵢ₋₁, εᵢ = ε/k",
            reason="vᵀAv has sensitivity C² under replacement of a row of norm at most C; exponential mechanism "
                   "(McSherry & Talwar 2007), k rounds by basic composition",
            assumptions=("neighbouring data sets differ by replacing one point",
                         f"rows are clipped to norm C = {self.clip_norm:g} before use"),
        )
