"""Sidebar widgets shared by the pages, each bound to the URL (``ui.state``) with a help tooltip.

In a page's chart-first run (``ui.first_paint``) the same calls draw nothing and return the values
the widgets will have (``ui.state.value``), from which the page computes its chart.
"""

from __future__ import annotations

import streamlit as st

from engine import spaces
from ui import first_paint, glossary, state

#: The largest seed the sidebar takes, 2³¹ − 1 (the largest 32-bit signed integer).
MAX_SEED = 2**31 - 1

#: Every space of the registry (``engine.spaces``), by its short label (sidebar selects are narrow).
SPACES = {key: entry.short_label for key, entry in spaces.SPACES.items()}


def drawing() -> bool:
    """False in a chart-first run: the sidebar gets no widget, note or message this run."""
    return not first_paint.running()


def _widget(kind: str, key: str, default, *, bounds=None, **drawn):
    """The sidebar widget ``st.sidebar.<kind>(key=key, **drawn)`` with its value from ``ui.state.init``
    (a value among ``drawn["options"]``, if given, or within ``bounds``); in a chart-first run only
    that value (``ui.state.value``)."""
    allowed = drawn.get("options")
    if not drawing():
        return state.value(key, default, options=allowed, bounds=bounds)
    state.init(key, default, options=allowed, bounds=bounds)
    return getattr(st.sidebar, kind)(key=key, **drawn)


def caption(text: str) -> None:
    """A note under the sidebar's widgets (none in a chart-first run)."""
    if drawing():
        st.sidebar.caption(text)


def header(text: str) -> None:
    """A heading between groups of the sidebar's widgets (none in a chart-first run)."""
    if drawing():
        st.sidebar.header(text)


def button(label: str, key: str, *, on_click, args: tuple, help: str) -> None:
    """A sidebar button whose ``on_click(*args)`` runs before the next run (none in a chart-first run)."""
    if drawing():
        st.sidebar.button(label, key=key, on_click=on_click, args=args, help=help)


def select(label: str, key: str, options: dict, default: str, help: str) -> str:
    """A selectbox over ``options`` (value -> label) bound to the URL parameter ``key``."""
    return _widget("selectbox", key, default, label=label, options=list(options),
                   format_func=options.__getitem__, help=help)


def multiselect(label: str, key: str, options: dict, default: list, help: str) -> list:
    """A multiselect over ``options`` (value -> label) bound to the URL parameter ``key`` (comma-separated)."""
    return _widget("multiselect", key, default, label=label, options=list(options),
                   format_func=options.__getitem__, help=help)


def space(key: str = "space", default: str = next(iter(SPACES)), options: dict = SPACES) -> str:
    return select("Space", key, options, default,
                  "The curved space the statistic lives on; each has its own plot and curvature.")


def slider(label: str, key: str, *, min_value, max_value, default, step, help: str, fmt: str | None = None):
    """A sidebar slider bound to the URL; a value outside the range falls back to ``default``
    (with a warning when the address gave it, see ``ui.state.init``)."""
    return _widget("slider", key, default, bounds=(min_value, max_value), label=label, min_value=min_value,
                   max_value=max_value, step=step, help=help, format=fmt)


def epsilon(key: str = "eps", default: float = 1.0, *, min_value: float = 0.05, max_value: float = 10.0) -> float:
    return slider("Privacy budget ε", key, min_value=min_value, max_value=max_value, default=default, step=0.05,
                  help=glossary.tooltip("epsilon"))


def sample_size(key: str = "n", default: int = 50, *, min_value: int = 5, max_value: int = 500) -> int:
    return slider("Sample size n", key, min_value=min_value, max_value=max_value, default=default, step=5,
                  help="Number of records. The sensitivity of the mean, and so the noise, shrinks like 1/n.")


def seed(key: str = "seed", default: int = 0) -> int:
    """The random seed; an address value outside [0, 2³¹ − 1] is reported like every other parameter."""
    return number("Random seed", key, min_value=0, max_value=MAX_SEED, default=default,
                  help="Same seed, same data and releases: copy the address to share the view.")


def toggle(label: str, key: str, *, default: bool, help: str) -> bool:
    """A sidebar on/off switch bound to the URL parameter ``key`` (``true``/``false``)."""
    return _widget("toggle", key, default, label=label, help=help)


def choice_slider(label: str, key: str, values, default, help: str, fmt=lambda value: f"{value:g}"):
    """A sidebar slider over the listed ``values`` (e.g. a log-spaced grid) bound to the URL; a URL
    value not among them falls back to ``default`` with a warning."""
    return _widget("select_slider", key, default, label=label, options=list(values),
                   format_func=fmt, help=help)


def number(label: str, key: str, *, min_value, max_value, default, help: str, step=1):
    """A sidebar number input bound to the URL, of the type of ``default`` (int or float); a URL value
    outside the range falls back to ``default``."""
    return type(default)(_widget("number_input", key, default, bounds=(min_value, max_value), label=label,
                                 min_value=min_value, max_value=max_value, step=step, help=help))
