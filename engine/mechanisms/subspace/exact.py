"""Algorithm 1 of Singhal & Steinke (2021): the exact subspace, privately, or ⊥.

Setting (Problem 3.1). Data x_1..x_n in R^d such that (i) all but at most ℓ points lie in one
k-subspace U and (ii) every subspace of dimension < k holds at most ℓ points. Points in general
position inside U plus o arbitrary outliers satisfy both with ℓ = o + k − 1.

Score (Section 3). For a subspace S, q(x, S) = |x ∩ S| − max_{T ⊊ S} |x ∩ T| (the max is over
the (k − 1)-subspaces of S). It has sensitivity 1 (Lemma 3.3) and, under Problem 3.1,
q(x, U) >= n − 2ℓ while q(x, V) <= ℓ for every other k-subspace V (Lemma 3.4). Only subspaces
spanned by data points can score above 0.

Selection. ``stable_selection`` with ⊥'s public score q⊥ (Bun, Dwork, Rothblum & Steinke 2018):
U is output with probability one when q(U) − max(q(V), q⊥) − 1 > 2A, A = (2/ε) ln(1 +
(e^ε − 1)/(2δ_sel)) the bound of the truncated Laplace noise for sensitivity 2 (δ_sel below). This
code sets

    q⊥ = n − 2ℓ − ⌊2A⌋ − 2,

the largest public value that keeps Theorem 3.2's guarantee: with q(U) >= n − 2ℓ the margin is
⌊2A⌋ + 1 > 2A as soon as q⊥ >= ℓ, i.e. for

    n >= n_min = 3ℓ + ⌊2A⌋ + 2          (Theorem 3.2: n = O(ℓ + log(1/δ)/ε); optimal by Thm 3.6).

A high q⊥ only prunes: subspaces with fewer than q⊥ + 1 points can be neither the leader nor matter
as runner-up, so the search of ``exact_search`` needs a skip budget of 2ℓ + ⌊2A⌋ + 1 only.
Malformed data (no subspace with a clear lead) give ⊥. The choice between U and ⊥ is (ε, δ)-DP for
replace-one neighbours, for every input. What leaves the mechanism is not the search's basis (its
first column is a record) but ``representation.public_basis`` of the subspace fitted to all its
points (``fitted_subspace``): a function of U and public randomness up to the difference η between
the fits of two neighbours, which it bounds by b(D) + b(D′).

Budget. The selection runs at δ_sel = δ − δ_rep with δ_rep = δ/20 (``REPRESENTATION_SHARE``), and a
leader is released only when its fit has 2k √(4kd/π)·2b(D)/g <= δ_rep. Two accepted neighbours whose
members differ in the replaced record only then have η <= b(D) + b(D′) and, under the same public G
and offset, release different coordinates with probability at most δ_rep; so for every event S,
P[M(D) ∈ S] <= P[M̃(D) ∈ S] + δ_rep <= e^ε P[M(D′) ∈ S] + δ_sel + δ_rep, M̃(D) the selection on D
followed by D′'s representation (post-processing of the selection): the printed (ε, δ) holds.
Otherwise ``release`` raises ``RefusedRelease`` (a ``ValueError``) before drawing anything. That
check is computed from the data and is not private: whether a data set is refused is a function of
it, so the guarantee is between neighbouring data sets that are both accepted (each one's own check
bounds its own b), and a curator who publishes a refusal publishes one non-private bit.
"""

from __future__ import annotations

import math

import numpy as np

from engine.budget import check_memory
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.subspace.exact_search import find_dense_subspaces, max_points_in_hyperplane
from engine.mechanisms.subspace.fitted_subspace import RefusedRelease, fit_subspace
from engine.mechanisms.subspace.release import SubspaceRelease, batch_shape, bottom_bases, check_data
from engine.mechanisms.subspace.representation import BASIS_GRID, delta_term, public_basis
from engine.mechanisms.subspace.stable_selection import GAP_SENSITIVITY, stable_select
from engine.mechanisms.subspace.truncated_laplace import truncated_laplace_bound
from engine.validation import check_int, check_positive, check_probability

#: Share of δ reserved for the representation (the rest goes to the stable selection); 1/20 keeps
#: n_min = 59 at k = 2, ε = 1, δ = 1e-6.
REPRESENTATION_SHARE = 1.0 / 20.0


class ExactSubspace:
    """(ε, δ)-DP release of a k-subspace containing all but ℓ of the points (Algorithm 1).

    Parameters (keyword-only)
    -------------------------
    k : int
        Dimension of the subspace, >= 1 (and < d, checked at release).
    epsilon : float
        > 0.
    delta : float
        In (0, 1).
    ell : int, optional
        Robustness parameter ℓ >= k − 1 of Problem 3.1 (default k − 1: general position, no outlier).
    tol : float
        Relative membership tolerance ‖x − Π_S x‖ <= tol·‖x‖ (floating point stands in for exact
        arithmetic; any fixed tolerance keeps the selection's proof, see ``exact_search``; points
        only near S raise the bound on η, and the release is refused when it is too large).
    """

    def __init__(self, *, k, epsilon, delta, ell=None, tol=1e-6):
        self.k = check_int("k", k)
        self.epsilon = check_positive("epsilon", epsilon)
        self.delta = check_probability("delta", delta)
        self.ell = self.k - 1 if ell is None else check_int("ell", ell, minimum=0)
        if self.ell < self.k - 1:
            raise ValueError(f"ell must be >= k - 1 = {self.k - 1} (k - 1 points always share a (k-1)-subspace), "
                             f"got {ell!r}")
        self.tol = check_positive("tol", tol)
        self.representation_delta = REPRESENTATION_SHARE * self.delta
        self.selection_delta = self.delta - self.representation_delta
        self.noise_bound = truncated_laplace_bound(self.epsilon, self.selection_delta, GAP_SENSITIVITY)

    @property
    def min_samples(self) -> int:
        """n_min = 3ℓ + ⌊2A⌋ + 2 (and at least ℓ + k): below it the guarantee of Theorem 3.2 fails."""
        return max(3 * self.ell + math.floor(2 * self.noise_bound) + 2, self.ell + self.k)

    def bottom_score(self, n: int) -> int:
        """q⊥ = n − 2ℓ − ⌊2A⌋ − 2 (public: depends on n, ℓ, ε, δ only)."""
        return n - 2 * self.ell - math.floor(2 * self.noise_bound) - 2

    def scores(self, data):
        """Leader, its score, the runner-up score (both >= q⊥) and search statistics (not private).

        Returns
        -------
        dict with ``basis`` (d × k, the search's basis of the leader, or None), ``members`` ((n,)
        bool, the points in the leader, or None), ``top``, ``second``, ``bottom_score``,
        ``n_candidates``, ``nodes``. The basis names records: it must never be released.
        """
        x = check_data(data, self.k)
        n = x.shape[0]
        if n < self.min_samples:
            raise ValueError(
                f"n = {n} is too small for the guarantee of Algorithm 1 (Theorem 3.2): with k = {self.k}, "
                f"ell = {self.ell}, epsilon = {self.epsilon:g}, delta = {self.delta:g} it needs n >= {self.min_samples}")
        q_bottom = self.bottom_score(n)
        skips = n - q_bottom - 1
        check_memory(f"Algorithm 1's search over n = {n} records with a skip budget of {skips} (2 ell + floor(2A) + 1)",
                     2.0 * (skips + 1) * n,
                     fix="raise epsilon or delta, which shrink A, or lower ell")
        found, nodes = find_dense_subspaces(x, self.k, q_bottom + 1, self.tol)
        norms2 = np.einsum("ij,ij->i", x, x)
        scored = []
        for cand in found:
            inside = x[cand.members] @ cand.basis
            m = int(cand.members.sum())
            cap = m - q_bottom
            h = max_points_in_hyperplane(inside, norms2[cand.members], cap, self.tol)
            scored.append((m - h, cand))
        scored.sort(key=lambda item: -item[0])
        top = scored[0][0] if scored else q_bottom
        second = scored[1][0] if len(scored) > 1 else q_bottom
        leader = scored[0][1] if scored and top > q_bottom else None
        return {"basis": None if leader is None else leader.basis,
                "members": None if leader is None else leader.members,
                "top": int(top), "second": int(max(second, q_bottom)),
                "bottom_score": int(q_bottom), "n_candidates": len(scored), "nodes": nodes}

    def release(self, data, *, size=None, rng=None) -> SubspaceRelease:
        """Private subspace(s) of ``data`` (n × d), or ⊥; ``size`` independent releases.

        The scores are computed once; each release draws its own truncated Laplace noise and its own
        public representation of the subspace (``represent``). ``RefusedRelease``, a ``ValueError``, (before
        any draw) when the leader's points are too thin or too far from it for the representation's share
        of δ (module notes).
        """
        info = self.scores(data)
        x = np.asarray(data, dtype=float)
        fit = None if info["members"] is None else self.checked_fit(x[info["members"]], info["basis"])
        rng = np.random.default_rng(rng)
        shape = batch_shape(size)
        chosen = stable_select(info["top"], info["second"], epsilon=self.epsilon, delta=self.selection_delta,
                               size=shape, rng=rng)
        if fit is None:
            chosen = np.zeros(shape, dtype=bool)
        bases = self.represent(info["basis"], fit, x, chosen, rng)
        diagnostics = {key: info[key] for key in ("top", "second", "bottom_score", "n_candidates", "nodes")}
        diagnostics["threshold"] = self.noise_bound  # A: the gap with its noise must pass it (σ is the noise's scale)
        diagnostics["margin_needed"] = 2 * self.noise_bound + 1
        diagnostics["grid"] = BASIS_GRID
        if fit is not None:  # 2b(D) within the share for every accepted D, so b(D) + b(D′) is too
            diagnostics["eta_bound"] = 2 * fit.eta_bound
            diagnostics["delta_term"] = delta_term(2 * fit.eta_bound, x.shape[1], self.k)
        guarantee = self.privacy_guarantee()
        return SubspaceRelease(points=bases, sigma=guarantee.sigma, guarantee=guarantee, bottom=~chosen,
                               diagnostics=diagnostics)

    def represent(self, basis, fit, data, chosen, rng) -> np.ndarray:
        """The released bases, ``(*chosen.shape, d, k)``: ``public_basis`` of ``fit`` (the
        ``checked_fit`` of the leader's members, never the search's ``basis``, which names a record)
        where ``chosen``, all NaN (⊥) elsewhere."""
        bases = bottom_bases(chosen.shape, data.shape[1], self.k)
        count = int(chosen.sum())
        if count:
            bases[chosen] = public_basis(fit.basis, count, rng)
        return bases

    def checked_fit(self, members, start):
        """``fit_subspace`` of the leader's ``members`` (m, d) from the search's basis ``start``;
        ``RefusedRelease`` (a ``ValueError``) when the bound on the neighbours' difference, 2b(D), makes
        the δ term exceed the representation's share of δ."""
        fit = fit_subspace(members, start)
        d = members.shape[1]
        term = delta_term(2 * fit.eta_bound, d, self.k)
        if not term <= self.representation_delta:
            raise RefusedRelease(
                f"the points of the selected subspace are too thin or too far from it to release it within delta: "
                f"sigma_k/sigma_1 = {fit.sigma[-1] / fit.sigma[0]:.2g} and RMS distance {fit.distance:.2g} (unit rows) "
                f"bound the neighbours' difference by eta = {2 * fit.eta_bound:.2g}, so the delta term "
                f"2k sqrt(4kd/pi) eta/g = {term:.2g} > delta/20 = {self.representation_delta:.2g}; put the points "
                f"exactly in the subspace, spread them along each of its directions, or raise delta")
        return fit

    def privacy_guarantee(self) -> PrivacyGuarantee:
        return PrivacyGuarantee(
            mechanism=f"Singhal-Steinke exact subspace (Algorithm 1), k = {self.k}",
            epsilon=self.epsilon, delta=self.delta, sigma=GAP_SENSITIVITY / self.epsilon,
            rule="output the top-scoring subspace if max(0, s₁ − s₂ − 1) + Z > A, else ⊥; Z truncated "
                 f"Laplace on [−A, A] with scale 2/ε, A = (2/ε) ln(1 + (e^ε − 1)/(2·0.95δ)) = "
                 f"{self.noise_bound:.4g}",
            reason="the score (points in S) − max over T of (points in T) has sensitivity 1, so the gap s₁ − s₂ has "
                   "sensitivity 2 and at most one subspace can have a gap above 1 on either of two neighbouring data sets "
                   "(Singhal & Steinke 2021, Lemma 3.3; Bun, Dwork, Rothblum & Steinke 2018)",
            assumptions=("neighbouring data sets differ by replacing one point (n is public)",
                         "the bottom score n − 2ℓ − ⌊2A⌋ − 2 depends only on public values",
                         "the subspace leaves as the top-k singular vectors of PG rounded to the public grid g = 2⁻¹⁶ "
                         "(P the projector fitted to the subspace's points, G a public d × 2k Gaussian, a public "
                         "uniform offset, both fresh per release, PG computed exactly); two neighbours whose "
                         "members differ in the replaced record only (no point at the edge of the membership "
                         "tolerance) compute projectors within η ≤ b(D) + b(D′) "
                         "(Wedin's sin Θ theorem on the common points), and their releases differ with "
                         "probability at most 2k√(4kd/π)·η/g; δ/20 is kept for that term (the selection runs at "
                         "0.95δ) and a release whose term could exceed it is refused (docs/subspaces.md)",
                         "the refusal is a check on the data, not private: the guarantee holds between neighbouring "
                         "data sets that are both accepted, and publishing a refusal publishes one non-private bit",
                         "utility, not privacy, needs Problem 3.1: all but ℓ points in one k-subspace and at "
                         "most ℓ points in any smaller subspace"),
        )
