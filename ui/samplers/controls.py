"""The Samplers page's sidebar: every widget, bound to the URL, turned into one ``Settings``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine import spaces
from engine.mechanisms import scale_limit
from engine.pipelines import sampler_comparison
from engine.pipelines.sampler_comparison import MANIFOLDS, SamplerComparisonConfig
from ui import controls, glossary, limits, presets, state
from ui.spaces import view

#: The spaces of the comparison, labelled from the registry (``engine.spaces``).
SPACES = {key: spaces.space(key).short_label for key in sampler_comparison.SPACES}
#: Volume density J(ρ) in geodesic polar coordinates, shown next to the radial law.
JACOBIANS = {key: view(key).volume_tex for key in SPACES}
#: Where the Laplace law needs σ below a limit (``scale_limit``), and the spaces' finite injectivity radii.
SCALE_LIMITS = "; ".join(f"σ < {scale_limit(m):.3g} on {SPACES[key]}" for key, m in MANIFOLDS.items()
                         if np.isfinite(scale_limit(m)))
INJECTIVITY = "; ".join(f"{m.injectivity_radius:.3g} on {SPACES[key]}" for key, m in MANIFOLDS.items()
                        if np.isfinite(m.injectivity_radius))
#: Named settings, loaded by a sidebar button or ``?preset=NAME`` (``ui.presets``).
PRESETS = {
    "near-limit": {"space": "hyperbolic", "sigma": 0.95, "adapt": True, "burn": 500, "thin": 5, "draws": 100,
                   "chains": 10},
    "reimherr-mh": {"space": "sphere", "sigma": 0.5, "adapt": True, "burn": 10_000, "thin": 100, "draws": 20,
                    "chains": 10},
}
PRESET_NOTES = {
    "near-limit": "Loaded the near-limit example: H² with σ = 0.95, just below its limit σ < 1, and a 500-step "
                  "burn-in. Compare the two histograms.",
    "reimherr-mh": "Loaded the Metropolis–Hastings settings of the supplement of Reimherr, Bharath & Soto (2021): "
                   "burn-in 10,000 and thinning 100 on S². Each of the 10 chains keeps 20 draws (11,900 steps) to "
                   "stay quick; raise Draws per chain for more.",
}
PRESET_NOTE_KEY = "samplers-preset-note"
#: The URL keys of the page.
KEYS = ("space", "sigma", "adapt", "step", "burn", "thin", "draws", "chains", "seed")


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The page's choices; ``step`` is ignored while ``adapt`` is on."""

    space: str
    sigma: float
    adapt: bool
    step: float
    burn_in: int
    thin: int
    draws: int
    chains: int
    seed: int

    @property
    def config(self) -> SamplerComparisonConfig:
        return SamplerComparisonConfig(space=self.space, sigma=self.sigma, step=None if self.adapt else self.step,
                                       burn_in=self.burn_in, thin=self.thin, draws=self.draws, chains=self.chains,
                                       seed=self.seed)


def apply_preset(name: str) -> None:
    """Load preset ``name`` (a button callback)."""
    presets.apply_preset(PRESETS, name, PRESET_NOTE_KEY)


def sigma_range(space: str, *, low: float, high: float, step: float) -> limits.SliderRange:
    """The σ slider's range on ``space`` (``ui.limits``): below the normalisability limit and below the
    point where the exact density no longer fits in double precision."""
    return limits.scale_range(MANIFOLDS[space], low=low, high=high, step=step,
                              numeric_limit=sampler_comparison.numeric_scale_limit(space))


def sidebar() -> Settings:
    """Draw the sidebar (applying ``?preset=NAME`` first); return its settings."""
    presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)
    state.own(KEYS)
    space = controls.space(options=SPACES, default="sphere")
    sigma_limits = sigma_range(space, low=0.05, high=2.0, step=0.05)
    sigma = controls.slider(
        "Scale σ", "sigma", min_value=sigma_limits.low, max_value=sigma_limits.high, default=0.5, step=0.05,
        help=glossary.tooltip("sigma", f"Here the density is ∝ exp(−ρ(x, η)/σ). It exists only for {SCALE_LIMITS}; "
                                       "close to those limits most mass sits far from η."))
    if sigma_limits.reason:
        controls.caption(sigma_limits.reason)
    adapt = controls.toggle("Adapt the MH step during burn-in", "adapt", default=True,
                            help="Tune the proposal radius towards 30% acceptance in the first half of the burn-in, "
                                 "then freeze it.")
    step = controls.slider(
        "MH step s", "step", min_value=0.05, max_value=5.0, default=1.0, step=0.05,
        help="Proposal radius: each move goes to Exp_x(v) with v uniform in the tangent ball of radius s. "
             f"Must not exceed the injectivity radius ({INJECTIVITY}).")
    burn_in = controls.slider("Burn-in steps", "burn", min_value=10, max_value=10_000, default=500, step=10,
                              help=glossary.tooltip("burn-in", "The papers use 10,000."))
    thin = controls.slider("Thinning", "thin", min_value=1, max_value=100, default=5, step=1,
                           help=glossary.tooltip("thinning", "The papers use 100."))
    draws = controls.slider("Draws per chain", "draws", min_value=10, max_value=500, default=100, step=10,
                            help="Draws kept from each MH chain; the exact sampler draws as many points in total.")
    chains = controls.slider("MH chains", "chains", min_value=1, max_value=20, default=10, step=1,
                             help="Independent chains, all started at the footpoint η and run in parallel.")
    seed = controls.seed()
    controls.button("Near-limit example", "near-limit", on_click=apply_preset, args=("near-limit",),
                    help="H² with σ = 0.95, just below its limit σ < 1, and a 500-step burn-in. "
                         "Shareable as ?preset=near-limit.")
    controls.button("The paper's MH settings", "preset-mh", on_click=apply_preset, args=("reimherr-mh",),
                    help="Burn-in 10,000 and thinning 100 on S², as in the supplement of Reimherr et al. "
                         "Shareable as ?preset=reimherr-mh.")
    state.sync(list(KEYS))
    presets.show_note(PRESET_NOTE_KEY, PRESET_NOTES)
    if adapt:
        controls.caption("The step slider is ignored while the step adapts.")
    return Settings(space=space, sigma=float(sigma), adapt=bool(adapt), step=float(step), burn_in=int(burn_in),
                    thin=int(thin), draws=int(draws), chains=int(chains), seed=int(seed))
