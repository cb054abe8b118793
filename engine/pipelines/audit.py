"""An audit beside its positive control: the path the Audit page shows.

The named audit (``engine.audit.AUDITS``) runs its mechanism on the adversarial pair of neighbouring
data sets, reduces each release to a statistic, chooses a rejection set on one half of the releases
and bounds ε from below on the other (Clopper–Pearson, 95 %); a deliberately broken mechanism, the
control, is audited the same way on the same space where it runs there, else on its first space.
Both draw from the one ``seed`` in batches of at most ``BATCH`` releases per side, as the page does,
so ``run(AuditConfig(...))`` gives the page's numbers (Jagielski, Ullman & Oprea 2020 for the method).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

from engine.audit import AUDITS, AuditCheckpoint, AuditResult, run_audit
from engine.pipelines.summary import plain
from engine.threads import blas_capped
from engine.validation import check_int, check_positive

#: The audits of a mechanism and the positive controls, in the registry's order.
MECHANISMS = tuple(name for name, spec in AUDITS.items() if not spec.control)
CONTROLS = tuple(name for name, spec in AUDITS.items() if spec.control)
#: Releases per side of one batch: the page's first bound shows after two of them.
BATCH = 10_000


@dataclass(frozen=True, kw_only=True)
class AuditConfig:
    """The page's settings: the audit, its space (``None``: the audit's first), the claimed ε, the
    releases per side (``None``: the audit's default budget, at which it flags its 2× twin) and the seed,
    and the positive control shown beside it."""

    audit: str = "laplace"
    space: str | None = None
    epsilon: float = 1.0
    samples: int | None = None
    seed: int = 0
    control: str = "control-half-noise"

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        if self.audit not in MECHANISMS:
            raise ValueError(f"audit must be one of {', '.join(MECHANISMS)}, got {self.audit!r}")
        if self.control not in CONTROLS:
            raise ValueError(f"control must be one of {', '.join(CONTROLS)}, got {self.control!r}")
        spaces = AUDITS[self.audit].spaces
        if self.space is None:
            set_("space", spaces[0])
        elif self.space not in spaces:
            raise ValueError(f"space must be one of {', '.join(spaces)} for audit {self.audit!r}, got {self.space!r}")
        set_("epsilon", check_positive("epsilon", self.epsilon))
        samples = AUDITS[self.audit].default_samples if self.samples is None else self.samples
        set_("samples", check_int("samples", samples, minimum=2))
        set_("seed", check_int("seed", self.seed, minimum=0))

    @property
    def control_space(self) -> str:
        """The control's space: the audit's where the control runs there, else the control's first."""
        spaces = AUDITS[self.control].spaces
        return self.space if self.space in spaces else spaces[0]


def audit_one(name: str, space: str, epsilon: float, samples: int, seed: int,
              progress: Callable[[AuditCheckpoint], None] | None = None) -> AuditResult:
    """``run_audit`` of the audit ``name`` on ``space`` at ``epsilon``, in batches of at most ``BATCH``;
    ``progress`` receives every checkpoint."""
    target = AUDITS[name].target(space, epsilon)
    return run_audit(target, samples=samples, rng=seed, batch_size=min(BATCH, target.batch_size), progress=progress)


@dataclass(frozen=True)
class AuditPair:
    """The audit and its control (``engine.audit.AuditResult`` each) for ``config``."""

    config: AuditConfig
    audit: AuditResult
    control: AuditResult

    def summary(self) -> dict:
        """The page's table, bound curves and rejection sets, JSON-ready (``engine.pipelines.summary.plain``):
        per audit its row without the wall-clock seconds (they measure the machine), the rejection set
        and the curve (samples, epsilon_lower, alpha per checkpoint)."""
        def numbers(result: AuditResult) -> dict:
            row = {key: value for key, value in result.row().items() if key != "seconds"}
            return {**row, "rejection": result.rejection.describe(), "history": result.history}

        return plain(dict(config=self.config, audit=numbers(self.audit), control=numbers(self.control)))


@blas_capped
def run(config: AuditConfig) -> AuditPair:
    """Audit ``config.audit`` on ``config.space`` and the control on ``config.control_space``, both at
    ``config.epsilon`` with ``config.samples`` releases per side from ``config.seed``."""
    audit = audit_one(config.audit, config.space, config.epsilon, config.samples, config.seed)
    control = audit_one(config.control, config.control_space, config.epsilon, config.samples, config.seed)
    return AuditPair(config, audit, control)
