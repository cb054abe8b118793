"""What the engine, the charts and the pages know about one mechanism of the private-mean family."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.spaces.entry import DEFAULT_LANDMARKS

#: The σ a mechanism is calibrated from: Theorem 2's Δ of the Fréchet mean (Reimherr, Bharath & Soto
#: 2021), the ambient mean's Δ_E = 2 r_E/n, or the tangent Δ_T = L·Δ of log_m0 of the Fréchet mean.
SENSITIVITIES = ("theorem2", "ambient", "tangent")
#: The sensitivities Figure 1's sweeps know how to compute at each n: C/n and Δ_E.
FIGURE1_SENSITIVITIES = ("theorem2", "ambient")
#: The summary a mechanism releases around.
STATISTICS = ("frechet", "ambient")


@dataclass(frozen=True)
class NoiseNumbers:
    """What a playground run computed for one mechanism, from which its spec writes how σ came about.

    ``footpoint_dependent``: whether the mechanism's normaliser depends on its footpoint (Theorem 1's factor 2);
    ``ambient_radius`` r_E and ``ambient_radius_tex`` (its TeX in r, ``SpaceEntry.ambient_radius_formula``): the
    ambient ball's, for an ambient sensitivity; ``lipschitz``: L of Log at m₀ on B_r(m₀), for a tangent one. Each is
    ``None`` where the run did not compute it.
    """

    epsilon: float
    delta: float
    sigma: float
    sensitivity: float
    kappa_max: float
    footpoint_dependent: bool | None = None
    ambient_radius: float | None = None
    ambient_radius_tex: str | None = None
    lipschitz: float | None = None


@dataclass(frozen=True)
class NoiseFormula:
    """How a mechanism's σ follows from its sensitivity: a sentence, then formulas in TeX with the numbers plugged
    in (``engine.formulas``), one display each."""

    text: str
    tex: tuple[str, ...]


@dataclass(frozen=True)
class MechanismSpec:
    """One mechanism, in the one vocabulary every layer uses (``key``).

    Attributes
    ----------
    key : str
        The name in addresses, settings files, command lines, result frames and the palette.
    label, long_label, chip, audit_label : str
        Legend label; the pipeline's description; the playground's option; the audit's target name.
    color, symbol, dash : str
        Colour of ``engine.viz.palette.COLOUR_SET`` (Okabe–Ito, then Paul Tol's schemes), plotly marker of
        ``palette.SYMBOLS_3D`` and line dash, which ``engine.viz.palette`` reads: every mechanism has its own dash
        and is told apart from every other on a chart, for colour-blind viewers too (``palette.clashes``).
    rim : bool
        Its markers wear a dark outline (``palette.RIM``), the second channel beside the symbol once two
        mechanisms' colours are close for a colour-blind viewer; ``palette.free_looks`` proposes a free look.
    guarantee : str
        ``"ε-DP"``, ``"(ε, δ)-DP"`` (needs a δ) or ``"none"`` (a control that claims ε but breaks it).
    sensitivity : one of ``SENSITIVITIES``
    statistic : one of ``STATISTICS``
    law : str
        The name of the law the mechanism claims to release; mechanisms releasing the same law share it (the Utility
        page's Theorem 3 and the playground's who-wins sentence read the Riemannian Laplace's).
    off_manifold : bool
        Releases may leave the manifold (ambient noise), so errors project them back.
    requires_ambient : bool
        Needs the space to sit in ambient coordinates (an ambient ball around B_r(m0)).
    normalisable_only : bool
        An unconditioned law on the space: σ must stay below ``scale_limit`` (H^d, SPD).
    chain : bool
        Drawn by a Markov chain (burn-in, thinning, step; approximate).
    common_draws : bool
        Releases at several ε share one set of standard draws (``engine.mechanisms.common_draws``).
    baseline : bool
        A baseline the playground shows by default against the intrinsic mechanism.
    playground, figure1 : bool
        Offered by the private-mean playground; part of Figure 1 of Reimherr et al. (its study and the Utility page).
    utility : bool
        Compared on the Utility page beside Figure 1's mechanisms (where ``supports`` holds, an (ε, δ) one at the
        page's δ); needs ``draw``.
    build : callable ``(manifold, *, epsilon, sensitivity, delta, m0) -> mechanism``
        The calibrated mechanism; its ``sigma`` is the one every caller reads.
    noise_formula : callable ``NoiseNumbers -> NoiseFormula | None``
        How its σ follows from its sensitivity, with a run's numbers (the playground's noise box); ``None`` where
        the run has nothing to show (σ not computed).
    audit_pair_gap : callable ``pair -> float``
        How far a neighbouring pair (``engine.audit.pairs.NeighbouringPair``) moves the summary the mechanism
        releases around: the audits' adversarial pair is the one that moves it furthest.
    audit_target : callable ``(mechanism, pair, *, sensitivity) -> engine.audit.target.AuditTarget``
        The audit of the built mechanism on the pair: the log-likelihood ratio of its law as statistic and, as
        notes, how much of ``sensitivity`` the pair reaches (``engine.audit.target.reach_note``).
    scale : callable ``(manifold, *, epsilon, sensitivity, delta) -> float``
        The σ ``build`` would take, also where it refuses a non-normalisable law (to say why).
    draw : callable ``(manifold, footpoint, sigma, *, rng) -> points`` or None
        The sampler at a given σ, for the Figure 1 sweeps.
    error_radius : callable ``(manifold, sigma, size, rng) -> (size,)`` or None
        Draws of the geodesic error ρ(η, release), whose law depends on σ only on a homogeneous space: the
        who-wins map (``engine.pipelines.who_wins_map``) compares the mechanisms that have it.
    flat_error : callable ``(dim) -> float`` or None
        E ρ/σ of the law in Rᵈ, the who-wins map's noise-alone prediction (``error_radius`` needs it).
    supports : callable ``(manifold) -> bool`` or None
        On which spaces the mechanism's guarantee can be stated (``None``: every space); the playground and
        the audits offer it only there (``offered_on``).
    solved_scale : bool
        ``scale`` solves for σ numerically, seconds per sensitivity (the Riemannian Gaussian's μ by quadrature):
        a page that calibrates many sensitivities at once (the who-wins map) maps fewer of them.
    """

    key: str
    label: str
    long_label: str
    chip: str
    audit_label: str
    color: str
    symbol: str
    dash: str
    guarantee: str
    sensitivity: str
    statistic: str
    law: str
    build: Callable
    scale: Callable
    noise_formula: Callable[[NoiseNumbers], NoiseFormula | None]
    audit_pair_gap: Callable
    audit_target: Callable
    draw: Callable | None = None
    off_manifold: bool = False
    requires_ambient: bool = False
    normalisable_only: bool = False
    chain: bool = False
    common_draws: bool = False
    baseline: bool = False
    playground: bool = True
    figure1: bool = False
    utility: bool = False
    error_radius: Callable | None = None
    flat_error: Callable | None = None
    supports: Callable | None = None
    rim: bool = False
    solved_scale: bool = False

    def __post_init__(self):
        if self.sensitivity not in SENSITIVITIES:
            raise ValueError(f"sensitivity must be one of {SENSITIVITIES}, got {self.sensitivity!r}")
        if self.statistic not in STATISTICS:
            raise ValueError(f"statistic must be one of {STATISTICS}, got {self.statistic!r}")
        if (self.figure1 or self.utility) and self.sensitivity not in FIGURE1_SENSITIVITIES:
            raise ValueError(f"{self.key}: Figure 1's sweeps and the Utility page calibrate a sensitivity of "
                             f"{FIGURE1_SENSITIVITIES} (engine.pipelines.figure1_setting.sensitivity), "
                             f"got {self.sensitivity!r}")
        if (self.error_radius is None) != (self.flat_error is None):
            raise ValueError(f"{self.key}: error_radius and flat_error go together (the who-wins map needs both)")

    def offered_on(self, entry) -> bool:
        """Whether the space of registry entry ``entry`` (``engine.spaces.SpaceEntry``) offers this mechanism: an
        ambient one only where the space sits in ambient coordinates, and only where ``supports`` holds."""
        if self.requires_ambient and not entry.embedded_in_ambient:
            return False
        return self.supports is None or bool(self.supports(entry.make(DEFAULT_LANDMARKS)))

    @property
    def needs_theorem2(self) -> bool:
        """Whether its Δ is built on Theorem 2's bound for the Fréchet mean (that bound, or its tangent image L·Δ),
        so a radius beyond Theorem 2's domain leaves it uncalibrated; the ambient Δ_E does without it."""
        return self.sensitivity != "ambient"

    @property
    def needs_delta(self) -> bool:
        """Whether the guarantee is (ε, δ)-DP, so a δ must be chosen."""
        return self.guarantee == "(ε, δ)-DP"
