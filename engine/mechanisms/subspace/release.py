"""The result every subspace mechanism returns, and the checks of its input."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.mechanisms.protocol import Release
from engine.validation import check_int


@dataclass(frozen=True, kw_only=True)
class SubspaceRelease(Release):
    """Private subspaces, or ⊥, from ``size`` independent releases on one data set (a ``Release``).

    Attributes
    ----------
    points : ndarray of shape (*size, d, k)
        Orthonormal bases (points of ``Grassmann(d, k)``); all NaN where the release is ⊥.
    bottom : ndarray of bool, shape (*size,)
        Whether each release is ⊥ ("the data do not fit the assumptions").
    diagnostics : dict
        Public, mechanism-specific numbers (scores, thresholds, cell width, ...). Those computed
        from the data are *not* private; they are for teaching and testing.
    """

    bottom: np.ndarray

    @property
    def bottom_rate(self) -> float:
        """Share of the releases that are ⊥."""
        return float(np.mean(self.bottom)) if self.bottom.size else 0.0


def batch_shape(size) -> tuple[int, ...]:
    """``size`` as a shape: None -> (), int -> (size,), tuple kept."""
    if size is None:
        return ()
    if isinstance(size, (tuple, list)):
        return tuple(check_int("size", s) for s in size)
    return (check_int("size", size),)


def check_data(data, k: int) -> np.ndarray:
    """Data as an (n, d) float array with d > k; ``ValueError`` naming NaN/inf rows or a bad k."""
    x = np.asarray(data, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"data must have shape (n, d), got shape {x.shape}")
    bad = ~np.isfinite(x).all(axis=1)
    if bad.any():
        rows = np.flatnonzero(bad)
        shown = ", ".join(str(int(r)) for r in rows[:5]) + (", ..." if rows.size > 5 else "")
        raise ValueError(f"data contains non-finite values (NaN or inf) in {rows.size} row(s): {shown}")
    if k >= x.shape[1]:
        raise ValueError(f"k must be < d = {x.shape[1]} (a proper subspace), got k = {k}")
    return x


def bottom_bases(shape: tuple[int, ...], d: int, k: int) -> np.ndarray:
    """An all-NaN array of bases of shape ``(*shape, d, k)`` (the ⊥ representation)."""
    return np.full(shape + (d, k), np.nan)
