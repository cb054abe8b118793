"""The lower bound of the page benchmark: a bare Streamlit page with a single plotly chart.

``?chart=2d`` draws a 100-point line and ``?chart=3d`` three 3D markers (a WebGL scene): whatever a
page takes beyond these is its own, below them is Streamlit, plotly.js and the browser.
``?chart=sphere`` draws the playground's sphere scene (``engine.viz.sphere``: surface, cap, ball,
100 data points, two clouds of 200 releases) alone, the floor of the playground page on S².

``&live=true`` draws the same figure with ``ui.live_chart`` (updated in place by ``Plotly.react``)
instead of ``st.plotly_chart``. The sidebar's seed slider (default 1) redraws the random points (cached), the
floor of a page's cached re-render.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from engine.viz.sphere import sphere_figure
from ui.live_chart import live_chart


@st.cache_data(show_spinner=False)
def figure(chart: str, seed: int) -> go.Figure:
    """The reference figure ``chart`` with random points from ``seed``."""
    rng = np.random.default_rng(seed)
    if chart == "sphere":
        pole = np.array([0.0, 0.0, 1.0])

        def near_pole(count: int) -> np.ndarray:
            points = pole + 0.2 * rng.normal(size=(count, 3))
            return points / np.linalg.norm(points, axis=1, keepdims=True)

        return sphere_figure(data=near_pole(100), mean=pole, center=pole, radius=0.5,
                             releases={"riemannian laplace": near_pole(200), "tangent gaussian": near_pole(200)})
    if chart == "3d":
        points = rng.normal(size=(3, 3))
        return go.Figure(go.Scatter3d(x=points[:, 0], y=points[:, 1], z=points[:, 2], mode="markers"))
    return go.Figure(go.Scatter(y=rng.normal(size=100)))


st.title("Reference page")
seed = st.sidebar.slider("Seed", min_value=0, max_value=5, value=1)
shown = figure(st.query_params.get("chart", "2d"), seed)
if st.query_params.get("live") == "true":
    live_chart(shown, key="reference-chart")
else:
    st.plotly_chart(shown, key="reference-chart")
