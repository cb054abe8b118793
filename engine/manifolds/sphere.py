"""The unit sphere S^d ⊂ R^{d+1} with the round metric (sectional curvature 1)."""

from __future__ import annotations

import numpy as np

from engine.manifolds.base import Manifold
from engine.validation import check_int


def _dot(a, b) -> np.ndarray:
    """Batched inner product over the last axis, keeping it (einsum is ~8× faster than sum(a*b))."""
    return np.einsum("...i,...i->...", a, b)[..., None]


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
        return np.arctan2(s, c), u, s

    def log(self, x, y) -> np.ndarray:
        theta, u, s = self._angle_and_residual(x, y)
        # θ/sin θ -> 1 as s -> 0; guard the division for coincident points. For exactly antipodal
        # points the logarithm is not unique and u = 0, so the zero vector is returned.
        factor = np.where(s > 1e-300, theta / np.maximum(s, 1e-300), 1.0)
        return factor * u

    def dist(self, x, y) -> np.ndarray:
        return self._angle_and_residual(x, y)[0][..., 0]

    def weighted_log_sum(self, x, points, weights) -> np.ndarray:
        """Σ_i w_i θ_i/sin θ_i (p_i − cos θ_i x) = Σ_i f_i p_i − (Σ_i f_i cos θ_i) x, f_i = w_i θ_i/sin θ_i.

        Needs one pass over the points instead of a full log each (the Fréchet-mean hot path).
        sin θ = √((1 − c)(1 + c)) loses digits for tiny θ, but θ/sin θ = 1 + θ²/6 + … does not.
        """
        x = np.asarray(x, dtype=float)
        points = np.asarray(points, dtype=float)
        # A batched matrix-vector product: about 3× faster than the equivalent einsum on 1,000 × 100 points.
        c = np.clip((points @ x[:, :, None])[..., 0], -1.0, 1.0)
        s = np.sqrt((1.0 - c) * (1.0 + c))
        ratio = np.where(s > 1e-300, np.arctan2(s, c) / np.maximum(s, 1e-300), 1.0)
        f = np.asarray(weights, dtype=float) * ratio
        total = (f[:, None, :] @ points)[:, 0] - np.einsum("bn,bn->b", f, c)[:, None] * x
        return self.to_tangent(x, total)

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
