"""How a selected subspace leaves a mechanism: a basis that depends on the subspace and public values only.

A subspace U can be written down by many bases, and a basis built from the data names the data: the
greedy search of Algorithm 1 makes ±x_c/‖x_c‖ of a record c its first column, so releasing that
basis releases the record whatever the privacy of the *choice* of U (Singhal & Steinke 2021 prove
the choice private, not a representation of it). The release here is instead

    Y = Π_U G,    G ~ N(0, I_{d×2k})                       (public, fresh per release)
    Ỹ = s + g (⌊(Y − s)/g⌋ + ½),    s ~ U[0, g)^{d×2k}     (public offset; the centre of Y's cell)
    B = top-k left singular vectors of Ỹ                    (a function of Ỹ alone)

on the public grid g = ``BASIS_GRID``. Π_U G depends on U only (not on the basis it was computed
from), and the grid absorbs the difference η = ‖Π − Π′‖₂ between the projectors with which two
neighbouring data sets compute U: their releases (same G and offset) differ only if some entry of Y
lies between Y_ij and Y′_ij modulo g, which for a uniform offset has probability |Y_ij − Y′_ij|/g.
With (Π − Π′)G Gaussian given the data, E|(ΔΠ G)_ij| = √(2/π)‖row_i ΔΠ‖, and Σ_i ‖row_i ΔΠ‖ <=
√d ‖ΔΠ‖_F <= √(2kd) η (ΔΠ has rank <= 2k), so by the union bound

    P(releases differ) <= 2k √(4kd/π) · η / g       (``delta_term``; <= 2dk·η/g for d >= 4k/π).

Y is formed in exact integer arithmetic on the doubles' exact values (``_exact_cells``), so
rounding in the product adds nothing to η and the cell of Y is a function of V̂V̂ᵀ, G and the
offset alone. ``fitted_subspace`` bounds η by quantities each data set can compute. Rounding moves Y
by at most g√(2dk)/2 in Frobenius norm, so span(B) is within about g√(2dk)/(2σ_k(Y)) of U; the 2k
columns keep σ_k(Y) away from 0 (about √(2k) − √k for Gaussian G).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

#: Public grid of the released coordinates (2^-16 ≈ 1.5e-5).
BASIS_GRID = 2.0**-16


def delta_term(eta: float, d: int, k: int, grid: float = BASIS_GRID) -> float:
    """2k √(4kd/π) · η / g: bound on the probability that two data sets whose projectors differ by η
    in spectral norm release different coordinates under the same public G and offset (module notes)."""
    return 2.0 * k * math.sqrt(4.0 * k * d / math.pi) * eta / grid


def public_basis(basis: np.ndarray, count: int, rng: np.random.Generator, grid: float = BASIS_GRID) -> np.ndarray:
    """``count`` releases of span(``basis``) in the public representation of the module notes.

    Parameters
    ----------
    basis : ndarray (d, k)
        Orthonormal basis V of the selected subspace (any one: the result depends on VVᵀ only).
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
    scaled = _scaled_integers(basis)
    cells = np.array([_exact_cells(scaled, g, s, grid) for g, s in zip(gauss, offset)]).reshape(gauss.shape)
    centre = offset + grid * (cells + 0.5)
    return np.linalg.svd(centre, full_matrices=False)[0][..., :k]


def _exact_cells(scaled_basis, gauss: np.ndarray, offset: np.ndarray, grid: float) -> np.ndarray:
    """⌊(V(VᵀG) − s)/g⌋ computed exactly, V given as ``_scaled_integers(V)``: every double is an integer
    times a power of two, so the product and the floor are taken on Python integers."""
    v, v_shift = scaled_basis
    g, g_shift = _scaled_integers(gauss)
    s, s_shift = _scaled_integers(offset)
    product, shift = v @ (v.T @ g), 2 * v_shift + g_shift                 # V(VᵀG) = product / 2^shift
    common = max(shift, s_shift)
    numerator = product * (1 << (common - shift)) - s * (1 << (common - s_shift))
    step = Fraction(grid)
    denominator = step.numerator << common
    return ((numerator * step.denominator) // denominator).astype(float)


def _scaled_integers(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Integers N (object array) and a shift e with values = N / 2^e exactly (float or longdouble)."""
    ratios = [x.as_integer_ratio() for x in values.ravel()]
    shift = max(q.bit_length() - 1 for _, q in ratios)
    scaled = [p << (shift - q.bit_length() + 1) for p, q in ratios]
    return np.array(scaled, dtype=object).reshape(values.shape), shift
