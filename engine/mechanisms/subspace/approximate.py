"""Algorithm 2 of Singhal & Steinke (2021): subsample-and-aggregate over randomly shifted cells.

Setting (Problem 4.1). x_i ~ N(0, Σ) with eigenvalues λ_1 >= ... >= λ_d and a multiplicative gap
λ_{k+1} <= γ² λ_k; the target is the projector Π onto the top-k eigenvectors. γ is a public bound.

Algorithm (Nissim, Raskhodnikova & Smith 2007 for subsample-and-aggregate):

1. Split the n points (in a random order drawn independently of the data) into m disjoint blocks
   of b = ⌊n/m⌋ points; Π_j = top-k PCA (right singular vectors) of block j.
2. Draw q public reference points p_1..p_q ~ N(0, I_d) (here q = 2k) and stack the projections
   y_j = (Π_j p_1, ..., Π_j p_q) ∈ R^{qd}.
3. Randomly shifted grid: cell width λ, offset s ~ U[0, λ)^{qd}, cell(y) = ⌊(y − s)/λ⌋. Run the
   stable histogram (``stable_histogram``) over the m cells (one block changes one y_j: two counts
   move by 1) and take the published cell with the largest count, or ⊥.
4. Its centre gives points p̂_i ≈ Π p_i; Π̂ is the projector onto their top-k left singular vectors.

Privacy: (ε, δ)-DP for replace-one neighbours, whatever the data (Lemma 4.4).

Constants. The paper leaves universal constants C; this implementation fixes explicit ones from the
same concentration steps (β split in three):

* t = √(2 ln(6m/β)) (Gaussian norm concentration, union over the m blocks);
* per-block error (Wedin's sin Θ with Vershynin's singular value bounds, Corollary 2.7):
  ψ = γ(√b + √d + t) / ((√b − √k − t) − γ(√b + √d + t)), ψ := 1 if the denominator is <= 0;
* ‖y_j − y‖₂ <= ψ(√(2kq) + t) (Π_j − Π has rank <= 2k and the p_i are independent of the data);
* the grid separates the good blocks with probability <= Σ_coord widths / λ <= 2√(qdm)·ψ(√(2kq)+t)/λ,
  so λ = 2√(qdm)·ψ(√(2kq) + t)/(β/3);
* the histogram publishes the common cell with probability >= 1 − β/3 when
  m >= m_min = ⌈T + (2/ε) ln(3/(2β))⌉ + o, T the stable histogram threshold, o tolerated outliers;
* the per-block bounds need √b > √k + t + 1: b_min = ⌈(√k + t + 1)²⌉, hence n >= m·b_min.

None of these depends on d except ψ (through γ√d) and λ: the sample complexity n_min is
d-free; the gap condition γ ≲ 1/poly(d) (Theorems 4.3 and 4.10) carries the dimension.
"""

from __future__ import annotations

import math

import numpy as np

from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.subspace.release import SubspaceRelease, batch_shape, bottom_bases, check_data
from engine.mechanisms.subspace.stable_histogram import histogram_threshold, stable_histogram_argmax
from engine.validation import check_int, check_positive, check_probability


def _top_right_vectors(blocks: np.ndarray, k: int) -> np.ndarray:
    """Top-k right singular vectors of each block, ``(m, k, d)``, from the smaller Gram matrix.

    d <= b: the top-k eigenvectors of BᵀB (d × d), O(m b d²). d > b: B Bᵀ = U S² Uᵀ gives
    V_k = Bᵀ U_k S_k^{-1}, O(m b² d) instead of a full SVD, re-orthonormalised by QR because small
    singular values lose digits in the division.
    """
    b, d = blocks.shape[-2:]
    if d <= b:
        vectors = np.linalg.eigh(np.swapaxes(blocks, -1, -2) @ blocks)[1]
        return np.swapaxes(vectors[..., ::-1][..., :k], -1, -2)
    gram = blocks @ np.swapaxes(blocks, -1, -2)
    values, vectors = np.linalg.eigh(gram)
    top = vectors[..., ::-1][..., :k]
    right = np.swapaxes(blocks, -1, -2) @ top
    return np.swapaxes(np.linalg.qr(right)[0], -1, -2)


def _cell_labels(cells: np.ndarray) -> np.ndarray:
    """Label of each row of ``cells`` (m × D ints): the index of the first identical row.

    O(m · number of distinct cells · D); when the blocks agree there is one distinct cell.
    """
    labels = np.full(cells.shape[0], -1)
    for i in range(cells.shape[0]):
        if labels[i] < 0:
            same = (cells[i:] == cells[i]).all(axis=1) & (labels[i:] < 0)
            labels[i:][same] = i
    return labels


class SubsampleAggregateSubspace:
    """(ε, δ)-DP top-k subspace by subsample-and-aggregate (Algorithm 2 of Singhal & Steinke 2021).

    Parameters (keyword-only)
    -------------------------
    k : int
        Subspace dimension (< d, checked at release).
    epsilon : float
        > 0.
    delta : float
        In (0, 1).
    gamma : float
        Public bound on √(λ_{k+1}/λ_k) (the noise-to-signal ratio of the data), > 0.
    beta : float
        Target failure probability of the utility bound, in (0, 1).
    outliers : int
        Number of arbitrarily corrupted points to tolerate (each spoils at most one block).
    n_blocks : int, optional
        m; default m_min (the fewest blocks for which the histogram finds the common cell).
    """

    def __init__(self, *, k, epsilon, delta, gamma, beta=0.1, outliers=0, n_blocks=None):
        self.k = check_int("k", k)
        self.epsilon = check_positive("epsilon", epsilon)
        self.delta = check_probability("delta", delta)
        self.gamma = check_positive("gamma", gamma)
        self.beta = check_probability("beta", beta)
        self.outliers = check_int("outliers", outliers, minimum=0)
        self.threshold = histogram_threshold(self.epsilon, self.delta)
        m_min = math.ceil(self.threshold + 2.0 / self.epsilon * math.log(3.0 / (2.0 * self.beta))) + self.outliers
        self.n_blocks = m_min if n_blocks is None else check_int("n_blocks", n_blocks)
        if self.n_blocks < m_min:
            raise ValueError(f"n_blocks must be >= {m_min} so the histogram can find the common cell, got {n_blocks!r}")
        self.n_reference = 2 * self.k
        self.t = math.sqrt(2.0 * math.log(6.0 * self.n_blocks / self.beta))
        self.block_min = math.ceil((math.sqrt(self.k) + self.t + 1.0) ** 2)

    @property
    def min_samples(self) -> int:
        """n_min = m·b_min: the sample size the utility guarantee needs (independent of d)."""
        return self.n_blocks * self.block_min

    def block_error_bound(self, b: int, d: int) -> float:
        """ψ: bound on ‖Π_j − Π‖ for one block of b points in R^d (see module notes)."""
        noise = self.gamma * (math.sqrt(b) + math.sqrt(d) + self.t)
        signal = math.sqrt(b) - math.sqrt(self.k) - self.t
        return 1.0 if signal - noise <= 0 else min(1.0, noise / (signal - noise))

    def cell_width(self, b: int, d: int) -> float:
        """λ = 2√(qdm)·ψ(√(2kq) + t)/(β/3)."""
        q, m = self.n_reference, self.n_blocks
        spread = self.block_error_bound(b, d) * (math.sqrt(2 * self.k * q) + self.t)
        return 2.0 * math.sqrt(q * d * m) * spread / (self.beta / 3.0)

    def release(self, data, *, size=None, rng=None) -> SubspaceRelease:
        """Private top-k subspace(s) of ``data`` (n × d) or ⊥; ``size`` independent releases."""
        x = check_data(data, self.k)
        n, d = x.shape
        if n < self.min_samples:
            raise ValueError(
                f"n = {n} is too small for the guarantee of Algorithm 2: with k = {self.k}, epsilon = {self.epsilon:g}, "
                f"delta = {self.delta:g}, beta = {self.beta:g} it needs m = {self.n_blocks} blocks of at least "
                f"{self.block_min} points, n >= {self.min_samples}")
        rng = np.random.default_rng(rng)
        shape = batch_shape(size)
        m, b, q = self.n_blocks, n // self.n_blocks, self.n_reference
        width = self.cell_width(b, d)
        bases = bottom_bases(shape, d, self.k)
        bottom = np.ones(shape, dtype=bool)
        winners = np.zeros(shape)
        for index in np.ndindex(shape):
            order = rng.permutation(n)[: m * b]
            blocks = x[order].reshape(m, b, d)
            top = _top_right_vectors(blocks, self.k)                                    # (m, k, d)
            reference = rng.standard_normal((d, q))
            stacked = np.swapaxes(top, -1, -2) @ (top @ reference)                     # (m, d, q)
            offset = rng.random((d, q)) * width
            cells = np.floor((stacked - offset) / width).astype(np.int64).reshape(m, -1)
            labels = _cell_labels(cells)
            winner, noisy, labels_kept = stable_histogram_argmax(labels, epsilon=self.epsilon, delta=self.delta,
                                                                 rng=rng)
            if winner is None:
                continue
            cell = cells[winner].reshape(d, q)
            centre = offset + (cell + 0.5) * width
            bases[index] = np.linalg.svd(centre, full_matrices=False)[0][:, : self.k]
            bottom[index] = False
            winners[index] = noisy[np.flatnonzero(labels_kept == winner)[0]]
        diagnostics = {"n_blocks": m, "block_size": b, "cell_width": width,
                       "block_error_bound": self.block_error_bound(b, d), "threshold": self.threshold,
                       "winning_noisy_count": winners}
        guarantee = self.privacy_guarantee()
        return SubspaceRelease(points=bases, sigma=guarantee.sigma, guarantee=guarantee, bottom=bottom,
                               diagnostics=diagnostics)

    def privacy_guarantee(self) -> PrivacyGuarantee:
        return PrivacyGuarantee(
            mechanism=f"Singhal-Steinke subsample-and-aggregate (Algorithm 2), k = {self.k}",
            epsilon=self.epsilon, delta=self.delta, sigma=2.0 / self.epsilon,
            rule=f"stable histogram over the m = {self.n_blocks} block cells: counts + Laplace(2/ε), published "
                 f"above T = 1 + (2/ε) ln(1/(2δ)) = {self.threshold:.4g}",
            reason="one point changes one block, which moves one unit between two cells (ℓ₁ sensitivity 2); the "
                   "partition, the reference points and the grid offset are drawn independently of the data "
                   "(Singhal & Steinke 2021, Lemma 4.4; Bun, Nissim & Stemmer 2016)",
            assumptions=("neighbouring data sets differ by replacing one point (n is public)",
                         "utility, not privacy, needs Gaussian data with √(λ_{k+1}/λ_k) ≤ γ"),
        )
