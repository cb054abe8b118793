"""Views of the Private regression page: the main figure, Table 1, assumptions, guarantee, diagnostics.

Text from the engine (messages, assumption details) is shown as literal text, never as markdown.
"""

from __future__ import annotations

import streamlit as st

from engine.pipelines.private_regression import predictions
from engine.viz.regression import outlines_figure, sphere_regression_figure

RHAT_LIMIT = 1.01


def main_figure(result):
    """Outlines at five covariate values (shapes) or the geodesic arcs on S² (sphere)."""
    truth, private = predictions(result)
    if result.manifold.name.startswith("Sphere"):
        return sphere_regression_figure(
            data=result.y, footpoint=result.fit.footpoint, velocity=result.fit.velocity,
            private_footpoints=result.footpoints, private_velocities=result.velocities, center=result.ball_center,
            radius=result.ball_radius, title="Fitted (orange) and private (green) geodesics, t from −1 to 1")
    return outlines_figure(truth, private, result.grid_labels,
                           title=f"Predicted shapes against {result.covariate_name}: non-private and private")


def show_table1(result) -> None:
    st.table(result.table1.round(6), hide_index=True, border="horizontal")
    st.caption("Kulkarni & Soto's Table 1 with κ_l = " f"{result.manifold.kappa_min:g}" " (the lower curvature bound "
               "of this space). The noise scale is σ = 2Δ/ε (ε-DP) or the paper's Δ/ε (then 2ε-DP).")


def show_assumptions(result) -> None:
    for check in result.assumptions:
        box = st.success if check.holds else st.warning
        box(f"{check.name}: {'holds' if check.holds else 'fails'} — {check.detail}", icon=None)


def show_guarantee(result) -> None:
    g = result.guarantee
    st.metric("Guarantee", f"ε = {g.epsilon:g}, δ = 0")
    st.text(g.rule)
    with st.expander("Why, and what it assumes"):
        st.text(g.reason)
        for item in g.assumptions:
            st.text(f"• {item}")


def show_diagnostics(result) -> None:
    st.table(result.diagnostics.round(3), hide_index=True, border="horizontal")
    worst = float(result.diagnostics["split R̂ (max)"].max())
    if not worst <= RHAT_LIMIT:
        st.warning(f"Split R̂ = {worst:.3f} > {RHAT_LIMIT}: the chains disagree, so the draws may not follow the "
                   "K-norm gradient law yet (the guarantee is that of the exact law).")
    st.caption("Four chains per target from over-dispersed starts; rank-normalised split-R̂ and bulk/tail ESS of the "
               "log density (arviz-stats). These depend on the data: they are for the curator, not for publication.")
