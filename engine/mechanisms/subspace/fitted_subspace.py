"""The subspace fitted to Algorithm 1's members, and a bound on how far a neighbour's fit can lie from it.

Fit. The members M (m × d, the points the search placed in the leader U) are scaled to unit rows,
x̄_i = x_i/‖x_i‖ (zero rows dropped: they lie in every subspace), which keeps their span, and the basis
spans the top-k right singular vectors of M̄, computed by ``REFINEMENTS`` steps of subspace
iteration V ← orth(M̄ᵀ orth(M̄ V)) from the search's basis (Golub & Van Loan 2013, §8.2.4 and §8.6) in
``np.longdouble`` (64-bit significand on x86; double where the platform has no wider type). Each
orthonormalisation is Gram–Schmidt twice, backward stable (Higham 2002, ch. 19); the result is
closer to a neighbour's fit than LAPACK's SVD in double, and much closer than the old one step
MᵀM B in double, which squares the condition number (measured: ``docs/subspaces.md``).

Bound (a posteriori, from computable quantities only). Let W be the basis orthonormalised in
extended precision (the released coordinates use it: ``representation``) and C̄ = M̄ without one row. Wedin's sin Θ theorem (Wedin 1972; Stewart & Sun 1990, Thm
V.4.4) applied to Ã = C̄ and A = C̄ WWᵀ (rank k, row space span W, σ_{k+1}(A) = 0) gives for the top-k
right singular subspace V_C of C̄

    ‖P_W − P_{V_C}‖₂ = ‖sin Θ(W, V_C)‖₂ <= ‖C̄ (I − WWᵀ)‖₂ / σ_k(C̄) <= ‖M̄ (I − WWᵀ)‖_F / s_k,

    s_k² = min_i λ_min(Wᵀ M̄ᵀ M̄ W − z_i z_iᵀ),   z_i = Wᵀ x̄_i,

since removing a row does not increase ‖·(I − WWᵀ)‖ and σ_k(C̄)² >= λ_min(Wᵀ C̄ᵀC̄ W) (Courant–Fischer,
whichever row i is removed). WWᵀ is within ‖WᵀW − I‖₂ of P_W (about 1e-19 in extended precision).
So

    b(D) = ‖WᵀW − I‖_F + ‖M̄ (I − WWᵀ)‖_F / s_k    bounds ‖WWᵀ − P_{V_C}‖₂ for every C.

The numerator is the residual of the rows off the fitted basis: it holds the floating-point error of
the SVD (backward error times σ₁/σ_k: Davis & Kahan 1970 for the symmetric form) and any genuine
distance of the points from a k-subspace, so b is a bound on the whole difference, not an estimate of
the rounding alone. Two neighbouring data sets D, D′ whose members differ in the replaced record only
share C̄ = the other members, hence

    η = ‖WWᵀ − W′W′ᵀ‖₂ <= b(D) + b(D′).

The residual and s_k² are formed in ``np.longdouble``; the k × k eigenvalues are taken in double and
lowered by 8k·u·trace(WᵀM̄ᵀM̄W) (the backward error of ``eigvalsh``), so s_k is a lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Subspace-iteration steps in extended precision (each one product with M̄ and one with M̄ᵀ, never
#: M̄ᵀM̄, so the condition number is not squared); each shrinks the angle to the top-k subspace by
#: (σ_{k+1}/σ_k)².
REFINEMENTS = 2

#: Unit roundoff of double precision.
_UNIT = np.finfo(float).eps / 2


@dataclass(frozen=True)
class FittedSubspace:
    """``basis`` (d, k, ``np.longdouble``, orthonormal to its precision) fitted to the members,
    ``eta_bound`` b(D) of the module notes, and for messages (not private) the top-k singular values
    ``sigma`` of the unit-row members and ``distance``, their RMS distance ‖M̄ (I − WWᵀ)‖_F/√m from it."""

    basis: np.ndarray
    eta_bound: float
    sigma: np.ndarray
    distance: float


class RefusedRelease(ValueError):
    """The fit's bound on η is too large for the δ the mechanism keeps for the representation."""


def fit_subspace(members: np.ndarray, start: np.ndarray) -> FittedSubspace:
    """The top-k right singular subspace of the unit-scaled ``members`` (m, d), by subspace iteration
    from ``start`` (d, k; the search's basis), and the bound b(D) on its distance to the fit of the
    members without any one row (module notes)."""
    k = start.shape[1]
    norms = np.linalg.norm(members, axis=1)
    wide = (members[norms > 0] / norms[norms > 0, None]).astype(np.longdouble)
    basis = _orthonormal_columns(start.astype(np.longdouble))
    if wide.shape[0] <= k:
        return FittedSubspace(basis=basis, eta_bound=np.inf, sigma=np.zeros(k), distance=np.nan)
    for _ in range(REFINEMENTS):
        basis = _orthonormal_columns(wide.T @ _orthonormal_columns(wide @ basis))
    inside = wide @ basis                                                                # (m, k)
    gram = inside.T @ inside
    sigma = np.sqrt(np.maximum(np.linalg.eigvalsh(gram.astype(float))[::-1], 0.0))
    # Every row removed at once: gram − z_i z_iᵀ, (m, k, k); eigvalsh's backward error is below 8k·u·‖gram‖.
    without = gram[None] - inside[:, :, None] * inside[:, None, :]
    floor = np.linalg.eigvalsh(without.astype(float))[:, 0].min() - 8 * k * _UNIT * float(np.trace(gram))
    residual = float(np.sqrt(np.sum((wide - inside @ basis.T) ** 2)))
    loss = basis.T @ basis - np.eye(k, dtype=np.longdouble)
    bound = float(np.sqrt(np.sum(loss**2))) + residual / np.sqrt(floor) if floor > 0 else np.inf
    return FittedSubspace(basis=basis, eta_bound=bound, sigma=sigma, distance=residual / np.sqrt(wide.shape[0]))


def _orthonormal_columns(basis: np.ndarray) -> np.ndarray:
    """Modified Gram–Schmidt, twice (enough for nearly orthonormal columns), in the input's precision."""
    q = basis.copy()
    for _ in range(2):
        for j in range(q.shape[1]):
            for i in range(j):
                q[:, j] -= (q[:, i] @ q[:, j]) * q[:, i]
            q[:, j] /= np.sqrt(q[:, j] @ q[:, j])
    return q
