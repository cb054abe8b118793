"""The shared result store behind pages that show progress: computes once per key, keeps the most
recent ``keep`` keys, and hands every caller its own copy; in memory (one process) or in one SQLite file
that every process of ``make serve`` shares."""

import multiprocessing

import numpy as np
import pytest

from ui.disk_store import DiskResultStore
from ui.result_store import SHARED_STORE_ENV, ResultStore, shared_store


@pytest.fixture(params=["memory", "sqlite"])
def make_store(request, tmp_path):
    if request.param == "memory":
        return lambda keep=16: ResultStore(keep=keep)
    return lambda keep=16: DiskResultStore(str(tmp_path / "results.sqlite"), "page", keep=keep)


def test_a_key_is_computed_once_and_each_caller_gets_a_copy(make_store):
    store, calls = make_store(keep=2), []

    def compute():
        calls.append(1)
        return {"x": np.zeros(3)}

    first = store.get("a", compute)
    first["x"][0] = 7.0
    assert store.get("a", compute)["x"][0] == 0.0
    assert len(calls) == 1


def test_the_least_recently_used_key_is_dropped_beyond_keep(make_store):
    store, calls = make_store(keep=2), []

    def compute(key):
        return lambda: calls.append(key) or key

    for key in ("a", "b", "a", "c", "a", "b"):
        store.get(key, compute(key))
    assert calls == ["a", "b", "c", "b"]


def test_a_failed_computation_is_not_kept(make_store):
    store = make_store()

    def fail():
        raise ValueError("radius must be > 0, got -1")

    for _ in range(2):
        with pytest.raises(ValueError, match="got -1"):
            store.get("bad", fail)
    assert store.get("bad", lambda: 5) == 5


def _compute_in_another_process(path: str, key) -> None:
    DiskResultStore(path, "audit").get(key, lambda: {"seen": np.arange(4.0), "by": "child"})


def test_a_result_computed_by_one_process_is_served_to_another(tmp_path):
    """What two app processes behind the proxy do: the second never recomputes what the first stored."""
    path = str(tmp_path / "results.sqlite")
    key = ("laplace", "sphere", 1.0, 20_000, 0)
    child = multiprocessing.get_context("spawn").Process(target=_compute_in_another_process, args=(path, key))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    found = DiskResultStore(path, "audit").get(key, lambda: pytest.fail("recomputed a result another process stored"))
    assert found["by"] == "child" and np.array_equal(found["seen"], np.arange(4.0))
    assert DiskResultStore(path, "samplers").get(key, lambda: "its own") == "its own"


def test_the_store_is_in_the_file_the_serve_names(tmp_path, monkeypatch):
    monkeypatch.setenv(SHARED_STORE_ENV, str(tmp_path / "results.sqlite"))
    assert isinstance(shared_store.__wrapped__("audit"), DiskResultStore)
    monkeypatch.delenv(SHARED_STORE_ENV)
    assert isinstance(shared_store.__wrapped__("audit"), ResultStore)
