"""Deliberately broken mechanisms: the positive controls an audit must flag.

Each reproduces a mistake seen in practice; none is used anywhere but in the audit.
"""

from __future__ import annotations

import numpy as np

from engine.bounds import curvature_factor
from engine.mechanisms.laplace import RiemannianLaplace
from engine.mechanisms.protocol import Release
from engine.mechanisms.subspace import ExactSubspace
from engine.mechanisms.subspace.release import bottom_bases
from engine.validation import check_positive, check_probability


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

    #: What the defect leaves of one release (``AuditTarget.unseen_by_curve``).
    UNSEEN_BY_CURVE = ("One release of this sampler follows the right Laplace law, and only repeated releases "
                       "show that every call returns the same noise, so a curve of single releases cannot fall "
                       "below the claim; the ε bound above sees the repeats.")

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


class SearchBasisExactSubspace(ExactSubspace):
    """Algorithm 1 releasing the basis its search built (the release of issue 29).

    The choice of U against ⊥ is the private one, but the greedy search makes ±x_c/‖x_c‖ of the
    first record c it picks the first column of its basis: the release names a record.
    """

    def represent(self, basis, members, data, chosen, rng) -> np.ndarray:
        """The search's ``basis`` where ``chosen``, all NaN (⊥) elsewhere."""
        bases = bottom_bases(chosen.shape, data.shape[1], self.k)
        if chosen.any():
            bases[chosen] = basis
        return bases


def halved_bound_delta(epsilon, delta) -> float:
    """The δ' at which the truncated Laplace bound A = (Δ/ε) ln(1 + (e^ε − 1)/(2δ)) is half that at δ.

    δ' = (e^ε − 1) / (2 (√(1 + (e^ε − 1)/(2δ)) − 1)), about √(δ (e^ε − 1)/2) for small δ: Algorithm 1
    run at δ' is Algorithm 1 with A halved (and q⊥ computed from the halved A), a mistaken bound.
    """
    growth = np.expm1(check_positive("epsilon", epsilon))
    return float(growth / (2.0 * np.expm1(0.5 * np.log1p(growth / (2.0 * check_probability("delta", delta))))))
