"""The audit run behind the page, kept for every session so a rerun or a new visit with the same
settings is instant.

Not ``st.cache_data``: the run draws its progress and live curve while it runs, and a cached
function that draws elements is replayed by Streamlit instead of re-run. Results are kept in the
server's shared store (``ui.result_store``, the most recent 16 settings): an audit is deterministic
for its arguments, seed included, so a new session (a returning visit, a class on one server) gets the
stored result instead of drawing every release again before its first chart.
"""

from __future__ import annotations

import streamlit as st

from engine.audit.tradeoff import TradeoffCurve, audit_tradeoff
from engine.pipelines.audit import audit_one
from ui.result_store import shared_store


def audit(name: str, space: str, epsilon: float, samples: int, seed: int, progress=None):
    """``engine.pipelines.audit.audit_one``, or the stored result for the same arguments (a copy);
    ``progress`` receives each checkpoint of a fresh run."""
    return shared_store("audit").get((name, space, epsilon, samples, seed),
                                     lambda: audit_one(name, space, epsilon, samples, seed, progress=progress))


@st.cache_data(max_entries=32, show_spinner=False)
def tradeoff(result) -> TradeoffCurve:
    """``engine.audit.tradeoff.audit_tradeoff`` of ``result``, kept by its content (up to a second at a budget
    of 10⁶ releases, so a rerun that changes nothing else does not redo it)."""
    return audit_tradeoff(result)
