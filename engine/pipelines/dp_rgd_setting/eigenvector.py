"""The principal-eigenvector problem of Han, Mishra, Jawanpuria & Gao (§5.1, §6.3), shared by the
study ``engine.experiments.dp_rgd_eigenvector`` and the Private optimization pipeline
(``engine.pipelines.private_optimization``): the data sets scaled to ‖Z‖₂ = 1, the records clipped
to the public radius R = √(d/n) with L0 = 2R², and Theorem 4's number of steps.

With ‖Z‖₂ = 1, Σ‖z_i‖² = ‖Z‖_F² <= d, so R = √(d/n) is the largest root-mean-square record norm; it
depends on the public n and d only, and so does L0.
"""

from __future__ import annotations

import numpy as np

from engine.data import load_feature_matrix, random_subspace
from engine.estimators.riemannian_problems import PrincipalEigenvector
from engine.validation import check_int, check_positive, check_probability

DATASETS = ("synthetic", "china-patches", "digits", "wine", "breast_cancer", "iris")


def spiked_data(n: int, d: int, eigengap: float, rng) -> np.ndarray:
    """Synthetic data X = U diag(s) Vᵀ of the paper's eigenvector study, shape ``(n, d)``.

    U (n × d) and V (d × d) are Haar; the singular values are 1, 1 − ν, 1 − 1.1ν, …, 1 − 1.4ν
    (six leading values, eigengap ν between the first two) followed by |g_j|/d, g_j ~ N(0, 1).
    Then ‖X‖₂ = 1 and λ_max(XᵀX) = 1.
    """
    n, d = check_int("n", n), check_int("d", d, minimum=7)
    if n < d:
        raise ValueError(f"n must be >= d = {d}, got {n}")
    nu = check_probability("eigengap", eigengap)
    lead = 1.0 - nu * np.array([0.0, 1.0, 1.1, 1.2, 1.3, 1.4])
    values = np.concatenate([lead, np.abs(rng.standard_normal(d - 6)) / d])
    return (random_subspace(n, d, rng) * values) @ random_subspace(d, d, rng).T


def image_patches(patch: int = 8, stride: int = 4) -> np.ndarray:
    """Grey-level ``patch`` × ``patch`` patches of scikit-learn's "china.jpg" sample image, every
    ``stride`` pixels, z-scored per pixel and divided by the spectral norm: ``(n, patch²)``."""
    from sklearn.datasets import load_sample_image  # scikit-learn's import (~1 s) waits for this data set

    grey = load_sample_image("china.jpg").astype(float).mean(axis=-1)
    windows = np.lib.stride_tricks.sliding_window_view(grey, (patch, patch))[::stride, ::stride]
    x = windows.reshape(-1, patch * patch)
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    return z / np.linalg.norm(z, ord=2)


def load_data(dataset: str, *, n: int, d: int, eigengap: float, rng) -> np.ndarray:
    """Records ``(n, d)`` with ‖Z‖₂ = 1 for a name of ``DATASETS`` (n, d, eigengap: synthetic only)."""
    if dataset == "synthetic":
        return spiked_data(n, d, eigengap, rng)
    if dataset == "china-patches":
        return image_patches()
    if dataset in DATASETS:
        return load_feature_matrix(dataset, spectral_normalize=True)
    raise ValueError(f"dataset must be one of {DATASETS}, got {dataset!r}")


def public_radius(n: int, d: int) -> float:
    """R = √(d/n), a bound on the records' norm that uses only the public n and d (module notes)."""
    n, d = check_int("n", n), check_int("d", d)
    return float(np.sqrt(d / n))


def clip_records(data, radius: float) -> np.ndarray:
    """Records ``(n, d)`` scaled into the ball of radius ``radius``: z_i·min(1, R/‖z_i‖)."""
    z = np.asarray(data, dtype=float)
    radius = check_positive("radius", radius)
    norms = np.linalg.norm(z, axis=-1, keepdims=True)
    return z * np.minimum(1.0, radius / np.maximum(norms, np.finfo(float).tiny))


def private_problem(data, radius: float | None = None) -> tuple[PrincipalEigenvector, float, int]:
    """The problem the private methods see: records clipped to ``radius`` (default ``public_radius``).

    Returns the problem on the clipped records, the public clipping norm L0 = 2R² (every
    ‖grad f_i‖ <= 2‖z_i‖² <= L0) and the number of records that were clipped.
    """
    z = np.asarray(data, dtype=float)
    if z.ndim != 2:
        raise ValueError(f"data must have shape (n, d), got shape {z.shape}")
    radius = public_radius(*z.shape) if radius is None else check_positive("radius", radius)
    clipped = clip_records(z, radius)
    moved = int(np.sum(np.linalg.norm(z, axis=-1) > radius))
    return PrincipalEigenvector(clipped), 2.0 * radius * radius, moved


def steps_rule(n: int, d: int, epsilon: float, clip: float, delta: float) -> int:
    """T = ⌈log(n²ε²/(d L0² log(1/δ)))⌉, at least 1 (Theorem 4 / §6.3)."""
    value = np.log(n * n * epsilon * epsilon / (d * clip * clip * np.log(1.0 / delta)))
    return max(1, int(np.ceil(value)))
