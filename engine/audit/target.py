"""What an audit runs: a sampler of releases on two neighbouring data sets and a statistic."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class AuditTarget:
    """A mechanism on a neighbouring pair, seen only through its releases.

    Attributes
    ----------
    label : str
        What is audited, e.g. ``"Riemannian Laplace on Sphere(2)"``.
    draw : callable ``(side, size, rng) -> ndarray``
        ``size`` independent releases on the first (side 0) or the second (side 1) data set, with
        the draws on the leading axis.
    statistic : callable ``releases -> ndarray (size,)`` or None
        The rejection statistic; the log-likelihood ratio log p_D/p_D' of the claimed family where
        it is known (up to an additive constant), ``None`` for a learned score.
    epsilon, delta : float
        The claim under audit.
    reachable_epsilon : float
        The largest ε any test on this pair can show (the pair's own privacy loss bound under the
        claimed law), ``nan`` when unknown.
    statistic_name : str
    pair_description : str
    notes : str
        Anything a reader of the bound must know (e.g. why a pair cannot reach ε).
    batch_size : int
        Releases per side drawn in one call of ``draw``.
    mu : float or None
        The μ of a μ-GDP claim (the trade-off curve it promises, ``engine.audit.tradeoff``); ``None`` for an
        (ε, δ) claim only.
    unseen_by_curve : str
        Why no trade-off curve of single releases can fall below the claim for this mechanism, in one plain sentence
        from the mechanism's own definition (a defect that only repeated releases show); empty where one can.
    """

    label: str
    draw: Callable[[int, int, np.random.Generator], np.ndarray]
    statistic: Callable[[np.ndarray], np.ndarray] | None
    epsilon: float
    delta: float
    reachable_epsilon: float
    statistic_name: str
    pair_description: str = ""
    notes: str = ""
    batch_size: int = 50_000
    mu: float | None = None
    unseen_by_curve: str = ""


def reach_note(pair_gap: float, sensitivity: float, what: str) -> str:
    """The note for a pair that moves the summary by less than the sensitivity bound ('' otherwise)."""
    ratio = pair_gap / sensitivity
    if ratio >= 0.999:
        return ""
    return (f"The pair moves {what} by {ratio:.2f} of the sensitivity bound, so no test on it can show more "
            f"than {ratio:.2f} of the claimed ε: the bound is loose for this pair, not the mechanism leaky.")
