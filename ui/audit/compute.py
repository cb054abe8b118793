"""The audit run behind the page, kept per session so a rerun with the same settings is instant.

Not ``st.cache_data``: the run draws its progress and live curve while it runs, and a cached
function that draws elements is replayed by Streamlit instead of re-run. Results are kept in the
session (the most recent ``KEEP`` settings).
"""

from __future__ import annotations

import streamlit as st

from engine.pipelines.audit import audit_one

KEEP = 16


def audit(name: str, space: str, epsilon: float, samples: int, seed: int, progress=None):
    """``engine.pipelines.audit.audit_one``, or the session's stored result for the same arguments;
    ``progress`` receives each checkpoint of a fresh run."""
    store = st.session_state.setdefault("audit-results", {})
    key = (name, space, epsilon, samples, seed)
    if key not in store:
        store[key] = audit_one(name, space, epsilon, samples, seed, progress=progress)
        while len(store) > KEEP:
            store.pop(next(iter(store)))
    return store[key]
