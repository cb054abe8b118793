"""The Utility page's sidebar: every widget, bound to the URL, turned into one ``Settings``."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine import bounds, spaces
from engine.mechanisms import specs
from engine.pipelines import figure1_setting, utility
from ui import controls, presets, state
from ui.sensitivity.controls import PAPER_RADIUS, RADIUS_RANGE, SPACES
from ui.spaces import view

N_GRID_LABELS = {"quick": "Quick: 10, 20, 50, 100, 300",
                 "paper": f"Figure 1: n = {min(figure1_setting.DEFAULT_NS)} … {max(figure1_setting.DEFAULT_NS)}"}
CONSTANTS = {"theorem": "Theorem 2 (proven)",
             "empirical": "Paper's constant (unproven)"}
SOLVE = {"eps": "ε, holding n of the ε sweep", "n": "n, holding ε"}
PRESETS = {
    "reimherr-fig1": {"space": "spd", "r_spd": PAPER_RADIUS["spd"], "r_sphere": float(PAPER_RADIUS["sphere"]),
                      "sconst": "empirical", "ngrid": "paper", "eps": 1.0, "reps": 200, "paper": True},
}
PRESET_NOTE_KEY = "preset-note"
#: Step of the radius slider.
RADIUS_STEP = 0.01


def radius_range(space: str) -> tuple[float, float]:
    """The radius slider's range: the Sensitivity page's, cut on the slider's grid below Theorem 2's limit
    r* = min(inj/2, π/(4√κ)) of the space, beyond which no constant calibrates the noise and the page could only
    say so (the sphere's slider reached 1.5, past r* = π/4)."""
    low, high = RADIUS_RANGE[space]
    manifold = spaces.make_manifold(space)
    limit = float(bounds.radius_limits(manifold.kappa_max, manifold.injectivity_radius).sensitivity)
    if math.isfinite(limit):
        high = min(high, round((math.ceil(limit / RADIUS_STEP) - 1) * RADIUS_STEP, 10))
    return low, high


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The page's choices: the simulation's (``config``), the axes, the planner's and the URL keys."""

    space: str
    radius: float
    sphere_constant: str
    grid: str
    epsilon: float
    n: int
    reps: int
    seed: int
    log_axes: bool
    paper_baseline: bool
    added: tuple[str, ...] = ()
    target: float
    solve: str
    keys: tuple[str, ...]

    @property
    def config(self) -> utility.UtilityConfig:
        return utility.UtilityConfig(space=self.space, radius=self.radius, sphere_constant=self.sphere_constant,
                                     ns=utility.N_GRIDS[self.grid], epsilon=self.epsilon, n=self.n, reps=self.reps,
                                     seed=self.seed, paper_baseline=self.paper_baseline, added=self.added)


def apply_preset(name: str) -> None:
    """Load preset ``name`` (a button callback)."""
    presets.apply_preset(PRESETS, name, PRESET_NOTE_KEY)


def _preset_notes(space: str) -> dict:
    """What the page says (once) when Figure 1's settings were loaded, for the space on show."""
    shown = view(space).figure1
    others = " or ".join(view(key).figure1.setting for key in SPACES if key != space)
    where = f"{shown.setting}{shown.setting_detail} (switch the space for {others})"
    return {"reimherr-fig1": f"Loaded the settings of Figure 1 of Reimherr, Bharath & Soto (2021): {where}, "
                             "n = 10 … 300, ε = 1. The paper averaged 1,000 replicates; the preset uses 200 to keep "
                             "the page quick: raise the Replicates slider to match."}


def _added_toggle(spec) -> dict:
    """Label, URL key and help of the switch adding ``spec``'s mechanism (``utility.ADDABLE``) to the page."""
    delta = f", δ = {utility.UtilityConfig.delta:g}" if spec.needs_delta else ""
    planner = (" Its σ is not ∝ 1/ε, so the budget planner leaves it out." if spec.guarantee != "ε-DP" else "")
    return dict(label=f"Add the {spec.label} ({spec.guarantee}{delta})", key=f"add_{spec.key}",
                help=f"{spec.long_label}, calibrated at the page's n and ε{delta}, simulated on the same data sets "
                     f"beside Figure 1's mechanisms.{planner}")


def sidebar() -> Settings:
    """Draw the sidebar (applying ``?preset=NAME`` first); return its settings."""
    presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)
    state.own([*(f"r_{key}" for key in SPACES), "sconst"])
    space = controls.space(options=SPACES)
    r_key = f"r_{space}"
    r_lo, r_hi = radius_range(space)
    radius = controls.slider(
        "Data radius r", r_key, min_value=r_lo, max_value=r_hi, default=float(PAPER_RADIUS[space]), step=RADIUS_STEP,
        fmt="%.3f", help="Records lie within geodesic distance r of m0; the noise grows with r. "
                         "Figure 1 uses r = π/8 on the sphere and r = 1.5 on SPD(2).")
    sphere_constant = "theorem"
    boundary = figure1_setting.RECIPES[space].boundary_constant  # the paper's study used it (on the sphere)
    if boundary:
        sphere_constant = controls.select(
            "Sensitivity constant", "sconst", CONSTANTS, "theorem",
            help="C in σ = C/(nε). Theorem 2 gives C = 2r(2 − h)/h, a proven bound and the default; the paper's "
                 "sphere study put the supplement's numerical boundary constant max ‖log_{x1} x_i − log_{x1} x_j‖ "
                 "over ∂B_r in place of 2r(2 − h): smaller, not proven, loaded by the Figure 1 preset to reproduce "
                 "the paper.")
    grid = controls.select("Sample sizes n", "ngrid", N_GRID_LABELS, "quick",
                           help="The values of n of the error-against-n chart; Figure 1 uses ten sizes from 10 to "
                                "300.")
    eps = controls.epsilon()
    n = controls.slider("Sample size n of the ε sweep", "n", min_value=5, max_value=500, default=50, step=5,
                        help="The error-against-ε chart holds n at this value.")
    reps = controls.slider("Replicates", "reps", min_value=20, max_value=1000, default=200, step=10,
                           help="Data sets simulated per point. Figure 1 used 1,000; fewer are faster, with wider "
                                "bands and a who-wins verdict that more often cannot tell the two apart.")
    seed = controls.seed()
    log_axes = controls.toggle("Logarithmic axes", "log", default=True,
                               help="Log–log axes turn error ∝ 1/(nε) into a straight line of slope −1.")
    paper_baseline = controls.toggle(
        "Add the paper's Euclidean baseline (not ε-DP)", "paper", default=False,
        help="Figure 1 adds the Euclidean noise around the Fréchet mean, whose ambient sensitivity exceeds 2r_E/n: "
             "that release is not ε-DP (its true ε on a neighbouring pair is printed below the charts).")
    manifold = spaces.make_manifold(space)
    addable = [specs.spec(key) for key in utility.ADDABLE]
    addable = [spec for spec in addable if spec.supports is None or spec.supports(manifold)]
    added = tuple(spec.key for spec in addable if controls.toggle(**_added_toggle(spec), default=False))
    controls.button("Load Figure 1 settings", "preset-fig1", on_click=apply_preset, args=("reimherr-fig1",),
                    help="SPD(2) with r = 1.5 (sphere: r = π/8), n = 10 … 300, ε = 1, 200 replicates. "
                         "Shareable as ?preset=reimherr-fig1.")
    controls.header("Budget planner")
    target = controls.slider("Target mean error", "target", min_value=0.005, max_value=1.0, default=0.05,
                             step=0.005, help="The mean ambient error ‖x̃ − x̄‖ you can accept; the planner finds the "
                                              "ε or n it needs.")
    solve = controls.select("Solve for", "solve", SOLVE, "eps",
                            help="Which of the two the planner finds; the other keeps its sidebar value.")
    keys = ("space", r_key, *(["sconst"] if boundary else []), "ngrid", "eps", "n", "reps", "seed", "log",
            "paper", *(f"add_{spec.key}" for spec in addable), "target", "solve")
    state.sync(list(keys))
    presets.show_note(PRESET_NOTE_KEY, _preset_notes(space))
    return Settings(space=space, radius=float(radius), sphere_constant=sphere_constant, grid=grid,
                    epsilon=float(eps), n=int(n), reps=int(reps), seed=int(seed), log_axes=bool(log_axes),
                    paper_baseline=bool(paper_baseline), added=added, target=float(target), solve=solve, keys=keys)
