"""Singhal & Steinke (2021): success against n for d ∈ {10, 100, 1000} — the dimension drops out.

Data: n points of a random k-plane of R^d plus isotropic noise 1e-10 (Problem 3.1 up to the
membership tolerance, Problem 4.1 with γ = 1e-10). Algorithm 1 needs n >= 3ℓ + ⌊2A⌋ + 2 and
Algorithm 2 needs n >= m·b_min, neither depending on d; Analyze Gauss's noise ‖E‖₂ ≈ 2σ√d makes
its curve move right as d grows.
"""

from __future__ import annotations

from engine.experiments.singhal_steinke import SubspaceStudy, run_settings, success_figures, summarize

DIMENSIONS = (10, 100, 1000)
SAMPLE_SIZES = (100, 400, 1600)


def run(*, reps: int = 200, seed: int = 0, dimensions=DIMENSIONS, sample_sizes=SAMPLE_SIZES, k: int = 2,
        epsilon: float = 1.0, delta: float = 1e-6, noise: float = 1e-10, alpha: float = 0.1,
        methods=("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss", "non-private"),
        progress=None):
    """``{"releases": one row per release, "summary": success/⊥ rate and median error per (d, n, method)}``."""
    study = SubspaceStudy(k=k, epsilon=epsilon, delta=delta, alpha=alpha, methods=tuple(methods))
    settings = [{"d": int(d), "n": int(n), "noise": float(noise), "outliers": 0}
                for d in dimensions for n in sample_sizes]
    releases = run_settings(study, settings, reps=reps, seed=seed, progress=progress)
    return {"releases": releases, "summary": summarize(releases, ["d", "n"])}


def figures(results):
    return success_figures(results["summary"], x="n", facet="d", title="Private subspace: success against n",
                           x_title="n")
