"""The shared result store behind pages that show progress: computes once per key, keeps the most
recent ``keep`` keys, and hands every caller its own copy."""

import numpy as np
import pytest

from ui.result_store import ResultStore


def test_a_key_is_computed_once_and_each_caller_gets_a_copy():
    store, calls = ResultStore(keep=2), []

    def compute():
        calls.append(1)
        return {"x": np.zeros(3)}

    first = store.get("a", compute)
    first["x"][0] = 7.0
    assert store.get("a", compute)["x"][0] == 0.0
    assert len(calls) == 1


def test_the_least_recently_used_key_is_dropped_beyond_keep():
    store, calls = ResultStore(keep=2), []

    def compute(key):
        return lambda: calls.append(key) or key

    for key in ("a", "b", "a", "c", "a", "b"):
        store.get(key, compute(key))
    assert calls == ["a", "b", "c", "b"]


def test_a_failed_computation_is_not_kept():
    store = ResultStore()

    def fail():
        raise ValueError("radius must be > 0, got -1")

    for _ in range(2):
        with pytest.raises(ValueError, match="got -1"):
            store.get("bad", fail)
    assert store.get("bad", lambda: 5) == 5
