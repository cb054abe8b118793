"""The low-rank matrix-completion problem of Han, Mishra, Jawanpuria & Gao (§5.5, §6.5), shared by
the study ``engine.experiments.dp_rgd_matrix_completion`` and the Private optimization pipeline
(``engine.pipelines.private_optimization``): synthetic columns X = UV + noise with their train and
test masks, and the spectral start of the non-private optimum.
"""

from __future__ import annotations

import numpy as np

from engine.data import random_subspace
from engine.estimators.matrix_completion import MatrixCompletion
from engine.validation import check_int, check_nonnegative, check_probability


def low_rank_data(d: int, rank: int, n: int, *, observed: float, test_fraction: float, noise: float, rng):
    """Columns ``(n, d)`` of X = UV + noise and boolean train/test masks ``(n, d)``."""
    basis = random_subspace(check_int("d", d), check_int("rank", rank), rng)
    coef = rng.standard_normal((check_int("n", n), rank))
    values = coef @ basis.T + check_nonnegative("noise", noise) * rng.standard_normal((n, d))
    seen = rng.random((n, d)) < check_probability("observed", observed)
    test = seen & (rng.random((n, d)) < check_probability("test_fraction", test_fraction))
    return values, seen & ~test, test


def spectral_start(problem: MatrixCompletion) -> np.ndarray:
    """Top-r left singular vectors of the zero-filled training matrix (a non-private start)."""
    return np.linalg.svd(problem.values.T, full_matrices=False)[0][:, : problem.rank]
