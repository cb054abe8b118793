"""Results of long computations kept for every session, for pages that show progress while they compute.

``st.cache_data`` cannot serve here: a cached function may not move a progress bar drawn outside
it, and Streamlit replays what a cached function draws instead of running it. A ``ResultStore``
keeps the most recent ``keep`` results by a hashable key (a frozen settings object), shared by
every session; each caller gets its own copy, so no session can change another's result.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Callable, Hashable

import streamlit as st


class ResultStore:
    """The most recent ``keep`` results by key, safe to use from several sessions at once."""

    def __init__(self, keep: int = 16) -> None:
        self.keep = keep
        self._results: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], object]):
        """A copy of the stored result for ``key``, computed by ``compute()`` the first time.

        Two sessions asking for a new key at once may both compute it; the results are equal (every
        computation here is deterministic for its key), and the store keeps one."""
        with self._lock:
            found = self._results.get(key)
            if found is not None:
                self._results.move_to_end(key)
        if found is None:
            found = compute()
            with self._lock:
                self._results[key] = found
                while len(self._results) > self.keep:
                    self._results.popitem(last=False)
        return copy.deepcopy(found)


@st.cache_resource(show_spinner=False)
def shared_store(name: str) -> ResultStore:
    """The one store named ``name`` of this server process (e.g. one per page)."""
    return ResultStore()
