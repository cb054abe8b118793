"""The unit sphere S^d ⊂ R^{d+1} with the round metric (sectional curvature 1)."""

from __future__ import annotations

import numpy as np

from engine.manifolds.base import Manifold
from engine.manifolds.columns import PointColumns
from engine.validation import check_int


def _dot(a, b) -> np.ndarray:
    """Batched inner product over the last axis, keeping it (einsum is ~8× faster than sum(a*b))."""
    return np.einsum("...i,...i->...", a, b)[..., None]


def _angle(s: np.ndarray, c: np.ndarray) -> np.ndarray:
    """θ ∈ [0, π] from s = sin θ >= 0 and c = cos θ: arctan(s/c), plus π where c < 0 (its sign bit, so c = −0
    gives π/2). Within 1 ulp of arctan2(s, c) over [0, π] and twice as fast (numpy's arctan2 has no SIMD loop),
    the cost that bounds the Fréchet mean's pass over the points."""
    with np.errstate(divide="ignore"):
        theta = np.arctan(s / c)
    np.add(theta, np.pi, out=theta, where=np.signbit(c))
    return theta


def _sinc(t: np.ndarray) -> np.ndarray:
    """sin(t)/t with the removable singularity at 0 filled in (np.sinc is sin(πx)/(πx))."""
    return np.sinc(t / np.pi)


class Sphere(Manifold):
    """S^d as unit vectors of R^{d+1}; ``origin`` is the north pole e_{d+1}.

    exp_x(v) = cos|v| x + sin|v| v/|v|, log_x(y) = θ u/|u| with u = y − <x,y>x,
    θ = atan2(|u|, <x,y>) (accurate for tiny and near-antipodal pairs, unlike arccos).
    """

    kappa_min = 1.0
    kappa_max = 1.0
    injectivity_radius = np.pi
    homogeneous = True
    polar_volume = "sphere"

    def __init__(self, dim: int):
        self.dim = check_int("dim", dim)
        self.point_shape = (self.dim + 1,)
        self.name = f"Sphere({self.dim})"

    def ambient_ball_radius(self, radius, centre=None) -> np.ndarray:
        """The chord 2 sin(r/2) (Reimherr et al. 2021, supplement §1.3.2), around every centre (rotations
        are isometries of both the sphere and R^{d+1})."""
        return 2.0 * np.sin(np.minimum(np.asarray(radius, dtype=float), np.pi) / 2.0)

    @property
    def origin(self) -> np.ndarray:
        e = np.zeros(self.dim + 1)
        e[-1] = 1.0
        return e

    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        # |x| from the squared norm by one contraction: np.linalg.norm over the last axis is 5× slower here.
        return np.abs(np.sqrt(_dot(x, x)[..., 0]) - 1.0) <= atol

    def projection(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return x / np.linalg.norm(x, axis=-1, keepdims=True)

    def to_tangent(self, x, v) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        return v - _dot(x, v) * x

    def exp(self, x, v) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        t = np.sqrt(_dot(v, v))
        y = np.cos(t) * x + _sinc(t) * v
        # Renormalise: rounding drifts |y| away from 1 after many steps of an optimiser.
        return y / np.sqrt(_dot(y, y))

    def _angle_and_residual(self, x, y):
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        c = _dot(x, y)
        u = y - c * x
        # A second Gram–Schmidt pass: near the antipode |u| ~ δ while <u, x> is left at ~eps, which
        # would tilt u/|u| out of T_xS^d by eps/δ.
        u = u - _dot(x, u) * x
        s = np.sqrt(_dot(u, u))
        return _angle(s, c), u, s

    def log(self, x, y) -> np.ndarray:
        theta, u, s = self._angle_and_residual(x, y)
        # θ/sin θ -> 1 as s -> 0; guard the division for coincident points. For exactly antipodal
        # points the logarithm is not unique and u = 0, so the zero vector is returned.
        factor = np.where(s > 1e-300, theta / np.maximum(s, 1e-300), 1.0)
        return factor * u

    def dist(self, x, y) -> np.ndarray:
        return self._angle_and_residual(x, y)[0][..., 0]

    def _frechet_sums(self, x, points, weights, with_hessian: bool):
        """Σ_i w_i Log_x(p_i) ``(B, d + 1)`` and, on request, H + x xᵀ ``(B, d + 1, d + 1)``, h ``(B,)`` and
        F(x) = ½ Σ_i w_i θ_i² ``(B,)`` (``frechet_newton_step``; else None), for ``points`` ``(B, n, d + 1)`` or
        their ``PointColumns``, in one pass (``engine.manifolds.columns.BLOCK_POINTS`` says why not in blocks).

        With c_i = <x, p_i> = cos θ_i and f_i = w_i θ_i/sin θ_i, Log_x(p_i) = θ_i/sin θ_i (p_i − c_i x), so the sum
        is Σ_i f_i p_i − (Σ_i f_i c_i) x: one product over the points, no logarithm formed. sin θ = √((1 − c)(1 + c))
        loses digits for tiny θ, but θ/sin θ = 1 + θ²/6 + … does not.
        """
        x = np.asarray(x, dtype=float)
        columns = (points if isinstance(points, PointColumns) else PointColumns.of(points)).columns
        weights = np.asarray(weights, dtype=float)
        c = np.clip((x[:, None, :] @ columns)[:, 0], -1.0, 1.0)
        s = np.sqrt((1.0 - c) * (1.0 + c))
        theta = _angle(s, c)
        f = weights * np.divide(theta, s, out=np.ones_like(s), where=s > 1e-300)
        fc = np.einsum("bn,bn->b", f, c)
        total = (columns @ f[:, :, None])[..., 0] - fc[:, None] * x
        gradient = total - _dot(x, total) * x
        if not with_hessian:
            return gradient, None, None, None
        small = theta < 1e-2
        # An exactly antipodal record (s = 0, θ = π) has no logarithm and adds nothing (a_i = 0), as in the sum.
        a = np.divide(weights - f * c, s * s, out=np.zeros_like(s), where=~small & (s > 0))
        a[small] = weights[small] * (1.0 / 3.0 + (2.0 / 15.0) * theta[small] ** 2)
        ac = a * c
        b = (columns @ ac[:, :, None])[..., 0]
        outer = x[:, :, None] * x[:, None, :]
        hessian = ((columns * a[:, None, :]) @ np.swapaxes(columns, 1, 2)
                   - x[:, :, None] * b[:, None, :] - b[:, :, None] * x[:, None, :]
                   + (np.einsum("bn,bn->b", ac, c) + 1.0 - fc)[:, None, None] * outer
                   + fc[:, None, None] * np.eye(columns.shape[1]))
        value = 0.5 * np.einsum("bn,bn->b", weights, theta * theta)
        return gradient, hessian, fc, value

    def log_sum_points(self, points) -> PointColumns:
        """``points`` ``(B, n, d + 1)`` coordinate-major (``PointColumns``), read by every pass of an iterative mean."""
        return PointColumns.of(points)

    def weighted_log_sum(self, x, points, weights) -> np.ndarray:
        """Σ_i w_i Log_x(p_i) in one pass over the points (``_frechet_sums``), the Fréchet-mean hot path."""
        return self._frechet_sums(x, points, weights, with_hessian=False)[0]

    def frechet_newton_step(self, x, points, weights) -> tuple[np.ndarray, np.ndarray]:
        """Newton step H⁻¹ Σ_i w_i Log_x(p_i) ``(B, d + 1)`` and F(x) = ½ Σ_i w_i θ_i² ``(B,)``, weights >= 0.

        The Hessian of ½ρ²(·, p) on the unit sphere is u uᵀ + θ cot θ (P_x − u uᵀ), u the unit direction of
        Log_x(p) and P_x the projection onto T_xS^d (Pennec, *Hessian of the Riemannian squared distance*, 2017),
        so with p_i − c_i x = sin θ_i u_i and a_i = w_i (1 − θ_i cot θ_i)/sin²θ_i = (w_i − f_i c_i)/s_i²
        (1/3 + 2θ²/15 + O(θ⁴) times w_i for θ < 0.01, where the difference loses its digits):
            H = h P_x + Σ_i a_i (p_i − c_i x)(p_i − c_i x)ᵀ,   h = Σ_i w_i θ_i cot θ_i = Σ_i f_i c_i.
        Since 1 − θ cot θ >= 0, H ⪰ h P_x: H is positive definite on T_xS^d where h > 0. Where h <= 0 (records
        beyond a quarter circle outweigh the rest) the step is the gradient itself (t = 1), a descent direction
        the safeguard of ``frechet_mean`` can shorten. H + x xᵀ is solved in R^{d+1}: x is its eigenvector of
        eigenvalue 1, so the solution for a tangent right-hand side is tangent. Not the default iteration
        (``frechet_step`` stays t = 1): from the centroid it needs 2 steps where t = 1 needs 4.4, but 1,000 caps of
        radius π/8 × 100 to tol 1e-10 took 17 ms against 7.4 ms, the Hessian's temporaries costing more than the
        steps saved; ``frechet_mean`` restarts a data set with it where t = 1 overshoots or runs out of steps.
        """
        gradient, hessian, h, value = self._frechet_sums(x, points, weights, with_hessian=True)
        newton = np.linalg.solve(hessian, gradient[..., None])[..., 0]
        return np.where((h > 0)[:, None], self.to_tangent(x, newton), gradient), value

    def frechet_start(self, points, weights) -> np.ndarray:
        """Σ_i w_i x_i / |Σ_i w_i x_i|, within O(r³) of the Fréchet mean of data in a cap of radius r (1,000 caps of
        radius π/8 × 100 to tol 1e-10 by t = 1: 4.4 steps on average against 6.0 from the first record); the first
        record where the centroid is within 1e-8 of 0 (e.g. antipodal pairs) and has no direction."""
        points = np.asarray(points, dtype=float)
        centroid = (np.asarray(weights, dtype=float)[:, None, :] @ points)[:, 0]
        length = np.sqrt(_dot(centroid, centroid))
        return np.where(length > 1e-8, centroid / np.maximum(length, 1e-300), points[:, 0])

    def farthest_distance(self, x, points, weights) -> np.ndarray:
        """ρ decreases with <x, p>: the record of smallest inner product is the farthest, and only its distance
        is computed (the Fréchet mean's uniqueness check took a third of a tight mean's time with every distance)."""
        x = np.asarray(x, dtype=float)
        points = np.asarray(points, dtype=float)
        inner = np.where(np.asarray(weights) != 0, (points @ x[:, :, None])[..., 0], np.inf)
        return self.dist(x, points[np.arange(len(x)), np.argmin(inner, axis=1)])

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """Transport of v ∈ T_xS^d along the minimising geodesic: the rotation by θ = ρ(x, y) in the
        plane (x, e), P v = v − <e, v>((1 − cos θ) e + sin θ x).

        e is the unit direction of u = y − c x, c = <x, y> (as in ``log``); sin θ = |u|/r and
        cos θ = c/r with r = √(|u|² + c²), and 1 − cos θ = |u|²/(r(r + c)) when c > 0, so every factor
        keeps its relative accuracy. The textbook v − <y, v>/(1 + <x, y>)(x + y) divides by
        1 + <x, y> ≈ 0 near the antipode (error ~eps/δ², inf at δ ≈ 1e−8 from −x); going through θ
        itself loses eps·π/δ there. ``ValueError`` for exactly antipodal x, y, where the minimising
        geodesic is not unique.
        """
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        _, u, s = self._angle_and_residual(x, y)
        c = _dot(x, np.asarray(y, dtype=float))
        antipodal = (s[..., 0] == 0) & (c[..., 0] < 0)
        if np.any(antipodal):
            first = tuple(int(i) for i in np.argwhere(antipodal)[0])
            raise ValueError(
                f"parallel transport between antipodal points (at index {first}) is not defined: "
                "the minimising geodesic is not unique"
            )
        r = np.sqrt(s * s + c * c)
        one_minus_cos = np.where(c > 0, s * s / (r * (r + np.abs(c))), (r - c) / r)
        # Coincident points (s = 0) need no direction: both factors of e vanish there.
        e = u / np.where(s > 0, s, 1.0)
        return v - _dot(e, v) * (one_minus_cos * e + (s / r) * x)

    def tangent_basis(self, x) -> np.ndarray:
        """Rows 1..d of a Householder reflection H with H e_0 = ±x (orthonormal, ⟂ x)."""
        x = np.asarray(x, dtype=float)
        sign = np.where(x[..., :1] >= 0, 1.0, -1.0)
        e0 = np.zeros(self.dim + 1)
        e0[0] = 1.0
        # w = x + sign·e0 has |w|² = 2 + 2|x_0| >= 2, so the reflection is well conditioned.
        w = x + sign * e0
        h = np.eye(self.dim + 1) - 2.0 * w[..., :, None] * w[..., None, :] / np.sum(w * w, axis=-1)[..., None, None]
        return h[..., 1:, :]

    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        rng = np.random.default_rng(rng)
        x = np.asarray(x, dtype=float)
        v = self.to_tangent(x, rng.standard_normal(x.shape))
        return v / np.linalg.norm(v, axis=-1, keepdims=True)

    def random_step(self, x, length, rng=None) -> np.ndarray:
        """Exp_x(t·u) = cos t · x + sin t · u for u uniform on the unit sphere of T_xS^d and t = ``length``
        ``(...)``: the generic route's law (same draws from ``rng``) without recomputing |t·u| and sinc."""
        x = np.asarray(x, dtype=float)
        t = np.asarray(length, dtype=float)[..., None]
        y = np.cos(t) * x + np.sin(t) * self.random_unit_tangent(x, rng)
        return y / np.sqrt(_dot(y, y))

    def to_ambient(self, x) -> np.ndarray:
        return np.asarray(x, dtype=float)

    def from_ambient(self, a) -> np.ndarray:
        return np.asarray(a, dtype=float)

    def random_point(self, n: int, rng=None) -> np.ndarray:
        g = np.random.default_rng(rng).standard_normal((check_int("n", n), self.dim + 1))
        return g / np.linalg.norm(g, axis=-1, keepdims=True)

    def polar_point(self, polar, azimuth) -> np.ndarray:
        """S^2 point at polar angle (from the north pole) and azimuth, shape ``(..., 3)``."""
        if self.dim != 2:
            raise ValueError(f"polar_point needs Sphere(2), got {self.name}")
        polar, azimuth = np.broadcast_arrays(np.asarray(polar, dtype=float), np.asarray(azimuth, dtype=float))
        return np.stack([np.sin(polar) * np.cos(azimuth), np.sin(polar) * np.sin(azimuth), np.cos(polar)], axis=-1)
