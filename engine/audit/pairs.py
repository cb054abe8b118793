"""Neighbouring data sets for an audit: the adversarial replace-one pair built from public facts.

An audit needs two data sets D, D' of the same size n that differ in one record (replace-one
relation, as every mechanism of the engine assumes). The adversary knows only the public data
domain, the ball B_r(m0), and n, and places the records to push the two summaries apart:

* ``"collinear"``: D holds n copies of p = Exp_{m0}(r u), D' replaces one by q = Exp_{m0}(−r u).
  The Fréchet means are 2r/n apart on a flat or a Hadamard space along a flat direction (Theorem 2
  is attained there) and the ambient means (e^r − e^{−r})/n apart on SPD(k) for u = E_11 (the pair
  of issue 19: ten copies of diag(e^r, 1) against one diag(e^{−r}, 1)).
* ``"orthogonal"``: the other n − 1 records sit half at Exp_{m0}(±r u) and the moved record goes
  from Exp_{m0}(r w) to Exp_{m0}(−r w), w ⊥ u. Positive curvature makes F flatter across u
  (Hessian r·cot r < 1 there), so this pair moves the mean further than 2r/n on the sphere.
* ``"auto"``: whichever of the two moves the released summary further (by default the Fréchet
  mean in the intrinsic distance; ``gap`` chooses another measure); ties go to ``"collinear"``.

The direction u is the tangent basis vector at m0 whose two endpoints lie furthest apart in the
ambient coordinates (E_11 on SPD; any on isotropic spaces), w the next one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.estimators.frechet_mean import frechet_mean
from engine.validation import check_int, check_positive

SHAPES = ("auto", "collinear", "orthogonal")
# The audit needs the summaries to far better accuracy than the default tolerance of the solver.
MEAN_TOL = 1e-12
MEAN_MAX_ITER = 20_000


@dataclass(frozen=True)
class NeighbouringPair:
    """Two data sets of the same size that differ in exactly one record.

    Attributes
    ----------
    manifold : Manifold
    first, second : ndarray, shape ``(n, *point_shape)``
    description : str
        How the pair was built (shown beside the audit).
    """

    manifold: object
    first: np.ndarray
    second: np.ndarray
    description: str = "user-given pair"

    def __post_init__(self):
        m = self.manifold
        a = m.check_points(self.first, "first")
        b = m.check_points(self.second, "second")
        if a.ndim != m.point_ndim + 1 or a.shape != b.shape:
            raise ValueError(
                f"first and second must both have shape (n, *{m.point_shape}), got {a.shape} and {b.shape}"
            )
        differ = np.any(np.abs(a - b).reshape(len(a), -1) > 0, axis=1)
        if differ.sum() != 1:
            raise ValueError(f"a neighbouring pair differs in exactly one record, these differ in {int(differ.sum())}")
        object.__setattr__(self, "first", a)
        object.__setattr__(self, "second", b)

    @property
    def n(self) -> int:
        return len(self.first)

    def frechet_means(self) -> tuple[np.ndarray, np.ndarray]:
        """The Fréchet means of both data sets, solved to ``MEAN_TOL``."""
        both = np.stack([self.first, self.second])
        means = frechet_mean(self.manifold, both, tol=MEAN_TOL, max_iter=MEAN_MAX_ITER).mean
        return means[0], means[1]

    def ambient_means(self) -> tuple[np.ndarray, np.ndarray]:
        """The arithmetic means of both data sets in ``manifold.to_ambient`` coordinates, shape ``(D,)``."""
        m = self.manifold
        return m.to_ambient(self.first).mean(axis=0), m.to_ambient(self.second).mean(axis=0)


def _directions(manifold, center, radius):
    """Tangent basis at ``center`` ordered by the ambient distance between Exp(±r e_i)."""
    basis = manifold.tangent_basis(center)
    ends = manifold.exp(np.broadcast_to(center, basis.shape), radius * basis)
    starts = manifold.exp(np.broadcast_to(center, basis.shape), -radius * basis)
    spread = np.linalg.norm(manifold.to_ambient(ends) - manifold.to_ambient(starts), axis=-1)
    return basis[np.argsort(-spread, kind="stable")]


def frechet_gap(pair: NeighbouringPair) -> float:
    """ρ(f(D), f(D')) for the Fréchet means f."""
    return float(pair.manifold.dist(*pair.frechet_means()))


def ambient_gap(pair: NeighbouringPair) -> float:
    """‖ā − ā'‖ for the ambient (arithmetic) means ā in ``to_ambient`` coordinates."""
    a, b = pair.ambient_means()
    return float(np.linalg.norm(a - b))


def ambient_frechet_gap(pair: NeighbouringPair) -> float:
    """‖to_ambient(f(D)) − to_ambient(f(D'))‖ for the Fréchet means f."""
    a, b = pair.frechet_means()
    return float(np.linalg.norm(pair.manifold.to_ambient(a) - pair.manifold.to_ambient(b)))


def replace_one_pair(manifold, n, radius, *, center=None, shape: str = "auto", gap=frechet_gap) -> NeighbouringPair:
    """The adversarial replace-one pair for data in B_r(center) with n records (module notes).

    Parameters
    ----------
    manifold : Manifold
    n : int >= 2
    radius : float > 0, the public radius r (records lie on the sphere of radius r).
    center : point, optional; the public centre m0 (default ``manifold.origin``).
    shape : {"auto", "collinear", "orthogonal"}
    gap : callable ``NeighbouringPair -> float``
        How far apart ``"auto"`` measures the summaries (default ``frechet_gap``).

    Returns
    -------
    NeighbouringPair
    """
    n = check_int("n", n, minimum=2)
    r = check_positive("radius", radius)
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {SHAPES}, got {shape!r}")
    m0 = manifold.origin if center is None else manifold.check_points(center, "center")
    dirs = _directions(manifold, m0, r)
    u = dirs[0]
    plus, minus = manifold.exp(m0, r * u), manifold.exp(m0, -r * u)
    candidates = []
    if shape in ("auto", "collinear"):
        first = np.broadcast_to(plus, (n,) + manifold.point_shape).copy()
        second = first.copy()
        second[-1] = minus
        candidates.append(NeighbouringPair(
            manifold, first, second,
            f"collinear: {n} records at Exp_m0(r u), one moved to Exp_m0(-r u), r = {r:g}"))
    if shape in ("auto", "orthogonal") and len(dirs) >= 2:
        w = dirs[1]
        others = np.stack([plus if i % 2 == 0 else minus for i in range(n - 1)])
        first = np.concatenate([others, manifold.exp(m0, r * w)[None]])
        second = np.concatenate([others, manifold.exp(m0, -r * w)[None]])
        candidates.append(NeighbouringPair(
            manifold, first, second,
            f"orthogonal: {n - 1} records at Exp_m0(+-r u), one moved from Exp_m0(r w) to Exp_m0(-r w), "
            f"w orthogonal to u, r = {r:g}"))
    if not candidates:
        raise ValueError(f"shape 'orthogonal' needs a space of dimension >= 2, got {manifold.name}")
    gaps = [gap(pair) for pair in candidates]
    # A relative margin keeps rounding-level differences from deciding.
    return candidates[-1] if gaps[-1] > gaps[0] * (1 + 1e-6) else candidates[0]
