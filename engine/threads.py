"""One BLAS thread inside the engine's batched computations (threadpoolctl).

The batched paths multiply many tiny matrices (2×2, 3×3, 6×n): a BLAS thread pool gains nothing
there and, on a machine whose cores are busy, its threads wait for each other; timings then swing
by up to 20× between runs. ``single_blas_thread`` caps every loaded BLAS library (numpy's and
scipy's OpenBLAS) at one thread for the duration of a call and restores the previous limits after.
Nested uses cost nothing: only the outermost one talks to threadpoolctl (~0.1 ms).
"""

from __future__ import annotations

import functools
import threading
from contextlib import contextmanager

_state = threading.local()
_controller = None
_lock = threading.Lock()


def _get_controller():
    """The threadpoolctl controller, built once (scanning the loaded libraries costs ~10 ms)."""
    global _controller
    with _lock:
        if _controller is None:
            from threadpoolctl import ThreadpoolController

            _controller = ThreadpoolController()
        return _controller


@contextmanager
def single_blas_thread():
    """Context in which BLAS calls of this thread run on one thread."""
    depth = getattr(_state, "depth", 0)
    _state.depth = depth + 1
    try:
        if depth:
            yield
        else:
            with _get_controller().limit(limits=1, user_api="blas"):
                yield
    finally:
        _state.depth = depth


def blas_capped(fn):
    """Decorator: run ``fn`` inside :func:`single_blas_thread`."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with single_blas_thread():
            return fn(*args, **kwargs)

    return wrapper
