"""The lower bound of the page benchmark: a bare Streamlit page with a single plotly chart.

``?chart=2d`` draws a 100-point line and ``?chart=3d`` three 3D markers (a WebGL scene): whatever a
page takes beyond these is its own, below them is Streamlit, plotly.js and the browser.
``?chart=sphere`` draws the playground's sphere scene (``engine.viz.sphere``: surface, cap, ball,
100 data points, two clouds of 200 releases) alone, the floor of the playground page on S².
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from engine.viz.sphere import sphere_figure

st.title("Reference page")
rng = np.random.default_rng(0)
chart = st.query_params.get("chart", "2d")
if chart == "sphere":
    pole = np.array([0.0, 0.0, 1.0])

    def near_pole(count: int) -> np.ndarray:
        points = pole + 0.2 * rng.normal(size=(count, 3))
        return points / np.linalg.norm(points, axis=1, keepdims=True)

    figure = sphere_figure(data=near_pole(100), mean=pole, center=pole, radius=0.5,
                           releases={"riemannian laplace": near_pole(200), "tangent gaussian": near_pole(200)})
elif chart == "3d":
    points = rng.normal(size=(3, 3))
    figure = go.Figure(go.Scatter3d(x=points[:, 0], y=points[:, 1], z=points[:, 2], mode="markers"))
else:
    figure = go.Figure(go.Scatter(y=rng.normal(size=100)))
st.plotly_chart(figure)
