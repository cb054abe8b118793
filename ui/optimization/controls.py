"""The Private optimization page's sidebar: every control bound to the URL, turned into one frozen
``Settings``; the paper's presets from ``?preset=NAME`` or the sidebar button."""

from __future__ import annotations

from dataclasses import dataclass

from engine.pipelines.private_optimization import OptimizationConfig
from ui import controls, presets, state
from ui.optimization.apps import (
    APP_LABELS,
    APPS,
    DATASETS,
    DELTAS,
    EPSILONS,
    HELP,
    NOISE,
    PRESET_NOTES,
    PRESETS,
    SPD_APPS,
    TAXONOMIES,
    Slider,
)

#: Session key of the note that a preset was just loaded.
PRESET_NOTE = "opt-preset-note"


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The sidebar's values, everything one run of the page depends on.

    ``data`` is the eigenvector data set or the hyperbolic taxonomy ("synthetic" otherwise); ``size``
    is n, N or the tree depth (0 for a real eigenvector data set); ``steps`` None when T follows the
    paper's rule; ``batch`` 0 for the full batch; ``grid`` None without a study grid; ``burn`` is the
    MH burn-in of the SPD studies' sampled baselines.
    """

    app: str
    data: str
    size: int
    eps: float
    delta: float
    noise: str
    steps: int | None
    batch: int
    eta: float
    reps: int
    seed: int
    grid: str | None
    burn: int

    @property
    def field_for(self) -> dict[str, str]:
        """The fields holding the run's ε and, where ``size`` is the sample size n (not N or a tree's depth), its
        n: how a reader that knows a run's ε and n by those names finds them (the Lesson pack's sliders)."""
        sample = self.size > 0 and APPS[self.app].size.label.startswith("Sample size")
        return {"epsilon": "eps", **({"n": "size"} if sample else {})}

    @property
    def config(self) -> OptimizationConfig:
        """The run of these settings (``engine.pipelines.private_optimization.run``) and the page's settings
        file; a ``ValueError`` names a bad value."""
        return OptimizationConfig(app=self.app, data=self.data, size=self.size, epsilon=self.eps, delta=self.delta,
                                  noise=self.noise, steps=self.steps, batch=self.batch, eta=self.eta, reps=self.reps,
                                  seed=self.seed)


def apply_preset(name: str) -> None:
    """Load preset ``name`` (a button callback)."""
    presets.apply_preset(PRESETS, name, PRESET_NOTE)


def _slider(s: Slider):
    return controls.slider(s.label, s.key, min_value=s.min_value, max_value=s.max_value, default=s.default,
                           step=s.step, help=s.help, fmt=s.fmt)


def sidebar() -> tuple[Settings, list[str]]:
    """Apply ``?preset=`` once, draw every control of the page in the sidebar (each bound to the URL)
    and the preset button, and sync the address; the settings and the URL keys on show."""
    presets.preset_from_url(PRESETS, PRESET_NOTE)
    state.own(["app", "data", "taxonomy", "eps", "delta", "noise", "Trule", "reps", "seed", "grid", "burn",
               *(f"b_{name}" for name in APPS),
               *(slider.key for spec in APPS.values() for slider in (spec.size, spec.steps, spec.eta) if slider)])
    app = controls.select("Application", "app", APP_LABELS, "frechet", help=HELP["app"])
    spec = APPS[app]
    keys = ["app"]
    data, size = "synthetic", 0
    if app == "eigenvector":
        data = controls.select("Data set", "data", DATASETS, "synthetic", help=HELP["data"])
        keys.append("data")
    if app == "hyperbolic":
        data = controls.select("Taxonomy", "taxonomy", TAXONOMIES, "balanced", help=HELP["taxonomy"])
        keys.append("taxonomy")
    if app not in ("eigenvector", "hyperbolic") or data in ("synthetic", "balanced"):
        size = int(_slider(spec.size))
        keys.append(spec.size.key)
    eps = controls.choice_slider("Privacy budget ε", "eps", EPSILONS, 1.0, help=HELP["eps"])
    delta = controls.choice_slider("δ", "delta", DELTAS, 1e-3, help=HELP["delta"])
    noise = controls.select("Noise calibration", "noise", NOISE, "calibrated",
                            help=HELP["noise"].format(c=spec.paper_c))
    keys += ["eps", "delta", "noise"]
    use_rule = spec.rule is not None and controls.toggle("T from the paper's rule", "Trule", default=True,
                                                         help=HELP["Trule"])
    keys += ["Trule"] if spec.rule is not None else []
    steps = None
    if not use_rule:
        steps = int(_slider(spec.steps))
        keys.append(spec.steps.key)
    batch = controls.number("Batch size b (0 = all n)", f"b_{app}", min_value=0, max_value=100_000,
                            default=spec.batch, help=HELP["batch"])
    eta = float(_slider(spec.eta))
    reps = int(controls.slider("Repeats", "reps", min_value=2, max_value=50, default=5, step=1, help=HELP["reps"]))
    seed = controls.seed()
    keys += [f"b_{app}", spec.eta.key, "reps", "seed"]
    grid = None
    if spec.grids:
        grid = controls.select("Study grid", "grid", {name: label for name, (label, _) in spec.grids.items()},
                               "quick", help=HELP["grid"])
        keys.append("grid")
    burn = 200
    if app in SPD_APPS:
        burn = int(controls.slider("MH burn-in of the sampled baselines", "burn", min_value=100, max_value=5_000,
                                   default=200, step=100, help=HELP["burn"]))
        keys.append("burn")
    if spec.preset:
        controls.button("Load the paper's settings", "preset-han", on_click=apply_preset, args=(spec.preset,),
                        help=f"Han et al. {PRESET_NOTES[spec.preset]}. Shareable as ?preset={spec.preset}.")
    state.sync(keys)
    settings = Settings(app=app, data=data, size=size, eps=float(eps), delta=float(delta), noise=noise, steps=steps,
                        batch=int(batch), eta=eta, reps=reps, seed=int(seed), grid=grid, burn=burn)
    return settings, keys
