"""The audit run behind the page, kept per session so a rerun with the same settings is instant.

Not ``st.cache_data``: the run draws its progress and live curve while it runs, and a cached
function that draws elements is replayed by Streamlit instead of re-run. Results are kept in the
session (the most recent ``KEEP`` settings).
"""

from __future__ import annotations

import streamlit as st

from engine.audit import AUDITS, run_audit

# Batches of this many releases per side: the first bound shows after two of them.
BATCH = 10_000
KEEP = 16


def audit(name: str, space: str, epsilon: float, samples: int, seed: int, progress=None):
    """``run_audit`` of the named audit, or the session's stored result for the same arguments;
    ``progress`` receives each checkpoint of a fresh run."""
    store = st.session_state.setdefault("audit-results", {})
    key = (name, space, epsilon, samples, seed)
    if key not in store:
        target = AUDITS[name].target(space, epsilon)
        store[key] = run_audit(target, samples=samples, rng=seed, batch_size=min(BATCH, target.batch_size),
                               progress=progress)
        while len(store) > KEEP:
            store.pop(next(iter(store)))
    return store[key]
