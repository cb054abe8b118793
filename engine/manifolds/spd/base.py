"""What SPD(k) is under every metric: the points, membership, projection, tangent spaces, flat
coordinates and reference law, the inner product in the eigenbasis, and the factory ``SPD(k, metric)``.

Each metric is a subclass registered under its name (``class SPDAffine(SPD, metric="affine")``); it
gives its scale s_ij of the eigenbasis (``frame_scale``), exp, log, dist, transport and curvature facts.
"""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from engine.manifolds._linalg import eigh, expm, sym
from engine.manifolds.base import Manifold
from engine.manifolds.spd.definiteness import is_positive_definite
from engine.manifolds.spd.eigenframe import TINY, frame, from_frame, gram, swap, to_frame
from engine.validation import check_int, check_positive

#: Metric name -> its subclass of :class:`SPD`, filled as the subclasses are defined.
METRIC_CLASSES: dict[str, type[SPD]] = {}
#: The metric of ``SPD(k)``: affine-invariant, the geometry of Reimherr, Bharath & Soto (2021, §5.1).
DEFAULT_METRIC = "affine"
# Relative eigenvalue floor of ``projection``: the result is positive definite with condition
# number at most 1e12, far above the k·eps level below which definiteness is not resolvable.
_PROJECTION_FLOOR = 1e-12


class SPD(Manifold):
    """Symmetric positive-definite k×k matrices; ``SPD(k, metric)`` is an instance of that metric's class.

    Parameters
    ----------
    k : int >= 1
        Matrix size; points have shape ``(k, k)`` and ``dim = k(k+1)/2``.
    metric : str, optional
        A key of ``METRIC_CLASSES``; by default the class's own metric (``"affine"`` for ``SPD``).

    Attributes
    ----------
    metric : str
        The metric's name, also in ``name`` (``"SPD(2, affine)"``).
    kappa_min, kappa_max, injectivity_radius : float
        Set by each metric's class (for k = 1 every metric is flat).

    Notes
    -----
    ``to_ambient`` gives the k(k+1)/2 upper-triangle entries (row-major, ``np.triu_indices``) with
    off-diagonal entries scaled by √2, so the Euclidean norm of the coordinates is the Frobenius
    norm of the matrix, as in the ambient baseline of Reimherr et al. (2021, supplement §1.2).
    """

    metric: str

    def __init_subclass__(cls, metric: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if metric is not None:
            cls.metric = metric
            METRIC_CLASSES[metric] = cls

    def __new__(cls, k=None, metric: str | None = None):
        # ``k`` is read by __init__; pickle and copy call __new__ with the class alone.
        if metric is None:
            chosen = METRIC_CLASSES[DEFAULT_METRIC] if cls is SPD else cls
        else:
            chosen = METRIC_CLASSES.get(metric) if isinstance(metric, str) else None
            if chosen is None:
                raise ValueError(f"metric must be one of {tuple(sorted(METRIC_CLASSES))}, got {metric!r}")
            if not issubclass(chosen, cls):
                raise ValueError(f"{cls.__name__} has the {cls.metric!r} metric, got metric={metric!r}: "
                                 f"use SPD(k, metric={metric!r})")
        return super().__new__(chosen)

    def __init__(self, k: int, metric: str | None = None):
        self.k = check_int("k", k)
        self.dim = self.k * (self.k + 1) // 2
        self.point_shape = (self.k, self.k)
        self.name = f"SPD({self.k}, {self.metric})"
        self._rows, self._cols = np.triu_indices(self.k)
        self._coord_scale = np.where(self._rows == self._cols, 1.0, np.sqrt(2.0))

    @property
    def origin(self) -> np.ndarray:
        return np.eye(self.k)

    # ----- membership and projections ------------------------------------------------------
    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        """Symmetric within ``atol``·max(1, max|x|) and positive definite (:func:`is_positive_definite`)."""
        x = np.asarray(x, dtype=float)
        asym = np.abs(x - swap(x)).max(axis=(-1, -2))
        scale = np.maximum(1.0, np.abs(x).max(axis=(-1, -2)))
        return (asym <= atol * scale) & is_positive_definite(x)

    def projection(self, x) -> np.ndarray:
        """Nearest point in Frobenius norm, up to an eigenvalue floor.

        Symmetrises, then clips the eigenvalues at 1e-12·max|λ|: clipping at 0 gives the nearest PSD
        matrix, and the floor keeps the result strictly inside the cone.
        """
        w, q = eigh(sym(np.asarray(x, dtype=float)))
        # The floor is relative so it respects the scale of x; `TINY` covers the zero matrix.
        floor = np.maximum(_PROJECTION_FLOOR * np.abs(w).max(axis=-1, keepdims=True), TINY)
        return gram(q, np.maximum(w, floor))

    def to_tangent(self, x, v) -> np.ndarray:
        """Symmetric part of ``v`` (T_xSPD = Sym(k) for every metric), broadcast against ``x``."""
        v = sym(np.asarray(v, dtype=float))
        return np.broadcast_to(v, np.broadcast_shapes(np.shape(x), v.shape)).copy()

    # ----- the metric in the eigenbasis ----------------------------------------------------
    @abstractmethod
    def frame_scale(self, w: np.ndarray) -> np.ndarray:
        """s_ij ``(..., k, k)`` from the eigenvalues ``w`` ``(..., k)`` of X, with
        <U, V>_X = Σ_ij Ũ_ij Ṽ_ij / s_ij² for Ũ = QᵀUQ in the eigenbasis of X."""

    def inner(self, x, u, v) -> np.ndarray:
        """Riemannian inner product Σ_ij Ũ_ij Ṽ_ij / s_ij² (``frame_scale``), shape ``(...)``."""
        w, q = frame(np.asarray(x, dtype=float))
        s = self.frame_scale(w)
        ut = to_frame(q, np.asarray(u, dtype=float)) / s
        vt = to_frame(q, np.asarray(v, dtype=float)) / s
        return np.sum(ut * vt, axis=(-1, -2))

    def tangent_basis(self, x) -> np.ndarray:
        """Orthonormal basis ``(..., dim, k, k)``: Q (B_a ∘ s) Qᵀ for the Frobenius-orthonormal
        basis B_a of Sym(k) (E_ii and (E_ij + E_ji)/√2, ordered like ``to_ambient``)."""
        w, q = frame(np.asarray(x, dtype=float))
        unit = self.from_ambient(np.eye(self.dim))
        return sym(from_frame(q[..., None, :, :], unit * self.frame_scale(w)[..., None, :, :]))

    # ----- curvature and injectivity bounds of a region (constant unless a metric says otherwise) ---
    def injectivity_radius_at(self, x) -> np.ndarray:
        """Injectivity radius at each point, shape ``(...)``: ``injectivity_radius`` everywhere."""
        x = np.asarray(x, dtype=float)
        return np.full(x.shape[:-2], self.injectivity_radius)

    def kappa_max_bound(self, lambda_min_sum) -> float:
        """Upper bound on sectional curvature over a region where λ₁ + λ₂ >= ``lambda_min_sum`` (λ₁ ≤ λ₂
        the two smallest eigenvalues): ``kappa_max``."""
        check_positive("lambda_min_sum", lambda_min_sum)
        return self.kappa_max

    def kappa_max_ball(self, center, radius) -> np.ndarray:
        """Upper bound on sectional curvature over the geodesic ball B_radius(center), shape ``(...)``:
        ``kappa_max``."""
        center = np.asarray(center, dtype=float)
        check_positive("radius", radius)
        return np.full(center.shape[:-2], self.kappa_max)

    # ----- coordinates and sampling --------------------------------------------------------
    def largest_eigenvalue(self, centre) -> np.ndarray:
        """λ_max of the points ``centre``, shape ``centre.shape[:-2]``; 1 (that of I) when ``centre`` is ``None``."""
        if centre is None:
            return np.float64(1.0)
        return np.linalg.eigvalsh(self.check_points(centre, "centre"))[..., -1]

    def to_ambient(self, x) -> np.ndarray:
        """Upper triangle ``(..., k(k+1)/2)``, off-diagonals ×√2 (Euclidean norm = Frobenius norm)."""
        x = np.asarray(x, dtype=float)
        return x[..., self._rows, self._cols] * self._coord_scale

    def from_ambient(self, a) -> np.ndarray:
        """Symmetric matrices ``(..., k, k)`` from ``to_ambient`` coordinates (not necessarily PD)."""
        a = np.asarray(a, dtype=float)
        if a.ndim < 1 or a.shape[-1] != self.dim:
            raise ValueError(
                f"ambient coordinates of {self.name} must have trailing size {self.dim}, got shape {a.shape}"
            )
        entries = a / self._coord_scale
        out = np.zeros(a.shape[:-1] + self.point_shape)
        out[..., self._rows, self._cols] = entries
        out[..., self._cols, self._rows] = entries
        return out

    def random_point(self, n: int, rng=None) -> np.ndarray:
        """``n`` points expm(S), S symmetric with independent N(0, 0.5²) coordinates in the
        Frobenius-orthonormal basis of Sym(k) (diagonal N(0, 0.25), off-diagonal N(0, 0.125)).

        The affine distance to the identity is ‖S‖_F ≈ 0.5·√dim. The smallest eigenvalue is below 0.1
        for about 2 in 10,000 points when k = 3, so Bures–Wasserstein exponentials of length <= 0.3
        (< √0.1) are almost always defined.
        """
        coef = 0.5 * np.random.default_rng(rng).standard_normal((check_int("n", n), self.dim))
        return sym(expm(self.from_ambient(coef)))
