"""Matrices written in the eigenbasis X = Q Λ Qᵀ of an SPD base point, where every metric of SPD(k)
is diagonal: <U, V>_X = Σ_ij Ũ_ij Ṽ_ij / s_ij² with Ũ = QᵀUQ (``SPD.frame_scale`` gives s_ij)."""

from __future__ import annotations

import numpy as np

from engine.manifolds._linalg import eigh, sym

TINY = np.finfo(float).tiny


def swap(a: np.ndarray) -> np.ndarray:
    """Aᵀ over the last two axes."""
    return np.swapaxes(a, -1, -2)


def to_frame(q: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Qᵀ A Q: ``a`` written in the eigenbasis ``q``."""
    return swap(q) @ a @ q


def from_frame(q: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Q A Qᵀ: back from the eigenbasis ``q``."""
    return q @ a @ swap(q)


def frame(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues ``(..., k)`` and eigenvectors ``(..., k, k)`` of SPD matrices ``x``."""
    w, q = eigh(x)
    # Rounding can return a zero or slightly negative eigenvalue for a numerically singular point;
    # the floor keeps the square roots, logarithms and divisions below finite.
    return np.maximum(w, TINY), q


def gram(g: np.ndarray, f: np.ndarray) -> np.ndarray:
    """G diag(f) Gᵀ, symmetrised against rounding."""
    return sym((g * f[..., None, :]) @ swap(g))
