"""Row clipping shared by the covariance-based baselines."""

from __future__ import annotations

import numpy as np


def clip_rows(x: np.ndarray, clip_norm: float) -> np.ndarray:
    """x_i · min(1, C/‖x_i‖), shape ``(n, d)``: every row in the ball of radius C, directions kept
    (so subspace membership is unchanged)."""
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    return x * np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))
