"""Which of ``engine.viz``'s figures the Private regression page draws for a run: the predicted outlines
(shapes) or the geodesic arcs on S², and the footpoint chains' trace."""

from __future__ import annotations

import plotly.graph_objects as go

from engine.pipelines.private_regression import RegressionResult, predictions
from engine.viz.curves import trace_figure
from engine.viz.regression import outlines_figure, sphere_regression_figure


def main_figure(result: RegressionResult) -> go.Figure:
    """Outlines at five covariate values (shapes) or the geodesic arcs on S² (sphere)."""
    if result.manifold.name.startswith("Sphere"):
        return sphere_regression_figure(
            data=result.y, footpoint=result.fit.footpoint, velocity=result.fit.velocity,
            private_footpoints=result.footpoints, private_velocities=result.velocities, center=result.ball_center,
            radius=result.ball_radius, title="Fitted (orange) and private (green) geodesics, t from −1 to 1")
    truth, private = predictions(result)
    return outlines_figure(truth, private, result.grid_labels,
                           title=f"Predicted shapes against {result.covariate_name}: non-private and private")


def trace(result: RegressionResult) -> go.Figure:
    """The footpoint chains after warm-up, one row per chain."""
    rows = result.trace.assign(quantity="‖∇_p E‖ (footpoint step), chain " + result.trace.chain.astype(str))
    return trace_figure(rows, quantity="quantity", name="non-private", title="Footpoint chains after warm-up",
                        row_height=110)
