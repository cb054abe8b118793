"""Views of the Private subspaces page: the 3D figure, the numbers, the d-sweep and why d drops out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine.pipelines.private_subspace import METHODS, PrivateSubspaceResult
from engine.viz.subspaces import dimension_sweep_figure, distinct_releases
from ui.progress import DelayedProgress
from ui.subspaces.compute import SWEEP_DIMENSIONS, SWEEP_METHODS, SWEEP_REPS, SWEEP_SIZES, SWEEP_STUDY, sweep_cell

#: Seconds the sweep may take before its progress bar appears.
PROGRESS_AFTER = 2.0
#: Projection distance up to which a release is the true subspace itself (its public rounding grid only).
EXACT_ERROR = 1e-3
SWEEP_LABELS = {"singhal-steinke-exact": "SS exact", "singhal-steinke-approx": "SS approximate",
                "analyze-gauss": "Analyze Gauss"}

WHY_D_DROPS_OUT = """
**Why the dimension drops out.** The exact algorithm never adds noise to coordinates. It *counts*:
the score of a candidate subspace is the number of points inside it minus the most points in any
smaller subspace, and one person can change that count by at most one, whatever d is. A stable
selection (truncated Laplace noise on the gap between the best and the second-best score) then
publishes the winner or ⊥, so the sample size it needs, n ≥ 3ℓ + ⌊2A⌋ + 2 with
A = (2/ε)·ln(1 + (e^ε − 1)/(2δ)), mentions ε, δ and the outliers ℓ but not d. The approximate
algorithm inherits the same property from subsample-and-aggregate: it counts how many blocks agree.

Noise-addition methods cannot do this. Analyze Gauss adds a d × d Gaussian matrix to XᵀX; its
largest eigenvalue grows like 2σ√d, so the data must outweigh it with n growing like √d
(Dwork, Talwar, Thakurta & Zhang 2014). Singhal & Steinke (2021) show that any method that works
for every data set pays such a price; theirs escapes it by assuming the data (almost) lie in a
subspace and answering ⊥ when they do not.
"""


def caption(result: PrivateSubspaceResult) -> str:
    """What the figure shows."""
    drawn = len(distinct_releases(result.bases, result.bottom))
    valid = int((~result.bottom).sum())
    return (f"Black: the true subspace U. Blue: {drawn} distinct subspace{'s' if drawn != 1 else ''} among the "
            f"{valid} private releases that are not ⊥ (of {len(result.bottom)}). Drag to rotate.")


def show_numbers(result: PrivateSubspaceResult) -> None:
    """⊥ rate, success rate, median error, the sample size the guarantee needs and the principal angles."""
    config = result.config
    bottom_rate, success = result.bottom_rate, result.success_rate
    errors = result.proj_error[~result.bottom]
    median = f"{np.median(errors):.2f}" if errors.size else "—"
    row = st.container(horizontal=True, horizontal_alignment="distribute")  # wraps rather than cuts a value
    row.metric("⊥ rate", f"{bottom_rate:.0%}", help="Share of releases that answered ⊥ (the data do not fit).",
               width="content")
    row.metric("Success", f"{success:.0%}", help=f"Not ⊥ and ‖Π̂ − Π‖ ≤ {config.alpha:g}.", width="content")
    row.metric("Error", median, help="Median projection distance ‖Π̂ − Π‖ = sin θ_max to the true subspace, "
                                     "over the releases that are not ⊥.", width="content")
    if result.min_samples:
        st.caption(f"{METHODS[config.method]} needs n ≥ {result.min_samples:,} for its guarantee at these "
                   f"ε, δ and outliers (the same for any dimension d); here n = {config.n:,}.")
    if config.method == "exact" and errors.size and errors.max() <= EXACT_ERROR:
        st.caption("Every release that is not ⊥ is U itself: Algorithm 1 publishes the subspace that wins the count, "
                   "with no noise on it, so the figure stays the same as ε changes. It writes U down on a public "
                   "grid of 2⁻¹⁶ from a random public direction, never as the basis its search built from the "
                   "points (that basis would name the records). ε sets how many points the "
                   "guarantee needs (lower ε and the n above grows), and the privacy comes from answering ⊥ "
                   "whenever the win is not stable (add noise off the subspace to see it).")
    if config.method == "exact" and config.noise > 0 and bottom_rate > 0.5:
        st.info("The exact algorithm needs the points to lie exactly in U (up to a relative tolerance of 1e-6): "
                "with noise no subspace has a clear lead and it answers ⊥. Try the approximate algorithm.")
    if config.method == "approx" and success < 0.5 and bottom_rate < 0.5:
        st.info(f"Algorithm 2's grid cells are {result.diagnostics['cell_width']:.2g} wide at γ = noise: wider "
                f"than the spread of the projected reference points, so the winning cell's centre no longer pins "
                f"down the subspace. Its guarantee needs an eigengap γ ≲ 1/poly(d); lower the noise.")
    if config.method == "approx" and config.noise == 0:
        st.caption("With no noise the approximate algorithm is told γ = 1e-12.")
    st.markdown("**Principal angles to U** (degrees; first releases)")
    st.table(angle_table(result), hide_index=True, border="horizontal")


def angle_table(result: PrivateSubspaceResult, rows: int = 5) -> pd.DataFrame:
    """Principal angles (degrees) and ‖Π̂ − Π‖ of the first ``rows`` releases; ⊥ says so."""
    k = result.angles.shape[1]
    out = []
    for i in range(min(rows, len(result.bottom))):
        row = {"release": i + 1}
        if result.bottom[i]:
            row.update({f"θ{j + 1}": "⊥" for j in range(k)}, **{"‖Π̂ − Π‖": "⊥"})
        else:
            row.update({f"θ{j + 1}": f"{np.degrees(a):.3g}" for j, a in enumerate(result.angles[i])},
                       **{"‖Π̂ − Π‖": f"{result.proj_error[i]:.2g}"})
        out.append(row)
    return pd.DataFrame(out)


def show_guarantee(result: PrivateSubspaceResult) -> None:
    """The mechanism's privacy guarantee as literal text."""
    guarantee = result.guarantee
    if guarantee is None:
        st.warning("Non-private PCA: no privacy guarantee. It is here as the reference the private methods chase.")
        return
    delta = f", δ = {guarantee.delta:g}" if guarantee.delta else ""
    st.text(f"{guarantee.mechanism}: ε = {guarantee.epsilon:g}{delta}\nRule: {guarantee.rule}\n"
            f"Why: {guarantee.reason}\nAssumes: " + "; ".join(guarantee.assumptions))


def releases_table(result: PrivateSubspaceResult) -> pd.DataFrame:
    """One row per release: ⊥, ‖Π̂ − Π‖ and the principal angles in radians (for the CSV download)."""
    frame = pd.DataFrame({"release": np.arange(1, len(result.bottom) + 1), "bottom": result.bottom,
                          "proj_error": result.proj_error})
    for j in range(result.angles.shape[1]):
        frame[f"angle_{j + 1}"] = result.angles[:, j]
    return frame.assign(method=result.config.method, n=result.config.n)


def dimension_sweep(k: int, epsilon: float, delta: float, seed: int) -> pd.DataFrame:
    """Summary of the sweep (every d and n), computed cell by cell; a progress bar after ``PROGRESS_AFTER`` s."""
    cells = [(d, n) for d in SWEEP_DIMENSIONS for n in SWEEP_SIZES]
    parts = []
    with DelayedProgress(after=PROGRESS_AFTER) as progress:
        for i, (d, n) in enumerate(cells):
            parts.append(sweep_cell(k, epsilon, delta, seed, d, n))
            progress((i + 1) / len(cells), f"Dimension sweep: d = {d:,}, n = {n:,} done ({i + 1} of {len(cells)} cells)")
    return pd.concat(parts, ignore_index=True)


def sweep_figure(summary: pd.DataFrame):
    """Success against n for every method and d."""
    return dimension_sweep_figure(summary, colors=SWEEP_STUDY.colors, labels=SWEEP_LABELS,
                                  title="Success against n: colour = method, dash = dimension d")


def sweep_caption(epsilon: float, delta: float) -> str:
    sets = SWEEP_STUDY.config(reps=SWEEP_REPS).data_sets
    return (f"{SWEEP_REPS} releases per point ({sets} data set{'s' if sets > 1 else ''}) at ε = {epsilon:g}, "
            f"δ = {delta:g}, no noise, "
            f"success = not ⊥ and ‖Π̂ − Π‖ ≤ 0.1. Solid d = 10, dashed d = 100, dotted d = 1,000: the "
            f"Singhal–Steinke curves lie on top of each other, Analyze Gauss's move right as d grows. The "
            f"approximate algorithm needs n in the thousands, so it appears at n = 1,600 only.")


def sweep_settings(k: int, epsilon: float, delta: float, seed: int) -> dict:
    """The study settings of the whole sweep, for ``python -m engine.experiments singhal-steinke-dimension``."""
    return {"reps": SWEEP_REPS, "seed": seed, "k": k, "epsilon": epsilon, "delta": delta,
            "dimensions": list(SWEEP_DIMENSIONS), "sample_sizes": list(SWEEP_SIZES), "methods": list(SWEEP_METHODS),
            "block": SWEEP_REPS}
