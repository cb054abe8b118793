"""Kendall's planar shape space Σ^k_2 ≅ CP^{k−2} with the Fubini–Study metric (curvature in [1, 4]).

A configuration of k planar landmarks is a ``(k, 2)`` array; its *pre-shape* is the configuration
centred (column means 0) and scaled to unit Frobenius norm. Two pre-shapes that differ by a rotation
about the origin are the same *shape*. Writing a pre-shape as a complex vector z = x + i y ∈ C^k,
rotations are the phases z ↦ e^{iφ} z, the pre-shapes form the unit sphere S^{2k−3} of the centred
hyperplane, and the quotient S^{2k−3}/U(1) is CP^{k−2}. The map pre-shape -> shape is a Riemannian
submersion, so the geometry of shapes is computed on pre-shapes restricted to the *horizontal* space

    H_z = {v ∈ C^k : Σ_j v_j = 0, <z, v> = 0},   <z, v> = Σ_j conj(z_j) v_j  (Hermitian),

i.e. the centred vectors orthogonal (in the real sense) to z and to the rotation direction i·z.

References: Kendall, Barden, Carne & Le, *Shape and Shape Theory* (1999), ch. 1 and 6; Kulkarni &
Soto, *Differentially private geodesic regression* (Kendall shape space, κ ∈ [1, 4] for k ≥ 4).
"""

from __future__ import annotations

import numpy as np

from engine.budget import check_memory
from engine.manifolds.base import Manifold
from engine.validation import check_finite_array, check_int


def _sinc(t: np.ndarray) -> np.ndarray:
    """sin(t)/t with the removable singularity at 0 filled in (np.sinc is sin(πx)/(πx))."""
    return np.sinc(t / np.pi)


def _complex(x) -> np.ndarray:
    """``(..., k, 2)`` real landmarks -> ``(..., k)`` complex numbers x + i y."""
    x = np.asarray(x, dtype=float)
    return x[..., 0] + 1j * x[..., 1]


def _real(z: np.ndarray) -> np.ndarray:
    """``(..., k)`` complex numbers -> ``(..., k, 2)`` real landmarks."""
    return np.stack([z.real, z.imag], axis=-1)


def _herm(z: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Hermitian product <z, w> = Σ_j conj(z_j) w_j over the last axis, kept as ``(..., 1)``."""
    return np.sum(np.conj(z) * w, axis=-1, keepdims=True)


def _helmert(k: int) -> np.ndarray:
    """Helmert sub-matrix, shape ``(k−1, k)``: orthonormal rows spanning the centred vectors.

    Row j (j = 1, ..., k−1) is (1, ..., 1, −j, 0, ..., 0)/sqrt(j(j+1)) with j leading ones.
    """
    j = np.arange(1, k)[:, None]
    col = np.arange(k)[None, :]
    rows = np.where(col < j, 1.0, np.where(col == j, -j.astype(float), 0.0))
    return rows / np.sqrt(j * (j + 1.0))


class Kendall(Manifold):
    """Planar shapes of ``k >= 3`` landmarks, represented by pre-shapes of shape ``(k, 2)``.

    With z, w the complex pre-shapes of x, y and φ = arg <z, w> (the rotation that best aligns y
    to x, ordinary Procrustes without scaling or reflection):

    - dist(x, y) = arccos |<z, w>| ∈ [0, π/2] (the full Procrustes distance), computed as
      atan2(|u|, |<z, w>|) with the residual u = e^{−iφ} w − |<z, w>| z;
    - log_x(y) = θ u/|u| with θ = dist(x, y): the pre-shape-sphere logarithm of the aligned y,
      horizontal at x itself;
    - exp_x(v) = cos|v| z + sin|v| v/|v| for horizontal v (horizontal great circles of the
      pre-shape sphere project to geodesics of the shape space).

    The metric is the quotient of the unit pre-shape sphere, the Fubini–Study metric of
    CP^{k−2} scaled so that sectional curvature K(X, Y) = 1 + 3 <X, iY>² ∈ [1, 4] for orthonormal
    horizontal X, Y; hence the injectivity radius and the diameter are π/2. For k = 3 the space is
    CP^1, a round sphere of radius 1/2, whose curvature is constantly 4, so ``kappa_min`` = 4 there.

    A mirror image is a different shape: no alignment in this class ever reflects.

    Parameters
    ----------
    k : int
        Number of landmarks, at least 3 (fewer landmarks have a single shape).
    """

    injectivity_radius = np.pi / 2
    homogeneous = True
    polar_volume = "complex-projective"
    diameter = np.pi / 2
    kappa_max = 4.0

    def __init__(self, k: int):
        self.k = check_int("k", k, minimum=3)
        # _helmert builds about four k × k arrays.
        check_memory(f"k = {self.k} landmarks (the {self.k - 1} × {self.k} Helmert matrix)", 4.0 * self.k**2,
                     fix="lower k")
        self.dim = 2 * (self.k - 2)
        self.point_shape = (self.k, 2)
        self.kappa_min = 1.0 if self.k >= 4 else 4.0
        self.name = f"Kendall({self.k})"
        self._helmert = _helmert(self.k)

    @property
    def origin(self) -> np.ndarray:
        """The regular k-gon z_j = exp(2πi j/k)/sqrt(k), shape ``(k, 2)``."""
        return _real(np.exp(2j * np.pi * np.arange(self.k) / self.k) / np.sqrt(self.k))

    # ----- pre-shapes ----------------------------------------------------------------------
    def _check_landmarks(self, landmarks, name: str) -> np.ndarray:
        arr = np.asarray(landmarks, dtype=float)
        if arr.ndim < 2 or arr.shape[-2:] != self.point_shape:
            raise ValueError(
                f"{name} must have trailing shape {self.point_shape} ({self.k} planar landmarks), "
                f"got shape {arr.shape}"
            )
        return check_finite_array(name, arr)

    def preshape(self, landmarks) -> np.ndarray:
        """Pre-shape of raw landmark coordinates: centred, unit Frobenius norm.

        Parameters
        ----------
        landmarks : array_like, shape ``(..., k, 2)``
            Landmark configurations (any location and scale).

        Returns
        -------
        ndarray, shape ``(..., k, 2)``
            (X − 1 x̄ᵀ)/‖X − 1 x̄ᵀ‖_F for each configuration X with centroid x̄.

        Raises
        ------
        ValueError
            On a wrong shape, a non-finite value, or a configuration whose landmarks all coincide
            (it has no shape); the message quotes the offending configuration.
        """
        return self.projection(self._check_landmarks(landmarks, "landmarks"))

    def align(self, x, y) -> np.ndarray:
        """``y`` moved onto ``x`` by ordinary Procrustes: translation and rotation, no scaling.

        The rotation is the phase φ = arg <z_x, z_y> of the centred configurations (complex
        notation), which maximises Re <z_x, e^{−iψ} z_y> over ψ; it is a proper rotation
        (determinant +1), never a reflection. The rotated ``y`` is translated to the centroid of
        ``x``, so for pre-shapes only the rotation acts. When <z_x, z_y> = 0 (shapes at the maximal
        distance π/2) every rotation is optimal and ``y`` is only translated.

        Parameters
        ----------
        x, y : array_like, shape ``(..., k, 2)``
            Reference and moving configurations (broadcast against each other).

        Returns
        -------
        ndarray, shape ``broadcast(x, y).shape``
        """
        x = self._check_landmarks(x, "x")
        y = self._check_landmarks(y, "y")
        cx = x.mean(axis=-2, keepdims=True)
        zx = _complex(x - cx)
        zy = _complex(y - y.mean(axis=-2, keepdims=True))
        phase = np.exp(-1j * np.angle(_herm(zx, zy)))
        return _real(phase * zy) + cx

    def belongs(self, x, atol: float = 1e-8) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        centred = np.all(np.abs(x.mean(axis=-2)) <= atol, axis=-1)
        unit = np.abs(np.linalg.norm(x, axis=(-2, -1)) - 1.0) <= atol
        return centred & unit

    def projection(self, x) -> np.ndarray:
        """Nearest pre-shape in the Frobenius norm: centre, then normalise (see ``preshape``)."""
        x = np.asarray(x, dtype=float)
        c = x - x.mean(axis=-2, keepdims=True)
        size = np.linalg.norm(c, axis=(-2, -1), keepdims=True)
        # Centring coincident landmarks leaves only rounding residue of order 1e-16·|x|, which
        # normalisation would blow up into an arbitrary shape; refuse it instead.
        degenerate = size[..., 0, 0] <= 1e-12 * np.linalg.norm(x, axis=(-2, -1))
        if degenerate.any():
            first = tuple(int(i) for i in np.argwhere(degenerate)[0])
            raise ValueError(
                f"landmarks all coincide (zero-size configuration has no shape) at index {first}: "
                f"{np.array2string(x[first], precision=4)}"
            )
        return c / size

    # ----- geometry ------------------------------------------------------------------------
    def to_tangent(self, x, v) -> np.ndarray:
        """Projection onto the horizontal space: centre v, then v − z <z, v> (complex form).

        Subtracting z <z, v> removes the real components along z and along i·z at once.
        """
        z = _complex(x)
        u = _complex(v)
        u = u - u.mean(axis=-1, keepdims=True)
        return _real(u - z * _herm(z, u))

    def exp(self, x, v) -> np.ndarray:
        """exp_x(v) = cos|v| x + sin|v| v/|v| for horizontal ``v`` (project with ``to_tangent``)."""
        x = np.asarray(x, dtype=float)
        v = np.asarray(v, dtype=float)
        t = np.linalg.norm(v, axis=(-2, -1), keepdims=True)
        y = np.cos(t) * x + _sinc(t) * v
        # Renormalise: rounding drifts |y| away from 1 after many steps of an optimiser.
        return y / np.linalg.norm(y, axis=(-2, -1), keepdims=True)

    def _aligned(self, x, y):
        """Complex z, the phase e^{iφ} of <z, w>, c = |<z, w>|, residual u and s = |u|.

        u = e^{−iφ} w − c z is horizontal at z, and |u| = sin dist(x, y) is computed from the
        difference of vectors, not as sqrt(1 − c²), which loses all digits for nearby shapes.
        """
        z = _complex(x)
        w = _complex(y)
        h = _herm(z, w)
        c = np.abs(h)
        phase = np.exp(1j * np.angle(h))
        u = w * np.conj(phase) - c * z
        s = np.linalg.norm(u, axis=-1, keepdims=True)
        return z, phase, c, u, s

    def log(self, x, y) -> np.ndarray:
        """Horizontal log_x(y) = θ u/|u|, θ = atan2(|u|, c) (see the class docstring).

        At the cut locus (<z, w> = 0, distance π/2) the logarithm is not unique; the returned
        vector is one of the minimising directions.
        """
        _, _, c, u, s = self._aligned(x, y)
        theta = np.arctan2(s, c)
        # θ/sin θ -> 1 as s -> 0; guard the division for points of the same shape.
        factor = np.where(s > 1e-300, theta / np.maximum(s, 1e-300), 1.0)
        return _real(factor * u)

    def dist(self, x, y) -> np.ndarray:
        """Full Procrustes distance arccos |<z, w>|, evaluated as atan2(|u|, |<z, w>|).

        The atan2 form is accurate near 0 (where arccos of a number close to 1 loses half the
        digits) and needs no clipping when rounding pushes |<z, w>| slightly above 1.
        """
        _, _, c, _, s = self._aligned(x, y)
        return np.arctan2(s, c)[..., 0]

    def parallel_transport(self, x, y, v) -> np.ndarray:
        """Levi-Civita transport of horizontal ``v`` from [x] to [y] along the minimising geodesic.

        With w' = e^{−iφ} w the representative of y aligned to x and c = |<z, w>|, the transport
        to the horizontal space at w' is the complex-linear analogue of the sphere formula

            P v = v − <w', v>/(1 + c) · (z + w'),

        which keeps the component of v complex-orthogonal to the geodesic's complex line fixed and
        rotates the complex component along the unit direction ξ (velocity of the horizontal lift
        γ(t) = cos t z + sin t ξ) into the velocity γ'(θ): both ξ and i·ξ turn by the angle θ in
        their planes. (The sphere transport would leave i·ξ fixed, which is not horizontal at w'.)
        The derivation: a horizontal field X along γ is parallel in CP^m iff X' ∈ span_R(γ, iγ)
        (O'Neill's formula for the Riemannian submersion S^{2k−3} -> CP^{k−2}); the fields ξ-part
        a·γ' + b·iγ' with constant real a, b and a constant complex-orthogonal part solve it.
        The result is finally rotated by e^{iφ} so that it is horizontal at ``y`` as given (the
        fibre rotation maps horizontal lifts of the same tangent vector onto each other).

        Parameters
        ----------
        x, y : array_like, shape ``(..., k, 2)``
            Pre-shapes; [y] must not be on the cut locus of [x] (distance < π/2).
        v : array_like, shape ``(..., k, 2)``
            Horizontal vector at ``x``.

        Returns
        -------
        ndarray, shape ``(..., k, 2)``
            Horizontal vector at ``y``.
        """
        z, phase, c, u, _ = self._aligned(x, y)
        w_aligned = c * z + u
        nu = _complex(v)
        moved = nu - _herm(w_aligned, nu) / (1.0 + c) * (z + w_aligned)
        return _real(phase * moved)

    def complex_structure(self, v) -> np.ndarray:
        """The complex structure J v = i·v, ``(..., k, 2)`` -> ``(..., k, 2)``: (a, b) ↦ (−b, a) per landmark.

        J maps horizontal vectors to horizontal vectors and is parallel (CP^{k−2} is Kähler); along a
        geodesic with velocity γ' the curvature operator has eigenvalue 4 on Jγ' and 1 on the directions
        complex-orthogonal to γ' (used by the adjoint Jacobi fields of geodesic regression).
        """
        v = np.asarray(v, dtype=float)
        return np.stack([-v[..., 1], v[..., 0]], axis=-1)

    def tangent_basis(self, x) -> np.ndarray:
        """Orthonormal basis of the horizontal space, shape ``(..., 2(k−2), k, 2)``.

        In Helmert coordinates ζ = H z ∈ C^{k−1} (H the Helmert sub-matrix, an isometry of the
        centred vectors onto C^{k−1}), the complex Householder reflection Q = I − 2 q q^H/|q|²
        with q = ζ + e^{i arg ζ_0} e_0 maps e_0 to a multiple of ζ, so its columns e_1..e_{k−2}
        are a complex orthonormal basis b_j of ζ^⊥. The real basis is (Hᵀb_1, ..., Hᵀb_{k−2},
        i Hᵀb_1, ..., i Hᵀb_{k−2}).
        """
        zeta = _complex(x) @ self._helmert.T
        head = np.exp(1j * np.angle(zeta[..., :1]))
        # |q|² = 2 + 2|ζ_0| >= 2 because the phase of e_0 matches ζ_0, so Q is well conditioned.
        q = zeta + head * np.eye(self.k - 1)[0]
        q_norm2 = np.sum(np.abs(q) ** 2, axis=-1)[..., None, None]
        # Row j of b is column j of Q (j >= 1): e_j − 2 q conj(q_j)/|q|².
        b = np.eye(self.k - 1)[1:] - 2.0 * np.conj(q[..., 1:, None]) * q[..., None, :] / q_norm2
        b = b @ self._helmert
        return _real(np.concatenate([b, 1j * b], axis=-2))

    def random_unit_tangent(self, x, rng=None) -> np.ndarray:
        """Uniform horizontal direction: an isotropic Gaussian projected and normalised."""
        rng = np.random.default_rng(rng)
        x = np.asarray(x, dtype=float)
        v = self.to_tangent(x, rng.standard_normal(x.shape))
        return v / np.linalg.norm(v, axis=(-2, -1), keepdims=True)

    # ----- flat coordinates and sampling ---------------------------------------------------
    def ambient_ball_radius(self, radius, centre=None) -> np.ndarray:
        """The chord 2 sin(r/2) between aligned pre-shapes (``representative``).

        If d([x], [m]) = ρ, the representative w of x aligned to the pre-shape z of m has <z, w> = cos ρ
        real (the alignment's phase), so ‖w − z‖² = 2 − 2 cos ρ = 4 sin²(ρ/2), increasing on [0, π/2].
        The same holds around every reference m, not only the origin.
        """
        return 2.0 * np.sin(np.minimum(np.asarray(radius, dtype=float), self.diameter) / 2.0)

    def representative(self, x, reference) -> np.ndarray:
        """The pre-shape of each ``x`` rotated onto the public ``reference`` (``align``), ``(..., k, 2)``.

        A shape is a pre-shape up to rotation, so a release or a flat coordinate needs a rotation fixed by
        public data: per point and data-independent, it keeps the ambient mean's sensitivity 2 r_E/n and
        leaves a release no record's own orientation. ``ValueError`` without a reference.
        """
        if reference is None:
            raise ValueError(f"a representative of {self.name} needs a public reference shape to rotate onto "
                             "(the centre m0): pass reference=m0")
        return self.align(reference, x)

    def random_representative(self, x, rng=None) -> np.ndarray:
        """Each pre-shape of ``x`` rotated by its own uniform angle: the same shapes."""
        x = np.asarray(x, dtype=float)
        angle = np.random.default_rng(rng).uniform(0.0, 2.0 * np.pi, x.shape[:-2])
        return _real(np.exp(1j * angle)[..., None] * _complex(x))

    def to_ambient(self, x) -> np.ndarray:
        """Helmert coordinates of the centred configuration, ``(..., k, 2)`` -> ``(..., 2k − 2)``:
        H x flattened (H the Helmert sub-matrix), an isometry of the centred configurations onto
        R^{2k−2} ≅ C^{k−1}, the smallest flat space holding the pre-shapes.

        These coordinates are not rotation invariant: rotate each pre-shape onto a public reference
        first (``representative``) for a Euclidean baseline.
        """
        x = np.asarray(x, dtype=float)
        return (self._helmert @ x).reshape(x.shape[:-2] + (2 * self.k - 2,))

    def from_ambient(self, a) -> np.ndarray:
        """Inverse of ``to_ambient`` on centred configurations: ``(..., 2k − 2)`` -> Hᵀ a, a centred
        ``(..., k, 2)`` (not normalised: off the pre-shape sphere unless |a| = 1)."""
        a = np.asarray(a, dtype=float)
        if a.ndim < 1 or a.shape[-1] != 2 * self.k - 2:
            raise ValueError(f"ambient coordinates of {self.name} must end in {2 * self.k - 2}, got shape {a.shape}")
        return self._helmert.T @ a.reshape(a.shape[:-1] + (self.k - 1, 2))

    def random_point(self, n: int, rng=None) -> np.ndarray:
        """Pre-shapes of i.i.d. standard Gaussian landmarks, shape ``(n, k, 2)``.

        Their shapes are uniform on CP^{k−2} (the centred Gaussian is U(1)-invariant and
        isotropic on the centred hyperplane).
        """
        g = np.random.default_rng(rng).standard_normal((check_int("n", n), self.k, 2))
        return self.projection(g)
