"""The mechanisms of the private-mean family, one spec each (``MechanismSpec``), in display order.

Adding a mechanism: its module here (a ``MechanismSpec``), one line in ``REGISTRY``, its tests. The
pipelines, the audit, the palette and the pages read everything they need from the spec, which also writes its
noise formula (``noise_formula``) and builds its audit (``audit_pair_gap``, ``audit_target``).
"""

from __future__ import annotations

from engine.mechanisms.specs.euclidean_laplace import EUCLID
from engine.mechanisms.specs.paper_baseline import PAPER
from engine.mechanisms.specs.riemannian_gaussian import RGAUSS
from engine.mechanisms.specs.riemannian_laplace import EXACT, MH
from engine.mechanisms.specs.spec import MechanismSpec, NoiseFormula, NoiseNumbers
from engine.mechanisms.specs.tangent_gaussian import GAUSS

#: Every mechanism of the family in display order (legends, the playground's options, random streams).
REGISTRY = (EXACT, MH, EUCLID, PAPER, GAUSS, RGAUSS)
SPECS = {spec.key: spec for spec in REGISTRY}
#: The playground's mechanisms and Figure 1's, in display order.
PLAYGROUND = tuple(spec for spec in REGISTRY if spec.playground)
FIGURE1 = tuple(spec for spec in REGISTRY if spec.figure1)
#: The Utility page's mechanisms: Figure 1's and those a spec adds (``MechanismSpec.utility``), in display order.
UTILITY = tuple(spec for spec in REGISTRY if spec.figure1 or spec.utility)


def spec(key: str) -> MechanismSpec:
    """The spec of ``key``; ``ValueError`` naming the known keys."""
    if key not in SPECS:
        raise ValueError(f"mechanism must be one of {', '.join(SPECS)}, got {key!r}")
    return SPECS[key]


__all__ = ["EUCLID", "EXACT", "FIGURE1", "GAUSS", "MH", "MechanismSpec", "NoiseFormula", "NoiseNumbers", "PAPER",
           "PLAYGROUND", "REGISTRY", "RGAUSS", "SPECS", "UTILITY", "spec"]
