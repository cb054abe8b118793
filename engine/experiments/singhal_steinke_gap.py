"""Singhal & Steinke (2021): success against the noise level (the eigengap γ ≈ noise).

Algorithm 1 needs exact data (any noise above its membership tolerance gives ⊥); Algorithm 2
needs γ ≲ 1/poly(d) (its cell width grows with γ√d); the noise-addition baselines barely notice.
"""

from __future__ import annotations

from engine.experiments.singhal_steinke import SubspaceStudy, run_settings, success_figures, summarize

NOISES = (0.0, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2)


def run(*, reps: int = 100, seed: int = 0, noises=NOISES, d: int = 50, n: int = 1600, k: int = 2,
        epsilon: float = 1.0, delta: float = 1e-6, alpha: float = 0.1,
        methods=("singhal-steinke-exact", "singhal-steinke-approx", "analyze-gauss", "bingham", "non-private"),
        progress=None):
    """``{"releases", "summary"}`` over the noise levels at fixed d and n."""
    study = SubspaceStudy(k=k, epsilon=epsilon, delta=delta, alpha=alpha, methods=tuple(methods))
    settings = [{"d": int(d), "n": int(n), "noise": float(s), "outliers": 0} for s in noises]
    releases = run_settings(study, settings, reps=reps, seed=seed, progress=progress)
    return {"releases": releases, "summary": summarize(releases, ["d", "n", "noise"])}


def figures(results):
    summary = results["summary"].assign(noise=lambda f: f["noise"].clip(lower=1e-12))
    return success_figures(summary, x="noise", facet="d", title="Private subspace: success against noise",
                           x_title="noise (γ; 0 drawn at 1e-12)")
