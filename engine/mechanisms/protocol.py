"""The one shape every mechanism speaks: a ``release`` (or ``fit``) returning a ``Release``, and a
``privacy_guarantee()`` that depends on public parameters only.

A mechanism is calibrated at construction from public parameters (ε, δ, sensitivity, radius,
clipping norm, ...), so its guarantee can be stated before any data is seen. Each call then
returns a ``Release``: the released points, the noise scale and guarantee they were drawn under,
whether the sampler follows the mechanism's law exactly, and what an approximate sampler reports
about itself. Mechanism-specific extras (⊥ flags of the subspace mechanisms, the path of DP-RGD,
the shooting vectors of the geodesic regression) live in subclasses of ``Release``.

The audit (``engine.audit``), the pipelines and the studies rely only on these two protocols.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from engine.mechanisms.guarantee import PrivacyGuarantee


@dataclass(frozen=True, kw_only=True)
class Release:
    """What one call of a mechanism releases, and under which guarantee.

    Attributes
    ----------
    points : ndarray
        The released values, ``(*batch, *shape)`` for ``size=None`` or ``(size, *batch, *shape)``
        (``shape`` is the point shape of the space, ``(d, k)`` for a subspace basis).
    sigma : float
        Noise scale the draw used (``nan`` where it depends on data not known at construction).
    guarantee : PrivacyGuarantee
        The guarantee of these points (equal to ``privacy_guarantee()`` of the mechanism, except
        for DP-RGD without a public ``n``, whose accountant needs the data size of the run).
    exact : bool
        Whether the points follow the mechanism's law exactly; ``False`` for MCMC samplers, whose
        guarantee then holds only up to the unquantified MCMC error.
    chain : MHResult, ChainsResult or None
        The sampler's own report when it is a Markov chain: acceptance rate, effective sample size,
        split-R̂ (multi-chain), step size, traces. Computed from the data: for the curator, never
        for publication.
    diagnostics : dict
        Further mechanism-specific numbers (e.g. thresholds and scores of the subspace
        mechanisms); those computed from the data are not private either.
    """

    points: np.ndarray
    sigma: float
    guarantee: PrivacyGuarantee
    exact: bool = True
    chain: object | None = None
    diagnostics: dict = field(default_factory=dict)


@runtime_checkable
class Mechanism(Protocol):
    """A mechanism releasing a statistic of data (or around a footpoint f(D)) in one call.

    ``release(data_or_footpoint, *, size=None, rng=None)`` returns ``size`` independent releases
    (one per leading batch entry for ``size=None``); sampler settings are further keywords.
    ``privacy_guarantee()`` needs no release.
    """

    def release(self, data_or_footpoint, *, size=None, rng=None) -> Release:
        ...

    def privacy_guarantee(self) -> PrivacyGuarantee:
        ...


@runtime_checkable
class IterativeMechanism(Protocol):
    """An iterative mechanism (DP-RGD): ``fit(problem, init, rng=None)`` runs it from public starting
    points ``init`` (one run per leading batch entry) and returns a ``Release`` of the outputs."""

    def fit(self, problem, init, rng=None) -> Release:
        ...

    def privacy_guarantee(self) -> PrivacyGuarantee:
        ...
