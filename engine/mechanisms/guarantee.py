"""The statement every mechanism returns from ``privacy_guarantee()``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PrivacyGuarantee:
    """(ε, δ)-differential privacy of one release and what it rests on.

    Attributes
    ----------
    mechanism : str
        Name and space, e.g. ``"Riemannian Laplace on Sphere(2)"``.
    epsilon, delta : float
        The guarantee: P(M(D) ∈ A) <= e^ε P(M(D') ∈ A) + δ for neighbouring D, D'.
    sigma : float
        The noise scale the mechanism uses.
    rule : str
        The calibration formula applied, e.g. ``"sigma = sensitivity / epsilon"``.
    reason : str
        Why that rule applies (the theorem and the property of the space it needs).
    assumptions : tuple of str
        Conditions the guarantee depends on; if one fails, the guarantee does not hold.
    """

    mechanism: str
    epsilon: float
    delta: float
    sigma: float
    rule: str
    reason: str
    assumptions: tuple[str, ...]
