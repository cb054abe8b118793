"""Sidebar of the Audit page: mechanism, space, ε, sample budget, seed and the positive control."""

from __future__ import annotations

from dataclasses import dataclass

from engine.audit import AUDITS, space_label
from engine.audit.registry import twin_name
from engine.pipelines.audit import CONTROLS, MECHANISMS, AuditConfig
from ui import controls, state

SAMPLES = (20_000, 100_000, 200_000, 1_000_000)
#: The control select's label of the chosen mechanism's own 2× twin (its full title names the mechanism).
TWIN_LABEL = "Its 2× twin (2ε claiming ε)"


@dataclass(frozen=True)
class Settings:
    """What the page audits (hashable, for the cache)."""

    name: str
    space: str
    epsilon: float
    samples: int
    seed: int
    control: str

    @property
    def config(self) -> AuditConfig:
        """The ``audit`` pipeline's config of these settings (the page's settings file)."""
        return AuditConfig(audit=self.name, space=self.space, epsilon=self.epsilon, samples=self.samples,
                           seed=self.seed, control=self.control)


def space_name(key: str) -> str:
    """The label of a space of the audits (the app's name for it where it has one)."""
    return controls.SPACES.get(key, space_label(key))


def sidebar() -> tuple[Settings, list[str]]:
    """Draw the controls (seeded from the address) and return the settings and the URL keys."""
    keys = ["audit", "space", "eps", "samples", "seed", "control"]
    name = controls.select("Mechanism", "audit", {key: AUDITS[key].title for key in MECHANISMS}, "laplace",
                           help="The mechanism whose claimed ε is put to the test.")
    spaces = AUDITS[name].spaces
    space = controls.select("Space", "space", {key: space_name(key) for key in spaces}, spaces[0],
                            help="Where the neighbouring data sets and the releases live.")
    epsilon = controls.number("Claimed ε", "eps", min_value=0.05, max_value=10.0, default=1.0, step=0.1,
                              help="The privacy budget the mechanism is run at and claims to keep.")
    default_samples = AUDITS[name].default_samples
    budgets = {value: f"{value:,}" + (" (this mechanism's default)" if value == default_samples else "")
               for value in sorted({*SAMPLES, default_samples})}
    samples = controls.select("Releases per side (budget)", "samples", budgets, default_samples,
                              help="How many releases on each data set the audit may draw; more can show a larger "
                                   "lower bound on ε. At the mechanism's default budget the audit flags its 2× twin.")
    seed = controls.seed()
    own_twin = twin_name(name)
    offered = {key: TWIN_LABEL if key == own_twin else AUDITS[key].title for key in CONTROLS
               if key == own_twin or not AUDITS[key].name.startswith(twin_name(""))}
    control = controls.select("Positive control beside it", "control", offered, "control-half-noise",
                              help="A deliberately broken mechanism, audited the same way: it must be flagged.")
    state.sync(keys)
    return Settings(name, space, float(epsilon), int(samples), int(seed), control), keys
