"""Which spaces each audit runs on, read from the registries when asked, never listed by hand.

A space of the audits is an entry of ``engine.spaces.SPACES`` with an ``audit`` setting (its public ball
and n), in the registry's order, then the flat controls R² and R¹ (``FLAT``). Each rule below says what
a mechanism needs and reads it from what the space declares:

* ``intrinsic``: every registered space and R² (the Riemannian Laplace, the tangent Gaussian, KNG run
  on any manifold);
* ``offered_by(spec)``: the registered spaces on which the private-mean playground offers the mechanism
  of ``spec`` (``engine.mechanisms.specs``): a ``requires_ambient`` mechanism only where the space is
  ``embedded_in_ambient``, as ``ui.playground.spaces`` decides;
* ``figure1``: the registered spaces with the paper's recipe (the Utility page and the Figure 1 study);
* ``hadamard`` (``flat_too``): Log inverts Exp (κ_max <= 0, infinite injectivity radius), as the DP-RGD
  path audit needs, plus R²;
* ``curved``: κ_max > 0, where Theorem 2's factor h(r, κ) < 1;
* ``constant_curvature``: where the Riemannian Gaussian's μ is computed exactly (``gdp.supports``: constant
  curvature, and SPD(2) = R × H²(−1/2)), plus R²;
* ``line_first(rule)``: R¹, then ``rule``'s spaces (the DP-RGD paper-rule control, whose 300-step runs are
  cheapest on the line);
* ``preferring(rule, tight)``: ``rule``'s spaces with those where the mechanism's bound is attained by
  the audit's pair first, so an entry's default space is one where its 2× twin can be flagged
  (``hadamard_setting``: Theorem 2's Δ = 2r/n and the Lipschitz constant 1 of Log at m₀, so the tangent
  sensitivity is attained; ``flat_setting``: the K-norm gradient law's normaliser does not depend on D).

The rules are called at every look-up, so a space added to the registry (or by a test's monkeypatch)
appears in every audit whose mechanism can run on it.
"""

from __future__ import annotations

from engine import spaces
from engine.manifolds import Euclidean
from engine.spaces import AuditSetting

#: The flat controls: R² for every mechanism on manifolds, R¹ for the DP-RGD paper-rule control only.
FLAT = {
    "euclidean": AuditSetting("R²", lambda: Euclidean(2), 1.0),
    "line": AuditSetting("R^1", lambda: Euclidean(1), 1.0),
}


def registered() -> dict:
    """Key → ``SpaceEntry`` of every registered space with an audit setting, in the registry's order."""
    return {key: entry for key, entry in spaces.SPACES.items() if spaces.offered(entry.audit)}


def audit_spaces() -> dict[str, AuditSetting]:
    """Key → ``AuditSetting`` of every space of the audits: the registered ones, then ``FLAT``."""
    return {**{key: entry.audit for key, entry in registered().items()}, **FLAT}


def intrinsic() -> tuple[str, ...]:
    """Every registered space of the audits, then R²."""
    return (*registered(), "euclidean")


def offered_by(spec):
    """The rule: registered spaces where the playground offers ``spec``'s mechanism."""
    def rule() -> tuple[str, ...]:
        return tuple(key for key, entry in registered().items() if spec.offered_on(entry))
    return rule


def figure1() -> tuple[str, ...]:
    """Registered spaces with the paper's Figure 1 recipe (the Utility page's spaces)."""
    return tuple(key for key, entry in registered().items() if spaces.offered(entry.recipe))


def hadamard_setting(setting: AuditSetting) -> bool:
    """Log inverts Exp on the setting's space: κ_max <= 0 and an infinite injectivity radius."""
    m = setting.make()
    return m.kappa_max <= 0 and m.injectivity_radius == float("inf")


def flat_setting(setting: AuditSetting) -> bool:
    """The setting's space is complete, simply connected and flat (``Manifold.flat``)."""
    return bool(setting.make().flat)


def hadamard() -> tuple[str, ...]:
    """Registered spaces on which Log inverts Exp (κ_max <= 0, infinite injectivity radius), then R²."""
    return (*(key for key, entry in registered().items() if hadamard_setting(entry.audit)), "euclidean")


def preferring(rule, tight):
    """The rule: ``rule``'s spaces, those whose setting satisfies ``tight`` first, each group in its order."""
    def ordered() -> tuple[str, ...]:
        keys, settings = tuple(rule()), audit_spaces()
        first = tuple(key for key in keys if tight(settings[key]))
        return first + tuple(key for key in keys if key not in first)
    return ordered


def curved() -> tuple[str, ...]:
    """Registered spaces with κ_max > 0."""
    return tuple(key for key, entry in registered().items() if entry.audit.make().kappa_max > 0)


def constant_curvature() -> tuple[str, ...]:
    """Registered spaces on which the Riemannian Gaussian's μ is exact (``gdp.supports``), then R²."""
    from engine.mechanisms.gdp import supports

    return (*(key for key, entry in registered().items() if supports(entry.audit.make())), "euclidean")


def line_first(rule):
    """The rule: R¹ (``FLAT["line"]``, where long runs are cheapest), then ``rule``'s spaces."""
    return lambda: ("line", *rule())


def fixed(*keys: str):
    """The rule of an audit whose data are not points of a registered space (records in R^d, R¹)."""
    return lambda: keys
