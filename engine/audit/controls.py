"""Deliberately broken mechanisms: the positive controls an audit must flag.

Each reproduces a mistake seen in practice; none is used anywhere but in the audit.
"""

from __future__ import annotations

import numpy as np

from engine.bounds import curvature_factor
from engine.mechanisms.laplace import RiemannianLaplace
from engine.mechanisms.protocol import Release


def theorem2_without_factor(n, radius, kappa_max) -> float:
    """Theorem 2 with the factor (2 − h) dropped: 2r/(n h), h = h(r, κ) (a mistaken bound).

    It understates Reimherr et al.'s 2r(2 − h)/(n h) by 1/(2 − h) (0.82 at r = π/8 on S²); on
    spaces with κ <= 0, h = 1 and the two agree.
    """
    h = float(curvature_factor(radius, kappa_max))
    return 2.0 * float(radius) / (float(n) * h)


class ReusedRandomnessLaplace:
    """Riemannian Laplace whose sampler ignores ``rng`` and reseeds the same generator at every call.

    The marginal law of one release is right, but every call returns the same noise: the release
    is a deterministic function of the data, so no ε holds (repeated releases, or an adversary
    who knows the seed, recover f(D) exactly). Models a sampler that keeps a module-level seed.
    """

    def __init__(self, *, manifold, epsilon, sensitivity, seed: int = 0):
        self.inner = RiemannianLaplace(manifold=manifold, epsilon=epsilon, sensitivity=sensitivity)
        self.sigma = self.inner.sigma
        self.footpoint_dependent = self.inner.footpoint_dependent
        self.seed = int(seed)

    def release(self, footpoint, *, size=None, rng=None) -> Release:
        """Releases around ``footpoint``; ``rng`` is ignored (the defect)."""
        return self.inner.release(footpoint, size=size, rng=np.random.default_rng(self.seed))

    def privacy_guarantee(self):
        return self.inner.privacy_guarantee()
