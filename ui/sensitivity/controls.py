"""The Sensitivity page's sidebar: every widget, bound to the URL, turned into one ``Settings``."""

from __future__ import annotations

from dataclasses import dataclass

from engine import spaces
from engine.pipelines import sensitivity
from ui import controls, glossary, presets, state
from ui.spaces import view

#: The spaces with the paper's data recipe, by the registry's short label (a sidebar select is
#: narrow) with their curvature bound.
SPACES = {key: f"{spaces.space(key).short_label}, κ ≤ {spaces.make_manifold(key).kappa_max:g}"
          for key in sensitivity.SPACES}
#: Data radius of the paper's study on each space (the default here; ``engine.spaces``).
PAPER_RADIUS = {key: spaces.space(key).default_radius for key in SPACES}
#: Slider range of r on each space (its view's).
RADIUS_RANGE = {key: view(key).figure1.radius_range for key in SPACES}
#: Upper curvature bound of each space (SPD affine-invariant has κ in [−1/2, 0]).
OWN_KAPPA = {key: float(spaces.make_manifold(key).kappa_max) for key in SPACES}
#: Named settings, loaded by a sidebar button or ``?preset=NAME`` (``ui.presets``).
PRESETS = {
    "reimherr-theorem2": {"space": "sphere", "r_sphere": float(PAPER_RADIUS["sphere"]), "kappa_sphere": 1.0,
                          "n": 10, "reps": 200, "log": True},
}
PRESET_NOTES = {
    "reimherr-theorem2": "Loaded Theorem 2 of Reimherr, Bharath & Soto (2021) on the sphere: data in a cap of "
                         "radius r = π/8, curvature κ = 1, n = 10. There h = π/4 and Δ = (2 − π/4)/n = 0.1215; 200 "
                         "pairs of neighbouring data sets per n test the bound.",
}
PRESET_NOTE_KEY = "sens-preset-note"


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The page's choices: the simulation's (``config``), the axes and the URL keys on show."""

    space: str
    radius: float
    kappa: float
    n: int
    reps: int
    seed: int
    log_axes: bool
    keys: tuple[str, ...]

    @property
    def config(self) -> sensitivity.SensitivityConfig:
        return sensitivity.SensitivityConfig(space=self.space, radius=self.radius, kappa=self.kappa, n=self.n,
                                             reps=self.reps, seed=self.seed)

    @property
    def radius_max(self) -> float:
        """Top of the radius slider of the space."""
        return RADIUS_RANGE[self.space][1]


def apply_preset(name: str) -> None:
    """Load preset ``name`` (a button callback)."""
    presets.apply_preset(PRESETS, name, PRESET_NOTE_KEY)


def sidebar() -> Settings:
    """Draw the sidebar (applying ``?preset=NAME`` first); return its settings."""
    presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)
    state.own([f"{name}_{key}" for key in SPACES for name in ("r", "kappa")])
    space = controls.space(options=SPACES)
    r_key, k_key = f"r_{space}", f"kappa_{space}"
    r_lo, r_hi = RADIUS_RANGE[space]
    radius = controls.slider(
        "Data radius r", r_key, min_value=r_lo, max_value=r_hi, default=float(PAPER_RADIUS[space]), step=0.01,
        fmt="%.3f", help="All records lie within geodesic distance r of a public centre m0 (Assumption 1). "
                         "The default is the paper's study: r = π/8 on the sphere, r = 1.5 on SPD(2).")
    kappa = controls.slider(
        "Curvature bound κ", k_key, min_value=sensitivity.KAPPA_RANGE[0], max_value=sensitivity.KAPPA_RANGE[1],
        default=OWN_KAPPA[space], step=0.05,
        help=glossary.tooltip("curvature", "The space's own value is the default; κ = 0 stands for every κ ≤ 0, "
                                           "where h = 1."))
    n = controls.sample_size(default=50, max_value=500)
    reps = controls.slider(
        "Replicates", "reps", min_value=20, max_value=1000, default=100, step=10,
        help="Pairs of neighbouring data sets simulated per sample size. More replicates find larger moves "
             "but take longer.")
    seed = controls.seed()
    log_axes = controls.toggle("Logarithmic axes", "log", default=True,
                               help="Log–log axes turn Δ ∝ 1/n into a straight line of slope −1.")
    controls.button("Theorem 2 on the sphere", "preset-theorem2", on_click=apply_preset, args=("reimherr-theorem2",),
                    help="S² with r = π/8, κ = 1 and n = 10, as in the paper's example. "
                         "Shareable as ?preset=reimherr-theorem2.")
    keys = ("space", r_key, k_key, "n", "reps", "seed", "log")
    state.sync(list(keys))
    presets.show_note(PRESET_NOTE_KEY, PRESET_NOTES)
    return Settings(space=space, radius=float(radius), kappa=float(kappa), n=int(n), reps=int(reps), seed=int(seed),
                    log_axes=bool(log_axes), keys=keys)
