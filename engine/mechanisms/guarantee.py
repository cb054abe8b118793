"""The statement every mechanism returns from ``privacy_guarantee()``."""

from __future__ import annotations

from dataclasses import dataclass, replace


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
    void : str
        Empty while the guarantee holds; else why it does not hold for these releases (an assumption the
        data or the settings broke), which every reader prints instead of (ε, δ).
    mu : float or None
        The μ of a μ-GDP guarantee (Dong, Roth & Su 2022), of which (ε, δ) is one consequence; ``None`` for
        mechanisms whose guarantee is (ε, δ) only.
    """

    mechanism: str
    epsilon: float
    delta: float
    sigma: float
    rule: str
    reason: str
    assumptions: tuple[str, ...]
    void: str = ""
    mu: float | None = None

    def voided(self, reason: str) -> PrivacyGuarantee:
        """This statement marked as not holding, for ``reason`` (a sentence)."""
        if not reason.strip():
            raise ValueError("a voided guarantee needs a reason, got an empty string")
        return replace(self, void=reason)

    @property
    def claim(self) -> str:
        """``"(ε, δ)-DP"`` with the numbers (``"μ-GDP, hence (ε, δ)-DP"`` with a μ), or ``"not DP"`` when void."""
        if self.void:
            return "not DP"
        dp = f"({self.epsilon:g}, {self.delta:g})-DP"
        return dp if self.mu is None else f"{self.mu:.4g}-GDP, hence {dp}"
