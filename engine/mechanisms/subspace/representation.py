"""How a selected subspace leaves a mechanism: a basis that depends on the subspace and public values only.

A subspace U can be written down by many bases, and a basis built from the data names the data: the
greedy search of Algorithm 1 makes ±x_c/‖x_c‖ of a record c its first column, so releasing that
basis releases the record whatever the privacy of the *choice* of U (Singhal & Steinke 2021 prove
the choice private, not a representation of it). The release here is instead

    Y = Π_U G,    G ~ N(0, I_{d×2k})                       (public, fresh per release)
    Ỹ = s + g (⌊(Y − s)/g⌋ + ½),    s ~ U[0, g)^{d×2k}     (public offset; the centre of Y's cell)
    B = top-k left singular vectors of Ỹ                    (a function of Ỹ alone)

on the public grid g = ``BASIS_GRID``. Π_U G depends on U only (not on the basis it was computed
from), and the grid absorbs the floating-point error with which a data set computes U: two data
sets that select the same U release identical bytes unless some entry of Y lies within their
difference η of a cell boundary. With the offset uniform, that happens with probability at most
Σ_ij |Y_ij − Y'_ij| / g <= 2dk·η/g whatever U is, a term the guarantee states as an assumption
(README, "Limits of the guarantees"; ``docs/subspaces.md`` measures η). Rounding moves Y by at most
g√(2dk)/2 in Frobenius norm, so span(B) is within about g√(2dk)/(2σ_k(Y)) of U; the 2k columns
keep σ_k(Y) away from 0 (about √(2k) − √k for Gaussian G).

``best_fit_basis`` computes U from *all* the points the search placed in it (one subspace-iteration
step from the search's basis), so that η reflects the points' distance from U rather than the
conditioning of the two or three records the search happened to start from.
"""

from __future__ import annotations

import numpy as np

#: Public grid of the released coordinates (2^-16 ≈ 1.5e-5).
BASIS_GRID = 2.0**-16


def best_fit_basis(members: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Orthonormal basis (d, k) of span(MᵀM B) for the member points M (m, d) and a basis B (d, k) of
    their subspace: the span of the members when they lie in a k-subspace (up to (σ_{k+1}/σ_k)² of
    M's singular values otherwise)."""
    return np.linalg.qr(members.T @ (members @ basis))[0]


def public_basis(basis: np.ndarray, count: int, rng: np.random.Generator, grid: float = BASIS_GRID) -> np.ndarray:
    """``count`` releases of span(``basis``) in the public representation of the module notes.

    Parameters
    ----------
    basis : ndarray (d, k)
        Orthonormal basis of the selected subspace (any one: the result depends on its span).
    count : int
        Number of releases, each with its own public G and offset.
    rng : numpy.random.Generator
        Source of the public G and offsets.
    grid : float
        Cell width g.

    Returns
    -------
    ndarray (count, d, k), orthonormal columns.
    """
    d, k = basis.shape
    gauss = rng.standard_normal((count, d, 2 * k))
    offset = rng.random((count, d, 2 * k)) * grid
    projected = basis @ (basis.T @ gauss)
    centre = offset + grid * (np.floor((projected - offset) / grid) + 0.5)
    return np.linalg.svd(centre, full_matrices=False)[0][..., :k]
