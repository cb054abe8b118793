"""Empirical privacy audit: a 95 % lower confidence bound on the ε of any mechanism of the engine.

A mechanism is run on two neighbouring data sets (by default the adversarial replace-one pair built
from the public ball and n, ``pairs``), its releases are reduced to a statistic (the claimed law's
log-likelihood ratio, or a learned score), a rejection set is chosen on one half of the draws and
its Clopper–Pearson bound on ε at the claimed δ is taken on the other (``run``). ``registry`` names
the audits of every mechanism and the positive controls; ``uses`` builds them as the pages and
studies call the mechanisms, at any radius; ``tradeoff`` measures the trade-off curve of the audit's tests
beside the claim's; ``python -m engine.audit --list``.
"""

from engine.audit.confidence import clopper_pearson_lower, clopper_pearson_upper, epsilon_lower_bound
from engine.audit.mechanisms import (
    dp_rgd_target,
    euclidean_target,
    gaussian_epsilon,
    kng_target,
    laplace_target,
    tangent_gaussian_target,
)
from engine.audit.pairs import NeighbouringPair, replace_one_pair
from engine.audit.registry import AUDITS, AuditSpec, space_label
from engine.audit.run import AuditCheckpoint, AuditResult, run_audit
from engine.audit.space_rules import audit_spaces
from engine.audit.target import AuditTarget
from engine.audit.uses import figure1_target, playground_target

__all__ = [
    "AUDITS",
    "AuditCheckpoint",
    "AuditResult",
    "AuditSpec",
    "AuditTarget",
    "NeighbouringPair",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "dp_rgd_target",
    "epsilon_lower_bound",
    "euclidean_target",
    "figure1_target",
    "gaussian_epsilon",
    "kng_target",
    "laplace_target",
    "playground_target",
    "replace_one_pair",
    "run_audit",
    "space_label",
    "audit_spaces",
    "tangent_gaussian_target",
]
