"""Exact rejection sampling, vectorised in rounds over the still-missing draws.

Each round proposes enough candidates for the draws still missing at the acceptance rate seen so
far and keeps each candidate against its own fresh uniform (von Neumann 1951). Shared by the radial
laws (``radial.py``), the tangent-line envelope of log-concave laws (``log_concave.py``) and the
SPD eigen-logarithm sampler (``spd_laplace.py``).
"""

from __future__ import annotations

import numpy as np

# A rejection sampler that needs more than this many proposals per requested draw gives up:
# the target then puts almost no mass where the envelope does (σ at a normalisability limit).
MIN_ACCEPTANCE = 1e-5


def rejection_sample(propose, shape, rng) -> np.ndarray:
    """Exact rejection sampling, vectorised in rounds over the still-missing draws.

    Parameters
    ----------
    propose : callable
        ``propose(m, rng) -> (candidates, log_accept)`` with candidates of shape ``(m, ...)`` and
        log acceptance probabilities ``(m,)`` (each <= 0).
    shape : tuple of int
        Leading shape of the result; ``prod(shape)`` accepted candidates are returned.
    rng : numpy.random.Generator

    Returns
    -------
    ndarray, shape ``(*shape, ...)``

    Raises
    ------
    ValueError
        If the observed acceptance rate falls below ``MIN_ACCEPTANCE`` (quoted in the message).
    """
    need = int(np.prod(shape, dtype=int))
    chunks, have, proposed, accepted = [], 0, 0, 0
    while have < need:
        rate = max(accepted, 1) / max(proposed, 1) if proposed else 1.0
        m = int(min(max(1.2 * (need - have) / rate, 64), 4_000_000))
        cand, log_acc = propose(m, rng)
        # Each candidate is compared against its own fresh uniform draw.
        keep = np.log(rng.random(m)) < log_acc
        proposed += m
        accepted += int(keep.sum())
        chunks.append(cand[keep][: need - have])
        have += len(chunks[-1])
        if have < need and proposed >= 100_000 and accepted < MIN_ACCEPTANCE * proposed:
            raise ValueError(
                f"rejection sampler accepted {accepted} of {proposed} proposals (rate below "
                f"{MIN_ACCEPTANCE:g}); the scale is too close to the normalisability limit"
            )
    out = np.concatenate(chunks, axis=0) if chunks else np.empty((0,))
    return out.reshape(tuple(shape) + out.shape[1:])
