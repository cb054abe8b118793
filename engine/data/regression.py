"""Data for geodesic regression: synthetic corpus-callosum-like outlines against age, real cell
outlines against log size, and directions on S² drifting along a great circle against time.

Kulkarni & Soto regress ADNI corpus callosum outlines (Cornea et al. 2017; 50 landmarks) on age. Those
data are not public, so ``callosum_data`` draws a documented stand-in: a mid-sagittal "arch" whose
centreline bends and whose body thins with age, with bulbous ends (genu and splenium), outlined by
``k`` landmarks equally spaced in arc length, plus isotropic landmark noise.

Covariates are mapped to [−1, 1] with public bounds (ages 60–80 -> (age − 70)/10), which Table 1's
Δ_v = 2τ/n assumes (|x_i| <= 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from engine.data._common import batch_shape
from engine.data.kendall import resample_closed_curve
from engine.manifolds.kendall import Kendall
from engine.manifolds.sphere import Sphere
from engine.validation import check_finite_array, check_int, check_nonnegative, check_positive

AGE_RANGE = (60.0, 80.0)
CELLS_FILE = Path(__file__).resolve().parents[2] / "assets" / "cells" / "cells_k100.csv.gz"
_DENSE = 400


def age_covariate(age) -> np.ndarray:
    """Public rescaling of ages in [60, 80] to x = (age − 70)/10 ∈ [−1, 1]."""
    return (np.asarray(age, dtype=float) - 70.0) / 10.0


def _callosum_outline(age: float) -> np.ndarray:
    """Dense closed outline ``(2·_DENSE, 2)`` of the synthetic corpus callosum at one age (unit length)."""
    a = (age - 70.0) / 10.0
    s = np.linspace(0.0, 1.0, _DENSE)
    bend = 0.28 + 0.04 * a
    centre = np.stack([s - 0.5, bend * (1.0 - (2.0 * s - 1.0) ** 2)], axis=-1)
    tangent = np.stack([np.ones_like(s), -4.0 * bend * (2.0 * s - 1.0)], axis=-1)
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=-1) / np.linalg.norm(tangent, axis=-1, keepdims=True)
    body = 0.045 - 0.012 * a
    genu = (0.05 - 0.004 * a) * np.exp(-(((s - 0.06) / 0.07) ** 2))
    splenium = (0.07 - 0.010 * a) * np.exp(-(((s - 0.93) / 0.07) ** 2))
    width = body + genu + splenium
    upper = centre + width[:, None] * normal
    lower = centre - width[:, None] * normal
    return np.concatenate([upper, lower[::-1]], axis=0)


def callosum_template(age, k: int = 50) -> np.ndarray:
    """Noise-free pre-shapes of the synthetic corpus callosum at ``age`` (array), ``(*age.shape, k, 2)``."""
    k = check_int("k", k, minimum=3)
    ages = check_finite_array("age", np.atleast_1d(age))
    shapes = np.stack([resample_closed_curve(_callosum_outline(float(t)), k) for t in ages.ravel()])
    return Kendall(k).projection(shapes).reshape(np.shape(age) + (k, 2))


def callosum_data(n, *, k: int = 50, noise: float = 0.003, size=(), rng=None):
    """Synthetic corpus callosum outlines with ages uniform on [60, 80].

    Y_i = preshape(z(age_i) + σ E_i), z(age) the template (``callosum_template``), E_i iid N(0, 1) per
    coordinate; the Procrustes distance of Y_i to z(age_i) is ≈ σ√(2k − 4) (0.029 for k = 50, σ = 0.003).

    Parameters
    ----------
    n : int >= 3
    k : int >= 3
    noise : float >= 0
        Landmark noise σ (units of a configuration of unit size).
    size : int or tuple
        Leading batch shape of independent data sets.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    ages : ndarray ``(*size, n)``
    shapes : ndarray ``(*size, n, k, 2)``
    """
    n = check_int("n", n, minimum=3)
    noise = check_nonnegative("noise", noise)
    rng = np.random.default_rng(rng)
    ages = rng.uniform(*AGE_RANGE, size=batch_shape(n, size))
    grid = np.linspace(*AGE_RANGE, 201)
    templates = callosum_template(grid, k)
    # Templates on a fine age grid, interpolated per landmark: the outline changes smoothly with age.
    idx = np.clip(np.searchsorted(grid, ages) - 1, 0, len(grid) - 2)
    w = ((ages - grid[idx]) / (grid[1] - grid[0]))[..., None, None]
    clean = (1.0 - w) * templates[idx] + w * templates[idx + 1]
    return ages, Kendall(k).projection(clean + noise * rng.standard_normal(clean.shape))


@dataclass(frozen=True)
class CellShapes:
    """Cell outlines as pre-shapes with their log centroid size, cell line and treatment."""

    shapes: np.ndarray
    log_size: np.ndarray
    line: np.ndarray
    treatment: np.ndarray


def load_cells(k: int = 50) -> CellShapes:
    """The 650 mouse osteosarcoma cell outlines shipped in ``assets/cells`` (from the geomstats wheel, MIT).

    Each stored 100-point outline is resampled to ``k`` landmarks by arc length (k <= 100) and
    projected to its pre-shape; ``log_size`` is the log centroid size in pixels of the 100 points.
    """
    k = check_int("k", k, minimum=3)
    if k > 100:
        raise ValueError(f"k must be at most 100 for the shipped cell outlines, got {k}")
    table = pd.read_csv(CELLS_FILE)
    xs = table[[f"x{j}" for j in range(100)]].to_numpy(float)
    ys = table[[f"y{j}" for j in range(100)]].to_numpy(float)
    outlines = np.stack([xs, ys], axis=-1)
    landmarks = np.stack([resample_closed_curve(o, k) for o in outlines]) if k != 100 else outlines
    return CellShapes(shapes=Kendall(k).projection(landmarks), log_size=np.log(table["centroid_size"].to_numpy(float)),
                      line=table["line"].to_numpy(str), treatment=table["treatment"].to_numpy(str))


def size_covariate(log_size, cells: CellShapes) -> np.ndarray:
    """Log size rescaled to [−1, 1] by the range over all 650 cells (the public collection)."""
    lo, hi = float(cells.log_size.min()), float(cells.log_size.max())
    return 2.0 * (np.asarray(log_size, dtype=float) - lo) / (hi - lo) - 1.0


def sphere_drift(n, *, speed: float = 0.8, noise: float = 0.08, size=(), rng=None):
    """Directions on S² drifting along a great circle: y_i = Exp(Exp(p, t_i v), e_i), t_i uniform on [−1, 1].

    p is at polar angle π/3 (azimuth 0), v points east with length ``speed`` (radians per unit time),
    e_i is a tangent Gaussian with standard deviation noise/√2 per direction (RMS distance ≈ noise).

    Returns
    -------
    times : ndarray ``(*size, n)``
    directions : ndarray ``(*size, n, 3)``
    """
    n = check_int("n", n, minimum=3)
    speed = check_positive("speed", speed)
    noise = check_nonnegative("noise", noise)
    rng = np.random.default_rng(rng)
    s2 = Sphere(2)
    p, v = drift_truth(speed)
    times = rng.uniform(-1.0, 1.0, size=batch_shape(n, size))
    q = s2.exp(p, times[..., None] * v)
    e = s2.to_tangent(q, noise / np.sqrt(2.0) * rng.standard_normal(q.shape))
    return times, s2.exp(q, e)


def drift_truth(speed: float = 0.8):
    """The generating (p, v) of ``sphere_drift``: p at polar angle π/3, v eastward of length ``speed``."""
    p = Sphere(2).polar_point(np.pi / 3, 0.0)
    return p, np.array([0.0, speed, 0.0])
