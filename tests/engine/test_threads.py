"""The BLAS thread cap of the batched paths (engine.threads)."""

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from engine.estimators import frechet_mean
from engine.manifolds import SPD
from engine.threads import blas_capped, single_blas_thread


def _blas_threads() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_single_blas_thread_caps_and_restores():
    with threadpool_limits(limits=2, user_api="blas"):
        assert _blas_threads() == {2}
        with single_blas_thread():
            assert _blas_threads() == {1}
            with single_blas_thread():              # nested: still capped, no second limit
                assert _blas_threads() == {1}
            assert _blas_threads() == {1}
        assert _blas_threads() == {2}


def test_decorated_engine_calls_run_capped():
    seen = []

    @blas_capped
    def probe():
        seen.append(_blas_threads())
        return frechet_mean(SPD(2), np.broadcast_to(np.eye(2), (3, 2, 2))).mean

    with threadpool_limits(limits=2, user_api="blas"):
        np.testing.assert_allclose(probe(), np.eye(2))
        assert seen == [{1}] and _blas_threads() == {2}
