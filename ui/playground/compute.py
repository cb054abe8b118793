"""The playground's one computation, ``private_means``: the engine's private-mean pipeline
(``engine.pipelines.private_mean``) for the page's settings, returned as plain arrays, numbers and
strings.

Not ``st.cache_data``: a cached function may not move a progress bar drawn outside it, and the
paper's MH setting runs for seconds. Results are kept in one store shared by every session (the
most recent ``KEEP`` settings, as the cache did); each caller gets its own copy, so no session can
change another's result.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Callable

import streamlit as st

from engine.pipelines import private_mean
from ui.playground.spaces import Settings

KEEP = 16


class ResultStore:
    """The most recent ``KEEP`` pipeline results by settings, safe to use from several sessions at once."""

    def __init__(self) -> None:
        self._results: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, settings: Settings, compute: Callable[[], dict]) -> dict:
        """A copy of the stored result for ``settings``, computed by ``compute()`` the first time."""
        with self._lock:
            found = self._results.get(settings)
            if found is not None:
                self._results.move_to_end(settings)
        if found is None:
            found = compute()
            with self._lock:
                self._results[settings] = found
                while len(self._results) > KEEP:
                    self._results.popitem(last=False)
        return copy.deepcopy(found)


@st.cache_resource(show_spinner=False)
def _store() -> ResultStore:
    return ResultStore()


def private_means(settings: Settings, progress: Callable[[float, str], None] | None = None) -> dict:
    """``private_mean.run(settings).to_dict()``: data, mean, Theorem 2, one run per mechanism, checks.

    ``progress`` receives (fraction done, what runs now) while a new result is computed; a stored
    result returns at once.

    Raises ``ValueError`` when the data cannot be generated (e.g. a radius the sampler cannot fill).
    """
    return _store().get(settings, lambda: private_mean.run(settings, progress=progress).to_dict())
