"""Sampler entry points refuse a ``size`` whose arrays would not fit, in one line and before drawing anything."""

import re
import time

import numpy as np
import pytest

from engine.budget import DRAW_COPIES, MEMORY_LIMIT, draw_batch
from engine.manifolds import SPD, Sphere
from engine.mechanisms import RiemannianLaplace
from engine.mechanisms.gaussian import tangent_gaussian
from engine.mechanisms.laplace import ambient_laplace_coordinates, euclidean_laplace

NORTH = np.array([0.0, 0.0, 1.0])
TOO_MANY = "1000000000000 draws of 3 coordinates (size = 1000000000000 at 1 footpoint) need about 873 TiB of memory"


@pytest.mark.parametrize("draw", [
    lambda: RiemannianLaplace(manifold=Sphere(2), sensitivity=0.1, epsilon=1.0).release(NORTH, size=10**12, rng=0),
    lambda: RiemannianLaplace(manifold=Sphere(2), sensitivity=0.1, epsilon=1.0).release(NORTH, size=10**12, rng=0,
                                                                                        method="mh"),
    lambda: euclidean_laplace(Sphere(2), NORTH, 0.1, size=10**12, rng=0),
    lambda: ambient_laplace_coordinates(Sphere(2), NORTH, 0.1, size=10**12, rng=0),
    lambda: tangent_gaussian(Sphere(2), NORTH, 0.1, size=10**12, rng=0),
], ids=["exact", "mh", "euclidean", "ambient", "gaussian"])
def test_a_size_beyond_the_memory_is_refused_at_once(draw):
    start = time.perf_counter()
    with pytest.raises(ValueError, match=re.escape(TOO_MANY) + ".*; lower size, or draw in several calls"):
        draw()
    assert time.perf_counter() - start < 1.0  # was: allocating until the machine ran out


def test_the_budget_counts_footpoints_and_coordinates():
    fits = MEMORY_LIMIT // (8 * DRAW_COPIES * 4 * 3)  # SPD(2) points hold 4 floats; 3 footpoints
    assert draw_batch(fits, (3,), (2, 2)) == (fits, 3)
    with pytest.raises(ValueError, match=f"size = {fits + 1} at 3 footpoints"):
        draw_batch(fits + 1, (3,), (2, 2))
    assert draw_batch(None, (3,), (2, 2)) == (3,)
    with pytest.raises(ValueError, match="size must be an integer >= 1, got 0"):
        tangent_gaussian(SPD(2), np.eye(2), 0.1, size=0)
