"""Whole simulation studies at the paper's sizes (issue: mechanisms)."""

from __future__ import annotations

import time

from benchmarks.timing import Row
from engine.experiments import reimherr_fig1


def run() -> list[Row]:
    start = time.perf_counter()
    results = reimherr_fig1.run(reps=1000, seed=0)
    seconds = time.perf_counter() - start
    summary = results["summary"]
    spd = summary[(summary.space == "spd") & (summary.mechanism == "exact")].noise_reduction_pct
    sphere = summary[(summary.space == "sphere") & (summary.mechanism == "exact")].noise_reduction_pct
    return [Row("reimherr-fig1, 1,000 replicates × 10 sample sizes, four panels", seconds, "< 60 s",
                f"noise reduction SPD {spd.min():.0f}–{spd.max():.0f}%, sphere {sphere.min():.0f}–{sphere.max():.0f}%")]
