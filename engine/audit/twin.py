"""The 2× twin of an audit: its mechanism calibrated for 2ε, claiming ε (a positive control).

A mechanism built at 2ε and reporting ε breaks its claim by a factor 2; an audit with power on the
entry must flag it at the entry's default budget. The twin is built from the entry alone
(``twin_target(build, space, epsilon) = build(space, 2ε)`` with the claim replaced by ε), so every
entry gets one without a class of its own. The pair, the statistic and the reach stay those of the
2ε mechanism: the reach is then the most the twin's pair can show against the claim ε.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from engine.audit.target import AuditTarget
from engine.validation import check_positive

#: The factor between the twin's calibration and its claim.
FACTOR = 2.0


def twin_target(build: Callable[[str, float], AuditTarget], space: str, epsilon: float) -> AuditTarget:
    """``build(space, 2ε)``, claiming ε.

    Parameters
    ----------
    build : callable ``(space, epsilon) -> AuditTarget``, an entry's builder.
    space : str
    epsilon : float > 0, the claim.

    Returns
    -------
    AuditTarget
        Releases of the mechanism calibrated for ``FACTOR``·ε; ``epsilon`` = ε, and for a μ-GDP claim the μ
        the entry claims at ε.
    """
    eps = check_positive("epsilon", epsilon)
    target = build(space, FACTOR * eps)
    note = (f"Calibrated for {FACTOR * eps:g} ({FACTOR:g}× the claim) and claiming {eps:g}: a positive "
            f"control, which the audit must flag.")
    return dataclasses.replace(
        target, epsilon=eps, mu=None if target.mu is None else build(space, eps).mu, label=f"{target.label}, built for ε = {FACTOR * eps:g}, claiming {eps:g}",
        notes=f"{note} {target.notes}".strip())
