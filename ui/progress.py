"""A progress bar that appears only when the work it follows turns out to be long."""

from __future__ import annotations

import time

import streamlit as st

#: Seconds a computation may run before its progress bar appears (issue 14: progress beyond 2 s).
SHOW_AFTER = 1.0


class DelayedProgress:
    """Callable ``(fraction, text)`` that draws a ``st.progress`` bar once ``after`` seconds have passed.

    Use as a context manager: the bar disappears when the work ends, and short work never shows one.
    """

    def __init__(self, after: float = SHOW_AFTER) -> None:
        self.after = after
        self.bar = None
        self.start = time.perf_counter()

    def __call__(self, fraction: float, text: str) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < self.after or fraction >= 1.0:
                return
            self.bar = st.progress(0.0)
        self.bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"{text} ({fraction:.0%})")

    def __enter__(self) -> DelayedProgress:
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.empty()
