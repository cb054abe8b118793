"""Sidebar widgets shared by the pages, each bound to the URL (``ui.state``) with a help tooltip."""

from __future__ import annotations

import streamlit as st

from engine import spaces
from ui import state

MAX_SEED = 2**31 - 1

#: Every space of the registry (``engine.spaces``), by its short label (sidebar selects are narrow).
SPACES = {key: entry.short_label for key, entry in spaces.SPACES.items()}


def select(label: str, key: str, options: dict, default: str, help: str) -> str:
    """A selectbox over ``options`` (value -> label) bound to the URL parameter ``key``."""
    state.init(key, default, options=list(options))
    return st.sidebar.selectbox(label, list(options), format_func=options.__getitem__, key=key, help=help)


def space(key: str = "space", default: str = next(iter(SPACES)), options: dict = SPACES) -> str:
    return select("Space", key, options, default,
                  "The curved space the statistic lives on; each has its own plot and curvature.")


def slider(label: str, key: str, *, min_value, max_value, default, step, help: str, fmt: str | None = None):
    """A sidebar slider bound to the URL; a value outside the range falls back to ``default``
    (with a warning when the address gave it, see ``ui.state.init``)."""
    state.init(key, default, bounds=(min_value, max_value))
    return st.sidebar.slider(label, min_value=min_value, max_value=max_value, step=step, key=key,
                             help=help, format=fmt)


def epsilon(key: str = "eps", default: float = 1.0, *, min_value: float = 0.05, max_value: float = 10.0) -> float:
    return slider("Privacy budget ε", key, min_value=min_value, max_value=max_value, default=default, step=0.05,
                  help="Smaller ε means stronger privacy and more noise. ε-DP bounds how much one person's "
                       "record can change the probability of any release, by a factor e^ε.")


def sample_size(key: str = "n", default: int = 50, *, min_value: int = 5, max_value: int = 500) -> int:
    return slider("Sample size n", key, min_value=min_value, max_value=max_value, default=default, step=5,
                  help="Number of records. The sensitivity of the mean, and so the noise, shrinks like 1/n.")


def seed(key: str = "seed", default: int = 0) -> int:
    """The random seed; an address value outside [0, 2³¹ − 1] is reported like every other parameter."""
    return number("Random seed", key, min_value=0, max_value=2**31 - 1, default=default,
                  help="Same seed, same data and releases: copy the address to share the view.")


def toggle(label: str, key: str, *, default: bool, help: str) -> bool:
    """A sidebar on/off switch bound to the URL parameter ``key`` (``true``/``false``)."""
    state.init(key, default)
    return st.sidebar.toggle(label, key=key, help=help)


def choice_slider(label: str, key: str, values, default, help: str, fmt=lambda value: f"{value:g}"):
    """A sidebar slider over the listed ``values`` (e.g. a log-spaced grid) bound to the URL; a URL
    value not among them falls back to ``default`` with a warning."""
    state.init(key, default, options=list(values))
    return st.sidebar.select_slider(label, list(values), key=key, format_func=fmt, help=help)


def number(label: str, key: str, *, min_value: int, max_value: int, default: int, help: str, step: int = 1) -> int:
    """A sidebar integer input bound to the URL; a URL value outside the range falls back to ``default``."""
    state.init(key, default, bounds=(min_value, max_value))
    return int(st.sidebar.number_input(label, min_value=min_value, max_value=max_value, step=step, key=key,
                                       help=help))
