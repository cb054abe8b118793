"""The stable (thresholded) histogram: private counts over an unbounded set of cells.

Bun, Nissim & Stemmer (2016); Vadhan (2017, §3); Lemma 2.15 of Singhal & Steinke (2021). Only
cells holding at least one item get a noisy count c + Lap(2/ε), and a cell is published only when
its noisy count exceeds

    T = 1 + (2/ε) ln(1/(2δ)).

Replacing one item moves one unit between two cells (ℓ1 sensitivity 2, hence Lap(2/ε) for ε-DP on
the cells both data sets share); a cell that exists on one side only has count 1 there and is
published with probability ½ exp(−(T − 1)ε/2) = δ. The whole published histogram is (ε, δ)-DP and
anything computed from it (here: the cell with the largest published count) is post-processing.
"""

from __future__ import annotations

import numpy as np

from engine.validation import check_positive, check_probability


def histogram_threshold(epsilon, delta) -> float:
    """T = 1 + (2/ε) ln(1/(2δ))."""
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    return 1.0 + 2.0 / epsilon * np.log(1.0 / (2.0 * delta))


def stable_histogram_argmax(labels, *, epsilon, delta, rng=None):
    """The cell with the largest published noisy count, or ``None`` (⊥) if none is published.

    Parameters
    ----------
    labels : array_like of int, shape (m,)
        Cell label of each item (items with the same label share a cell).
    epsilon, delta : float
    rng : numpy.random.Generator, int or None

    Returns
    -------
    (label or None, noisy counts of the occupied cells, their labels)
    """
    rng = np.random.default_rng(rng)
    cells, counts = np.unique(np.asarray(labels), return_counts=True)
    noisy = counts + rng.laplace(0.0, 2.0 / check_positive("epsilon", epsilon), size=counts.shape)
    published = noisy > histogram_threshold(epsilon, delta)
    if not published.any():
        return None, noisy, cells
    best = np.flatnonzero(published)[np.argmax(noisy[published])]
    return cells[best], noisy, cells
