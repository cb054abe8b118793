"""One rule for the slider limits of every page: a slider never offers a value at or beyond the
validity limit of the space it acts on, and says why it stops there.

The limits come from the engine: Theorem 2's radius limit r* = min{inj/2, π/(4√κ)}
(``engine.bounds.radius_limits``, Reimherr, Bharath & Soto 2021, Assumption 1) and the largest
scale σ at which exp(−ρ/σ) is normalisable (``engine.mechanisms.scale_limit``: σ < 1/(d − 1) on
H^d, σ < √2 on SPD(2) with the affine-invariant metric).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.bounds import radius_limits
from engine.mechanisms import scale_limit


@dataclass(frozen=True)
class SliderRange:
    """``high`` is the slider's top value; ``reason`` says what stops it there (``None`` when only the
    page's own range does)."""

    low: float
    high: float
    reason: str | None


def below(limit: float, *, low: float, high: float, step: float) -> float:
    """The top of a slider from ``low`` in steps of ``step``: ``high``, or the last step strictly below
    ``limit`` when ``limit`` is smaller. Never below ``low``."""
    if not limit <= high:
        return high
    steps = math.ceil((limit - low) / step - 1e-9) - 1  # the last whole step strictly below the limit
    return max(low, round(low + steps * step, 10))


def radius_range(manifold, *, low: float, high: float, step: float) -> SliderRange:
    """Range of a data-radius slider on ``manifold``: strictly below Theorem 2's r*."""
    limit = radius_limits(manifold.kappa_max, manifold.injectivity_radius).sensitivity
    top = below(limit, low=low, high=high, step=step)
    if top == high:
        return SliderRange(low, high, None)
    return SliderRange(low, top, f"r stops at {top:g}, below r* = {limit:.4f} = min{{inj/2, π/(4√κ)}} on "
                                 f"{manifold.name}: from r* on, Theorem 2 gives no sensitivity bound.")


def scale_range(manifold, *, low: float, high: float, step: float, numeric_limit: float = math.inf) -> SliderRange:
    """Range of a Laplace-scale slider on ``manifold``: strictly below its normalisability limit (and
    ``numeric_limit``, where the page's own numerics stop working)."""
    limit = scale_limit(manifold)
    top = below(min(limit, numeric_limit), low=low, high=high, step=step)
    if top == high:
        return SliderRange(low, high, None)
    return SliderRange(low, top, f"σ stops at {top:g}, below {limit:.4g} on {manifold.name}: from there on the "
                                 f"volume grows faster than exp(−ρ/σ) decays, and the Laplace law cannot be "
                                 f"normalised.")
