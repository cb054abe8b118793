"""Sidebar of the Private subspaces page: every widget, bound to the URL, turned into one config."""

from __future__ import annotations

import streamlit as st

from engine.pipelines.private_subspace import METHODS, PrivateSubspaceConfig
from ui import controls, glossary, presets, state

SHAPES = {"plane": "a plane (k = 2)", "line": "a line (k = 1)"}
DIMENSION = {"plane": 2, "line": 1}
SAMPLE_SIZES = (20, 50, 100, 200, 500, 1000, 1500, 2000, 3000)
DELTAS = (1e-3, 1e-4, 1e-5, 1e-6, 1e-8, 1e-10)
NOISES = (0.0, 1e-8, 1e-6, 1e-4, 1e-2, 0.05, 0.1, 0.3)
DEFAULTS = dict(shape="plane", method="exact", n=200, delta=1e-6, noise=0.0, outliers=0, releases=50)
KEYS = ["shape", "method", "n", "eps", "delta", "noise", "outliers", "releases", "seed"]
#: Named settings, loaded from ``?preset=NAME`` (``ui.presets``; Home's link carries the values as well).
PRESETS = {
    "singhal-steinke-plane": {"shape": "plane", "method": "exact", "n": 200, "eps": 1.0, "delta": 1e-6, "outliers": 5},
}
PRESET_NOTES = {
    "singhal-steinke-plane": "Loaded Theorem 3.2 of Singhal & Steinke (2021): n = 200 points of a plane in R³, 5 of "
                             "them adversarial, released by the exact method at ε = 1, δ = 10⁻⁶.",
}
PRESET_NOTE_KEY = "subspaces-preset-note"


def _keep_valid(key: str, options, default) -> None:
    """A session value left by another page under the same key (another range) goes back to ``default``."""
    if key in st.session_state and st.session_state[key] not in options:
        st.session_state[key] = default


def sidebar() -> tuple[PrivateSubspaceConfig, list[str]]:
    """Draw the controls (seeded from the address); return the config and the URL keys."""
    presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)
    shape = controls.select("Points near", "shape", SHAPES, DEFAULTS["shape"],
                            help="The data: points of R³ in a plane or on a line through the origin (the true "
                                 "subspace U), plus noise and outliers.")
    method = controls.select(
        "Method", "method", METHODS, DEFAULTS["method"],
        help="Singhal–Steinke exact: finds the subspace holding all but ℓ points, or answers ⊥. Approximate: "
             "subsample-and-aggregate for noisy data (needs n in the thousands). Analyze Gauss and the "
             "exponential mechanism add noise whose size grows with the dimension. Non-private PCA: no privacy.")
    _keep_valid("n", SAMPLE_SIZES, DEFAULTS["n"])
    n = controls.choice_slider("Sample size n", "n", SAMPLE_SIZES, DEFAULTS["n"],
                               help="Number of points. Each private method needs a minimum n for its guarantee; "
                                    "the page says which when n is too small.", fmt=lambda v: f"{v:,}")
    epsilon = controls.epsilon()
    _keep_valid("delta", DELTAS, DEFAULTS["delta"])
    delta = controls.choice_slider("δ", "delta", DELTAS, DEFAULTS["delta"],
                                   help=glossary.tooltip("delta", "The exact method's n grows only like log(1/δ)/ε."))
    _keep_valid("noise", NOISES, DEFAULTS["noise"])
    noise = controls.choice_slider("Noise off the subspace", "noise", NOISES, DEFAULTS["noise"],
                                   help="Standard deviation of isotropic noise added to every point. The exact "
                                        "method needs points exactly in U; the approximate one is told γ = noise.")
    outliers = controls.slider("Outliers (adversarial points)", "outliers", min_value=0, max_value=20,
                               default=DEFAULTS["outliers"], step=1,
                               help="Points replaced by Gaussian points off U. The Singhal–Steinke methods are "
                                    "told how many to tolerate (ℓ), which raises the n they need.")
    releases = controls.slider("Private releases to draw", "releases", min_value=10, max_value=200,
                               default=DEFAULTS["releases"], step=10,
                               help="How many times the method runs on the same data: the ⊥ rate and the angles "
                                    "are shares and medians over these releases.")
    seed = controls.seed()
    state.sync(KEYS)
    presets.show_note(PRESET_NOTE_KEY, PRESET_NOTES)
    config = PrivateSubspaceConfig(k=DIMENSION[shape], d=3, n=int(n), epsilon=float(epsilon), delta=float(delta),
                                   noise=float(noise), outliers=int(outliers), method=method,
                                   releases=int(releases), seed=int(seed))
    return config, list(KEYS)
