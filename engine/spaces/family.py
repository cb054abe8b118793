"""A family of spaces with a dimension parameter (Sᵈ, SPD(k), …): what the who-wins map
(``engine.pipelines.who_wins_map``) sweeps besides the radius."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_name(base: str) -> Callable[[int], str]:
    """Writes a member as ``base`` with its parameter as a superscript: S³, H⁴."""
    return lambda p: base + str(p).translate(_SUPERSCRIPT)


@dataclass(frozen=True)
class DimensionFamily:
    """A family of spaces with a dimension parameter.

    ``make(p)`` builds the member of parameter p (``parameter``: "d", "k"; from ``min_dim`` to
    ``max_dim``, the sizes whose exact samplers and Fréchet means stay fast) and
    ``name(p)`` writes it (S³, SPD(4)); ``dims`` are the default parameters; ``max_radius`` caps the
    radius grid where Theorem 2 puts no limit (κ <= 0).
    """

    key: str
    label: str
    parameter: str
    parameter_label: str
    make: Callable[[int], object]
    name: Callable[[int], str]
    dims: tuple[int, ...]
    max_radius: float
    min_dim: int
    max_dim: int

    @property
    def baseline_missing(self) -> str | None:
        """Why the map cannot compare on this family (``None`` when it has a Euclidean baseline): a
        baseline needs the ambient ball of ``Manifold.ambient_ball_radius`` for its proven Δ_E."""
        if self.make(self.dims[0]).ambient_ball_radius(1.0) is not None:
            return None
        return (f"{self.label} has no Euclidean baseline yet: no ambient ball is known to hold its geodesic balls, "
                f"so no ambient sensitivity Δ_E is proven")
