"""Data on the Grassmannian Gr(d, p): spiked-covariance data for subspace estimation, and lines
(p = 1) uniform in a geodesic ball or from an angular central Gaussian.

The setting of Singhal & Steinke (2021, "Privately learning subspaces"): x_i ~ N(0, Σ) where Σ
has p large eigenvalues (the signal subspace) and d − p small ones. Here Σ = I + g·U Uᵀ with U a
d × p orthonormal basis of the true subspace: the top p eigenvalues are 1 + g, the rest 1, so g is
the additive eigengap and 1/(1 + g) the multiplicative gap λ_{p+1}/λ_p of the paper. (Han et al.'s
synthetic principal-eigenvector study uses d = 50, p = 1 and g = 10⁻³.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.bounds import check_radius
from engine.data._common import batch_shape
from engine.data.sphere import sphere_ball
from engine.manifolds.grassmann import Grassmann
from engine.validation import check_finite_array, check_int, check_positive


@dataclass(frozen=True)
class SpikedSample:
    """Data drawn by ``spiked_gaussian``.

    Attributes
    ----------
    data : ndarray of shape (*size, n, d)
        The data vectors x_i.
    subspace : ndarray of shape (d, p)
        Orthonormal basis U of the true signal subspace (a point of ``Grassmann(d, p)``).
    covariance : ndarray of shape (d, d)
        Σ = I + g U Uᵀ.
    """

    data: np.ndarray
    subspace: np.ndarray
    covariance: np.ndarray


def random_subspace(d, p, rng=None) -> np.ndarray:
    """Haar-distributed p-dimensional subspace of R^d as a d × p orthonormal basis.

    Q of the QR decomposition of a Gaussian d × p matrix, with the signs of R's diagonal moved
    into Q (without that fix Q is not Haar).
    """
    d = check_int("d", d)
    p = check_int("p", p)
    if p > d:
        raise ValueError(f"p must be <= d = {d}, got {p!r}")
    q, r = np.linalg.qr(np.random.default_rng(rng).standard_normal((d, p)))
    return q * np.where(np.diag(r) < 0, -1.0, 1.0)


def spiked_gaussian(n, d, p, *, eigengap=4.0, subspace=None, size=(), rng=None) -> SpikedSample:
    """Gaussian data whose covariance has a p-dimensional spike: x_i ~ N(0, I + g U Uᵀ).

    Exact: x = z + (√(1 + g) − 1) U Uᵀ z with z ~ N(0, I_d) has covariance
    (I + c P)² = I + (2c + c²) P = I + g P for P = U Uᵀ and c = √(1 + g) − 1.

    Parameters
    ----------
    n : int
        Vectors per data set (>= 1).
    d, p : int
        Ambient dimension and subspace dimension, 1 <= p <= d.
    eigengap : float
        g > 0: the top p eigenvalues are 1 + g, the other d − p are 1.
    subspace : array_like of shape (d, p), optional
        Orthonormal basis of the true subspace; default a Haar-random one drawn from ``rng``.
    size : int or tuple of int
        Batch shape of independent data sets (all share the true subspace).
    rng : numpy.random.Generator, int or None

    Returns
    -------
    SpikedSample with ``data`` of shape ``(*size, n, d)``, ``subspace`` ``(d, p)`` and
    ``covariance`` ``(d, d)``.
    """
    manifold = Grassmann(d, p)
    gap = check_positive("eigengap", eigengap)
    shape = batch_shape(n, size)
    rng = np.random.default_rng(rng)
    if subspace is None:
        u = random_subspace(d, p, rng)
    else:
        u = manifold.check_points(subspace, "subspace")
        if u.shape != (d, p):
            raise ValueError(f"subspace must be one basis of shape {(d, p)}, got shape {u.shape}")
    projector = u @ u.T
    z = rng.standard_normal(shape + (d,))
    data = z + (np.sqrt(1.0 + gap) - 1.0) * (z @ projector)
    return SpikedSample(data=data, subspace=u, covariance=np.eye(d) + gap * projector)


def top_subspace(data, p) -> np.ndarray:
    """Span of the top-p eigenvectors of the second-moment matrix XᵀX/n (a point of Gr(d, p)).

    This is the non-private PCA estimate of the signal subspace; data are not re-centred (the
    spiked model has mean 0 and the real data sets here are z-scored).

    Parameters
    ----------
    data : array_like of shape (..., n, d)
        Data vectors, batched over leading axes.
    p : int
        Subspace dimension, 1 <= p <= d.

    Returns
    -------
    ndarray of shape ``(..., d, p)`` with orthonormal columns, eigenvalues descending.
    """
    x = check_finite_array("data", data)
    if x.ndim < 2:
        raise ValueError(f"data must have shape (..., n, d), got shape {x.shape}")
    d = x.shape[-1]
    p = check_int("p", p)
    if p > d:
        raise ValueError(f"p must be <= d = {d}, got {p!r}")
    second_moment = np.swapaxes(x, -1, -2) @ x / x.shape[-2]
    _, vectors = np.linalg.eigh(second_moment)
    return vectors[..., ::-1][..., :p]


def line_ball(n, radius, *, d=3, size=(), rng=None) -> np.ndarray:
    """Lines of R^d uniform (w.r.t. the Riemannian volume) in the geodesic ball B_r(e_1) of Gr(d, 1).

    The double cover S^{d−1} → Gr(d, 1), x ↦ span(x), is a local isometry that maps the cap B_r(e_1)
    of S^{d−1} isometrically onto B_r(span e_1) for r < π/2, so the span of a uniform point of the cap
    (``sphere_ball``) is uniform in the ball. ``radius`` is checked for a unique mean (r < π/4).

    Returns
    -------
    ndarray of shape ``(*size, n, d, 1)``: canonical bases (first coordinate >= 0).
    """
    manifold = Grassmann(check_int("d", d, minimum=2), 1)
    check_radius(manifold, check_positive("radius", radius), purpose="mean")
    points = sphere_ball(n, radius, dim=manifold.n - 1, center=np.eye(manifold.n)[0], size=size, rng=rng)
    return manifold.canonical(points[..., None])


def line_acg(n, spread, *, d=3, size=(), rng=None) -> np.ndarray:
    """Lines of R^d from the angular central Gaussian ACG(Σ), Σ = diag(1, s², …, s²): span(z), z ~ N(0, Σ).

    Concentrated around span(e_1) for small spread s (tan of the angle to it is s·|z_⊥|/|z_1| for
    standard z), with support the whole Grassmannian (Tyler, *Statistical analysis for the angular
    central Gaussian distribution on the sphere*, Biometrika 74, 1987).

    Returns
    -------
    ndarray of shape ``(*size, n, d, 1)``: canonical bases.
    """
    manifold = Grassmann(check_int("d", d, minimum=2), 1)
    spread = check_positive("spread", spread)
    scale = np.r_[1.0, np.full(manifold.n - 1, spread)]
    z = np.random.default_rng(rng).standard_normal(batch_shape(n, size) + (manifold.n,)) * scale
    return manifold.canonical(z[..., None] / np.linalg.norm(z, axis=-1)[..., None, None])
