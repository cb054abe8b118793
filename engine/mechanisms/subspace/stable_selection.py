"""Stable selection with a ⊥ option: output the top-scoring candidate only when it wins clearly.

This is the GAP-MAX / "choosing" step of Bun, Dwork, Rothblum & Steinke (2018, "Composable and
versatile privacy via truncated CDP", STOC; Lemma 2.16 of Singhal & Steinke 2021), written for a
score q(x, ·) of sensitivity 1 over a possibly infinite candidate set plus a candidate ⊥ whose score
q⊥ is public (does not depend on the data).

Let s1 >= s2 be the two largest scores among the candidates and ⊥. Then

    f(x) = max(0, s1 − s2 − 1)

has sensitivity 2 (s1 − s2 changes by at most 2 because the second largest score is a monotone
function of all scores), and for neighbouring x, x' at most one candidate can have f > 0 on x or on
x' (a margin above 1 on x keeps the same leader on x'). The mechanism outputs the leader S1 if
f(x) + Z > A and ⊥ otherwise, Z truncated Laplace with sensitivity 2 (``truncated_laplace``), A its
bound. This is post-processing of one truncated-Laplace release of f for the only candidate that
can be output on either input, hence (ε, δ)-DP; candidates with f = 0 are output with probability 0
because Z <= A. It outputs S1 with probability one when s1 − s2 − 1 > 2A.
"""

from __future__ import annotations

import numpy as np

from engine.mechanisms.subspace.truncated_laplace import truncated_laplace, truncated_laplace_bound

GAP_SENSITIVITY = 2.0


def selection_margin(epsilon, delta) -> float:
    """2A + 1: the margin s1 − s2 above which the leader is output with probability one."""
    return 2.0 * truncated_laplace_bound(epsilon, delta, GAP_SENSITIVITY) + 1.0


def stable_select(top_score, second_score, *, epsilon, delta, size=None, rng=None) -> np.ndarray:
    """Whether the leader is output (``True``) or ⊥ (``False``) for each draw, shape ``size``.

    Parameters
    ----------
    top_score, second_score : float
        s1 and s2, the largest and second largest scores *including* ⊥'s public score (if the
        leader is ⊥ itself, pass s1 = s2 = q⊥ and ⊥ is output).
    epsilon, delta : float
        The guarantee of the selection.
    size : int or tuple, optional
        Number of independent releases on the same scores.
    rng : numpy.random.Generator, int or None
    """
    gap = max(0.0, float(top_score) - float(second_score) - 1.0)
    bound = truncated_laplace_bound(epsilon, delta, GAP_SENSITIVITY)
    noise = truncated_laplace(epsilon, delta, GAP_SENSITIVITY, size=size, rng=rng)
    return np.asarray(gap + noise > bound)
