"""What the engine keeps about one space: ``SpaceEntry`` and the settings it carries.

Every field of an entry is set, or ``NotOffered`` with the reason the space lacks it (the registry's
completeness test reads those reasons). The settings are the paper's Figure 1 recipe
(``PaperRecipe``, Reimherr, Bharath & Soto 2021, §5), the audit's public ball (``AuditSetting``) and
the sampler comparison's defaults (``SamplerSetting``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from engine.mechanisms import radial_law, sample_radius
from engine.spaces.family import DimensionFamily
from engine.spaces.source import DataSource

#: Landmarks of the planar shapes unless the caller chooses.
DEFAULT_LANDMARKS = 12


@dataclass(frozen=True)
class NotOffered:
    """A capability the space does not have, and why (a sentence shown to whoever asks for it)."""

    reason: str

    def __post_init__(self):
        if not self.reason.strip():
            raise ValueError("NotOffered needs a reason, got an empty string")


@dataclass(frozen=True)
class PaperRecipe:
    """The paper's study of one space (Figure 1 of Reimherr, Bharath & Soto 2021).

    Attributes
    ----------
    generate : callable ``(n, radius, reps, rng) -> (reps, n, *point_shape)``
        The data generator (supplement §2.1).
    title : str
        The space and radius as the figure's panels name them, e.g. ``"S², r = π/8"``.
    panels : (int, int)
        Numbers of its sensitivity and utility panels in the figure.
    boundary_constant : bool
        Whether the paper calibrated σ with the supplement's empirical boundary constant instead of
        Theorem 2's 2r(2 − h) (its sphere study, supplement §1.3.2); ``sphere_constant`` then chooses.
    """

    generate: Callable[..., np.ndarray]
    title: str
    panels: tuple[int, int]
    boundary_constant: bool = False


@dataclass(frozen=True)
class AuditSetting:
    """A space of the audits: its label, manifold, the public data radius r and the number of records n."""

    label: str
    make: Callable[[], object]
    radius: float
    n: int = 10


def radial_law_radii(manifold, sigma: float, size: int, rng) -> np.ndarray:
    """Exact draws of ρ = d(η, X) from the space's radial law (``engine.mechanisms.radial``)."""
    return sample_radius(radial_law(manifold), sigma, size, rng)


def radial_law_envelope(manifold) -> tuple[int, float, float]:
    """(n, c, support) of the radial law: its Gamma envelope ρ^{n−1} e^{cρ} and largest distance."""
    law = radial_law(manifold)
    return law.shape, law.growth, law.support


@dataclass(frozen=True)
class SamplerSetting:
    """How the sampler comparison (``engine.pipelines.sampler_comparison``) treats the space.

    Attributes
    ----------
    sigmas : (float, float)
        Scales σ of the sampler study (``engine.experiments.sampler_check``).
    landmarks : int
        ``k`` the comparison builds the space with (read by landmark spaces only).
    radii : callable ``(manifold, sigma, size, rng) -> (size,)``
        Exact draws of the distance to the footpoint.
    envelope : callable ``manifold -> (n, c, support)``
        The radial law's Gamma envelope ρ^{n−1} e^{cρ} and its support (``inf`` when not compact).
    representable_sigma : float
        Largest σ whose exact releases float64 holds (``inf``: every normalisable σ).
    """

    sigmas: tuple[float, float]
    landmarks: int = DEFAULT_LANDMARKS
    radii: Callable[..., np.ndarray] = radial_law_radii
    envelope: Callable[[object], tuple[int, float, float]] = radial_law_envelope
    representable_sigma: float = np.inf


@dataclass(frozen=True)
class SpaceEntry:
    """One space: everything the engine keeps about it.

    ``make(k)`` builds it (``k`` = landmarks, read only when ``landmarks``); ``label`` names it with
    what it models, ``short_label`` fits a narrow sidebar select; ``data_sources`` maps the data
    sources' URL values to their ``DataSource`` in display order, the first being the default;
    ``default_radius`` is the public ball's radius r around m0 = ``manifold.origin``.
    ``ambient_radius_tex`` is the formula of ``Manifold.ambient_ball_radius`` in TeX with ``{r}`` for
    the radius: the Euclidean baseline's calibration (``NotOffered`` where the space states no
    ambient ball). ``recipe``, ``audit`` and ``sampler`` are the settings of the paper's study, the
    audits and the sampler comparison.
    """

    key: str
    label: str
    short_label: str
    make: Callable[[int], object]
    default_radius: float
    data_sources: dict[str, DataSource]
    ambient_radius_tex: str | NotOffered
    recipe: PaperRecipe | NotOffered
    audit: AuditSetting | NotOffered
    sampler: SamplerSetting | NotOffered
    family: DimensionFamily | NotOffered
    landmarks: bool = False

    @property
    def sources(self) -> dict[str, str]:
        """URL value → label of each data source, in display order."""
        return {name: source.label for name, source in self.data_sources.items()}

    def ambient_radius_formula(self, r: str = "r") -> str:
        """r_E in TeX with ``r`` (a symbol or a number's text) for the radius, e.g. ``2\\sin(r/2)``."""
        if isinstance(self.ambient_radius_tex, NotOffered):
            raise ValueError(f"space {self.key!r} states no ambient ball, so it has no ambient radius formula: "
                             f"{self.ambient_radius_tex.reason}")
        return self.ambient_radius_tex.format(r=r)

    @property
    def embedded_in_ambient(self) -> bool:
        """Its ``to_ambient`` coordinates hold every geodesic ball in an ambient ball
        (``Manifold.ambient_ball_radius``): ambient distances mean something there, and the Euclidean
        Laplace baseline, which needs that ball, can be calibrated."""
        return self.make(DEFAULT_LANDMARKS).ambient_ball_radius(self.default_radius) is not None


def offered(value) -> bool:
    """Whether a field of an entry holds a capability (anything but ``NotOffered``)."""
    return not isinstance(value, NotOffered)
