"""The playground's animations: computing the n animation's frames in the engine, then the per-frame
time of the ε and n animations in headless Chromium (``benchmarks.pages``)."""

from __future__ import annotations

import numpy as np

from benchmarks.pages import run_animation
from benchmarks.timing import Row, best_and_median
from engine.data import sphere_cap
from engine.manifolds import Sphere
from engine.pipelines.sample_size_frames import sample_size_frames, sample_size_grid

#: The playground's largest n and default releases and ε, data as its default source (the paper's cap).
N, RELEASES, EPSILON, RADIUS = 500, 200, 1.0, np.pi / 8


def frames_rows() -> list[Row]:
    """Time of ``sample_size_frames`` at the playground's largest n (one batched call for the prefix
    means, one set of common draws)."""
    sphere, data = Sphere(2), sphere_cap(N, RADIUS, rng=0)
    grid = sample_size_grid(N)
    best, median = best_and_median(lambda: sample_size_frames(sphere, data, sizes=grid, radius=RADIUS,
                                                              epsilon=EPSILON, size=RELEASES, rng=1))
    return [Row(f"n animation frames in the engine: {len(grid)} prefix means of n ≤ {N} + {len(grid)} × {RELEASES} "
                "exact releases (S²)", best, "", median=median)]


def run() -> list[Row]:
    return frames_rows() + run_animation()
