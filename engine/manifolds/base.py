"""The manifold contract every space of the engine implements.

Arrays are batched over leading axes: a single point has shape ``point_shape`` and any array of
shape ``(..., *point_shape)`` is a batch of points. Outputs never squeeze. Tangent vectors are
stored in the same ambient representation as points (``to_tangent`` projects onto T_xM).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from engine.validation import check_finite_array


class Manifold(ABC):
    """Abstract Riemannian manifold with batched exp/log/dist.

    Subclasses set ``dim`` (intrinsic dimension), ``point_shape``, ``kappa_min``/``kappa_max``
    (bounds on sectional curvature), ``injectivity_radius`` and ``name``, and implement the
    abstract methods. Defaults below are correct for any subclass and may be overridden for speed.
    """

    dim: int
    point_shape: tuple[int, ...]
    kappa_min: float
    kappa_max: float
    injectivity_radius: float
    name: str

    # ----- geometry every space must give -------------------------------------------------
    @abstractmethod
    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        """Boolean array of shape ``x.shape[:-point_ndim]``: is each point on the manifold."""

    @abstractmethod
    def projection(self, x) -> np.ndarray:
        """Nearest point of the manifold (in the ambient representation)."""

    @abstractmethod
    def to_tangent(self, x, v) -> np.ndarray:
        """Orthogonal projection of an ambient vector ``v`` onto T_xM (horizontal space)."""

    @abstractmethod
    def exp(self, x, v) -> np.ndarray:
        """Riemannian exponential Exp_x(v)."""

    @abstractmethod
    def log(self, x, y) -> np.ndarray:
        """Riemannian logarithm Log_x(y), the inverse of ``exp`` inside the injectivity radius."""

    @abstractmethod
    def tangent_basis(self, x) -> np.ndarray:
        """Orthonormal basis of T_xM, shape ``(..., dim, *point_shape)``."""

    @abstractmethod
    def to_ambient(self, x) -> np.ndarray:
        """Flat coordinates ``(..., D)`` used by Euclidean (extrinsic) baselines."""

    @abstractmethod
    def from_ambient(self, a) -> np.ndarray:
        """Inverse of ``to_ambient`` (the result need not lie on the manifold)."""

    @abstractmethod
    def random_point(self, n: int, rng=None) -> np.ndarray:
        """``n`` points of a simple reference law, shape ``(n, *point_shape)``."""

    @property
    @abstractmethod
    def origin(self) -> np.ndarray:
        """A canonical base point (north pole, identity, Lorentz origin, ...)."""

    # ----- what the mechanisms need to know (facts about the space; conservative defaults) -----
    #: Isometries act transitively, so ∫ exp(−ρ(x, η)/σ) dv(x) is the same for every footpoint η
    #: (Reimherr, Bharath & Soto 2021, Theorem 1: then σ = Δ/ε suffices).
    homogeneous: bool = False

    @property
    def flat(self) -> bool:
        """Complete, simply connected and flat: Exp_x is a global isometry of T_xM onto the space."""
        return self.kappa_min == 0 and self.kappa_max == 0 and np.isinf(self.injectivity_radius)

    @property
    def polar_volume(self) -> str | None:
        """Family of the volume density in geodesic polar coordinates around any point, which the
        exact Laplace samplers read: ``"flat"`` (ρ^{d−1}), ``"sphere"`` (sin^{d−1}ρ on [0, π]),
        ``"hyperbolic"`` (sinh^{d−1}ρ), ``"real-projective"`` (sin^{d−1}ρ on [0, π/2]),
        ``"complex-projective"`` (sin^{d−1}ρ cos ρ on [0, π/2]),
        ``"spd-affine"`` (the eigen-log law of SPD(k)); ``None`` when no exact sampler is known."""
        return "flat" if self.flat else None

    def ambient_ball_radius(self, radius, centre=None) -> np.ndarray | None:
        """Radius r_E of a ball of ``to_ambient`` coordinates (of the ``representative``s relative
        to ``centre``) that contains the image of the geodesic ball B_r(centre), the origin's when
        ``centre`` is ``None``: two records then differ by at most 2 r_E, the ambient mean's sensitivity
        2 r_E/n. ``None`` when the space states none (then no Euclidean baseline is offered)."""
        return None

    def representative(self, x, reference) -> np.ndarray:
        """The representative of each point ``x`` fixed by the public ``reference`` point: ``x`` itself on a
        space whose points are their arrays. A quotient space (Kendall shapes: pre-shapes up to rotation;
        Grassmannians: bases up to O(p)) picks the one nearest the reference, so that a release or an
        ambient coordinate carries no record's own rotation or sign (DESIGN §4: a release is a function of
        the private statistic and public values alone)."""
        return np.asarray(x, dtype=float)

    def random_representative(self, x, rng=None) -> np.ndarray:
        """Another representative of the same points ``x``, drawn from the space's symmetry (the group whose
        orbits are its points): ``x`` itself here; a rotation of each pre-shape on Kendall shapes, a random
        change of basis (sign included) on a Grassmannian. Used to check that releases ignore it."""
        return np.asarray(x, dtype=float)

    @property
    def open_in_ambient(self) -> bool:
        """Its ``to_ambient`` image is open in R^D (D = ``dim``, like the SPD cone): an ambient
        (Euclidean) release lands on the space with positive probability, and one that misses it has
        no nearest point on it. Otherwise (the sphere in R³) an ambient release misses the space
        almost surely and ``projection`` brings it back to its nearest point."""
        return self.dim == self.ambient_dim

    #: Length L after which every geodesic from a point returns to it, with the polar volume density J
    #: periodic along it: the tangent vectors Exp_w maps onto x are then exactly (θ + kL)u, k ∈ Z, for
    #: Log_w x = θu, all with the same J (π on RP^{n−1} = Gr(n, 1)); ``None`` where geodesics do not close
    #: or where the space does not state it.
    geodesic_period: float | None = None

    #: Exponential growth rate c of the volume of geodesic balls, J(ρ) <= ρ^{d−1}e^{cρ}: the
    #: unconditioned Laplace law is normalisable iff σ < 1/c (every σ when c = 0).
    volume_growth: float = 0.0

    # ----- defaults ------------------------------------------------------------------------
    @property
    def point_ndim(self) -> int:
        return len(self.point_shape)

    @property
    def ambient_dim(self) -> int:
        """Dimension D of the flat coordinates returned by ``to_ambient``."""
        return int(self.to_ambient(self.origin).shape[-1])

    def per_point(self, a) -> np.ndarray:
        """``a`` of shape ``(...)`` (one value per point) reshaped to broadcast against points
        ``(..., *point_shape)``: one trailing axis per point dimension."""
        return np.reshape(a, np.shape(a) + (1,) * self.point_ndim)

    def inner(self, x, u, v) -> np.ndarray:
        """Riemannian inner product <u, v>_x (Frobenius by default)."""
        idx = "abcd"[: self.point_ndim]
        # einsum contracts the small point axes several times faster than sum(u * v).
        return np.einsum(f"...{idx},...{idx}->...", np.asarray(u, dtype=float), np.asarray(v, dtype=float))

    def norm(self, x, v) -> np.ndarray:
        """Riemannian norm of ``v`` at ``x``."""
        return np.sqrt(np.maximum(self.inner(x, v, v), 0.0))

    def dist(self, x, y) -> np.ndarray:
        """Geodesic distance, ``norm(x, log(x, y))``."""
        return self.norm(x, self.log(x, y))

    def weighted_log_sum(self, x, points, weights) -> np.ndarray:
        """Σ_i w_i Log_x(p_i): minus half the gradient of the weighted Fréchet function at ``x``.

        ``x`` has shape ``(B, *point_shape)``, ``points`` ``(B, n, *point_shape)``, ``weights``
        ``(B, n)``; the result is ``(B, *point_shape)``. Spaces override it when the sum has a
        cheaper closed form than n logarithms.
        """
        logs = self.log(np.asarray(x)[:, None], points)
        flat = logs.reshape(logs.shape[:2] + (-1,))
        return (np.asarray(weights, dtype=float)[:, None, :] @ flat)[:, 0].reshape(logs.shape[:1] + logs.shape[2:])

    def farthest_distance(self, x, points, weights) -> np.ndarray:
        """max_i ρ(x_b, p_bi) over the records of non-zero weight, shape ``(B,)``, for ``x`` ``(B, *point_shape)``,
        ``points`` ``(B, n, *point_shape)`` and ``weights`` ``(B, n)``. Spaces where a cheaper quantity
        monotone in ρ finds the farthest record override it (the sphere: the smallest <x, p>)."""
        return np.where(np.asarray(weights) != 0, self.dist(np.asarray(x)[:, None], points), 0.0).max(axis=1)

    @property
    def has_frechet_newton_step(self) -> bool:
        """Whether the space overrides ``frechet_newton_step`` (S^d, H^d, SPD(k) affine-invariant)."""
        return type(self).frechet_newton_step is not Manifold.frechet_newton_step

    @property
    def frechet_step(self) -> float | str:
        """The iteration ``frechet_mean(step="auto")`` takes: Karcher's step t = 1 here.

        Near the mean the step m <- Exp_m(t Σ_i w_i Log_m(x_i)) contracts by max|1 − tλ| over the eigenvalues
        λ of the Fréchet function's Hessian (λ = 1 on flat space, d cot d <= 1 for a record at distance d on
        curvature +1, d coth d >= 1 on curvature −1 and h(δ) = (δ/2) coth(δ/2) >= 1 on SPD(k)), so t = 1
        contracts fastest where λ is near 1; where the space has Newton steps ``frechet_mean`` watches it and
        restarts a data set it overshoots on with them. Spaces whose closed-form Newton step costs about as much as a log sum override it
        with ``"newton"`` (H^d).
        """
        return 1.0

    def frechet_start(self, points, weights) -> np.ndarray:
        """Where ``frechet_mean(step="auto")`` starts, ``(B, *point_shape)`` for ``points`` ``(B, n, *point_shape)``
        and weights ``(B, n)`` >= 0 summing to 1: the first record here (the paper's start). Spaces with a
        cheap point closer to the mean override it (the normalised weighted centroid on S^d and H^d)."""
        return np.asarray(points)[:, 0]

    def frechet_newton_step(self, x, points, weights) -> tuple[np.ndarray, np.ndarray]:
        """Newton step H⁻¹ Σ_i w_i Log_x(p_i) of the weighted Fréchet function F = ½ Σ_i w_i d²(·, p_i)
        at ``x`` (H its Riemannian Hessian), same shapes as ``weighted_log_sum``, and F(x) ``(B,)``.
        Spaces with a closed-form Hessian override it (Sphere, Hyperbolic, SPD affine); elsewhere ``ValueError``.
        """
        raise ValueError(f"step='newton' is not available on {self.name}: use a step in (0, 2)")

    def log_sum_points(self, points):
        """``points`` ``(B, n, *point_shape)`` in the form ``weighted_log_sum`` reads fastest when it is
        called many times on the same points (the steps of an iterative mean). The result can be
        indexed on its leading axis like the array; spaces with point-only precomputations override
        it (SPD(3) affine), the default is the array itself.
        """
        return points

    def geodesic(self, x, v, t) -> np.ndarray:
        """Points Exp_x(t v) for times ``t`` of shape ``(T,)``; result ``(T, ..., *point_shape)``."""
        t = np.asarray(t, dtype=float).reshape((-1,) + (1,) * np.ndim(v))
        return self.exp(x, t * np.asarray(v))

    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        """Direction uniform on the unit sphere of T_xM (Gaussian coefficients, normalised)."""
        rng = np.random.default_rng(rng)
        basis = self.tangent_basis(x)
        coef = rng.standard_normal(basis.shape[: -self.point_ndim])
        coef /= np.linalg.norm(coef, axis=-1, keepdims=True)
        return self.from_coordinates(x, coef)

    def random_step(self, x, length, rng=None) -> np.ndarray:
        """Exp_x(length·u) with u uniform on the unit sphere of T_xM, ``length`` of shape ``(...)``: the
        proposal of the random-walk samplers. Spaces with a cheaper closed form override it (SPD affine)."""
        return self.exp(x, self.per_point(np.asarray(length, dtype=float)) * self.random_unit_tangent(x, rng))

    def from_coordinates(self, x, coef) -> np.ndarray:
        """Tangent vector sum_i coef_i e_i(x) for coefficients ``(..., dim)`` in ``tangent_basis``."""
        idx = "abcd"[: self.point_ndim]
        return np.einsum(f"...i,...i{idx}->...{idx}", coef, self.tangent_basis(x))

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """Transport of ``v`` in T_xM to T_yM along the minimising geodesic."""
        raise ValueError(f"parallel transport is not available on {self.name}")

    # ----- validation ----------------------------------------------------------------------
    def check_points(self, x, name: str = "points", atol: float = 1e-6) -> np.ndarray:
        """Return ``x`` as a float array after checking shape, finiteness and membership.

        Raises ``ValueError`` that quotes the offending shape or point.
        """
        arr = np.asarray(x, dtype=float)
        if arr.ndim < self.point_ndim or arr.shape[arr.ndim - self.point_ndim:] != self.point_shape:
            raise ValueError(
                f"{name} must have trailing shape {self.point_shape} for {self.name}, got shape {arr.shape}"
            )
        check_finite_array(name, arr)
        ok = np.asarray(self.belongs(arr, atol=atol))
        if not ok.all():
            first = tuple(int(i) for i in np.argwhere(~ok)[0]) if ok.ndim else ()
            bad = arr[first] if first else arr
            raise ValueError(
                f"{name} has a point off {self.name} at index {first}: {np.array2string(bad, precision=4)}"
            )
        return arr

    def __repr__(self) -> str:
        return self.name
