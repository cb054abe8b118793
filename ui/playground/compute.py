"""The playground's one cached computation, ``private_means``: the engine's private-mean pipeline
(``engine.pipelines.private_mean``), cached by its settings and returned as plain arrays, numbers
and strings so that the cache stores it cheaply."""

from __future__ import annotations

import streamlit as st

from engine.pipelines import private_mean
from ui.playground.spaces import Settings


@st.cache_data(max_entries=16, show_spinner=False)
def private_means(settings: Settings) -> dict:
    """``private_mean.run(settings).to_dict()``: data, mean, Theorem 2, one run per mechanism, checks.

    Raises ``ValueError`` when the data cannot be generated (e.g. a radius the sampler cannot fill).
    """
    return private_mean.run(settings).to_dict()
