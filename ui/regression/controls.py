"""Sidebar of the Private regression page, every widget bound to the URL (keys prefixed ``reg_``)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from engine.pipelines.private_regression import DEFAULT_TAU, RegressionConfig
from ui import controls, presets, state

DATASETS = {
    "callosum": "Callosum vs age (synthetic)",
    "cells": "Cell outlines vs size (real)",
    "drift": "S² directions vs time",
}
EPS_GRID = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0)
TAU_GRID = (0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5)
PRESETS = {
    "kulkarni-soto-fig1": {"reg_data": "callosum", "reg_n": 100, "reg_k": 50, "reg_eps_p": 0.3, "reg_eps_v": 0.3,
                           "reg_tau": 0.05, "reg_paper_scale": False, "reg_clip": True,
                           "reg_view": "Figure 1 curves"},
}
PRESET_NOTE_KEY = "reg-preset-note"
PRESET_NOTES = {
    "kulkarni-soto-fig1": "Loaded the Figure 1 settings of Kulkarni & Soto: Σ^50_2, n = 100, ε_p = ε_v = 0.3 "
                          "(Figure 2's split).",
}
KEYS = ("reg_data", "reg_n", "reg_k", "reg_eps_p", "reg_eps_v", "reg_tau", "reg_releases", "reg_paper_scale",
        "reg_clip", "reg_warmup", "reg_seed")


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The page's choices: the engine run's (``config``), the Figure 1 study's and the URL keys on show."""

    dataset: str
    n: int
    k: int
    eps_p: float
    eps_v: float
    tau: float
    releases: int
    paper_scale: bool
    clip: bool
    warmup: int
    seed: int
    keys: tuple[str, ...] = KEYS

    @property
    def scale(self) -> str:
        """The noise scale rule of ``engine.mechanisms.dp_geodesic_regression``: the paper's σ = Δ/ε or σ = 2Δ/ε."""
        return "paper" if self.paper_scale else "private"

    @property
    def config(self) -> RegressionConfig:
        """The engine run (``engine.pipelines.private_regression.run``); a ``ValueError`` names a bad value."""
        return RegressionConfig(dataset=self.dataset, n=self.n, k=self.k, epsilon_p=self.eps_p, epsilon_v=self.eps_v,
                                tau=self.tau, releases=self.releases, scale=self.scale, clip_residuals=self.clip,
                                warmup=self.warmup, seed=self.seed)


def sidebar() -> Settings:
    """Draw the sidebar (applying ``?preset=NAME`` first) and say which preset was loaded; return its settings."""
    preset = presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)
    state.own(KEYS)
    if preset:
        st.query_params["reg_view"] = PRESETS[preset]["reg_view"]
    dataset = controls.select("Data set", "reg_data", DATASETS, "callosum",
                              "Shapes live on Kendall's shape space Σ^k_2 (curvature 1 to 4); directions on S².")
    n = controls.slider("Sample size n", "reg_n", min_value=20, max_value=300, default=100, step=10,
                        help="Number of records; Table 1's sensitivities shrink like 1/n.")
    k = 50
    if dataset != "drift":
        k = controls.slider("Landmarks k", "reg_k", min_value=10, max_value=100, default=50, step=10,
                            help="Landmarks per outline (the paper uses 50); the space has dimension 2k − 4.")
    eps_p = controls.choice_slider("Footpoint budget ε_p", "reg_eps_p", EPS_GRID, 0.3,
                                   "Privacy budget of the released footpoint p̃.")
    eps_v = controls.choice_slider("Shooting-vector budget ε_v", "reg_eps_v", EPS_GRID, 0.3,
                                   "Privacy budget of the released shooting vector ṽ; the total is ε_p + ε_v.")
    tau = controls.choice_slider("Residual bound τ", "reg_tau", TAU_GRID, DEFAULT_TAU[dataset],
                                 "Public bound on the distance of each record from the fitted geodesic; residuals "
                                 "above it are clipped. Table 1: Δ_p = Δ_v = 2τ/n when the curvature is ≥ 0.")
    releases = controls.slider("Private releases drawn", "reg_releases", min_value=1, max_value=20, default=5, step=1,
                               help="How many private (p̃, ṽ) pairs to draw, to see their spread.")
    paper = controls.toggle("Paper's scale σ = Δ/ε", "reg_paper_scale", default=False,
                            help="Kulkarni & Soto's densities use σ = Δ/ε; with a data-dependent normaliser that is "
                                 "2ε-DP. Off: σ = 2Δ/ε, which is ε-DP.")
    clip = controls.toggle("Clip residuals at τ", "reg_clip", default=True,
                           help="On: Table 1's bound holds at every (p, v) the sampler visits. Off: the paper's "
                                "unclipped law, whose bound only holds where every residual stays below τ.")
    warmup = controls.slider("MH warm-up steps", "reg_warmup", min_value=100, max_value=2000, default=400, step=100,
                             help="Warm-up of the footpoint chains (the shooting-vector chains get half); both then "
                                  "run at least as many steps again (and at least 600) for the diagnostics. Too short "
                                  "and the four chains disagree: split R̂ rises above 1.01.")
    seed = controls.seed("reg_seed")
    state.sync([key for key in KEYS if key in st.session_state])
    presets.show_note(PRESET_NOTE_KEY, PRESET_NOTES)
    return Settings(dataset=dataset, n=int(n), k=int(k), eps_p=float(eps_p), eps_v=float(eps_v), tau=float(tau),
                    releases=int(releases), paper_scale=bool(paper), clip=bool(clip), warmup=int(warmup),
                    seed=int(seed))
