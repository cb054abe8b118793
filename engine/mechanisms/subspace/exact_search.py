"""Exact combinatorics of Algorithm 1: which k-subspaces contain many data points, and their scores.

A point x lies in span(Q) (Q orthonormal) when ‖x − QQᵀx‖ <= tol·‖x‖; zero points lie in every
subspace. The predicate is monotone (x in T ⊂ S implies x in S), which is all the sensitivity
argument of Singhal & Steinke (2021, Lemma 3.3) needs.

Candidate search without enumerating the C(n, k) k-subsets
-----------------------------------------------------------
Every subspace S holding at least t points has a unique *greedy basis*: its first nonzero point,
then its first point outside the span of the chosen ones, and so on. Walking the points in order,
each point before the j-th greedy basis point is either in the span of the earlier basis points
(a member of S) or *skipped* (outside S). S misses at most r = n − t points, so at most r points are
skipped along the whole path. A depth-first search over "which out-of-span point comes next, after
s more skips" therefore reaches every such S exactly once (paths that skip a point of S are cut) and
visits at most C(r + k, k) leaves; the last level groups the remaining points by line in the
quotient, one matrix product per node. With Algorithm 1's threshold t = q⊥ + 1 the budget is
r = 2ℓ + ⌊2A⌋ + 1, which does not depend on n or d: the search visits O(C(r + k − 1, k − 1)) nodes
(for k = 2 about 58 at ε = 1, δ = 1e-6, against C(n, 2) pairs), each one projection of the data;
in the span of the first points (below) it costs O(n·d·p + C(r + k, k)·n·p), p ≈ r + k.

Working in the span of the first points
----------------------------------------
Every basis direction of the search is a combination of *head* points (the chosen basis points),
and along any path the heads come early: before a head there are only skipped points (at most r),
earlier heads (fewer than k) and points already in the partial span. So when the heads all lie among
the first p points, with W an orthonormal basis of their span (d × p) and ρ(x) = ‖x − WWᵀx‖, the
map x ↦ (Wᵀx, ρ(x)) ∈ R^{p+1} keeps every distance the search takes exactly: for S ⊂ span(W),
‖x − Π_S x‖² = ρ(x)² + ‖Wᵀx − Π_{WᵀS}Wᵀx‖². The search therefore runs on these n × (p + 1)
coordinates (one n·d·p product instead of a projection of the n × d data at every node), starting
from p = r + k + 16 and doubling p whenever a head beyond the first p points is reached (then the
reduced coordinates would merge directions outside span(W)). This is the cached-Gram form of the
search: Wᵀx are the data's inner products with the first points, orthonormalised. At d = 1,000,
n = 1,600, k = 2 it cuts the search from about 4 s to a few tenths of a second.

The score's second term, the most points in a (k − 1)-subspace of S, is computed exactly among the
m points of S by fixing a first point and recursing in the quotient, with lines counted by one Gram
matrix: O(m²) for k = 2, O(m^{k−1}) in general (fine for the k <= 3 used here), and it stops as
soon as the count reaches the cap beyond which the score no longer matters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DenseSubspace:
    """A k-subspace with at least t points: ``basis`` (d × k, orthonormal) and ``members`` (n,) bool."""

    basis: np.ndarray
    members: np.ndarray


#: Points beyond the skip budget and k that the first reduced search keeps (see the module notes).
PREFIX_SLACK = 16


class _HeadBeyondPrefix(Exception):
    """The search reached a head outside the points whose span the reduced coordinates keep."""


def find_dense_subspaces(coords: np.ndarray, k: int, min_count: int, tol: float = 1e-6):
    """All k-subspaces of span(coords) holding at least ``min_count`` of the points.

    Parameters
    ----------
    coords : ndarray of shape (n, d)
    k : int
    min_count : int
        t; the skip budget is n − t.
    tol : float
        Relative membership tolerance.

    Returns
    -------
    list of DenseSubspace (bases of shape (d, k)), and the number of search nodes visited.
    """
    n, dim = coords.shape
    prefix = min(n, n - min_count + k + PREFIX_SLACK)
    while prefix + 1 < dim:
        span = np.linalg.qr(coords[:prefix].T)[0]                                   # (d, p)
        inside = coords @ span
        outside = coords - inside @ span.T
        reduced = np.column_stack([inside, np.sqrt(np.einsum("ij,ij->i", outside, outside))])
        try:
            found, visited = _search(reduced, k, min_count, tol, head_limit=prefix)
        except _HeadBeyondPrefix:
            prefix = min(n, 2 * prefix)
            continue
        bases = [np.linalg.qr(span @ f.basis[:-1])[0] for f in found]
        return [DenseSubspace(basis=b, members=f.members) for b, f in zip(bases, found)], visited
    return _search(coords, k, min_count, tol, head_limit=n)


def _search(coords: np.ndarray, k: int, min_count: int, tol: float, *, head_limit: int):
    """The depth-first search of the module notes on ``coords``; ``_HeadBeyondPrefix`` when a head
    has index >= ``head_limit``."""
    n, dim = coords.shape
    norms2 = np.einsum("ij,ij->i", coords, coords)
    tol2 = tol * tol
    found: list[DenseSubspace] = []
    visited = [0]
    if k > dim:
        return found, 0

    def in_span(points, p2, basis):
        resid = points - (points @ basis) @ basis.T
        return np.einsum("ij,ij->i", resid, resid) <= tol2 * p2

    def check_heads(start, heads):
        if heads.size and start + int(heads[-1]) >= head_limit:
            raise _HeadBeyondPrefix

    def search(basis, start, skipped, budget):
        visited[0] += 1
        rest = coords[start:]
        resid = rest - (rest @ basis) @ basis.T
        res2 = np.einsum("ij,ij->i", resid, resid)
        out = np.flatnonzero(res2 > tol2 * norms2[start:])
        members_before = start - len(skipped) + (rest.shape[0] - out.size)
        heads = out[: budget + 1]
        check_heads(start, heads)
        if basis.shape[1] < k - 1:
            for s, c in enumerate(heads):
                direction = resid[c] / np.sqrt(res2[c])
                new_basis = np.column_stack([basis, direction])
                new_skipped = skipped + [start + int(i) for i in out[:s]]
                if skipped and in_span(coords[skipped], norms2[skipped], new_basis).any():
                    continue
                search(new_basis, start + int(c) + 1, new_skipped, budget - s)
            return
        if heads.size == 0:
            return
        vectors = resid[out]
        units = vectors[: heads.size] / np.sqrt(res2[heads])[:, None]
        proj = units @ vectors.T
        on_line = res2[out][None, :] - proj**2 <= tol2 * norms2[start + out][None, :]
        for s in range(heads.size):
            if on_line[s, :s].any():
                continue  # an earlier skipped point lies on this line: not the greedy path
            count = members_before + int(on_line[s].sum())
            if count < min_count:
                continue
            basis_k = np.column_stack([basis, units[s]])
            if skipped and in_span(coords[skipped], norms2[skipped], basis_k).any():
                continue
            members = in_span(coords, norms2, basis_k)
            found.append(DenseSubspace(basis=basis_k, members=members))

    search(np.zeros((dim, 0)), 0, [], n - min_count)
    return found, visited[0]


def max_points_in_hyperplane(points: np.ndarray, norms2: np.ndarray, cap: int, tol: float = 1e-6) -> int:
    """min(cap, the most points in one (k − 1)-subspace), for points in coordinates of R^k.

    ``norms2`` are the squared norms of the original points (the tolerance is relative to them).
    """
    return _max_in(np.asarray(points, dtype=float), np.asarray(norms2, dtype=float),
                   points.shape[1] - 1, int(cap), tol * tol)


def _max_in(vectors, norms2, s, cap, tol2) -> int:
    if cap <= 0:
        return 0
    r2 = np.einsum("ij,ij->i", vectors, vectors)
    zero = r2 <= tol2 * norms2
    z = int(zero.sum())
    if s == 0 or z >= cap:
        return min(z, cap)
    vectors, norms2, r2 = vectors[~zero], norms2[~zero], r2[~zero]
    m = vectors.shape[0]
    if m == 0:
        return min(z, cap)
    if s == 1:
        best = 0
        units_all = vectors / np.sqrt(r2)[:, None]
        for lo in range(0, m, 512):
            proj = units_all[lo:lo + 512] @ vectors.T
            on_line = r2[None, :] - proj**2 <= tol2 * norms2[None, :]
            best = max(best, int(on_line.sum(axis=1).max()))
        return min(z + best, cap)
    best = z + min(s, m)
    for i in range(m):
        if z + m - i <= best or best >= cap:
            break
        unit = vectors[i] / np.sqrt(r2[i])
        later = vectors[i + 1:]
        quotient = later - np.outer(later @ unit, unit)
        best = max(best, z + 1 + _max_in(quotient, norms2[i + 1:], s - 1, cap - z - 1, tol2))
    return min(best, cap)
