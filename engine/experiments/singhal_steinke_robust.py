"""Singhal & Steinke (2021): success against the number of adversarial points ℓ.

Outliers are Gaussian points of R^d off the plane. Algorithm 1 is told ℓ (n_min = 3ℓ + ⌊2A⌋ + 2
grows with it); Algorithm 2 adds one block per outlier; the baselines are not told anything.
"""

from __future__ import annotations

from engine.experiments.singhal_steinke import SubspaceStudy, run_settings, success_figures, summarize

OUTLIERS = (0, 5, 10, 20, 40)


def run(*, reps: int = 100, seed: int = 0, outliers=OUTLIERS, d: int = 50, n: int = 2400, k: int = 2,
        epsilon: float = 1.0, delta: float = 1e-6, noise: float = 1e-10, alpha: float = 0.1,
        methods=("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss", "non-private"),
        progress=None):
    """``{"releases", "summary"}`` over the number of outliers at fixed d and n."""
    study = SubspaceStudy(k=k, epsilon=epsilon, delta=delta, alpha=alpha, methods=tuple(methods))
    settings = [{"d": int(d), "n": int(n), "noise": float(noise), "outliers": int(o)} for o in outliers]
    releases = run_settings(study, settings, reps=reps, seed=seed, progress=progress)
    return {"releases": releases, "summary": summarize(releases, ["d", "n", "outliers"])}


def figures(results):
    return success_figures(results["summary"], x="outliers", facet="d", log_x=False,
                           title="Private subspace: success against outliers", x_title="outliers ℓ")
