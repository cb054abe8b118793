"""Results of long computations kept for every session, for pages that show progress while they compute.

``st.cache_data`` cannot serve here: a cached function may not move a progress bar drawn outside
it, and Streamlit replays what a cached function draws instead of running it. A ``ResultStore``
keeps the most recent ``keep`` results by a hashable key (a frozen settings object), shared by
every session; each caller gets its own copy, so no session can change another's result. Where the
app runs as several processes (``make serve`` sets ``MPE_SHARED_STORE``) the stores live in that one
SQLite file instead (``ui.disk_store``), shared by every process.
"""

from __future__ import annotations

import copy
import os
import threading
from collections import OrderedDict
from typing import Callable, Hashable

import streamlit as st

from ui.disk_store import DiskResultStore

#: Environment variable naming the SQLite file every app process of one serve shares.
SHARED_STORE_ENV = "MPE_SHARED_STORE"


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
def shared_store(name: str) -> ResultStore | DiskResultStore:
    """The one store named ``name`` (e.g. one per page): in this process's memory, or in the file
    ``$MPE_SHARED_STORE`` shared by all the processes of a serve."""
    path = os.environ.get(SHARED_STORE_ENV)
    return DiskResultStore(path, name) if path else ResultStore()
