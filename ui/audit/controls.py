"""Sidebar of the Audit page: mechanism, space, ε, sample budget, seed and the positive control."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from engine.audit import AUDITS
from ui import state

MECHANISMS = tuple(name for name, spec in AUDITS.items() if not spec.control)
CONTROLS = tuple(name for name, spec in AUDITS.items() if spec.control)
SAMPLES = (20_000, 100_000, 200_000, 1_000_000)


@dataclass(frozen=True)
class Settings:
    """What the page audits (hashable, for the cache)."""

    name: str
    space: str
    epsilon: float
    samples: int
    seed: int
    control: str


def sidebar() -> tuple[Settings, list[str]]:
    """Draw the controls (seeded from the address) and return the settings and the URL keys."""
    keys = ["audit", "space", "eps", "samples", "seed", "control"]
    with st.sidebar:
        state.init("audit", "laplace", options=MECHANISMS)
        name = st.selectbox("Mechanism", MECHANISMS, key="audit", format_func=lambda k: AUDITS[k].title)
        spaces = AUDITS[name].spaces
        state.init("space", spaces[0], options=spaces)
        if st.session_state["space"] not in spaces:
            st.session_state["space"] = spaces[0]
        space = st.selectbox("Space", spaces, key="space")
        state.init("eps", 1.0)
        epsilon = st.number_input("Claimed ε", min_value=0.05, max_value=10.0, step=0.1, key="eps")
        state.init("samples", SAMPLES[0], options=SAMPLES)
        samples = st.selectbox("Releases per side (budget)", SAMPLES, key="samples", format_func=lambda v: f"{v:,}")
        state.init("seed", 0)
        seed = st.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1, key="seed")
        state.init("control", "control-half-noise", options=CONTROLS)
        control = st.selectbox("Positive control beside it", CONTROLS, key="control",
                               format_func=lambda k: AUDITS[k].title)
    state.sync(keys)
    return Settings(name, space, float(epsilon), int(samples), int(seed), control), keys
